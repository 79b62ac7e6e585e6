//! The kernels of ASCII runs to UTF-16 and UTF-32: each byte zero-extended to a unit of
//! `UNIT` bytes (2 or 4), written in the byte order asked for (big-endian: the byte moved to
//! the top byte of the little-endian lane). AVX2 takes 32 bytes per step, AVX-512 64. Their
//! contract is [`Kernels::ascii_widen`](crate::arch::Kernels::ascii_widen)'s.

use std::mem::MaybeUninit;

use std::arch::x86_64::{
    __m128i, __m256i, _mm_loadl_epi64, _mm256_castsi256_si128, _mm256_cvtepu8_epi16,
    _mm256_cvtepu8_epi32, _mm256_extracti128_si256, _mm256_loadu_si256, _mm256_movemask_epi8,
    _mm256_slli_epi16, _mm256_slli_epi32, _mm256_storeu_si256,
};

/// See [`Kernels::ascii_widen`](crate::arch::Kernels::ascii_widen): 32 bytes
/// per step, while they are all ASCII and `dst` has room for their units (`UNIT` bytes
/// each: 2 or 4).
#[target_feature(enable = "avx2")]
pub(crate) fn ascii_widen_avx2<const UNIT: usize, const BIG_ENDIAN: bool>(
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
) -> usize {
    let mut read = 0;
    // Each step's 32 bytes and the room for their units (bounds checked once, by the chunks).
    for (block, out) in src.chunks_exact(32).zip(dst.chunks_exact_mut(32 * UNIT)) {
        // SAFETY: the load reads the 32 bytes of `block` (a chunk of 32); no alignment
        // requirement.
        let bytes = unsafe { _mm256_loadu_si256(block.as_ptr().cast()) };
        if _mm256_movemask_epi8(bytes) != 0 {
            break;
        }
        if UNIT == 2 {
            let mut low = _mm256_cvtepu8_epi16(_mm256_castsi256_si128(bytes));
            let mut high = _mm256_cvtepu8_epi16(_mm256_extracti128_si256::<1>(bytes));
            if BIG_ENDIAN {
                low = _mm256_slli_epi16::<8>(low);
                high = _mm256_slli_epi16::<8>(high);
            }
            store(out, 0, low);
            store(out, 1, high);
        } else {
            for k in 0..4 {
                // SAFETY: the load reads 8 bytes of `block`, from `8 * k` (below 32); no
                // alignment requirement.
                let eight = unsafe { _mm_loadl_epi64(block.as_ptr().add(8 * k).cast::<__m128i>()) };
                let mut units = _mm256_cvtepu8_epi32(eight);
                if BIG_ENDIAN {
                    units = _mm256_slli_epi32::<24>(units);
                }
                store(out, k, units);
            }
        }
        read += 32;
    }
    read
}

/// Stores `v` as the `k`-th 32 bytes of `out`; nothing when they are not all in it.
#[target_feature(enable = "avx2")]
#[inline]
fn store(out: &mut [MaybeUninit<u8>], k: usize, v: __m256i) {
    if let Some(to) = out
        .get_mut(32 * k..)
        .and_then(<[MaybeUninit<u8>]>::first_chunk_mut::<32>)
    {
        // SAFETY: the store writes the 32 bytes of `to`, borrowed mutably; no alignment
        // requirement.
        unsafe { _mm256_storeu_si256(to.as_mut_ptr().cast(), v) };
    }
}

#[cfg(wirebytes_avx512)]
#[clippy::msrv = "1.89"]
mod avx512 {
    use std::mem::MaybeUninit;

    use std::arch::x86_64::{
        __m512i, _mm512_castsi512_si128, _mm512_castsi512_si256, _mm512_cvtepu8_epi16,
        _mm512_cvtepu8_epi32, _mm512_extracti32x4_epi32, _mm512_extracti64x4_epi64,
        _mm512_loadu_si512, _mm512_movepi8_mask, _mm512_slli_epi16, _mm512_slli_epi32,
        _mm512_storeu_si512,
    };

    /// See [`Kernels::ascii_widen`](crate::arch::Kernels::ascii_widen): 64
    /// bytes per step, while they are all ASCII and `dst` has room for their units (`UNIT`
    /// bytes each: 2 or 4); the rest of the run in the AVX2 kernel's steps.
    #[target_feature(enable = "avx512f,avx512bw,avx2")]
    pub(crate) fn ascii_widen_avx512<const UNIT: usize, const BIG_ENDIAN: bool>(
        src: &[u8],
        dst: &mut [MaybeUninit<u8>],
    ) -> usize {
        let mut read = 0;
        // Each step's 64 bytes and the room for their units (bounds checked once, by the
        // chunks).
        for (block, out) in src.chunks_exact(64).zip(dst.chunks_exact_mut(64 * UNIT)) {
            // SAFETY: the load reads the 64 bytes of `block` (a chunk of 64); no alignment
            // requirement.
            let bytes = unsafe { _mm512_loadu_si512(block.as_ptr().cast()) };
            if _mm512_movepi8_mask(bytes) != 0 {
                break;
            }
            if UNIT == 2 {
                let mut low = _mm512_cvtepu8_epi16(_mm512_castsi512_si256(bytes));
                let mut high = _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64::<1>(bytes));
                if BIG_ENDIAN {
                    low = _mm512_slli_epi16::<8>(low);
                    high = _mm512_slli_epi16::<8>(high);
                }
                store(out, 0, low);
                store(out, 1, high);
            } else {
                let quarters = [
                    _mm512_castsi512_si128(bytes),
                    _mm512_extracti32x4_epi32::<1>(bytes),
                    _mm512_extracti32x4_epi32::<2>(bytes),
                    _mm512_extracti32x4_epi32::<3>(bytes),
                ];
                for (k, quarter) in quarters.into_iter().enumerate() {
                    let mut units = _mm512_cvtepu8_epi32(quarter);
                    if BIG_ENDIAN {
                        units = _mm512_slli_epi32::<24>(units);
                    }
                    store(out, k, units);
                }
            }
            read += 64;
        }
        let rest = super::ascii_widen_avx2::<UNIT, BIG_ENDIAN>(
            src.get(read..).unwrap_or_default(),
            dst.get_mut(UNIT * read..).unwrap_or_default(),
        );
        read + rest
    }

    /// Stores `v` as the `k`-th 64 bytes of `out`; nothing when they are not all in it.
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn store(out: &mut [MaybeUninit<u8>], k: usize, v: __m512i) {
        if let Some(to) = out
            .get_mut(64 * k..)
            .and_then(<[MaybeUninit<u8>]>::first_chunk_mut::<64>)
        {
            // SAFETY: the store writes the 64 bytes of `to`, borrowed mutably; no alignment
            // requirement.
            unsafe { _mm512_storeu_si512(to.as_mut_ptr().cast(), v) };
        }
    }
}

#[cfg(wirebytes_avx512)]
pub(crate) use avx512::ascii_widen_avx512;
