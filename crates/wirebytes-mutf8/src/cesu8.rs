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
//! See the [crate documentation](crate) for this rule beside `readUTF`'s and the class-file
//! parser's. A lone surrogate is accepted by the JDK's decoder (returned as a `char`); a
//! `str` cannot hold it, so [`decode`] reports
//! [`UnpairedSurrogate`](crate::DecodeErrorKind::UnpairedSurrogate) there.

use alloc::borrow::Cow;
use alloc::vec::Vec;

use crate::DecodeError;
use crate::arch::Kernels;
use crate::scan::{Class, classify};
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
pub fn decode(bytes: &[u8]) -> Result<Cow<'_, str>, DecodeError> {
    strict::decode(bytes, Nul::Raw, Kernels::detect())
}

/// [`decode`] with `kernels`.
pub(crate) fn decode_with(bytes: &[u8], kernels: Kernels) -> Result<Cow<'_, str>, DecodeError> {
    strict::decode(bytes, Nul::Raw, kernels)
}

/// Encodes text as the JDK's "CESU-8" charset does (`String.getBytes("CESU-8")`), borrowing
/// the text's bytes unless it holds a char above U+FFFF.
///
/// Those are written as their two surrogates, 3 bytes each; everything else (U+0000 too) as
/// in UTF-8. The owned result is exactly as long as it needs to be.
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
    let bytes = text.as_bytes();
    if classify(bytes) != Class::FourByte {
        return Cow::Borrowed(bytes);
    }
    let supplementary = text.chars().filter(|c| c.len_utf8() == 4).count();
    let mut out = Vec::with_capacity(bytes.len() + 2 * supplementary);
    let mut i = 0;
    while i < bytes.len() {
        let end = bytes[i..]
            .iter()
            .position(|&b| b >= 0xF0)
            .map_or(bytes.len(), |k| i + k);
        out.extend_from_slice(&bytes[i..end]);
        if end < bytes.len() {
            out.extend_from_slice(&crate::encode::surrogates(&bytes[end..end + 4]));
            i = end + 4;
        } else {
            i = end;
        }
    }
    Cow::Owned(out)
}

/// Encodes UTF-16 chars as the JDK's "CESU-8" charset does (`String.getBytes("CESU-8")`):
/// a surrogate pair as its two surrogates, 3 bytes each, and a surrogate that is not part of
/// a pair as `?` (the charset's replacement, which `getBytes` writes for what it cannot
/// encode).
///
/// # Examples
///
/// ```
/// use wirebytes_mutf8::cesu8;
///
/// assert_eq!(cesu8::encode_utf16(&[0x61, 0, 0xd83d, 0xde00]), b"a\x00\xed\xa0\xbd\xed\xb8\x80");
/// assert_eq!(cesu8::encode_utf16(&[0xd83d, 0x61, 0xde00]), b"?a?");
/// ```
#[must_use]
pub fn encode_utf16(units: &[u16]) -> Vec<u8> {
    let mut out = Vec::with_capacity(units.len() + units.len() / 2);
    let mut k = 0;
    while k < units.len() {
        let c = units[k];
        if c < 0x80 {
            out.push(c as u8);
        } else if c < 0x800 {
            out.extend_from_slice(&[0xC0 | (c >> 6) as u8, 0x80 | (c & 0x3F) as u8]);
        } else if (0xD800..0xE000).contains(&c) {
            let paired = c < 0xDC00
                && units
                    .get(k + 1)
                    .is_some_and(|&low| (0xDC00..0xE000).contains(&low));
            if !paired {
                out.push(b'?');
                k += 1;
                continue;
            }
            for unit in [c, units[k + 1]] {
                out.extend_from_slice(&three_bytes(unit));
            }
            k += 2;
            continue;
        } else {
            out.extend_from_slice(&three_bytes(c));
        }
        k += 1;
    }
    out
}

/// The 3-byte form of a char of U+0800..U+FFFF (a surrogate too).
#[inline(always)]
fn three_bytes(c: u16) -> [u8; 3] {
    [
        0xE0 | (c >> 12) as u8,
        0x80 | ((c >> 6) & 0x3F) as u8,
        0x80 | (c & 0x3F) as u8,
    ]
}
