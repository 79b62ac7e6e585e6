//! Encoding: `writeUTF`'s body bytes, borrowed when they are the `str`'s own bytes.

use alloc::borrow::Cow;
use alloc::vec::Vec;

use crate::scan::{extra_len, needs_encoding, plain_end};

/// Encodes text as `DataOutput.writeUTF` writes it (the body, without the length field),
/// borrowing the text's bytes when they are already those bytes.
///
/// `writeUTF` writes the text's UTF-16 chars one at a time: U+0000 as `C0 80`, a char above
/// U+FFFF as its two surrogates, 3 bytes each; everything else as in UTF-8. So the result is
/// borrowed unless the text holds a NUL or a char above U+FFFF (found by one fast scan), and
/// otherwise built in one pass into a `Vec` of exactly [`encoded_len`] bytes.
///
/// This does not check `writeUTF`'s 65535-byte limit: [`write_utf`](crate::write_utf) does.
///
/// # Examples
///
/// ```
/// use std::borrow::Cow;
/// use wirebytes_mutf8::encode;
///
/// assert!(matches!(encode("plain ütf-8"), Cow::Borrowed(b"plain \xc3\xbctf-8")));
/// assert_eq!(encode("nul \0"), &b"nul \xc0\x80"[..]);
/// assert_eq!(encode("\u{1F600}"), &b"\xed\xa0\xbd\xed\xb8\x80"[..]);
/// ```
#[must_use]
pub fn encode(text: &str) -> Cow<'_, [u8]> {
    let bytes = text.as_bytes();
    if !needs_encoding(bytes) {
        return Cow::Borrowed(bytes);
    }
    let len = bytes.len() + extra_len(bytes);
    let mut out = Vec::with_capacity(len);
    encode_rest(bytes, &mut out);
    debug_assert_eq!(out.len(), len);
    Cow::Owned(out)
}

/// Appends what [`encode()`] gives for `text` to `dst`, growing it at most once: a hot loop
/// that reuses one `Vec` allocates nothing once it has room.
///
/// # Examples
///
/// ```
/// let mut out = b"head:".to_vec();
/// wirebytes_mutf8::encode_into("a\0\u{1F600}", &mut out);
/// assert_eq!(out, b"head:a\xc0\x80\xed\xa0\xbd\xed\xb8\x80");
/// ```
pub fn encode_into(text: &str, dst: &mut Vec<u8>) {
    let bytes = text.as_bytes();
    if !needs_encoding(bytes) {
        dst.extend_from_slice(bytes);
        return;
    }
    dst.reserve(bytes.len() + extra_len(bytes));
    encode_rest(bytes, dst);
}

/// Appends the modified UTF-8 form of `bytes` (a `str`'s) to `out`.
fn encode_rest(bytes: &[u8], out: &mut Vec<u8>) {
    let mut i = 0;
    loop {
        let end = plain_end(bytes, i);
        out.extend_from_slice(&bytes[i..end]);
        let Some(&lead) = bytes.get(end) else {
            break;
        };
        if lead == 0 {
            out.extend_from_slice(&[0xC0, 0x80]);
            i = end + 1;
        } else {
            // A 4-byte sequence of a `str`: F0..F4 and three continuation bytes.
            out.extend_from_slice(&surrogates(&bytes[end..end + 4]));
            i = end + 4;
        }
    }
}

/// The two 3-byte surrogates of a 4-byte UTF-8 sequence.
#[inline(always)]
pub(crate) fn surrogates(seq: &[u8]) -> [u8; 6] {
    let s = (u32::from(seq[0] & 0x07) << 18)
        | (u32::from(seq[1] & 0x3F) << 12)
        | (u32::from(seq[2] & 0x3F) << 6)
        | u32::from(seq[3] & 0x3F);
    let high = 0xD800 + ((s - 0x10000) >> 10);
    let low = 0xDC00 + (s & 0x3FF);
    [
        0xED,
        0x80 | ((high >> 6) & 0x3F) as u8,
        0x80 | (high & 0x3F) as u8,
        0xED,
        0x80 | ((low >> 6) & 0x3F) as u8,
        0x80 | (low & 0x3F) as u8,
    ]
}

/// The length of [`encode`]'s output, without building it: the text's length, plus one per
/// NUL, plus two per char above U+FFFF. Allocates nothing.
///
/// # Examples
///
/// ```
/// use wirebytes_mutf8::encoded_len;
///
/// assert_eq!(encoded_len("abc"), 3);
/// assert_eq!(encoded_len("a\0\u{1F600}"), 1 + 2 + 6);
/// ```
#[must_use]
pub fn encoded_len(text: &str) -> usize {
    text.len() + extra_len(text.as_bytes())
}

/// The number of bytes `writeUTF` writes for one char.
#[inline(always)]
fn unit_len(c: u16) -> usize {
    1 + usize::from(c == 0 || c >= 0x80) + usize::from(c >= 0x800)
}

/// Encodes UTF-16 chars as `DataOutput.writeUTF` writes them (the body, without the length
/// field): any `u16`, lone surrogates included (3 bytes each). The `Vec` is exactly as long
/// as it needs to be.
///
/// # Examples
///
/// ```
/// use wirebytes_mutf8::encode_utf16;
///
/// let units: Vec<u16> = "a\0€".encode_utf16().chain([0xdc00]).collect();
/// assert_eq!(encode_utf16(&units), b"a\xc0\x80\xe2\x82\xac\xed\xb0\x80");
/// ```
#[must_use]
pub fn encode_utf16(units: &[u16]) -> Vec<u8> {
    let len: usize = units.iter().map(|&c| unit_len(c)).sum();
    let mut out = Vec::with_capacity(len);
    let mut i = 0;
    while i < units.len() {
        // A run of chars in 1..=7F, found eight at a time, narrowed in bulk.
        let mut end = i;
        while let Some(chunk) = units.get(end..end + 8) {
            if chunk
                .iter()
                .fold(false, |bad, &c| bad | (c.wrapping_sub(1) >= 0x7F))
            {
                break;
            }
            end += 8;
        }
        while end < units.len() && units[end].wrapping_sub(1) < 0x7F {
            end += 1;
        }
        out.extend(units[i..end].iter().map(|&c| c as u8));
        i = end;
        // Then everything up to the next ASCII char.
        while let Some(&c) = units.get(i) {
            if c.wrapping_sub(1) < 0x7F {
                break;
            }
            if c <= 0x07FF {
                out.extend_from_slice(&[0xC0 | (c >> 6) as u8, 0x80 | (c & 0x3F) as u8]);
            } else {
                out.extend_from_slice(&[
                    0xE0 | (c >> 12) as u8,
                    0x80 | ((c >> 6) & 0x3F) as u8,
                    0x80 | (c & 0x3F) as u8,
                ]);
            }
            i += 1;
        }
    }
    debug_assert_eq!(out.len(), len);
    out
}
