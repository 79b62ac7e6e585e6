//! Runs of 4-byte chars (SSSE3): see `Kernels::four_byte_blocks`.

use core::arch::x86_64::{
    _mm_and_si128, _mm_andnot_si128, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8,
    _mm_or_si128, _mm_set1_epi8, _mm_set1_epi16, _mm_shuffle_epi8, _mm_slli_epi16, _mm_srli_epi16,
    _mm_storeu_si128, _mm_sub_epi8,
};
use core::mem::MaybeUninit;

use super::vector;

/// The `pshufb` indices of [`four_byte_blocks_ssse3`] for one 16-byte load of four 4-byte
/// sequences `b0 b1 b2 b3` going to output bytes `8 * half..8 * half + 8` (two per char):
/// the leads (into bytes `4 * half + j`), then the bytes that make each output byte: for
/// the high surrogate's byte, `b1` and `b2`; for the low surrogate's, `b2` and `b3`.
struct FourByteLoad {
    leads: [i8; 16],
    first: [i8; 16],
    second: [i8; 16],
}

impl FourByteLoad {
    const fn new(half: usize) -> FourByteLoad {
        let mut load = FourByteLoad {
            leads: [-128; 16],
            first: [-128; 16],
            second: [-128; 16],
        };
        let mut j = 0;
        while j < 4 {
            let at = 4 * j as i8;
            load.leads[4 * half + j] = at;
            load.first[8 * half + 2 * j] = at + 1;
            load.second[8 * half + 2 * j] = at + 2;
            load.first[8 * half + 2 * j + 1] = at + 2;
            load.second[8 * half + 2 * j + 1] = at + 3;
            j += 1;
        }
        load
    }
}

/// The two loads of a 32-byte block of eight 4-byte sequences.
const FOUR_BYTE_LOADS: [FourByteLoad; 2] = [FourByteLoad::new(0), FourByteLoad::new(1)];

/// See [`Kernels::four_byte_blocks`](crate::arch::Kernels::four_byte_blocks). A 4-byte sequence `b0 b1 b2 b3` (U+10000..U+10FFFF) is
/// a surrogate pair in UTF-16; the high surrogate's low byte is
/// `((b1 & 0x3F) << 2 | (b2 >> 4) & 0x03) - 0x40` and the low surrogate's
/// `(b2 & 0x03) << 6 | (b3 & 0x3F)` (see `crate::swar`). The two bytes each output byte
/// needs are gathered into two registers, both formulas are computed for every byte, and the
/// even (high surrogate) and odd (low surrogate) bytes are taken from the one that applies.
#[target_feature(enable = "ssse3")]
pub(crate) fn four_byte_blocks_ssse3(src: &[u8], dst: &mut [MaybeUninit<u8>]) -> (usize, usize) {
    let mut read = 0;
    let mut written = 0;
    // 16 bytes of `src` after the block: see `Kernels::four_byte_blocks`.
    while let (Some(block), true, Some(out)) = (
        src.get(read..).and_then(<[u8]>::first_chunk::<32>),
        src.len() - read >= 32 + 16,
        dst.get_mut(written..)
            .and_then(<[MaybeUninit<u8>]>::first_chunk_mut::<16>),
    ) {
        let mut leads = _mm_set1_epi8(0);
        let mut first = _mm_set1_epi8(0);
        let mut second = _mm_set1_epi8(0);
        for (half, load) in FOUR_BYTE_LOADS.iter().enumerate() {
            // SAFETY: the 16 bytes read are bytes `16 * half..16 * half + 16` of `block`, a
            // `[u8; 32]`; the load has no alignment requirement.
            let v = unsafe { _mm_loadu_si128(block.as_ptr().add(16 * half).cast()) };
            leads = _mm_or_si128(leads, _mm_shuffle_epi8(v, vector(load.leads)));
            first = _mm_or_si128(first, _mm_shuffle_epi8(v, vector(load.first)));
            second = _mm_or_si128(second, _mm_shuffle_epi8(v, vector(load.second)));
        }
        // Bit j (of 8): byte 4j is a 4-byte lead (`11110xxx`; `src` is UTF-8, so its
        // continuation bytes follow). The first `chars` sequences are 4-byte chars.
        let f0 = _mm_set1_epi8(0xF0u8 as i8);
        let is_lead = _mm_cmpeq_epi8(_mm_and_si128(leads, f0), f0);
        let chars = (!_mm_movemask_epi8(is_lead)).trailing_zeros().min(8) as usize;
        if chars == 0 {
            break;
        }
        // The 16-bit shifts move no set bit across a byte boundary once masked.
        let high_surrogate = _mm_sub_epi8(
            _mm_or_si128(
                _mm_slli_epi16(_mm_and_si128(first, _mm_set1_epi8(0x3F)), 2),
                _mm_and_si128(_mm_srli_epi16(second, 4), _mm_set1_epi8(0x03)),
            ),
            _mm_set1_epi8(0x40),
        );
        let low_surrogate = _mm_or_si128(
            _mm_slli_epi16(_mm_and_si128(first, _mm_set1_epi8(0x03)), 6),
            _mm_and_si128(second, _mm_set1_epi8(0x3F)),
        );
        let even = _mm_set1_epi16(0x00FF);
        let bytes = _mm_or_si128(
            _mm_and_si128(even, high_surrogate),
            _mm_andnot_si128(even, low_surrogate),
        );
        // SAFETY: `out` is a `[u8; 16]`: the 16 bytes written lie inside it; the store has no
        // alignment requirement.
        unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), bytes) };
        read += 4 * chars;
        written += 2 * chars;
        if chars < 8 {
            break;
        }
    }
    (read, written)
}
