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
//! // Records (`std` feature): a u16 length, then the body.
//! # #[cfg(feature = "std")] {
//! let mut wire = Vec::new();
//! wirebytes_mutf8::write_utf(&mut wire, "héllo")?;
//! assert_eq!(wirebytes_mutf8::read_utf(&mut wire.as_slice())?, "héllo");
//! # }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The format differs from UTF-8 in two ways: U+0000 is written `C0 80`, and a char above
//! U+FFFF is written as its two UTF-16 surrogates, 3 bytes each. The JDK's decoder is lenient
//! beyond that: it also accepts raw `00`, overlong forms (`C1 81` is `A`) and lone surrogates,
//! and rejects 4-byte sequences. This crate follows it exactly, including its error positions
//! (see [`DecodeError`]); a plain reference beside the fast paths holds plain transcriptions of the
//! JDK's loops that the fast paths are tested against.
//!
//! The same bytes under the three rules the JDK has, `readUTF`'s ([`decode`]), the class-file
//! parser's for a `CONSTANT_Utf8` (HotSpot, class files of version 48 and up:
//! [`decode_class_file`]) and the "CESU-8" charset's ([`cesu8::decode`]):
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
//! [`decode_utf16`], [`read_utf16`] and [`get_utf16`] return it.
//!
//! Without allocating: [`validate`] checks what [`decode_utf16`] accepts; [`decode_into`],
//! [`decode_utf16_into`] and [`encode_into`] append to buffers a hot loop reuses. For JNI,
//! [`encode_cstring`], [`decode_cstr`] and [`cstr!`], which encodes a literal at compile
//! time:
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
//!     wirebytes_mutf8::decode_into(entry, &mut text)?;
//! }
//! assert_eq!(text, "\0");
//! assert!(wirebytes_mutf8::decode_class_file(b"raw \x00").is_err());
//! # Ok::<(), wirebytes_mutf8::DecodeError>(())
//! ```
//!
//! Speed: on x86 with AVX2, one pass decides: a UTF-8 check in which any byte `F0` or above
//! is an error (the lookup method of Keiser and Lemire, with 64-byte blocks of ASCII
//! skipped), so valid UTF-8 without a 4-byte sequence is borrowed at once. Elsewhere an ASCII
//! scan, `simdutf8` and a scan for 4-byte leads decide the same. Anything else is rewritten in
//! a single pass that starts where the valid UTF-8 ends (with AVX2, at the start of the char
//! at most 67 bytes before), copies ASCII in 32-byte blocks and rewrites `C0 80`, overlongs
//! and surrogate pairs inline; with AVX-512 (VBMI2) 64-byte blocks of ASCII, `C0 80`, text and
//! pairs are rewritten without a branch per sequence (`vpcompressb`), and only the rest goes
//! one sequence at a time. [`decode_into`], [`decode_utf16_into`] and [`decode_utf16`] append a
//! body of at most 64 ASCII bytes in one pass of overlapping loads, each checked and stored as
//! it is loaded. [`decode_utf16`] widens ASCII 32 bytes at a time and decodes other
//! text 32 bytes at a time with AVX-512 (`vpcompressw`) or AVX2 (`pshufb` tables), or text of
//! ASCII and 2-byte sequences 16 bytes at a time with SSSE3. The x86 kernels are chosen by
//! what the CPU has, asked once at run time with `std`, else by what the target is compiled
//! for. [`encode()`] borrows unless a scan finds a NUL or a char above U+FFFF.
//!
//! # Crate features
//!
//! Everything but the `std::io` records is `no_std` (with `alloc`).
//!
//! - `std` (default): [`read_utf`], [`read_utf16`], [`write_utf`], [`read_long_utf`],
//!   [`write_long_utf`] over `std::io`, and run-time CPU detection (here and inside
//!   `simdutf8`). Without it the crate is `no_std`, needs only `alloc`, and uses the
//!   instructions the target is compiled for. With `bytes`, it also lets [`get_utf`] see
//!   past a buffer's first chunk (`Buf::chunks_vectored`) to leave an incomplete record
//!   unconsumed.
//! - `bytes`: [`get_utf`], [`get_utf16`], [`put_utf`], [`get_long_utf`], [`put_long_utf`]
//!   over `bytes::Buf`/`BufMut`, reading records straight out of fragmented buffers; a
//!   record that has not wholly arrived is left in the buffer.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![no_std]
// `unsafe` is only in `arch` (each block with `// SAFETY:`): the SIMD kernels and the calls
// to them, the proof that bytes are UTF-8 (so that they become a `str` without a second
// pass), and the writers that fill outputs without zero-fill.
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
    reason = "SIMD kernels, bytes proven UTF-8 made a str without a second pass, outputs not zero-filled"
)]
mod arch;
#[cfg(feature = "bytes")]
mod buf;
pub mod cesu8;
mod class_file;
mod decode;
mod encode;
mod error;
#[cfg(feature = "std")]
mod io;
mod jni;
#[cfg(feature = "__internal")]
#[doc(hidden)]
pub mod levels;
#[cfg(feature = "__internal")]
#[doc(hidden)]
pub mod reference;
mod rewrite;
mod scan;
mod sequence;
mod strict;
mod utf16;

#[cfg(feature = "bytes")]
pub use buf::{GetUtfError, get_long_utf, get_utf, get_utf16, put_long_utf, put_utf};
pub use class_file::decode_class_file;
pub use decode::{decode, decode_into, decode_lossy, validate};
pub use encode::{encode, encode_into, encode_utf16, encoded_len};
pub use error::{DecodeError, DecodeErrorKind, LengthError};
#[cfg(feature = "std")]
pub use io::{read_long_utf, read_utf, read_utf16, write_long_utf, write_utf};
#[doc(hidden)]
pub use jni::__cstr;
pub use jni::{decode_cstr, encode_cstring};
pub use utf16::{decode_utf16, decode_utf16_into};

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
