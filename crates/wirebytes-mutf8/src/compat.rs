//! The names and signatures of the `cesu8` crate's Java functions, which the `jni` crate and
//! its users call: swap `use cesu8::{from_java_cesu8, to_java_cesu8};` for
//! `use wirebytes_mutf8::compat::{from_java_cesu8, to_java_cesu8};`.
//!
//! ```
//! use wirebytes_mutf8::compat::{from_java_cesu8, to_java_cesu8};
//!
//! let bytes = to_java_cesu8("nul \0 and \u{1F600}");
//! assert_eq!(&*bytes, b"nul \xc0\x80 and \xed\xa0\xbd\xed\xb8\x80");
//! assert_eq!(from_java_cesu8(&bytes)?, "nul \0 and \u{1F600}");
//! # Ok::<(), wirebytes_mutf8::DecodeError>(())
//! ```
//!
//! The bytes [`to_java_cesu8`] writes are the `cesu8` crate's, byte for byte, and borrowed in
//! the same cases. [`from_java_cesu8`] follows the JDK (`DataInput.readUTF`, the rule of
//! [`decode`]), which is not quite the `cesu8` crate's rule:
//!
//! | bytes | here (the JDK) | `cesu8::from_java_cesu8` |
//! |---|---|---|
//! | `C0 80`, surrogate pairs, other UTF-8 of 1-3 bytes | the same text | the same text |
//! | raw `00` | U+0000 | U+0000 if the whole input is valid UTF-8, else an error |
//! | 4-byte sequence (`F0 9F 98 80`...) | an error | the char if the whole input is valid UTF-8, else an error |
//! | other overlong forms (`C1 81` is `A`, `E0 80 80` is U+0000) | the char | an error |
//! | lone surrogate, malformed or cut sequence | an error | an error |
//!
//! Where both accept the bytes, both return the same text. The error is a [`DecodeError`]
//! with the offset of the bad bytes, not a unit struct: code that names
//! `cesu8::Cesu8DecodingError` changes that name; code that only uses `?` into a
//! `Box<dyn Error>`, `unwrap` or `is_ok` does not change.

use alloc::borrow::Cow;

use crate::{DecodeError, decode, encode};

/// Encodes text as Java's modified UTF-8 (what `DataOutput.writeUTF` writes after the length,
/// and JNI's `NewStringUTF` takes): U+0000 as `C0 80` and a char above U+FFFF as its two
/// surrogates, 3 bytes each. Borrowed when the text has neither; the same as
/// [`encode`](crate::encode()).
///
/// # Examples
///
/// ```
/// use std::borrow::Cow;
/// use wirebytes_mutf8::compat::to_java_cesu8;
///
/// assert!(matches!(to_java_cesu8("java/lang/String"), Cow::Borrowed(_)));
/// assert_eq!(&*to_java_cesu8("a\0b"), b"a\xc0\x80b");
/// ```
#[must_use]
pub fn to_java_cesu8(text: &str) -> Cow<'_, [u8]> {
    encode(text)
}

/// Decodes Java's modified UTF-8 as the JDK's `DataInput.readUTF` does (see the module's table
/// for where that differs from the `cesu8` crate). Borrowed when the bytes already are the
/// text; the same as [`decode`](crate::decode()).
///
/// # Errors
///
/// As [`decode`](crate::decode()): a [`DecodeError`] for bytes the JDK rejects, or for a lone
/// surrogate (which a `str` cannot hold), with the offset of the bad bytes.
///
/// # Examples
///
/// ```
/// use wirebytes_mutf8::compat::from_java_cesu8;
///
/// assert_eq!(from_java_cesu8(b"\xed\xa0\xbd\xed\xb8\x80")?, "\u{1F600}");
/// assert_eq!(from_java_cesu8(b"ok \xf0\x9f\x98\x80").unwrap_err().valid_up_to(), 3);
/// # Ok::<(), wirebytes_mutf8::DecodeError>(())
/// ```
#[must_use = "the decoded text, or where the bytes are malformed"]
pub fn from_java_cesu8(bytes: &[u8]) -> Result<Cow<'_, str>, DecodeError> {
    decode(bytes)
}
