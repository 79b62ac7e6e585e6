//! The SSSE3 + POPCNT Latin-1 window kernel: sixteen bytes at a time, `pshufb` compaction.
//! Its contract is [`Kernels::latin1_window`](crate::arch::Kernels::latin1_window)'s.

use std::arch::x86_64::{
    __m128i, _mm_and_si128, _mm_andnot_si128, _mm_cmpeq_epi8, _mm_cvtsi128_si64, _mm_min_epu8,
    _mm_movemask_epi8, _mm_or_si128, _mm_set_epi64x, _mm_set1_epi8, _mm_setzero_si128,
    _mm_shuffle_epi8, _mm_slli_epi16, _mm_unpackhi_epi64,
};

use super::compact::COMPACT;
use crate::latin1::WINDOW;
use crate::single_byte::BLOCK;

/// Writes the bytes of `v` whose bit in `dropped` (bit `i`: byte `i`) is clear, in order,
/// to `dst` from `w` on, and returns `w` past them: `pshufb` gathers each half's kept bytes
/// (eight [`COMPACT`] indices per half) and each half is stored eight bytes wide (the bytes
/// past the kept ones are overwritten by the next store or are past the output). A caller
/// that has written at most `8 * k` bytes before its `k`-th half (of eight per block) has
/// every store fit.
#[inline]
#[target_feature(enable = "ssse3,popcnt")]
pub(super) fn compact16(v: __m128i, dropped: u32, dst: &mut [u8; BLOCK], w: usize) -> usize {
    let (low, high) = ((dropped & 0xFF) as usize, ((dropped >> 8) & 0xFF) as usize);
    let indices = _mm_set_epi64x(
        (COMPACT[high] | 0x0808_0808_0808_0808) as i64,
        COMPACT[low] as i64,
    );
    let packed = _mm_shuffle_epi8(v, indices);
    if let Some(out) = dst.get_mut(w..w + 8) {
        out.copy_from_slice(&_mm_cvtsi128_si64(packed).to_le_bytes());
    }
    let w = w + 8 - low.count_ones() as usize;
    let upper = _mm_unpackhi_epi64(packed, packed);
    if let Some(out) = dst.get_mut(w..w + 8) {
        out.copy_from_slice(&_mm_cvtsi128_si64(upper).to_le_bytes());
    }
    w + 8 - high.count_ones() as usize
}

/// Sixteen bytes of `window` from `at`.
#[target_feature(enable = "ssse3,popcnt")]
fn load(window: &[u8; WINDOW], at: usize) -> __m128i {
    let word = |at: usize| {
        let mut word = [0u8; 8];
        word.copy_from_slice(&window[at..at + 8]);
        i64::from_le_bytes(word)
    };
    _mm_set_epi64x(word(at + 8), word(at))
}

/// Per sixteen bytes `x` (and `y`, each one's next byte): lead bytes become their char's byte
/// `(x & 0x03) << 6 | (y & 0x3F)`, then `pshufb` drops the continuation bytes from each half
/// (eight indices from [`COMPACT`] per half) and each half is stored eight bytes wide (the
/// bytes past the kept ones are overwritten by the next store or are past the output). Before
/// the `k`-th of the eight stores at most `8 * k` bytes were written: every store fits.
#[target_feature(enable = "ssse3,popcnt")]
pub(crate) fn latin1_window_ssse3(window: &[u8; WINDOW], dst: &mut [u8; BLOCK]) -> Option<usize> {
    let top2 = _mm_set1_epi8(0xC0_u8 as i8);
    let continuation_bits = _mm_set1_epi8(0x80_u8 as i8);
    let low2 = _mm_set1_epi8(0x03);
    let low6 = _mm_set1_epi8(0x3F);
    let max_lead = _mm_set1_epi8(0xC3_u8 as i8);
    let below_a0 = _mm_set1_epi8(0x9F_u8 as i8);
    let mut bad = _mm_setzero_si128();
    let mut w = 0usize;
    for at in (0..BLOCK).step_by(16) {
        let (x, y) = (load(window, at), load(window, at + 1));
        let kind = _mm_and_si128(x, top2);
        let lead = _mm_cmpeq_epi8(kind, top2);
        let continuation = _mm_cmpeq_epi8(kind, continuation_bits);
        let pair = _mm_or_si128(
            _mm_slli_epi16::<6>(_mm_and_si128(x, low2)),
            _mm_and_si128(y, low6),
        );
        let value = _mm_or_si128(_mm_and_si128(lead, pair), _mm_andnot_si128(lead, x));
        // Bad: a byte above 0xC3 (`x` where it does not fit: top bit set), or a lead (0xC2)
        // whose char is below U+00A0.
        let fits = _mm_cmpeq_epi8(_mm_min_epu8(x, max_lead), x);
        let small = _mm_cmpeq_epi8(_mm_min_epu8(pair, below_a0), pair);
        let here = _mm_or_si128(_mm_andnot_si128(fits, x), _mm_and_si128(lead, small));
        bad = _mm_or_si128(bad, here);
        w = compact16(value, _mm_movemask_epi8(continuation) as u32, dst, w);
    }
    (_mm_movemask_epi8(bad) == 0).then_some(w)
}
