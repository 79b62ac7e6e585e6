//! Header-value safety: which rendered bytes `http::HeaderValue::from_bytes` accepts, the
//! search for the first it does not, and the rendering that checks as it copies.
//!
//! A header value may hold HTAB, `0x20..=0x7E` and `0x80..=0xFF`. The checks below run over
//! fixed-size blocks with a plain per-byte predicate folded into one flag, which the compiler
//! turns into vector code on any target; the first invalid byte is then located inside the
//! one block that has it.
//!
//! Rendering checks in the same pass as it copies where the text is plain (ASCII header
//! bytes, copied as they are): the copy of [`crate::copy`] runs with the [`HeaderText`] rule,
//! so the block that is checked is the block that is stored. Past the first other char, the
//! rendered bytes of the rest are checked right after they are written, while they are in
//! cache. This module calls the copy; the copy knows nothing of it.

use core::fmt;

use crate::arch::Kernels;
use crate::chunks::SplitChunks;
#[cfg(feature = "alloc")]
use crate::copy::{Plain, SHORT, copy_long, copy_plain_prefix, reserve_len};
use crate::counters::{self, Path};
#[cfg(feature = "alloc")]
use crate::out::{Out, extend_vec};
use crate::swar::not_header_bytes;
#[cfg(feature = "alloc")]
use alloc::vec::Vec;

/// Whether a header value may hold `byte`: HTAB, `0x20..=0x7E` and `0x80..=0xFF`.
#[inline]
pub(crate) const fn is_header_byte(byte: u8) -> bool {
    not_header_byte(byte) == 0
}

/// An ASCII byte that a header value may hold as it is: HTAB and `0x20..=0x7E`.
#[cfg(feature = "alloc")]
#[inline(always)]
fn is_plain_header_byte(byte: u8) -> bool {
    byte == b'\t' || byte.wrapping_sub(0x20) < 0x5F
}

/// 1 if `byte` is not a header byte, else 0: the rule written without branches, so that a
/// fold over a block is vector code.
#[inline(always)]
const fn not_header_byte(byte: u8) -> u8 {
    ((byte < 0x20) as u8 & (byte != b'\t') as u8) | (byte == 0x7F) as u8
}

/// Whether every byte of `block` is a header byte, in one vectorised pass.
#[inline(always)]
fn all_header_bytes<const N: usize>(block: &[u8; N]) -> bool {
    block.iter().fold(0u8, |bad, &b| bad | not_header_byte(b)) == 0
}

#[cfg(feature = "alloc")]
/// The [`Plain`] rule of header rendering: bytes that are ASCII and header bytes.
pub(crate) struct HeaderText;

#[cfg(feature = "alloc")]
impl Plain for HeaderText {
    #[inline(always)]
    fn block<const N: usize>(block: &[u8; N]) -> bool {
        block.iter().fold(0u8, |bad, &b| {
            bad | (u8::from(b.wrapping_sub(0x20) >= 0x5F) & u8::from(b != b'\t'))
        }) == 0
    }

    #[inline(always)]
    fn byte(byte: u8) -> bool {
        is_plain_header_byte(byte)
    }

    #[inline(always)]
    fn copy_blocks(kernels: Kernels, src: &[u8], out: &mut Out<'_>) -> usize {
        kernels.copy_header_blocks(src, out)
    }
}

/// The fast `find_invalid_header_byte`, with `kernels`: see the crate root for the contract.
/// The AVX2 kernel where the CPU has it and `rendered` holds at least 32 bytes, else
/// [`find_invalid_header_byte_portable`].
#[inline]
pub(crate) fn find_invalid_header_byte(rendered: &[u8], kernels: Kernels) -> Option<usize> {
    match kernels.find_invalid_header_byte(rendered) {
        Some(found) => found,
        None => {
            counters::add(Path::FindInvalidHeaderBytePortable, rendered.len());
            find_invalid_header_byte_portable(rendered)
        }
    }
}

/// `find_invalid_header_byte` without a kernel: 64-byte blocks in a loop the compiler
/// vectorises, then 8-byte words, the last of which ends where `rendered` ends (overlapping
/// the one before), so no byte goes through a loop of its own unless `rendered` is shorter
/// than a word.
fn find_invalid_header_byte_portable(rendered: &[u8]) -> Option<usize> {
    /// The first byte of `word`, which starts at `at`, that is not a header byte.
    #[inline(always)]
    fn first(word: &[u8; 8], at: usize) -> Option<usize> {
        let bad = not_header_bytes(u64::from_le_bytes(*word));
        (bad != 0).then(|| at + (bad.trailing_zeros() / 8) as usize)
    }
    let (blocks, _) = rendered.split_chunks::<64>();
    let mut at = 0;
    for block in blocks {
        if !all_header_bytes(block) {
            return block
                .split_chunks::<8>()
                .0
                .iter()
                .enumerate()
                .find_map(|(i, word)| first(word, at + 8 * i));
        }
        at += 64;
    }
    let Some(last) = rendered.last_chunk::<8>() else {
        return rendered.iter().position(|&b| not_header_byte(b) != 0);
    };
    for word in rendered[at..].split_chunks::<8>().0 {
        if let Some(found) = first(word, at) {
            return Some(found);
        }
        at += 8;
    }
    if at < rendered.len() {
        return first(last, rendered.len() - 8);
    }
    None
}

/// The fast `render_header_value`, with the kernels `kernels` gives: reserved as
/// `low_bytes_to_vec` reserves, rendered and checked by [`render_checked`], and the length
/// set only when the check passed.
#[cfg(feature = "alloc")]
#[inline]
pub(crate) fn render_header_value(
    src: &str,
    dst: &mut Vec<u8>,
    kernels: impl Fn() -> Kernels + Copy,
) -> Result<(), InvalidHeaderByte> {
    let reserve = reserve_len(src, dst, kernels);
    extend_vec(dst, reserve, |out| {
        render_checked(src.as_bytes(), out, kernels)
    })
}

#[cfg(feature = "alloc")]
/// Renders `src` (the UTF-8 of a `str`) into `out` and checks it: the ASCII header bytes are
/// checked as they are copied; from the first other byte on, the rest is rendered and then
/// checked while in cache. `out` must have room for every unit of `src`. On error, what was
/// written is the caller's to drop.
#[inline]
fn render_checked(
    src: &[u8],
    out: &mut Out<'_>,
    kernels: impl Fn() -> Kernels + Copy,
) -> Result<(), InvalidHeaderByte> {
    let plain = copy_plain_prefix::<HeaderText>(src, out, kernels);
    let Some(&next) = src.get(plain) else {
        return Ok(());
    };
    if next < 0x80 {
        // An ASCII byte that is not a header byte; the plain bytes before it are one unit
        // each, so its offset is theirs.
        return Err(InvalidHeaderByte::new(plain, next));
    }
    let before = out.len();
    let kernels = kernels();
    // `next` starts a char that is not ASCII: the copy goes on from it.
    let mut read = plain;
    // With AVX-512 the rest is rendered in 64-byte windows, then the last 64 bytes or fewer
    // in one masked step, both watching what they write; with SSSE3 a rest of at most 64
    // bytes is a few 16-byte windows that do the same. When none saw a byte that may not be
    // a header byte, there is nothing to check after.
    let mut suspect = false;
    if kernels.has_wide_short() && src.len() - read > SHORT {
        let (r, seen) = kernels.utf8_blocks_checked(&src[read..], out);
        read += r;
        suspect = seen;
    }
    if src.len() - read <= SHORT {
        if let Some(not_header) = kernels.utf8_short(&src[read..], out) {
            if !suspect && not_header == 0 {
                return Ok(());
            }
            read = src.len();
        }
    }
    if read < src.len() {
        copy_long(src, read, out, kernels);
    }
    let rest = &out.written()[before..];
    match find_invalid_header_byte(rest, kernels) {
        None => Ok(()),
        Some(at) => Err(InvalidHeaderByte::new(plain + at, rest[at])),
    }
}

/// A rendered header value holds a byte that `http::HeaderValue::from_bytes` rejects: a
/// control byte other than HTAB (CR, LF, NUL...) or DEL. Returned by
/// [`render_header_value`](crate::render_header_value).
///
/// # Examples
///
/// ```
/// let mut dst = Vec::new();
/// let err = wirebytes_ascii::render_header_value("ok\u{FF0A}Set-Cookie: a=b", &mut dst)
///     .unwrap_err();
/// assert_eq!((err.offset(), err.byte()), (2, b'\n'));
/// assert_eq!(err.to_string(), "byte 0x0A at offset 2 is not allowed in a header value");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct InvalidHeaderByte {
    offset: usize,
    byte: u8,
}

impl InvalidHeaderByte {
    /// The error for `byte` at `offset`.
    #[cfg(feature = "alloc")]
    pub(crate) fn new(offset: usize, byte: u8) -> Self {
        InvalidHeaderByte { offset, byte }
    }

    /// The offset of the byte in the rendered bytes (the UTF-16 unit's index in `src`).
    #[must_use]
    pub const fn offset(&self) -> usize {
        self.offset
    }

    /// The rendered byte: the low 8 bits of the unit at [`offset`](Self::offset).
    #[must_use]
    pub const fn byte(&self) -> u8 {
        self.byte
    }
}

impl fmt::Display for InvalidHeaderByte {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "byte 0x{:02X} at offset {} is not allowed in a header value",
            self.byte, self.offset
        )
    }
}

impl core::error::Error for InvalidHeaderByte {}

#[cfg(test)]
mod tests {
    use super::is_header_byte;
    use crate::reference;

    /// The branchless rule is the reference's, for every byte.
    #[test]
    fn the_rule_is_the_reference_for_every_byte() {
        for byte in 0..=255u8 {
            assert_eq!(
                is_header_byte(byte),
                reference::is_header_byte(byte),
                "{byte:#04x}"
            );
        }
    }
}
