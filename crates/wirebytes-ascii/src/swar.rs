//! The crate's word-at-a-time (SWAR) helpers, in plain integer code that is the same on every
//! target: for the `&str` copy, the masks that recognise runs of 2-, 3- and 4-byte UTF-8
//! sequences, the low byte of a sequence's UTF-16 unit(s), four of them at once, and the
//! ASCII prefix scan; for the header check, the bytes of a word that may not be in a header
//! value. Words are read little-endian (`from_le_bytes`), so byte `k` is bits `8k..8k+8` on
//! every target, big-endian ones included.

use crate::chunks::SplitChunks;

/// Bytes checked per step of the ASCII prefix scan (and copied per step of the bulk copy).
pub(crate) const CHUNK: usize = 64;
/// 1 in every byte of a word: `EACH * b` is the byte `b` in every byte.
const EACH: u64 = 0x0101_0101_0101_0101;
/// The high bit of every byte of a word: set in a byte iff that byte is not ASCII.
pub(crate) const HIGH_BITS: u64 = EACH * 0x80;
/// The same for 16 bytes.
pub(crate) const HIGH_BITS_WIDE: u128 = (HIGH_BITS as u128) << 64 | HIGH_BITS as u128;

/// Four 2-byte sequences `110xxxxx 10xxxxxx` in a little-endian word: `word & MASK == BITS`.
pub(crate) const TWO_BYTE_MASK: u64 =
    u64::from_le_bytes([0xE0, 0xC0, 0xE0, 0xC0, 0xE0, 0xC0, 0xE0, 0xC0]);
pub(crate) const TWO_BYTE_BITS: u64 =
    u64::from_le_bytes([0xC0, 0x80, 0xC0, 0x80, 0xC0, 0x80, 0xC0, 0x80]);
/// Four 3-byte sequences `1110xxxx 10xxxxxx 10xxxxxx` in the first 12 bytes of 16.
pub(crate) const THREE_BYTE_MASK: u128 = u128::from_le_bytes([
    0xF0, 0xC0, 0xC0, 0xF0, 0xC0, 0xC0, 0xF0, 0xC0, 0xC0, 0xF0, 0xC0, 0xC0, 0, 0, 0, 0,
]);
pub(crate) const THREE_BYTE_BITS: u128 = u128::from_le_bytes([
    0xE0, 0x80, 0x80, 0xE0, 0x80, 0x80, 0xE0, 0x80, 0x80, 0xE0, 0x80, 0x80, 0, 0, 0, 0,
]);
/// Two 4-byte sequences `11110xxx 10xxxxxx 10xxxxxx 10xxxxxx` in a little-endian word.
pub(crate) const FOUR_BYTE_MASK: u64 =
    u64::from_le_bytes([0xF8, 0xC0, 0xC0, 0xC0, 0xF8, 0xC0, 0xC0, 0xC0]);
pub(crate) const FOUR_BYTE_BITS: u64 =
    u64::from_le_bytes([0xF0, 0x80, 0x80, 0x80, 0xF0, 0x80, 0x80, 0x80]);

/// The length of the longest ASCII prefix of `src`: 64-byte blocks through the standard
/// library's vectorised `is_ascii`, then 8-byte words (the first non-ASCII byte is found from
/// the word's high bits), then single bytes.
#[inline]
pub(crate) fn ascii_prefix_len(src: &[u8]) -> usize {
    let mut len = 0;
    for block in src.split_chunks::<CHUNK>().0 {
        if !block.is_ascii() {
            break;
        }
        len += CHUNK;
    }
    let rest = &src[len..];
    let (words, tail) = rest.split_chunks::<8>();
    for word in words {
        let high = u64::from_le_bytes(*word) & HIGH_BITS;
        if high != 0 {
            // Little-endian view: the lowest set bit belongs to the first non-ASCII byte.
            return len + (high.trailing_zeros() / 8) as usize;
        }
        len += 8;
    }
    len + tail.iter().take_while(|b| b.is_ascii()).count()
}

/// The low byte of the UTF-16 unit of a 2- or 3-byte UTF-8 sequence, from its last two bytes:
/// bits 7..6 are the low two bits of the byte before the last, bits 5..0 those of the last.
#[inline(always)]
pub(crate) fn low_byte_of(before_last: u8, last: u8) -> u8 {
    ((before_last & 0x03) << 6) | (last & 0x3F)
}

/// The low byte of the high surrogate of a 4-byte UTF-8 sequence `b0 b1 b2 b3` (code point
/// c): the surrogate is 0xD800 + ((c - 0x10000) >> 10), so its low byte is bits 17..10 of
/// c - 0x10000, which come from b1 (bits 17..12 of c) and b2 (bits 11..10), minus 0x40 for
/// the 0x10000 (bit 16 of c is bit 6 of that byte). b0 only holds bits above 17.
#[inline(always)]
pub(crate) fn high_surrogate_low_byte(b1: u8, b2: u8) -> u8 {
    (((b1 & 0x3F) << 2) | ((b2 >> 4) & 0x03)).wrapping_sub(0x40)
}

/// The low bytes of a word of ASCII and at most two 2-byte UTF-8 sequences (no other lead
/// byte; the word does not start with a continuation byte), squeezed together: each
/// continuation byte `c` after its lead `l` becomes `low_byte_of(l, c)`, ASCII bytes stay,
/// the lead bytes are removed and the bytes above them move down. `high` and `leads` mark
/// the non-ASCII and the lead bytes (bit 7 of each), `second` the higher lead alone (0 if
/// there is only one). The result's first `8 - (number of leads)` bytes are the output.
#[inline(always)]
pub(crate) fn squeeze_two_byte_chars(word: u64, high: u64, leads: u64, second: u64) -> u64 {
    /// `bytes` without its byte `at`: the bytes above it move down one place.
    #[inline(always)]
    fn remove(bytes: u64, at: u32) -> u64 {
        let below = (1u64 << (8 * at)) - 1;
        (bytes & below) | ((bytes >> 8) & !below)
    }
    let continuations = high ^ leads;
    // Every byte with the two low bits of the byte before it on top; kept for continuations.
    let values = (((word << 8) & (EACH * 0x03)) << 6) | (word & (EACH * 0x3F));
    let take = (continuations >> 7) * 0xFF; // 0xFF on each continuation byte
    let bytes = (word & !take) | (values & take);
    // The higher lead first, so that the lower one keeps its place. `second` is `leads`
    // without its lowest bit: the higher lead, or 0 when there is only one.
    let first = leads.trailing_zeros() / 8;
    if second == 0 {
        remove(bytes, first)
    } else {
        remove(remove(bytes, second.trailing_zeros() / 8), first)
    }
}

// The three functions below compute the low bytes of four UTF-16 units at once, in plain
// integer registers (SWAR): each applies `low_byte_of` / `high_surrogate_low_byte` to every
// sequence of the window with shifts and masks, then packs the four results into a `u32`
// (little-endian: the first unit's byte lowest). Written out by hand because LLVM, given four
// separate bytes, moves them through vector registers one by one, which is slower.

/// Four 2-byte sequences `l c` in a little-endian word: each 16-bit lane becomes
/// `low_byte_of(l, c)`.
#[inline(always)]
pub(crate) fn two_byte_low_bytes(word: u64) -> u32 {
    // Per lane: bits 1..0 of the lead to bits 7..6, bits 5..0 of the continuation below.
    let lanes = ((word & 0x0003_0003_0003_0003) << 6) | ((word >> 8) & 0x003F_003F_003F_003F);
    ((lanes & 0xFF)
        | ((lanes >> 8) & 0xFF00)
        | ((lanes >> 16) & 0xFF_0000)
        | ((lanes >> 24) & 0xFF00_0000)) as u32
}

/// Four 3-byte sequences `l c1 c2` in the first 12 bytes of a little-endian `u128`: each
/// becomes `low_byte_of(c1, c2)`, computed in place of `c1` (bytes 1, 4, 7, 10).
#[inline(always)]
pub(crate) fn three_byte_low_bytes(wide: u128) -> u32 {
    const AT_C1: u128 = u128::from_le_bytes([0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0]);
    let lanes = ((wide & (AT_C1 * 0x03)) << 6) | ((wide >> 8) & (AT_C1 * 0x3F));
    ((lanes >> 8) & 0xFF
        | (lanes >> 24) & 0xFF00
        | (lanes >> 40) & 0xFF_0000
        | (lanes >> 56) & 0xFF00_0000) as u32
}

/// The low bytes of the four UTF-16 units of two 4-byte UTF-8 sequences held in a
/// little-endian word, both at once: each 32-bit lane is one sequence `b0 b1 b2 b3`, and
/// becomes `[high_surrogate_low_byte(b1, b2), low_byte_of(b2, b3)]`, packed into 4 bytes.
#[inline(always)]
pub(crate) fn surrogate_pairs_low_bytes(word: u64) -> u32 {
    const LANES_LOW_BYTE: u64 = 0x0000_00FF_0000_00FF;
    // High surrogate: bits 5..0 of b1 (lane bits 13..8) and 5..4 of b2 (lane bits 21..20),
    // minus 0x40 modulo 256 (adding 0xC0 and dropping the carry).
    let high = ((word >> 6) & 0x0000_00FC_0000_00FC) | ((word >> 20) & 0x0000_0003_0000_0003);
    let high = (high + 0x0000_00C0_0000_00C0) & LANES_LOW_BYTE;
    // Low surrogate: bits 1..0 of b2 (lane bits 17..16) and 5..0 of b3 (lane bits 29..24).
    let low = ((word >> 10) & 0x0000_00C0_0000_00C0) | ((word >> 24) & 0x0000_003F_0000_003F);
    // Each lane: high surrogate's byte, then low surrogate's; then the two lanes side by side.
    let pairs = high | (low << 8);
    ((pairs & 0xFFFF) | ((pairs >> 16) & 0xFFFF_0000)) as u32
}

/// The high bit of each byte of `word` (read little-endian) that may not be in a header value
/// (a control byte other than HTAB, or DEL), in plain integer arithmetic: no carry crosses a
/// byte, so every byte is told exactly.
#[inline(always)]
pub(crate) fn not_header_bytes(word: u64) -> u64 {
    let low7 = word & (EACH * 0x7F);
    // At least 0x20: the low seven bits reach 0x20, or the high bit is set.
    let at_least_space = (low7 + EACH * 0x60) | word;
    // DEL: the low seven bits all set, and the high bit clear.
    let del = (low7 + EACH) & !word;
    // HTAB: the byte equals 0x09, that is, its XOR with 0x09 is zero.
    let tab_diff = word ^ (EACH * 0x09);
    let not_tab = ((tab_diff & (EACH * 0x7F)) + EACH * 0x7F) | tab_diff;
    ((!at_least_space & not_tab) | del) & HIGH_BITS
}

#[cfg(test)]
mod tests {
    use super::not_header_bytes;
    use crate::reference::is_header_byte;

    /// Every byte value at every place of a word, among every other byte value at the other
    /// places (one pattern per value): the word arithmetic agrees with the byte rule.
    #[test]
    fn the_word_rule_is_the_byte_rule() {
        for byte in (0..=255u8).step_by(wirebytes_testkit::scale_miri(1, 1, 21)) {
            for at in (0..8).step_by(wirebytes_testkit::scale_miri(1, 1, 9)) {
                for other in (0..=255u8).step_by(wirebytes_testkit::scale_miri(1, 1, 33)) {
                    let mut word = [other; 8];
                    word[at] = byte;
                    let expect = word.iter().enumerate().fold(0u64, |mask, (i, &b)| {
                        mask | u64::from(!is_header_byte(b)) << (8 * i + 7)
                    });
                    assert_eq!(
                        not_header_bytes(u64::from_le_bytes(word)),
                        expect,
                        "{word:02x?}"
                    );
                }
            }
        }
    }
}
