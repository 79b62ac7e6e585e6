//! Runs of 3-byte chars (SSSE3): see `Kernels::three_byte_blocks`.

use core::arch::x86_64::{
    _mm_and_si128, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
    _mm_shuffle_epi8, _mm_slli_epi16, _mm_storeu_si128,
};
use core::mem::MaybeUninit;

use super::vector;

/// One 16-byte load of a block of sixteen 3-byte sequences, with its constants.
struct Load {
    /// The offset of the 16 loaded bytes in the 48-byte block.
    at: usize,
    /// The `pshufb` indices that gather the lead, the first and the second continuation bytes
    /// of its four sequences into the four bytes of the result that belong to this load.
    lead: [i8; 16],
    c1: [i8; 16],
    c2: [i8; 16],
}

impl Load {
    /// The load at offset `at` of the block, whose four sequences start at byte `first` of
    /// the register, and go to bytes `4 * slot..4 * slot + 4` of the result.
    const fn new(at: usize, first: i8, slot: usize) -> Load {
        Load {
            at,
            lead: gather(first, 0, slot),
            c1: gather(first, 1, slot),
            c2: gather(first, 2, slot),
        }
    }
}

/// The four loads of a 48-byte block: sequences 0-3, 4-7, 8-11 and 12-15. The last one is
/// loaded from offset 32 so that it stays inside the block (its sequences start at byte 4).
const LOADS: [Load; 4] = [
    Load::new(0, 0, 0),
    Load::new(12, 0, 1),
    Load::new(24, 0, 2),
    Load::new(32, 4, 3),
];

/// The `pshufb` indices that put the bytes at `first + 3j + offset` (j = 0..3) of a register
/// into bytes `4 * slot + j` of the result, zeroing every other byte (index 0x80).
const fn gather(first: i8, offset: i8, slot: usize) -> [i8; 16] {
    let mut indices = [-128i8; 16]; // 0x80: a zero byte
    let mut j = 0;
    while j < 4 {
        indices[4 * slot + j] = first + 3 * j as i8 + offset;
        j += 1;
    }
    indices
}

/// See [`Kernels::three_byte_blocks`](crate::arch::Kernels::three_byte_blocks). A 3-byte sequence `l c1 c2` (U+0800..U+FFFF) has the low
/// byte `(c1 & 0x03) << 6 | (c2 & 0x3F)`: for each of the four loads of a 48-byte block, the
/// first continuation bytes of its four sequences are gathered into one register and the
/// second ones into another, each into its own four bytes, and the sixteen low bytes are then
/// computed together and stored, whatever the block holds. Where a sequence is found that is
/// not a 3-byte one, only the chars before it count; the bytes stored for the others are
/// overwritten by the caller's next output (see [`Kernels::three_byte_blocks`](crate::arch::Kernels::three_byte_blocks)).
#[target_feature(enable = "ssse3")]
pub(crate) fn three_byte_blocks_ssse3(src: &[u8], dst: &mut [MaybeUninit<u8>]) -> (usize, usize) {
    let mut read = 0;
    let mut written = 0;
    while let (Some(block), Some(out)) = (
        src.get(read..).and_then(<[u8]>::first_chunk::<48>),
        dst.get_mut(written..)
            .and_then(<[MaybeUninit<u8>]>::first_chunk_mut::<16>),
    ) {
        let mut leads = _mm_set1_epi8(0);
        let mut c1 = _mm_set1_epi8(0);
        let mut c2 = _mm_set1_epi8(0);
        for load in &LOADS {
            // SAFETY: `load.at + 16 <= 48`: the 16 bytes read lie inside `block`, a
            // `[u8; 48]`; the load has no alignment requirement.
            let v = unsafe { _mm_loadu_si128(block.as_ptr().add(load.at).cast()) };
            leads = _mm_or_si128(leads, _mm_shuffle_epi8(v, vector(load.lead)));
            c1 = _mm_or_si128(c1, _mm_shuffle_epi8(v, vector(load.c1)));
            c2 = _mm_or_si128(c2, _mm_shuffle_epi8(v, vector(load.c2)));
        }
        // Bit j: byte 3j is a 3-byte lead (`1110xxxx`). `src` is UTF-8, so a lead's
        // continuation bytes follow it: the first `chars` sequences are 3-byte chars (the ones
        // after a sequence that is not may only seem to be: they are out of step).
        let is_lead = _mm_cmpeq_epi8(
            _mm_and_si128(leads, _mm_set1_epi8(0xF0u8 as i8)),
            _mm_set1_epi8(0xE0u8 as i8),
        );
        let chars = (!_mm_movemask_epi8(is_lead)).trailing_zeros().min(16) as usize;
        if chars == 0 {
            break;
        }
        // (c1 & 0x03) << 6 within each byte: the 16-bit shift moves bits 1..0 of each byte to
        // bits 7..6 of the same byte, never into its neighbour.
        let high = _mm_slli_epi16(_mm_and_si128(c1, _mm_set1_epi8(0x03)), 6);
        let low = _mm_and_si128(c2, _mm_set1_epi8(0x3F));
        // SAFETY: `out` is a `[u8; 16]`: the 16 bytes written lie inside it; the store has no
        // alignment requirement.
        unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), _mm_or_si128(high, low)) };
        read += 3 * chars;
        written += chars;
        if chars < 16 {
            // One ASCII byte (a space, a digit) between two runs: copy it over the first of
            // the bytes just left past the count, and go on with the next run. The bytes left
            // past the count are then one fewer, and so are the ones of `src` that follow.
            match (src.get(read), src.get(read + 1), dst.get_mut(written)) {
                (Some(&ascii), Some(&next), Some(d)) if ascii < 0x80 && next & 0xF0 == 0xE0 => {
                    d.write(ascii);
                    read += 1;
                    written += 1;
                }
                _ => break,
            }
        }
    }
    (read, written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_gather_indices_pick_the_continuation_bytes() {
        assert_eq!(
            gather(4, 2, 3),
            [
                -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, 6, 9, 12,
                15
            ]
        );
        assert_eq!(
            gather(0, 0, 0),
            [
                0, 3, 6, 9, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128
            ]
        );
    }
}
