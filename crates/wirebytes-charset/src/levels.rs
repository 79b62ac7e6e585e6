//! Not part of the API and not covered by semver: the door through which tests, the sweeps,
//! the benches and the fuzz targets run the public functions at each kernel level this CPU
//! has.
//!
//! ```
//! use wirebytes_charset::{Replacement, levels};
//!
//! for level in levels::all() {
//!     let body = level.encode("Grüße", encoding_rs::WINDOWS_1252, Replacement::Jdk);
//!     assert_eq!(body, b"Gr\xFC\xDFe", "{}", level.name());
//! }
//! assert!(levels::get("portable").is_some());
//! ```

use crate::arch::Kernels;
use crate::{Charset, Encoder, Replacement, Unmappable};

/// Every charset the crate knows by a Java name, with its canonical name and aliases: what
/// the sweep compares with the JDK's own `Charset.forName(name).aliases()`.
pub fn java_names() -> impl Iterator<Item = (Charset, &'static str, &'static [&'static str])> {
    crate::charset::java_names()
}

/// A set of kernels this CPU can run, by name ("portable", "ssse3", "avx2", "avx512").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Level {
    name: &'static str,
    kernels: Kernels,
}

/// The levels this CPU has, "portable" first, the one the public functions use last.
pub fn all() -> impl Iterator<Item = Level> {
    Kernels::levels().map(|(name, kernels)| Level { name, kernels })
}

/// A level by name, if this CPU has it.
pub fn get(name: &str) -> Option<Level> {
    all().find(|level| level.name == name)
}

impl Level {
    /// The level's name.
    pub fn name(self) -> &'static str {
        self.name
    }

    /// The kernels of this level, for the crate's own kernel tests.
    #[cfg(test)]
    pub(crate) fn kernels(self) -> Kernels {
        self.kernels
    }

    /// [`crate::encode`] at this level.
    pub fn encode(
        self,
        text: &str,
        charset: impl Into<Charset>,
        replacement: Replacement,
    ) -> Vec<u8> {
        let mut out = Vec::new();
        self.encode_to_vec(text, charset, replacement, &mut out);
        out
    }

    /// [`crate::encode_to_vec`] at this level.
    pub fn encode_to_vec(
        self,
        text: &str,
        charset: impl Into<Charset>,
        replacement: Replacement,
        dst: &mut Vec<u8>,
    ) {
        crate::infallible(crate::encode_into(
            text,
            charset.into(),
            false,
            replacement.into(),
            self.kernels,
            dst,
        ));
    }

    /// [`crate::encoded_len`] at this level.
    pub fn encoded_len(
        self,
        text: &str,
        charset: impl Into<Charset>,
        replacement: Replacement,
    ) -> usize {
        crate::len_of(text, charset.into(), replacement.into(), self.kernels)
    }

    /// [`crate::encode_with_bom`] at this level.
    pub fn encode_with_bom(
        self,
        text: &str,
        charset: impl Into<Charset>,
        replacement: Replacement,
    ) -> Vec<u8> {
        let mut out = Vec::new();
        crate::infallible(crate::encode_into(
            text,
            charset.into(),
            true,
            replacement.into(),
            self.kernels,
            &mut out,
        ));
        out
    }

    /// [`crate::encode_utf16`] at this level (no kernel is on the UTF-16 path: the same at
    /// every level).
    pub fn encode_utf16(
        self,
        units: &[u16],
        charset: impl Into<Charset>,
        replacement: Replacement,
    ) -> Vec<u8> {
        crate::encode_utf16(units, charset, replacement)
    }

    /// [`crate::encode_utf16_with_bom`] at this level (the same at every level).
    pub fn encode_utf16_with_bom(
        self,
        units: &[u16],
        charset: impl Into<Charset>,
        replacement: Replacement,
    ) -> Vec<u8> {
        crate::encode_utf16_with_bom(units, charset, replacement)
    }

    /// [`crate::encode_string`] at this level.
    pub fn encode_string(
        self,
        text: String,
        charset: impl Into<Charset>,
        replacement: Replacement,
    ) -> Vec<u8> {
        crate::encode_owned(text, charset.into(), replacement, self.kernels)
    }

    /// [`crate::try_encode`] at this level.
    ///
    /// # Errors
    ///
    /// As [`crate::try_encode`].
    pub fn try_encode(
        self,
        text: &str,
        charset: impl Into<Charset>,
    ) -> Result<Vec<u8>, Unmappable> {
        crate::encode_strict(text, charset.into(), self.kernels)
    }

    /// [`Charset::new_encoder`] at this level.
    pub fn new_encoder(self, charset: impl Into<Charset>, replacement: Replacement) -> Encoder {
        Encoder::new(charset.into(), replacement.into(), self.kernels)
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
