//! `widen*_sse2`: bytes widened to their chars, each byte unpacked beside a zero byte (x86 is
//! little-endian: that is the byte's `u16`). SSE2 is in every x86_64 CPU and in the x86
//! targets built with it; these are compiled only where the target has it, and called
//! through `crate::arch::widen16` and its siblings.

use core::mem::MaybeUninit;

#[cfg(target_arch = "x86")]
use core::arch::x86::{
    __m128i, _mm_cvtsi32_si128, _mm_loadl_epi64, _mm_loadu_si128, _mm_setzero_si128,
    _mm_storel_epi64, _mm_storeu_si128, _mm_unpackhi_epi8, _mm_unpacklo_epi8,
};
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::{
    __m128i, _mm_cvtsi32_si128, _mm_loadl_epi64, _mm_loadu_si128, _mm_setzero_si128,
    _mm_storel_epi64, _mm_storeu_si128, _mm_unpackhi_epi8, _mm_unpacklo_epi8,
};

/// The 16 bytes of `src` as the 16 chars of `dst`.
#[inline(always)]
pub(in crate::arch) fn widen16_sse2(src: &[u8; 16], dst: &mut [MaybeUninit<u16>; 16]) {
    let out = dst.as_mut_ptr().cast::<__m128i>();
    // SAFETY: the target has SSE2 (the module's `cfg`); the load reads the 16 bytes of
    // `src`, the stores write the 32 bytes of `dst`, all unaligned.
    unsafe {
        let v = _mm_loadu_si128(src.as_ptr().cast());
        let zero = _mm_setzero_si128();
        _mm_storeu_si128(out, _mm_unpacklo_epi8(v, zero));
        _mm_storeu_si128(out.add(1), _mm_unpackhi_epi8(v, zero));
    }
}

/// The 8 bytes of `src` as the 8 chars of `dst`.
#[inline(always)]
pub(in crate::arch) fn widen8_sse2(src: &[u8; 8], dst: &mut [MaybeUninit<u16>; 8]) {
    // SAFETY: the target has SSE2 (the module's `cfg`); the load reads the 8 bytes of `src`,
    // the store writes the 16 bytes of `dst`, both unaligned.
    unsafe {
        let v = _mm_loadl_epi64(src.as_ptr().cast());
        let wide = _mm_unpacklo_epi8(v, _mm_setzero_si128());
        _mm_storeu_si128(dst.as_mut_ptr().cast(), wide);
    }
}

/// The 4 bytes of `src` as the 4 chars of `dst`.
#[inline(always)]
pub(in crate::arch) fn widen4_sse2(src: &[u8; 4], dst: &mut [MaybeUninit<u16>; 4]) {
    // SAFETY: the target has SSE2 (the module's `cfg`); the store writes the 8 bytes of
    // `dst`, unaligned.
    unsafe {
        let v = _mm_cvtsi32_si128(i32::from_le_bytes(*src));
        let wide = _mm_unpacklo_epi8(v, _mm_setzero_si128());
        _mm_storel_epi64(dst.as_mut_ptr().cast(), wide);
    }
}
