//! Any text, 64 bytes per step (AVX-512 VBMI2): see `Kernels::utf8_blocks`.

use core::arch::x86_64::{
    __m512i, _mm512_and_si512, _mm512_cmpeq_epi8_mask, _mm512_cmpge_epu8_mask,
    _mm512_cmplt_epi8_mask, _mm512_cmplt_epu8_mask, _mm512_loadu_si512, _mm512_mask_blend_epi8,
    _mm512_mask_min_epu8, _mm512_mask_storeu_epi8, _mm512_maskz_compress_epi8,
    _mm512_maskz_loadu_epi8, _mm512_or_si512, _mm512_permutex2var_epi8, _mm512_set1_epi8,
    _mm512_setzero_si512, _mm512_slli_epi16, _mm512_srli_epi16, _mm512_storeu_si512,
    _mm512_sub_epi8, _mm512_xor_si512,
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

/// Whether `after`, the byte after a window, is a continuation byte: 1 or 0.
#[inline(always)]
fn after_continues(after: u8) -> u64 {
    u64::from((after as i8) < (0xC0u8 as i8))
}

/// The low bytes of the units of the chars that end in the window `v`, packed from the
/// vector's start, their count, and the 4-byte leads of the window. `before_window` is the
/// window before (its last byte is the byte before `v`'s first), `after_continues` whether the
/// byte after the window is a continuation byte (1 or 0), `third_carried` the third bytes of
/// 4-byte chars that started in the last two bytes of the window before (bits 0 and 1), and
/// `bytes` the bytes of the window that count (the others are never kept).
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt")]
fn window_units(
    v: __m512i,
    before_window: __m512i,
    after_continues: u64,
    third_carried: u64,
    bytes: u64,
) -> (__m512i, usize, u64) {
    // SAFETY: `BYTE_BEFORE` is 64 bytes; the load has no alignment requirement.
    let byte_before = unsafe { _mm512_loadu_si512(BYTE_BEFORE.as_ptr().cast()) };
    // Continuation bytes 80..BF are the bytes below C0 as signed values.
    let continuation = _mm512_cmplt_epi8_mask(v, _mm512_set1_epi8(0xC0u8 as i8));
    let ends = !((continuation >> 1) | (after_continues << 63));
    // A 4-byte char (lead F0..F4) is a surrogate pair: its third byte gives the high
    // surrogate's low byte, its last byte the low one's.
    let four_byte_leads = _mm512_cmpge_epu8_mask(v, _mm512_set1_epi8(0xF0u8 as i8));
    let thirds = (four_byte_leads << 2) | third_carried;
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
    let keep = (ends | thirds) & bytes;
    let kept = _mm512_maskz_compress_epi8(keep, values);
    (kept, keep.count_ones() as usize, four_byte_leads)
}

/// Whether the 64 bytes from `at` lie on two pages. A masked load or store whose masked-off
/// bytes lie on a page that is not mapped, or not yet touched, costs the CPU a slow assist
/// (hundreds of cycles: a 47-byte copy took 190 ns instead of 12 on an AMD EPYC).
#[inline(always)]
fn crosses_page<T>(at: *const T) -> bool {
    (at as usize) % 4096 > 4096 - 64
}

/// Writes the first `to.len()` (at most 64) bytes of `v` into `to`, and no other byte: one
/// masked store, or, where the 64 bytes from `to` would cross a page boundary, a store into a
/// buffer and a copy (the masked-off bytes of a masked store on a page not yet touched cost
/// the CPU a slow assist at every store: an output buffer that is cleared and written again
/// would pay it at every call).
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn store_first(to: &mut [MaybeUninit<u8>], v: __m512i) {
    if crosses_page(to.as_ptr()) {
        crate::counters::add(crate::counters::Path::PageBouncesAvx512, 1);
        let mut buf = [MaybeUninit::<u8>::uninit(); 64];
        // SAFETY: `buf` is 64 bytes; no alignment requirement.
        unsafe { _mm512_storeu_si512(buf.as_mut_ptr().cast(), v) };
        to.copy_from_slice(&buf[..to.len()]);
    } else {
        // SAFETY: the masked store writes the `to.len()` bytes of `to` (the mask) and touches
        // no other; no alignment requirement.
        unsafe { _mm512_mask_storeu_epi8(to.as_mut_ptr().cast(), first_bytes(to.len()), v) };
    }
}

/// A mask of the first `n` (at most 64) bytes of a vector.
#[inline(always)]
fn first_bytes(n: usize) -> u64 {
    if n >= 64 { u64::MAX } else { (1u64 << n) - 1 }
}

/// See [`Kernels::utf8_blocks`](crate::arch::Kernels::utf8_blocks). The low byte of the UTF-16 unit of a 1-, 2- or 3-byte char is
/// its last byte if that is ASCII, else `(before_last & 0x03) << 6 | (last & 0x3F)`; a 4-byte
/// char ends the same way for its low surrogate, and its third byte gives the high
/// surrogate's. Both are computed at every byte; the bytes that end a char (the ones not
/// followed by a continuation byte) and the third bytes of 4-byte chars are kept by
/// `vpcompressb` and stored with a masked store.
///
/// With `CHECK`, the output is also watched for bytes a header value may not hold: the
/// bytewise minimum of every window's output, and of it with DEL's bits flipped, are kept in
/// two registers (two masked `vpminub` per window, no branch), and `suspect` is set at the end
/// when one of the bytes written is below 0x20 (HTAB too) or is DEL.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt")]
pub(crate) fn utf8_blocks_avx512<const CHECK: bool>(
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
    suspect: &mut bool,
) -> (usize, usize) {
    let del = _mm512_set1_epi8(0x7F);
    let (mut least, mut least_flipped) = (_mm512_set1_epi8(-1), _mm512_set1_epi8(-1));
    let mut read = 0;
    let mut written = 0;
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
        let (kept, chars, four_byte_leads) = window_units(
            v,
            before_window,
            after_continues(after),
            third_carried,
            u64::MAX,
        );
        third_carried = four_byte_leads >> 62;
        store_first(&mut out[..chars], kept);
        read += 64;
        if CHECK {
            let bytes = first_bytes(chars);
            least = _mm512_mask_min_epu8(least, bytes, least, kept);
            least_flipped = _mm512_mask_min_epu8(
                least_flipped,
                bytes,
                least_flipped,
                _mm512_xor_si512(kept, del),
            );
        }
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
    if CHECK {
        *suspect = _mm512_cmplt_epu8_mask(least, _mm512_set1_epi8(0x20)) != 0
            || _mm512_cmpeq_epi8_mask(least_flipped, _mm512_setzero_si512()) != 0;
    }
    (read, written)
}

/// See [`Kernels::utf8_short`](crate::arch::Kernels::utf8_short): all of `src` (at most 64
/// bytes, a whole `str` or its end from a char boundary) as one window, loaded with a mask (the
/// bytes past `src` are zero and never kept), stored with a mask when its units fit in `dst`.
/// Returns `(src.len(), units)` and, at bit `i` for each written byte `i` that a header value
/// may not hold (a control byte but HTAB, or DEL), a mask; or `(0, 0)` and 0, having written
/// nothing.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt")]
pub(crate) fn utf8_short_avx512(
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
    not_header: &mut u64,
) -> (usize, usize) {
    if src.len() > 64 {
        return (0, 0);
    }
    let bytes = first_bytes(src.len());
    // A masked load across a page boundary can cost the CPU a slow assist (see
    // `crosses_page`): then the bytes go through a buffer.
    let v = if !crosses_page(src.as_ptr()) {
        // SAFETY: the mask enables the `src.len()` bytes of `src` and no other: a masked load
        // reads only the enabled bytes (no fault or access past them), and zeroes the others.
        unsafe { _mm512_maskz_loadu_epi8(bytes, src.as_ptr().cast()) }
    } else {
        crate::counters::add(crate::counters::Path::PageBouncesAvx512, 1);
        let mut buf = [0u8; 64];
        buf[..src.len()].copy_from_slice(src);
        // SAFETY: `buf` is 64 bytes; the load has no alignment requirement.
        unsafe { _mm512_loadu_si512(buf.as_ptr().cast()) }
    };
    // `src` starts at a char boundary (no byte before it counts) and ends at one (the zero
    // byte after it is not a continuation byte).
    let (kept, units, _) = window_units(v, _mm512_setzero_si512(), 0, 0, bytes);
    if units > dst.len() {
        return (0, 0);
    }
    *not_header = super::header_check::avx512::not_header(kept) & first_bytes(units);
    store_first(&mut dst[..units], kept);
    (src.len(), units)
}
