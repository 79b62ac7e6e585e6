//! Not part of the API and not covered by semver: the door through which tests, the sweeps,
//! the benches and the fuzz targets run the public functions at each kernel level this CPU
//! has.
//!
//! ```
//! use wirebytes_charset::{Charset, Replacement, levels};
//!
//! let cp1252 = Charset::from(encoding_rs::WINDOWS_1252);
//! for level in levels::all() {
//!     let body = level.encode(cp1252, "Grüße", Replacement::Jdk);
//!     assert_eq!(body, b"Gr\xFC\xDFe", "{}", level.name());
//! }
//! assert!(levels::get("portable").is_some());
//! ```

use crate::arch::Kernels;
use crate::engine::{self, infallible};
use crate::multi_byte::{Coding as _, MultiByte};
use crate::sink::SliceSink;
use crate::{Charset, Encoder, Replacement, Unmappable};

/// Every charset the crate knows by a Java name, with its canonical name and aliases: what
/// the sweep compares with the JDK's own `Charset.forName(name).aliases()`.
pub fn java_names() -> impl Iterator<Item = (Option<Charset>, &'static str, &'static [&'static str])>
{
    crate::jdk::CHARSETS.iter().map(|charset| {
        (
            Charset::for_java_name(charset.name),
            charset.name,
            charset.aliases,
        )
    })
}

/// The JDK the crate's tables of the JDK's charsets come from (`cargo xtask jdk-tables`).
pub const JDK_VERSION: &str = crate::jdk::JDK_VERSION;

/// Not API, test-only (feature `__counters`): what each kernel and each portable fast path
/// handled since the last [`reset_counts`], by the path's name ("latin1_window_ssse3",
/// "ascii_whole", ...), in bytes of UTF-8 input unless the path counts calls ("detect").
/// The counters are the calling thread's own: a test reads what its own thread ran.
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

/// `text` in the WHATWG multi-byte `encoding` (Shift_JIS, EUC-JP, EUC-KR, Big5, GBK,
/// gb18030, ISO-2022-JP) by its coder, with its encode table or ISO-2022-JP state machine as
/// the public functions write it (`tables`), or through encoding_rs's encoder alone, the path
/// of an encoding without a table. With `replacement`, or stopping at the first unmappable
/// char (`None`): the bytes or that char's byte offset, and whether a replacement was
/// written.
pub fn multi_byte_coder(
    encoding: &'static encoding_rs::Encoding,
    tables: bool,
    text: &str,
    replacement: Option<Replacement>,
) -> (Result<Vec<u8>, usize>, bool) {
    coder_run(encoding, tables, replacement, |coder, policy, out| {
        coder.encode_str(text, true, policy, &mut |bytes| {
            out.extend_from_slice(bytes)
        })
    })
}

/// [`multi_byte_coder`] of UTF-16 input: the error is a unit index (an unmappable char or,
/// without a replacement, an unpaired surrogate).
pub fn multi_byte_coder_from_utf16(
    encoding: &'static encoding_rs::Encoding,
    tables: bool,
    units: &[u16],
    replacement: Option<Replacement>,
) -> (Result<Vec<u8>, usize>, bool) {
    coder_run(encoding, tables, replacement, |coder, policy, out| {
        coder.encode_units(units, true, policy, &mut |bytes| {
            out.extend_from_slice(bytes)
        })
    })
}

/// Runs `encode` on a coder of `encoding` that records replacements.
fn coder_run(
    encoding: &'static encoding_rs::Encoding,
    tables: bool,
    replacement: Option<Replacement>,
    encode: impl FnOnce(&mut MultiByte, crate::Policy, &mut Vec<u8>) -> Result<(), usize>,
) -> (Result<Vec<u8>, usize>, bool) {
    let kernels = Kernels::detect();
    let mut coder = MultiByte::new(encoding, kernels);
    if !tables {
        // The path of an encoding that has neither.
        coder.table = None;
        coder.jp = None;
    }
    coder.track = true;
    let policy = replacement.map_or(crate::Policy::Strict, crate::Policy::from);
    let mut out = Vec::new();
    let result = encode(&mut coder, policy, &mut out);
    (result.map(|()| out), coder.take_replaced())
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

    /// [`Charset::encode`] at this level.
    pub fn encode(self, charset: Charset, text: &str, replacement: Replacement) -> Vec<u8> {
        let mut out = Vec::new();
        self.encode_to_vec(charset, text, replacement, &mut out);
        out
    }

    /// [`Charset::encode_to_vec`] at this level.
    pub fn encode_to_vec(
        self,
        charset: Charset,
        text: &str,
        replacement: Replacement,
        dst: &mut Vec<u8>,
    ) {
        infallible(engine::encode_str(
            text,
            charset,
            false,
            replacement.into(),
            self.kernels,
            dst,
        ));
    }

    /// [`Charset::encode_to_slice`] at this level.
    pub fn encode_to_slice(
        self,
        charset: Charset,
        text: &str,
        replacement: Replacement,
        dst: &mut [u8],
    ) -> Option<usize> {
        let mut sink = SliceSink::new(dst);
        infallible(engine::encode_str(
            text,
            charset,
            false,
            replacement.into(),
            self.kernels,
            &mut sink,
        ));
        sink.written()
    }

    /// `Charset::encode_to_buf` at this level (no room check: `dst` must grow, or have room).
    #[cfg(feature = "bytes")]
    pub fn encode_to_buf<B: bytes::BufMut + ?Sized>(
        self,
        charset: Charset,
        text: &str,
        replacement: Replacement,
        dst: &mut B,
    ) {
        let mut sink = crate::sink::BufSink::new(dst);
        infallible(engine::encode_str(
            text,
            charset,
            false,
            replacement.into(),
            self.kernels,
            &mut sink,
        ));
    }

    /// [`Charset::encode_from_utf16`] at this level.
    pub fn encode_from_utf16(
        self,
        charset: Charset,
        src: &[u16],
        replacement: Replacement,
    ) -> Vec<u8> {
        let mut out = Vec::new();
        self.encode_from_utf16_to_vec(charset, src, replacement, &mut out);
        out
    }

    /// [`Charset::encode_from_utf16_to_vec`] at this level.
    pub fn encode_from_utf16_to_vec(
        self,
        charset: Charset,
        src: &[u16],
        replacement: Replacement,
        dst: &mut Vec<u8>,
    ) {
        infallible(engine::encode_units(
            src,
            charset,
            false,
            replacement.into(),
            self.kernels,
            dst,
        ));
    }

    /// [`Charset::encode_from_utf16_to_slice`] at this level.
    pub fn encode_from_utf16_to_slice(
        self,
        charset: Charset,
        src: &[u16],
        replacement: Replacement,
        dst: &mut [u8],
    ) -> Option<usize> {
        let mut sink = SliceSink::new(dst);
        infallible(engine::encode_units(
            src,
            charset,
            false,
            replacement.into(),
            self.kernels,
            &mut sink,
        ));
        sink.written()
    }

    /// `Charset::encode_from_utf16_to_buf` at this level (no room check: `dst` must grow, or
    /// have room).
    #[cfg(feature = "bytes")]
    pub fn encode_from_utf16_to_buf<B: bytes::BufMut + ?Sized>(
        self,
        charset: Charset,
        src: &[u16],
        replacement: Replacement,
        dst: &mut B,
    ) {
        let mut sink = crate::sink::BufSink::new(dst);
        infallible(engine::encode_units(
            src,
            charset,
            false,
            replacement.into(),
            self.kernels,
            &mut sink,
        ));
    }

    /// [`Charset::encoded_len`] at this level.
    pub fn encoded_len(self, charset: Charset, text: &str, replacement: Replacement) -> usize {
        engine::len_str(text, charset, replacement.into(), self.kernels)
    }

    /// [`Charset::encode_with_bom`] at this level.
    pub fn encode_with_bom(
        self,
        charset: Charset,
        text: &str,
        replacement: Replacement,
    ) -> Vec<u8> {
        let mut out = Vec::new();
        infallible(engine::encode_str(
            text,
            charset,
            true,
            replacement.into(),
            self.kernels,
            &mut out,
        ));
        out
    }

    /// [`Charset::encode_string`] at this level.
    pub fn encode_string(
        self,
        charset: Charset,
        text: String,
        replacement: Replacement,
    ) -> Vec<u8> {
        engine::encode_owned(text, charset, replacement, self.kernels)
    }

    /// [`Charset::try_encode`] at this level.
    ///
    /// # Errors
    ///
    /// As [`Charset::try_encode`].
    pub fn try_encode(self, charset: Charset, text: &str) -> Result<Vec<u8>, Unmappable> {
        engine::encode_strict(text, charset, self.kernels)
    }

    /// [`Charset::new_encoder`] at this level.
    pub fn new_encoder(self, charset: Charset, replacement: Replacement) -> Encoder {
        Encoder::new(charset, replacement.into(), self.kernels)
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
