//! Any text, 64 bytes per step (AVX-512 VBMI2): see `Kernels::utf8_blocks`.

use core::arch::x86_64::{
    _mm512_and_si512, _mm512_cmpge_epu8_mask, _mm512_cmplt_epi8_mask, _mm512_loadu_si512,
    _mm512_mask_blend_epi8, _mm512_mask_storeu_epi8, _mm512_maskz_compress_epi8, _mm512_or_si512,
    _mm512_permutex2var_epi8, _mm512_set1_epi8, _mm512_setzero_si512, _mm512_slli_epi16,
    _mm512_srli_epi16, _mm512_sub_epi8,
};
use core::mem::MaybeUninit;

/// For [`utf8_blocks_avx512`]: the `vpermt2b` indices that give every byte of a window the
/// byte before it, the first one the last byte of the window before.
const BYTE_BEFORE: [i8; 64] = {
    let mut indices = [0i8; 64];
    indices[0] = 64 + 63; // the second source (the window before), byte 63
    let mut k = 1;
    while k < 64 {
        indices[k] = k as i8 - 1;
        k += 1;
    }
    indices
};

/// See [`Kernels::utf8_blocks`](crate::arch::Kernels::utf8_blocks). The low byte of the UTF-16 unit of a 1-, 2- or 3-byte char is
/// its last byte if that is ASCII, else `(before_last & 0x03) << 6 | (last & 0x3F)`; a 4-byte
/// char ends the same way for its low surrogate, and its third byte gives the high
/// surrogate's. Both are computed at every byte; the bytes that end a char (the ones not
/// followed by a continuation byte) and the third bytes of 4-byte chars are kept by
/// `vpcompressb` and stored with a masked store.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt")]
pub(crate) fn utf8_blocks_avx512(src: &[u8], dst: &mut [MaybeUninit<u8>]) -> (usize, usize) {
    let mut read = 0;
    let mut written = 0;
    // SAFETY: `BYTE_BEFORE` is 64 bytes; the load has no alignment requirement.
    let byte_before = unsafe { _mm512_loadu_si512(BYTE_BEFORE.as_ptr().cast()) };
    // The window before: zero at first (`src` starts at a char boundary, so the first byte
    // needs no byte before it).
    let mut before_window = _mm512_setzero_si512();
    // The third bytes of 4-byte chars whose lead is in the last two bytes of the window
    // before, at bits 0 and 1.
    let mut third_carried = 0u64;
    // 64 bytes and the one after them (is it a continuation byte?).
    while let (Some(window), Some(&after), Some(out)) = (
        src.get(read..).and_then(<[u8]>::first_chunk::<64>),
        src.get(read + 64),
        dst.get_mut(written..)
            .and_then(<[MaybeUninit<u8>]>::first_chunk_mut::<64>),
    ) {
        // SAFETY: the 64 bytes read are `window`, a `[u8; 64]`; no alignment requirement.
        let v = unsafe { _mm512_loadu_si512(window.as_ptr().cast()) };
        // Continuation bytes 80..BF are the bytes below C0 as signed values.
        let continuation = _mm512_cmplt_epi8_mask(v, _mm512_set1_epi8(0xC0u8 as i8));
        let after_continues = u64::from((after as i8) < (0xC0u8 as i8));
        let ends = !((continuation >> 1) | (after_continues << 63));
        // A 4-byte char (lead F0..F4) is a surrogate pair: its third byte gives the high
        // surrogate's low byte, its last byte the low one's.
        let four_byte_leads = _mm512_cmpge_epu8_mask(v, _mm512_set1_epi8(0xF0u8 as i8));
        let thirds = (four_byte_leads << 2) | third_carried;
        third_carried = four_byte_leads >> 62;
        let before = _mm512_permutex2var_epi8(v, byte_before, before_window);
        // (before & 0x03) << 6 | (byte & 0x3F): the 16-bit shift keeps bits 1..0 of each
        // byte within the same byte.
        let decoded = _mm512_or_si512(
            _mm512_slli_epi16(_mm512_and_si512(before, _mm512_set1_epi8(0x03)), 6),
            _mm512_and_si512(v, _mm512_set1_epi8(0x3F)),
        );
        // ((before & 0x3F) << 2 | (byte >> 4) & 0x03) - 0x40 at the third bytes (see
        // `crate::swar::high_surrogate_low_byte`); the shifts keep every bit within its byte
        // once masked.
        let high_surrogate = _mm512_sub_epi8(
            _mm512_or_si512(
                _mm512_slli_epi16(_mm512_and_si512(before, _mm512_set1_epi8(0x3F)), 2),
                _mm512_and_si512(_mm512_srli_epi16(v, 4), _mm512_set1_epi8(0x03)),
            ),
            _mm512_set1_epi8(0x40),
        );
        let values = _mm512_mask_blend_epi8(
            thirds,
            _mm512_mask_blend_epi8(continuation, v, decoded),
            high_surrogate,
        );
        let keep = ends | thirds;
        let chars = keep.count_ones() as usize;
        let kept = _mm512_maskz_compress_epi8(keep, values);
        let store = if chars == 64 {
            u64::MAX
        } else {
            (1u64 << chars) - 1
        };
        // SAFETY: `out` is a `[u8; 64]`; the masked store writes its first `chars` bytes and
        // touches no other; no alignment requirement.
        unsafe { _mm512_mask_storeu_epi8(out.as_mut_ptr().cast(), store, kept) };
        read += 64;
        written += chars;
        before_window = v;
    }
    // A char cut by the end of the last window is the caller's, from its lead on (at most
    // three bytes back). Its last unit was not counted; the high surrogate of a 4-byte char
    // whose third byte was in the window was, and is taken back.
    let end = read;
    while read > 0 && src.get(read).is_some_and(|&b| (b as i8) < (0xC0u8 as i8)) {
        read -= 1;
    }
    if read + 2 < end && src.get(read).is_some_and(|&b| b >= 0xF0) {
        written -= 1;
    }
    (read, written)
}
