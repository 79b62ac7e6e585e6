//! Not part of the API and not covered by semver: the door through which tests, the sweeps,
//! the benches and the fuzz targets run the public functions at each kernel level this CPU
//! has.
//!
//! ```
//! use wirebytes_mutf8::levels;
//!
//! for level in levels::all() {
//!     assert_eq!(level.decode_utf16(b"a\xc0\x80"), Ok(vec![0x61, 0]), "{}", level.name());
//! }
//! assert_eq!(levels::all().next().map(levels::Level::name), Some("portable"));
//! ```

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

use crate::DecodeError;
use crate::arch::Kernels;

/// A set of kernels this CPU can run, by name (`"portable"`, `"ssse3"`, `"avx2"`,
/// `"avx512"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Level {
    name: &'static str,
    kernels: Kernels,
}

/// The levels this CPU has, `"portable"` first, the one the public functions use last.
pub fn all() -> impl Iterator<Item = Level> {
    Kernels::levels().map(|(name, kernels)| Level { name, kernels })
}

/// A level by name, if this CPU has it.
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

    /// [`crate::decode`] at this level.
    ///
    /// # Errors
    ///
    /// As [`crate::decode`].
    pub fn decode(self, bytes: &[u8]) -> Result<Cow<'_, str>, DecodeError> {
        crate::decode::decode_with(bytes, self.kernels)
    }

    /// [`crate::validate`] at this level.
    ///
    /// # Errors
    ///
    /// As [`crate::validate`].
    pub fn validate(self, bytes: &[u8]) -> Result<(), DecodeError> {
        crate::decode::validate_with(bytes, self.kernels)
    }

    /// [`crate::decode_into`] at this level.
    ///
    /// # Errors
    ///
    /// As [`crate::decode_into`].
    pub fn decode_into(self, bytes: &[u8], dst: &mut String) -> Result<(), DecodeError> {
        crate::decode::decode_into_with(bytes, dst, self.kernels)
    }

    /// [`crate::decode_class_file`] at this level.
    ///
    /// # Errors
    ///
    /// As [`crate::decode_class_file`].
    pub fn decode_class_file(self, bytes: &[u8]) -> Result<Cow<'_, str>, DecodeError> {
        crate::class_file::decode_class_file_with(bytes, self.kernels)
    }

    /// [`crate::cesu8::decode`] at this level.
    ///
    /// # Errors
    ///
    /// As [`crate::cesu8::decode`].
    pub fn cesu8_decode(self, bytes: &[u8]) -> Result<Cow<'_, str>, DecodeError> {
        crate::cesu8::decode_with(bytes, self.kernels)
    }

    /// [`crate::decode_lossy`] at this level.
    #[must_use]
    pub fn decode_lossy(self, bytes: &[u8]) -> Cow<'_, str> {
        crate::decode::decode_lossy_with(bytes, self.kernels)
    }

    /// [`crate::decode_utf16`] at this level.
    ///
    /// # Errors
    ///
    /// As [`crate::decode_utf16`].
    pub fn decode_utf16(self, bytes: &[u8]) -> Result<Vec<u16>, DecodeError> {
        crate::utf16::decode_utf16_with(bytes, self.kernels)
    }

    /// [`crate::decode_utf16_into`] at this level.
    ///
    /// # Errors
    ///
    /// As [`crate::decode_utf16_into`].
    pub fn decode_utf16_into(self, bytes: &[u8], dst: &mut Vec<u16>) -> Result<(), DecodeError> {
        crate::utf16::decode_utf16_into_with(bytes, dst, self.kernels)
    }

    /// [`crate::read_utf`] at this level.
    ///
    /// # Errors
    ///
    /// As [`crate::read_utf`].
    #[cfg(feature = "std")]
    pub fn read_utf<R: std::io::Read + ?Sized>(self, reader: &mut R) -> std::io::Result<String> {
        crate::io::read_utf_with(reader, self.kernels)
    }

    /// [`crate::get_utf`] at this level.
    ///
    /// # Errors
    ///
    /// As [`crate::get_utf`].
    #[cfg(feature = "bytes")]
    pub fn get_utf<B: bytes::Buf + ?Sized>(
        self,
        buf: &mut B,
    ) -> Result<String, crate::GetUtfError> {
        crate::buf::get_utf_with(buf, self.kernels)
    }

    /// [`crate::read_utf16`] at this level.
    ///
    /// # Errors
    ///
    /// As [`crate::read_utf16`].
    #[cfg(feature = "std")]
    pub fn read_utf16<R: std::io::Read + ?Sized>(
        self,
        reader: &mut R,
    ) -> std::io::Result<Vec<u16>> {
        crate::io::read_utf16_with(reader, self.kernels)
    }

    /// [`crate::get_utf16`] at this level.
    ///
    /// # Errors
    ///
    /// As [`crate::get_utf16`].
    #[cfg(feature = "bytes")]
    pub fn get_utf16<B: bytes::Buf + ?Sized>(
        self,
        buf: &mut B,
    ) -> Result<Vec<u16>, crate::GetUtfError> {
        crate::buf::get_utf16_with(buf, self.kernels)
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
