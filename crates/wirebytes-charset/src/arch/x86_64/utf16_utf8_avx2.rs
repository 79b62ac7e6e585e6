//! The AVX2 kernel of UTF-16 units to UTF-8, for text of chars of the first plane (no
//! surrogate). Each step takes 16 units: all ASCII, narrowed to bytes; else, none above
//! U+07FF (Latin, Greek, Cyrillic, Hebrew, Arabic and the like), each unit's one or two bytes
//! in its 16-bit lane, and per 8 units one `pshufb` from a table indexed by which of them
//! take two bytes gathers the bytes to the front of 16; else (CJK and the like) each unit's
//! first two bytes in its lane and its third packed after the lanes of each 4 units, and per
//! 4 units one `pshufb` from a table indexed by their lengths. Each gather is stored whole:
//! the bytes past the gathered ones are scratch, overwritten by the next store. Its contract is
//! [`Kernels::utf16_utf8`](crate::arch::Kernels::utf16_utf8)'s, for a room that takes
//! scratch writes.

use std::mem::MaybeUninit;

use std::arch::x86_64::{
    __m128i, __m256i, _mm_loadu_si128, _mm_shuffle_epi8, _mm_srli_si128, _mm_storeu_si128,
    _mm_unpacklo_epi64, _mm256_and_si256, _mm256_blendv_epi8, _mm256_castsi256_si128,
    _mm256_cmpeq_epi16, _mm256_extracti128_si256, _mm256_loadu_si256, _mm256_movemask_epi8,
    _mm256_or_si256, _mm256_packs_epi16, _mm256_packus_epi16, _mm256_permute4x64_epi64,
    _mm256_set1_epi16, _mm256_setzero_si256, _mm256_slli_epi16, _mm256_srli_epi16,
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

/// For each 4 units' lengths (unit `j` in bits `2j..2j + 2`: 0 for one byte, 1 for two, 2
/// for three), the `pshufb` indices that gather, from their first two bytes (bytes `2j` and
/// `2j + 1`) and their third bytes (byte `8 + j`), the bytes of each unit in order, then
/// 0x80. The index 3 of a unit is never asked.
static GATHER_THREE: [[u8; 16]; 256] = gather_three_table();

const fn gather_three_table() -> [[u8; 16]; 256] {
    let mut table = [[0x80_u8; 16]; 256];
    let mut index = 0;
    while index < 256 {
        let (mut j, mut k) = (0, 0);
        while j < 4 {
            let length = (index >> (2 * j)) & 3;
            table[index][k] = 2 * j as u8;
            k += 1;
            if length >= 1 {
                table[index][k] = 2 * j as u8 + 1;
                k += 1;
            }
            if length >= 2 {
                table[index][k] = 8 + j as u8;
                k += 1;
            }
            j += 1;
        }
        index += 1;
    }
    table
}

/// Bits 0..4 of `bits` at bits 0, 2, 4 and 6.
const fn spread(bits: u32) -> usize {
    let b = (bits & 0xF) as usize;
    (b & 1) | (b & 2) << 1 | (b & 4) << 2 | (b & 8) << 3
}

/// See [`Kernels::utf16_utf8`](crate::arch::Kernels::utf16_utf8): steps of 16 units, no
/// surrogate among them, while `src` has them and `dst` has 32 bytes of room from the next
/// byte on (each step's two 16-byte stores), 64 where one is above U+07FF (four stores, each
/// from at most 12 bytes on).
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
        let ascii = _mm256_cmpeq_epi16(_mm256_and_si256(v, above_ascii), zero);
        // One byte per unit, unit `j` of each 8 in bit `j` (bits 0..8 and 16..24).
        let ascii_bits = _mm256_movemask_epi8(_mm256_packs_epi16(ascii, zero)) as u32;
        if _mm256_movemask_epi8(one_or_two) != -1 {
            let surrogate = _mm256_cmpeq_epi16(
                _mm256_and_si256(v, above_two),
                _mm256_set1_epi16(0xD800_u16 as i16),
            );
            if _mm256_movemask_epi8(surrogate) != 0 {
                break;
            }
            let Some(out) = dst.get_mut(written..written + 64) else {
                break;
            };
            let two_bits =
                _mm256_movemask_epi8(_mm256_packs_epi16(one_or_two, zero)) as u32 & !ascii_bits;
            written += three_step(v, ascii, one_or_two, ascii_bits, two_bits, out);
            read += 16;
            continue;
        }
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

/// Writes the UTF-8 of the 16 units of `v` (no surrogate; `ascii` and `one_or_two` the lanes
/// below U+0080 and U+0800, `ascii_bits` and `two_bits` their units as bits `j` and `16 + j`
/// of each 8, two-byte ones alone in `two_bits`) to the front of `out`, in four gathers of 4
/// units stored whole; returns the bytes.
#[target_feature(enable = "avx2,popcnt")]
#[inline]
fn three_step(
    v: __m256i,
    ascii: __m256i,
    one_or_two: __m256i,
    ascii_bits: u32,
    two_bits: u32,
    out: &mut [MaybeUninit<u8>],
) -> usize {
    let low6 = _mm256_set1_epi16(0x3F);
    let cont = _mm256_set1_epi16(0x80);
    let last = _mm256_or_si256(_mm256_and_si256(v, low6), cont);
    let middle = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16::<6>(v), low6), cont);
    let lead2 = _mm256_or_si256(_mm256_srli_epi16::<6>(v), _mm256_set1_epi16(0xC0));
    let lead3 = _mm256_or_si256(_mm256_srli_epi16::<12>(v), _mm256_set1_epi16(0xE0));
    // Each lane: its first byte low, its second high (ASCII: the unit itself).
    let first_two = _mm256_blendv_epi8(
        _mm256_or_si256(lead3, _mm256_slli_epi16::<8>(middle)),
        _mm256_or_si256(lead2, _mm256_slli_epi16::<8>(last)),
        one_or_two,
    );
    let first_two = _mm256_blendv_epi8(first_two, v, ascii);
    // The third bytes, one per unit: units 0..8 of each half in its bytes 0..8.
    let thirds = _mm256_packus_epi16(last, last);
    let three_bits = !(ascii_bits | two_bits) & 0x00FF_00FF;
    let mut n = 0;
    for half in 0..2 {
        let (lanes, thirds) = if half == 0 {
            (
                _mm256_castsi256_si128(first_two),
                _mm256_castsi256_si128(thirds),
            )
        } else {
            (
                _mm256_extracti128_si256::<1>(first_two),
                _mm256_extracti128_si256::<1>(thirds),
            )
        };
        for group in 0..2 {
            // The 4 units' first two bytes in bytes 0..8, their third in bytes 8..12.
            let bytes = if group == 0 {
                _mm_unpacklo_epi64(lanes, thirds)
            } else {
                _mm_unpacklo_epi64(_mm_srli_si128::<8>(lanes), _mm_srli_si128::<4>(thirds))
            };
            let shift = 16 * half + 4 * group;
            let (two, three) = (two_bits >> shift, three_bits >> shift);
            let index = spread(two) | spread(three) << 1;
            // SAFETY: the load reads the 16 bytes of a table entry; no alignment requirement.
            let gather = unsafe { _mm_loadu_si128(GATHER_THREE[index].as_ptr().cast()) };
            // SAFETY: the store writes bytes n..n + 16 of `out`, which has 64: each gather
            // before it advanced `n` by at most 12, so n <= 36; no alignment requirement.
            unsafe {
                _mm_storeu_si128(
                    out.as_mut_ptr().add(n).cast(),
                    _mm_shuffle_epi8(bytes, gather),
                );
            }
            n += 4 + (two & 0xF).count_ones() as usize + 2 * (three & 0xF).count_ones() as usize;
        }
    }
    n
}
