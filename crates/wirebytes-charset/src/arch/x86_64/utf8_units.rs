//! The AVX-512 kernel of UTF-8 to UTF-16 or UTF-32 for text of any kind: windows of sixteen
//! bytes, up to three from one 64-byte load, each byte's would-be char computed in a 32-bit
//! lane (its byte and the three after it gathered with `vpermb`, joined by multiply-adds and
//! shifted by the class of its first byte), then the lanes of the bytes that start a char
//! packed with `vpcompressd` (UTF-32) or, as one or two 16-bit units, `vpcompressw` (UTF-16:
//! a char above U+FFFF as its surrogate pair); 32 bytes in 16-bit lanes where no char longer
//! than two bytes starts in them, tried again only after a window with none. Its contract is
//! [`Kernels::utf8_units`](crate::arch::Kernels::utf8_units)'s.

use std::mem::MaybeUninit;

use std::arch::x86_64::{
    __m512i, _mm_setr_epi8, _mm256_loadu_si256, _mm512_add_epi32, _mm512_and_si512,
    _mm512_andnot_si512, _mm512_broadcast_i32x4, _mm512_castsi512_si256, _mm512_cmpge_epu8_mask,
    _mm512_cmpge_epu16_mask, _mm512_cmplt_epi8_mask, _mm512_cmpneq_epi16_mask,
    _mm512_cvtepu8_epi16, _mm512_cvtepu16_epi32, _mm512_extracti64x4_epi64, _mm512_loadu_si512,
    _mm512_madd_epi16, _mm512_maddubs_epi16, _mm512_mask_mov_epi16, _mm512_mask_mov_epi32,
    _mm512_maskz_compress_epi16, _mm512_maskz_compress_epi32, _mm512_maskz_mov_epi32,
    _mm512_movepi8_mask, _mm512_or_si512, _mm512_permutexvar_epi8, _mm512_permutexvar_epi32,
    _mm512_set1_epi8, _mm512_set1_epi16, _mm512_set1_epi32, _mm512_setr_epi32,
    _mm512_setzero_si512, _mm512_shrdv_epi32, _mm512_shuffle_epi8, _mm512_slli_epi16,
    _mm512_slli_epi32, _mm512_srli_epi16, _mm512_srli_epi32, _mm512_storeu_si512, _mm512_sub_epi32,
    _mm512_test_epi16_mask,
};

/// The bytes a window of sixteen reads: its own and the three after them (the rest of a char
/// that starts in its last three).
const WINDOW_READ: usize = 19;

/// The char each of the sixteen bytes of `block` from `k` (0, 16 or 32) would start, in
/// 32-bit lanes: the value of the bytes from it as one char of the length its high bits say
/// (for a continuation byte, a value of no meaning).
///
/// Each lane gathers its byte and the three after it, first byte highest, with `vpermb`;
/// masked to their payload bits (seven of the first byte, six of the others) and joined
/// with two multiply-adds, they make the value of a 4-byte char. A shorter char is that
/// value shifted right 6 bits for each byte it lacks, once the first byte's length bits
/// (`1110` of a 3-byte lead, say) are cleared. Both the shift and those bits come from one
/// table by the first byte's high four bits: the shift in its low five bits (the bits it
/// clears there are shifted out anyway), the length bits above.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2")]
#[inline]
fn window_chars(block: __m512i, k: usize) -> __m512i {
    // Lane `j`: bytes `k + j + 3`, `k + j + 2`, `k + j + 1`, `k + j`, lowest first.
    let gather = _mm512_add_epi32(
        _mm512_setr_epi32(
            0x0001_0203,
            0x0102_0304,
            0x0203_0405,
            0x0304_0506,
            0x0405_0607,
            0x0506_0708,
            0x0607_0809,
            0x0708_090A,
            0x0809_0A0B,
            0x090A_0B0C,
            0x0A0B_0C0D,
            0x0B0C_0D0E,
            0x0C0D_0E0F,
            0x0D0E_0F10,
            0x0E0F_1011,
            0x0F10_1112,
        ),
        _mm512_set1_epi32((k as i32) * 0x0101_0101),
    );
    let lanes = _mm512_permutexvar_epi8(gather, block);
    let payload = _mm512_and_si512(lanes, _mm512_set1_epi32(0x7F3F_3F3F));
    // Pairs of 6-bit fields into 12 bits, then the two into 24.
    let pairs = _mm512_maddubs_epi16(payload, _mm512_set1_epi16(0x4001));
    let value = _mm512_madd_epi16(pairs, _mm512_set1_epi32(0x1000_0001));
    // By the first byte's high four bits: ASCII 0-7, continuation 8-11, 2-byte leads 12
    // and 13, 3-byte 14, 4-byte 15. The length bits sit at 18 + 4..7 in `value`.
    const SHIFT_AND_LENGTH: [i32; 16] = {
        let mut table = [18; 16];
        table[12] = 12 | (0x40 << 18);
        table[13] = 12 | (0x40 << 18);
        table[14] = 6 | (0x60 << 18);
        table[15] = 0x70 << 18;
        table
    };
    let [
        t0,
        t1,
        t2,
        t3,
        t4,
        t5,
        t6,
        t7,
        t8,
        t9,
        t10,
        t11,
        t12,
        t13,
        t14,
        t15,
    ] = SHIFT_AND_LENGTH;
    let table = _mm512_setr_epi32(
        t0, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13, t14, t15,
    );
    let entry = _mm512_permutexvar_epi32(_mm512_srli_epi32::<28>(lanes), table);
    // The length bits and the shift's own low bits cleared, then the shift (its count taken
    // modulo 32: the low five bits of the entry).
    _mm512_shrdv_epi32(
        _mm512_andnot_si512(entry, value),
        _mm512_setzero_si512(),
        entry,
    )
}

/// Whether `bytes` begins with 64 ASCII bytes.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn ascii64(bytes: Option<&[u8]>) -> bool {
    match bytes.and_then(<[u8]>::first_chunk::<64>) {
        Some(block) => {
            // SAFETY: the load reads the 64 bytes of `block`; no alignment requirement.
            let bytes = unsafe { _mm512_loadu_si512(block.as_ptr().cast()) };
            _mm512_movepi8_mask(bytes) == 0
        }
        None => false,
    }
}

/// One step of 32 bytes with no char longer than two bytes starting in them, in 16-bit lanes:
/// each byte's would-be char from it and the byte after it (the 33rd byte read for a char
/// that starts on the 32nd), the lanes of the bytes that start a char packed with
/// `vpcompressw`, stored as UTF-16 (64 bytes) or widened to UTF-32 (128 bytes). `None`,
/// writing nothing, when the 33 bytes or the room are not there, when a longer char starts
/// in the 32 bytes, or when they start a run of 64 ASCII bytes (the ASCII-run kernel's).
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi2,popcnt")]
#[inline]
fn two_byte_step<const UTF32: bool, const BIG_ENDIAN: bool>(
    src: Option<&[u8]>,
    dst: Option<&mut [MaybeUninit<u8>]>,
) -> Option<usize> {
    let bytes = src?.first_chunk::<33>()?;
    let (Some(first), Some(next)) = (bytes.first_chunk::<32>(), bytes.last_chunk::<32>()) else {
        return None;
    };
    // SAFETY: each load reads the 32 bytes of `first` or `next`; no alignment requirement.
    let (b0, b1) = unsafe {
        (
            _mm512_cvtepu8_epi16(_mm256_loadu_si256(first.as_ptr().cast())),
            _mm512_cvtepu8_epi16(_mm256_loadu_si256(next.as_ptr().cast())),
        )
    };
    if _mm512_cmpge_epu16_mask(b0, _mm512_set1_epi16(0xE0)) != 0 {
        return None;
    }
    let leads = _mm512_cmpge_epu16_mask(b0, _mm512_set1_epi16(0xC0));
    if leads == 0 && ascii64(src) {
        return None;
    }
    let out = dst?.get_mut(..if UTF32 { 128 } else { 64 })?;
    let two = _mm512_or_si512(
        _mm512_slli_epi16::<6>(_mm512_and_si512(b0, _mm512_set1_epi16(0x1F))),
        _mm512_and_si512(b1, _mm512_set1_epi16(0x3F)),
    );
    let units = _mm512_mask_mov_epi16(b0, leads, two);
    let starts = _mm512_cmpneq_epi16_mask(
        _mm512_and_si512(b0, _mm512_set1_epi16(0xC0)),
        _mm512_set1_epi16(0x80),
    );
    let packed = _mm512_maskz_compress_epi16(starts, units);
    if UTF32 {
        let mut low = _mm512_cvtepu16_epi32(_mm512_castsi512_si256(packed));
        let mut high = _mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64::<1>(packed));
        if BIG_ENDIAN {
            let reverse = _mm512_broadcast_i32x4(_mm_setr_epi8(
                3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12,
            ));
            low = _mm512_shuffle_epi8(low, reverse);
            high = _mm512_shuffle_epi8(high, reverse);
        }
        let (first, second) = out.split_at_mut(64);
        // SAFETY: each store writes 64 bytes, the two halves of `out` (128 bytes), borrowed
        // mutably; no alignment requirement.
        unsafe {
            _mm512_storeu_si512(first.as_mut_ptr().cast(), low);
            _mm512_storeu_si512(second.as_mut_ptr().cast(), high);
        }
    } else {
        let mut packed = packed;
        if BIG_ENDIAN {
            packed = _mm512_or_si512(
                _mm512_slli_epi16::<8>(packed),
                _mm512_srli_epi16::<8>(packed),
            );
        }
        // SAFETY: the store writes the 64 bytes of `out`, borrowed mutably; no alignment
        // requirement.
        unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast(), packed) };
    }
    Some(starts.count_ones() as usize)
}

/// See [`Kernels::utf8_units`](crate::arch::Kernels::utf8_units): UTF-32 units when `UTF32`,
/// else UTF-16, big-endian when `BIG_ENDIAN`, else little-endian.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt")]
pub(crate) fn utf8_units_avx512<const UTF32: bool, const BIG_ENDIAN: bool>(
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
) -> (usize, usize) {
    let unit = if UTF32 { 4 } else { 2 };
    let (mut i, mut n) = (0usize, 0usize);
    // Whether the next step may be a two-byte one (no longer char started in the last
    // window).
    let mut two_bytes = true;
    loop {
        // 32 bytes of ASCII and 2-byte chars in 16-bit lanes where they are that.
        let taken = if two_bytes {
            two_byte_step::<UTF32, BIG_ENDIAN>(src.get(i..), dst.get_mut(unit * n..))
        } else {
            None
        };
        if let Some(count) = taken {
            n += count;
            i += 32;
            continue;
        }
        // Else up to three windows of sixteen bytes from one block of 64 (each window's
        // chars may end in the three bytes after it).
        let rest = src.get(i..).unwrap_or_default();
        if rest.len() < WINDOW_READ {
            break;
        }
        let block = super::load_first64(rest);
        // Per byte of the block: ASCII, a continuation byte, a lead of 3 or more bytes, of 4.
        let high = _mm512_movepi8_mask(block);
        let tails = _mm512_cmplt_epi8_mask(block, _mm512_set1_epi8(0xC0_u8 as i8));
        let threes = _mm512_cmpge_epu8_mask(block, _mm512_set1_epi8(0xE0_u8 as i8));
        let fours = _mm512_cmpge_epu8_mask(block, _mm512_set1_epi8(0xF0_u8 as i8));
        let mut stop = false;
        for k in [0, 16, 32] {
            if k + WINDOW_READ > rest.len() {
                break;
            }
            let Some(out) = dst
                .get_mut(unit * n..unit * n + 64)
                .and_then(<[MaybeUninit<u8>]>::first_chunk_mut::<64>)
            else {
                stop = true;
                break;
            };
            let bits = |mask: u64| (mask >> k) as u16;
            // The bytes that start a char: all but the continuation bytes (`10xxxxxx`).
            let (starts, is3, is4) = (!bits(tails), bits(threes), bits(fours));
            if bits(high) == 0 && ascii64(src.get(i..)) {
                // A run of 64 ASCII bytes: the ASCII-run kernel is faster there.
                stop = true;
                break;
            }
            // UTF-16: four 3-byte chars first (CJK) go to the 3-byte-run kernel, faster there.
            const FOUR_THREES: u16 = 0b1001_0010_0100_1001;
            const FIRST_TWELVE: u16 = 0x0FFF;
            if !UTF32
                && starts & FIRST_TWELVE == FOUR_THREES & FIRST_TWELVE
                && is3 & FOUR_THREES & FIRST_TWELVE == FOUR_THREES & FIRST_TWELVE
                && is4 & FIRST_TWELVE == 0
            {
                stop = true;
                break;
            }
            let chars = window_chars(block, k);
            let (packed, count) = if UTF32 {
                let mut packed = _mm512_maskz_compress_epi32(starts, chars);
                if BIG_ENDIAN {
                    let reverse =
                        _mm_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12);
                    packed = _mm512_shuffle_epi8(packed, _mm512_broadcast_i32x4(reverse));
                }
                (packed, starts.count_ones())
            } else {
                // A char above U+FFFF: its high surrogate in the lane's low half, its low one
                // in the high half; other chars fill the low half alone.
                let above = _mm512_sub_epi32(chars, _mm512_set1_epi32(0x1_0000));
                let high =
                    _mm512_or_si512(_mm512_set1_epi32(0xD800), _mm512_srli_epi32::<10>(above));
                let low = _mm512_or_si512(
                    _mm512_set1_epi32(0xDC00),
                    _mm512_and_si512(chars, _mm512_set1_epi32(0x3FF)),
                );
                let pair = _mm512_or_si512(high, _mm512_slli_epi32::<16>(low));
                let units = _mm512_mask_mov_epi32(chars, is4, pair);
                // The 16-bit halves kept: the low one of each start, the high one of a start
                // of four bytes too.
                let halves = _mm512_mask_mov_epi32(
                    _mm512_maskz_mov_epi32(starts, _mm512_set1_epi32(0xFFFF)),
                    is4 & starts,
                    _mm512_set1_epi32(-1),
                );
                let keep = _mm512_test_epi16_mask(halves, halves);
                let mut packed = _mm512_maskz_compress_epi16(keep, units);
                if BIG_ENDIAN {
                    packed = _mm512_or_si512(
                        _mm512_slli_epi16::<8>(packed),
                        _mm512_srli_epi16::<8>(packed),
                    );
                }
                (packed, keep.count_ones())
            };
            // SAFETY: the store writes the 64 bytes of `out`, borrowed mutably; no alignment
            // requirement. The first `unit * count` of them are the units; the rest are
            // initialised bytes past the count, which the next store or the caller
            // overwrites.
            unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast(), packed) };
            n += count as usize;
            i += 16;
            // A window with a longer char in it is most likely followed by another; after
            // one with none, the two-byte step is tried again.
            two_bytes = is3 & starts == 0;
            if two_bytes {
                break;
            }
        }
        if stop {
            break;
        }
    }
    (super::next_char_start(src, i), n)
}
