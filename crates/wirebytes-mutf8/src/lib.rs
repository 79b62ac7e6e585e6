//! Java's modified UTF-8 (`DataInput.readUTF`/`DataOutput.writeUTF`, JNI strings, class-file
//! constants, NBT), bit-exact with the JDK and as fast as plain UTF-8 validation.
//!
//! ```
//! use std::borrow::Cow;
//!
//! // Decoding accepts exactly what the JDK's `readUTF` accepts, and yields the same chars.
//! let text = wirebytes_mutf8::decode(b"nul: \xc0\x80, emoji: \xed\xa0\xbd\xed\xb8\x80")?;
//! assert_eq!(text, "nul: \0, emoji: \u{1F600}");
//! // Bytes that already are the text are borrowed, not copied.
//! assert!(matches!(wirebytes_mutf8::decode(b"plain"), Ok(Cow::Borrowed("plain"))));
//!
//! // Encoding writes what `writeUTF` writes.
//! assert_eq!(wirebytes_mutf8::encode("\0\u{1F600}"), &b"\xc0\x80\xed\xa0\xbd\xed\xb8\x80"[..]);
//!
//! // Records: a u16 length, then the body (`std::io` with the `std` feature).
//! # #[cfg(feature = "std")] {
//! let mut wire = Vec::new();
//! wirebytes_mutf8::write_utf(&mut wire, "héllo")?;
//! assert_eq!(wirebytes_mutf8::read_utf(&mut wire.as_slice())?, "héllo");
//! // Zero-copy out of a byte slice.
//! assert_eq!(wirebytes_mutf8::take_utf(&mut wire.as_slice())?, "héllo");
//! # }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The format differs from UTF-8 in two ways: U+0000 is written `C0 80`, and a char above
//! U+FFFF is written as its two UTF-16 surrogates, 3 bytes each. The JDK's decoder is lenient
//! beyond that: it also accepts raw `00`, overlong forms (`C1 81` is `A`) and lone surrogates,
//! and rejects 4-byte sequences. This crate follows it exactly, including its error positions
//! (see [`DecodeError`]); a plain reference beside the fast paths holds plain transcriptions
//! of the JDK's loops that the fast paths are tested against.
//!
//! # The forms
//!
//! Each operation has the same forms, named for where the output goes:
//!
//! | operation | new value | appended to a `Vec`/`String` | into `&mut [u8]` | into a `BufMut` | length |
//! |---|---|---|---|---|---|
//! | decode to a `str` | [`decode`], [`decode_lossy`] | [`decode_to_string`] | | | |
//! | decode to UTF-16 | [`decode_to_utf16`] | [`decode_to_utf16_vec`] | | | |
//! | check | [`validate`] | | | | |
//! | encode a `str` | [`encode()`] | [`encode_to_vec`] | [`encode_to_slice`] | [`encode_to_buf`] | [`encoded_len`], [`max_encoded_len`] |
//! | encode UTF-16 | [`encode_from_utf16`] | [`encode_from_utf16_to_vec`] | [`encode_from_utf16_to_slice`] | | [`encoded_len_from_utf16`] |
//!
//! Records (a big-endian `u16` length, then the body; the long form an 8-byte length) take
//! the reader, writer, buffer or slice first: [`read_utf`], [`read_utf16`], [`write_utf`],
//! [`write_utf16`] over `std::io`; [`get_utf`], [`get_utf16`], [`put_utf`], [`put_utf16`]
//! over `bytes`; [`take_utf`] zero-copy out of a `&[u8]`; and the long forms
//! [`read_long_utf`], [`write_long_utf`], [`get_long_utf`], [`put_long_utf`],
//! [`take_long_utf`], which read with a caller's limit.
//!
//! # Three rules
//!
//! The same bytes under the three rules the JDK has: `readUTF`'s (the functions at the top
//! level), the class-file parser's for a `CONSTANT_Utf8` (HotSpot, class files of version 48
//! and up: [`class_file`]) and the "CESU-8" charset's ([`cesu8`]). Each module has the same
//! forms under the same names: `decode`, `decode_to_utf16`, `validate`, `encode`,
//! `encode_from_utf16` ([`cesu8`] all the encoding forms, as its bytes differ).
//!
//! | bytes | `readUTF` | class file | CESU-8 |
//! |---|---|---|---|
//! | raw `00` | U+0000 | rejected | U+0000 |
//! | `C0 80` | U+0000 | U+0000 | rejected |
//! | other overlong forms (`C1 81`, `E0 80 80`...) | accepted | rejected | rejected |
//! | `80`..`BF`, `F0`..`FF` as a lead, a bad continuation byte | rejected | rejected | rejected |
//! | a sequence cut by the end | rejected | rejected | rejected |
//! | surrogate pair (`ED A0..AF xx ED B0..BF xx`) | one char | one char | one char |
//! | lone surrogate | accepted | accepted | accepted |
//! | 4-byte sequence (`F0 9F 98 80`...) | rejected | rejected | rejected |
//!
//! All three hand back a lone surrogate as a `char`; a `str` cannot hold it, so the decoders
//! that return one report [`DecodeErrorKind::UnpairedSurrogate`] there, and
//! [`decode_to_utf16`], [`read_utf16`] and [`get_utf16`] return it.
//!
//! For JNI, [`encode_cstring`], [`decode_cstr`] and [`cstr!`], which encodes a literal at
//! compile time:
//!
//! ```
//! use std::ffi::CStr;
//!
//! const SIGNATURE: &CStr = wirebytes_mutf8::cstr!("(Ljava/lang/String;)V");
//! assert_eq!(SIGNATURE, c"(Ljava/lang/String;)V");
//! assert_eq!(wirebytes_mutf8::encode_cstring("\0").as_bytes(), b"\xc0\x80");
//!
//! let mut text = String::new();
//! for entry in [&b"java/lang/Object"[..], b"\xc0\x80"] {
//!     text.clear();
//!     wirebytes_mutf8::decode_to_string(entry, &mut text)?;
//! }
//! assert_eq!(text, "\0");
//! assert!(wirebytes_mutf8::decode_class_file(b"raw \x00").is_err());
//! # Ok::<(), wirebytes_mutf8::DecodeError>(())
//! ```
//!
//! Code written against the `cesu8` crate's Java functions (as the `jni` crate's users call
//! them) swaps its import for [`compat::to_java_cesu8`] and [`compat::from_java_cesu8`]: the
//! same signatures, with the JDK's rule (see [`compat`] for where it differs).
//!
//! # Speed
//!
//! On x86 with AVX2, one pass decides: a UTF-8 check in which any byte `F0` or above
//! is an error (the lookup method of Keiser and Lemire, with 64-byte blocks of ASCII
//! skipped), so valid UTF-8 without a 4-byte sequence is borrowed at once. Elsewhere an ASCII
//! scan, `simdutf8` and a scan for 4-byte leads decide the same. Anything else is rewritten in
//! a single pass that starts where the valid UTF-8 ends (with AVX2, at the start of the char
//! at most 67 bytes before), copies ASCII in 32-byte blocks and rewrites `C0 80`, overlongs
//! and surrogate pairs inline; with AVX-512 (VBMI2) 64-byte blocks of ASCII, `C0 80`, text and
//! pairs are rewritten without a branch per sequence (`vpcompressb`), and only the rest goes
//! one sequence at a time. [`decode_to_string`], [`decode_to_utf16_vec`] and
//! [`decode_to_utf16`] append a body of at most 64 ASCII bytes in one pass of overlapping
//! loads, each checked and stored as it is loaded. [`decode_to_utf16`] widens ASCII 32 bytes
//! at a time and decodes other text 32 bytes at a time with AVX-512 (`vpcompressw`) or AVX2
//! (`pshufb` tables), or text of ASCII and 2-byte sequences 16 bytes at a time with SSSE3.
//! The x86 kernels are chosen by what the CPU has, asked once at run time with `std`, else by
//! what the target is compiled for. [`encode()`] borrows unless a scan finds a NUL or a char
//! above U+FFFF.
//!
//! # Crate features
//!
//! Everything but the `std::io` records is `no_std` (with `alloc`). Features only add
//! functions: none changes what another one does.
//!
//! - `std` (default): [`read_utf`], [`read_utf16`], [`write_utf`], [`write_utf16`],
//!   [`read_long_utf`] and [`write_long_utf`] over `std::io`, [`GetUtfError`] into
//!   `std::io::Error`, and run-time CPU detection (here and inside `simdutf8`). Without it the
//!   crate is `no_std`, needs only `alloc`, and uses the instructions the target is compiled
//!   for.
//! - `bytes`: [`get_utf`], [`get_utf16`], [`get_long_utf`], [`put_utf`], [`put_utf16`],
//!   [`put_long_utf`], [`encode_to_buf`] and [`cesu8::encode_to_buf`] over
//!   `bytes::Buf`/`BufMut`, reading records straight out of fragmented buffers and writing
//!   them straight into their chunks; a record that has not wholly arrived is left in the
//!   buffer.
//! - `tokio-util` (with `std` and `bytes`): [`UtfCodec`] and [`Utf16Codec`], `Decoder`s and
//!   `Encoder`s of records for tokio-util's `FramedRead`, `FramedWrite` and `Framed`, with a
//!   maximum record length.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![no_std]
// `unsafe` is only in `arch` (the SIMD kernels and the calls to them) and `out` (the proof
// that bytes are UTF-8, so that they become a `str` without a second pass, and the writers
// that fill outputs without zero-fill), each block with `// SAFETY:`.
#![deny(unsafe_code)]
// The `_with` forms that take a kernel level and the kernels' level list serve the hidden
// `levels` door alone: without `__internal` nothing calls them.
#![cfg_attr(
    not(feature = "__internal"),
    allow(dead_code, reason = "what only the hidden `levels` door calls")
)]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

#[allow(
    unsafe_code,
    reason = "SIMD kernels and the calls to them, which write through `out`'s writers"
)]
mod arch;
#[cfg(feature = "bytes")]
mod buf;
pub mod cesu8;
#[allow(
    unsafe_code,
    reason = "slices viewed as arrays of a fixed length, from a pointer cast"
)]
mod chunks;
pub mod class_file;
#[cfg(feature = "tokio-util")]
mod codec;
pub mod compat;
mod counters;
mod counting;
mod decode;
mod encode;
mod error;
#[cfg(feature = "std")]
mod io;
mod jni;
#[cfg(feature = "__internal")]
#[doc(hidden)]
pub mod levels;
#[allow(
    unsafe_code,
    reason = "bytes proven UTF-8 made a str without a second pass, outputs not zero-filled"
)]
mod out;
mod record;
#[cfg(feature = "__internal")]
#[doc(hidden)]
pub mod reference;
mod rewrite;
mod scan;
mod sequence;
mod strict;
mod swar;
mod utf16;

#[cfg(feature = "bytes")]
#[cfg_attr(docsrs, doc(cfg(feature = "bytes")))]
pub use buf::{get_long_utf, get_utf, get_utf16, put_long_utf, put_utf, put_utf16};
#[doc(inline)]
pub use class_file::decode as decode_class_file;
#[cfg(feature = "tokio-util")]
#[cfg_attr(docsrs, doc(cfg(feature = "tokio-util")))]
pub use codec::{Utf16Codec, UtfCodec};
pub use decode::{decode, decode_lossy, decode_to_string, validate};
#[cfg(feature = "bytes")]
pub use encode::encode_to_buf;
pub use encode::{
    encode, encode_from_utf16, encode_from_utf16_to_slice, encode_from_utf16_to_vec,
    encode_to_slice, encode_to_vec, encoded_len, encoded_len_from_utf16, max_encoded_len,
};
pub use error::{DecodeError, DecodeErrorKind, GetUtfError, LengthError};
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub use io::{read_long_utf, read_utf, read_utf16, write_long_utf, write_utf, write_utf16};
#[doc(hidden)]
pub use jni::__cstr;
pub use jni::{decode_cstr, encode_cstring};
pub use record::{take_long_utf, take_utf};
pub use utf16::{decode_to_utf16, decode_to_utf16_vec};

/// The README's example, run as a doctest.
#[cfg(all(doctest, feature = "std"))]
#[doc = include_str!("../README.md")]
struct ReadmeDoctest;

/// The largest body a `readUTF`/`writeUTF` record holds: its length field is a `u16`.
///
/// # Examples
///
/// ```
/// assert_eq!(wirebytes_mutf8::MAX_UTF_LEN, 65_535);
/// ```
pub const MAX_UTF_LEN: usize = 0xFFFF;

#[cfg(test)]
mod testing {
    use alloc::vec::Vec;

    use wirebytes_testkit::{Rng, mutf8};

    /// Bodies of every kind: mostly text that already is UTF-8 (so that `decode` borrows
    /// it), and one in four with the JDK's odd forms and the ones it rejects; long enough for
    /// every block size.
    pub(crate) fn bodies() -> Vec<Vec<u8>> {
        let mut rng = Rng::new(0x853C_49E6_748F_EA9B);
        (0..wirebytes_testkit::scale_miri(6000, 6000, 4))
            .map(|round| {
                if round % 4 == 0 {
                    mutf8::body(&mut rng, mutf8::ACCEPTED, 160, 6)
                } else {
                    mutf8::body(&mut rng, mutf8::PLAIN_TEXT, 160, 0)
                }
            })
            .collect()
    }
}
