//! Short text in plain integer code: the copy of a header value or token of at most
//! [`SHORT_TEXT`] bytes that is not all ASCII, at every kernel level. A short string is over
//! before a SIMD kernel's set-up pays off, and a 64-byte kernel step near the end of a page
//! has to go through a buffer; this never reads or writes a byte past the text or the output.
//!
//! ASCII goes 8 bytes at a time: a word loaded from a char boundary (zero-padded at the end
//! of the text) is stored as far as its first non-ASCII byte, exactly (two overlapping stores,
//! never a byte past the count). The chars from there up to the next ASCII byte are decoded
//! one at a time, straight from UTF-8 to the low byte of their UTF-16 unit.

use crate::out::Out;
use crate::swar::{HIGH_BITS, low_byte_of};

/// The most bytes of text [`copy_text`] is used for.
pub(crate) const SHORT_TEXT: usize = 32;

/// The bytes of `src` from `at` (before its end), little-endian: the 8 there, or the fewer
/// left with zeros after them. Fixed-size loads only, overlapping where fewer than 8 are left.
#[inline(always)]
fn word_at(src: &[u8], at: usize) -> u64 {
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
/// boundary. It stops short of the end at a 4-byte char, and where the room ends: the caller's
/// careful path takes the rest (a surrogate pair, which the room may cut).
#[inline(never)]
pub(crate) fn copy_text(src: &[u8], out: &mut Out<'_>) -> usize {
    let mut at = 0;
    while at < src.len() {
        // The ASCII bytes of the word at `at`, as far as the room goes.
        let word = word_at(src, at);
        let ascii = ((word & HIGH_BITS).trailing_zeros() / 8) as usize;
        let ascii = ascii.min(src.len() - at);
        let take = ascii.min(out.room());
        out.put_word(word, take);
        at += take;
        if take < ascii {
            return at;
        }
        if take == 8 {
            continue;
        }
        // Then the chars up to the next ASCII byte.
        loop {
            match *src.get(at..).unwrap_or_default() {
                [b0 @ 0xC0..=0xDF, b1, ..] => {
                    if !out.push(low_byte_of(b0, b1)) {
                        return at;
                    }
                    at += 2;
                }
                [0xE0..=0xEF, b1, b2, ..] => {
                    if !out.push(low_byte_of(b1, b2)) {
                        return at;
                    }
                    at += 3;
                }
                [0x00..=0x7F, ..] => break,
                _ => return at,
            }
        }
    }
    at
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
    /// touched, and it stops short only at a 4-byte char or where the room ended.
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
                if read < text.len() {
                    let next = text[read..].chars().next().unwrap_or_default();
                    assert!(
                        next.len_utf8() == 4 || written == room,
                        "{text:?} into {room}: stopped at {read} before {next:?}"
                    );
                }
            }
        }
    }
}
