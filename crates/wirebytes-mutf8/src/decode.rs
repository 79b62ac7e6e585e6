//! Decoding: borrow when the bytes already are the `str`, else one transcoding pass.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

use crate::DecodeError;
use crate::reference::lossy_skip;
use crate::scan::{Class, ascii_end, classify};

/// U+FFFD in UTF-8.
const REPLACEMENT: [u8; 3] = [0xEF, 0xBF, 0xBD];

/// The sequence at `i`, whose lead is not ASCII: its char and length, or the JDK's error.
/// The JDK's order of checks: the lead, then the length, then the continuation bytes.
#[inline(always)]
fn sequence(bytes: &[u8], i: usize) -> Result<(u32, usize), DecodeError> {
    let c = bytes[i];
    if c & 0xE0 == 0xC0 {
        let Some(&c2) = bytes.get(i + 1) else {
            return Err(DecodeError::truncated(i));
        };
        if c2 & 0xC0 != 0x80 {
            return Err(DecodeError::bad_continuation(i));
        }
        Ok(((u32::from(c & 0x1F) << 6) | u32::from(c2 & 0x3F), 2))
    } else if c & 0xF0 == 0xE0 {
        if i + 3 > bytes.len() {
            return Err(DecodeError::truncated(i));
        }
        let (c2, c3) = (bytes[i + 1], bytes[i + 2]);
        if (c2 & 0xC0 != 0x80) | (c3 & 0xC0 != 0x80) {
            return Err(DecodeError::bad_continuation(i));
        }
        let v = (u32::from(c & 0x0F) << 12) | (u32::from(c2 & 0x3F) << 6) | u32::from(c3 & 0x3F);
        Ok((v, 3))
    } else {
        Err(DecodeError::bad_lead(i))
    }
}

/// The low surrogate encoded at `j` (`ED B0..BF 80..BF`), if there is one.
#[inline(always)]
fn low_surrogate_at(bytes: &[u8], j: usize) -> Option<u32> {
    match bytes.get(j..j + 3)? {
        &[0xED, c2, c3] if c2 & 0xF0 == 0xB0 && c3 & 0xC0 == 0x80 => {
            Some(0xD000 | (u32::from(c2 & 0x3F) << 6) | u32::from(c3 & 0x3F))
        }
        _ => None,
    }
}

/// The JDK's first error in `bytes[from..]`, `from` being the start of a sequence.
fn first_error(bytes: &[u8], mut from: usize) -> Option<DecodeError> {
    loop {
        from = ascii_end(bytes, from);
        if from == bytes.len() {
            return None;
        }
        match sequence(bytes, from) {
            Ok((_, len)) => from += len,
            Err(err) => return Some(err),
        }
    }
}

/// Appends `v < 0x800` as UTF-8.
#[inline(always)]
fn push_short(out: &mut Vec<u8>, v: u32) {
    if v < 0x80 {
        out.push(v as u8);
    } else {
        out.extend_from_slice(&[0xC0 | (v >> 6) as u8, 0x80 | (v & 0x3F) as u8]);
    }
}

/// The one pass that rewrites modified UTF-8 as UTF-8: ASCII runs are found eight bytes at a
/// time and copied in bulk; sequences that are already UTF-8 are copied as they are; `C0 80`,
/// overlongs and surrogate pairs are rewritten inline.
///
/// Strict (`LOSSY = false`): stops at the JDK's first error, or at the first lone surrogate
/// when the JDK accepts the rest. Lossy: U+FFFD as [`crate::reference::decode_lossy`] puts
/// them, never an error.
fn to_utf8<const LOSSY: bool>(bytes: &[u8]) -> Result<String, DecodeError> {
    let n = bytes.len();
    // Every rewrite shrinks or keeps the length, except U+FFFD for a lone bad byte.
    let mut out = Vec::with_capacity(n);
    let mut i = 0;
    while i < n {
        let end = ascii_end(bytes, i);
        out.extend_from_slice(&bytes[i..end]);
        i = end;
        while i < n && bytes[i] >= 0x80 {
            match sequence(bytes, i) {
                Ok((v, 2)) => {
                    if v >= 0x80 {
                        // C2..DF: the same bytes in UTF-8.
                        out.extend_from_slice(&bytes[i..i + 2]);
                    } else {
                        // C0 80 and the overlong C0/C1 forms.
                        out.push(v as u8);
                    }
                    i += 2;
                }
                Ok((v, _)) => {
                    if v >= 0x800 && !(0xD800..0xE000).contains(&v) {
                        out.extend_from_slice(&bytes[i..i + 3]);
                    } else if v < 0x800 {
                        push_short(&mut out, v);
                    } else if let Some(low) = low_surrogate_at(bytes, i + 3).filter(|_| v < 0xDC00)
                    {
                        let s = 0x10000 + ((v - 0xD800) << 10) + (low - 0xDC00);
                        out.extend_from_slice(&[
                            0xF0 | (s >> 18) as u8,
                            0x80 | ((s >> 12) & 0x3F) as u8,
                            0x80 | ((s >> 6) & 0x3F) as u8,
                            0x80 | (s & 0x3F) as u8,
                        ]);
                        i += 3;
                    } else if LOSSY {
                        out.extend_from_slice(&REPLACEMENT);
                    } else {
                        // A str cannot hold it; but if the JDK rejects the body, say why.
                        return Err(
                            first_error(bytes, i + 3).unwrap_or(DecodeError::unpaired_surrogate(i))
                        );
                    }
                    i += 3;
                }
                Err(err) => {
                    if !LOSSY {
                        return Err(err);
                    }
                    out.extend_from_slice(&REPLACEMENT);
                    i += lossy_skip(bytes, i);
                }
            }
        }
    }
    Ok(String::from_utf8(out).expect("the transcoder writes UTF-8 only"))
}

/// Decodes a modified UTF-8 body (what `DataInput.readUTF` reads after the length) into a
/// `str`, exactly as the JDK would, borrowing the input when it already is that `str`.
///
/// The result is borrowed when the bytes are valid UTF-8 without a 4-byte sequence (plain
/// text, raw `00` included): then modified UTF-8 and UTF-8 read the same. Otherwise (`C0 80`,
/// overlong forms, surrogate pairs) it is rewritten in one pass into a `String` of at most
/// `bytes.len()` bytes.
///
/// # Errors
///
/// Where the JDK throws, the same error ([`DecodeErrorKind::Malformed`] at the JDK's position,
/// or [`DecodeErrorKind::Truncated`]); where the JDK returns a lone surrogate, which a `str`
/// cannot hold, [`DecodeErrorKind::UnpairedSurrogate`] at the first one. See [`DecodeError`]
/// for the positions.
///
/// [`DecodeErrorKind::Malformed`]: crate::DecodeErrorKind::Malformed
/// [`DecodeErrorKind::Truncated`]: crate::DecodeErrorKind::Truncated
/// [`DecodeErrorKind::UnpairedSurrogate`]: crate::DecodeErrorKind::UnpairedSurrogate
///
/// # Examples
///
/// ```
/// use std::borrow::Cow;
/// use wirebytes_mutf8::decode;
///
/// assert!(matches!(decode("plain ütf-8".as_bytes()), Ok(Cow::Borrowed("plain ütf-8"))));
/// assert_eq!(decode(b"nul \xc0\x80, raw \x00").unwrap(), "nul \0, raw \0");
/// assert_eq!(decode(b"\xed\xa0\xbd\xed\xb8\x80").unwrap(), "\u{1F600}");
/// assert_eq!(decode(b"\xc1\x81").unwrap(), "A"); // an overlong form: the JDK accepts it
/// assert!(decode("\u{1F600}".as_bytes()).is_err()); // 4-byte UTF-8: the JDK does not
/// ```
pub fn decode(bytes: &[u8]) -> Result<Cow<'_, str>, DecodeError> {
    match classify(bytes) {
        Class::Ascii | Class::Multibyte => {
            if let Ok(text) = simdutf8::basic::from_utf8(bytes) {
                return Ok(Cow::Borrowed(text));
            }
        }
        Class::FourByte => {}
    }
    to_utf8::<false>(bytes).map(Cow::Owned)
}

/// [`decode`] into a `String` that reuses `bytes`' buffer when they already are the text:
/// for readers that own the body.
#[cfg(any(feature = "std", feature = "bytes"))]
pub(crate) fn decode_vec(bytes: Vec<u8>) -> Result<String, DecodeError> {
    let bytes = if classify(&bytes) == Class::FourByte {
        bytes
    } else {
        match String::from_utf8(bytes) {
            Ok(text) => return Ok(text),
            Err(err) => err.into_bytes(),
        }
    };
    to_utf8::<false>(&bytes)
}

/// Decodes like [`decode`], but never fails: U+FFFD stands for what `decode` rejects.
///
/// One U+FFFD replaces each lone surrogate, each byte that cannot start a sequence, and each
/// sequence with a bad or missing continuation byte together with the continuation bytes
/// that do follow its lead (the Unicode standard's "maximal subpart" practice). A 4-byte
/// UTF-8 sequence, which the JDK rejects, becomes one U+FFFD per byte. Decoding goes on after
/// each, where the JDK would have stopped.
///
/// # Examples
///
/// ```
/// use wirebytes_mutf8::decode_lossy;
///
/// assert_eq!(decode_lossy(b"ok \xc0\x80"), "ok \0");
/// assert_eq!(decode_lossy(b"lone \xed\xa0\x80, bad \xff, cut \xe2\x82"), "lone \u{FFFD}, bad \u{FFFD}, cut \u{FFFD}");
/// ```
#[must_use]
pub fn decode_lossy(bytes: &[u8]) -> Cow<'_, str> {
    match decode(bytes) {
        Ok(text) => text,
        Err(_) => match to_utf8::<true>(bytes) {
            Ok(text) => Cow::Owned(text),
            Err(_) => unreachable!("the lossy transcoder has no error"),
        },
    }
}

/// Decodes a modified UTF-8 body into the UTF-16 chars the JDK's `readUTF` returns, lone
/// surrogates included.
///
/// ASCII runs are widened eight bytes at a time; other sequences are decoded inline.
///
/// # Errors
///
/// Where the JDK throws: [`DecodeErrorKind::Malformed`](crate::DecodeErrorKind::Malformed) at
/// the JDK's position, or [`Truncated`](crate::DecodeErrorKind::Truncated). Never
/// `UnpairedSurrogate`.
///
/// # Examples
///
/// ```
/// use wirebytes_mutf8::decode_utf16;
///
/// assert_eq!(decode_utf16(b"a\xc0\x80\xed\xb0\x80"), Ok(vec![0x61, 0x0000, 0xdc00]));
/// assert_eq!(decode_utf16(b"ab\xe2\x41\x82").unwrap_err().jdk_position(), Some(4));
/// ```
pub fn decode_utf16(bytes: &[u8]) -> Result<Vec<u16>, DecodeError> {
    let n = bytes.len();
    let mut out: Vec<u16> = Vec::with_capacity(n);
    let mut i = 0;
    while i < n {
        let end = ascii_end(bytes, i);
        out.extend(bytes[i..end].iter().map(|&b| u16::from(b)));
        i = end;
        while i < n && bytes[i] >= 0x80 {
            let (v, len) = sequence(bytes, i)?;
            out.push(v as u16);
            i += len;
        }
    }
    Ok(out)
}
