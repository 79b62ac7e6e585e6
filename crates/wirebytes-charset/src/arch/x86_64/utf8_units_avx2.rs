//! The AVX2 kernel of UTF-8 to UTF-16 or UTF-32 for text of any kind. Three steps:
//!
//! - 32 bytes with no char longer than two bytes starting in them (ASCII, Latin, Cyrillic,
//!   Greek, Hebrew, Arabic), as two halves of sixteen: each byte's would-be char from it and
//!   the byte after it, in a 16-bit lane;
//! - else, to UTF-16, fifteen bytes in 16-bit lanes: each byte's would-be unit from it and
//!   the two bytes after it, a 4-byte char's high surrogate in its lead byte's lane and its
//!   low one in the next lane;
//! - else, to UTF-32, sixteen bytes as two vectors of eight (eight alone where the three
//!   bytes after the sixteen or the room for them are not there): each byte's would-be char
//!   from it and the three bytes after it, in a 32-bit lane.
//!
//! AVX2 has no compress instruction: the kept lanes are gathered to the front of each
//! 128-bit half with `pshufb`, the indices from a table by the half's mask of kept lanes, and
//! the two halves are stored one after the other. Its contract is
//! [`Kernels::utf8_units`](crate::arch::Kernels::utf8_units)'s.

use std::mem::MaybeUninit;

use std::arch::x86_64::{
    __m128i, __m256i, _mm_and_si128, _mm_cmpeq_epi8, _mm_cmpgt_epi8, _mm_loadu_si128, _mm_max_epu8,
    _mm_movemask_epi8, _mm_set1_epi8, _mm_srli_si128, _mm_storeu_si128, _mm256_add_epi16,
    _mm256_alignr_epi8, _mm256_and_si256, _mm256_blendv_epi8, _mm256_castsi256_si128,
    _mm256_cmpeq_epi8, _mm256_cmpgt_epi16, _mm256_cmpgt_epi32, _mm256_cvtepu8_epi16,
    _mm256_cvtepu8_epi32, _mm256_cvtepu16_epi32, _mm256_extracti128_si256, _mm256_loadu_si256,
    _mm256_max_epu8, _mm256_movemask_epi8, _mm256_or_si256, _mm256_permute2x128_si256,
    _mm256_set_m128i, _mm256_set1_epi8, _mm256_set1_epi16, _mm256_set1_epi32, _mm256_setr_epi8,
    _mm256_shuffle_epi8, _mm256_slli_epi16, _mm256_slli_epi32, _mm256_srli_epi16,
    _mm256_storeu_si256,
};

/// For each mask of kept 16-bit lanes among eight (bit `i`: lane `i`), the `pshufb` indices
/// that gather the kept lanes' bytes to the front, in order, then 0x80 (a zero byte).
static KEEP_UNITS: [[u8; 16]; 256] = keep_table::<256, 2>();

/// The same for 32-bit lanes among four.
static KEEP_CHARS: [[u8; 16]; 16] = keep_table::<16, 4>();

const fn keep_table<const MASKS: usize, const WIDTH: usize>() -> [[u8; 16]; MASKS] {
    let mut table = [[0x80u8; 16]; MASKS];
    let mut mask = 0;
    while mask < MASKS {
        let (mut lane, mut k) = (0, 0);
        while lane < 16 / WIDTH {
            if mask & (1 << lane) != 0 {
                let mut b = 0;
                while b < WIDTH {
                    table[mask][k] = (lane * WIDTH + b) as u8;
                    b += 1;
                    k += 1;
                }
            }
            lane += 1;
        }
        mask += 1;
    }
    table
}

/// `v`'s kept lanes (the low half's by `low`, the high half's by `high`) gathered to the
/// front of each half, zeros after them.
#[target_feature(enable = "avx2")]
#[inline]
fn gather(v: __m256i, low: &[u8; 16], high: &[u8; 16]) -> __m256i {
    // SAFETY: each load reads the 16 bytes of a table row; no alignment requirement.
    let indices = unsafe {
        _mm256_set_m128i(
            _mm_loadu_si128(high.as_ptr().cast()),
            _mm_loadu_si128(low.as_ptr().cast()),
        )
    };
    _mm256_shuffle_epi8(v, indices)
}

/// Stores the two halves of `v` one after the other: the low one at the start of `out`, the
/// high one `first` bytes on (at most 16: `out` holds 32 bytes past it).
#[target_feature(enable = "avx2")]
#[inline]
fn store_halves(out: &mut [MaybeUninit<u8>; 32], v: __m256i, first: usize) {
    let (low, high) = (_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
    // SAFETY: the store writes the first 16 bytes of `out`, borrowed mutably; no alignment
    // requirement.
    unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), low) };
    // The high half after the low one's kept lanes, over its zeros (`first` is at most 16).
    if let Some(second) = out
        .get_mut(first.min(16)..)
        .and_then(<[MaybeUninit<u8>]>::first_chunk_mut::<16>)
    {
        // SAFETY: the store writes the 16 bytes of `second`, borrowed mutably; no alignment
        // requirement.
        unsafe { _mm_storeu_si128(second.as_mut_ptr().cast(), high) };
    }
}

/// Stores `v`'s two halves one after the other (the high one `first` bytes on) into the 64
/// bytes of `out`, each widened from eight 16-bit units to eight 32-bit ones.
#[target_feature(enable = "avx2")]
#[inline]
fn store_widened(out: &mut [MaybeUninit<u8>; 64], v: __m256i, first: usize, big_endian: bool) {
    let order = |w: __m256i| if big_endian { swap32(w) } else { w };
    let low = order(_mm256_cvtepu16_epi32(_mm256_castsi256_si128(v)));
    let high = order(_mm256_cvtepu16_epi32(_mm256_extracti128_si256::<1>(v)));
    // SAFETY: the store writes the first 32 bytes of `out`, borrowed mutably; no alignment
    // requirement.
    unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), low) };
    // The high half after the low one's kept units, over its zeros (`first` is at most 32).
    if let Some(second) = out
        .get_mut(first.min(32)..)
        .and_then(<[MaybeUninit<u8>]>::first_chunk_mut::<32>)
    {
        // SAFETY: the store writes the 32 bytes of `second`, borrowed mutably; no alignment
        // requirement.
        unsafe { _mm256_storeu_si256(second.as_mut_ptr().cast(), high) };
    }
}

/// The byte reversal of each 32-bit lane.
#[target_feature(enable = "avx2")]
#[inline]
fn swap32(v: __m256i) -> __m256i {
    _mm256_shuffle_epi8(
        v,
        _mm256_setr_epi8(
            3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12, 3, 2, 1, 0, 7, 6, 5, 4, 11, 10,
            9, 8, 15, 14, 13, 12,
        ),
    )
}

/// The byte swap of each 16-bit lane.
#[target_feature(enable = "avx2")]
#[inline]
fn swap16(v: __m256i) -> __m256i {
    _mm256_shuffle_epi8(
        v,
        _mm256_setr_epi8(
            1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14, 1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11,
            10, 13, 12, 15, 14,
        ),
    )
}

/// The mask of the bytes of `v` that start a char: all but the continuation bytes
/// (`10xxxxxx`, below -64 as `i8`).
#[target_feature(enable = "avx2")]
#[inline]
fn starts(v: __m128i) -> u32 {
    !(_mm_movemask_epi8(_mm_cmpgt_epi8(_mm_set1_epi8(-64), v)) as u32) & 0xFFFF
}

/// The mask of the bytes of `v` of at least `byte`: with 0xE0, those that lead a char longer
/// than two bytes; with 0xF0, those that lead a 4-byte char.
#[target_feature(enable = "avx2")]
#[inline]
fn bytes_from(v: __m128i, byte: u8) -> u32 {
    _mm_movemask_epi8(_mm_cmpeq_epi8(
        _mm_max_epu8(v, _mm_set1_epi8(byte as i8)),
        v,
    )) as u32
}

/// Whether `bytes` begins with 64 ASCII bytes.
#[target_feature(enable = "avx2")]
#[inline]
fn ascii64(bytes: &[u8]) -> bool {
    match bytes.first_chunk::<64>() {
        Some(block) => {
            let (Some(a), Some(b)) = (block.first_chunk::<32>(), block.last_chunk::<32>()) else {
                return false;
            };
            // SAFETY: each load reads the 32 bytes of `a` or `b`; no alignment requirement.
            let or = unsafe {
                _mm256_or_si256(
                    _mm256_loadu_si256(a.as_ptr().cast()),
                    _mm256_loadu_si256(b.as_ptr().cast()),
                )
            };
            _mm256_movemask_epi8(or) == 0
        }
        None => false,
    }
}

/// The units of the chars that start in the sixteen bytes `v` (none longer than two bytes;
/// `w` the sixteen from the second on), written to the front of `out` (which holds 32 bytes
/// for UTF-16, 64 for UTF-32; nothing is written when it does not) with zeros after them:
/// the units.
#[target_feature(enable = "avx2,popcnt")]
#[inline]
fn two_byte_units<const UTF32: bool, const BIG_ENDIAN: bool>(
    v: __m128i,
    w: __m128i,
    out: &mut [MaybeUninit<u8>],
) -> usize {
    let (b0, b1) = (_mm256_cvtepu8_epi16(v), _mm256_cvtepu8_epi16(w));
    let two = _mm256_or_si256(
        _mm256_slli_epi16::<6>(_mm256_and_si256(b0, _mm256_set1_epi16(0x1F))),
        _mm256_and_si256(b1, _mm256_set1_epi16(0x3F)),
    );
    let leads = _mm256_cmpgt_epi16(b0, _mm256_set1_epi16(0xBF));
    let units = _mm256_blendv_epi8(b0, two, leads);
    let keep = starts(v);
    let (low, high) = ((keep & 0xFF) as usize, (keep >> 8) as usize);
    let packed = gather(units, &KEEP_UNITS[low], &KEEP_UNITS[high]);
    let first = low.count_ones() as usize;
    if UTF32 {
        if let Some(out) = out.first_chunk_mut::<64>() {
            store_widened(out, packed, 4 * first, BIG_ENDIAN);
        }
    } else if let Some(out) = out.first_chunk_mut::<32>() {
        let packed = if BIG_ENDIAN { swap16(packed) } else { packed };
        store_halves(out, packed, 2 * first);
    }
    keep.count_ones() as usize
}

/// One step of 32 bytes with no char longer than two bytes starting in them, in 16-bit lanes
/// (the 33rd byte read for a char that starts on the 32nd), as two halves of sixteen:
/// `None`, writing nothing, when the 33 bytes or the room (64 bytes, 128 to UTF-32) are not
/// there, when a longer char starts in the 32, or when they start a run of 64 ASCII bytes
/// (the ASCII-run kernel's). Else the units written.
#[target_feature(enable = "avx2,popcnt")]
#[inline]
fn two_byte_step<const UTF32: bool, const BIG_ENDIAN: bool>(
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
) -> Option<usize> {
    let bytes = src.first_chunk::<33>()?;
    let (Some(first), Some(next)) = (bytes.first_chunk::<32>(), bytes.last_chunk::<32>()) else {
        return None;
    };
    // SAFETY: each load reads the 32 bytes of `first` or `next`; no alignment requirement.
    let (v, w) = unsafe {
        (
            _mm256_loadu_si256(first.as_ptr().cast()),
            _mm256_loadu_si256(next.as_ptr().cast()),
        )
    };
    // A byte of 0xE0 or more leads a longer char.
    if _mm256_movemask_epi8(_mm256_cmpeq_epi8(
        _mm256_max_epu8(v, _mm256_set1_epi8(0xE0u8 as i8)),
        v,
    )) != 0
    {
        return None;
    }
    if _mm256_movemask_epi8(v) == 0 && ascii64(src) {
        return None;
    }
    let unit = if UTF32 { 4 } else { 2 };
    // Room for both halves: the second starts at most sixteen units on.
    let out = dst.get_mut(..32 * unit)?;
    let (low, low_next) = (_mm256_castsi256_si128(v), _mm256_castsi256_si128(w));
    let count = two_byte_units::<UTF32, BIG_ENDIAN>(low, low_next, out);
    let (high, high_next) = (
        _mm256_extracti128_si256::<1>(v),
        _mm256_extracti128_si256::<1>(w),
    );
    let back = out.get_mut(unit * count..).unwrap_or_default();
    Some(count + two_byte_units::<UTF32, BIG_ENDIAN>(high, high_next, back))
}

/// Whether the step at `v` (the sixteen bytes from it) leaves the text to others: the
/// ASCII-run kernel where it starts a run of 64 ASCII bytes (`src`, which `v` begins), and,
/// for UTF-16, the 3-byte-run kernel where four 3-byte chars (`1110xxxx 10xxxxxx 10xxxxxx`
/// each) start in one of its first four bytes (the bytes before them go the portable way).
#[target_feature(enable = "avx2")]
#[inline]
fn leave<const UTF32: bool>(v: __m128i, src: &[u8]) -> bool {
    if _mm_movemask_epi8(v) & 0xFF == 0 && ascii64(src) {
        return true;
    }
    if UTF32 {
        return false;
    }
    const FOUR_THREES: u32 = 0b0010_0100_1001;
    let leads = _mm_movemask_epi8(_mm_cmpeq_epi8(
        _mm_and_si128(v, _mm_set1_epi8(0xF0u8 as i8)),
        _mm_set1_epi8(0xE0u8 as i8),
    )) as u32;
    let from = leads.trailing_zeros();
    from < 4
        && (leads >> from) & 0x0FFF == FOUR_THREES
        && (starts(v) >> from) & 0x0FFF == FOUR_THREES
}

/// One UTF-16 step of fifteen bytes of any kind, in 16-bit lanes (18 bytes read): each
/// byte's would-be unit from it and the two bytes after it, a 4-byte char as its high
/// surrogate in its lead byte's lane and its low one in the lane after (its second byte's,
/// which needs the third and fourth). The lanes kept are those of the bytes that start a
/// char in the fifteen, and those after a 4-byte lead. `None`, writing nothing, when the 18
/// bytes or the room (32 bytes) are not there, or when [`leave`] says so. Else the units
/// written, and whether a char longer than two bytes started in the step.
#[target_feature(enable = "avx2,popcnt")]
#[inline]
fn utf16_step<const BIG_ENDIAN: bool>(
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
) -> Option<(usize, bool)> {
    let bytes = src.first_chunk::<18>()?;
    let (Some(b), Some(n1), Some(n2)) = (
        bytes.first_chunk::<16>(),
        bytes.get(1..).and_then(<[u8]>::first_chunk::<16>),
        bytes.last_chunk::<16>(),
    ) else {
        return None;
    };
    // SAFETY: each load reads the 16 bytes of `b`, `n1` or `n2`; no alignment requirement.
    let (v, v1, v2) = unsafe {
        (
            _mm_loadu_si128(b.as_ptr().cast()),
            _mm_loadu_si128(n1.as_ptr().cast()),
            _mm_loadu_si128(n2.as_ptr().cast()),
        )
    };
    if leave::<false>(v, src) {
        return None;
    }
    let out = dst.first_chunk_mut::<32>()?;
    let low6 = _mm256_set1_epi16(0x3F);
    let b0 = _mm256_cvtepu8_epi16(v);
    let c1 = _mm256_and_si256(_mm256_cvtepu8_epi16(v1), low6);
    let c2 = _mm256_and_si256(_mm256_cvtepu8_epi16(v2), low6);
    let lead = |mask: i16| _mm256_and_si256(b0, _mm256_set1_epi16(mask));
    let two = _mm256_or_si256(_mm256_slli_epi16::<6>(lead(0x1F)), c1);
    let three = _mm256_or_si256(
        _mm256_or_si256(
            _mm256_slli_epi16::<12>(lead(0x0F)),
            _mm256_slli_epi16::<6>(c1),
        ),
        c2,
    );
    // The high surrogate: 0xD800 + ((char - 0x10000) >> 10), the char's top eleven bits less
    // 0x40; the low one, in the lane of the second byte (whose next two are the char's last
    // two): 0xDC00 + its low ten bits.
    let high = _mm256_add_epi16(
        _mm256_or_si256(
            _mm256_or_si256(
                _mm256_slli_epi16::<8>(lead(0x07)),
                _mm256_slli_epi16::<2>(c1),
            ),
            _mm256_srli_epi16::<4>(c2),
        ),
        _mm256_set1_epi16(0xD800u16.wrapping_sub(0x40) as i16),
    );
    let low = _mm256_or_si256(
        _mm256_or_si256(
            _mm256_slli_epi16::<6>(_mm256_and_si256(c1, _mm256_set1_epi16(0x0F))),
            c2,
        ),
        _mm256_set1_epi16(0xDC00u16 as i16),
    );
    let at_least = |byte: i16| _mm256_cmpgt_epi16(b0, _mm256_set1_epi16(byte - 1));
    let is4 = at_least(0xF0);
    // `is4` one lane up: the lanes after a 4-byte lead.
    let after4 = _mm256_alignr_epi8::<14>(is4, _mm256_permute2x128_si256::<0x08>(is4, is4));
    let mut units = _mm256_blendv_epi8(b0, two, at_least(0xC0));
    units = _mm256_blendv_epi8(units, three, at_least(0xE0));
    units = _mm256_blendv_epi8(units, high, is4);
    units = _mm256_blendv_epi8(units, low, after4);
    let keep = (starts(v) & 0x7FFF) | (bytes_from(v, 0xF0) << 1 & 0xFFFF);
    let (lo, hi) = ((keep & 0xFF) as usize, (keep >> 8) as usize);
    let mut packed = gather(units, &KEEP_UNITS[lo], &KEEP_UNITS[hi]);
    if BIG_ENDIAN {
        packed = swap16(packed);
    }
    store_halves(out, packed, 2 * lo.count_ones() as usize);
    Some((keep.count_ones() as usize, bytes_from(v, 0xE0) != 0))
}

/// One UTF-32 step of sixteen bytes of any kind, as two of eight (19 bytes read): `None`,
/// writing nothing, when the 19 bytes or the room (64 bytes) are not there, or when [`leave`]
/// says so. Else the chars written, and whether a char longer than two bytes started in the
/// step.
#[target_feature(enable = "avx2,popcnt")]
#[inline]
fn utf32_step16<const BIG_ENDIAN: bool>(
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
) -> Option<(usize, bool)> {
    let bytes = src.first_chunk::<19>()?;
    let (Some(b), Some(w)) = (bytes.first_chunk::<16>(), bytes.last_chunk::<16>()) else {
        return None;
    };
    // SAFETY: each load reads the 16 bytes of `b` or `w` (bytes 3..19); no alignment
    // requirement.
    let (v, w) = unsafe {
        (
            _mm_loadu_si128(b.as_ptr().cast()),
            _mm_loadu_si128(w.as_ptr().cast()),
        )
    };
    if leave::<true>(v, src) {
        return None;
    }
    let out = dst.first_chunk_mut::<64>()?;
    let keep = starts(v);
    let chars_low = eight_chars(
        v,
        _mm_srli_si128::<1>(v),
        _mm_srli_si128::<2>(v),
        _mm_srli_si128::<3>(v),
    );
    // Bytes 8..16 and the three after each: bytes 5.. of `w` on.
    let chars_high = eight_chars(
        _mm_srli_si128::<5>(w),
        _mm_srli_si128::<6>(w),
        _mm_srli_si128::<7>(w),
        _mm_srli_si128::<8>(w),
    );
    let (front, _) = out.split_first_chunk_mut::<32>()?;
    store_chars::<BIG_ENDIAN>(front, chars_low, keep & 0xFF);
    // The second eight bytes' chars after the first eight's (at most 32 bytes on, so the 64
    // bytes of `out` hold their 32), over the zeros after them.
    let first = (4 * (keep & 0xFF).count_ones() as usize).min(32);
    let back = out[first..].first_chunk_mut::<32>()?;
    store_chars::<BIG_ENDIAN>(back, chars_high, keep >> 8);
    Some((keep.count_ones() as usize, bytes_from(v, 0xE0) != 0))
}

/// One UTF-32 step of eight bytes of any kind, each byte's would-be char in a 32-bit lane
/// from it and the three bytes after it (16 bytes read): `None`, writing nothing, when the 16
/// bytes or the room (32 bytes) are not there, or when [`leave`] says so. Else the chars
/// written, and whether a char longer than two bytes started in the step.
#[target_feature(enable = "avx2,popcnt")]
#[inline]
fn utf32_step<const BIG_ENDIAN: bool>(
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
) -> Option<(usize, bool)> {
    let block = src.first_chunk::<16>()?;
    // SAFETY: the load reads the 16 bytes of `block`; no alignment requirement.
    let v = unsafe { _mm_loadu_si128(block.as_ptr().cast()) };
    if leave::<true>(v, src) {
        return None;
    }
    let out = dst.first_chunk_mut::<32>()?;
    let keep = starts(v) & 0xFF;
    let chars = eight_chars(
        v,
        _mm_srli_si128::<1>(v),
        _mm_srli_si128::<2>(v),
        _mm_srli_si128::<3>(v),
    );
    store_chars::<BIG_ENDIAN>(out, chars, keep);
    Some((keep.count_ones() as usize, bytes_from(v, 0xE0) & 0xFF != 0))
}

/// Stores the chars of the lanes of `chars` that `keep` marks (bit `i`: lane `i`, of eight)
/// to the front of the 32 bytes of `out`, in order and in the byte order asked for, with
/// zeros after them.
#[target_feature(enable = "avx2")]
#[inline]
fn store_chars<const BIG_ENDIAN: bool>(out: &mut [MaybeUninit<u8>; 32], chars: __m256i, keep: u32) {
    let (low, high) = ((keep & 0xF) as usize, (keep >> 4 & 0xF) as usize);
    let mut packed = gather(chars, &KEEP_CHARS[low], &KEEP_CHARS[high]);
    if BIG_ENDIAN {
        packed = swap32(packed);
    }
    store_halves(out, packed, 4 * low.count_ones() as usize);
}

/// The would-be chars of eight bytes (the low eight of `v0`), each in a 32-bit lane from the
/// byte and the three after it (the low eight of `v1`, `v2` and `v3`).
#[target_feature(enable = "avx2")]
#[inline]
fn eight_chars(v0: __m128i, v1: __m128i, v2: __m128i, v3: __m128i) -> __m256i {
    let b0 = _mm256_cvtepu8_epi32(v0);
    let low6 = _mm256_set1_epi32(0x3F);
    let c1 = _mm256_and_si256(_mm256_cvtepu8_epi32(v1), low6);
    let c2 = _mm256_and_si256(_mm256_cvtepu8_epi32(v2), low6);
    let c3 = _mm256_and_si256(_mm256_cvtepu8_epi32(v3), low6);
    let lead = |mask: i32| _mm256_and_si256(b0, _mm256_set1_epi32(mask));
    let two = _mm256_or_si256(_mm256_slli_epi32::<6>(lead(0x1F)), c1);
    let three = _mm256_or_si256(
        _mm256_or_si256(
            _mm256_slli_epi32::<12>(lead(0x0F)),
            _mm256_slli_epi32::<6>(c1),
        ),
        c2,
    );
    let four = _mm256_or_si256(
        _mm256_or_si256(
            _mm256_slli_epi32::<18>(lead(0x07)),
            _mm256_slli_epi32::<12>(c1),
        ),
        _mm256_or_si256(_mm256_slli_epi32::<6>(c2), c3),
    );
    let at_least = |byte: i32| _mm256_cmpgt_epi32(b0, _mm256_set1_epi32(byte - 1));
    let mut chars = _mm256_blendv_epi8(b0, two, at_least(0xC0));
    chars = _mm256_blendv_epi8(chars, three, at_least(0xE0));
    _mm256_blendv_epi8(chars, four, at_least(0xF0))
}

/// See [`Kernels::utf8_units`](crate::arch::Kernels::utf8_units): UTF-32 units when `UTF32`,
/// else UTF-16, big-endian when `BIG_ENDIAN`, else little-endian.
#[target_feature(enable = "avx2,popcnt")]
pub(crate) fn utf8_units_avx2<const UTF32: bool, const BIG_ENDIAN: bool>(
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
) -> (usize, usize) {
    let unit = if UTF32 { 4 } else { 2 };
    let (mut i, mut n) = (0usize, 0usize);
    // Whether the next step may be a two-byte one (no longer char known to start in it).
    let mut two_byte = true;
    loop {
        let (rest, room) = (
            src.get(i..).unwrap_or_default(),
            dst.get_mut(unit * n..).unwrap_or_default(),
        );
        if two_byte {
            if let Some(count) = two_byte_step::<UTF32, BIG_ENDIAN>(rest, room) {
                n += count;
                i += 32;
                continue;
            }
        }
        let step = if UTF32 {
            utf32_step16::<BIG_ENDIAN>(rest, room)
                .map(|(count, longer)| {
                    crate::counters::add(crate::counters::Path::Utf32WideAvx2, 16);
                    (count, 16, longer)
                })
                .or_else(|| {
                    utf32_step::<BIG_ENDIAN>(rest, room).map(|(count, longer)| (count, 8, longer))
                })
        } else {
            utf16_step::<BIG_ENDIAN>(rest, room).map(|(count, longer)| (count, 15, longer))
        };
        let Some((count, read, longer)) = step else {
            break;
        };
        n += count;
        i += read;
        // A step with a longer char in it is most likely followed by another.
        two_byte = !longer;
    }
    (super::next_char_start(src, i), n)
}
