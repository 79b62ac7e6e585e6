//! The byte-map kernels: blocks of 64 ASCII bytes through a 128-byte table (EBCDIC and the
//! other single-byte charsets where ASCII is not its own byte), as long as the blocks are
//! ASCII. Their contract is [`Kernels::byte_map`](crate::arch::Kernels::byte_map)'s.
//!
//! - SSSE3: per 16 bytes, the table's eight 16-byte rows each looked up by the low nibbles
//!   (`pshufb`), and each result kept where the high nibble names its row.
//! - AVX-512 VBMI: the table in two registers and one `vpermi2b` per 64 bytes: each byte's
//!   low seven bits index the 128 table bytes.

use std::arch::x86_64::{
    __m128i, _mm_and_si128, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128,
    _mm_set1_epi8, _mm_setzero_si128, _mm_shuffle_epi8, _mm_srli_epi16, _mm_storeu_si128,
};

/// 16 bytes of `bytes` from `at` (`at + 16 <= N`, checked).
#[inline]
#[target_feature(enable = "ssse3")]
fn load16<const N: usize>(bytes: &[u8; N], at: usize) -> Option<__m128i> {
    let chunk = bytes.get(at..)?.first_chunk::<16>()?;
    // SAFETY: the load reads the 16 bytes of `chunk`; it has no alignment requirement.
    Some(unsafe { _mm_loadu_si128(chunk.as_ptr().cast()) })
}

/// See [`Kernels::byte_map`](crate::arch::Kernels::byte_map): the SSSE3 kernel.
#[target_feature(enable = "ssse3")]
pub(crate) fn byte_map_ssse3(src: &[u8], table: &[u8; 128], dst: &mut [u8]) -> usize {
    let mut rows = [_mm_setzero_si128(); 8];
    for (k, row) in rows.iter_mut().enumerate() {
        if let Some(bytes) = load16(table, 16 * k) {
            *row = bytes;
        }
    }
    let low_nibble = _mm_set1_epi8(0x0F);
    let mut done = 0;
    for (src, dst) in src.chunks_exact(64).zip(dst.chunks_exact_mut(64)) {
        let (Some(src), Some(dst)) = (src.first_chunk::<64>(), dst.first_chunk_mut::<64>()) else {
            break;
        };
        let mut x = [_mm_setzero_si128(); 4];
        let mut high_bits = 0;
        for (k, x) in x.iter_mut().enumerate() {
            if let Some(bytes) = load16(src, 16 * k) {
                *x = bytes;
                high_bits |= _mm_movemask_epi8(bytes);
            }
        }
        if high_bits != 0 {
            break;
        }
        for (k, &x) in x.iter().enumerate() {
            let low = _mm_and_si128(x, low_nibble);
            let high = _mm_and_si128(_mm_srli_epi16::<4>(x), low_nibble);
            let mut out = _mm_setzero_si128();
            for (row_index, &row) in rows.iter().enumerate() {
                let here = _mm_cmpeq_epi8(high, _mm_set1_epi8(row_index as i8));
                out = _mm_or_si128(out, _mm_and_si128(here, _mm_shuffle_epi8(row, low)));
            }
            if let Some(chunk) = dst
                .get_mut(16 * k..)
                .and_then(<[u8]>::first_chunk_mut::<16>)
            {
                // SAFETY: the store writes the 16 bytes of `chunk`; no alignment requirement.
                unsafe { _mm_storeu_si128(chunk.as_mut_ptr().cast(), out) };
            }
        }
        done += 64;
    }
    done
}

#[cfg(wirebytes_avx512)]
#[clippy::msrv = "1.89"]
mod avx512 {
    use std::arch::x86_64::{
        _mm512_loadu_si512, _mm512_movepi8_mask, _mm512_permutex2var_epi8, _mm512_storeu_si512,
    };

    /// See [`Kernels::byte_map`](crate::arch::Kernels::byte_map): the AVX-512 VBMI kernel.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    pub(crate) fn byte_map_avx512(src: &[u8], table: &[u8; 128], dst: &mut [u8]) -> usize {
        let (low, high) = table.split_at(64);
        // SAFETY: each load reads 64 bytes, the two halves of the 128-byte table; no
        // alignment requirement.
        let (low, high) = unsafe {
            (
                _mm512_loadu_si512(low.as_ptr().cast()),
                _mm512_loadu_si512(high.as_ptr().cast()),
            )
        };
        let mut done = 0;
        for (src, dst) in src.chunks_exact(64).zip(dst.chunks_exact_mut(64)) {
            // SAFETY: the load reads the 64 bytes of `src`; no alignment requirement.
            let index = unsafe { _mm512_loadu_si512(src.as_ptr().cast()) };
            if _mm512_movepi8_mask(index) != 0 {
                break;
            }
            // Bits 5..0 of each index pick a byte, bit 6 the register.
            let bytes = _mm512_permutex2var_epi8(low, index, high);
            // SAFETY: the store writes the 64 bytes of `dst`; no alignment requirement.
            unsafe { _mm512_storeu_si512(dst.as_mut_ptr().cast(), bytes) };
            done += 64;
        }
        done
    }
}

#[cfg(wirebytes_avx512)]
pub(crate) use avx512::byte_map_avx512;
