//! The AVX2 kernel of UTF-16 units to UTF-8. Each step takes 16 units whose surrogates are
//! all paired (15 where the 16th is a high surrogate): all ASCII, narrowed to bytes; else, none
//! above U+07FF (Latin, Greek, Cyrillic, Hebrew, Arabic and the like), each unit's one or two
//! bytes in its 16-bit lane, and per 8 units one `pshufb` from a table indexed by which of them
//! take two bytes gathers the bytes to the front of 16; else each unit's first two bytes in its
//! lane and its third packed after the lanes of each 4 units (a surrogate pair's four bytes two
//! in each of its lanes), and per 4 units one `pshufb` gathers their bytes: a fixed one where
//! all 16 take three bytes (CJK), else one from a table indexed by the 4 units' lengths, read
//! from one `movemask` of the 16 units' kinds. After an ASCII step, 32 units a step narrowed
//! to bytes while they are all ASCII. Each gather is stored whole: the bytes past the
//! gathered ones are scratch, overwritten by the next store. Its contract is
//! [`Kernels::utf16_utf8`](crate::arch::Kernels::utf16_utf8)'s, for a room that takes scratch
//! writes.

use std::mem::MaybeUninit;

use std::arch::x86_64::{
    __m128i, __m256i, _mm_loadu_si128, _mm_shuffle_epi8, _mm_srli_si128, _mm_storeu_si128,
    _mm_unpacklo_epi64, _mm256_add_epi16, _mm256_alignr_epi8, _mm256_and_si256,
    _mm256_andnot_si256, _mm256_blendv_epi8, _mm256_broadcastsi128_si256, _mm256_castsi256_si128,
    _mm256_cmpeq_epi16, _mm256_extracti128_si256, _mm256_loadu_si256, _mm256_movemask_epi8,
    _mm256_or_si256, _mm256_packs_epi16, _mm256_packus_epi16, _mm256_permute2x128_si256,
    _mm256_permute4x64_epi64, _mm256_set1_epi16, _mm256_setzero_si256, _mm256_shuffle_epi8,
    _mm256_slli_epi16, _mm256_slli_si256, _mm256_srli_epi16, _mm256_storeu_si256,
    _mm256_testz_si256, _mm256_unpackhi_epi64, _mm256_unpacklo_epi64,
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

/// For each 4 units' kinds (unit `j` in bits `2j..2j + 2`: 0 for one byte, 1 for two, 2 for
/// three, 3 for none), the `pshufb` indices that gather, from their first two bytes (bytes
/// `2j` and `2j + 1`) and their third bytes (byte `8 + j`), the bytes of each unit in order,
/// then 0x80; and their count.
static GATHER_THREE: ([[u8; 16]; 256], [u8; 256]) = gather_three_table();

const fn gather_three_table() -> ([[u8; 16]; 256], [u8; 256]) {
    let mut table = [[0x80_u8; 16]; 256];
    let mut lengths = [0_u8; 256];
    let mut index = 0;
    while index < 256 {
        let (mut j, mut k) = (0, 0);
        while j < 4 {
            let kind = (index >> (2 * j)) & 3;
            if kind <= 2 {
                table[index][k] = 2 * j as u8;
                k += 1;
            }
            if kind == 1 || kind == 2 {
                table[index][k] = 2 * j as u8 + 1;
                k += 1;
            }
            if kind == 2 {
                table[index][k] = 8 + j as u8;
                k += 1;
            }
            j += 1;
        }
        lengths[index] = k as u8;
        index += 1;
    }
    (table, lengths)
}

/// The `pshufb` indices that gather 4 units' three bytes, in order, from their first two
/// (bytes `2j` and `2j + 1`) and their third (byte `8 + j`), then 0x80.
const THREES: [u8; 16] = [0, 1, 8, 2, 3, 9, 4, 5, 10, 6, 7, 11, 0x80, 0x80, 0x80, 0x80];

/// See [`Kernels::utf16_utf8`](crate::arch::Kernels::utf16_utf8): steps of 16 units (15
/// before a pair the step would cut) whose surrogates are paired, while `src` has them and
/// `dst` has 32 bytes of room from the next byte on (each step's two 16-byte stores), 64
/// where one is above U+07FF (four stores, each from at most 12 bytes on).
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
        let below_three = _mm256_movemask_epi8(one_or_two);
        if below_three != -1 {
            let surrogate = _mm256_cmpeq_epi16(
                _mm256_and_si256(v, above_two),
                _mm256_set1_epi16(0xD800_u16 as i16),
            );
            let Some(out) = dst.get_mut(written..written + 64) else {
                break;
            };
            if _mm256_movemask_epi8(surrogate) == 0 {
                written += if below_three == 0 {
                    threes_step(v, out)
                } else {
                    three_step(
                        Units {
                            v,
                            ascii,
                            one_or_two,
                        },
                        None,
                        out,
                    )
                };
                read += 16;
                continue;
            }
            // Every low surrogate right after a high one, every high one right before a low
            // one or last (then left, with its pair, for the next step).
            let kind = _mm256_and_si256(v, _mm256_set1_epi16(0xFC00_u16 as i16));
            let high = _mm256_cmpeq_epi16(kind, _mm256_set1_epi16(0xD800_u16 as i16));
            let low = _mm256_cmpeq_epi16(kind, _mm256_set1_epi16(0xDC00_u16 as i16));
            let bits =
                |lanes: __m256i| _mm256_movemask_epi8(_mm256_packs_epi16(lanes, zero)) as u32;
            // Unit `j` in bit `j`.
            let in_order = |b: u32| (b & 0xFF) | (b >> 8 & 0xFF00);
            let (highs, lows) = (in_order(bits(high)), in_order(bits(low)));
            if lows != (highs << 1) & 0xFFFF {
                break;
            }
            let taken = if highs & 0x8000 != 0 { 15 } else { 16 };
            let pairs = Pairs {
                high,
                low,
                cut: taken == 15,
            };
            written += three_step(
                Units {
                    v,
                    ascii,
                    one_or_two,
                },
                Some(pairs),
                out,
            );
            read += taken;
            continue;
        }
        let out = out.as_mut_ptr().cast::<__m128i>();
        // One byte per unit, unit `j` of each 8 in bit `j` (bits 0..8 and 16..24).
        let ascii_bits = _mm256_movemask_epi8(_mm256_packs_epi16(ascii, zero)) as u32;
        if ascii_bits == 0x00FF_00FF {
            // The units as bytes, the lanes' order put back.
            let bytes = _mm256_permute4x64_epi64::<0b1000>(_mm256_packus_epi16(v, v));
            // SAFETY: the store writes the first 16 of the 32 bytes of `out`; no alignment
            // requirement.
            unsafe { _mm_storeu_si128(out, _mm256_castsi256_si128(bytes)) };
            read += 16;
            written += 16;
            // After ASCII, 32 units at a time while they are all ASCII.
            while let (Some(block), Some(out)) =
                (src.get(read..read + 32), dst.get_mut(written..written + 32))
            {
                // SAFETY: the loads read the 64 bytes of `block` (32 units); no alignment
                // requirement.
                let (a, b) = unsafe {
                    (
                        _mm256_loadu_si256(block.as_ptr().cast()),
                        _mm256_loadu_si256(block.as_ptr().add(16).cast()),
                    )
                };
                if _mm256_testz_si256(_mm256_or_si256(a, b), above_ascii) == 0 {
                    break;
                }
                let bytes = super::narrow32(a, b);
                // SAFETY: the store writes the 32 bytes of `out`; no alignment requirement.
                unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), bytes) };
                read += 32;
                written += 32;
            }
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

/// 16 units of a step and their classes.
#[derive(Clone, Copy)]
struct Units {
    /// The units.
    v: __m256i,
    /// The lanes below U+0080.
    ascii: __m256i,
    /// The lanes below U+0800.
    one_or_two: __m256i,
}

/// The surrogate pairs among 16 units, each low surrogate right after a high one and each
/// high one before a low one, but a 16th.
#[derive(Clone, Copy)]
struct Pairs {
    /// The high surrogates' lanes.
    high: __m256i,
    /// The low surrogates' lanes.
    low: __m256i,
    /// Whether the 16th unit is a high surrogate, left for the next step.
    cut: bool,
}

/// Writes the UTF-8 of `units` (each surrogate among them in `pairs`, whose 16th is left out
/// where `cut`; `None`: no surrogate) to the front of `out`, in four gathers of 4 units
/// stored whole; returns the bytes. A pair's four bytes are two in each of its lanes.
#[target_feature(enable = "avx2,popcnt")]
#[inline]
fn three_step(units: Units, pairs: Option<Pairs>, out: &mut [MaybeUninit<u8>]) -> usize {
    let Units {
        v,
        ascii,
        one_or_two,
    } = units;
    let low6 = _mm256_set1_epi16(0x3F);
    let cont = _mm256_set1_epi16(0x80);
    let (three_first_two, last) = three_bytes(v);
    let lead2 = _mm256_or_si256(_mm256_srli_epi16::<6>(v), _mm256_set1_epi16(0xC0));
    // Each lane: its first byte low, its second high (ASCII: the unit itself).
    let first_two = _mm256_blendv_epi8(
        three_first_two,
        _mm256_or_si256(lead2, _mm256_slli_epi16::<8>(last)),
        one_or_two,
    );
    let mut first_two = _mm256_blendv_epi8(first_two, v, ascii);
    // Each lane: all ones in its low byte where its unit takes two bytes, in its high byte
    // where three.
    let mut two = _mm256_andnot_si256(ascii, one_or_two);
    let mut not_three = one_or_two;
    if let Some(pairs) = pairs {
        // A pair's char c = 0x10000 + (h & 0x3FF) << 10 + (l & 0x3FF), with w = c >> 10 =
        // (h & 0x3FF) + 0x40: F0 | w >> 8 and 80 | (w >> 2) & 3F in the high lane; 80 |
        // (w & 3) << 4 | (l >> 6) & F (w & 3 is h & 3) and 80 | l & 3F in the low one.
        let w = _mm256_add_epi16(
            _mm256_and_si256(v, _mm256_set1_epi16(0x3FF)),
            _mm256_set1_epi16(0x40),
        );
        let high_bytes = _mm256_or_si256(
            _mm256_or_si256(_mm256_srli_epi16::<8>(w), _mm256_set1_epi16(0xF0)),
            _mm256_slli_epi16::<8>(_mm256_or_si256(
                _mm256_and_si256(_mm256_srli_epi16::<2>(w), low6),
                cont,
            )),
        );
        // Each lane's unit before it: lanes 0..8 of the low half moved up one lane.
        let h = _mm256_alignr_epi8::<14>(v, _mm256_permute2x128_si256::<0x08>(v, v));
        let low_bytes = _mm256_or_si256(
            _mm256_or_si256(
                _mm256_or_si256(
                    _mm256_slli_epi16::<4>(_mm256_and_si256(h, _mm256_set1_epi16(3))),
                    _mm256_and_si256(_mm256_srli_epi16::<6>(v), _mm256_set1_epi16(0xF)),
                ),
                cont,
            ),
            _mm256_slli_epi16::<8>(last),
        );
        first_two = _mm256_blendv_epi8(first_two, high_bytes, pairs.high);
        first_two = _mm256_blendv_epi8(first_two, low_bytes, pairs.low);
        // Surrogates are two bytes a lane.
        let surrogate = _mm256_or_si256(pairs.high, pairs.low);
        two = _mm256_or_si256(two, surrogate);
        not_three = _mm256_or_si256(not_three, surrogate);
    }
    // Unit `j` of each 8: bit `2j` where it takes two bytes, `2j + 1` where three (bits 0..16
    // and 16..32), both (none) for a 16th high surrogate left out.
    let kinds = _mm256_movemask_epi8(_mm256_or_si256(
        _mm256_and_si256(two, _mm256_set1_epi16(0xFF)),
        _mm256_andnot_si256(not_three, _mm256_set1_epi16(0xFF00_u16 as i16)),
    )) as u32;
    let kinds = kinds | u32::from(pairs.is_some_and(|pairs| pairs.cut)) << 31;
    // The third bytes, one per unit: units 0..8 of each half in its bytes 0..8.
    let thirds = _mm256_packus_epi16(last, last);
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
            let index = (kinds >> (16 * half + 8 * group)) as usize & 0xFF;
            // SAFETY: the load reads the 16 bytes of a table entry; no alignment requirement.
            let gather = unsafe { _mm_loadu_si128(GATHER_THREE.0[index].as_ptr().cast()) };
            // SAFETY: the store writes bytes n..n + 16 of `out`, which has 64: each gather
            // before it advanced `n` by at most 12, so n <= 36; no alignment requirement.
            unsafe {
                _mm_storeu_si128(
                    out.as_mut_ptr().add(n).cast(),
                    _mm_shuffle_epi8(bytes, gather),
                );
            }
            n += usize::from(GATHER_THREE.1[index]);
        }
    }
    n
}

/// Each lane's unit as the three bytes of UTF-8 of a unit of U+0800..U+FFFF: its first two
/// (the first low, the second high), and its third (`80 | u & 3F`, the last byte of any
/// unit above U+007F) in the low byte of a second vector's lane.
#[target_feature(enable = "avx2")]
#[inline]
fn three_bytes(v: __m256i) -> (__m256i, __m256i) {
    let low6 = _mm256_set1_epi16(0x3F);
    let cont = _mm256_set1_epi16(0x80);
    let last = _mm256_or_si256(_mm256_and_si256(v, low6), cont);
    let middle = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16::<6>(v), low6), cont);
    let lead = _mm256_or_si256(_mm256_srli_epi16::<12>(v), _mm256_set1_epi16(0xE0));
    (_mm256_or_si256(lead, _mm256_slli_epi16::<8>(middle)), last)
}

/// Writes the UTF-8 of 16 units of U+0800..U+FFFF but surrogates, three bytes each, to the
/// front of `out` in four stores of 16 bytes 12 apart; returns 48.
#[target_feature(enable = "avx2")]
#[inline]
fn threes_step(v: __m256i, out: &mut [MaybeUninit<u8>]) -> usize {
    let (first_two, last) = three_bytes(v);
    // The third bytes: each half's 8 in its bytes 0..8 and again in 8..16.
    let thirds = _mm256_packus_epi16(last, last);
    // SAFETY: the load reads the 16 bytes of `THREES`; no alignment requirement.
    let gather = _mm256_broadcastsi128_si256(unsafe { _mm_loadu_si128(THREES.as_ptr().cast()) });
    // Each half: units 0..4's first two bytes and third bytes; units 4..8's.
    let front = _mm256_shuffle_epi8(_mm256_unpacklo_epi64(first_two, thirds), gather);
    let back = _mm256_shuffle_epi8(
        _mm256_unpackhi_epi64(first_two, _mm256_slli_si256::<4>(thirds)),
        gather,
    );
    let out = out.as_mut_ptr().cast::<u8>();
    // SAFETY: the stores write bytes 0..52 of `out`, which has 64; no alignment requirement.
    unsafe {
        _mm_storeu_si128(out.cast(), _mm256_castsi256_si128(front));
        _mm_storeu_si128(out.add(12).cast(), _mm256_castsi256_si128(back));
        _mm_storeu_si128(out.add(24).cast(), _mm256_extracti128_si256::<1>(front));
        _mm_storeu_si128(out.add(36).cast(), _mm256_extracti128_si256::<1>(back));
    }
    48
}
