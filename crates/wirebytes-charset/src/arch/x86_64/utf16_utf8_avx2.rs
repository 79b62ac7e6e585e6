//! The AVX2 kernel of UTF-16 units to UTF-8, for text of one- and two-byte chars
//! (U+0000..U+07FF: Latin, Greek, Cyrillic, Hebrew, Arabic and the like). Each step takes 16
//! units, none above U+07FF: all ASCII, narrowed to bytes; else each unit's one or two bytes
//! in its 16-bit lane, and per 8 units one `pshufb` from a table indexed by which of them
//! take two bytes gathers the bytes to the front of 16, stored whole (the bytes past the
//! gathered ones are scratch, overwritten by the next store). Its contract is
//! [`Kernels::utf16_utf8`](crate::arch::Kernels::utf16_utf8)'s, for a room that takes
//! scratch writes.

use std::mem::MaybeUninit;

use std::arch::x86_64::{
    __m128i, _mm_loadu_si128, _mm_shuffle_epi8, _mm_storeu_si128, _mm256_and_si256,
    _mm256_blendv_epi8, _mm256_castsi256_si128, _mm256_cmpeq_epi16, _mm256_extracti128_si256,
    _mm256_loadu_si256, _mm256_movemask_epi8, _mm256_or_si256, _mm256_packs_epi16,
    _mm256_packus_epi16, _mm256_permute4x64_epi64, _mm256_set1_epi16, _mm256_setzero_si256,
    _mm256_slli_epi16, _mm256_srli_epi16,
};

/// For each set of 8 units (bit `j`: unit `j` takes two bytes, else one), the `pshufb`
/// indices that gather, from the 16 bytes of their lanes, byte `2j` of each unit and byte
/// `2j + 1` of each two-byte one, in order, then 0x80 (a zero byte).
static GATHER: [[u8; 16]; 256] = gather_table();

const fn gather_table() -> [[u8; 16]; 256] {
    let mut table = [[0x80_u8; 16]; 256];
    let mut mask = 0;
    while mask < 256 {
        let (mut j, mut k) = (0, 0);
        while j < 8 {
            table[mask][k] = 2 * j as u8;
            k += 1;
            if mask & (1 << j) != 0 {
                table[mask][k] = 2 * j as u8 + 1;
                k += 1;
            }
            j += 1;
        }
        mask += 1;
    }
    table
}

/// See [`Kernels::utf16_utf8`](crate::arch::Kernels::utf16_utf8): steps of 16 units, none
/// above U+07FF, while `src` has them and `dst` has 32 bytes of room from the next byte on
/// (each step's two 16-byte stores).
#[target_feature(enable = "avx2,popcnt")]
pub(crate) fn utf16_utf8_avx2(src: &[u16], dst: &mut [MaybeUninit<u8>]) -> (usize, usize) {
    let (mut read, mut written) = (0, 0);
    let zero = _mm256_setzero_si256();
    let above_ascii = _mm256_set1_epi16(0xFF80_u16 as i16);
    let above_two = _mm256_set1_epi16(0xF800_u16 as i16);
    let low6 = _mm256_set1_epi16(0x3F);
    while let Some(block) = src.get(read..read + 16) {
        let Some(out) = dst.get_mut(written..written + 32) else {
            break;
        };
        // SAFETY: the load reads the 32 bytes of `block` (16 units); no alignment
        // requirement.
        let v = unsafe { _mm256_loadu_si256(block.as_ptr().cast()) };
        let one_or_two = _mm256_cmpeq_epi16(_mm256_and_si256(v, above_two), zero);
        if _mm256_movemask_epi8(one_or_two) != -1 {
            break;
        }
        let ascii = _mm256_cmpeq_epi16(_mm256_and_si256(v, above_ascii), zero);
        // One byte per unit, unit `j` of each 8 in bit `j` (bits 0..8 and 16..24).
        let ascii_bits = _mm256_movemask_epi8(_mm256_packs_epi16(ascii, zero)) as u32;
        let out = out.as_mut_ptr().cast::<__m128i>();
        if ascii_bits == 0x00FF_00FF {
            // The units as bytes, the lanes' order put back.
            let bytes = _mm256_permute4x64_epi64::<0b1000>(_mm256_packus_epi16(v, v));
            // SAFETY: the store writes the first 16 of the 32 bytes of `out`; no alignment
            // requirement.
            unsafe { _mm_storeu_si128(out, _mm256_castsi256_si128(bytes)) };
            read += 16;
            written += 16;
            continue;
        }
        // Each lane: its lead byte low, its trail byte high (ASCII: the unit itself).
        let lead = _mm256_or_si256(_mm256_srli_epi16::<6>(v), _mm256_set1_epi16(0xC0));
        let trail = _mm256_or_si256(_mm256_and_si256(v, low6), _mm256_set1_epi16(0x80));
        let two = _mm256_or_si256(lead, _mm256_slli_epi16::<8>(trail));
        let lanes = _mm256_blendv_epi8(two, v, ascii);
        let first = (!ascii_bits & 0xFF) as usize;
        let second = (!ascii_bits >> 16 & 0xFF) as usize;
        // SAFETY: the loads read the 16 bytes of a table entry; no alignment requirement.
        let (gather_first, gather_second) = unsafe {
            (
                _mm_loadu_si128(GATHER[first].as_ptr().cast()),
                _mm_loadu_si128(GATHER[second].as_ptr().cast()),
            )
        };
        let n = 8 + first.count_ones() as usize;
        // SAFETY: the stores write bytes 0..16 and n..n + 16 (n <= 16) of the 32 bytes of
        // `out`; no alignment requirement.
        unsafe {
            _mm_storeu_si128(
                out,
                _mm_shuffle_epi8(_mm256_castsi256_si128(lanes), gather_first),
            );
            _mm_storeu_si128(
                out.cast::<u8>().add(n).cast(),
                _mm_shuffle_epi8(_mm256_extracti128_si256::<1>(lanes), gather_second),
            );
        }
        read += 16;
        written += n + 8 + second.count_ones() as usize;
    }
    (read, written)
}
