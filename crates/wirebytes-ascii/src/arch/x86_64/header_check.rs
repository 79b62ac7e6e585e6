//! The header-value check (AVX2): see `Kernels::find_invalid_header_byte`.

use crate::chunks::SplitChunks;
use core::arch::x86_64::{
    __m256i, _mm256_andnot_si256, _mm256_cmpeq_epi8, _mm256_cmpgt_epi8, _mm256_loadu_si256,
    _mm256_min_epu8, _mm256_movemask_epi8, _mm256_or_si256, _mm256_set1_epi8,
};

/// See [`Kernels::find_invalid_header_byte`](crate::arch::Kernels::find_invalid_header_byte):
/// the index of the first byte of `src` (at least 32 bytes) that is not a header byte.
/// 64-byte blocks, then the rest as 32-byte vectors, the last one ending where `src` ends
/// (overlapping bytes already found valid, so its first flagged byte is the first of all).
#[target_feature(enable = "avx2")]
pub(crate) fn find_invalid_header_byte_avx2(src: &[u8]) -> Option<usize> {
    debug_assert!(src.len() >= 32);
    let (blocks, _) = src.split_chunks::<64>();
    let mut at = 0;
    for block in blocks {
        let (low, high) = block.split_at(32);
        let (Some(low), Some(high)) = (low.first_chunk::<32>(), high.first_chunk::<32>()) else {
            break;
        };
        if !suspect(low, high) {
            at += 64;
            continue;
        }
        let bad = u64::from(invalid(low)) | u64::from(invalid(high)) << 32;
        if bad != 0 {
            return Some(at + bad.trailing_zeros() as usize);
        }
        at += 64;
    }
    while at < src.len() {
        // The next 32 bytes, or the last 32 where fewer are left.
        let start = at.min(src.len() - 32);
        let Some(vector) = src[start..].first_chunk::<32>() else {
            break;
        };
        let bad = invalid(vector);
        if bad != 0 {
            return Some(start + bad.trailing_zeros() as usize);
        }
        at = start + 32;
    }
    None
}

/// Whether the 64 bytes `low` and `high` may hold a byte that is not a header byte: one below
/// 0x20 (HTAB included, which [`invalid`] then tells apart) or DEL. Fewer operations than
/// [`invalid`] on both: the bytewise minimum of the two halves is tested once.
#[inline]
#[target_feature(enable = "avx2")]
fn suspect(low: &[u8; 32], high: &[u8; 32]) -> bool {
    // SAFETY: the loads read the 32 bytes of `low` and of `high`, each a `[u8; 32]`; they have
    // no alignment requirement.
    let (a, b): (__m256i, __m256i) = unsafe {
        (
            _mm256_loadu_si256(low.as_ptr().cast()),
            _mm256_loadu_si256(high.as_ptr().cast()),
        )
    };
    let least = _mm256_min_epu8(a, b);
    // A byte of `least` at most 0x1F: its minimum with 0x1F is itself.
    let control = _mm256_cmpeq_epi8(_mm256_min_epu8(least, _mm256_set1_epi8(0x1F)), least);
    let del = _mm256_or_si256(
        _mm256_cmpeq_epi8(a, _mm256_set1_epi8(0x7F)),
        _mm256_cmpeq_epi8(b, _mm256_set1_epi8(0x7F)),
    );
    _mm256_movemask_epi8(_mm256_or_si256(control, del)) != 0
}

/// One bit per byte of `bytes` (bit `k` for byte `k`) that is not a header byte: a control
/// byte other than HTAB (as signed bytes, `0..0x20`), or DEL. Bytes `0x80..=0xFF` are
/// negative as signed bytes, so the control test passes them.
#[inline]
#[target_feature(enable = "avx2")]
fn invalid(bytes: &[u8; 32]) -> u32 {
    // SAFETY: the load reads the 32 bytes of `bytes`, a `[u8; 32]`; it has no alignment
    // requirement.
    let v: __m256i = unsafe { _mm256_loadu_si256(bytes.as_ptr().cast()) };
    let control = _mm256_cmpgt_epi8(_mm256_set1_epi8(0x20), v);
    let negative = _mm256_cmpgt_epi8(_mm256_set1_epi8(0), v);
    let tab = _mm256_cmpeq_epi8(v, _mm256_set1_epi8(b'\t' as i8));
    let del = _mm256_cmpeq_epi8(v, _mm256_set1_epi8(0x7F));
    // Controls are the bytes below 0x20 that are not negative and not HTAB.
    let bad = _mm256_or_si256(
        _mm256_andnot_si256(_mm256_or_si256(negative, tab), control),
        del,
    );
    _mm256_movemask_epi8(bad) as u32
}

/// The same check with one 64-byte register per block (AVX-512 BW): a compare into a mask
/// register for the bytes below 0x20 and one for DEL; HTAB is told apart only in a block
/// that has a byte below 0x20.
#[cfg(wirebytes_avx512)]
#[clippy::msrv = "1.89"]
pub(crate) mod avx512 {
    use crate::chunks::SplitChunks;
    use core::arch::x86_64::{
        __m512i, _mm512_cmpeq_epi8_mask, _mm512_cmplt_epu8_mask, _mm512_loadu_si512,
        _mm512_min_epu8, _mm512_set1_epi8,
    };

    /// See [`Kernels::find_invalid_header_byte`](crate::arch::Kernels::find_invalid_header_byte):
    /// the index of the first byte of `src` (at least 64 bytes) that is not a header byte.
    /// 128 bytes per step while none may be invalid (the bytewise minimum of the two halves
    /// tested once), then 64-byte blocks, then the last 64 bytes (overlapping bytes already
    /// found valid, so its first flagged byte is the first of all).
    #[target_feature(enable = "avx512f,avx512bw")]
    pub(crate) fn find_invalid_header_byte_avx512(src: &[u8]) -> Option<usize> {
        debug_assert!(src.len() >= 64);
        let mut at = 0;
        // Two blocks per step, tested together first.
        for pair in src.split_chunks::<128>().0 {
            // SAFETY: the loads read bytes 0..64 and 64..128 of `pair`, a `[u8; 128]`; no
            // alignment requirement.
            let (a, b) = unsafe {
                (
                    _mm512_loadu_si512(pair.as_ptr().cast()),
                    _mm512_loadu_si512(pair.as_ptr().add(64).cast()),
                )
            };
            let del = _mm512_set1_epi8(0x7F);
            let suspect = _mm512_cmplt_epu8_mask(_mm512_min_epu8(a, b), _mm512_set1_epi8(0x20))
                | _mm512_cmpeq_epi8_mask(a, del)
                | _mm512_cmpeq_epi8_mask(b, del);
            if suspect != 0 {
                break;
            }
            at += 128;
        }
        for block in src[at..].split_chunks::<64>().0 {
            let bad = invalid(block);
            if bad != 0 {
                return Some(at + bad.trailing_zeros() as usize);
            }
            at += 64;
        }
        let last = src.last_chunk::<64>()?;
        let bad = invalid(last);
        (bad != 0).then(|| src.len() - 64 + bad.trailing_zeros() as usize)
    }

    /// One bit per byte of `block` (bit `k` for byte `k`) that is not a header byte.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn invalid(block: &[u8; 64]) -> u64 {
        // SAFETY: the load reads the 64 bytes of `block`; no alignment requirement.
        not_header(unsafe { _mm512_loadu_si512(block.as_ptr().cast()) })
    }

    /// One bit per byte of `v` (bit `k` for byte `k`) that is not a header byte: below 0x20
    /// but not HTAB, or DEL.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    pub(crate) fn not_header(v: __m512i) -> u64 {
        let below = _mm512_cmplt_epu8_mask(v, _mm512_set1_epi8(0x20));
        let del = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(0x7F));
        if below == 0 {
            return del;
        }
        (below & !_mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(b'\t' as i8))) | del
    }
}
