//! The single-byte table window kernels. Their contract is
//! [`Kernels::table_window`](crate::arch::Kernels::table_window)'s.
//!
//! - SSSE3 and POPCNT: each lead byte's char looked up in the table one at a time, written
//!   over the lead in a copy of the window, then the continuation bytes dropped with `pshufb`
//!   (eight bytes at a time, as the Latin-1 kernel does).
//! - AVX-512: a whole 64-byte window in one register, each two-byte char looked up in 512
//!   bytes of the table (eight lead bytes) with `vpermi2b`, the continuation bytes dropped
//!   with `vpcompressb`.

use std::arch::x86_64::{
    __m128i, _mm_and_si128, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_max_epu8, _mm_movemask_epi8,
    _mm_set1_epi8,
};

use super::latin1_window::compact16;
use crate::latin1::WINDOW;
use crate::single_byte::{BLOCK, PAIRS};

/// The 16 bytes of `bytes` from `at`, if it has them.
#[inline]
#[target_feature(enable = "ssse3")]
fn load16(bytes: &[u8], at: usize) -> Option<__m128i> {
    let chunk = bytes.get(at..)?.first_chunk::<16>()?;
    // SAFETY: the load reads the 16 bytes of `chunk`; it has no alignment requirement.
    Some(unsafe { _mm_loadu_si128(chunk.as_ptr().cast()) })
}

/// See [`Kernels::table_window`](crate::arch::Kernels::table_window): the SSSE3 kernel, which
/// takes two-byte chars of any lead bytes.
#[target_feature(enable = "ssse3,popcnt")]
pub(crate) fn table_window_ssse3(
    window: &[u8; WINDOW],
    pairs: &[u8; PAIRS],
    question_marks: bool,
    dst: &mut [u8; BLOCK],
) -> Option<usize> {
    let top2 = _mm_set1_epi8(0xC0_u8 as i8);
    let continuation_bits = _mm_set1_epi8(0x80_u8 as i8);
    let three_byte = _mm_set1_epi8(0xE0_u8 as i8);
    // Bit masks of the lead and continuation bytes, and whether a byte starts a longer char.
    let (mut leads, mut continuations, mut long) = (0u64, 0u64, 0u32);
    for k in 0..BLOCK / 16 {
        let x = load16(window, 16 * k)?;
        let kind = _mm_and_si128(x, top2);
        let lead = _mm_movemask_epi8(_mm_cmpeq_epi8(kind, top2)) as u32;
        let continuation = _mm_movemask_epi8(_mm_cmpeq_epi8(kind, continuation_bits)) as u32;
        leads |= u64::from(lead) << (16 * k);
        continuations |= u64::from(continuation) << (16 * k);
        long |= _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(x, three_byte), x)) as u32;
    }
    if long != 0 {
        return None;
    }
    // The window with each lead replaced by its char's byte.
    let mut values = [0u8; BLOCK];
    values.copy_from_slice(&window[..BLOCK]);
    while leads != 0 {
        let j = leads.trailing_zeros() as usize % BLOCK;
        leads &= leads - 1;
        let index = (usize::from(window[j]) << 6) | usize::from(window[j + 1] & 0x3F);
        values[j] = match pairs[index % PAIRS] {
            0 if question_marks => b'?',
            0 => return None,
            byte => byte,
        };
    }
    // The continuation bytes dropped, sixteen bytes at a time.
    let mut w = 0usize;
    for k in 0..BLOCK / 16 {
        let v = load16(&values, 16 * k)?;
        w = compact16(v, (continuations >> (16 * k)) as u32, dst, w);
    }
    Some(w)
}

// The AVX-512 intrinsics are stable from Rust 1.89; the build script sets `wirebytes_avx512`
// only for such a compiler.
#[cfg(wirebytes_avx512)]
#[clippy::msrv = "1.89"]
mod avx512 {
    use std::arch::x86_64::{
        __m512i, _mm512_and_si512, _mm512_cmpeq_epi8_mask, _mm512_cmpge_epu8_mask,
        _mm512_cmpgt_epu8_mask, _mm512_loadu_si512, _mm512_mask_blend_epi8,
        _mm512_maskz_compress_epi8, _mm512_movepi8_mask, _mm512_or_si512, _mm512_permutex2var_epi8,
        _mm512_set1_epi8, _mm512_setzero_si512, _mm512_slli_epi16, _mm512_storeu_si512,
        _mm512_sub_epi8, _mm512_test_epi8_mask,
    };

    use crate::latin1::WINDOW;
    use crate::single_byte::{BLOCK, PAIRS};

    /// The 64 bytes of `bytes`.
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn load(bytes: &[u8; 64]) -> __m512i {
        // SAFETY: the load reads the 64 bytes of `bytes`; it has no alignment requirement.
        unsafe { _mm512_loadu_si512(bytes.as_ptr().cast()) }
    }

    /// The 64 bytes of `bytes` from `at`, if it has them.
    #[inline(always)]
    fn sixty_four(bytes: &[u8], at: usize) -> Option<&[u8; 64]> {
        bytes.get(at..)?.first_chunk::<64>()
    }

    /// See [`Kernels::table_window`](crate::arch::Kernels::table_window).
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt")]
    pub(crate) fn table_window_avx512(
        window: &[u8; WINDOW],
        pairs: &[u8; PAIRS],
        ascii: Option<&[u8; 128]>,
        question_marks: bool,
        dst: &mut [u8; BLOCK],
    ) -> Option<usize> {
        let (Some(here), Some(next)) = (sixty_four(window, 0), sixty_four(window, 1)) else {
            return None;
        };
        let (x, y) = (load(here), load(next));
        let kind = _mm512_and_si512(x, _mm512_set1_epi8(0xC0_u8 as i8));
        let leads = _mm512_cmpeq_epi8_mask(kind, _mm512_set1_epi8(0xC0_u8 as i8));
        let continuations = _mm512_cmpeq_epi8_mask(kind, _mm512_set1_epi8(0x80_u8 as i8));
        // Each ASCII byte as itself, or through the charset's 128 ASCII bytes (bits 6..0 of
        // each byte index them; the other bytes are replaced or dropped below).
        let x_or_mapped = match ascii {
            Some(ascii) => {
                let (low, high) = ascii.split_at(64);
                let (Some(low), Some(high)) = (low.first_chunk::<64>(), high.first_chunk::<64>())
                else {
                    return None;
                };
                _mm512_permutex2var_epi8(load(low), x, load(high))
            }
            None => x,
        };
        let value = if leads == 0 {
            // Valid UTF-8 from a char boundary with no lead byte: ASCII.
            x_or_mapped
        } else {
            // A lead of a char longer than two bytes: not this kernel's.
            if _mm512_cmpge_epu8_mask(x, _mm512_set1_epi8(0xE0_u8 as i8)) != 0 {
                return None;
            }
            // The eight lead bytes from `base` (0xC2 + a multiple of 8) that hold the first lead
            // select 512 bytes of `pairs`; a lead outside them is not this window's.
            let first = window[leads.trailing_zeros() as usize % BLOCK];
            let base = 0xC2_u8.wrapping_add(first.wrapping_sub(0xC2) & !7);
            let relative = _mm512_sub_epi8(x, _mm512_set1_epi8(base as i8));
            if leads & _mm512_cmpgt_epu8_mask(relative, _mm512_set1_epi8(7)) != 0 {
                return None;
            }
            let tables = pairs
                .get(usize::from(base) << 6..)
                .and_then(<[u8]>::first_chunk::<512>)?;
            let table = |k: usize| sixty_four(tables, 64 * k).map(|t| load(t));
            let (Some(t0), Some(t1), Some(t2), Some(t3), Some(t4), Some(t5), Some(t6), Some(t7)) = (
                table(0),
                table(1),
                table(2),
                table(3),
                table(4),
                table(5),
                table(6),
                table(7),
            ) else {
                return None;
            };
            // Per lead: (lead - base) & 3 << 6 | (next & 0x3F), an index into 256 bytes, the
            // first or the second 256 as bit 2 of lead - base says. The 16-bit shift moves no
            // bit across a byte: (lead - base) & 3 has two bits.
            let index = _mm512_or_si512(
                _mm512_slli_epi16::<6>(_mm512_and_si512(relative, _mm512_set1_epi8(0x03))),
                _mm512_and_si512(y, _mm512_set1_epi8(0x3F)),
            );
            // Bit 6 of the index picks between the two tables of each lookup, bit 7 between two
            // lookups, bit 2 of lead - base between the 256-byte halves.
            let upper = _mm512_movepi8_mask(index);
            let second = _mm512_test_epi8_mask(relative, _mm512_set1_epi8(0x04));
            let first_half = _mm512_mask_blend_epi8(
                upper,
                _mm512_permutex2var_epi8(t0, index, t1),
                _mm512_permutex2var_epi8(t2, index, t3),
            );
            let second_half = _mm512_mask_blend_epi8(
                upper,
                _mm512_permutex2var_epi8(t4, index, t5),
                _mm512_permutex2var_epi8(t6, index, t7),
            );
            let looked_up = _mm512_mask_blend_epi8(second, first_half, second_half);
            // An unmappable char (entry 0): `?` with `question_marks`, else the table path
            // decides what to write.
            let unmappable = leads & _mm512_cmpeq_epi8_mask(looked_up, _mm512_setzero_si512());
            if unmappable != 0 && !question_marks {
                return None;
            }
            let looked_up =
                _mm512_mask_blend_epi8(unmappable, looked_up, _mm512_set1_epi8(b'?' as i8));
            _mm512_mask_blend_epi8(leads, x_or_mapped, looked_up)
        };
        let keep = !continuations;
        let packed = _mm512_maskz_compress_epi8(keep, value);
        // SAFETY: the store writes the 64 bytes of `dst`, borrowed mutably; it has no alignment
        // requirement.
        unsafe { _mm512_storeu_si512(dst.as_mut_ptr().cast(), packed) };
        Some(keep.count_ones() as usize)
    }
}

#[cfg(wirebytes_avx512)]
pub(crate) use avx512::table_window_avx512;
