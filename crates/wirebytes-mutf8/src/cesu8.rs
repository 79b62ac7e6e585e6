//! CESU-8 as the JDK's "CESU-8" charset reads and writes it: UTF-8, except that a char above
//! U+FFFF is written as its two UTF-16 surrogates, 3 bytes each (Unicode Technical Report
//! #26). Unlike modified UTF-8, U+0000 is a raw `00`, and `C0 80` (as every overlong form) is
//! malformed.
//!
//! ```
//! use wirebytes_mutf8::cesu8;
//!
//! let bytes = cesu8::encode("nul \0, emoji \u{1F600}");
//! assert_eq!(bytes, &b"nul \x00, emoji \xed\xa0\xbd\xed\xb8\x80"[..]);
//! assert_eq!(cesu8::decode(&bytes)?, "nul \0, emoji \u{1F600}");
//! assert!(cesu8::decode(b"\xc0\x80").is_err());
//! # Ok::<(), wirebytes_mutf8::DecodeError>(())
//! ```
//!
//! The module has the crate's forms under the same names: [`decode`], [`decode_to_utf16`]
//! and [`validate`]; [`encode`], [`encode_to_vec`], [`encode_to_slice`], [`encode_to_buf`]
//! (feature `bytes`), [`encoded_len`] and [`max_encoded_len`]; [`encode_from_utf16`],
//! [`encode_from_utf16_to_vec`], [`encode_from_utf16_to_slice`] and
//! [`encoded_len_from_utf16`].
//!
//! See the [crate documentation](crate) for this rule beside `readUTF`'s and the class-file
//! parser's. A lone surrogate is accepted by the JDK's decoder (returned as a `char`); a
//! `str` cannot hold it, so [`decode`] reports
//! [`UnpairedSurrogate`](crate::DecodeErrorKind::UnpairedSurrogate) there, and
//! [`decode_to_utf16`] returns it. The JDK's encoder writes `?` for a lone surrogate.

use alloc::borrow::Cow;
use alloc::vec::Vec;

use crate::DecodeError;
use crate::arch::Kernels;
use crate::encode::{
    Cesu8, encode_cow, str_len, to_slice, to_vec, units_len, units_to_slice, units_to_vec,
};
use crate::strict::{self, Nul};

/// Decodes CESU-8 as the JDK's "CESU-8" charset does, borrowing the input when it already is
/// the text (UTF-8 without a 4-byte sequence).
///
/// Otherwise the text is rewritten in one pass: surrogate pairs become chars above U+FFFF.
///
/// # Errors
///
/// Where the JDK's decoder reports malformed input (with `CodingErrorAction.REPORT`): a
/// [`DecodeError`] whose [`valid_up_to`](DecodeError::valid_up_to) is the index the JDK
/// reports, the start of the sequence; [`Truncated`](crate::DecodeErrorKind::Truncated) when
/// the input ends inside a sequence, else [`Malformed`](crate::DecodeErrorKind::Malformed)
/// (a byte that cannot start a sequence, `C0`, `C1` and the other overlong forms, a bad
/// continuation byte, a 4-byte sequence). Where the JDK returns a lone surrogate, which a
/// `str` cannot hold, [`UnpairedSurrogate`](crate::DecodeErrorKind::UnpairedSurrogate) at
/// the first one. [`jdk_position`](DecodeError::jdk_position) is `valid_up_to` for
/// `Malformed`: the decoder's position when it reports.
///
/// # Examples
///
/// ```
/// use std::borrow::Cow;
/// use wirebytes_mutf8::{cesu8, DecodeErrorKind};
///
/// assert!(matches!(cesu8::decode(b"plain\x00"), Ok(Cow::Borrowed("plain\0"))));
/// assert_eq!(cesu8::decode(b"\xed\xa0\xbd\xed\xb8\x80").unwrap(), "\u{1F600}");
/// let err = cesu8::decode(b"ab\xc0\x80").unwrap_err();
/// assert_eq!((err.kind(), err.valid_up_to()), (DecodeErrorKind::Malformed, 2));
/// let err = cesu8::decode(b"\xed\xb0\x80").unwrap_err();
/// assert_eq!(err.kind(), DecodeErrorKind::UnpairedSurrogate);
/// ```
#[must_use = "the decoded text, or where the input is malformed"]
pub fn decode(bytes: &[u8]) -> Result<Cow<'_, str>, DecodeError> {
    strict::decode(bytes, Nul::Raw, Kernels::detect())
}

/// [`decode`] with `kernels`.
pub(crate) fn decode_with(bytes: &[u8], kernels: Kernels) -> Result<Cow<'_, str>, DecodeError> {
    strict::decode(bytes, Nul::Raw, kernels)
}

/// Decodes CESU-8 as the JDK's "CESU-8" charset does into UTF-16 chars, lone surrogates
/// included.
///
/// # Errors
///
/// As [`decode`], never `UnpairedSurrogate`.
///
/// # Examples
///
/// ```
/// use wirebytes_mutf8::cesu8;
///
/// assert_eq!(cesu8::decode_to_utf16(b"a\x00\xed\xb0\x80"), Ok(vec![0x61, 0, 0xdc00]));
/// assert_eq!(cesu8::decode_to_utf16(b"ab\xc0\x80").unwrap_err().valid_up_to(), 2);
/// ```
#[must_use = "the decoded chars, or where the input is malformed"]
pub fn decode_to_utf16(bytes: &[u8]) -> Result<Vec<u16>, DecodeError> {
    strict::decode_to_utf16(bytes, Nul::Raw)
}

/// Checks that the JDK's "CESU-8" decoder accepts `bytes`, without decoding them and without
/// allocating: exactly what [`decode_to_utf16`] accepts, with its error.
///
/// # Errors
///
/// As [`decode_to_utf16`].
///
/// # Examples
///
/// ```
/// use wirebytes_mutf8::cesu8;
///
/// assert!(cesu8::validate(b"raw \x00, a lone \xed\xa0\x80").is_ok());
/// assert_eq!(cesu8::validate(b"ab\xc0\x80").unwrap_err().valid_up_to(), 2);
/// ```
#[must_use = "whether the input is CESU-8"]
pub fn validate(bytes: &[u8]) -> Result<(), DecodeError> {
    strict::validate(bytes, Nul::Raw, Kernels::detect())
}

/// [`validate`] with `kernels`.
pub(crate) fn validate_with(bytes: &[u8], kernels: Kernels) -> Result<(), DecodeError> {
    strict::validate(bytes, Nul::Raw, kernels)
}

/// Encodes text as the JDK's "CESU-8" charset does (`String.getBytes("CESU-8")`), borrowing
/// the text's bytes unless it holds a char above U+FFFF.
///
/// Those are written as their two surrogates, 3 bytes each; everything else (U+0000 too) as
/// in UTF-8. The owned result is exactly [`encoded_len`] bytes long.
///
/// # Examples
///
/// ```
/// use std::borrow::Cow;
/// use wirebytes_mutf8::cesu8;
///
/// assert!(matches!(cesu8::encode("caf\u{e9} \0"), Cow::Borrowed(b"caf\xc3\xa9 \x00")));
/// assert_eq!(cesu8::encode("\u{10400}"), &b"\xed\xa0\x81\xed\xb0\x80"[..]);
/// ```
#[must_use]
pub fn encode(text: &str) -> Cow<'_, [u8]> {
    encode_cow::<Cesu8>(text)
}

/// Appends what [`encode()`] gives for `text` to `dst`, reserving room once and without
/// zero-filling it.
///
/// # Examples
///
/// ```
/// use wirebytes_mutf8::cesu8;
///
/// let mut out = b">".to_vec();
/// cesu8::encode_to_vec("\0\u{10400}", &mut out);
/// assert_eq!(out, b">\x00\xed\xa0\x81\xed\xb0\x80");
/// ```
pub fn encode_to_vec(text: &str, dst: &mut Vec<u8>) {
    to_vec::<Cesu8>(text, dst);
}

/// Writes what [`encode()`] gives for `text` to the start of `dst`, in one pass: the number
/// of bytes written, or `None` when `dst` is shorter than that (it then holds some of the
/// bytes, never more than its length). [`max_encoded_len`]`(text.len())` bytes always
/// suffice.
///
/// # Examples
///
/// ```
/// use wirebytes_mutf8::cesu8;
///
/// let mut buf = [0u8; 8];
/// assert_eq!(cesu8::encode_to_slice("\0\u{10400}", &mut buf), Some(7));
/// assert_eq!(cesu8::encode_to_slice("\0\u{10400}", &mut buf[..6]), None);
/// ```
#[must_use = "`None` means the slice was too short and holds part of the bytes"]
pub fn encode_to_slice(text: &str, dst: &mut [u8]) -> Option<usize> {
    to_slice::<Cesu8>(text, dst)
}

/// Appends what [`encode()`] gives for `text` to `dst`, straight into the chunks the buffer
/// offers, as [`crate::encode_to_buf`] does.
///
/// # Panics
///
/// When `dst` has room for fewer than [`encoded_len`]`(text)` bytes, before anything is
/// written, as [`BufMut::put_slice`](bytes::BufMut::put_slice) does.
///
/// # Examples
///
/// ```
/// use wirebytes_mutf8::cesu8;
///
/// let mut buf = bytes::BytesMut::new();
/// cesu8::encode_to_buf("\0\u{10400}", &mut buf);
/// assert_eq!(&buf[..], b"\x00\xed\xa0\x81\xed\xb0\x80");
/// ```
#[cfg(feature = "bytes")]
#[cfg_attr(docsrs, doc(cfg(feature = "bytes")))]
pub fn encode_to_buf<B: bytes::BufMut + ?Sized>(text: &str, dst: &mut B) {
    crate::encode::to_buf::<Cesu8, B>(text, dst);
}

/// The length of [`encode()`]'s output, without building it: the text's length plus two per
/// char above U+FFFF. Allocates nothing.
///
/// # Examples
///
/// ```
/// use wirebytes_mutf8::cesu8;
///
/// assert_eq!(cesu8::encoded_len("a\0\u{1F600}"), 1 + 1 + 6);
/// ```
#[must_use]
pub fn encoded_len(text: &str) -> usize {
    str_len::<Cesu8>(text.as_bytes())
}

/// The most bytes [`encode()`] writes for a text of `utf8_len` bytes: `utf8_len +
/// utf8_len / 2`, so that [`encode_to_slice`] into a slice of this length always succeeds.
///
/// Every byte of a `str` is written as it is, but a 4-byte char, written as two 3-byte
/// surrogates: 6 bytes for 4, at most half as many again. The sum saturates at `usize::MAX`,
/// which no text reaches: a `str` holds at most `isize::MAX` bytes.
///
/// # Examples
///
/// ```
/// use wirebytes_mutf8::cesu8;
///
/// assert_eq!(cesu8::max_encoded_len(4), 6);
/// assert_eq!(cesu8::max_encoded_len(usize::MAX), usize::MAX);
/// ```
#[must_use]
pub const fn max_encoded_len(utf8_len: usize) -> usize {
    utf8_len.saturating_add(utf8_len / 2)
}

/// Encodes UTF-16 chars as the JDK's "CESU-8" charset does (`String.getBytes("CESU-8")`):
/// a surrogate pair as its two surrogates, 3 bytes each, and a surrogate that is not part of
/// a pair as `?` (the charset's replacement, which `getBytes` writes for what it cannot
/// encode). The `Vec` is exactly as long as it needs to be.
///
/// # Examples
///
/// ```
/// use wirebytes_mutf8::cesu8;
///
/// assert_eq!(cesu8::encode_from_utf16(&[0x61, 0, 0xd83d, 0xde00]), b"a\x00\xed\xa0\xbd\xed\xb8\x80");
/// assert_eq!(cesu8::encode_from_utf16(&[0xd83d, 0x61, 0xde00]), b"?a?");
/// ```
#[must_use]
pub fn encode_from_utf16(src: &[u16]) -> Vec<u8> {
    let mut out = Vec::new();
    units_to_vec::<Cesu8>(src, &mut out);
    out
}

/// Appends what [`encode_from_utf16`] gives for `src` to `dst`, reserving room once and
/// without zero-filling it.
///
/// # Examples
///
/// ```
/// use wirebytes_mutf8::cesu8;
///
/// let mut out = b">".to_vec();
/// cesu8::encode_from_utf16_to_vec(&[0, 0xd800], &mut out);
/// assert_eq!(out, b">\x00?");
/// ```
pub fn encode_from_utf16_to_vec(src: &[u16], dst: &mut Vec<u8>) {
    units_to_vec::<Cesu8>(src, dst);
}

/// Writes what [`encode_from_utf16`] gives for `src` to the start of `dst`, in one pass: the
/// number of bytes written, or `None` when `dst` is shorter than that (it then holds some of
/// the bytes). Three bytes per unit always suffice.
///
/// # Examples
///
/// ```
/// use wirebytes_mutf8::cesu8;
///
/// let mut buf = [0u8; 6];
/// assert_eq!(cesu8::encode_from_utf16_to_slice(&[0xd83d, 0xde00], &mut buf), Some(6));
/// assert_eq!(cesu8::encode_from_utf16_to_slice(&[0xd83d, 0xde00], &mut buf[..5]), None);
/// ```
#[must_use = "`None` means the slice was too short and holds part of the bytes"]
pub fn encode_from_utf16_to_slice(src: &[u16], dst: &mut [u8]) -> Option<usize> {
    units_to_slice::<Cesu8>(src, dst)
}

/// The length of [`encode_from_utf16`]'s output, without building it. Allocates nothing.
///
/// # Examples
///
/// ```
/// use wirebytes_mutf8::cesu8;
///
/// assert_eq!(cesu8::encoded_len_from_utf16(&[0, 0xe9, 0xd83d, 0xde00, 0xdc00]), 1 + 2 + 6 + 1);
/// ```
#[must_use]
pub fn encoded_len_from_utf16(src: &[u16]) -> usize {
    units_len::<Cesu8>(src)
}
