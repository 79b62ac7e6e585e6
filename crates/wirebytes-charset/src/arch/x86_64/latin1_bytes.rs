//! The AVX-512 kernel of UTF-8 to Latin-1 bytes: 64 bytes per step, each lead byte replaced
//! by its char's byte (made from it and the byte after it), then the bytes that start a char
//! packed with `vpcompressb` and stored under a mask. Its contract is
//! [`Kernels::latin1_bytes`](crate::arch::Kernels::latin1_bytes)'s.

use std::mem::MaybeUninit;

use std::arch::x86_64::{
    __m512i, _mm512_and_si512, _mm512_cmpeq_epi8_mask, _mm512_cmpge_epu8_mask,
    _mm512_cmplt_epu8_mask, _mm512_loadu_si512, _mm512_mask_mov_epi8, _mm512_mask_storeu_epi8,
    _mm512_maskz_compress_epi8, _mm512_maskz_loadu_epi8, _mm512_movepi8_mask, _mm512_or_si512,
    _mm512_set1_epi8, _mm512_slli_epi16,
};

/// The mask of the first `n` (at most 64) bytes.
#[inline]
fn first(n: usize) -> u64 {
    u64::MAX.checked_shr(64 - n as u32).unwrap_or(0)
}

/// The `n` (at most 64) bytes of `src` from `at` in the low lanes, zeros above; `src` has at
/// least `at + n` bytes.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn load(src: &[u8], at: usize, n: usize) -> __m512i {
    debug_assert!(n <= 64 && at + n <= src.len());
    // SAFETY: the load reads only the lanes of its mask, the `n` bytes of `src` from `at`
    // (in bounds: `at + n <= src.len()`, so the pointer is at most one past the end); a
    // masked-off lane is not read and cannot fault. No alignment requirement.
    unsafe { _mm512_maskz_loadu_epi8(first(n), src.as_ptr().wrapping_add(at).cast()) }
}

/// See [`Kernels::latin1_bytes`](crate::arch::Kernels::latin1_bytes): the chars of
/// U+0080..=U+009F are taken when `C1`, else they stop the kernel.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi2,popcnt")]
pub(crate) fn latin1_bytes_avx512<const C1: bool>(
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
) -> (usize, usize) {
    let (mut i, mut w) = (0usize, 0usize);
    while i < src.len() {
        // `k` bytes from `i`, and the byte after each (the last one's only where it is in
        // `src`: a lead byte on the last byte of `src` is not valid UTF-8).
        let k = (src.len() - i).min(64);
        let (x, y) = match src.get(i..i + 65) {
            // SAFETY: each load reads 64 of the 65 bytes of `bytes`; no alignment requirement.
            Some(bytes) => unsafe {
                (
                    _mm512_loadu_si512(bytes.as_ptr().cast()),
                    _mm512_loadu_si512(bytes.as_ptr().add(1).cast()),
                )
            },
            None => (load(src, i, k), load(src, i + 1, k.min(src.len() - i - 1))),
        };
        let valid = first(k);
        let high = _mm512_movepi8_mask(x) & valid;
        let leads = _mm512_cmpge_epu8_mask(x, _mm512_set1_epi8(0xC0_u8 as i8));
        // The first byte not taken: the lead of a char above U+00FF, or (without `C1`) of
        // one below U+00A0 (0xC2 and a next byte below 0xA0).
        let mut stop = _mm512_cmpge_epu8_mask(x, _mm512_set1_epi8(0xC4_u8 as i8));
        if !C1 {
            stop |= _mm512_cmpeq_epi8_mask(x, _mm512_set1_epi8(0xC2_u8 as i8))
                & _mm512_cmplt_epu8_mask(y, _mm512_set1_epi8(0xA0_u8 as i8));
        }
        stop &= valid;
        // The bytes before the stop (all of them when there is none) that start a char: all
        // but continuation bytes (the first may be the continuation of the last char of the
        // step before, written there).
        let starts = !(high & !leads) & valid & stop.wrapping_sub(1) & !stop;
        let count = starts.count_ones() as usize;
        let Some(out) = dst.get_mut(w..w + count) else {
            break;
        };
        let pair = _mm512_or_si512(
            _mm512_and_si512(_mm512_slli_epi16::<6>(x), _mm512_set1_epi8(0xC0_u8 as i8)),
            _mm512_and_si512(y, _mm512_set1_epi8(0x3F)),
        );
        let bytes = _mm512_maskz_compress_epi8(starts, _mm512_mask_mov_epi8(x, leads, pair));
        // SAFETY: the store writes only the lanes of its mask, the first `count` bytes, the
        // `count` bytes of `out`, borrowed mutably; a masked-off lane is not written. No
        // alignment requirement.
        unsafe { _mm512_mask_storeu_epi8(out.as_mut_ptr().cast(), first(count), bytes) };
        w += count;
        // Where no char stops the kernel, the next step's place depends on no vector: the
        // loads run ahead.
        if stop != 0 {
            i += stop.trailing_zeros() as usize;
            break;
        }
        i += k;
    }
    // The last char taken may end past the bytes read: go on from the next char's first
    // byte.
    while src.get(i).is_some_and(|&b| b & 0xC0 == 0x80) {
        i += 1;
    }
    (i, w)
}
