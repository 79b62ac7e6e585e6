//! The crate's word-at-a-time (SWAR) helpers: the constants and small steps the portable
//! paths share. Words are read little-endian (`from_le_bytes`), so byte `k` of the input is
//! bits `8k..8k+8` on every target, big-endian ones included.

/// The high bit of every byte of a word: set in a byte iff that byte is not ASCII.
pub(crate) const HIGH_BITS: u64 = 0x8080_8080_8080_8080;
/// The same for 16 bytes.
pub(crate) const HIGH_BITS_WIDE: u128 = (HIGH_BITS as u128) << 64 | HIGH_BITS as u128;
/// One in each byte of a word: `EACH * b` is the byte `b` in every place.
pub(crate) const EACH: u64 = 0x0101_0101_0101_0101;

/// Four 2-byte sequences `110xxxxx 10xxxxxx` in a little-endian word: `word & MASK == BITS`.
pub(crate) const TWO_BYTE_MASK: u64 =
    u64::from_le_bytes([0xE0, 0xC0, 0xE0, 0xC0, 0xE0, 0xC0, 0xE0, 0xC0]);
pub(crate) const TWO_BYTE_BITS: u64 =
    u64::from_le_bytes([0xC0, 0x80, 0xC0, 0x80, 0xC0, 0x80, 0xC0, 0x80]);
/// Four 3-byte sequences `1110xxxx 10xxxxxx 10xxxxxx` in the first 12 bytes of 16 read
/// little-endian: `wide & THREE_BYTE_MASK == THREE_BYTE_BITS`.
pub(crate) const THREE_BYTE_MASK: u128 = u128::from_le_bytes([
    0xF0, 0xC0, 0xC0, 0xF0, 0xC0, 0xC0, 0xF0, 0xC0, 0xC0, 0xF0, 0xC0, 0xC0, 0, 0, 0, 0,
]);
pub(crate) const THREE_BYTE_BITS: u128 = u128::from_le_bytes([
    0xE0, 0x80, 0x80, 0xE0, 0x80, 0x80, 0xE0, 0x80, 0x80, 0xE0, 0x80, 0x80, 0, 0, 0, 0,
]);

/// Eight bytes as a little-endian word.
#[inline(always)]
pub(crate) fn word(bytes: &[u8; 8]) -> u64 {
    u64::from_le_bytes(*bytes)
}

/// The index of the first byte of a word whose bit is set in `marks` (only bit 7 of each
/// byte set; not zero): in memory order, since words are little-endian.
#[inline(always)]
pub(crate) fn first_marked(marks: u64) -> usize {
    (marks.trailing_zeros() / 8) as usize
}

/// How many bytes at the start of `bytes` are ASCII: eight at a time, then one by one.
#[inline(always)]
pub(crate) fn ascii_run(bytes: &[u8]) -> usize {
    let mut n = 0;
    for eight in bytes.chunks_exact(8).filter_map(<[u8]>::first_chunk::<8>) {
        let high = word(eight) & HIGH_BITS;
        if high != 0 {
            return n + first_marked(high);
        }
        n += 8;
    }
    n + bytes[n..].iter().take_while(|b| b.is_ascii()).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Against the plain count, with the first non-ASCII byte at every position of the
    /// words and the tail, and none at all.
    #[test]
    fn ascii_run_counts_the_leading_ascii_bytes() {
        for len in 0..40 {
            for at in 0..=len {
                let mut bytes = vec![b'a'; len];
                if at < len {
                    bytes[at] = 0xC3;
                }
                assert_eq!(ascii_run(&bytes), at, "len {len}, non-ASCII at {at}");
            }
        }
    }

    #[test]
    fn first_marked_is_in_memory_order() {
        for k in 0..8 {
            let mut bytes = [0u8; 8];
            bytes[k] = 0x80;
            if k + 1 < 8 {
                bytes[k + 1] = 0x80;
            }
            assert_eq!(first_marked(word(&bytes) & HIGH_BITS), k);
        }
    }
}
