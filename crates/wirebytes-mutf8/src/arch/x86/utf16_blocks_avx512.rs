//! The AVX-512 block decoders of [`crate::decode_to_utf16`]: [`pairs_avx512`] (ASCII and
//! 2-byte text, `vpcompressw` in place of the SSSE3 decoder's table) and [`blocks_avx512`]
//! (any text the JDK accepts). The scheme, and the checks they share with the AVX2 decoder
//! ([`block_masks`]), are described in [`super::utf16_blocks`]; their contract is the one of
//! the `utf16_*_avx512` methods in [`crate::arch`]. Built only by compilers with the AVX-512
//! intrinsics (`wirebytes_avx512`, set by the build script).

use core::mem::MaybeUninit;

#[cfg(target_arch = "x86")]
use core::arch::x86::{
    _mm256_cmpge_epu8_mask, _mm256_cmplt_epi8_mask, _mm256_loadu_si256, _mm256_movemask_epi8,
    _mm256_set1_epi8, _mm256_slli_epi16, _mm512_and_si512, _mm512_cvtepu8_epi16,
    _mm512_mask_blend_epi16, _mm512_maskz_compress_epi16, _mm512_or_si512, _mm512_set1_epi16,
    _mm512_slli_epi16, _mm512_storeu_si512,
};
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::{
    _mm256_cmpge_epu8_mask, _mm256_cmplt_epi8_mask, _mm256_loadu_si256, _mm256_movemask_epi8,
    _mm256_set1_epi8, _mm256_slli_epi16, _mm512_and_si512, _mm512_cvtepu8_epi16,
    _mm512_mask_blend_epi16, _mm512_maskz_compress_epi16, _mm512_or_si512, _mm512_set1_epi16,
    _mm512_slli_epi16, _mm512_storeu_si512,
};

use super::utf16_blocks::block_masks;

/// [`pairs_ssse3`](super::utf16_blocks::pairs_ssse3) 32 bytes at a time with AVX-512: each byte `p` of a block and the byte
/// after it (a second load, one byte on) are widened into the low and high halves of a
/// 16-bit lane, every lane is decoded as ASCII or as a 2-byte sequence, and `vpcompressw`
/// keeps the lanes where a char starts, in order (no table).
///
/// The contract is `utf16_pairs_avx512`'s in [`crate::arch`].
#[target_feature(enable = "avx2,avx512f,avx512bw,avx512vbmi2,popcnt")]
pub(crate) fn pairs_avx512(
    bytes: &[u8],
    mut i: usize,
    out: &mut [MaybeUninit<u16>],
    mut o: usize,
) -> (usize, usize) {
    // Whether the first byte of the block is the continuation byte of the last one's lead.
    let mut carried = 0u32;
    while let Some(block) = bytes.get(i..i + 33) {
        // SAFETY: `block` is 33 bytes long: both 32-byte loads are within it, and unaligned.
        let (x, next) = unsafe {
            (
                _mm256_loadu_si256(block.as_ptr().cast()),
                _mm256_loadu_si256(block[1..].as_ptr().cast()),
            )
        };
        // Bits 7, 6 and 5 of each byte, and whether the byte after it continues.
        let bit7 = _mm256_movemask_epi8(x) as u32;
        let bit6 = _mm256_movemask_epi8(_mm256_slli_epi16(x, 1)) as u32;
        let bit5 = _mm256_movemask_epi8(_mm256_slli_epi16(x, 2)) as u32;
        let next7 = _mm256_movemask_epi8(next) as u32;
        let next6 = _mm256_movemask_epi8(_mm256_slli_epi16(next, 1)) as u32;
        let continuation = bit7 & !bit6;
        let lead = bit7 & bit6 & !bit5;
        // Only ASCII, 2-byte leads and continuation bytes; each lead followed by a
        // continuation byte (the last one's is the first byte of the next block), each
        // continuation byte right after a lead; not all ASCII (which the caller widens
        // faster). One branch on them all.
        let bad = (bit7 & bit6 & bit5)
            | (lead & !(next7 & !next6))
            | (continuation ^ ((lead << 1) | carried));
        if bad != 0 || lead == 0 {
            break;
        }
        let lo = _mm512_cvtepu8_epi16(x);
        let hi = _mm512_cvtepu8_epi16(next);
        let two = _mm512_or_si512(
            _mm512_slli_epi16(_mm512_and_si512(lo, _mm512_set1_epi16(0x1F)), 6),
            _mm512_and_si512(hi, _mm512_set1_epi16(0x3F)),
        );
        let chars = _mm512_mask_blend_epi16(lead, lo, two);
        let starts = !continuation;
        let dst = &mut out[o..o + 32];
        // SAFETY: `dst` is 32 chars (64 bytes) long; the store is unaligned.
        unsafe {
            _mm512_storeu_si512(
                dst.as_mut_ptr().cast(),
                _mm512_maskz_compress_epi16(starts, chars),
            );
        }
        o += starts.count_ones() as usize;
        carried = lead >> 31;
        i += 32;
    }
    // Past the continuation byte of a lead decoded with the last block.
    (i + carried as usize, o)
}

/// Decodes `bytes[i..]` into `out[o..]` 32 bytes at a time with AVX-512 while the blocks
/// hold only sequences the JDK accepts (ASCII, 2- and 3-byte sequences, overlong forms and
/// surrogates included); returns the cursors where it stopped, at the start of a sequence
/// left to the caller (the JDK's checks included): with fewer than 34 bytes left, or at a
/// block that holds something the JDK rejects.
///
/// Byte `p` of a block, the byte after it and the one after that (three loads, one byte
/// apart) are widened into the 16-bit lane `p`; every lane is decoded as if a char started
/// there (ASCII, 2-byte or 3-byte by its lead), and `vpcompressw` keeps the lanes where one
/// does, in order. The blocks are back to back: the continuation bytes of a sequence that
/// starts near a block's end are checked with it, and skipped as the first bytes of the next.
///
/// Each block writes at most one char per byte read, and its 32-char store stays within
/// `out` (else the slicing panics). The contract is `utf16_blocks_avx512`'s in
/// [`crate::arch`].
#[target_feature(enable = "avx2,avx512f,avx512bw,avx512vl,avx512vbmi2,popcnt")]
pub(crate) fn blocks_avx512(
    bytes: &[u8],
    mut i: usize,
    out: &mut [MaybeUninit<u16>],
    mut o: usize,
) -> (usize, usize) {
    // Bit `k`: byte `k` of the block is a continuation byte of the last one's sequences.
    let mut carried = 0u32;
    let low6 = _mm512_set1_epi16(0x3F);
    // A byte is a continuation byte when it is below C0 as a signed byte (80..BF).
    let continuation_below = _mm256_set1_epi8(0xC0_u8 as i8);
    while let Some(block) = bytes.get(i..i + 34) {
        // SAFETY: `block` is 34 bytes long: the three 32-byte loads are within it, and
        // unaligned.
        let (x, x1, x2) = unsafe {
            (
                _mm256_loadu_si256(block.as_ptr().cast()),
                _mm256_loadu_si256(block[1..].as_ptr().cast()),
                _mm256_loadu_si256(block[2..].as_ptr().cast()),
            )
        };
        let continuation = _mm256_cmplt_epi8_mask(x, continuation_below);
        let lead2 = _mm256_cmpge_epu8_mask(x, _mm256_set1_epi8(0xC0_u8 as i8));
        let lead3 = _mm256_cmpge_epu8_mask(x, _mm256_set1_epi8(0xE0_u8 as i8));
        let lead4 = _mm256_cmpge_epu8_mask(x, _mm256_set1_epi8(0xF0_u8 as i8));
        let (lead2, lead3) = (lead2 & !lead3, lead3 & !lead4);
        // Whether the byte one (two) on is a continuation byte.
        let next = _mm256_cmplt_epi8_mask(x1, continuation_below);
        let next2 = _mm256_cmplt_epi8_mask(x2, continuation_below);
        let Some(wanted) = block_masks(continuation, lead2, lead3, lead4, next, next2, carried)
        else {
            break;
        };
        let lo = _mm512_cvtepu8_epi16(x);
        let starts = !continuation;
        let chars = if continuation | lead2 | lead3 == 0 {
            // ASCII only: the bytes are the chars.
            lo
        } else {
            let mid = _mm512_and_si512(_mm512_cvtepu8_epi16(x1), low6);
            let hi = _mm512_and_si512(_mm512_cvtepu8_epi16(x2), low6);
            let two = _mm512_or_si512(
                _mm512_slli_epi16(_mm512_and_si512(lo, _mm512_set1_epi16(0x1F)), 6),
                mid,
            );
            // `lo << 12` keeps the lead's low four bits, as the JDK's `(c & 0x0F) << 12`.
            let three = _mm512_or_si512(
                _mm512_or_si512(_mm512_slli_epi16(lo, 12), _mm512_slli_epi16(mid, 6)),
                hi,
            );
            let chars =
                _mm512_mask_blend_epi16(lead3, _mm512_mask_blend_epi16(lead2, lo, two), three);
            _mm512_maskz_compress_epi16(starts, chars)
        };
        let dst = &mut out[o..o + 32];
        // SAFETY: `dst` is 32 chars (64 bytes) long; the store is unaligned.
        unsafe { _mm512_storeu_si512(dst.as_mut_ptr().cast(), chars) };
        o += starts.count_ones() as usize;
        carried = (wanted >> 32) as u32;
        i += 32;
    }
    // Past the continuation bytes of the sequences decoded with the last block.
    (i + carried.count_ones() as usize, o)
}
