//! The AVX-512 kernel of UTF-8 to UTF-16 or UTF-32 for text of any kind: sixteen bytes per
//! step, each byte's would-be char computed in a 32-bit lane (from it and the three bytes
//! after it, by the class of its lead byte), then the lanes of the bytes that start a char
//! packed with `vpcompressd` (UTF-32) or, as one or two 16-bit units, `vpcompressw`
//! (UTF-16: a char above U+FFFF as its surrogate pair); 32 bytes in 16-bit lanes where no
//! char longer than two bytes starts in them, tried again only after a window with none. Its
//! contract is [`Kernels::utf8_units`](crate::arch::Kernels::utf8_units)'s.

use std::mem::MaybeUninit;

use std::arch::x86_64::{
    __m512i, __mmask16, _mm_loadu_si128, _mm_setr_epi8, _mm256_loadu_si256, _mm512_and_si512,
    _mm512_broadcast_i32x4, _mm512_castsi512_si256, _mm512_cmpge_epu16_mask,
    _mm512_cmpge_epu32_mask, _mm512_cmpneq_epi16_mask, _mm512_cmpneq_epi32_mask,
    _mm512_cvtepu8_epi16, _mm512_cvtepu8_epi32, _mm512_cvtepu16_epi32, _mm512_extracti64x4_epi64,
    _mm512_loadu_si512, _mm512_mask_mov_epi16, _mm512_mask_mov_epi32, _mm512_maskz_compress_epi16,
    _mm512_maskz_compress_epi32, _mm512_maskz_mov_epi32, _mm512_movepi8_mask, _mm512_or_si512,
    _mm512_set1_epi16, _mm512_set1_epi32, _mm512_shuffle_epi8, _mm512_slli_epi16,
    _mm512_slli_epi32, _mm512_srli_epi16, _mm512_srli_epi32, _mm512_storeu_si512, _mm512_sub_epi32,
    _mm512_test_epi16_mask,
};

/// The sixteen bytes of `window` from `k`, each zero-extended to a 32-bit lane; zeros when
/// they are not all in it.
#[target_feature(enable = "avx512f")]
#[inline]
fn widen16(window: &[u8], k: usize) -> __m512i {
    match window.get(k..).and_then(<[u8]>::first_chunk::<16>) {
        // SAFETY: the load reads the 16 bytes of `bytes`; no alignment requirement.
        Some(bytes) => _mm512_cvtepu8_epi32(unsafe { _mm_loadu_si128(bytes.as_ptr().cast()) }),
        None => _mm512_set1_epi32(0),
    }
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

/// The lanes of `b0` with only the bits of `mask`.
#[target_feature(enable = "avx512f")]
#[inline]
fn lead(b0: __m512i, mask: i32) -> __m512i {
    _mm512_and_si512(b0, _mm512_set1_epi32(mask))
}

/// The lanes of `b0` of at least `byte`.
#[target_feature(enable = "avx512f")]
#[inline]
fn at_least(b0: __m512i, byte: i32) -> __mmask16 {
    _mm512_cmpge_epu32_mask(b0, _mm512_set1_epi32(byte))
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
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi2,popcnt")]
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
        // Else a window: the sixteen bytes from `i` and the three after them (the rest of a
        // char that starts in the last three).
        let (Some(window), Some(out)) = (
            src.get(i..i + 19),
            dst.get_mut(unit * n..unit * n + 64)
                .and_then(<[MaybeUninit<u8>]>::first_chunk_mut::<64>),
        ) else {
            break;
        };
        let b0 = widen16(window, 0);
        if at_least(b0, 0x80) == 0 && ascii64(src.get(i..)) {
            // A run of 64 ASCII bytes: the ASCII-run kernel is faster there.
            break;
        }
        let low6 = _mm512_set1_epi32(0x3F);
        let c1 = _mm512_and_si512(widen16(window, 1), low6);
        let c2 = _mm512_and_si512(widen16(window, 2), low6);
        let c3 = _mm512_and_si512(widen16(window, 3), low6);
        let two = _mm512_or_si512(_mm512_slli_epi32::<6>(lead(b0, 0x1F)), c1);
        let three = _mm512_or_si512(
            _mm512_or_si512(
                _mm512_slli_epi32::<12>(lead(b0, 0x0F)),
                _mm512_slli_epi32::<6>(c1),
            ),
            c2,
        );
        let four = _mm512_or_si512(
            _mm512_or_si512(
                _mm512_slli_epi32::<18>(lead(b0, 0x07)),
                _mm512_slli_epi32::<12>(c1),
            ),
            _mm512_or_si512(_mm512_slli_epi32::<6>(c2), c3),
        );
        let (is2, is3, is4) = (at_least(b0, 0xC0), at_least(b0, 0xE0), at_least(b0, 0xF0));
        // The bytes that start a char: all but the continuation bytes (`10xxxxxx`).
        let starts = _mm512_cmpneq_epi32_mask(lead(b0, 0xC0), _mm512_set1_epi32(0x80));
        // UTF-16: four 3-byte chars first (CJK) go to the 3-byte-run kernel, faster there.
        const FOUR_THREES: u16 = 0b1001_0010_0100_1001;
        const FIRST_TWELVE: u16 = 0x0FFF;
        if !UTF32
            && starts & FIRST_TWELVE == FOUR_THREES & FIRST_TWELVE
            && is3 & FOUR_THREES & FIRST_TWELVE == FOUR_THREES & FIRST_TWELVE
            && is4 & FIRST_TWELVE == 0
        {
            break;
        }
        let mut chars = _mm512_mask_mov_epi32(b0, is2, two);
        chars = _mm512_mask_mov_epi32(chars, is3, three);
        chars = _mm512_mask_mov_epi32(chars, is4, four);
        let (packed, count) = if UTF32 {
            let mut packed = _mm512_maskz_compress_epi32(starts, chars);
            if BIG_ENDIAN {
                let reverse = _mm_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12);
                packed = _mm512_shuffle_epi8(packed, _mm512_broadcast_i32x4(reverse));
            }
            (packed, starts.count_ones())
        } else {
            // A char above U+FFFF: its high surrogate in the lane's low half, its low one in
            // the high half; other chars fill the low half alone.
            let above = _mm512_sub_epi32(chars, _mm512_set1_epi32(0x1_0000));
            let high = _mm512_or_si512(_mm512_set1_epi32(0xD800), _mm512_srli_epi32::<10>(above));
            let low = _mm512_or_si512(
                _mm512_set1_epi32(0xDC00),
                _mm512_and_si512(chars, _mm512_set1_epi32(0x3FF)),
            );
            let pair = _mm512_or_si512(high, _mm512_slli_epi32::<16>(low));
            let units = _mm512_mask_mov_epi32(chars, is4, pair);
            // The 16-bit halves kept: the low one of each start, the high one of a start of
            // four bytes too.
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
        // requirement. The first `unit * count` of them are the units; the rest are zeros,
        // initialised bytes past the count, which the next store or the caller overwrites.
        unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast(), packed) };
        n += count as usize;
        i += 16;
        // A window with a longer char in it is most likely followed by another.
        two_bytes = is3 & starts == 0;
    }
    (super::next_char_start(src, i), n)
}
