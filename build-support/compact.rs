//! The `pshufb` table that squeezes bytes out of an 8-byte group: shared by every crate whose
//! SSSE3 kernels drop bytes from a window (each links this file into its x86-64 module).

/// For each mask of dropped bytes among eight (bit `i`: byte `i`), the `pshufb` indices that
/// gather the kept bytes to the front, in order, then 0x80 (a zero byte) for each dropped
/// one. As a little-endian `u64`: index `k` in byte `k`. Add 8 to every index (OR
/// `0x0808_0808_0808_0808`) for the upper half of a 16-byte register.
pub(super) static COMPACT: [u64; 256] = compact_table();

const fn compact_table() -> [u64; 256] {
    let mut table = [0u64; 256];
    let mut mask = 0;
    while mask < 256 {
        let mut entry = [0x80u8; 8];
        let (mut i, mut k) = (0, 0);
        while i < 8 {
            if mask & (1 << i) == 0 {
                entry[k] = i as u8;
                k += 1;
            }
            i += 1;
        }
        table[mask] = u64::from_le_bytes(entry);
        mask += 1;
    }
    table
}

#[cfg(test)]
mod tests {
    use super::COMPACT;

    /// Every entry lists the kept bytes' indices in order, then 0x80s.
    #[test]
    fn entries_list_the_kept_bytes_in_order() {
        for (mask, &entry) in COMPACT.iter().enumerate() {
            let got = entry.to_le_bytes();
            let kept = (0..8u8).filter(|&i| mask & (1 << i) == 0);
            let mut want = [0x80u8; 8];
            for (slot, i) in want.iter_mut().zip(kept) {
                *slot = i;
            }
            assert_eq!(got, want, "mask {mask:#010b}");
        }
    }
}
