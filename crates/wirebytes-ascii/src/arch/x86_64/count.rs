//! The UTF-16 length (AVX2, AVX-512 BW): see `Kernels::count_units`.

/// See [`Kernels::count_units`](crate::arch::Kernels::count_units): the portable counting loop,
/// which the compiler widens to 32-byte registers here.
#[target_feature(enable = "avx2")]
pub(crate) fn count_units_avx2(bytes: &[u8]) -> usize {
    crate::len::count_units(bytes)
}

/// The count with one 64-byte register per block (AVX-512 BW).
#[cfg(wirebytes_avx512)]
#[clippy::msrv = "1.89"]
pub(crate) mod avx512 {
    use crate::chunks::SplitChunks;
    use core::arch::x86_64::{
        _mm512_cmpge_epi8_mask, _mm512_cmpge_epu8_mask, _mm512_loadu_si512, _mm512_set1_epi8,
    };

    /// See [`Kernels::count_units`](crate::arch::Kernels::count_units): per 64-byte block,
    /// the bytes that are not continuation bytes (at least -0x40 as signed bytes: each starts a
    /// char, one unit) and the lead bytes of 4-byte chars (0xF0 and up: one unit more), each
    /// a mask and its `popcnt`; the tail by the portable loop.
    #[target_feature(enable = "avx512f,avx512bw,popcnt")]
    pub(crate) fn count_units_avx512(bytes: &[u8]) -> usize {
        let (blocks, tail) = bytes.split_chunks::<64>();
        let mut total = 0;
        for block in blocks {
            // SAFETY: the load reads the 64 bytes of `block`; no alignment requirement.
            let v = unsafe { _mm512_loadu_si512(block.as_ptr().cast()) };
            let starts = _mm512_cmpge_epi8_mask(v, _mm512_set1_epi8(-0x40));
            let four_byte = _mm512_cmpge_epu8_mask(v, _mm512_set1_epi8(0xF0u8 as i8));
            total += (starts.count_ones() + four_byte.count_ones()) as usize;
        }
        total + crate::len::count_units(tail)
    }
}
