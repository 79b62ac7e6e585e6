//! US-ASCII under the JDK's replacement: every char that is not ASCII becomes one `?`, so each
//! byte of the UTF-8 input decides its own output alone. An ASCII byte is written as it is, a
//! lead byte (`11xxxxxx`) becomes `?`, and a continuation byte (`10xxxxxx`) is dropped, with
//! no char decoded and no table looked up. Eight bytes at a time in a `u64`: a word of ASCII
//! is stored whole; in another, the non-ASCII bytes are replaced at once and the continuation
//! bytes squeezed out in the register. Words are read little-endian, so byte `k` of the input
//! is bits `8k..8k+8` on every target.

use crate::counters::{Path, add};
use crate::swar::{EACH, HIGH_BITS};

/// Appends the JDK's US-ASCII encoding of `bytes` (UTF-8 from a char boundary to the end of a
/// `str`): one byte per char, the char if it is ASCII, else `?`.
pub(crate) fn ascii_or_question_marks<S: crate::sink::Sink>(bytes: &[u8], out: &mut S) {
    /// Output collects here and goes to `out` in one copy per this many bytes, so that every
    /// word is stored whole (8 bytes, of which the squeezed ones count).
    const FLUSH: usize = 1024;
    let mut buf = [0u8; FLUSH + 8];
    let mut w = 0;
    let words = bytes.chunks_exact(8);
    let tail = words.remainder();
    for word in words {
        let Ok(&word) = <&[u8; 8]>::try_from(word) else {
            break; // unreachable: chunks of exactly 8
        };
        if w > FLUSH {
            out.extend_from_slice(&buf[..w]);
            w = 0;
        }
        let Some(slot) = buf.get_mut(w..w + 8) else {
            break; // unreachable: w <= FLUSH
        };
        let x = u64::from_le_bytes(word);
        let high = x & HIGH_BITS;
        if high == 0 {
            slot.copy_from_slice(&word);
            w += 8;
            continue;
        }
        let (squeezed, kept) = squeeze(x, high);
        slot.copy_from_slice(&squeezed.to_le_bytes());
        w += kept;
    }
    out.extend_from_slice(&buf[..w]);
    add(Path::UsAsciiWords, bytes.len() - tail.len());
    for &b in tail {
        match b {
            0x00..=0x7F => out.push(b),
            0xC0..=0xFF => out.push(b'?'),
            _ => {}
        }
    }
}

/// The output of a word `x` of UTF-8 with non-ASCII bytes `high` (their bit 7): the non-ASCII
/// bytes replaced by `?`, then the continuation bytes removed, the bytes above each moving
/// down; and the number of bytes kept (the first ones of the result).
#[inline(always)]
fn squeeze(x: u64, high: u64) -> (u64, usize) {
    // 0xFF on every non-ASCII byte.
    let non_ascii = (high >> 7) * 0xFF;
    let mut bytes = (x & !non_ascii) | (non_ascii & (EACH * u64::from(b'?')));
    // Continuation bytes: bit 7 set, bit 6 clear. The highest goes first, so that the places
    // of the ones below it stay where they are.
    let mut continuations = high & !(x << 1);
    let mut kept = 8;
    while continuations != 0 {
        let top = 63 - continuations.leading_zeros();
        let below = (1u64 << (top - 7)) - 1; // the bytes below the one at bits top-7..=top
        bytes = (bytes & below) | ((bytes >> 8) & !below);
        continuations &= !(1u64 << top);
        kept -= 1;
    }
    (bytes, kept)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain rule, byte by byte.
    fn model(bytes: &[u8]) -> Vec<u8> {
        bytes
            .iter()
            .filter(|&&b| b & 0xC0 != 0x80)
            .map(|&b| if b < 0x80 { b } else { b'?' })
            .collect()
    }

    #[test]
    fn every_mix_of_chars_at_every_offset_of_a_word() {
        let chars = [
            'a', '\t', '\u{7F}', '\u{80}', 'é', '\u{7FF}', '\u{800}', '€', '\u{FFFF}', '😀',
        ];
        for len in 0..=40 {
            for start in 0..chars.len() {
                for step in [1, 3, 7] {
                    let text: String = (0..len)
                        .map(|i| chars[(start + i * step) % chars.len()])
                        .collect();
                    for lead in ["", "x", "xy", "xyz", "abcdefg"] {
                        let text = format!("{lead}{text}");
                        let mut out = b"head".to_vec();
                        ascii_or_question_marks(text.as_bytes(), &mut out);
                        assert_eq!(&out[..4], b"head");
                        assert_eq!(out[4..], model(text.as_bytes()), "{text:?}");
                        assert_eq!(out.len() - 4, text.chars().count(), "{text:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn long_text_crosses_the_flush() {
        let text = "Größere Städte müssen für Straßen sorgen. „Ja“ – 😀 ".repeat(200);
        let mut out = Vec::new();
        ascii_or_question_marks(text.as_bytes(), &mut out);
        assert_eq!(out, model(text.as_bytes()));
    }
}
