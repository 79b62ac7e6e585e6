//! Text of ASCII and 2-byte chars (SSSE3, POPCNT): see `Kernels::two_byte_blocks`.

use core::arch::x86_64::{
    __m128i, _mm_add_epi8, _mm_alignr_epi8, _mm_and_si128, _mm_andnot_si128, _mm_cmpeq_epi8,
    _mm_cvtsi128_si64, _mm_loadu_si128, _mm_max_epu8, _mm_movemask_epi8, _mm_or_si128,
    _mm_set_epi64x, _mm_set1_epi8, _mm_shuffle_epi8, _mm_slli_epi16,
};
use core::mem::MaybeUninit;

use super::compact::COMPACT;

/// See [`Kernels::two_byte_blocks`](crate::arch::Kernels::two_byte_blocks). Per 16-byte window: every continuation byte gets the low
/// byte of its char, `(lead & 0x03) << 6 | (continuation & 0x3F)`, from the byte before it;
/// ASCII bytes stay; then each half of the window is squeezed by a `pshufb` from [`COMPACT`]
/// (the lead bytes removed) and stored as 8 bytes, the second half right after the first
/// half's output. A char cut by the end of a window is finished by the next one.
#[target_feature(enable = "ssse3,popcnt")]
pub(crate) fn two_byte_blocks_ssse3(src: &[u8], dst: &mut [MaybeUninit<u8>]) -> (usize, usize) {
    let mut read = 0;
    let mut written = 0;
    // The window before (zero at first: `src` starts at a char boundary), and whether its last
    // byte is a lead, whose char then ends in the next window.
    let mut before_window = _mm_set1_epi8(0);
    let mut ends_on_lead = false;
    // 24 bytes of `src` after the window: see `Kernels::two_byte_blocks`.
    while let (Some(window), true, Some(out)) = (
        src.get(read..).and_then(<[u8]>::first_chunk::<16>),
        src.len() - read >= 16 + 24,
        dst.get_mut(written..)
            .and_then(<[MaybeUninit<u8>]>::first_chunk_mut::<16>),
    ) {
        // SAFETY: the 16 bytes read are `window`, a `[u8; 16]`; the load has no alignment
        // requirement.
        let v = unsafe { _mm_loadu_si128(window.as_ptr().cast()) };
        // Bytes E0..FF start 3- and 4-byte chars: not for this kernel.
        let long = _mm_cmpeq_epi8(_mm_max_epu8(v, _mm_set1_epi8(0xE0u8 as i8)), v);
        if _mm_movemask_epi8(long) != 0 {
            break;
        }
        let is_lead = _mm_cmpeq_epi8(
            _mm_and_si128(v, _mm_set1_epi8(0xE0u8 as i8)),
            _mm_set1_epi8(0xC0u8 as i8),
        );
        let leads = _mm_movemask_epi8(is_lead) as u32;
        let is_continuation = _mm_cmpeq_epi8(
            _mm_and_si128(v, _mm_set1_epi8(0xC0u8 as i8)),
            _mm_set1_epi8(0x80u8 as i8),
        );
        // Every byte's predecessor, the first one's from the window before: a char cut by the
        // end of that window is finished here (its lead was squeezed out there). The next
        // window's start does not wait for this one's bytes: the loop runs 16 bytes per step.
        let values = window_values(v, before_window, is_continuation);
        let (low, low_len, high, high_len) = squeeze(values, leads);
        out[..8].copy_from_slice(&low.map(MaybeUninit::new));
        out[low_len..low_len + 8].copy_from_slice(&high.map(MaybeUninit::new));
        read += 16;
        written += low_len + high_len;
        before_window = v;
        ends_on_lead = leads & 0x8000 != 0;
    }
    if ends_on_lead {
        // The last window's last char is not done: it is the caller's, from its lead on.
        read -= 1;
    }
    (read, written)
}

/// Every byte of the window `v` with the low byte its char has if it ends there: a
/// continuation byte (where `is_continuation` is set) gives `(before & 0x03) << 6 | (byte &
/// 0x3F)` from the byte before it (the last of `before_window` for the first), any other
/// byte itself. The 16-bit shift keeps bits 1..0 of each byte within the same byte.
#[inline]
#[target_feature(enable = "ssse3")]
pub(super) fn window_values(
    v: __m128i,
    before_window: __m128i,
    is_continuation: __m128i,
) -> __m128i {
    let before = _mm_alignr_epi8::<15>(v, before_window);
    let decoded = _mm_or_si128(
        _mm_slli_epi16(_mm_and_si128(before, _mm_set1_epi8(0x03)), 6),
        _mm_and_si128(v, _mm_set1_epi8(0x3F)),
    );
    _mm_or_si128(
        _mm_and_si128(is_continuation, decoded),
        _mm_andnot_si128(is_continuation, v),
    )
}

/// The bytes of `values` whose bit in `drop` (bit `i` for byte `i`, 16 bits) is clear,
/// squeezed by one `pshufb` from [`COMPACT`] per half: the first half's as 8 bytes (the kept
/// ones first) and their count, then the second half's.
#[inline]
#[target_feature(enable = "ssse3,popcnt")]
pub(super) fn squeeze(values: __m128i, drop: u32) -> ([u8; 8], usize, [u8; 8], usize) {
    let low_drop = (drop & 0xFF) as usize;
    let high_drop = ((drop >> 8) & 0xFF) as usize;
    let keep_low = _mm_set_epi64x(0, COMPACT[low_drop] as i64);
    let keep_high = _mm_add_epi8(
        _mm_set_epi64x(0, COMPACT[high_drop] as i64),
        _mm_set1_epi8(8),
    );
    let low = _mm_cvtsi128_si64(_mm_shuffle_epi8(values, keep_low)).to_le_bytes();
    let high = _mm_cvtsi128_si64(_mm_shuffle_epi8(values, keep_high)).to_le_bytes();
    (
        low,
        8 - low_drop.count_ones() as usize,
        high,
        8 - high_drop.count_ones() as usize,
    )
}
