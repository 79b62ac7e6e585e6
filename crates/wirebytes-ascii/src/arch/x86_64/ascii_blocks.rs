//! The ASCII bulk copies (AVX2): see `Kernels::copy_ascii_blocks` and
//! `Kernels::copy_header_blocks`.

use crate::chunks::SplitChunks;
use core::arch::x86_64::{
    __m256i, _mm256_add_epi8, _mm256_and_si256, _mm256_cmpgt_epi8, _mm256_loadu_si256,
    _mm256_movemask_epi8, _mm256_or_si256, _mm256_set1_epi8, _mm256_storeu_si256,
};
use core::mem::MaybeUninit;

/// Which bytes a block may hold to be copied.
#[derive(Clone, Copy)]
enum Rule {
    /// ASCII.
    Ascii,
    /// Printable ASCII, `0x20..=0x7E` (header bytes but HTAB).
    #[cfg_attr(
        not(feature = "alloc"),
        expect(dead_code, reason = "header rendering needs alloc")
    )]
    HeaderText,
}

/// See [`Kernels::copy_ascii_blocks`](crate::arch::Kernels::copy_ascii_blocks).
#[target_feature(enable = "avx2")]
pub(crate) fn ascii_blocks_avx2(src: &[u8], dst: &mut [MaybeUninit<u8>]) -> usize {
    blocks(src, dst, Rule::Ascii)
}

/// See [`Kernels::copy_header_blocks`](crate::arch::Kernels::copy_header_blocks).
#[cfg(feature = "alloc")]
#[target_feature(enable = "avx2")]
pub(crate) fn header_blocks_avx2(src: &[u8], dst: &mut [MaybeUninit<u8>]) -> usize {
    blocks(src, dst, Rule::HeaderText)
}

/// 64-byte blocks from the start while they follow `rule`; when they reach the end, the last
/// 64 bytes (overlapping what is copied already) finish the copy without a scalar tail.
/// (Starting the blocks where `dst` is 64-byte aligned, so that no store crosses a cache
/// line, measured no faster.)
#[inline]
#[target_feature(enable = "avx2")]
fn blocks(src: &[u8], dst: &mut [MaybeUninit<u8>], rule: Rule) -> usize {
    let n = src.len().min(dst.len());
    block_by_block(&src[..n], &mut dst[..n], 0, |block, out| {
        copy_block(block, out, rule)
    })
}

/// The block loop of both kernels: from `copied` (a multiple of 64) on, `copy_block` on each
/// 64-byte block of `src` (as long as `dst`) while it copies; when they reach the end, the
/// last 64 bytes, overlapping what is copied already. Returns the bytes copied.
#[inline(always)]
fn block_by_block(
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
    mut copied: usize,
    mut copy_block: impl FnMut(&[u8; 64], &mut [MaybeUninit<u8>; 64]) -> bool,
) -> usize {
    let (blocks, _) = src[copied..].split_chunks::<64>();
    let (out, _) = dst[copied..].split_chunks_mut::<64>();
    for (block, out) in blocks.iter().zip(out) {
        crate::counters::add(crate::counters::Path::KernelSingleBlocks, 64);
        if !copy_block(block, out) {
            return copied;
        }
        copied += 64;
    }
    // Fewer than 64 bytes are left: the last 64 bytes, overlapping what is copied already.
    if let (Some(last), Some(out)) = (src.last_chunk::<64>(), dst.last_chunk_mut::<64>()) {
        crate::counters::add(crate::counters::Path::KernelSingleBlocks, 64);
        if copy_block(last, out) {
            copied = src.len();
        }
    }
    copied
}

/// Copies `block` into `out` if its bytes follow `rule`: two 32-byte loads, the test, and
/// the same two registers stored. Returns `false`, with nothing written, if a byte does not.
#[inline]
#[target_feature(enable = "avx2")]
fn copy_block(block: &[u8; 64], out: &mut [MaybeUninit<u8>; 64], rule: Rule) -> bool {
    let from = block.as_ptr();
    // SAFETY: the two loads read bytes 0..32 and 32..64 of `block`, a `[u8; 64]`; they have
    // no alignment requirement.
    let (low, high) = unsafe {
        (
            _mm256_loadu_si256(from.cast()),
            _mm256_loadu_si256(from.add(32).cast()),
        )
    };
    let follows = match rule {
        // The high bit of every byte, gathered: zero if all 64 bytes are ASCII.
        Rule::Ascii => _mm256_movemask_epi8(_mm256_or_si256(low, high)) == 0,
        // Every byte a header byte: all 64 bits of the `header_text` masks set.
        Rule::HeaderText => {
            _mm256_movemask_epi8(_mm256_and_si256(header_text(low), header_text(high))) == -1
        }
    };
    if !follows {
        return false;
    }
    let to = out.as_mut_ptr();
    // SAFETY: the two stores write bytes 0..32 and 32..64 of `out`, a `[MaybeUninit<u8>; 64]`
    // borrowed mutably; they have no alignment requirement.
    unsafe {
        _mm256_storeu_si256(to.cast(), low);
        _mm256_storeu_si256(to.add(32).cast(), high);
    }
    true
}

/// 0xFF in each byte of `v` in `0x20..=0x7E`, else 0. With one added, those bytes are
/// `0x21..=0x7F`, the signed bytes above 0x20; DEL becomes 0x80 and every byte above it wraps
/// to a negative value or 0, and the controls stay at or below 0x20. (HTAB is a header byte
/// too, but rare: a block that holds one is left to the portable scan, which takes it.)
#[inline]
#[target_feature(enable = "avx2")]
fn header_text(v: __m256i) -> __m256i {
    _mm256_cmpgt_epi8(
        _mm256_add_epi8(v, _mm256_set1_epi8(1)),
        _mm256_set1_epi8(0x20),
    )
}

/// The same copies with one 64-byte register per block (AVX-512 BW): the test of a block is
/// one compare into a mask register.
#[cfg(wirebytes_avx512)]
#[clippy::msrv = "1.89"]
pub(crate) mod avx512 {
    use super::Rule;
    use crate::chunks::SplitChunks;
    use core::arch::x86_64::{
        __m512i, _mm512_cmpgt_epu8_mask, _mm512_cmplt_epu8_mask, _mm512_loadu_si512,
        _mm512_max_epu8, _mm512_min_epu8, _mm512_movepi8_mask, _mm512_or_si512, _mm512_set1_epi8,
        _mm512_storeu_si512,
    };
    use core::mem::MaybeUninit;

    /// See [`Kernels::copy_ascii_blocks`](crate::arch::Kernels::copy_ascii_blocks).
    #[target_feature(enable = "avx512f,avx512bw")]
    pub(crate) fn ascii_blocks_avx512(src: &[u8], dst: &mut [MaybeUninit<u8>]) -> usize {
        blocks(src, dst, Rule::Ascii)
    }

    /// See [`Kernels::copy_header_blocks`](crate::arch::Kernels::copy_header_blocks).
    #[cfg(feature = "alloc")]
    #[target_feature(enable = "avx512f,avx512bw")]
    pub(crate) fn header_blocks_avx512(src: &[u8], dst: &mut [MaybeUninit<u8>]) -> usize {
        blocks(src, dst, Rule::HeaderText)
    }

    /// As the AVX2 `blocks`: 64-byte blocks from the start while they follow `rule` (two at
    /// a time first), then the last 64 bytes, overlapping.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn blocks(src: &[u8], dst: &mut [MaybeUninit<u8>], rule: Rule) -> usize {
        let n = src.len().min(dst.len());
        let (src, dst) = (&src[..n], &mut dst[..n]);
        let mut copied = 0;
        // Two blocks per step, tested together, then one.
        let (pairs, _) = src.split_chunks::<128>();
        let (out, _) = dst.split_chunks_mut::<128>();
        for (pair, out) in pairs.iter().zip(out) {
            if !copy_pair(pair, out, rule) {
                break;
            }
            copied += 128;
        }
        super::block_by_block(src, dst, copied, |block, out| copy_block(block, out, rule))
    }

    /// Copies `pair` into `out` if all its bytes follow `rule`: two loads, one test of both,
    /// two stores. Returns `false`, with nothing written, if a byte does not.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn copy_pair(pair: &[u8; 128], out: &mut [MaybeUninit<u8>; 128], rule: Rule) -> bool {
        let from = pair.as_ptr();
        // SAFETY: the loads read bytes 0..64 and 64..128 of `pair`, a `[u8; 128]`; no
        // alignment requirement.
        let (a, b) = unsafe {
            (
                _mm512_loadu_si512(from.cast()),
                _mm512_loadu_si512(from.add(64).cast()),
            )
        };
        let follows = match rule {
            Rule::Ascii => _mm512_movepi8_mask(_mm512_or_si512(a, b)) == 0,
            // Every byte in 0x20..=0x7E: the bytewise minimum of the two at least 0x20, the
            // maximum at most 0x7E.
            Rule::HeaderText => {
                outside_header_text(_mm512_min_epu8(a, b), _mm512_max_epu8(a, b)) == 0
            }
        };
        if !follows {
            return false;
        }
        let to = out.as_mut_ptr();
        // SAFETY: the stores write bytes 0..64 and 64..128 of `out`, a
        // `[MaybeUninit<u8>; 128]` borrowed mutably; no alignment requirement.
        unsafe {
            _mm512_storeu_si512(to.cast(), a);
            _mm512_storeu_si512(to.add(64).cast(), b);
        }
        true
    }

    /// A bit for each byte of `least` below 0x20 or of `most` above 0x7E: none when every
    /// byte of the vectors that `least` and `most` are the bytewise minimum and maximum of
    /// (or of `least == most`) is in `0x20..=0x7E`.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn outside_header_text(least: __m512i, most: __m512i) -> u64 {
        _mm512_cmplt_epu8_mask(least, _mm512_set1_epi8(0x20))
            | _mm512_cmpgt_epu8_mask(most, _mm512_set1_epi8(0x7E))
    }

    /// Copies `block` into `out` if its bytes follow `rule`: one load, the test, one store.
    /// Returns `false`, with nothing written, if a byte does not.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn copy_block(block: &[u8; 64], out: &mut [MaybeUninit<u8>; 64], rule: Rule) -> bool {
        // SAFETY: the load reads the 64 bytes of `block`; no alignment requirement.
        let v = unsafe { _mm512_loadu_si512(block.as_ptr().cast()) };
        let follows = match rule {
            // The high bit of every byte: zero if all 64 bytes are ASCII.
            Rule::Ascii => _mm512_movepi8_mask(v) == 0,
            // Every byte in 0x20..=0x7E.
            Rule::HeaderText => outside_header_text(v, v) == 0,
        };
        if !follows {
            return false;
        }
        // SAFETY: the store writes the 64 bytes of `out`, a `[MaybeUninit<u8>; 64]` borrowed
        // mutably; no alignment requirement.
        unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast(), v) };
        true
    }
}
