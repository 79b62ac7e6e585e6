//! The counts of UTF-16 input: its length as UTF-8 (every surrogate counted 3) and its
//! surrogates, the portable loop of `crate::from_utf16::utf8_counts` built for AVX2 (sixteen
//! 16-bit sums a vector) and for AVX-512 BW (thirty-two); and its greatest unit, the loop of
//! `crate::from_utf16::max_unit`, one unsigned maximum a vector. Their contracts are
//! [`Kernels::utf16_counts`](crate::arch::Kernels::utf16_counts)'s and
//! [`Kernels::utf16_max`](crate::arch::Kernels::utf16_max)'s.

/// See [`Kernels::utf16_counts`](crate::arch::Kernels::utf16_counts): the portable loop in
/// AVX2 vectors.
#[target_feature(enable = "avx2")]
pub(crate) fn utf16_counts_avx2(units: &[u16]) -> (usize, usize) {
    crate::from_utf16::utf8_counts(units)
}

/// See [`Kernels::utf16_counts`](crate::arch::Kernels::utf16_counts): the portable loop in
/// AVX-512 vectors.
#[cfg(wirebytes_avx512)]
#[clippy::msrv = "1.89"]
#[target_feature(enable = "avx512f,avx512bw,avx2")]
pub(crate) fn utf16_counts_avx512(units: &[u16]) -> (usize, usize) {
    crate::from_utf16::utf8_counts(units)
}

/// See [`Kernels::utf16_max`](crate::arch::Kernels::utf16_max): the portable loop in AVX2
/// vectors.
#[target_feature(enable = "avx2")]
pub(crate) fn utf16_max_avx2(units: &[u16]) -> u16 {
    crate::from_utf16::max_unit(units)
}

/// See [`Kernels::utf16_max`](crate::arch::Kernels::utf16_max): the portable loop in AVX-512
/// vectors.
#[cfg(wirebytes_avx512)]
#[clippy::msrv = "1.89"]
#[target_feature(enable = "avx512f,avx512bw,avx2")]
pub(crate) fn utf16_max_avx512(units: &[u16]) -> u16 {
    crate::from_utf16::max_unit(units)
}
