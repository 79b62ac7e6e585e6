//! The counts of UTF-16 input: its length as UTF-8 (every surrogate counted 3) and its
//! surrogates, for AVX2 the sums of 16-unit compares in 16-bit lanes, and for AVX-512 BW the
//! populations of 32-unit compare masks; and its greatest unit, the loop of
//! `crate::from_utf16::max_unit`, one unsigned maximum a vector; and its surrogate pairs, the
//! loop of `crate::from_utf16::pairs` built for AVX2, and for AVX-512 BW the population of the
//! high surrogates of 32 units that a low one follows. Their contracts are
//! [`Kernels::utf16_counts`](crate::arch::Kernels::utf16_counts)'s,
//! [`Kernels::utf16_max`](crate::arch::Kernels::utf16_max)'s and
//! [`Kernels::utf16_pairs`](crate::arch::Kernels::utf16_pairs)'s.

use std::arch::x86_64::{
    __m256i, _mm_add_epi32, _mm_cvtsi128_si32, _mm_srli_si128, _mm_unpackhi_epi64,
    _mm256_add_epi16, _mm256_and_si256, _mm256_castsi256_si128, _mm256_cmpeq_epi16,
    _mm256_extracti128_si256, _mm256_loadu_si256, _mm256_madd_epi16, _mm256_set1_epi16,
    _mm256_setzero_si256,
};
#[cfg(wirebytes_avx512)]
use std::arch::x86_64::{
    _mm512_and_si512, _mm512_cmpeq_epi16_mask, _mm512_cmpge_epu16_mask, _mm512_loadu_si512,
    _mm512_set1_epi16,
};

/// The 16-unit vectors [`utf16_counts_avx2`] sums in 16-bit lanes before it widens the sums:
/// each vector takes at most 2 from a lane, so a lane holds the sums of 16,383.
pub(crate) const COUNTS_AVX2_BLOCK: usize = 8192;

/// See [`Kernels::utf16_counts`](crate::arch::Kernels::utf16_counts): 16 units a vector,
/// each unit's compares (below U+0080, below U+0800, a surrogate: all ones, -1, where true)
/// added to 16-bit sums, widened every [`COUNTS_AVX2_BLOCK`] vectors; the last 15 units or
/// fewer by the portable loop.
#[target_feature(enable = "avx2")]
pub(crate) fn utf16_counts_avx2(units: &[u16]) -> (usize, usize) {
    let (ascii, kind) = (
        _mm256_set1_epi16(0xFF80_u16 as i16),
        _mm256_set1_epi16(0xF800_u16 as i16),
    );
    let (zero, surrogate, ones) = (
        _mm256_setzero_si256(),
        _mm256_set1_epi16(0xD800_u16 as i16),
        _mm256_set1_epi16(1),
    );
    // Each unit is 3 bytes, less one below U+0800 and one more below U+0080.
    let (mut below, mut surrogates) = (0_usize, 0_usize);
    let (vectors, rest) = units.split_at(units.len() - units.len() % 16);
    for block in vectors.chunks(16 * COUNTS_AVX2_BLOCK) {
        let (mut below_sums, mut surrogate_sums) = (zero, zero);
        for chunk in block.chunks_exact(16) {
            // SAFETY: the load reads the 32 bytes of `chunk` (16 units); no alignment
            // requirement.
            let v = unsafe { _mm256_loadu_si256(chunk.as_ptr().cast()) };
            let high_bits = _mm256_and_si256(v, kind);
            below_sums = _mm256_add_epi16(
                below_sums,
                _mm256_add_epi16(
                    _mm256_cmpeq_epi16(_mm256_and_si256(v, ascii), zero),
                    _mm256_cmpeq_epi16(high_bits, zero),
                ),
            );
            surrogate_sums =
                _mm256_add_epi16(surrogate_sums, _mm256_cmpeq_epi16(high_bits, surrogate));
        }
        below += sum_lanes(below_sums, ones);
        surrogates += sum_lanes(surrogate_sums, ones);
    }
    let (rest_len, rest_surrogates) = crate::from_utf16::utf8_counts(rest);
    (
        3 * vectors.len() - below + rest_len,
        surrogates + rest_surrogates,
    )
}

/// The sum of the 16 lanes of `sums`, each 0 or negative (a count of -1s), negated.
#[target_feature(enable = "avx2")]
#[inline]
fn sum_lanes(sums: __m256i, ones: __m256i) -> usize {
    let pairs = _mm256_madd_epi16(sums, ones);
    let fours = _mm_add_epi32(
        _mm256_castsi256_si128(pairs),
        _mm256_extracti128_si256::<1>(pairs),
    );
    let twos = _mm_add_epi32(fours, _mm_unpackhi_epi64(fours, fours));
    let one = _mm_add_epi32(twos, _mm_srli_si128::<4>(twos));
    // The sum is at least -2 * 16 * COUNTS_AVX2_BLOCK.
    (-_mm_cvtsi128_si32(one)) as usize
}

/// See [`Kernels::utf16_counts`](crate::arch::Kernels::utf16_counts): 32 units a vector,
/// each count the population of a compare's mask (the units from U+0080 and those from
/// U+0800 in one 64-bit mask); the last 31 units or fewer by the portable loop.
#[cfg(wirebytes_avx512)]
#[clippy::msrv = "1.89"]
#[target_feature(enable = "avx512f,avx512bw,avx2,popcnt")]
pub(crate) fn utf16_counts_avx512(units: &[u16]) -> (usize, usize) {
    let (x80, x800) = (_mm512_set1_epi16(0x80), _mm512_set1_epi16(0x800));
    let (kind, surrogate) = (
        _mm512_set1_epi16(0xF800_u16 as i16),
        _mm512_set1_epi16(0xD800_u16 as i16),
    );
    let (mut above, mut surrogates) = (0_usize, 0_usize);
    let chunks = units.chunks_exact(32);
    let rest = chunks.remainder();
    for chunk in chunks {
        // SAFETY: the load reads the 64 bytes of `chunk` (32 units); no alignment
        // requirement.
        let v = unsafe { _mm512_loadu_si512(chunk.as_ptr().cast()) };
        let from_80 = u64::from(_mm512_cmpge_epu16_mask(v, x80));
        let from_800 = u64::from(_mm512_cmpge_epu16_mask(v, x800));
        let surrogate_units = _mm512_cmpeq_epi16_mask(_mm512_and_si512(v, kind), surrogate);
        above += (from_80 | from_800 << 32).count_ones() as usize;
        surrogates += surrogate_units.count_ones() as usize;
    }
    let (rest_len, rest_surrogates) = crate::from_utf16::utf8_counts(rest);
    (
        units.len() - rest.len() + above + rest_len,
        surrogates + rest_surrogates,
    )
}

/// See [`Kernels::utf16_max`](crate::arch::Kernels::utf16_max): the portable loop in AVX2
/// vectors.
#[target_feature(enable = "avx2")]
pub(crate) fn utf16_max_avx2(units: &[u16]) -> u16 {
    crate::from_utf16::max_unit(units)
}

/// See [`Kernels::utf16_max`](crate::arch::Kernels::utf16_max): the portable loop in AVX-512
/// vectors.
#[cfg(wirebytes_avx512)]
#[clippy::msrv = "1.89"]
#[target_feature(enable = "avx512f,avx512bw,avx2")]
pub(crate) fn utf16_max_avx512(units: &[u16]) -> u16 {
    crate::from_utf16::max_unit(units)
}

/// See [`Kernels::utf16_pairs`](crate::arch::Kernels::utf16_pairs): the portable loop in AVX2
/// vectors.
#[target_feature(enable = "avx2")]
pub(crate) fn utf16_pairs_avx2(units: &[u16]) -> usize {
    crate::from_utf16::pairs(units)
}

/// See [`Kernels::utf16_pairs`](crate::arch::Kernels::utf16_pairs): 32 units a step, the
/// high surrogates among them (`u & 0xFC00 == 0xD800`) masked by the low ones among the 32
/// units one on, counted by population; the last 32 units or fewer by the portable loop.
#[cfg(wirebytes_avx512)]
#[clippy::msrv = "1.89"]
#[target_feature(enable = "avx512f,avx512bw,avx2,popcnt")]
pub(crate) fn utf16_pairs_avx512(units: &[u16]) -> usize {
    let kind = _mm512_set1_epi16(0xFC00_u16 as i16);
    let (high, low) = (
        _mm512_set1_epi16(0xD800_u16 as i16),
        _mm512_set1_epi16(0xDC00_u16 as i16),
    );
    let (mut pairs, mut at) = (0, 0);
    // Each step reads units `at..at + 33`.
    while let Some(step) = units.get(at..at + 33) {
        // SAFETY: the two loads read units 0..32 and 1..33 of `step` (64 bytes each); no
        // alignment requirement.
        let (v, next) = unsafe {
            (
                _mm512_loadu_si512(step.as_ptr().cast()),
                _mm512_loadu_si512(step[1..].as_ptr().cast()),
            )
        };
        let highs = _mm512_cmpeq_epi16_mask(_mm512_and_si512(v, kind), high);
        let lows = _mm512_cmpeq_epi16_mask(_mm512_and_si512(next, kind), low);
        pairs += (highs & lows).count_ones() as usize;
        at += 32;
    }
    pairs + crate::from_utf16::pairs(&units[at..])
}
