//! Not part of the API and not covered by semver: the door through which the tests, the
//! sweeps, the benches and the fuzz targets run the public functions at each kernel level
//! this CPU has, so that every level is checked against the reference and measured, not only
//! the one the public functions choose.
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

impl Level {
    /// The level's name.
    #[must_use]
    pub fn name(self) -> &'static str {
        self.name
    }

    /// [`utf16_len`](crate::utf16_len) at this level.
    #[must_use]
    pub fn utf16_len(self, src: &str) -> usize {
        crate::utf16::utf16_len_with(src, || self.kernels)
    }

    /// [`copy_low_bytes`](crate::copy_low_bytes) at this level.
    pub fn copy_low_bytes(self, src: &str, dst: &mut [u8]) -> usize {
        crate::copy::copy_low_bytes_with(src, dst, || self.kernels)
    }

    /// [`low_bytes`](crate::low_bytes) at this level.
    #[cfg(feature = "alloc")]
    #[must_use]
    pub fn low_bytes(self, src: &str) -> alloc::vec::Vec<u8> {
        crate::copy::low_bytes(src, self.kernels)
    }

    /// [`extend_low_bytes`](crate::extend_low_bytes) at this level.
    #[cfg(feature = "alloc")]
    pub fn extend_low_bytes(self, src: &str, dst: &mut alloc::vec::Vec<u8>) {
        crate::copy::extend_low_bytes(src, dst, || self.kernels);
    }

    /// [`put_low_bytes`](crate::put_low_bytes) at this level.
    #[cfg(feature = "bytes")]
    pub fn put_low_bytes<B: bytes::BufMut + ?Sized>(self, src: &str, dst: &mut B) {
        crate::copy::put_low_bytes(src, dst, || self.kernels);
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
    pub fn render_header_value(
        self,
        src: &str,
        dst: &mut alloc::vec::Vec<u8>,
    ) -> Result<(), crate::InvalidHeaderByte> {
        crate::copy::render_header_value(src, dst, || self.kernels)
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
