//! Plain scalar transcriptions of the JDK's loops: the oracle the fast paths are tested
//! against, and the "old way" the benches compare with.
//!
//! [`decode_utf16`] is `java.io.DataInputStream.readUTF`'s loop, one byte sequence at a time,
//! with the same checks in the same order; [`encode_utf16`] is
//! `java.io.DataOutputStream.writeUTF`'s, one `char` at a time. The other functions are built
//! on these two in the most direct way (collect the chars, then pair the surrogates), with
//! owned results where the fast functions return a `Cow`.
//!
//! # Examples
//!
//! ```
//! use wirebytes_mutf8::reference;
//!
//! assert_eq!(reference::decode_utf16(b"a\xc0\x80\xed\xa0\x80"), Ok(vec![0x61, 0, 0xd800]));
//! assert_eq!(reference::encode("a\0"), b"a\xc0\x80");
//! ```

use alloc::string::String;
use alloc::vec::Vec;

use crate::DecodeError;
use crate::sequence::lossy_skip;

/// What the JDK's loop does with the sequence that starts at one index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    /// One char, from `len` bytes.
    Char { unit: u16, len: usize },
    /// The JDK throws.
    Error(DecodeError),
}

/// The body of the JDK's `readUTF` loop for the sequence starting at `i < bytes.len()`.
fn step(bytes: &[u8], i: usize) -> Step {
    let c = bytes[i];
    match c >> 4 {
        // 0xxxxxxx
        0..=7 => Step::Char {
            unit: u16::from(c),
            len: 1,
        },
        // 110xxxxx 10xxxxxx: the length is checked before the continuation byte.
        12 | 13 => {
            if i + 2 > bytes.len() {
                return Step::Error(DecodeError::truncated(i));
            }
            let c2 = bytes[i + 1];
            if c2 & 0xC0 != 0x80 {
                return Step::Error(DecodeError::bad_continuation(i));
            }
            Step::Char {
                unit: (u16::from(c & 0x1F) << 6) | u16::from(c2 & 0x3F),
                len: 2,
            }
        }
        // 1110xxxx 10xxxxxx 10xxxxxx: both continuation bytes are checked together.
        14 => {
            if i + 3 > bytes.len() {
                return Step::Error(DecodeError::truncated(i));
            }
            let (c2, c3) = (bytes[i + 1], bytes[i + 2]);
            if c2 & 0xC0 != 0x80 || c3 & 0xC0 != 0x80 {
                return Step::Error(DecodeError::bad_continuation(i));
            }
            Step::Char {
                unit: (u16::from(c & 0x0F) << 12)
                    | (u16::from(c2 & 0x3F) << 6)
                    | u16::from(c3 & 0x3F),
                len: 3,
            }
        }
        // 10xxxxxx, 1111xxxx
        _ => Step::Error(DecodeError::bad_lead(i)),
    }
}

/// The JDK's chars with the index of the byte each one starts at, or the JDK's error.
fn units_with_offsets(bytes: &[u8]) -> Result<Vec<(u16, usize)>, DecodeError> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match step(bytes, i) {
            Step::Char { unit, len } => {
                out.push((unit, i));
                i += len;
            }
            Step::Error(err) => return Err(err),
        }
    }
    Ok(out)
}

/// `DataInputStream.readUTF`'s loop on a body: the chars it returns, or where it throws.
///
/// # Errors
///
/// [`DecodeErrorKind::Malformed`](crate::DecodeErrorKind::Malformed) or
/// [`Truncated`](crate::DecodeErrorKind::Truncated), where the JDK throws.
///
/// # Examples
///
/// ```
/// use wirebytes_mutf8::reference;
///
/// assert_eq!(reference::decode_utf16(b"\xc1\x81"), Ok(vec![0x41]));
/// assert_eq!(reference::decode_utf16(b"\xf0").unwrap_err().jdk_position(), Some(0));
/// ```
pub fn decode_utf16(bytes: &[u8]) -> Result<Vec<u16>, DecodeError> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match step(bytes, i) {
            Step::Char { unit, len } => {
                out.push(unit);
                i += len;
            }
            Step::Error(err) => return Err(err),
        }
    }
    Ok(out)
}

/// [`decode_utf16`], then the chars paired into a `String`.
///
/// # Errors
///
/// The JDK's error if it throws; otherwise
/// [`UnpairedSurrogate`](crate::DecodeErrorKind::UnpairedSurrogate) at the first lone
/// surrogate.
///
/// # Examples
///
/// ```
/// use wirebytes_mutf8::reference;
///
/// assert_eq!(reference::decode(b"\xed\xa0\xbd\xed\xb8\x80").as_deref(), Ok("\u{1F600}"));
/// ```
pub fn decode(bytes: &[u8]) -> Result<String, DecodeError> {
    let units = units_with_offsets(bytes)?;
    let mut out = String::with_capacity(bytes.len());
    let mut k = 0;
    while k < units.len() {
        let (unit, at) = units[k];
        match unit {
            0xD800..=0xDBFF => match units.get(k + 1) {
                Some(&(low @ 0xDC00..=0xDFFF, _)) => {
                    let scalar =
                        0x10000 + ((u32::from(unit) - 0xD800) << 10) + (u32::from(low) - 0xDC00);
                    out.push(char::from_u32(scalar).expect("a surrogate pair is a scalar value"));
                    k += 2;
                    continue;
                }
                _ => return Err(DecodeError::unpaired_surrogate(at)),
            },
            0xDC00..=0xDFFF => return Err(DecodeError::unpaired_surrogate(at)),
            _ => out.push(char::from_u32(u32::from(unit)).expect("not a surrogate")),
        }
        k += 1;
    }
    Ok(out)
}

/// The JDK's loop that keeps going: one U+FFFD for each sequence it would throw at (a bad
/// lead byte; a lead with the continuation bytes that do follow it), and one for each lone
/// surrogate.
///
/// # Examples
///
/// ```
/// use wirebytes_mutf8::reference;
///
/// assert_eq!(reference::decode_lossy(b"a\xe2\x82b\xff\xed\xa0\x80"), "a\u{FFFD}b\u{FFFD}\u{FFFD}");
/// ```
#[must_use]
pub fn decode_lossy(bytes: &[u8]) -> String {
    let mut units = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match step(bytes, i) {
            Step::Char { unit, len } => {
                units.push(unit);
                i += len;
            }
            Step::Error(_) => {
                units.push(0xFFFD);
                i += lossy_skip(bytes, i);
            }
        }
    }
    char::decode_utf16(units)
        .map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
        .collect()
}

/// `DataOutputStream.writeUTF`'s loop: the body bytes for these chars (without the length
/// field, and without its 65535-byte limit). U+0000 is `C0 80`; every other char below
/// U+0080 one byte, below U+0800 two, the rest (surrogates too, one at a time) three.
///
/// # Examples
///
/// ```
/// use wirebytes_mutf8::reference;
///
/// assert_eq!(reference::encode_utf16(&[0, 0x41, 0xd800]), b"\xc0\x80A\xed\xa0\x80");
/// ```
#[must_use]
pub fn encode_utf16(units: &[u16]) -> Vec<u8> {
    let mut out = Vec::with_capacity(units.len());
    for &c in units {
        if (0x0001..=0x007F).contains(&c) {
            out.push(c as u8);
        } else if c <= 0x07FF {
            out.push(0xC0 | ((c >> 6) & 0x1F) as u8);
            out.push(0x80 | (c & 0x3F) as u8);
        } else {
            out.push(0xE0 | ((c >> 12) & 0x0F) as u8);
            out.push(0x80 | ((c >> 6) & 0x3F) as u8);
            out.push(0x80 | (c & 0x3F) as u8);
        }
    }
    out
}

/// [`encode_utf16`] of the text's UTF-16 form (what Java's `String` holds).
///
/// # Examples
///
/// ```
/// use wirebytes_mutf8::reference;
///
/// assert_eq!(reference::encode("\u{1F600}"), b"\xed\xa0\xbd\xed\xb8\x80");
/// ```
#[must_use]
pub fn encode(text: &str) -> Vec<u8> {
    let units: Vec<u16> = text.encode_utf16().collect();
    encode_utf16(&units)
}

/// The length of [`encode`]'s output, char by char.
///
/// # Examples
///
/// ```
/// use wirebytes_mutf8::reference;
///
/// assert_eq!(reference::encoded_len("a\0\u{1F600}"), 1 + 2 + 6);
/// ```
#[must_use]
pub fn encoded_len(text: &str) -> usize {
    text.chars()
        .map(|c| match c {
            '\0' => 2,
            _ if c.len_utf8() == 4 => 6,
            _ => c.len_utf8(),
        })
        .sum()
}
