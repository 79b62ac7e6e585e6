//! The SIMD kernels the fast paths may call, behind one type on every target: on x86-64 it
//! is [`crate::x86::Simd`]; elsewhere a `Simd` without kernels, and the portable code runs.

#[cfg(target_arch = "x86_64")]
pub(crate) use crate::x86::Simd;

/// No SIMD kernel on this target: every method says so, and the portable code runs.
#[cfg(not(target_arch = "x86_64"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Simd;

#[cfg(not(target_arch = "x86_64"))]
impl Simd {
    /// No SIMD kernel.
    pub(crate) const NONE: Simd = Simd;

    /// No SIMD kernel on this target.
    #[inline(always)]
    pub(crate) fn detect() -> Simd {
        Simd
    }

    /// No AVX2 on this target: `None`, nothing written.
    #[inline(always)]
    pub(crate) fn copy_ascii_blocks(self, _src: &[u8], _dst: &mut [u8]) -> Option<usize> {
        None
    }

    /// Only the portable code on this target.
    #[cfg(test)]
    pub(crate) fn levels() -> std::vec::Vec<Simd> {
        std::vec![Simd]
    }

    /// No kernel to take away on this target.
    #[inline(always)]
    pub(crate) fn without_avx512(self) -> Simd {
        self
    }

    /// No AVX-512 on this target: nothing read or written.
    #[inline(always)]
    pub(crate) fn utf8_blocks(self, _src: &[u8], _dst: &mut [u8]) -> (usize, usize) {
        (0, 0)
    }

    /// No SSSE3 on this target: nothing read or written.
    #[inline(always)]
    pub(crate) fn two_byte_blocks(self, _src: &[u8], _dst: &mut [u8]) -> (usize, usize) {
        (0, 0)
    }

    /// No SSSE3 on this target: nothing read or written.
    #[inline(always)]
    pub(crate) fn four_byte_blocks(self, _src: &[u8], _dst: &mut [u8]) -> (usize, usize) {
        (0, 0)
    }

    /// No SSSE3 on this target: nothing read or written.
    #[inline(always)]
    pub(crate) fn three_byte_blocks(self, _src: &[u8], _dst: &mut [u8]) -> (usize, usize) {
        (0, 0)
    }
}
