//! The kernels of UTF-16 units to Latin-1 bytes: each unit up to U+00FF is its own byte.
//! AVX2 takes 32 units per step (two saturating packs, the lanes put back in order),
//! AVX-512 64 (one two-source byte permute), then the rest of the run 32 units at a time
//! under a mask, to the exact unit where it ends. Their contract is
//! [`Kernels::utf16_latin1`](crate::arch::Kernels::utf16_latin1)'s.

use std::mem::MaybeUninit;

use std::arch::x86_64::{
    _mm256_loadu_si256, _mm256_or_si256, _mm256_set1_epi16, _mm256_storeu_si256, _mm256_testz_si256,
};

/// See [`Kernels::utf16_latin1`](crate::arch::Kernels::utf16_latin1): 32 units per step,
/// while they are all below U+0100 and `dst` has room for their bytes.
#[target_feature(enable = "avx2")]
pub(crate) fn utf16_latin1_avx2(src: &[u16], dst: &mut [MaybeUninit<u8>]) -> usize {
    let high = _mm256_set1_epi16(0xFF00_u16 as i16);
    let mut read = 0;
    while let (Some(block), Some(out)) = (src.get(read..read + 32), dst.get_mut(read..read + 32)) {
        // SAFETY: the loads read the 64 bytes of `block` (32 units), 32 from its start and
        // 32 from its 16th unit; no alignment requirement.
        let (a, b) = unsafe {
            (
                _mm256_loadu_si256(block.as_ptr().cast()),
                _mm256_loadu_si256(block.as_ptr().add(16).cast()),
            )
        };
        if _mm256_testz_si256(_mm256_or_si256(a, b), high) == 0 {
            break;
        }
        let bytes = super::narrow32(a, b);
        // SAFETY: the store writes the 32 bytes of `out`, borrowed mutably; no alignment
        // requirement.
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), bytes) };
        read += 32;
    }
    read
}

#[cfg(wirebytes_avx512)]
#[clippy::msrv = "1.89"]
mod avx512 {
    use std::mem::MaybeUninit;

    use std::arch::x86_64::{
        _mm512_loadu_si512, _mm512_mask_cvtepi16_storeu_epi8, _mm512_maskz_loadu_epi16,
        _mm512_or_si512, _mm512_permutex2var_epi8, _mm512_set_epi64, _mm512_set1_epi16,
        _mm512_storeu_si512, _mm512_test_epi16_mask,
    };

    /// See [`Kernels::utf16_latin1`](crate::arch::Kernels::utf16_latin1): 64 units per
    /// step while they are all below U+0100 and `dst` has room for them, then 32 at a time
    /// under a mask, up to the first unit above U+00FF, the end of `src` or the end of `dst`.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    pub(crate) fn utf16_latin1_avx512(src: &[u16], dst: &mut [MaybeUninit<u8>]) -> usize {
        let high = _mm512_set1_epi16(0xFF00_u16 as i16);
        // The even bytes of the two sources, in order: byte k of the first for k < 64
        // (index 2k), of the second above (index 64 + 2k, bit 6 picks the source).
        let even = _mm512_set_epi64(
            0x7E7C_7A78_7674_7270,
            0x6E6C_6A68_6664_6260,
            0x5E5C_5A58_5654_5250,
            0x4E4C_4A48_4644_4240,
            0x3E3C_3A38_3634_3230,
            0x2E2C_2A28_2624_2220,
            0x1E1C_1A18_1614_1210,
            0x0E0C_0A08_0604_0200,
        );
        let mut read = 0;
        while let (Some(block), Some(out)) =
            (src.get(read..read + 64), dst.get_mut(read..read + 64))
        {
            // SAFETY: the loads read the 128 bytes of `block` (64 units), 64 from its start
            // and 64 from its 32nd unit; no alignment requirement.
            let (a, b) = unsafe {
                (
                    _mm512_loadu_si512(block.as_ptr().cast()),
                    _mm512_loadu_si512(block.as_ptr().add(32).cast()),
                )
            };
            if _mm512_test_epi16_mask(_mm512_or_si512(a, b), high) != 0 {
                break;
            }
            let bytes = _mm512_permutex2var_epi8(a, even, b);
            // SAFETY: the store writes the 64 bytes of `out`, borrowed mutably; no alignment
            // requirement.
            unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast(), bytes) };
            read += 64;
        }
        // The rest: 32 units at a time under a mask, the last step cut at the first unit
        // above U+00FF.
        let end = src.len().min(dst.len());
        while read < end {
            let n = (end - read).min(32);
            let mask = first_bits(n);
            // SAFETY: the masked load reads units `read..read + n` of `src` (below `end`, so
            // in it) and no other memory: masked-off lanes are not accessed.
            let units = unsafe { _mm512_maskz_loadu_epi16(mask, src.as_ptr().add(read).cast()) };
            let above = _mm512_test_epi16_mask(units, high);
            let take = if above == 0 {
                n
            } else {
                above.trailing_zeros() as usize
            };
            // SAFETY: the masked store writes bytes `read..read + take` of `dst` (`take <= n`,
            // so below `end`, in it) and no other memory.
            unsafe {
                _mm512_mask_cvtepi16_storeu_epi8(
                    dst.as_mut_ptr().add(read).cast(),
                    first_bits(take),
                    units,
                );
            }
            read += take;
            if take < n {
                break;
            }
        }
        read
    }

    /// The mask of the first `n` lanes (`n <= 32`).
    #[inline(always)]
    fn first_bits(n: usize) -> u32 {
        ((1_u64 << n) - 1) as u32
    }
}

#[cfg(wirebytes_avx512)]
pub(crate) use avx512::utf16_latin1_avx512;
