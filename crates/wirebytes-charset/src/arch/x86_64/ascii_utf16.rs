//! The kernels of ASCII runs to UTF-16: each byte zero-extended to a unit, written in the
//! byte order asked for (big-endian: the byte moved to the high half of the little-endian
//! lane). AVX2 takes 32 bytes per step, AVX-512 64. Their contract is
//! [`Kernels::ascii_utf16_bytes`](crate::arch::Kernels::ascii_utf16_bytes)'s.

use std::arch::x86_64::{
    _mm256_castsi256_si128, _mm256_cvtepu8_epi16, _mm256_extracti128_si256, _mm256_loadu_si256,
    _mm256_movemask_epi8, _mm256_slli_epi16, _mm256_storeu_si256,
};

/// See [`Kernels::ascii_utf16_bytes`](crate::arch::Kernels::ascii_utf16_bytes): 32 bytes
/// per step, while they are all ASCII and `dst` has room for their 64.
#[target_feature(enable = "avx2")]
pub(crate) fn ascii_utf16_avx2<const BIG_ENDIAN: bool>(src: &[u8], dst: &mut [u8]) -> usize {
    let mut read = 0;
    while let (Some(block), Some(out)) = (
        src.get(read..).and_then(<[u8]>::first_chunk::<32>),
        dst.get_mut(2 * read..)
            .and_then(<[u8]>::first_chunk_mut::<64>),
    ) {
        // SAFETY: the load reads the 32 bytes of `block`; no alignment requirement.
        let bytes = unsafe { _mm256_loadu_si256(block.as_ptr().cast()) };
        if _mm256_movemask_epi8(bytes) != 0 {
            break;
        }
        let mut low = _mm256_cvtepu8_epi16(_mm256_castsi256_si128(bytes));
        let mut high = _mm256_cvtepu8_epi16(_mm256_extracti128_si256::<1>(bytes));
        if BIG_ENDIAN {
            low = _mm256_slli_epi16::<8>(low);
            high = _mm256_slli_epi16::<8>(high);
        }
        let (first, second) = out.split_at_mut(32);
        // SAFETY: each store writes 32 bytes, the two halves of `out`, borrowed mutably; no
        // alignment requirement.
        unsafe {
            _mm256_storeu_si256(first.as_mut_ptr().cast(), low);
            _mm256_storeu_si256(second.as_mut_ptr().cast(), high);
        }
        read += 32;
    }
    read
}

#[cfg(wirebytes_avx512)]
#[clippy::msrv = "1.89"]
mod avx512 {
    use std::arch::x86_64::{
        _mm512_castsi512_si256, _mm512_cvtepu8_epi16, _mm512_extracti64x4_epi64,
        _mm512_loadu_si512, _mm512_movepi8_mask, _mm512_slli_epi16, _mm512_storeu_si512,
    };

    /// See [`Kernels::ascii_utf16_bytes`](crate::arch::Kernels::ascii_utf16_bytes): 64
    /// bytes per step, while they are all ASCII and `dst` has room for their 128; the rest
    /// of the run in the AVX2 kernel's steps.
    #[target_feature(enable = "avx512f,avx512bw,avx2")]
    pub(crate) fn ascii_utf16_avx512<const BIG_ENDIAN: bool>(src: &[u8], dst: &mut [u8]) -> usize {
        let mut read = 0;
        while let (Some(block), Some(out)) = (
            src.get(read..).and_then(<[u8]>::first_chunk::<64>),
            dst.get_mut(2 * read..)
                .and_then(<[u8]>::first_chunk_mut::<128>),
        ) {
            // SAFETY: the load reads the 64 bytes of `block`; no alignment requirement.
            let bytes = unsafe { _mm512_loadu_si512(block.as_ptr().cast()) };
            if _mm512_movepi8_mask(bytes) != 0 {
                break;
            }
            let mut low = _mm512_cvtepu8_epi16(_mm512_castsi512_si256(bytes));
            let mut high = _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64::<1>(bytes));
            if BIG_ENDIAN {
                low = _mm512_slli_epi16::<8>(low);
                high = _mm512_slli_epi16::<8>(high);
            }
            let (first, second) = out.split_at_mut(64);
            // SAFETY: each store writes 64 bytes, the two halves of `out`, borrowed mutably;
            // no alignment requirement.
            unsafe {
                _mm512_storeu_si512(first.as_mut_ptr().cast(), low);
                _mm512_storeu_si512(second.as_mut_ptr().cast(), high);
            }
            read += 64;
        }
        let rest = super::ascii_utf16_avx2::<BIG_ENDIAN>(
            src.get(read..).unwrap_or_default(),
            dst.get_mut(2 * read..).unwrap_or_default(),
        );
        read + rest
    }
}

#[cfg(wirebytes_avx512)]
pub(crate) use avx512::ascii_utf16_avx512;
