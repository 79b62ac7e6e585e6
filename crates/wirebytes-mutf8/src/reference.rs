//! Plain scalar transcriptions of the JDK's loops: the oracle the fast paths are tested
//! against, and the "old way" the benches compare with.
//!
//! [`decode_to_utf16`] is `java.io.DataInputStream.readUTF`'s loop, one byte sequence at a time,
//! with the same checks in the same order; [`encode_from_utf16`] is
//! `java.io.DataOutputStream.writeUTF`'s, one `char` at a time. The other functions are built
//! on these two in the most direct way (collect the chars, then pair the surrogates), with
//! owned results where the fast functions return a `Cow`.
//!
//! [`class_file_decode_to_utf16`] transcribes HotSpot's check of a class file's `CONSTANT_Utf8`
//! (`UTF8::is_legal_utf8`, for class-file versions 48 and up), and [`cesu8_decode_to_utf16`] and
//! [`cesu8_encode_from_utf16`] the JDK's "CESU-8" charset (`sun.nio.cs.CESU_8`).
//!
//! # Examples
//!
//! ```
//! use wirebytes_mutf8::reference;
//!
//! assert_eq!(reference::decode_to_utf16(b"a\xc0\x80\xed\xa0\x80"), Ok(vec![0x61, 0, 0xd800]));
//! assert_eq!(reference::encode("a\0"), b"a\xc0\x80");
//! ```

use alloc::string::String;
use alloc::vec::Vec;

use crate::DecodeError;
use crate::sequence::subpart_len;

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
                return Step::Error(DecodeError::bad_continuation(bytes, i));
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
                return Step::Error(DecodeError::bad_continuation(bytes, i));
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
/// assert_eq!(reference::decode_to_utf16(b"\xc1\x81"), Ok(vec![0x41]));
/// assert_eq!(reference::decode_to_utf16(b"\xf0").unwrap_err().jdk_position(), Some(0));
/// ```
pub fn decode_to_utf16(bytes: &[u8]) -> Result<Vec<u16>, DecodeError> {
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

/// [`decode_to_utf16`], then the chars paired into a `String`.
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
    pair(&units_with_offsets(bytes)?)
}

/// Chars with the index of the byte each starts at, paired into a `String`; the first lone
/// surrogate is an `UnpairedSurrogate` error at its index.
fn pair(units: &[(u16, usize)]) -> Result<String, DecodeError> {
    let mut out = String::with_capacity(units.len());
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
                i += usize::from(subpart_len(bytes, i));
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
/// assert_eq!(reference::encode_from_utf16(&[0, 0x41, 0xd800]), b"\xc0\x80A\xed\xa0\x80");
/// ```
#[must_use]
pub fn encode_from_utf16(units: &[u16]) -> Vec<u8> {
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

/// [`encode_from_utf16`] of the text's UTF-16 form (what Java's `String` holds).
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
    encode_from_utf16(&units)
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

/// HotSpot's check of a `CONSTANT_Utf8` for class files of version 48 and up
/// (`UTF8::is_legal_utf8`), one byte at a time as it goes, made to return the chars it
/// passed over with the index of each, or an error at the start of the sequence where it
/// returns `false`: `Truncated` when the sequence runs past the end (it checks that first),
/// else `Malformed`.
///
/// Its look-ahead for a surrogate pair (`ED A0..AF xx ED B0..BF xx`) accepts nothing that
/// the two 3-byte sequences would not; the pair is paired by [`class_file_decode`].
fn class_file_units(bytes: &[u8]) -> Result<Vec<(u16, usize)>, DecodeError> {
    let length = bytes.len();
    let mut out = Vec::with_capacity(length);
    let mut i = 0;
    while i < length {
        let start = i;
        let b = bytes[i];
        // No embedded zeros.
        if b == 0 {
            return Err(DecodeError::rejected(bytes, start));
        }
        if b < 128 {
            out.push((u16::from(b), start));
            i += 1;
            continue;
        }
        match b >> 4 {
            0x8..=0xB | 0xF => return Err(DecodeError::rejected(bytes, start)),
            0xC | 0xD => {
                let mut c = u16::from(b & 0x1F) << 6;
                i += 1;
                if i >= length {
                    return Err(DecodeError::truncated(start));
                }
                if bytes[i] & 0xC0 != 0x80 {
                    return Err(DecodeError::rejected(bytes, start));
                }
                c += u16::from(bytes[i] & 0x3F);
                if !(c == 0 || c >= 0x80) {
                    return Err(DecodeError::rejected(bytes, start));
                }
                out.push((c, start));
            }
            _ => {
                // 0xE
                let mut c = u16::from(b & 0xF) << 12;
                i += 2;
                if i >= length {
                    return Err(DecodeError::truncated(start));
                }
                if bytes[i - 1] & 0xC0 != 0x80 || bytes[i] & 0xC0 != 0x80 {
                    return Err(DecodeError::rejected(bytes, start));
                }
                c += (u16::from(bytes[i - 1] & 0x3F) << 6) + u16::from(bytes[i] & 0x3F);
                if c < 0x800 {
                    return Err(DecodeError::rejected(bytes, start));
                }
                out.push((c, start));
            }
        }
        i += 1;
    }
    Ok(out)
}

/// What HotSpot accepts in a `CONSTANT_Utf8` of a class file of version 48 and up, as chars
/// (lone surrogates included): its check (`UTF8::is_legal_utf8`) one byte at a time as it
/// goes, with the chars it passes over. (Its look-ahead for a surrogate pair accepts nothing
/// that the two 3-byte sequences would not.)
///
/// # Errors
///
/// Where HotSpot rejects the entry: `Truncated` at a sequence that runs past the end,
/// `Malformed` at any other offending sequence (a raw `00`, a bad lead or continuation byte,
/// an overlong form other than `C0 80`).
///
/// # Examples
///
/// ```
/// use wirebytes_mutf8::reference;
///
/// assert_eq!(reference::class_file_decode_to_utf16(b"a\xc0\x80\xed\xa0\x80"), Ok(vec![0x61, 0, 0xd800]));
/// assert!(reference::class_file_decode_to_utf16(b"a\x00").is_err());
/// assert!(reference::class_file_decode_to_utf16(b"\xc1\x81").is_err());
/// ```
pub fn class_file_decode_to_utf16(bytes: &[u8]) -> Result<Vec<u16>, DecodeError> {
    Ok(class_file_units(bytes)?
        .into_iter()
        .map(|(u, _)| u)
        .collect())
}

/// [`class_file_decode_to_utf16`], then the chars paired into a `String`.
///
/// # Errors
///
/// HotSpot's rejection, else `UnpairedSurrogate` at the first lone surrogate.
///
/// # Examples
///
/// ```
/// use wirebytes_mutf8::reference;
///
/// assert_eq!(reference::class_file_decode(b"\xed\xa0\xbd\xed\xb8\x80").as_deref(), Ok("\u{1F600}"));
/// ```
pub fn class_file_decode(bytes: &[u8]) -> Result<String, DecodeError> {
    pair(&class_file_units(bytes)?)
}

/// The JDK's "CESU-8" decoder (`sun.nio.cs.CESU_8`), one sequence at a time as its array
/// loop goes, with the chars and the index each starts at, or an error where it reports
/// malformed input: at the start of the sequence; `Truncated` where the input ends inside a
/// sequence it has not found malformed.
fn cesu8_units(bytes: &[u8]) -> Result<Vec<(u16, usize)>, DecodeError> {
    let sl = bytes.len();
    let mut out = Vec::with_capacity(sl);
    let mut sp = 0;
    let continuation = |b: u8| b & 0xC0 == 0x80;
    while sp < sl {
        let b1 = bytes[sp];
        if b1 < 0x80 {
            out.push((u16::from(b1), sp));
            sp += 1;
        } else if b1 >> 5 == 0b110 && b1 & 0x1E != 0 {
            if sl - sp < 2 {
                return Err(DecodeError::truncated(sp));
            }
            let b2 = bytes[sp + 1];
            if !continuation(b2) {
                return Err(DecodeError::rejected(bytes, sp));
            }
            out.push(((u16::from(b1 & 0x1F) << 6) | u16::from(b2 & 0x3F), sp));
            sp += 2;
        } else if b1 >> 4 == 0b1110 {
            let malformed_2 = |b2: u8| (b1 == 0xE0 && b2 & 0xE0 == 0x80) || !continuation(b2);
            if sl - sp < 3 {
                if sl - sp > 1 && malformed_2(bytes[sp + 1]) {
                    return Err(DecodeError::rejected(bytes, sp));
                }
                return Err(DecodeError::truncated(sp));
            }
            let (b2, b3) = (bytes[sp + 1], bytes[sp + 2]);
            if malformed_2(b2) || !continuation(b3) {
                return Err(DecodeError::rejected(bytes, sp));
            }
            out.push((
                (u16::from(b1 & 0x0F) << 12) | (u16::from(b2 & 0x3F) << 6) | u16::from(b3 & 0x3F),
                sp,
            ));
            sp += 3;
        } else {
            return Err(DecodeError::rejected(bytes, sp));
        }
    }
    Ok(out)
}

/// The chars the JDK's "CESU-8" decoder returns, lone surrogates included.
///
/// # Errors
///
/// Where it reports malformed input: `Malformed` at the start of the sequence, or
/// `Truncated` where the input ends inside a sequence.
///
/// # Examples
///
/// ```
/// use wirebytes_mutf8::reference;
///
/// assert_eq!(reference::cesu8_decode_to_utf16(b"a\x00\xed\xb0\x80"), Ok(vec![0x61, 0, 0xdc00]));
/// assert!(reference::cesu8_decode_to_utf16(b"\xc0\x80").is_err());
/// ```
pub fn cesu8_decode_to_utf16(bytes: &[u8]) -> Result<Vec<u16>, DecodeError> {
    Ok(cesu8_units(bytes)?.into_iter().map(|(u, _)| u).collect())
}

/// [`cesu8_decode_to_utf16`], then the chars paired into a `String`.
///
/// # Errors
///
/// The JDK's malformed input, else `UnpairedSurrogate` at the first lone surrogate.
///
/// # Examples
///
/// ```
/// use wirebytes_mutf8::reference;
///
/// assert_eq!(reference::cesu8_decode(b"\xed\xa0\xbd\xed\xb8\x80\x00").as_deref(), Ok("\u{1F600}\0"));
/// ```
pub fn cesu8_decode(bytes: &[u8]) -> Result<String, DecodeError> {
    pair(&cesu8_units(bytes)?)
}

/// What the JDK's "CESU-8" charset writes for these chars (`String.getBytes`): each char
/// below U+0080 (U+0000 too) as one byte, below U+0800 as two, a surrogate pair as two 3-byte
/// sequences, every other char as three; `?` for a surrogate that is not part of a pair.
///
/// # Examples
///
/// ```
/// use wirebytes_mutf8::reference;
///
/// assert_eq!(reference::cesu8_encode_from_utf16(&[0, 0xd83d, 0xde00, 0xdc00]), b"\x00\xed\xa0\xbd\xed\xb8\x80?");
/// ```
#[must_use]
pub fn cesu8_encode_from_utf16(units: &[u16]) -> Vec<u8> {
    let mut out = Vec::with_capacity(units.len());
    let mut k = 0;
    while k < units.len() {
        let c = units[k];
        let paired = (0xD800..0xDC00).contains(&c)
            && units
                .get(k + 1)
                .is_some_and(|low| (0xDC00..0xE000).contains(low));
        if paired {
            out.extend(encode_from_utf16(&units[k..k + 2]));
            k += 2;
            continue;
        }
        if (0xD800..0xE000).contains(&c) {
            out.push(b'?');
        } else if c < 0x80 {
            out.push(c as u8);
        } else {
            out.extend(encode_from_utf16(&[c]));
        }
        k += 1;
    }
    out
}

/// [`cesu8_encode_from_utf16`] of the text's UTF-16 form.
///
/// # Examples
///
/// ```
/// use wirebytes_mutf8::reference;
///
/// assert_eq!(reference::cesu8_encode("\0\u{1F600}"), b"\x00\xed\xa0\xbd\xed\xb8\x80");
/// ```
#[must_use]
pub fn cesu8_encode(text: &str) -> Vec<u8> {
    let units: Vec<u16> = text.encode_utf16().collect();
    cesu8_encode_from_utf16(&units)
}
