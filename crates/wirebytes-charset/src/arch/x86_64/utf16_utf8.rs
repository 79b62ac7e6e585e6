//! The kernel of UTF-16 units to UTF-8 (AVX-512 F, BW, VBMI, VBMI2 and POPCNT). Each step
//! takes 32 units where none is above U+07FF: ASCII narrowed to bytes, or each unit as a
//! 16-bit lane holding its one or two bytes, the unused byte of each ASCII lane dropped by one
//! byte compress. Where every surrogate of the 32 is paired (31 where the 32nd is a high
//! surrogate), each unit's first two bytes sit in a 16-bit lane and its third in the lane of
//! a second vector, a pair's four bytes two in each of its lanes; two-source byte permutes lay
//! them out as 16 triples per half, and a compress of each half drops the bytes a unit does
//! not have. Otherwise it takes 16 units whose surrogates are all paired (15 where the 16th
//! is a high surrogate), each widened to a 32-bit lane holding its one to three bytes, a
//! pair's four bytes in its high surrogate's lane and none in the low one's, compressed the
//! same way. The last units, fewer than 32, go in one step under a mask as the 32 where their
//! surrogates are paired. Every store is masked to the bytes it counts, except in a step
//! within the `covered` units (whose scratch bytes the room takes, or the caller writes
//! over): there a store with 64 bytes of room writes all 64 (a plain store is faster than a
//! masked one). Its contract is [`Kernels::utf16_utf8`](crate::arch::Kernels::utf16_utf8)'s.

use std::mem::MaybeUninit;

use std::arch::x86_64::{
    __m256i, __m512i, _mm256_loadu_si256, _mm256_storeu_si256, _mm512_add_epi16, _mm512_add_epi32,
    _mm512_alignr_epi32, _mm512_and_si512, _mm512_castsi512_si256, _mm512_cmpeq_epi16_mask,
    _mm512_cmpeq_epi32_mask, _mm512_cmplt_epu16_mask, _mm512_cmplt_epu32_mask,
    _mm512_cvtepi16_epi8, _mm512_cvtepu16_epi32, _mm512_loadu_si512, _mm512_mask_blend_epi16,
    _mm512_mask_blend_epi32, _mm512_mask_storeu_epi8, _mm512_maskz_compress_epi8,
    _mm512_maskz_loadu_epi16, _mm512_maskz_mov_epi16, _mm512_or_si512, _mm512_permutex2var_epi8,
    _mm512_permutexvar_epi16, _mm512_set1_epi16, _mm512_set1_epi32, _mm512_setzero_si512,
    _mm512_slli_epi16, _mm512_slli_epi32, _mm512_srli_epi16, _mm512_srli_epi32,
    _mm512_storeu_si512, _mm512_test_epi8_mask,
};

/// See [`Kernels::utf16_utf8`](crate::arch::Kernels::utf16_utf8): steps of 32 units (31
/// before a pair cut by the step's end) or 16 (15), and the last units, fewer than 32, under
/// a mask, while `dst` has room for their bytes. The steps of the first `covered` units of
/// `src` may write up to 64 bytes from each of their stores' starts; then the rest.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt")]
pub(crate) fn utf16_utf8_avx512(
    src: &[u16],
    dst: &mut [MaybeUninit<u8>],
    covered: usize,
) -> (usize, usize) {
    let covered = covered.min(src.len());
    let (read, written) = steps::<true>(&src[..covered], dst);
    // Where the covered steps stopped short (an unpaired surrogate, too little room), these
    // stop at once or take whole steps beyond.
    let (more, more_written) = steps::<false>(&src[read..], &mut dst[written..]);
    (read + more, written + more_written)
}

/// The steps of [`utf16_utf8_avx512`] over `src`: `SCRATCH`, whether its stores may write
/// up to 64 bytes from their starts.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt")]
#[inline]
fn steps<const SCRATCH: bool>(src: &[u16], dst: &mut [MaybeUninit<u8>]) -> (usize, usize) {
    let scratch = SCRATCH;
    let (mut read, mut written) = (0, 0);
    let x80 = _mm512_set1_epi16(0x80);
    let x800 = _mm512_set1_epi16(0x800);
    while read < src.len() {
        let room = dst.len() - written;
        let Some(block32) = src.get(read..read + 32) else {
            // Fewer than 32 units left: all of them in one step under a mask, where every
            // surrogate among them is paired (a high one last is left out: its pair may
            // follow in the next piece of a stream), and then the kernel is done.
            let rest = &src[read..];
            let valid = (1_u32 << rest.len()) - 1;
            // SAFETY: the masked load reads the `rest.len()` (below 32) units of `rest`
            // and no other memory; the lanes past them are zero; no alignment requirement.
            let v = unsafe { _mm512_maskz_loadu_epi16(valid, rest.as_ptr().cast()) };
            if let Some((high, lanes)) = paired_lanes(v, valid) {
                let ascii = _mm512_cmplt_epu16_mask(v, x80);
                if let Some(n) =
                    triples_step::<true>(v, ascii, high, lanes, &mut dst[written..], scratch)
                {
                    read += lanes.count_ones() as usize;
                    written += n;
                }
                break;
            }
            // An unpaired surrogate: the 16-unit step, where it takes the first 16.
            let Some(block) = src.get(read..read + 16) else {
                break;
            };
            // SAFETY: the load reads the 32 bytes of `block` (16 units); no alignment
            // requirement.
            let units = unsafe { _mm256_loadu_si256(block.as_ptr().cast()) };
            match sixteen_step(units, &mut dst[written..], scratch) {
                Some((r, n)) => {
                    read += r;
                    written += n;
                }
                None => break,
            }
            continue;
        };
        // SAFETY: the load reads the 64 bytes of `block32` (32 units); no alignment
        // requirement.
        let v = unsafe { _mm512_loadu_si512(block32.as_ptr().cast()) };
        let ascii = _mm512_cmplt_epu16_mask(v, x80);
        if ascii == u32::MAX {
            let Some(out) = dst.get_mut(written..written + 32) else {
                break;
            };
            // SAFETY: the store writes the 32 bytes of `out`, borrowed mutably; no alignment
            // requirement.
            unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), _mm512_cvtepi16_epi8(v)) };
            read += 32;
            written += 32;
            continue;
        }
        if _mm512_cmplt_epu16_mask(v, x800) == u32::MAX {
            // Each lane: its lead byte low, its trail byte high (ASCII: the unit, whose high
            // byte is dropped).
            let lead = _mm512_or_si512(_mm512_srli_epi16::<6>(v), _mm512_set1_epi16(0xC0));
            let trail = _mm512_or_si512(
                _mm512_and_si512(v, _mm512_set1_epi16(0x3F)),
                _mm512_set1_epi16(0x80),
            );
            let two = _mm512_or_si512(lead, _mm512_slli_epi16::<8>(trail));
            let lanes = _mm512_mask_blend_epi16(ascii, two, v);
            let keep_bytes =
                _mm512_mask_blend_epi16(ascii, _mm512_set1_epi16(-1), _mm512_set1_epi16(0xFF));
            let keep = _mm512_test_epi8_mask(keep_bytes, keep_bytes);
            let n = keep.count_ones() as usize;
            if n > room {
                break;
            }
            store(
                &mut dst[written..],
                _mm512_maskz_compress_epi8(keep, lanes),
                n,
                scratch,
            );
            read += 32;
            written += n;
            continue;
        }
        let kind = _mm512_and_si512(v, _mm512_set1_epi16(0xF800_u16 as i16));
        if _mm512_cmpeq_epi16_mask(kind, _mm512_set1_epi16(0xD800_u16 as i16)) == 0 {
            // One to three bytes each.
            let Some(n) =
                triples_step::<false>(v, ascii, 0, u32::MAX, &mut dst[written..], scratch)
            else {
                break;
            };
            read += 32;
            written += n;
            continue;
        }
        // A high surrogate last waits for its pair in the next step.
        if let Some((high, lanes)) = paired_lanes(v, u32::MAX) {
            // Every surrogate paired: one to three bytes a unit, two a surrogate.
            let Some(n) = triples_step::<true>(v, ascii, high, lanes, &mut dst[written..], scratch)
            else {
                break;
            };
            read += lanes.count_ones() as usize;
            written += n;
            continue;
        }
        // The first sixteen (`None` for an unpaired surrogate among them: the caller takes
        // them).
        match sixteen_step(_mm512_castsi512_si256(v), &mut dst[written..], scratch) {
            Some((r, n)) => {
                read += r;
                written += n;
            }
            None => break,
        }
    }
    (read, written)
}

/// The lanes a step takes of the first units of `v` (those in `valid`, its first lanes)
/// where every surrogate among them is paired, a high surrogate last left out (its pair may
/// come in the next step, or the next piece of a stream), and the high surrogates among
/// them: `None` where one is unpaired.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn paired_lanes(v: __m512i, valid: u32) -> Option<(u32, u32)> {
    let kind = _mm512_and_si512(v, _mm512_set1_epi16(0xFC00_u16 as i16));
    let high = _mm512_cmpeq_epi16_mask(kind, _mm512_set1_epi16(0xD800_u16 as i16));
    let low = _mm512_cmpeq_epi16_mask(kind, _mm512_set1_epi16(0xDC00_u16 as i16));
    // The last lane of `valid` (whose lanes are the first ones).
    let last = (valid >> 1) + 1;
    let lanes = if high & last != 0 { valid >> 1 } else { valid };
    (low == (high & lanes) << 1).then_some((high & lanes, lanes))
}

/// The indices of half `h` of a 32-unit step for a two-source byte permute of the units'
/// first-two-bytes lanes (indices 0..64) and third-byte lanes (64..128): byte `3j + r` of
/// the result is byte `r` of unit `16h + j`, for the 48 bytes of its 16 units.
const fn triples(h: usize) -> [u8; 64] {
    let mut t = [0_u8; 64];
    let mut k = 0;
    while k < 48 {
        let u = 16 * h + k / 3;
        t[k] = match k % 3 {
            0 => 2 * u,
            1 => 2 * u + 1,
            _ => 64 + 2 * u,
        } as u8;
        k += 1;
    }
    t
}

/// [`triples`] of both halves.
const TRIPLES: [[u8; 64]; 2] = [triples(0), triples(1)];

/// The lane each 16-bit lane takes the unit before it from (lane 0: itself).
const BEFORE: [u16; 32] = {
    let mut t = [0_u16; 32];
    let mut k = 1;
    while k < 32 {
        t[k] = k as u16 - 1;
        k += 1;
    }
    t
};

/// Writes the UTF-8 of the units of `v` in `lanes` (the first 31 or 32, or in a last step
/// under a mask fewer) to the front of `dst`: `Some(bytes)`, or `None` (nothing written)
/// where `dst` is too short. `ascii` marks the units below U+0080 and `high` the high
/// surrogates among `lanes`, each followed by a low one, every low one among `lanes`
/// preceded by a high one; the lanes past `lanes` write nothing. A pair's four bytes are two
/// in each of its lanes. `PAIRS`: whether there may be any, or lanes left out (else `high` is
/// 0 and `lanes` all 32).
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt")]
#[inline]
fn triples_step<const PAIRS: bool>(
    v: __m512i,
    ascii: u32,
    high: u32,
    lanes: u32,
    dst: &mut [MaybeUninit<u8>],
    scratch: bool,
) -> Option<usize> {
    debug_assert!(PAIRS || (high == 0 && lanes == u32::MAX));
    let low = high << 1;
    let two = _mm512_cmplt_epu16_mask(v, _mm512_set1_epi16(0x800)) & !ascii;
    let three = if PAIRS {
        !(ascii | two | high | low) & lanes
    } else {
        !(ascii | two)
    };
    let low6 = _mm512_set1_epi16(0x3F);
    let cont = _mm512_set1_epi16(0x80);
    let last = _mm512_or_si512(_mm512_and_si512(v, low6), cont);
    let middle = _mm512_or_si512(_mm512_and_si512(_mm512_srli_epi16::<6>(v), low6), cont);
    let lead2 = _mm512_or_si512(_mm512_srli_epi16::<6>(v), _mm512_set1_epi16(0xC0));
    let lead3 = _mm512_or_si512(_mm512_srli_epi16::<12>(v), _mm512_set1_epi16(0xE0));
    // First and second byte of each unit (ASCII: the unit, its zero high byte dropped); the
    // third in the low byte of `last`'s lane, kept for 3-byte units alone.
    let first_two = _mm512_mask_blend_epi16(
        two,
        _mm512_or_si512(lead3, _mm512_slli_epi16::<8>(middle)),
        _mm512_or_si512(lead2, _mm512_slli_epi16::<8>(last)),
    );
    let mut first_two = _mm512_mask_blend_epi16(ascii, first_two, v);
    if PAIRS {
        // A pair's char c = 0x10000 + (h & 0x3FF) << 10 + (l & 0x3FF), with w = c >> 10 =
        // (h & 0x3FF) + 0x40: F0 | w >> 8 and 80 | (w >> 2) & 3F in the high lane; 80 |
        // (w & 3) << 4 | (l >> 6) & F (w & 3 is h & 3) and 80 | l & 3F in the low one.
        let w = _mm512_add_epi16(
            _mm512_and_si512(v, _mm512_set1_epi16(0x3FF)),
            _mm512_set1_epi16(0x40),
        );
        let high_bytes = _mm512_or_si512(
            _mm512_or_si512(_mm512_srli_epi16::<8>(w), _mm512_set1_epi16(0xF0)),
            _mm512_slli_epi16::<8>(_mm512_or_si512(
                _mm512_and_si512(_mm512_srli_epi16::<2>(w), low6),
                cont,
            )),
        );
        // SAFETY: the load reads the 64 bytes of `BEFORE`; no alignment requirement.
        let before = unsafe { _mm512_loadu_si512(BEFORE.as_ptr().cast()) };
        let h = _mm512_permutexvar_epi16(before, v);
        let low_bytes = _mm512_or_si512(
            _mm512_or_si512(
                _mm512_or_si512(
                    _mm512_slli_epi16::<4>(_mm512_and_si512(h, _mm512_set1_epi16(3))),
                    _mm512_and_si512(_mm512_srli_epi16::<6>(v), _mm512_set1_epi16(0xF)),
                ),
                cont,
            ),
            _mm512_slli_epi16::<8>(last),
        );
        first_two = _mm512_mask_blend_epi16(high, first_two, high_bytes);
        first_two = _mm512_mask_blend_epi16(low, first_two, low_bytes);
    }
    let keep_two = _mm512_mask_blend_epi16(ascii, _mm512_set1_epi16(-1), _mm512_set1_epi16(0xFF));
    // The lanes left out keep nothing.
    let keep_two = if PAIRS {
        _mm512_maskz_mov_epi16(lanes, keep_two)
    } else {
        keep_two
    };
    let keep_last = _mm512_maskz_mov_epi16(three, _mm512_set1_epi16(0xFF));
    let half = |h: usize| {
        // SAFETY: the load reads the 64 bytes of `TRIPLES[h]`; no alignment requirement.
        let index = unsafe { _mm512_loadu_si512(TRIPLES[h].as_ptr().cast()) };
        let bytes = _mm512_permutex2var_epi8(first_two, index, last);
        let keep_bytes = _mm512_permutex2var_epi8(keep_two, index, keep_last);
        let keep = _mm512_test_epi8_mask(keep_bytes, keep_bytes) & ((1 << 48) - 1);
        (
            _mm512_maskz_compress_epi8(keep, bytes),
            keep.count_ones() as usize,
        )
    };
    let (bytes0, n0) = half(0);
    let (bytes1, n1) = half(1);
    if n0 + n1 > dst.len() {
        return None;
    }
    store(dst, bytes0, n0, scratch);
    store(&mut dst[n0..], bytes1, n1, scratch);
    Some(n0 + n1)
}

/// Writes the UTF-8 of 16 units to the front of `dst` (15 where the last is a high surrogate
/// whose pair is not among them): `Some((units, bytes))`, or `None` (nothing written) where
/// one is an unpaired surrogate or `dst` is too short. A surrogate pair is four bytes in the
/// high surrogate's lane and none in the low one's.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi2,popcnt")]
#[inline]
fn sixteen_step(
    units: __m256i,
    dst: &mut [MaybeUninit<u8>],
    scratch: bool,
) -> Option<(usize, usize)> {
    let u = _mm512_cvtepu16_epi32(units);
    let kind = _mm512_and_si512(u, _mm512_set1_epi32(0xFC00));
    let high = _mm512_cmpeq_epi32_mask(kind, _mm512_set1_epi32(0xD800));
    let low = _mm512_cmpeq_epi32_mask(kind, _mm512_set1_epi32(0xDC00));
    // Every low surrogate right after a high one, every high one right before a low one (or
    // last, then left for the next step).
    let (read, high) = if high & 0x8000 != 0 {
        (15, high & 0x7FFF)
    } else {
        (16, high)
    };
    if low != high << 1 {
        return None;
    }
    let ascii = _mm512_cmplt_epu32_mask(u, _mm512_set1_epi32(0x80));
    let two = _mm512_cmplt_epu32_mask(u, _mm512_set1_epi32(0x800)) & !ascii;
    let low6 = _mm512_set1_epi32(0x3F);
    let cont = _mm512_set1_epi32(0x80);
    let last = _mm512_or_si512(_mm512_and_si512(u, low6), cont);
    let middle = _mm512_or_si512(_mm512_and_si512(_mm512_srli_epi32::<6>(u), low6), cont);
    let lead2 = _mm512_or_si512(_mm512_srli_epi32::<6>(u), _mm512_set1_epi32(0xC0));
    let lead3 = _mm512_or_si512(_mm512_srli_epi32::<12>(u), _mm512_set1_epi32(0xE0));
    let three_bytes = _mm512_or_si512(
        _mm512_or_si512(lead3, _mm512_slli_epi32::<8>(middle)),
        _mm512_slli_epi32::<16>(last),
    );
    let two_bytes = _mm512_or_si512(lead2, _mm512_slli_epi32::<8>(last));
    let mut lanes = _mm512_mask_blend_epi32(two, three_bytes, two_bytes);
    lanes = _mm512_mask_blend_epi32(ascii, lanes, u);
    let mut keep_bytes = _mm512_mask_blend_epi32(
        two,
        _mm512_set1_epi32(0x00FF_FFFF),
        _mm512_set1_epi32(0xFFFF),
    );
    keep_bytes = _mm512_mask_blend_epi32(ascii, keep_bytes, _mm512_set1_epi32(0xFF));
    if high != 0 {
        // The scalar of each pair, in its high surrogate's lane: the low one is the next lane.
        let next = _mm512_alignr_epi32::<1>(u, u);
        let ten = _mm512_set1_epi32(0x3FF);
        let c = _mm512_add_epi32(
            _mm512_or_si512(
                _mm512_slli_epi32::<10>(_mm512_and_si512(u, ten)),
                _mm512_and_si512(next, ten),
            ),
            _mm512_set1_epi32(0x1_0000),
        );
        let four_bytes = _mm512_or_si512(
            _mm512_or_si512(
                _mm512_or_si512(_mm512_srli_epi32::<18>(c), _mm512_set1_epi32(0xF0)),
                _mm512_slli_epi32::<8>(_mm512_or_si512(
                    _mm512_and_si512(_mm512_srli_epi32::<12>(c), low6),
                    cont,
                )),
            ),
            _mm512_or_si512(
                _mm512_slli_epi32::<16>(_mm512_or_si512(
                    _mm512_and_si512(_mm512_srli_epi32::<6>(c), low6),
                    cont,
                )),
                _mm512_slli_epi32::<24>(_mm512_or_si512(_mm512_and_si512(c, low6), cont)),
            ),
        );
        lanes = _mm512_mask_blend_epi32(high, lanes, four_bytes);
        keep_bytes = _mm512_mask_blend_epi32(high, keep_bytes, _mm512_set1_epi32(-1));
    }
    // A low surrogate's lane, and the lane left for the next step, keep nothing.
    let none = low | if read == 15 { 0x8000 } else { 0 };
    keep_bytes = _mm512_mask_blend_epi32(none, keep_bytes, _mm512_setzero_si512());
    let keep = _mm512_test_epi8_mask(keep_bytes, keep_bytes);
    let n = keep.count_ones() as usize;
    if n > dst.len() {
        return None;
    }
    store(dst, _mm512_maskz_compress_epi8(keep, lanes), n, scratch);
    Some((read, n))
}

/// Stores the first `n` bytes of `bytes` at the front of `dst` (every caller has checked
/// that `dst` holds them), and nothing else unless `scratch`: then, where `dst` has room for
/// them, all 64 (a plain store is faster than a masked one).
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn store(dst: &mut [MaybeUninit<u8>], bytes: __m512i, n: usize, scratch: bool) {
    debug_assert!(n <= 64 && n <= dst.len());
    let wide = if scratch {
        dst.first_chunk_mut::<64>()
    } else {
        None
    };
    if let Some(out) = wide {
        // SAFETY: the store writes the 64 bytes of `out`, borrowed mutably; those past the
        // first `n` may be written (`scratch`) and are initialised. No alignment requirement.
        unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast(), bytes) };
        return;
    }
    let n = n.min(dst.len()).min(64);
    // SAFETY: the masked store writes the first `n` bytes from `dst`'s start, at most
    // `dst.len()` of them (borrowed mutably), and no other memory.
    unsafe { _mm512_mask_storeu_epi8(dst.as_mut_ptr().cast(), super::first(n), bytes) };
}
