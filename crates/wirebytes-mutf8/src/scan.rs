//! Whole-input scans that decide whether the bytes can be handed back as they are.
//!
//! The wide loops work on 32-byte arrays with byte-wise `max`/`min`, which LLVM turns into
//! SIMD instructions (`pmaxub`/`pminub`) on every target; the short tails use `u64` words.

use crate::arch::SplitChunks;
use crate::counters::{self, Path};
use crate::encode::Rule;
use crate::swar::{HIGH_BITS, four_byte_leads, word, zero_bytes};

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

/// Whether `bytes` (a `str`'s) hold a 4-byte lead or (under modified UTF-8) a NUL: whether
/// the rule `R` writes different bytes.
#[inline]
pub(crate) fn needs_encoding<R: Rule>(bytes: &[u8]) -> bool {
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
    let mut found = (R::NUL_TWO_BYTES && lo.iter().fold(0xFF, |m, &b| m.min(b)) == 0)
        || hi.iter().fold(0, |m, &b| m.max(b)) >= 0xF0;
    let (words, rest) = tail.split_chunks::<8>();
    for w in words {
        found |= special::<R>(u64::from_le_bytes(*w)) != 0;
    }
    for &b in rest {
        found |= is_special::<R>(b);
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
        counters::add(Path::AsciiWords, 8);
        at += 8;
    }
    while at < bytes.len() && bytes[at] < 0x80 {
        at += 1;
    }
    at
}

/// Whether a byte of a `str` is written otherwise under the rule `R`: a 4-byte lead, or (under
/// modified UTF-8) a NUL.
#[inline(always)]
fn is_special<R: Rule>(b: u8) -> bool {
    (R::NUL_TWO_BYTES & (b == 0)) | (b >= 0xF0)
}

/// The high bit of every byte of `w` that [`is_special`] (plus possibly spurious bits above
/// a zero byte: the lowest set bit is always exact).
#[inline(always)]
fn special<R: Rule>(w: u64) -> u64 {
    let nul = if R::NUL_TWO_BYTES { zero_bytes(w) } else { 0 };
    nul | four_byte_leads(w)
}

/// The index of the first byte at or after `at` in a `str`'s bytes that the rule `R` writes
/// otherwise (a NUL under modified UTF-8, a 4-byte lead), `bytes.len()` if none: 32 bytes
/// at a time while none of them is (one test per byte without a branch, which LLVM turns
/// into vector compares), then a word at a time.
#[inline(always)]
pub(crate) fn plain_end<R: Rule>(bytes: &[u8], mut at: usize) -> usize {
    while let Some(chunk) = bytes.get(at..).and_then(<[u8]>::first_chunk::<32>) {
        if chunk
            .iter()
            .fold(false, |found, &b| found | is_special::<R>(b))
        {
            break;
        }
        counters::add(Path::PlainChunks, 32);
        at += 32;
    }
    while at + 8 <= bytes.len() {
        let found = special::<R>(word(bytes, at));
        if found != 0 {
            return at + (found.trailing_zeros() / 8) as usize;
        }
        at += 8;
    }
    while at < bytes.len() && !is_special::<R>(bytes[at]) {
        at += 1;
    }
    at
}

/// How many bytes the rule `R` adds to a `str`'s bytes: one per NUL (`C0 80`, modified UTF-8
/// only), two per 4-byte char (two 3-byte surrogates).
#[inline]
pub(crate) fn extra_len<R: Rule>(bytes: &[u8]) -> usize {
    let extra_of = |b: u8| u8::from(R::NUL_TWO_BYTES && b == 0) + 2 * u8::from(b >= 0xF0);
    let (chunks, tail) = bytes.split_chunks::<64>();
    let mut extra = 0usize;
    for chunk in chunks {
        // At most 2 * 64 = 128: a byte-wide sum cannot overflow.
        let mut sum = 0u8;
        for &b in chunk {
            sum += extra_of(b);
        }
        extra += usize::from(sum);
    }
    for &b in tail {
        extra += usize::from(extra_of(b));
    }
    extra
}

#[cfg(test)]
mod tests {
    use alloc::vec;

    use super::*;
    use crate::encode::{Cesu8, Mutf8};

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
                    assert_eq!(
                        needs_encoding::<Mutf8>(&bytes),
                        special,
                        "{b:02x} at {at} of {len}"
                    );
                    assert_eq!(needs_encoding::<Cesu8>(&bytes), b >= 0xF0, "{b:02x}");
                    let extra = usize::from(b == 0) + 2 * usize::from(b >= 0xF0);
                    assert_eq!(
                        extra_len::<Mutf8>(&bytes),
                        extra,
                        "{b:02x} at {at} of {len}"
                    );
                    let extra = 2 * usize::from(b >= 0xF0);
                    assert_eq!(
                        extra_len::<Cesu8>(&bytes),
                        extra,
                        "{b:02x} at {at} of {len}"
                    );
                    for from in (0..=len).step_by(wirebytes_testkit::scale_miri(1, 1, 13)) {
                        let ascii = (from..len).find(|&i| bytes[i] >= 0x80).unwrap_or(len);
                        assert_eq!(ascii_end(&bytes, from), ascii);
                        let plain = (from..len).find(|&i| special && i == at).unwrap_or(len);
                        assert_eq!(plain_end::<Mutf8>(&bytes, from), plain);
                        let cesu = (from..len).find(|&i| b >= 0xF0 && i == at).unwrap_or(len);
                        assert_eq!(plain_end::<Cesu8>(&bytes, from), cesu);
                    }
                }
            }
            assert_eq!(classify(&vec![b'a'; len]), Class::Ascii);
            assert!(!needs_encoding::<Mutf8>(&vec![b'a'; len]));
        }
    }
}
