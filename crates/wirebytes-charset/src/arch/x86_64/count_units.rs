//! The counts of chars (or UTF-16 units) in UTF-8: the bytes that are not continuation bytes
//! (plus the 4-byte lead bytes). AVX2: the portable code compiled for 32-byte vectors;
//! AVX-512: a compare per 64 bytes, its mask counted with `popcnt`. Their contract is [`Kernels::count_units`](crate::arch::Kernels::count_units)'s.

#[cfg(wirebytes_avx512)]
use std::arch::x86_64::{
    _mm512_cmpge_epu8_mask, _mm512_cmpgt_epi8_mask, _mm512_loadu_si512, _mm512_set1_epi8,
};

#[cfg(wirebytes_avx512)]
use crate::chunks::SplitChunks;

/// See [`Kernels::count_units`](crate::arch::Kernels::count_units): the portable counts
/// (plain array code in `u8` lanes), compiled with AVX2, 32 bytes per vector.
#[target_feature(enable = "avx2")]
pub(crate) fn count_units_avx2<const UTF16: bool>(text: &str) -> usize {
    if UTF16 {
        crate::unicode::utf16_units(text)
    } else {
        crate::single_byte::count_chars(text.as_bytes())
    }
}

/// The units of `tail` (valid UTF-8, cut anywhere), byte by byte.
#[cfg(wirebytes_avx512)]
#[inline]
fn tail_units<const UTF16: bool>(tail: &[u8]) -> usize {
    tail.iter()
        .map(|&b| usize::from((b as i8) >= -0x40) + usize::from(UTF16 && b >= 0xF0))
        .sum()
}

/// See [`Kernels::count_units`](crate::arch::Kernels::count_units): 64 bytes per step.
#[cfg(wirebytes_avx512)]
#[clippy::msrv = "1.89"]
#[target_feature(enable = "avx512f,avx512bw,popcnt")]
pub(crate) fn count_units_avx512<const UTF16: bool>(text: &str) -> usize {
    let (blocks, tail) = text.as_bytes().split_chunks::<64>();
    let mut n = 0usize;
    for block in blocks {
        // SAFETY: the load reads the 64 bytes of `block`; no alignment requirement.
        let x = unsafe { _mm512_loadu_si512(block.as_ptr().cast()) };
        // A char starts at every byte but the continuation bytes, 0x80..=0xBF (-0x80..=-0x41
        // as `i8`); a 4-byte one (lead 0xF0..=0xF4) is two UTF-16 units.
        let starts = _mm512_cmpgt_epi8_mask(x, _mm512_set1_epi8(-0x41));
        n += starts.count_ones() as usize;
        if UTF16 {
            let f0 = _mm512_set1_epi8(0xF0_u8 as i8);
            n += _mm512_cmpge_epu8_mask(x, f0).count_ones() as usize;
        }
    }
    n + tail_units::<UTF16>(tail)
}
