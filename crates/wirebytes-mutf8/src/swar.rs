//! Word-at-a-time helpers, the crate's one set: masks and tests on the bytes of a `u64` (or
//! two), which the scans, the decoders and the writers share.
//!
//! A word holds eight bytes little-endian (byte `k` in bits `8k..8k + 8`) wherever the
//! index of a byte is read back from a bit position.

/// The high bit of every byte of a word.
pub(crate) const HIGH_BITS: u64 = 0x8080_8080_8080_8080;
/// `1` in every byte of a word.
pub(crate) const LOW_BITS: u64 = 0x0101_0101_0101_0101;
/// The high bit of every byte of a 16-byte word.
pub(crate) const HIGH_BITS_128: u128 = 0x8080_8080_8080_8080_8080_8080_8080_8080;

/// Eight bytes of `bytes` from `at` as a little-endian word (byte `k` in bits `8k..8k+8`).
///
/// Panics when fewer than eight bytes follow `at` (the callers check first).
#[inline(always)]
pub(crate) fn word(bytes: &[u8], at: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(w)
}

/// How many bytes of a little-endian word come before the first with its high bit set (8
/// when none has it).
#[inline(always)]
pub(crate) fn ascii_len(w: u64) -> usize {
    ((w & HIGH_BITS).trailing_zeros() / 8) as usize
}

/// How many of the 32 bytes of `block` are ASCII before the first that is not.
#[inline(always)]
pub(crate) fn ascii_prefix(block: &[u8; 32]) -> usize {
    let (lo, hi) = block.split_at(16);
    let lo = u128::from_le_bytes(lo.try_into().expect("16 bytes")) & HIGH_BITS_128;
    let hi = u128::from_le_bytes(hi.try_into().expect("16 bytes")) & HIGH_BITS_128;
    if lo != 0 {
        (lo.trailing_zeros() / 8) as usize
    } else if hi != 0 {
        16 + (hi.trailing_zeros() / 8) as usize
    } else {
        32
    }
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

#[cfg(test)]
mod tests {
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
                assert_eq!(ascii_len(w), if b < 0x80 { 8 } else { k }, "{b:02x} at {k}");
                assert_eq!(word(&bytes, 0), w);
            }
        }
    }

    #[test]
    fn the_ascii_prefix_of_a_block_stops_at_its_first_high_byte() {
        for at in 0..=32 {
            for b in [0x80, 0xC3, 0xFF] {
                let mut block = [b'a'; 32];
                if at < 32 {
                    block[at] = b;
                }
                assert_eq!(ascii_prefix(&block), at, "{b:02x} at {at}");
            }
        }
    }
}
