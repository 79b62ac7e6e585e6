//! [`crate::decode_to_utf16`]'s block decoders: text of ASCII and 2-byte sequences (Cyrillic,
//! Greek, Hebrew, accented Latin...) 16 bytes at a time with SSSE3 (`pairs_ssse3`) or 32 at a
//! time with AVX-512 (`pairs_avx512`); any text the JDK accepts 32 bytes at a time with
//! AVX-512 (`blocks_avx512`) or with AVX2 (`blocks_avx2`). Their contract is the one of the
//! `utf16_*` methods in [`crate::arch`]. The two AVX-512 decoders live in
//! `utf16_blocks_avx512.rs`, built only where the compiler has AVX-512.
//!
//! A block of 2-byte text qualifies when every byte is ASCII, a 2-byte lead (`110xxxxx`) or
//! a continuation byte right after a lead. Each byte position `p` then gets a 16-bit lane
//! holding bytes `p` and `p + 1`, decoded as ASCII or as a 2-byte sequence; the lanes where a
//! char starts are kept, in order: with SSSE3 by a `pshufb` per half (a table indexed by the
//! 8-bit mask of starts), with AVX-512 by `vpcompressw` (VBMI2). The general decoders give
//! each lane three bytes (3-byte sequences) and check each lead's continuation bytes with bit
//! masks ([`block_masks`], shared by both); the AVX2 one keeps the lanes with the `pshufb`
//! table, 8 at a time.
//!
//! On a Zen 4 (64 KiB, against 44-48 µs for the JDK's loop), Cyrillic takes 19.5 µs with
//! SSSE3, 13.3 µs with AVX2 and 5.6-5.9 µs with AVX-512; NUL + supplementary text (mostly
//! ASCII, a `C0 80` or a 6-byte pair every 40 chars) 15.5 µs, 10.8 µs and 8.0-9.1 µs.

use core::mem::MaybeUninit;

#[cfg(target_arch = "x86")]
use core::arch::x86::{
    __m128i, _mm_and_si128, _mm_andnot_si128, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128,
    _mm_set1_epi16, _mm_setr_epi8, _mm_shuffle_epi8, _mm_slli_epi16, _mm_srai_epi16,
    _mm_srli_epi16, _mm_storeu_si128, _mm256_loadu_si256, _mm256_movemask_epi8,
};
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::{
    __m128i, _mm_and_si128, _mm_andnot_si128, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128,
    _mm_set1_epi16, _mm_setr_epi8, _mm_shuffle_epi8, _mm_slli_epi16, _mm_srai_epi16,
    _mm_srli_epi16, _mm_storeu_si128, _mm256_loadu_si256, _mm256_movemask_epi8,
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
fn store_starts(chars: __m128i, starts: u32, out: &mut [MaybeUninit<u16>], o: usize) -> usize {
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
/// Each block writes at most one char per byte read, and its two 8-char stores stay within
/// `out` (else the slicing panics). The contract is `utf16_pairs_ssse3`'s in [`crate::arch`].
#[target_feature(enable = "ssse3,popcnt")]
pub(crate) fn pairs_ssse3(
    bytes: &[u8],
    mut i: usize,
    out: &mut [MaybeUninit<u16>],
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

/// The checks of a block of the general decoders ([`blocks_avx2`], `blocks_avx512`), from
/// masks of its 32 bytes (bit `k` for byte `k`): its continuation bytes, its 2-, 3- and
/// 4-byte leads, whether the byte one (two) on is a continuation byte, and `carried`, its
/// bytes that continue the last block's sequences. `None` if the block holds something the
/// JDK rejects; else the continuation bytes its leads call for (bit `32 + k`: byte `k` of the
/// next block).
#[inline(always)]
pub(super) fn block_masks(
    continuation: u32,
    lead2: u32,
    lead3: u32,
    lead4: u32,
    next: u32,
    next2: u32,
    carried: u32,
) -> Option<u64> {
    // The continuation bytes the leads call for, in this block and the next.
    let wanted = (u64::from(lead2 | lead3) << 1) | (u64::from(lead3) << 2);
    // No byte F0 or above; each lead followed by as many continuation bytes as it calls
    // for; no continuation byte that no lead calls for. One branch on them all.
    let bad = lead4
        | (lead2 & !next)
        | (lead3 & !(next & next2))
        | (continuation & !(wanted as u32 | carried));
    (bad == 0).then_some(wanted)
}

/// The AVX2 intrinsics of [`blocks_avx2`], by the architecture's path.
#[cfg(target_arch = "x86")]
use core::arch::x86 as arch;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64 as arch;

/// The chars of the 16 lanes of one half of an AVX2 block: lane `p` decoded from byte `p` of
/// `b0`, `b1` and `b2` as ASCII, a 2-byte sequence or a 3-byte one, by the byte in `b0`.
#[inline]
#[target_feature(enable = "avx2")]
fn decode_lanes_avx2(b0: __m128i, b1: __m128i, b2: __m128i) -> arch::__m256i {
    use arch::{
        _mm256_and_si256, _mm256_blendv_epi8, _mm256_cmpgt_epi16, _mm256_cvtepu8_epi16,
        _mm256_or_si256, _mm256_set1_epi16, _mm256_slli_epi16,
    };
    let low6 = _mm256_set1_epi16(0x3F);
    let lo = _mm256_cvtepu8_epi16(b0);
    let mid = _mm256_and_si256(_mm256_cvtepu8_epi16(b1), low6);
    let hi = _mm256_and_si256(_mm256_cvtepu8_epi16(b2), low6);
    let two = _mm256_or_si256(
        _mm256_slli_epi16(_mm256_and_si256(lo, _mm256_set1_epi16(0x1F)), 6),
        mid,
    );
    // `lo << 12` keeps the lead's low four bits, as the JDK's `(c & 0x0F) << 12` does.
    let three = _mm256_or_si256(
        _mm256_or_si256(_mm256_slli_epi16(lo, 12), _mm256_slli_epi16(mid, 6)),
        hi,
    );
    // The lanes are zero-extended bytes: signed 16-bit compares order them as bytes.
    let lead = _mm256_cmpgt_epi16(lo, _mm256_set1_epi16(0xBF));
    let lead3 = _mm256_cmpgt_epi16(lo, _mm256_set1_epi16(0xDF));
    _mm256_blendv_epi8(_mm256_blendv_epi8(lo, two, lead), three, lead3)
}

/// Stores the lanes of `chars` (two halves of 8) that `starts` (16 bits) selects at
/// `out[o..]`, in order, with a `pshufb` table per half; returns how many.
#[inline]
#[target_feature(enable = "avx2,popcnt")]
fn store_starts_avx2(
    chars: arch::__m256i,
    starts: u32,
    out: &mut [MaybeUninit<u16>],
    o: usize,
) -> usize {
    use arch::{
        _mm256_castsi256_si128, _mm256_extracti128_si256, _mm256_loadu2_m128i, _mm256_shuffle_epi8,
    };
    let (lo, hi) = (starts & 0xFF, (starts >> 8) & 0xFF);
    let (c_lo, c_hi) = (&COMPACT[lo as usize], &COMPACT[hi as usize]);
    // SAFETY: both controls are 16 bytes long; the loads are unaligned.
    let control = unsafe { _mm256_loadu2_m128i(c_hi.as_ptr().cast(), c_lo.as_ptr().cast()) };
    let packed = _mm256_shuffle_epi8(chars, control);
    let first = lo.count_ones() as usize;
    let dst = &mut out[o..o + first + 8];
    // SAFETY: `dst` holds 8 chars (16 bytes) at its start and at `first`; the stores are
    // unaligned.
    unsafe {
        _mm_storeu_si128(dst.as_mut_ptr().cast(), _mm256_castsi256_si128(packed));
        _mm_storeu_si128(
            dst[first..].as_mut_ptr().cast(),
            _mm256_extracti128_si256::<1>(packed),
        );
    }
    first + hi.count_ones() as usize
}

/// `blocks_avx512` with AVX2 only: the same blocks, checks and lanes, the lanes kept by a
/// `pshufb` table per 8 of them instead of `vpcompressw`.
///
/// The contract is `utf16_blocks_avx2`'s in [`crate::arch`].
#[target_feature(enable = "avx2,popcnt")]
pub(crate) fn blocks_avx2(
    bytes: &[u8],
    mut i: usize,
    out: &mut [MaybeUninit<u16>],
    mut o: usize,
) -> (usize, usize) {
    use arch::{
        _mm256_castsi256_si128, _mm256_cmpgt_epi8, _mm256_cvtepu8_epi16, _mm256_extracti128_si256,
        _mm256_set1_epi8, _mm256_storeu_si256,
    };
    // Bit `k`: byte `k` of the block is a continuation byte of the last one's sequences.
    let mut carried = 0u32;
    // Signed bytes: 80..BF are below C0 (-64), 80..DF below E0, 80..EF below F0.
    let (c0, e0, f0) = (
        _mm256_set1_epi8(0xC0_u8 as i8),
        _mm256_set1_epi8(0xE0_u8 as i8),
        _mm256_set1_epi8(0xF0_u8 as i8),
    );
    while let Some(block) = bytes.get(i..i + 34) {
        // SAFETY: `block` is 34 bytes long: the three 32-byte loads are within it, and
        // unaligned.
        let (x, x1, x2) = unsafe {
            (
                _mm256_loadu_si256(block.as_ptr().cast()),
                _mm256_loadu_si256(block[1..].as_ptr().cast()),
                _mm256_loadu_si256(block[2..].as_ptr().cast()),
            )
        };
        let high = _mm256_movemask_epi8(x) as u32;
        let continuation = _mm256_movemask_epi8(_mm256_cmpgt_epi8(c0, x)) as u32;
        let below_e0 = _mm256_movemask_epi8(_mm256_cmpgt_epi8(e0, x)) as u32;
        let below_f0 = _mm256_movemask_epi8(_mm256_cmpgt_epi8(f0, x)) as u32;
        let lead2 = below_e0 & !continuation;
        let lead3 = below_f0 & !below_e0;
        let lead4 = high & !below_f0;
        // Whether the byte one (two) on is a continuation byte.
        let next = _mm256_movemask_epi8(_mm256_cmpgt_epi8(c0, x1)) as u32;
        let next2 = _mm256_movemask_epi8(_mm256_cmpgt_epi8(c0, x2)) as u32;
        let Some(wanted) = block_masks(continuation, lead2, lead3, lead4, next, next2, carried)
        else {
            break;
        };
        if high == 0 {
            // ASCII only: the bytes are the chars.
            let dst = &mut out[o..o + 32];
            // SAFETY: `dst` is 32 chars (64 bytes) long; the stores are unaligned.
            unsafe {
                _mm256_storeu_si256(
                    dst.as_mut_ptr().cast(),
                    _mm256_cvtepu8_epi16(_mm256_castsi256_si128(x)),
                );
                _mm256_storeu_si256(
                    dst[16..].as_mut_ptr().cast(),
                    _mm256_cvtepu8_epi16(_mm256_extracti128_si256::<1>(x)),
                );
            }
            o += 32;
        } else {
            let starts = !continuation;
            let chars = decode_lanes_avx2(
                _mm256_castsi256_si128(x),
                _mm256_castsi256_si128(x1),
                _mm256_castsi256_si128(x2),
            );
            o += store_starts_avx2(chars, starts & 0xFFFF, out, o);
            let chars = decode_lanes_avx2(
                _mm256_extracti128_si256::<1>(x),
                _mm256_extracti128_si256::<1>(x1),
                _mm256_extracti128_si256::<1>(x2),
            );
            o += store_starts_avx2(chars, starts >> 16, out, o);
        }
        carried = (wanted >> 32) as u32;
        i += 32;
    }
    // Past the continuation bytes of the sequences decoded with the last block.
    (i + carried.count_ones() as usize, o)
}

#[cfg(test)]
mod tests {
    use crate::arch::Kernels;
    use crate::out::SpareVec;
    use crate::reference;

    use wirebytes_testkit::mutf8::{ACCEPTED, REJECTED, TWO_BYTE_TEXT};

    type Kernel = fn(Kernels, &[u8], usize, &mut SpareVec<u16>) -> Option<usize>;

    /// Every block decoder, with whether it takes 3-byte sequences: each returns `None` where
    /// this CPU lacks it.
    const KERNELS: [(&str, Kernel, bool); 4] = [
        ("ssse3", Kernels::utf16_pairs_ssse3, false),
        ("avx2-blocks", Kernels::utf16_blocks_avx2, true),
        ("avx512-pairs", Kernels::utf16_pairs_avx512, false),
        ("avx512-blocks", Kernels::utf16_blocks_avx512, true),
    ];

    #[test]
    fn kernels_decode_what_the_reference_decodes_and_run_to_the_end_of_good_text() {
        let kernels = Kernels::detect();
        let mut rng = wirebytes_testkit::Rng::new(0x9E37_79B9_7F4A_7C15);
        let mut next = move |n: u64| rng.below(n as usize) as u64;
        for round in 0..wirebytes_testkit::scale_miri(20_000, 20_000, 15) {
            // Some bodies of 2-byte text only, some with 3-byte sequences, some with an error.
            let pieces = if round % 3 == 0 {
                TWO_BYTE_TEXT
            } else {
                ACCEPTED
            };
            // Behind 0..40 ASCII bytes, already in the output when the kernel starts.
            let head = next(40) as usize;
            let mut bytes = b"0123456789abcdefghijklmnopqrstuvwxyzABCD"[..head].to_vec();
            let len = next(120);
            for _ in 0..len {
                bytes.extend_from_slice(pieces[next(pieces.len() as u64) as usize]);
            }
            let good = round % 5 != 0;
            if !good {
                let at = head + next((bytes.len() - head) as u64 + 1) as usize;
                let bad = REJECTED[next(REJECTED.len() as u64) as usize];
                bytes.splice(at..at, bad.iter().copied());
            }
            for (name, kernel, three) in KERNELS {
                let mut out = SpareVec::with_capacity(bytes.len());
                for &b in &bytes[..head] {
                    out.push(u16::from(b));
                }
                let Some(i) = kernel(kernels, &bytes, head, &mut out) else {
                    continue;
                };
                let out = out.into_vec();
                let o = out.len();
                assert!(
                    head <= i && o <= i && i <= bytes.len(),
                    "{name}: {i} {o} {bytes:02x?}"
                );
                assert_eq!(
                    reference::decode_to_utf16(&bytes[..i]).as_deref(),
                    Ok(&out[..o]),
                    "{name} stopped at {i} in {bytes:02x?}"
                );
                let two_byte_text = bytes.iter().all(|&b| b < 0xE0);
                if good && (three || two_byte_text) {
                    // It stops only near the end, or (the 2-byte kernels) at a block of
                    // ASCII only, which the caller widens faster.
                    let (block, slack) = match name {
                        "ssse3" => (16, 24),
                        "avx512-pairs" => (32, 33),
                        _ => (32, 34),
                    };
                    let ascii = !three && bytes.get(i..i + block).is_some_and(<[u8]>::is_ascii);
                    assert!(
                        i + slack > bytes.len() || ascii,
                        "{name} stopped early at {i} of {}: {bytes:02x?}",
                        bytes.len()
                    );
                }
            }
        }
    }

    /// From a cursor that is neither 0 nor where the output ends: the body starts with text
    /// whose sequences make fewer chars than bytes (2- and 3-byte sequences, pairs), already
    /// decoded into the output, so each kernel starts at `i > 0` with `0 < o < i`; then a block
    /// decoder's text. What it writes lands after the head's chars, and matches the reference.
    #[test]
    fn kernels_start_at_a_cursor_ahead_of_the_output() {
        let kernels = Kernels::detect();
        let mut rng = wirebytes_testkit::Rng::new(0x0DD_F00D);
        let rounds = wirebytes_testkit::scale_miri(3000, 3000, 3);
        for round in 0..rounds {
            let mut bytes = alloc::vec::Vec::new();
            // 1..=24 sequences, at least one multi-byte: `o < i` when the kernel starts.
            bytes.extend_from_slice(b"\xc3\xa9");
            for _ in 0..rng.below(24) {
                bytes.extend_from_slice(ACCEPTED[rng.below(ACCEPTED.len())]);
            }
            let head = bytes.len();
            let pieces = if round % 2 == 0 {
                TWO_BYTE_TEXT
            } else {
                ACCEPTED
            };
            for _ in 0..rng.below(150) {
                bytes.extend_from_slice(pieces[rng.below(pieces.len())]);
            }
            // The head's chars, in the output before the kernel starts: left as they are.
            let before = reference::decode_to_utf16(&bytes[..head]).expect("accepted pieces");
            assert!(before.len() < head);
            for (name, kernel, _) in KERNELS {
                let mut out = SpareVec::with_capacity(bytes.len());
                for &c in &before {
                    out.push(c);
                }
                let Some(i) = kernel(kernels, &bytes, head, &mut out) else {
                    continue;
                };
                let out = out.into_vec();
                assert!(head <= i && i <= bytes.len(), "{name}: {i} {bytes:02x?}");
                assert_eq!(
                    reference::decode_to_utf16(&bytes[..i]).as_deref(),
                    Ok(&out[..]),
                    "{name} from {head} stopped at {i} in {bytes:02x?}"
                );
            }
        }
    }
}
