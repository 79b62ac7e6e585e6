//! [`crate::decode_utf16`] 16 bytes at a time for text made of ASCII and 2-byte sequences
//! (Cyrillic, Greek, Hebrew, accented Latin...): SSSE3, chosen at run time.
//!
//! A block qualifies when every byte is ASCII, a 2-byte lead (`110xxxxx`) or a continuation
//! byte right after a lead. Each byte position `p` then gets a 16-bit lane holding bytes `p`
//! and `p + 1`, decoded as ASCII or as a 2-byte sequence; a `pshufb` per half keeps the lanes
//! where a char starts (a table indexed by the 8-bit mask of starts), in order.

#[cfg(target_arch = "x86")]
use core::arch::x86::{
    __m128i, _mm_and_si128, _mm_andnot_si128, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128,
    _mm_set1_epi16, _mm_setr_epi8, _mm_shuffle_epi8, _mm_slli_epi16, _mm_srai_epi16,
    _mm_srli_epi16, _mm_storeu_si128, _mm256_loadu_si256, _mm256_movemask_epi8, _mm256_slli_epi16,
    _mm512_and_si512, _mm512_cvtepu8_epi16, _mm512_mask_blend_epi16, _mm512_maskz_compress_epi16,
    _mm512_or_si512, _mm512_set1_epi16, _mm512_slli_epi16, _mm512_storeu_si512,
};
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::{
    __m128i, _mm_and_si128, _mm_andnot_si128, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128,
    _mm_set1_epi16, _mm_setr_epi8, _mm_shuffle_epi8, _mm_slli_epi16, _mm_srai_epi16,
    _mm_srli_epi16, _mm_storeu_si128, _mm256_loadu_si256, _mm256_movemask_epi8, _mm256_slli_epi16,
    _mm512_and_si512, _mm512_cvtepu8_epi16, _mm512_mask_blend_epi16, _mm512_maskz_compress_epi16,
    _mm512_or_si512, _mm512_set1_epi16, _mm512_slli_epi16, _mm512_storeu_si512,
};

/// For each 8-bit mask of lanes, the `pshufb` control that moves those 16-bit lanes to the
/// front, in order, and zeroes the rest.
static COMPACT: [[u8; 16]; 256] = compact_table();

const fn compact_table() -> [[u8; 16]; 256] {
    let mut table = [[0x80u8; 16]; 256];
    let mut mask = 0;
    while mask < 256 {
        let (mut lane, mut kept) = (0, 0);
        while lane < 8 {
            if mask & (1 << lane) != 0 {
                table[mask][2 * kept] = 2 * lane as u8;
                table[mask][2 * kept + 1] = 2 * lane as u8 + 1;
                kept += 1;
            }
            lane += 1;
        }
        mask += 1;
    }
    table
}

/// Whether the CPU has what [`decode_blocks`] needs.
#[inline]
pub(crate) fn available() -> bool {
    std::is_x86_feature_detected!("ssse3") && std::is_x86_feature_detected!("popcnt")
}

/// The chars of 16-bit lanes holding a byte `b0` (low) and the byte after it `b1` (high):
/// `b0` where `b0` is ASCII, else the 2-byte sequence `b0 b1`.
#[inline]
#[target_feature(enable = "ssse3")]
fn chars(pairs: __m128i) -> __m128i {
    let two = _mm_or_si128(
        _mm_slli_epi16(_mm_and_si128(pairs, _mm_set1_epi16(0x1F)), 6),
        _mm_and_si128(_mm_srli_epi16(pairs, 8), _mm_set1_epi16(0x3F)),
    );
    let ascii = _mm_and_si128(pairs, _mm_set1_epi16(0xFF));
    // All ones where bit 7 of `b0` is set.
    let lead = _mm_srai_epi16(_mm_slli_epi16(pairs, 8), 15);
    _mm_or_si128(_mm_and_si128(lead, two), _mm_andnot_si128(lead, ascii))
}

/// Stores the lanes of `chars` that `starts` selects at `out[o..]`; returns how many.
#[inline]
#[target_feature(enable = "ssse3,popcnt")]
fn store_starts(chars: __m128i, starts: u32, out: &mut [u16], o: usize) -> usize {
    let control = &COMPACT[starts as usize & 0xFF];
    // SAFETY: `control` is 16 bytes long; the load is unaligned.
    let control = unsafe { _mm_loadu_si128(control.as_ptr().cast()) };
    let dst = &mut out[o..o + 8];
    // SAFETY: `dst` is 8 chars (16 bytes) long; the store is unaligned.
    unsafe { _mm_storeu_si128(dst.as_mut_ptr().cast(), _mm_shuffle_epi8(chars, control)) };
    (starts & 0xFF).count_ones() as usize
}

/// Decodes `bytes[i..]` into `out[o..]` while the next 16 bytes qualify (see the module) and
/// hold a 2-byte sequence; returns the cursors where it stopped, at the start of a sequence
/// that is left to the caller (the JDK's checks included).
///
/// The blocks are back to back, so that where the next one starts never waits for this one's
/// bytes: a lead in the last byte of a block is decoded with it (its continuation byte checked
/// first), and that continuation byte, the first of the next block, is then not a char's start.
///
/// `i` must start a sequence, `o <= i` and `out.len() >= bytes.len()`: each block writes
/// at most one char per byte read, and its two 8-char stores stay within `out` (else the
/// slicing panics).
#[target_feature(enable = "ssse3,popcnt")]
pub(crate) fn decode_blocks(
    bytes: &[u8],
    mut i: usize,
    out: &mut [u16],
    mut o: usize,
) -> (usize, usize) {
    // Lane `p`: byte `p` low, byte `p + 1` high; the high half comes from a load 8 bytes on.
    let pairs = _mm_setr_epi8(0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8);
    // Whether the first byte of the block is the continuation byte of the last one's lead.
    let mut carried = 0u32;
    while let Some(block) = bytes.get(i..i + 24) {
        // SAFETY: `block` is 24 bytes long: both loads are within it, and unaligned.
        let (x, y) = unsafe {
            (
                _mm_loadu_si128(block.as_ptr().cast()),
                _mm_loadu_si128(block[8..].as_ptr().cast()),
            )
        };
        // Bits 7, 6 and 5 of each byte (the 16-bit shifts move bit 6, 5 of a byte to its bit
        // 7 and never carry a bit into another byte's bit 7).
        let bit7 = _mm_movemask_epi8(x) as u32;
        let bit6 = _mm_movemask_epi8(_mm_slli_epi16(x, 1)) as u32;
        let bit5 = _mm_movemask_epi8(_mm_slli_epi16(x, 2)) as u32;
        let continuation = bit7 & !bit6;
        let lead = bit7 & bit6 & !bit5;
        // Only ASCII, 2-byte leads and continuation bytes; each continuation byte right after
        // a lead, and one after a lead in the last byte; not all ASCII (which the caller
        // widens faster).
        let last = lead >> 15;
        if bit7 & bit6 & bit5 != 0
            || continuation != ((lead << 1) | carried) & 0xFFFF
            || (last != 0 && block[16] & 0xC0 != 0x80)
            || lead == 0
        {
            break;
        }
        let starts = !continuation;
        o += store_starts(chars(_mm_shuffle_epi8(x, pairs)), starts, out, o);
        o += store_starts(chars(_mm_shuffle_epi8(y, pairs)), starts >> 8, out, o);
        carried = last;
        i += 16;
    }
    // Past the continuation byte of a lead decoded with the last block.
    (i + carried as usize, o)
}

/// Whether the CPU has what [`decode_blocks_avx512`] needs.
#[inline]
pub(crate) fn avx512_available() -> bool {
    std::is_x86_feature_detected!("avx512f")
        && std::is_x86_feature_detected!("avx512bw")
        && std::is_x86_feature_detected!("avx512vbmi2")
        && std::is_x86_feature_detected!("avx2")
        && std::is_x86_feature_detected!("popcnt")
}

/// [`decode_blocks`] 32 bytes at a time with AVX-512: each byte `p` of a block and the byte
/// after it (a second load, one byte on) are widened into the low and high halves of a
/// 16-bit lane, every lane is decoded as ASCII or as a 2-byte sequence, and `vpcompressw`
/// keeps the lanes where a char starts, in order (no table).
///
/// Same contract as [`decode_blocks`]: `i` must start a sequence, `o <= i` and
/// `out.len() >= bytes.len()`; it returns the cursors where it stopped, at the start of a
/// sequence left to the caller.
#[target_feature(enable = "avx2,avx512f,avx512bw,avx512vbmi2,popcnt")]
pub(crate) fn decode_blocks_avx512(
    bytes: &[u8],
    mut i: usize,
    out: &mut [u16],
    mut o: usize,
) -> (usize, usize) {
    // Whether the first byte of the block is the continuation byte of the last one's lead.
    let mut carried = 0u32;
    while let Some(block) = bytes.get(i..i + 33) {
        // SAFETY: `block` is 33 bytes long: both 32-byte loads are within it, and unaligned.
        let (x, next) = unsafe {
            (
                _mm256_loadu_si256(block.as_ptr().cast()),
                _mm256_loadu_si256(block[1..].as_ptr().cast()),
            )
        };
        // Bits 7, 6 and 5 of each byte, and whether the byte after it continues.
        let bit7 = _mm256_movemask_epi8(x) as u32;
        let bit6 = _mm256_movemask_epi8(_mm256_slli_epi16(x, 1)) as u32;
        let bit5 = _mm256_movemask_epi8(_mm256_slli_epi16(x, 2)) as u32;
        let next7 = _mm256_movemask_epi8(next) as u32;
        let next6 = _mm256_movemask_epi8(_mm256_slli_epi16(next, 1)) as u32;
        let continuation = bit7 & !bit6;
        let lead = bit7 & bit6 & !bit5;
        // Only ASCII, 2-byte leads and continuation bytes; each lead followed by a
        // continuation byte (the last one's is the first byte of the next block), each
        // continuation byte right after a lead; not all ASCII (which the caller widens
        // faster). One branch on them all.
        let bad = (bit7 & bit6 & bit5)
            | (lead & !(next7 & !next6))
            | (continuation ^ ((lead << 1) | carried));
        if bad != 0 || lead == 0 {
            break;
        }
        let lo = _mm512_cvtepu8_epi16(x);
        let hi = _mm512_cvtepu8_epi16(next);
        let two = _mm512_or_si512(
            _mm512_slli_epi16(_mm512_and_si512(lo, _mm512_set1_epi16(0x1F)), 6),
            _mm512_and_si512(hi, _mm512_set1_epi16(0x3F)),
        );
        let chars = _mm512_mask_blend_epi16(lead, lo, two);
        let starts = !continuation;
        let dst = &mut out[o..o + 32];
        // SAFETY: `dst` is 32 chars (64 bytes) long; the store is unaligned.
        unsafe {
            _mm512_storeu_si512(
                dst.as_mut_ptr().cast(),
                _mm512_maskz_compress_epi16(starts, chars),
            );
        }
        o += starts.count_ones() as usize;
        carried = lead >> 31;
        i += 32;
    }
    // Past the continuation byte of a lead decoded with the last block.
    (i + carried as usize, o)
}
