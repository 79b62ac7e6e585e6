//! Pieces of Java's modified UTF-8: every form the JDK's `readUTF` accepts (overlong forms,
//! raw NUL and lone surrogates included), every way it rejects one, and text of each width,
//! to be strung together into bodies that reach every branch and block of a decoder.

use crate::Rng;

/// Forms the JDK accepts: ASCII, raw and `C0 80` NUL, overlong 2- and 3-byte forms, 2- and
/// 3-byte chars at both ends of their ranges, lone high and low surrogates, and a pair.
pub const ACCEPTED: &[&[u8]] = &[
    b"a",
    b"0123456789abcdef",
    b"\x00",
    b"\x7f",
    b"\xc0\x80",
    b"\xc1\x81",
    b"\xc0\xb1",
    b"\xc2\xa9",
    b"\xd0\xb6",
    b"\xdf\xbf",
    b"\xe0\x80\x80",
    b"\xe0\x9f\xbf",
    b"\xe2\x82\xac",
    b"\xe4\xb8\xad",
    b"\xef\xbf\xbf",
    b"\xed\x9f\xbf",
    b"\xed\xa0\x80",
    b"\xed\xa0\xbd",
    b"\xed\xb0\x80",
    b"\xed\xb8\x80",
    b"\xed\xbf\xbf",
    b"\xed\xa0\xbd\xed\xb8\x80",
];

/// Text that modified UTF-8 and UTF-8 write alike: ASCII, and 2- and 3-byte chars that are
/// not surrogates, at both ends of their ranges. A body of these alone is its own text.
pub const PLAIN_TEXT: &[&[u8]] = &[
    b"a",
    b"0123456789abcdefghijklmnopqrstuvwxyz0123456789",
    b"\xc2\x80",
    b"\xd0\xb6",
    b"\xdf\xbf",
    b"\xe0\xa0\x80",
    b"\xe4\xb8\xad",
    b"\xed\x9f\xbf",
    b"\xee\x80\x80",
    b"\xef\xbf\xbf",
];

/// What a decoder to UTF-8 rewrites, with the plain text among it: `C0 80` (NUL) and the other
/// overlong 2-byte forms, and surrogate pairs of several planes (the first and the last).
pub const REGULAR: &[&[u8]] = &[
    b"\xc0\x80",
    b"\xc1\x81",
    b"\xc0\xbf",
    b"\xd0\xb6",
    b"\xc2\x80",
    b"\xe4\xb8\xad",
    b"\xe0\xa0\x80",
    b"\xed\x9f\xbf",
    b"\xef\xbf\xbf",
    b"\xed\xa0\xbd\xed\xb8\x80",
    b"\xed\xa0\x80\xed\xb0\x80",
    b"\xed\xaf\xbf\xed\xbf\xbf",
    b"\xed\xa7\x9a\xed\xb3\xa5",
];

/// Ways the JDK rejects a body: a stray continuation byte, a 4-byte sequence, a byte that
/// starts nothing, a sequence cut short (at the end of a body, or by an ASCII byte).
pub const REJECTED: &[&[u8]] = &[
    b"\x80",
    b"\xbf",
    b"\xf0\x9f\x98\x80",
    b"\xf8",
    b"\xff",
    b"\xc2",
    b"\xe2",
    b"\xe2\x82",
    b"\xd0\x41",
    b"\xe2\x41\x82",
];

/// Forms that are neither UTF-8 nor the two rewrites modified UTF-8 needs (`C0 80`-style
/// overlong 2-byte forms and surrogate pairs): 3-byte overlong forms and lone or reversed
/// surrogates, which the JDK accepts, and a pair cut short. A decoder that rewrites in blocks
/// must leave these to its careful loop.
pub const IRREGULAR: &[&[u8]] = &[
    b"\xe0\x80\x80",
    b"\xe0\x9f\xbf",
    b"\xed\xa0\x80",
    b"\xed\xb0\x80",
    b"\xed\xb0\x80\xed\xa0\x80",
    b"\xed\xa0\xbd\xed\xb8",
];

/// Text of 2-byte scripts (Cyrillic, Greek, accented Latin) with spaces, and the overlong
/// 2-byte forms the JDK accepts among them.
pub const TWO_BYTE_TEXT: &[&[u8]] = &[
    b" ",
    b"\xd0\xb0",
    b"\xd1\x8f",
    b"\xce\xa9",
    b"\xc3\xa9",
    b"\xdf\xbf",
    b"\xc2\x80",
    b"\xc0\x80",
    b"\xc1\xbf",
];

/// Text of every width, mostly 3-byte chars (CJK, the ends of the range), with pairs and
/// `C0 80` now and then.
pub const WIDE_TEXT: &[&[u8]] = &[
    b"\xe4\xb8\xad",
    b"\xe6\x96\x87",
    b"\xe0\xa0\x80",
    b"\xef\xbf\xbf",
    b"\xed\x9f\xbf",
    b"\xee\x80\x80",
    b"\xd0\xb6",
    b" ",
    b"ab",
    b"\xed\xa0\xbd\xed\xb8\x80",
    b"\xc0\x80",
];

/// Bodies long enough for every kernel (64-byte blocks and more) of text in three scripts:
/// plain, with a `C0 80`, with a surrogate pair at the end, with a lone surrogate at the end,
/// and with a byte the JDK rejects in the middle.
pub fn long_bodies() -> Vec<Vec<u8>> {
    let text = "Cyrillic \u{436}\u{44f}, CJK \u{4e2d}\u{6587}, ASCII ascii ascii. ".repeat(12);
    let plain = text.as_bytes().to_vec();
    let mut nul = plain.clone();
    nul.splice(100..100, *b"\xc0\x80");
    let mut pair = plain.clone();
    pair.extend_from_slice(b"\xed\xa0\xbd\xed\xb8\x80 end");
    let mut lone = nul.clone();
    lone.extend_from_slice(b"\xed\xa0\xbd end");
    let mut bad = nul.clone();
    bad.splice(300..300, *b"\xff");
    vec![plain, nul, pair, lone, bad]
}

/// One piece of `pieces`, or of [`REJECTED`] with probability `1 / bad_one_in` (never, for
/// 0).
pub fn piece(rng: &mut Rng, pieces: &[&'static [u8]], bad_one_in: usize) -> &'static [u8] {
    if bad_one_in != 0 && rng.one_in(bad_one_in) {
        rng.pick::<&[u8]>(REJECTED)
    } else {
        rng.pick::<&[u8]>(pieces)
    }
}

/// A body of up to `max_pieces` [`piece`]s.
///
/// # Examples
///
/// ```
/// use wirebytes_testkit::{Rng, mutf8};
///
/// let mut rng = Rng::new(5);
/// let body = mutf8::body(&mut rng, mutf8::TWO_BYTE_TEXT, 40, 0);
/// assert!(body.iter().all(|&b| b < 0xE0)); // 2-byte text only
/// ```
pub fn body(
    rng: &mut Rng,
    pieces: &[&'static [u8]],
    max_pieces: usize,
    bad_one_in: usize,
) -> Vec<u8> {
    let mut out = Vec::new();
    for _ in 0..rng.below(max_pieces + 1) {
        out.extend_from_slice(piece(rng, pieces, bad_one_in));
    }
    out
}

/// The lengths of the `CONSTANT_Utf8` entries of a JDK 17 image (2,751,320 entries, mean 21.4
/// bytes), as percentiles: entry `k` is the length below which `k` per cent of the entries
/// lie (the last one the 99.9th percentile). Each per cent is drawn uniformly
/// between its two percentiles.
const CLASS_FILE_LENGTH_PERCENTILES: [usize; 101] = [
    0, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 5, 5, 6, 6, 6, 6, 6, 7, 7, 7, 8, 8,
    8, 8, 9, 9, 9, 10, 10, 10, 11, 11, 11, 12, 12, 12, 13, 13, 13, 14, 14, 15, 15, 15, 15, 16, 16,
    16, 17, 17, 18, 18, 18, 19, 19, 20, 20, 21, 21, 22, 22, 23, 24, 24, 25, 26, 27, 28, 29, 30, 31,
    32, 33, 34, 35, 36, 38, 39, 40, 42, 44, 46, 49, 52, 56, 59, 64, 72, 85, 115, 348,
];

/// A corpus shaped like the `CONSTANT_Utf8` entries of the JDK's own class files, for when
/// the JDK is not there to dump them: `count` bodies with their length distribution (see
/// [`CLASS_FILE_LENGTH_PERCENTILES`]), made of identifier and descriptor characters, and as
/// there, 7% of them holding 2- and 3-byte chars and about one in ten thousand `C0 80` or a
/// surrogate pair.
pub fn class_file_like(rng: &mut Rng, count: usize) -> Vec<Vec<u8>> {
    const NAME: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$/;()[<>";
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        let k = rng.below(100);
        let (lo, hi) = (
            CLASS_FILE_LENGTH_PERCENTILES[k],
            CLASS_FILE_LENGTH_PERCENTILES[k + 1],
        );
        let len = lo + rng.below(hi - lo + 1);
        let mut body = Vec::with_capacity(len + 6);
        let wide = rng.below(100) < 7;
        let odd = rng.below(10_000) == 0;
        while body.len() < len {
            if wide && rng.one_in(3) {
                let c = if rng.one_in(2) {
                    char::from_u32(0xA0 + rng.below(0x700) as u32).expect("2-byte char")
                } else {
                    char::from_u32(0x3000 + rng.below(0x6000) as u32).expect("3-byte char")
                };
                body.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
            } else if odd && rng.one_in(8) {
                body.extend_from_slice(if rng.one_in(2) {
                    b"\xc0\x80"
                } else {
                    b"\xed\xa0\xbd\xed\xb8\x80"
                });
            } else {
                body.push(NAME[rng.below(NAME.len())]);
            }
        }
        out.push(body);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_piece_lists_hold_what_they_say() {
        // Every accepted piece is bytes the modified UTF-8 rules take: no 4-byte lead, no
        // stray continuation byte at its start.
        for piece in ACCEPTED
            .iter()
            .chain(TWO_BYTE_TEXT)
            .chain(WIDE_TEXT)
            .chain(REGULAR)
        {
            assert!(piece.iter().all(|&b| b < 0xF0), "{piece:02x?}");
            assert!(piece[0] & 0xC0 != 0x80, "{piece:02x?}");
        }
        assert!(
            TWO_BYTE_TEXT
                .iter()
                .flat_map(|p| p.iter())
                .all(|&b| b < 0xE0)
        );
        let mut rng = Rng::new(6);
        let bodies: Vec<Vec<u8>> = (0..200).map(|_| body(&mut rng, ACCEPTED, 20, 5)).collect();
        let corpus = class_file_like(&mut rng, 100_000);
        let mean = corpus.iter().map(Vec::len).sum::<usize>() as f64 / corpus.len() as f64;
        assert!((18.0..25.0).contains(&mean), "mean length {mean}");
        let wide = corpus
            .iter()
            .filter(|b| b.iter().any(|&x| x >= 0x80))
            .count();
        assert!((4_000..10_000).contains(&wide), "{wide} with wider chars");
        assert!(
            bodies
                .iter()
                .any(|b| REJECTED.iter().any(|r| b.windows(r.len()).any(|w| w == *r)))
        );
    }
}
