//! The counts of chars (or UTF-16 units) in UTF-8: the bytes that are not continuation bytes
//! (plus the 4-byte lead bytes). AVX2: the portable code compiled for 32-byte vectors;
//! AVX-512: a compare per 64 bytes, its mask counted with `popcnt`, the last bytes under a
//! masked load. Their contract is [`Kernels::count_units`](crate::arch::Kernels::count_units)'s.

#[cfg(wirebytes_avx512)]
use std::arch::x86_64::{
    __m512i, _mm512_cmpge_epu8_mask, _mm512_cmpgt_epi8_mask, _mm512_loadu_si512, _mm512_set1_epi8,
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

/// See [`Kernels::count_units`](crate::arch::Kernels::count_units): 64 bytes per step.
#[cfg(wirebytes_avx512)]
#[clippy::msrv = "1.89"]
#[target_feature(enable = "avx512f,avx512bw,popcnt")]
pub(crate) fn count_units_avx512<const UTF16: bool>(text: &str) -> usize {
    let (blocks, tail) = text.as_bytes().split_chunks::<64>();
    // A char starts at every byte but the continuation bytes, 0x80..=0xBF (-0x80..=-0x41 as
    // `i8`); a 4-byte one (lead 0xF0..=0xF4) is two UTF-16 units.
    let units = |x: __m512i, lanes: u64| {
        let starts = _mm512_cmpgt_epi8_mask(x, _mm512_set1_epi8(-0x41)) & lanes;
        let fours = if UTF16 {
            _mm512_cmpge_epu8_mask(x, _mm512_set1_epi8(0xF0_u8 as i8)) & lanes
        } else {
            0
        };
        starts.count_ones() as usize + fours.count_ones() as usize
    };
    let mut n = 0usize;
    for block in blocks {
        // SAFETY: the load reads the 64 bytes of `block`; no alignment requirement.
        n += units(
            unsafe { _mm512_loadu_si512(block.as_ptr().cast()) },
            u64::MAX,
        );
    }
    n + units(super::load_first64(tail), super::first(tail.len()))
}
