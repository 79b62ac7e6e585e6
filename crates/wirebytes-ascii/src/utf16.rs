//! The `&[u16]` input forms: every unit truncated to its low byte, in loops the compiler
//! vectorises on every target (`pand` + `packuswb` on SSE2, the target's equivalent
//! elsewhere). No kernel level changes them.

use crate::chunks::SplitChunks;
use crate::counters::{self, Path};
#[cfg(feature = "alloc")]
use alloc::vec::Vec;

/// UTF-16 units truncated per step of the UTF-16 loop.
const UNITS: usize = 32;

/// The fast `copy_low_bytes_from_utf16`: see the crate root for the contract. Inlined for the
/// sake of short inputs, which cost no call; from 32 units on, `copy_units` (out of line,
/// where LLVM is sure to vectorise it).
#[inline]
pub(crate) fn copy_low_bytes_from_utf16(src: &[u16], dst: &mut [u8]) -> usize {
    let n = src.len().min(dst.len());
    if n < UNITS {
        for (d, s) in dst.iter_mut().zip(src) {
            *d = *s as u8;
        }
        n
    } else {
        copy_units(src, dst)
    }
}

/// The truncating loop of `copy_low_bytes_from_utf16`: 32 units at a time, then the rest.
fn copy_units(src: &[u16], dst: &mut [u8]) -> usize {
    let n = src.len().min(dst.len());
    counters::add(Path::CopyUnits, n);
    let (src, dst) = (&src[..n], &mut dst[..n]);
    let (src_chunks, src_tail) = src.split_chunks::<UNITS>();
    let (dst_chunks, dst_tail) = dst.split_chunks_mut::<UNITS>();
    for (s, d) in src_chunks.iter().zip(dst_chunks) {
        for (d, s) in d.iter_mut().zip(s) {
            *d = *s as u8;
        }
    }
    for (d, s) in dst_tail.iter_mut().zip(src_tail) {
        *d = *s as u8;
    }
    n
}

/// The fast `low_bytes_from_utf16_to_vec`: `Vec::extend` from an iterator of known length
/// reserves `src.len()` once (nothing when the spare capacity holds it) and writes the spare
/// capacity without zeroing it first, in a loop the compiler vectorises like
/// [`copy_units`]. (`low_bytes_from_utf16` collects the same iterator into a new vector:
/// one allocation of exactly `src.len()` bytes.)
#[cfg(feature = "alloc")]
#[inline]
pub(crate) fn low_bytes_from_utf16_to_vec(src: &[u16], dst: &mut Vec<u8>) {
    dst.extend(src.iter().map(|&unit| unit as u8));
}
