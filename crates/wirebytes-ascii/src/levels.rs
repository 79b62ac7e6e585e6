//! Not part of the API and not covered by semver: the door through which the tests, the
//! sweeps, the benches and the fuzz targets run the public functions at each kernel level
//! this CPU has, so that every level is checked against the reference and measured, not only
//! the one the public functions choose. Only the functions with a kernel path are here: the
//! `&[u16]` forms, `find_line_break` and `is_header_byte` are the same at every level.
//!
//! # Examples
//!
//! ```
//! use wirebytes_ascii::levels;
//!
//! for level in levels::all() {
//!     let mut dst = [0u8; 4];
//!     assert_eq!(level.copy_low_bytes("\u{4E2D}ab", &mut dst), 3, "{}", level.name());
//!     assert_eq!(dst[..3], [0x2D, b'a', b'b']);
//! }
//! assert_eq!(levels::all().next().map(|level| level.name()), Some("portable"));
//! ```

use crate::arch::Kernels;

/// A set of kernels this CPU can run, by name: `"portable"` (none, on every target), then
/// on x86-64 `"ssse3"`, `"avx2"` (SSSE3 and AVX2) and `"avx512"` (all), as the CPU has them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Level {
    name: &'static str,
    kernels: Kernels,
}

/// The levels this CPU has, `"portable"` first; the last is the one the public functions use.
pub fn all() -> impl Iterator<Item = Level> {
    Kernels::levels().map(|(name, kernels)| Level { name, kernels })
}

/// The level named `name`, if this CPU has it.
#[must_use]
pub fn get(name: &str) -> Option<Level> {
    all().find(|level| level.name == name)
}

/// Not API, test-only (feature `__counters`): the bytes each SIMD kernel and each watched
/// portable fast path handled since the last [`reset_counts`], by a stable name such as
/// `"ascii_blocks_avx2"` or `"copy_words"`. The counters are the calling thread's own: a
/// test reads what its own thread ran.
#[cfg(feature = "__counters")]
pub fn counts() -> impl Iterator<Item = (&'static str, usize)> {
    crate::counting::counts()
}

/// Not API, test-only (feature `__counters`): sets this thread's counters of [`counts`] to
/// 0.
#[cfg(feature = "__counters")]
pub fn reset_counts() {
    crate::counting::reset();
}

impl Level {
    /// The level's name.
    #[must_use]
    pub fn name(self) -> &'static str {
        self.name
    }

    /// [`low_bytes_len`](crate::low_bytes_len) at this level.
    #[must_use]
    pub fn low_bytes_len(self, src: &str) -> usize {
        crate::len::low_bytes_len_with(src, || self.kernels)
    }

    /// [`copy_low_bytes`](crate::copy_low_bytes) at this level.
    #[must_use = "the count is how many bytes of `dst` were written"]
    pub fn copy_low_bytes(self, src: &str, dst: &mut [u8]) -> usize {
        crate::copy::copy_low_bytes_with(src, dst, || self.kernels)
    }

    /// [`low_bytes`](crate::low_bytes) at this level.
    #[cfg(feature = "alloc")]
    #[must_use]
    pub fn low_bytes(self, src: &str) -> alloc::vec::Vec<u8> {
        crate::copy::low_bytes(src, self.kernels)
    }

    /// [`low_bytes_to_vec`](crate::low_bytes_to_vec) at this level.
    #[cfg(feature = "alloc")]
    pub fn low_bytes_to_vec(self, src: &str, dst: &mut alloc::vec::Vec<u8>) {
        crate::copy::low_bytes_to_vec(src, dst, || self.kernels);
    }

    /// [`low_bytes_to_buf`](crate::low_bytes_to_buf) at this level.
    ///
    /// # Panics
    ///
    /// As [`low_bytes_to_buf`](crate::low_bytes_to_buf).
    #[cfg(feature = "bytes")]
    pub fn low_bytes_to_buf<B: bytes::BufMut + ?Sized>(self, src: &str, dst: &mut B) {
        crate::copy::low_bytes_to_buf(src, dst, || self.kernels);
    }

    /// [`find_invalid_header_byte`](crate::find_invalid_header_byte) at this level.
    #[must_use]
    pub fn find_invalid_header_byte(self, rendered: &[u8]) -> Option<usize> {
        crate::header::find_invalid_header_byte(rendered, self.kernels)
    }

    /// [`render_header_value`](crate::render_header_value) at this level.
    ///
    /// # Errors
    ///
    /// As [`render_header_value`](crate::render_header_value).
    #[cfg(feature = "alloc")]
    #[must_use = "on an error nothing was appended"]
    pub fn render_header_value(
        self,
        src: &str,
        dst: &mut alloc::vec::Vec<u8>,
    ) -> Result<(), crate::InvalidHeaderByte> {
        crate::header::render_header_value(src, dst, || self.kernels)
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use std::vec::Vec;

    /// The levels start with the portable one, each named once; the line printed names the
    /// levels every test that goes through this door runs here (`cargo xtask miri` reports it).
    #[test]
    fn the_levels_start_portable_and_are_named_once() {
        let names: Vec<&str> = super::all().map(super::Level::name).collect();
        wirebytes_testkit::check_level_names(&names);
    }
}
