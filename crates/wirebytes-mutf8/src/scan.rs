//! Whole-input scans that decide whether the bytes can be handed back as they are.
//!
//! The wide loops work on 32-byte arrays with byte-wise `max`/`min`, which LLVM turns into
//! SIMD instructions (`pmaxub`/`pminub`) on every target; the short tails use `u64` words.

use crate::arch::SplitChunks;

/// The high bit of every byte of a word.
const HIGH_BITS: u64 = 0x8080_8080_8080_8080;
/// `1` in every byte of a word.
const LOW_BITS: u64 = 0x0101_0101_0101_0101;

/// Eight bytes as a little-endian word (byte `k` in bits `8k..8k+8`).
#[inline(always)]
pub(crate) fn word(bytes: &[u8], at: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(w)
}

/// The high bit of every byte of `w` that is `F0` or above: a 4-byte lead (or worse).
/// Bit 7 of a byte is set in `w & w << 1 & w << 2 & w << 3` exactly when its bits 7..4 are
/// all set; the shifts never carry a bit into another byte's bit 7.
#[inline(always)]
pub(crate) fn four_byte_leads(w: u64) -> u64 {
    w & (w << 1) & (w << 2) & (w << 3) & HIGH_BITS
}

/// The high bit of each zero byte of `w`, plus possibly spurious bits *above* a zero byte
/// (the borrow of the subtraction): the lowest set bit is always exact.
#[inline(always)]
pub(crate) fn zero_bytes(w: u64) -> u64 {
    w.wrapping_sub(LOW_BITS) & !w & HIGH_BITS
}

/// What the whole input holds, as far as the borrowing decision goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Class {
    /// Every byte is below `80`.
    Ascii,
    /// Some byte is `80` or above, none is `F0` or above.
    Multibyte,
    /// Some byte is `F0` or above: never a borrowed result.
    FourByte,
}

/// The class of the bytes whose largest value is `max`.
#[inline(always)]
fn class_of_max(max: u8) -> Class {
    if max >= 0xF0 {
        Class::FourByte
    } else if max >= 0x80 {
        Class::Multibyte
    } else {
        Class::Ascii
    }
}

/// The largest byte of the words of `bytes` (shorter than 64 bytes in practice): the high
/// bit and the 4-byte-lead bit of every byte, gathered word by word.
#[inline(always)]
fn classify_words(bytes: &[u8]) -> Class {
    let (words, rest) = bytes.split_chunks::<8>();
    let mut high = 0u64;
    let mut four = 0u64;
    for w in words {
        let w = u64::from_le_bytes(*w);
        high |= w;
        four |= four_byte_leads(w);
    }
    let mut max = if four != 0 {
        0xF0
    } else if high & HIGH_BITS != 0 {
        0x80
    } else {
        0
    };
    for &b in rest {
        max = max.max(b);
    }
    class_of_max(max)
}

/// The largest byte, 64 bytes per step with byte-wise `max` on two 32-byte accumulators
/// (vector instructions of whatever width the target allows).
#[inline(always)]
fn max_byte_wide(bytes: &[u8]) -> u8 {
    let (chunks, tail) = bytes.split_chunks::<64>();
    let mut acc = [0u8; 32];
    let mut acc2 = [0u8; 32];
    for chunk in chunks {
        let (lo, hi) = chunk.split_at(32);
        for ((a, a2), (&b, &b2)) in acc.iter_mut().zip(acc2.iter_mut()).zip(lo.iter().zip(hi)) {
            *a = (*a).max(b);
            *a2 = (*a2).max(b2);
        }
    }
    let mut max = acc.iter().zip(&acc2).fold(0, |m, (&a, &b)| m.max(a).max(b));
    for &b in tail {
        max = max.max(b);
    }
    max
}

/// One pass over `bytes`: the largest byte decides the class.
#[inline]
pub(crate) fn classify(bytes: &[u8]) -> Class {
    if bytes.len() < 64 {
        return classify_words(bytes);
    }
    class_of_max(max_byte_wide(bytes))
}

/// Whether `bytes` (a `str`'s) hold a NUL or a 4-byte lead: whether `writeUTF` would write
/// different bytes.
#[inline]
pub(crate) fn needs_encoding(bytes: &[u8]) -> bool {
    let (chunks, tail) = bytes.split_chunks::<32>();
    let mut lo = [0xFFu8; 32];
    let mut hi = [0u8; 32];
    for chunk in chunks {
        for ((l, h), &b) in lo.iter_mut().zip(hi.iter_mut()).zip(chunk) {
            *l = (*l).min(b);
            *h = (*h).max(b);
        }
    }
    // Empty `chunks` leave `lo` at FF and `hi` at 00: nothing found.
    let mut found =
        lo.iter().fold(0xFF, |m, &b| m.min(b)) == 0 || hi.iter().fold(0, |m, &b| m.max(b)) >= 0xF0;
    let (words, rest) = tail.split_chunks::<8>();
    for w in words {
        let w = u64::from_le_bytes(*w);
        found |= zero_bytes(w) | four_byte_leads(w) != 0;
    }
    for &b in rest {
        found |= b == 0 || b >= 0xF0;
    }
    found
}

/// The index of the first byte at or after `at` that is not ASCII (`bytes.len()` if none):
/// eight bytes at a time, as the JDK does.
#[inline(always)]
pub(crate) fn ascii_end(bytes: &[u8], mut at: usize) -> usize {
    while at + 8 <= bytes.len() {
        let high = word(bytes, at) & HIGH_BITS;
        if high != 0 {
            return at + (high.trailing_zeros() / 8) as usize;
        }
        at += 8;
    }
    while at < bytes.len() && bytes[at] < 0x80 {
        at += 1;
    }
    at
}

/// The index of the first NUL or 4-byte lead at or after `at` in a `str`'s bytes
/// (`bytes.len()` if none).
#[inline(always)]
pub(crate) fn plain_end(bytes: &[u8], mut at: usize) -> usize {
    while at + 8 <= bytes.len() {
        let w = word(bytes, at);
        let found = zero_bytes(w) | four_byte_leads(w);
        if found != 0 {
            return at + (found.trailing_zeros() / 8) as usize;
        }
        at += 8;
    }
    while at < bytes.len() && bytes[at] != 0 && bytes[at] < 0xF0 {
        at += 1;
    }
    at
}

/// How many bytes `writeUTF` adds to a `str`'s bytes: one per NUL (`C0 80`), two per 4-byte
/// char (two 3-byte surrogates).
#[inline]
pub(crate) fn extra_len(bytes: &[u8]) -> usize {
    let (chunks, tail) = bytes.split_chunks::<64>();
    let mut extra = 0usize;
    for chunk in chunks {
        // At most 2 * 64 = 128: a byte-wide sum cannot overflow.
        let mut sum = 0u8;
        for &b in chunk {
            sum += u8::from(b == 0) + 2 * u8::from(b >= 0xF0);
        }
        extra += usize::from(sum);
    }
    for &b in tail {
        extra += usize::from(b == 0) + 2 * usize::from(b >= 0xF0);
    }
    extra
}

#[cfg(test)]
mod tests {
    use alloc::vec;

    use super::*;

    #[test]
    fn word_tricks_match_byte_tests_for_every_byte_at_every_position() {
        for b in (0..=255u8).step_by(wirebytes_testkit::scale_miri(1, 1, 5)) {
            for k in 0..8 {
                let mut bytes = [0x41u8; 8];
                bytes[k] = b;
                let w = u64::from_le_bytes(bytes);
                let expect_four = if b >= 0xF0 { 0x80 << (8 * k) } else { 0 };
                assert_eq!(four_byte_leads(w), expect_four, "byte {b:02x} at {k}");
                let zero = zero_bytes(w);
                if b == 0 {
                    assert_eq!(zero.trailing_zeros() / 8, k as u32, "byte {b:02x} at {k}");
                } else {
                    assert_eq!(zero, 0, "byte {b:02x} at {k}");
                }
            }
        }
    }

    #[test]
    fn scans_agree_with_byte_loops_at_every_length_and_position() {
        for len in (0..100).step_by(wirebytes_testkit::scale_miri(1, 1, 23)) {
            for at in (0..len).step_by(wirebytes_testkit::scale_miri(1, 1, 11)) {
                for b in [0x00, 0x7F, 0x80, 0xC0, 0xEF, 0xF0, 0xF4, 0xFF] {
                    let mut bytes = vec![b'a'; len];
                    bytes[at] = b;
                    let class = if b >= 0xF0 {
                        Class::FourByte
                    } else if b >= 0x80 {
                        Class::Multibyte
                    } else {
                        Class::Ascii
                    };
                    assert_eq!(classify(&bytes), class, "{b:02x} at {at} of {len}");
                    let special = b == 0 || b >= 0xF0;
                    assert_eq!(needs_encoding(&bytes), special, "{b:02x} at {at} of {len}");
                    let extra = usize::from(b == 0) + 2 * usize::from(b >= 0xF0);
                    assert_eq!(extra_len(&bytes), extra, "{b:02x} at {at} of {len}");
                    for from in (0..=len).step_by(wirebytes_testkit::scale_miri(1, 1, 13)) {
                        let ascii = (from..len).find(|&i| bytes[i] >= 0x80).unwrap_or(len);
                        assert_eq!(ascii_end(&bytes, from), ascii);
                        let plain = (from..len).find(|&i| special && i == at).unwrap_or(len);
                        assert_eq!(plain_end(&bytes, from), plain);
                    }
                }
            }
            assert_eq!(classify(&vec![b'a'; len]), Class::Ascii);
            assert!(!needs_encoding(&vec![b'a'; len]));
        }
    }
}
