//! The JVM's rule for the text of a class file's `CONSTANT_Utf8` entries.

use alloc::borrow::Cow;

use crate::DecodeError;
use crate::arch::Kernels;
use crate::strict::{self, Nul};

/// Decodes the bytes of a class file's `CONSTANT_Utf8` entry, accepting exactly what
/// HotSpot's class-file parser accepts for class files of version 48 and up, borrowing the
/// input when it already is the text.
///
/// The rule is stricter than `readUTF`'s (see the table in the [crate documentation](crate)): no raw
/// `00` (U+0000 is `C0 80`), no overlong form but `C0 80`, no 4-byte sequence. Surrogates go
/// one 3-byte sequence each; a high and a low one make a char above U+FFFF.
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
/// use wirebytes_mutf8::{decode_class_file, DecodeErrorKind};
///
/// assert_eq!(decode_class_file(b"java/lang/String").unwrap(), "java/lang/String");
/// assert_eq!(decode_class_file(b"nul \xc0\x80").unwrap(), "nul \0");
/// assert_eq!(decode_class_file(b"raw \x00").unwrap_err().valid_up_to(), 4);
/// assert!(decode_class_file(b"\xc1\x81").is_err()); // readUTF's overlong 'A'
/// let lone = decode_class_file(b"\xed\xa0\x80").unwrap_err(); // the JVM accepts it
/// assert_eq!(lone.kind(), DecodeErrorKind::UnpairedSurrogate);
/// ```
pub fn decode_class_file(bytes: &[u8]) -> Result<Cow<'_, str>, DecodeError> {
    strict::decode(bytes, Nul::TwoBytes, Kernels::detect())
}

/// [`decode_class_file`] with `kernels`.
pub(crate) fn decode_class_file_with(
    bytes: &[u8],
    kernels: Kernels,
) -> Result<Cow<'_, str>, DecodeError> {
    strict::decode(bytes, Nul::TwoBytes, kernels)
}
