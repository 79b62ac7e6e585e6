//! Short text in plain integer code: the copy of a header value or token of at most
//! [`SHORT_TEXT`] bytes that is not all ASCII, at every kernel level. A short string is over
//! before a SIMD kernel's set-up pays off, and a 64-byte kernel step near the end of a page
//! has to go through a buffer; this never reads or writes a byte past the text or the output.
//!
//! Each step loads the 8 bytes at a char boundary (fewer, zero-padded, at the end of the text)
//! and stores exactly the bytes it makes (overlapping stores, never a byte past the count):
//! an ASCII word as it is; a word of ASCII and one or two 2-byte chars squeezed (8 bytes in,
//! 7 or 6 out); four 2-byte chars as their four low bytes. Any other word gives its ASCII
//! bytes, then the chars up to the next ASCII byte are decoded one at a time, straight from
//! UTF-8 to the low byte of their UTF-16 unit (two bytes for a char above U+FFFF: its
//! surrogates'). A text of at most 8 bytes goes one char at a time from the start.

use crate::out::Out;
use crate::swar::{
    HIGH_BITS, TWO_BYTE_BITS, TWO_BYTE_MASK, high_surrogate_low_byte, low_byte_of,
    squeeze_two_byte_chars, two_byte_low_bytes,
};

/// The most bytes of text [`copy_text`] is used for.
pub(crate) const SHORT_TEXT: usize = 64;

/// The bytes of `src` from `at` (before its end), little-endian: the 8 there, or the fewer
/// left with zeros after them. Fixed-size loads only, overlapping where fewer than 8 are left.
#[inline(always)]
pub(crate) fn word_at(src: &[u8], at: usize) -> u64 {
    let rest = src.get(at..).unwrap_or_default();
    if let Some(word) = rest.first_chunk::<8>() {
        return u64::from_le_bytes(*word);
    }
    let n = rest.len();
    match (rest.first_chunk::<4>(), rest.last_chunk::<4>()) {
        (Some(lo), Some(hi)) => {
            // Bytes 0..4 and n-4..n: the bytes they share are the same in both.
            u64::from(u32::from_le_bytes(*lo)) | u64::from(u32::from_le_bytes(*hi)) << (8 * (n - 4))
        }
        _ => match *rest {
            [] => 0,
            [a] => u64::from(a),
            [a, b] => u64::from(a) | u64::from(b) << 8,
            [a, b, c, ..] => u64::from(a) | u64::from(b) << 8 | u64::from(c) << 16,
        },
    }
}

/// Copies the low bytes of `src` (the UTF-8 of a `str`, or the rest of one from a char
/// boundary) into `out`, as far as the room goes; returns the bytes of `src` read, a char
/// boundary. It may stop short of the end when the room is short of a step's bytes: the
/// caller's careful path takes the rest (a surrogate pair the room cuts, say). A text of at
/// most 8 bytes goes one char at a time.
#[inline(never)]
pub(crate) fn copy_text(src: &[u8], out: &mut Out<'_>) -> usize {
    if src.len() <= 8 {
        return copy_chars(src, out);
    }
    let mut at = 0;
    while at < src.len() {
        let w = word_at(src, at);
        let n = (src.len() - at).min(8);
        let high = w & HIGH_BITS;
        if high == 0 {
            // ASCII: each byte one char, as many as the room takes.
            let take = n.min(out.room());
            out.put_word(w, take);
            at += take;
            if take < n {
                return at;
            }
            continue;
        }
        let leads = w & (w << 1) & HIGH_BITS; // bytes 0xC0..=0xFF
        let second = leads & leads.wrapping_sub(1); // the leads but the lowest
        // ASCII and one or two 2-byte chars, all of them whole in the word.
        if second & second.wrapping_sub(1) == 0
            && leads & (w << 2) == 0
            && (high ^ leads) & 0x80 == 0
            && leads >> 63 == 0
        {
            let count = n - 1 - usize::from(second != 0);
            if count > out.room() {
                return at;
            }
            out.put_word(squeeze_two_byte_chars(w, high, leads, second), count);
            at += n;
            continue;
        }
        if n == 8 && w & TWO_BYTE_MASK == TWO_BYTE_BITS {
            if out.room() < 4 {
                return at;
            }
            out.put_word(u64::from(two_byte_low_bytes(w)), 4);
            crate::counters::add(crate::counters::Path::ShortTwoByteWords, 8);
            at += 8;
            continue;
        }
        // The ASCII bytes before the first other one, then the chars up to the next ASCII
        // byte.
        let ascii = (high.trailing_zeros() / 8) as usize;
        let take = ascii.min(out.room());
        out.put_word(w, take);
        at += take;
        if take < ascii {
            return at;
        }
        match put_chars::<true>(src, at, out) {
            Ok(next) => at = next,
            Err(stop) => return stop,
        }
    }
    at
}

/// Writes the two low bytes of the surrogate pair of the 4-byte char at `at`, when both fit
/// in the room; `false`, writing nothing, when they do not (the caller's careful path writes
/// the first alone).
#[inline(always)]
fn surrogate_pair(src: &[u8], at: usize, out: &mut Out<'_>) -> bool {
    let Some(&[_, b1, b2, b3]) = src.get(at..).and_then(<[u8]>::first_chunk::<4>) else {
        return false;
    };
    if out.room() < 2 {
        return false;
    }
    let pair = u16::from_le_bytes([high_surrogate_low_byte(b1, b2), low_byte_of(b2, b3)]);
    out.put_word(u64::from(pair), 2);
    true
}

/// [`copy_text`] one char at a time, for a text of at most 8 bytes.
#[inline(always)]
fn copy_chars(src: &[u8], out: &mut Out<'_>) -> usize {
    let (Ok(read) | Err(read)) = put_chars::<false>(src, 0, out);
    read
}

/// Copies the chars of `src` from `at` one at a time, to its end or, with `TO_ASCII`, to the
/// next ASCII byte: `Ok` with where it stopped, or `Err` with where the room was short of a
/// char's units (nothing of that char written).
#[inline(always)]
fn put_chars<const TO_ASCII: bool>(
    src: &[u8],
    mut at: usize,
    out: &mut Out<'_>,
) -> Result<usize, usize> {
    while let Some(&b0) = src.get(at) {
        let (len, low) = match b0 {
            0x00..=0x7F if TO_ASCII => break,
            0x00..=0x7F => (1, Some(b0)),
            0xC0..=0xDF => (2, src.get(at + 1).map(|&b1| low_byte_of(b0, b1))),
            0xE0..=0xEF => (3, src.get(at + 1..at + 3).map(|c| low_byte_of(c[0], c[1]))),
            _ => {
                if !surrogate_pair(src, at, out) {
                    return Err(at);
                }
                at += 4;
                continue;
            }
        };
        // (A `str` has the bytes of the char: `low` is there.)
        let Some(low) = low else { return Err(at) };
        if !out.push(low) {
            return Err(at);
        }
        at += len;
    }
    Ok(at)
}

#[cfg(test)]
mod tests {
    use super::{SHORT_TEXT, copy_text, word_at};
    use crate::out::Out;
    use crate::reference;
    use std::string::String;
    use std::vec;
    use std::vec::Vec;

    #[test]
    fn words_hold_the_bytes_there_and_zeros_after() {
        let src: Vec<u8> = (1..=20).collect();
        for at in 0..=src.len() {
            let mut want = [0u8; 8];
            let n = (src.len() - at).min(8);
            want[..n].copy_from_slice(&src[at..at + n]);
            assert_eq!(word_at(&src, at), u64::from_le_bytes(want), "at {at}");
        }
    }

    /// Texts of up to [`SHORT_TEXT`] bytes of every char class, in several orders: ASCII
    /// (with a NUL, a zero byte of a word's padding), 2-byte chars from both ends of their
    /// range, 3-byte ones (one whose low byte is LF) and a 4-byte one.
    fn texts() -> Vec<String> {
        let chars = [
            'a',
            '\0',
            '~',
            '\u{80}',
            '\u{E9}',
            '\u{7FF}',
            '\u{430}',
            '\u{800}',
            '\u{4E2D}',
            '\u{0D0A}',
            '\u{FFFF}',
            '\u{1F600}',
        ];
        let mut texts = vec![String::new()];
        for len in 1..=SHORT_TEXT {
            for step in [1, 2, 5, 7] {
                let text: String = (0..len)
                    .map(|i| chars[(i * step + len) % chars.len()])
                    .scan(0, |bytes, c| {
                        *bytes += c.len_utf8();
                        (*bytes <= SHORT_TEXT).then_some(c)
                    })
                    .collect();
                texts.push(text);
            }
            // ASCII with one other char at each place.
            for (k, &c) in chars.iter().enumerate().skip(3) {
                let mut text: String = "x".repeat(len - 1);
                text.insert((k * 3) % len, c);
                if text.len() <= SHORT_TEXT {
                    texts.push(text);
                }
            }
        }
        texts
    }

    /// Into every room from 0 to 2 past the text's units: what it read is a char boundary,
    /// what it wrote is exactly the reference's low bytes of that, no byte past them is
    /// touched, and it stops short only where the room left is short of the rest (and of 8
    /// bytes, a word step's most).
    #[test]
    fn short_text_writes_the_low_bytes_of_what_it_read() {
        for text in texts() {
            let units = reference::low_bytes_len(&text);
            for room in 0..=units + 2 {
                let mut dst = vec![0xA5u8; room + 8];
                let mut out = Out::new(&mut dst[..room]);
                let read = copy_text(text.as_bytes(), &mut out);
                let written = out.len();
                assert!(
                    text.is_char_boundary(read),
                    "{text:?} into {room}: read {read}"
                );
                let want = reference::low_bytes(&text[..read]);
                assert_eq!(&dst[..written], &want[..], "{text:?} into {room}");
                assert!(
                    dst[written..].iter().all(|&b| b == 0xA5),
                    "{text:?} into {room}: a byte past the {written} written"
                );
                let rest = reference::low_bytes_len(&text[read..]);
                assert!(
                    rest == 0 || room - written < rest.min(8),
                    "{text:?} into {room}: stopped at {read}, {written} written"
                );
            }
        }
    }
}
