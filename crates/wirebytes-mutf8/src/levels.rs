//! Not part of the API and not covered by semver: the door through which tests, the sweeps,
//! the benches and the fuzz targets run the public functions at each kernel level this CPU
//! has.
//!
//! ```
//! use wirebytes_mutf8::levels;
//!
//! for level in levels::all() {
//!     assert_eq!(level.decode_to_utf16(b"a\xc0\x80"), Ok(vec![0x61, 0]), "{}", level.name());
//! }
//! assert_eq!(levels::all().next().map(levels::Level::name), Some("portable"));
//! ```

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

use crate::arch::Kernels;
use crate::{DecodeError, GetUtfError};

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

/// Not API, test-only (hidden feature `__counters`): what each kernel and each portable fast
/// path handled since the last [`reset_counts`], by stable name (`"utf16_blocks_avx2"`,
/// `"short_ascii"`, ...): bytes of input, except `"detect_ask"` (calls). The counts are the
/// calling thread's own: a test reads what its own thread ran.
#[cfg(feature = "__counters")]
pub fn counts() -> impl Iterator<Item = (&'static str, usize)> {
    crate::counting::counts()
}

/// Not API, test-only (hidden feature `__counters`): sets this thread's counts of [`counts`]
/// to 0.
#[cfg(feature = "__counters")]
pub fn reset_counts() {
    crate::counting::reset();
}

/// Whether this build widens short ASCII bodies with SSE2 (`widen16_sse2` and the others
/// count): on x86 targets compiled with SSE2, with a compiler that builds the x86 kernels.
/// Test-only, as [`counts`].
#[cfg(feature = "__counters")]
#[must_use]
pub fn widens_with_sse2() -> bool {
    cfg!(all(wirebytes_x86_kernels, target_feature = "sse2"))
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

    /// [`crate::decode_lossy`] at this level.
    #[must_use]
    pub fn decode_lossy(self, bytes: &[u8]) -> Cow<'_, str> {
        crate::decode::decode_lossy_with(bytes, self.kernels)
    }

    /// [`crate::decode_to_string`] at this level.
    ///
    /// # Errors
    ///
    /// As [`crate::decode_to_string`].
    pub fn decode_to_string(self, bytes: &[u8], dst: &mut String) -> Result<(), DecodeError> {
        crate::decode::decode_to_string_with(bytes, dst, self.kernels)
    }

    /// [`crate::decode_to_utf16`] at this level.
    ///
    /// # Errors
    ///
    /// As [`crate::decode_to_utf16`].
    pub fn decode_to_utf16(self, bytes: &[u8]) -> Result<Vec<u16>, DecodeError> {
        crate::utf16::decode_to_utf16_with(bytes, self.kernels)
    }

    /// [`crate::decode_to_utf16_vec`] at this level.
    ///
    /// # Errors
    ///
    /// As [`crate::decode_to_utf16_vec`].
    pub fn decode_to_utf16_vec(self, bytes: &[u8], dst: &mut Vec<u16>) -> Result<(), DecodeError> {
        crate::utf16::decode_to_utf16_vec_with(bytes, dst, self.kernels)
    }

    /// [`crate::validate`] at this level.
    ///
    /// # Errors
    ///
    /// As [`crate::validate`].
    pub fn validate(self, bytes: &[u8]) -> Result<(), DecodeError> {
        crate::decode::validate_with(bytes, self.kernels)
    }

    /// [`crate::class_file::decode`] at this level.
    ///
    /// # Errors
    ///
    /// As [`crate::class_file::decode`].
    pub fn class_file_decode(self, bytes: &[u8]) -> Result<Cow<'_, str>, DecodeError> {
        crate::class_file::decode_with(bytes, self.kernels)
    }

    /// [`crate::class_file::validate`] at this level.
    ///
    /// # Errors
    ///
    /// As [`crate::class_file::validate`].
    pub fn class_file_validate(self, bytes: &[u8]) -> Result<(), DecodeError> {
        crate::class_file::validate_with(bytes, self.kernels)
    }

    /// [`crate::cesu8::decode`] at this level.
    ///
    /// # Errors
    ///
    /// As [`crate::cesu8::decode`].
    pub fn cesu8_decode(self, bytes: &[u8]) -> Result<Cow<'_, str>, DecodeError> {
        crate::cesu8::decode_with(bytes, self.kernels)
    }

    /// [`crate::cesu8::validate`] at this level.
    ///
    /// # Errors
    ///
    /// As [`crate::cesu8::validate`].
    pub fn cesu8_validate(self, bytes: &[u8]) -> Result<(), DecodeError> {
        crate::cesu8::validate_with(bytes, self.kernels)
    }

    /// [`crate::take_utf`] at this level.
    ///
    /// # Errors
    ///
    /// As [`crate::take_utf`].
    pub fn take_utf<'a>(self, bytes: &mut &'a [u8]) -> Result<Cow<'a, str>, GetUtfError> {
        crate::record::take_utf_with(bytes, self.kernels)
    }

    /// [`crate::take_long_utf`] at this level.
    ///
    /// # Errors
    ///
    /// As [`crate::take_long_utf`].
    pub fn take_long_utf<'a>(
        self,
        bytes: &mut &'a [u8],
        limit: u64,
    ) -> Result<Cow<'a, str>, GetUtfError> {
        crate::record::take_long_utf_with(bytes, limit, self.kernels)
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

    /// [`crate::read_long_utf`] at this level.
    ///
    /// # Errors
    ///
    /// As [`crate::read_long_utf`].
    #[cfg(feature = "std")]
    pub fn read_long_utf<R: std::io::Read + ?Sized>(
        self,
        reader: &mut R,
        limit: u64,
    ) -> std::io::Result<String> {
        crate::io::read_long_utf_with(reader, limit, self.kernels)
    }

    /// [`crate::get_utf`] at this level.
    ///
    /// # Errors
    ///
    /// As [`crate::get_utf`].
    #[cfg(feature = "bytes")]
    pub fn get_utf<B: bytes::Buf + ?Sized>(self, buf: &mut B) -> Result<String, GetUtfError> {
        crate::buf::get_utf_with(buf, self.kernels)
    }

    /// [`crate::get_utf16`] at this level.
    ///
    /// # Errors
    ///
    /// As [`crate::get_utf16`].
    #[cfg(feature = "bytes")]
    pub fn get_utf16<B: bytes::Buf + ?Sized>(self, buf: &mut B) -> Result<Vec<u16>, GetUtfError> {
        crate::buf::get_utf16_with(buf, self.kernels)
    }

    /// [`crate::get_long_utf`] at this level.
    ///
    /// # Errors
    ///
    /// As [`crate::get_long_utf`].
    #[cfg(feature = "bytes")]
    pub fn get_long_utf<B: bytes::Buf + ?Sized>(
        self,
        buf: &mut B,
        limit: u64,
    ) -> Result<String, GetUtfError> {
        crate::buf::get_long_utf_with(buf, limit, self.kernels)
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
