//! The JVM's rule for the text of a class file's `CONSTANT_Utf8` entries, as HotSpot's
//! class-file parser checks it for class files of version 48 and up: stricter than
//! `readUTF`'s when decoding (no raw `00`, no overlong form but `C0 80`, no 4-byte
//! sequence), the same bytes as `writeUTF`'s when encoding.
//!
//! ```
//! use wirebytes_mutf8::class_file;
//!
//! let bytes = class_file::encode("nul \0, emoji \u{1F600}");
//! assert_eq!(bytes, &b"nul \xc0\x80, emoji \xed\xa0\xbd\xed\xb8\x80"[..]);
//! assert_eq!(class_file::decode(&bytes)?, "nul \0, emoji \u{1F600}");
//! assert!(class_file::decode(b"raw \x00").is_err()); // readUTF accepts it
//! assert!(class_file::validate(b"\xc1\x81").is_err()); // readUTF's overlong 'A'
//! # Ok::<(), wirebytes_mutf8::DecodeError>(())
//! ```
//!
//! The encoded form of a class file is exactly `writeUTF`'s body: the crate's
//! [`encode_to_vec`](crate::encode_to_vec), [`encode_to_slice`](crate::encode_to_slice),
//! [`encoded_len`](crate::encoded_len) and the other encoders write it too. See the
//! [crate documentation](crate) for this rule beside `readUTF`'s and CESU-8's.

use alloc::borrow::Cow;
use alloc::vec::Vec;

use crate::DecodeError;
use crate::arch::Kernels;
use crate::strict::{self, Nul};

/// Decodes the bytes of a class file's `CONSTANT_Utf8` entry, accepting exactly what
/// HotSpot's class-file parser accepts for class files of version 48 and up, borrowing the
/// input when it already is the text.
///
/// The rule is stricter than `readUTF`'s (see the table in the
/// [crate documentation](crate)): no raw `00` (U+0000 is `C0 80`), no overlong form but
/// `C0 80`, no 4-byte sequence. Surrogates go one 3-byte sequence each; a high and a low one
/// make a char above U+FFFF.
///
/// # Errors
///
/// Where the JVM throws `ClassFormatError` ("Illegal UTF8 string in constant pool"): a
/// [`DecodeError`] at the start of the first offending sequence,
/// [`Truncated`](crate::DecodeErrorKind::Truncated) if it runs past the end, else
/// [`Malformed`](crate::DecodeErrorKind::Malformed). Where the JVM accepts a lone surrogate,
/// which a `str` cannot hold,
/// [`UnpairedSurrogate`](crate::DecodeErrorKind::UnpairedSurrogate) at the first one. The
/// JVM's message names no position: [`jdk_position`](DecodeError::jdk_position) is
/// `valid_up_to` for `Malformed`.
///
/// # Examples
///
/// ```
/// use wirebytes_mutf8::{class_file, DecodeErrorKind};
///
/// assert_eq!(class_file::decode(b"java/lang/String").unwrap(), "java/lang/String");
/// assert_eq!(class_file::decode(b"nul \xc0\x80").unwrap(), "nul \0");
/// assert_eq!(class_file::decode(b"raw \x00").unwrap_err().valid_up_to(), 4);
/// assert!(class_file::decode(b"\xc1\x81").is_err()); // readUTF's overlong 'A'
/// let lone = class_file::decode(b"\xed\xa0\x80").unwrap_err(); // the JVM accepts it
/// assert_eq!(lone.kind(), DecodeErrorKind::UnpairedSurrogate);
/// ```
#[must_use = "the decoded text, or where the entry is illegal"]
pub fn decode(bytes: &[u8]) -> Result<Cow<'_, str>, DecodeError> {
    strict::decode(bytes, Nul::TwoBytes, Kernels::detect())
}

/// [`decode`] with `kernels`.
pub(crate) fn decode_with(bytes: &[u8], kernels: Kernels) -> Result<Cow<'_, str>, DecodeError> {
    strict::decode(bytes, Nul::TwoBytes, kernels)
}

/// Decodes the bytes of a class file's `CONSTANT_Utf8` entry into the UTF-16 chars the JVM
/// makes of them, lone surrogates included: every entry HotSpot accepts.
///
/// # Errors
///
/// As [`decode`], never `UnpairedSurrogate`.
///
/// # Examples
///
/// ```
/// use wirebytes_mutf8::class_file;
///
/// assert_eq!(class_file::decode_to_utf16(b"a\xc0\x80\xed\xa0\x80"), Ok(vec![0x61, 0, 0xd800]));
/// assert_eq!(class_file::decode_to_utf16(b"ab\x00").unwrap_err().valid_up_to(), 2);
/// ```
#[must_use = "the decoded chars, or where the entry is illegal"]
pub fn decode_to_utf16(bytes: &[u8]) -> Result<Vec<u16>, DecodeError> {
    strict::decode_to_utf16(bytes, Nul::TwoBytes)
}

/// Checks that HotSpot accepts the bytes of a class file's `CONSTANT_Utf8` entry, without
/// decoding them and without allocating: exactly what [`decode_to_utf16`] accepts, with its
/// error.
///
/// # Errors
///
/// As [`decode_to_utf16`].
///
/// # Examples
///
/// ```
/// use wirebytes_mutf8::class_file;
///
/// assert!(class_file::validate(b"(Ljava/lang/String;)V \xc0\x80 \xed\xa0\x80").is_ok());
/// assert_eq!(class_file::validate(b"ab\xe0\x81\x81").unwrap_err().valid_up_to(), 2);
/// ```
#[must_use = "whether the entry is legal"]
pub fn validate(bytes: &[u8]) -> Result<(), DecodeError> {
    strict::validate(bytes, Nul::TwoBytes, Kernels::detect())
}

/// [`validate`] with `kernels`.
pub(crate) fn validate_with(bytes: &[u8], kernels: Kernels) -> Result<(), DecodeError> {
    strict::validate(bytes, Nul::TwoBytes, kernels)
}

/// Encodes text as a class file's `CONSTANT_Utf8` holds it, borrowing the text's bytes when
/// they are already those bytes: the same bytes as [`crate::encode()`] (`writeUTF`'s body),
/// U+0000 as `C0 80` and a char above U+FFFF as two 3-byte surrogates.
///
/// A class file's entry has a `u16` length: this does not check it.
///
/// # Examples
///
/// ```
/// use wirebytes_mutf8::class_file;
///
/// assert_eq!(class_file::encode("(\0)V"), &b"(\xc0\x80)V"[..]);
/// ```
#[must_use]
pub fn encode(text: &str) -> Cow<'_, [u8]> {
    crate::encode(text)
}

/// Encodes UTF-16 chars as a class file's `CONSTANT_Utf8` holds them: the same bytes as
/// [`crate::encode_from_utf16`], lone surrogates as their own 3-byte sequences (which the JVM
/// reads back as they were).
///
/// # Examples
///
/// ```
/// use wirebytes_mutf8::class_file;
///
/// let bytes = class_file::encode_from_utf16(&[0x61, 0, 0xdc00]);
/// assert_eq!(bytes, b"a\xc0\x80\xed\xb0\x80");
/// assert_eq!(class_file::decode_to_utf16(&bytes), Ok(vec![0x61, 0, 0xdc00]));
/// ```
#[must_use]
pub fn encode_from_utf16(src: &[u16]) -> Vec<u8> {
    crate::encode_from_utf16(src)
}
