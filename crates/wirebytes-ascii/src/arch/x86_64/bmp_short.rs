//! Short text of chars up to 3 bytes (SSSE3, POPCNT): see `Kernels::utf8_short`.

use super::two_byte::{squeeze, window_values};
use core::arch::x86_64::{
    _mm_andnot_si128, _mm_cmpeq_epi8, _mm_cmplt_epi8, _mm_loadu_si128, _mm_max_epu8,
    _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
};
use core::mem::MaybeUninit;

/// The most bytes of `src` the kernel takes.
const MAX: usize = 64;

/// See [`Kernels::utf8_short`](crate::arch::Kernels::utf8_short): all of `src` (at most 64
/// bytes, a whole `str` or its end from a char boundary, no char longer than 3 bytes) copied
/// into a zero-filled buffer and taken 16 bytes per window: every byte gets the low byte its
/// char has if it ends one, `(before & 0x03) << 6 | (byte & 0x3F)` for a continuation byte
/// (the byte before it is the lead of a 2-byte char or the second byte of a 3-byte one), and
/// each half window is squeezed by a `pshufb` (`squeeze`: the bytes followed by a
/// continuation byte removed) into an output buffer. The zero bytes past `src` are ASCII, one
/// unit each after the units of `src`, and are not copied out. Returns `(src.len(), units)`
/// and the mask of the written bytes a header value may not hold, or `(0, 0)` and 0, having
/// written nothing, for a longer `src`, a 4-byte char, or too little room in `dst`.
#[target_feature(enable = "ssse3,popcnt")]
pub(crate) fn bmp_short_ssse3(
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
    not_header: &mut u64,
) -> (usize, usize) {
    if src.len() > MAX {
        return (0, 0);
    }
    // The text, then zero bytes: 64 for four windows, 16 more for the byte after the last.
    let mut bytes = [0u8; MAX + 16];
    bytes[..src.len()].copy_from_slice(src);
    let windows = src.len().div_ceil(16);
    // The output of the windows: at most 16 units each, and 8 bytes of slack for the
    // second half's store.
    let mut units = [0u8; MAX + 8];
    let mut written = 0;
    let mut before_window = _mm_set1_epi8(0);
    // Whether a kept byte of `src` may not be a header byte (below 0x20, HTAB too, or DEL):
    // then the output is checked byte by byte at the end.
    let mut suspect = 0;
    for w in 0..windows {
        let (Some(window), Some(&after)) = (
            bytes.get(16 * w..).and_then(<[u8]>::first_chunk::<16>),
            bytes.get(16 * w + 16),
        ) else {
            break;
        };
        // SAFETY: the 16 bytes read are `window`, a `[u8; 16]`; no alignment requirement.
        let v = unsafe { _mm_loadu_si128(window.as_ptr().cast()) };
        // Bytes F0..FF start 4-byte chars: not for this kernel.
        let four = _mm_cmpeq_epi8(_mm_max_epu8(v, _mm_set1_epi8(0xF0u8 as i8)), v);
        if _mm_movemask_epi8(four) != 0 {
            return (0, 0);
        }
        // Continuation bytes 80..BF are the bytes below C0 as signed values.
        let is_continuation = _mm_cmplt_epi8(v, _mm_set1_epi8(0xC0u8 as i8));
        let continuation = _mm_movemask_epi8(is_continuation) as u32;
        let after_continues = u32::from((after as i8) < (0xC0u8 as i8));
        // The bytes followed by a continuation byte end no char: they are squeezed out.
        let drop = (continuation >> 1) | (after_continues << 15);
        let values = window_values(v, before_window, is_continuation);
        let controls = _mm_andnot_si128(
            _mm_cmplt_epi8(values, _mm_set1_epi8(0)),
            _mm_cmplt_epi8(values, _mm_set1_epi8(0x20)),
        );
        let del = _mm_cmpeq_epi8(values, _mm_set1_epi8(0x7F));
        // (The zero bytes past `src` are controls too, but not of `src`.)
        let of_src = (1u32 << (src.len() - 16 * w).min(16)) - 1;
        suspect |= _mm_movemask_epi8(_mm_or_si128(controls, del)) as u32 & !drop & of_src;
        let (low, low_len, high, high_len) = squeeze(values, drop);
        // `written` is at most 16 per window before this one, so both stores fit.
        let Some(out) = units
            .get_mut(written..)
            .and_then(<[u8]>::first_chunk_mut::<16>)
        else {
            break;
        };
        out[..8].copy_from_slice(&low);
        out[low_len..low_len + 8].copy_from_slice(&high);
        written += low_len + high_len;
        before_window = v;
    }
    // Every zero byte past `src` in the windows made one unit, after those of `src`.
    let count = written - (16 * windows - src.len());
    let Some(to) = dst.get_mut(..count) else {
        return (0, 0);
    };
    for (slot, &unit) in to.iter_mut().zip(&units[..count]) {
        slot.write(unit);
    }
    *not_header = if suspect == 0 {
        0
    } else {
        crate::counters::add(crate::counters::Path::BmpShortScanSsse3, count);
        units[..count]
            .iter()
            .enumerate()
            .filter(|&(_, &unit)| !crate::header::is_header_byte(unit))
            .fold(0, |mask, (i, _)| mask | 1 << i)
    };
    (src.len(), count)
}
