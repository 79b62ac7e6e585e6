//! `check_avx2`: [`crate::decode()`]'s one pass that decides whether a body can be borrowed: it
//! is UTF-8 *without a 4-byte sequence* (the JDK rejects those). AVX2. Its contract is
//! `utf8_check`'s in [`crate::arch`].
//!
//! The method is the lookup algorithm published by Keiser and Lemire ("Validating UTF-8 in
//! less than one instruction per byte", 2021), written here from its description. Every error
//! of UTF-8 shows in two consecutive bytes (the first one's high and low nibble, the second
//! one's high nibble), except a missing or extra third byte: three 16-entry tables, looked up
//! with `pshufb`, give for each nibble the set of errors it can be part of, and the AND of the
//! three sets is the set of errors at that byte. A set bit for "continuation byte after a
//! continuation byte" must then match exactly the bytes whose predecessor's predecessor is a
//! 3-byte lead (a byte `E0` or above).
//!
//! Here a byte `F0` or above is an error wherever it is, which both drops the 4-byte lead's
//! table entries (its overlong and too-large forms) and the check of a fourth byte.
//!
//! The end of the body is checked as a block of zeros would be: a lead there misses its
//! continuation bytes. Blocks of ASCII only skip the lookups, checking just that the bytes
//! before them did not stop inside a sequence.
//!
//! On 64 KiB of CJK, Cyrillic or mixed text this pass takes about 0.8-0.95x the time of
//! `simdutf8` alone, where `simdutf8` followed by a second scan for bytes `F0` and above takes
//! 1.2-1.8x (measured on Zen 4).

use crate::arch::SplitChunks;

#[cfg(target_arch = "x86")]
use core::arch::x86::{
    __m256i, _mm256_alignr_epi8, _mm256_and_si256, _mm256_loadu_si256, _mm256_movemask_epi8,
    _mm256_or_si256, _mm256_permute2x128_si256, _mm256_set1_epi8, _mm256_setr_epi8,
    _mm256_setzero_si256, _mm256_shuffle_epi8, _mm256_srli_epi16, _mm256_subs_epu8,
    _mm256_testz_si256, _mm256_xor_si256,
};
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::{
    __m256i, _mm256_alignr_epi8, _mm256_and_si256, _mm256_loadu_si256, _mm256_movemask_epi8,
    _mm256_or_si256, _mm256_permute2x128_si256, _mm256_set1_epi8, _mm256_setr_epi8,
    _mm256_setzero_si256, _mm256_shuffle_epi8, _mm256_srli_epi16, _mm256_subs_epu8,
    _mm256_testz_si256, _mm256_xor_si256,
};

// The errors a pair of bytes `a b` can show, one bit each.
/// A lead, then a byte that is not a continuation byte.
const TOO_SHORT: u8 = 1 << 0;
/// An ASCII byte, then a continuation byte.
const TOO_LONG: u8 = 1 << 1;
/// `C0` or `C1`: a 2-byte overlong form.
const OVERLONG_2: u8 = 1 << 2;
/// `E0`, then `80..9F`: a 3-byte overlong form.
const OVERLONG_3: u8 = 1 << 3;
/// `ED`, then `A0..BF`: a surrogate.
const SURROGATE: u8 = 1 << 4;
/// `F0..FF`, then anything: a 4-byte lead or worse, never borrowed.
const FOUR: u8 = 1 << 5;
/// A continuation byte, then another: right only as the third byte of a 3-byte sequence.
const TWO_CONTS: u8 = 1 << 7;

/// By the high nibble of `a`.
const A_HIGH: [u8; 16] = {
    let mut t = [0u8; 16];
    let mut k = 0;
    while k < 8 {
        t[k] = TOO_LONG;
        k += 1;
    }
    t[0x8] = TWO_CONTS;
    t[0x9] = TWO_CONTS;
    t[0xA] = TWO_CONTS;
    t[0xB] = TWO_CONTS;
    t[0xC] = TOO_SHORT | OVERLONG_2;
    t[0xD] = TOO_SHORT;
    t[0xE] = TOO_SHORT | OVERLONG_3 | SURROGATE;
    t[0xF] = FOUR;
    t
};

/// By the low nibble of `a`.
const A_LOW: [u8; 16] = {
    let mut t = [TOO_SHORT | TOO_LONG | TWO_CONTS | FOUR; 16];
    t[0x0] |= OVERLONG_2 | OVERLONG_3;
    t[0x1] |= OVERLONG_2;
    t[0xD] |= SURROGATE;
    t
};

/// By the high nibble of `b`.
const B_HIGH: [u8; 16] = {
    let mut t = [TOO_SHORT | FOUR; 16];
    t[0x8] = TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | FOUR;
    t[0x9] = TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | FOUR;
    t[0xA] = TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | FOUR;
    t[0xB] = TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | FOUR;
    t
};

/// What a scalar loop over the same tables finds for the pair `a b` whose `a` follows `z`:
/// nonzero where the bytes are not UTF-8 without a 4-byte sequence. The vector code computes
/// exactly this per byte; the tests hold the two and `core::str::from_utf8` together.
#[cfg(test)]
fn pair_error(z: u8, a: u8, b: u8) -> u8 {
    let set =
        A_HIGH[usize::from(a >> 4)] & A_LOW[usize::from(a & 0xF)] & B_HIGH[usize::from(b >> 4)];
    let third = if z >= 0xE0 { TWO_CONTS } else { 0 };
    set ^ third
}

/// A 16-entry table repeated in both 128-bit lanes, for `pshufb`.
#[inline]
#[target_feature(enable = "avx2")]
fn table(t: &[u8; 16]) -> __m256i {
    let t = t.map(|b| b as i8);
    _mm256_setr_epi8(
        t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8], t[9], t[10], t[11], t[12], t[13],
        t[14], t[15], t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8], t[9], t[10], t[11],
        t[12], t[13], t[14], t[15],
    )
}

/// The lookup tables and constants, built once per call.
struct Tables {
    a_high: __m256i,
    a_low: __m256i,
    b_high: __m256i,
    nibble: __m256i,
    /// Bytes above which the last two bytes of a block leave a sequence open.
    incomplete: __m256i,
}

impl Tables {
    #[inline]
    #[target_feature(enable = "avx2")]
    fn new() -> Self {
        let mut incomplete = [0xFFu8; 32];
        incomplete[30] = 0xDF;
        incomplete[31] = 0xBF;
        Self {
            a_high: table(&A_HIGH),
            a_low: table(&A_LOW),
            b_high: table(&B_HIGH),
            nibble: _mm256_set1_epi8(0x0F),
            // SAFETY: `incomplete` is 32 bytes long; the load is unaligned.
            incomplete: unsafe { _mm256_loadu_si256(incomplete.as_ptr().cast()) },
        }
    }

    /// The errors of the 32 bytes of `x`, whose previous 32 bytes are `prev`: nonzero
    /// somewhere if there is one.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn errors(&self, x: __m256i, prev: __m256i) -> __m256i {
        // The bytes one and two places back: `prev`'s high lane and `x`'s low lane, shifted
        // into each of `x`'s lanes.
        let joined = _mm256_permute2x128_si256::<0x21>(prev, x);
        let a = _mm256_alignr_epi8::<15>(x, joined);
        let z = _mm256_alignr_epi8::<14>(x, joined);
        let a_high = _mm256_and_si256(_mm256_srli_epi16::<4>(a), self.nibble);
        let a_low = _mm256_and_si256(a, self.nibble);
        let b_high = _mm256_and_si256(_mm256_srli_epi16::<4>(x), self.nibble);
        let set = _mm256_and_si256(
            _mm256_and_si256(
                _mm256_shuffle_epi8(self.a_high, a_high),
                _mm256_shuffle_epi8(self.a_low, a_low),
            ),
            _mm256_shuffle_epi8(self.b_high, b_high),
        );
        // 0x80 where `z` is E0 or above: a third byte must follow.
        let third = _mm256_and_si256(
            _mm256_subs_epu8(z, _mm256_set1_epi8(0xE0_u8.wrapping_sub(0x80) as i8)),
            _mm256_set1_epi8(0x80_u8 as i8),
        );
        _mm256_xor_si256(set, third)
    }
}

/// The two halves of a block.
#[inline]
#[target_feature(enable = "avx2")]
fn load(block: &[u8; 64]) -> (__m256i, __m256i) {
    // SAFETY: `block` is 64 bytes long: both loads are within it, and unaligned.
    unsafe {
        (
            _mm256_loadu_si256(block.as_ptr().cast()),
            _mm256_loadu_si256(block[32..].as_ptr().cast()),
        )
    }
}

/// Whether `x` holds ASCII only.
#[inline]
#[target_feature(enable = "avx2")]
fn is_ascii(x: __m256i) -> bool {
    _mm256_movemask_epi8(x) == 0
}

/// Whether `v` is all zeros.
#[inline]
#[target_feature(enable = "avx2")]
fn is_zero(v: __m256i) -> bool {
    _mm256_testz_si256(v, v) != 0
}

/// Checks that `bytes` are UTF-8 without a 4-byte sequence (so that they already are the text
/// of their modified UTF-8). If not, returns an index that starts a char, before which the
/// bytes pass, and at most 67 bytes before the first that does not (the start of the 64-byte
/// block where the check failed, moved back to the start of its char).
#[target_feature(enable = "avx2")]
pub(crate) fn check_avx2(bytes: &[u8]) -> Result<(), usize> {
    let t = Tables::new();
    let (blocks, tail) = bytes.split_chunks::<64>();
    let mut prev = _mm256_setzero_si256();
    let mut k = 0;
    while let Some(block) = blocks.get(k) {
        let (x, y) = load(block);
        if is_ascii(_mm256_or_si256(x, y)) {
            // Only whether the bytes before stopped inside a sequence; then the whole run of
            // ASCII blocks, two at a time, with nothing else to check.
            if !is_zero(_mm256_subs_epu8(prev, t.incomplete)) {
                return Err(char_start_before(bytes, 64 * k));
            }
            k += 1;
            while let Some([b0, b1]) = blocks.get(k..k + 2) {
                let ((x0, y0), (x1, y1)) = (load(b0), load(b1));
                if !is_ascii(_mm256_or_si256(
                    _mm256_or_si256(x0, y0),
                    _mm256_or_si256(x1, y1),
                )) {
                    break;
                }
                k += 2;
            }
            // The bytes before the next block are ASCII: as good as zeros.
            prev = _mm256_setzero_si256();
            continue;
        }
        let err = _mm256_or_si256(t.errors(x, prev), t.errors(y, x));
        if !is_zero(err) {
            return Err(char_start_before(bytes, 64 * k));
        }
        prev = y;
        k += 1;
    }
    if tail.is_ascii() {
        // An ASCII tail (a short body of ASCII, in particular): as an ASCII block.
        return if is_zero(_mm256_subs_epu8(prev, t.incomplete)) {
            Ok(())
        } else {
            Err(char_start_before(bytes, 64 * blocks.len()))
        };
    }
    // The rest, then zeros: a lead at the end misses its continuation bytes.
    let mut last = [0u8; 64];
    last[..tail.len()].copy_from_slice(tail);
    let (x, y) = load(&last);
    // At least one zero follows the tail: where a sequence is left open, it is where the
    // next byte is missing.
    let err = _mm256_or_si256(t.errors(x, prev), t.errors(y, x));
    if is_zero(err) {
        Ok(())
    } else {
        Err(char_start_before(bytes, 64 * blocks.len()))
    }
}

/// The start of the char that holds byte `at - 1` (`0` if `at` is): every byte before `at`
/// has passed the check together with its predecessors, so the bytes before that start are
/// whole chars that pass.
#[inline]
fn char_start_before(bytes: &[u8], at: usize) -> usize {
    let mut s = at.saturating_sub(1);
    while s > 0 && bytes[s] & 0xC0 == 0x80 {
        s -= 1;
    }
    s
}

#[cfg(test)]
mod tests {
    use alloc::vec::Vec;

    use super::*;
    use crate::arch::Kernels;

    /// The kernels of this CPU, if they hold the check (else these tests have nothing to do).
    fn with_check() -> Option<Kernels> {
        Some(Kernels::detect()).filter(|k| k.utf8_check(b"").is_some())
    }

    /// What [`check_avx2`] must find: the bytes are UTF-8 without a 4-byte sequence, or the
    /// length of the longest prefix that is.
    fn expected(bytes: &[u8]) -> Result<(), usize> {
        let valid = match core::str::from_utf8(bytes) {
            Ok(_) => bytes.len(),
            Err(e) => e.valid_up_to(),
        };
        let valid = bytes[..valid]
            .iter()
            .position(|&b| b >= 0xF0)
            .unwrap_or(valid);
        if valid == bytes.len() {
            Ok(())
        } else {
            Err(valid)
        }
    }

    fn assert_checks(kernels: Kernels, bytes: &[u8]) {
        let prefix = kernels.utf8_check(bytes).expect("the CPU has the check");
        assert_eq!(prefix.as_str().as_bytes(), &bytes[..prefix.len()]);
        let got = if prefix.is_whole() {
            Ok(())
        } else {
            Err(prefix.len())
        };
        match (got, expected(bytes)) {
            (Ok(()), Ok(())) => {}
            (Err(start), Err(valid)) => {
                assert!(
                    start <= valid && valid <= start + 67,
                    "start {start}, valid up to {valid}: {bytes:02x?}"
                );
                // A char starts there (or nothing passes).
                assert!(start == 0 || bytes[start] & 0xC0 != 0x80, "{start}");
            }
            (got, want) => panic!("got {got:?}, want {want:?}: {bytes:02x?}"),
        }
    }

    #[test]
    fn the_tables_agree_with_std_on_every_three_bytes() {
        // Behind ASCII and followed by a zero (as the end is checked): the pairs' errors are
        // those of bytes that are not UTF-8 without a 4-byte sequence.
        // (Under Miri, every 13th, 11th and 7th byte: the tables are plain arrays, and 2^24
        // cases would take a day.)
        for p in (0..=255u8).step_by(wirebytes_testkit::scale_miri(1, 1, 13)) {
            for q in (0..=255u8).step_by(wirebytes_testkit::scale_miri(1, 1, 11)) {
                let two = pair_error(b'x', b'x', p) | pair_error(b'x', p, q);
                for r in (0..=255u8).step_by(wirebytes_testkit::scale_miri(1, 1, 7)) {
                    let ok = two | pair_error(p, q, r) | pair_error(q, r, 0) == 0;
                    let want = core::str::from_utf8(&[p, q, r]).is_ok() && p.max(q).max(r) < 0xF0;
                    assert_eq!(ok, want, "{p:02x} {q:02x} {r:02x}");
                }
            }
        }
    }

    #[test]
    fn check_agrees_with_std_on_every_sequence_at_every_offset() {
        let Some(kernels) = with_check() else {
            return;
        };
        let mut sequences: Vec<Vec<u8>> = Vec::new();
        for a in (0..=255u8).step_by(wirebytes_testkit::scale_miri(1, 3, 61)) {
            sequences.push(alloc::vec![a]);
            for b in [
                0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xE0, 0xF0, 0xFF,
            ] {
                sequences.push(alloc::vec![a, b]);
                for c in [0x41, 0x80, 0xBF, 0xC2] {
                    sequences.push(alloc::vec![a, b, c]);
                }
            }
        }
        for fill in ["a", "\u{436}", "\u{4E2D}"]
            .into_iter()
            .step_by(wirebytes_testkit::scale_miri(1, 1, 2))
        {
            for offset in (0..70)
                .chain(120..136)
                .chain(250..262)
                .chain(314..330)
                .step_by(wirebytes_testkit::scale_miri(1, 1, 29))
            {
                let mut head = Vec::new();
                while head.len() < offset {
                    head.extend_from_slice(fill.as_bytes());
                }
                // (Under Miri, every 37th sequence: some 300 of them at each place.)
                for seq in sequences
                    .iter()
                    .step_by(wirebytes_testkit::scale_miri(1, 1, 37))
                {
                    let mut bytes = head.clone();
                    bytes.extend_from_slice(seq);
                    assert_checks(kernels, &bytes);
                    bytes.extend_from_slice(fill.as_bytes());
                    bytes.extend_from_slice(&head);
                    assert_checks(kernels, &bytes);
                }
            }
        }
    }

    #[test]
    fn check_agrees_with_std_on_random_text() {
        let Some(kernels) = with_check() else {
            return;
        };
        let pieces: [&[u8]; 14] = [
            b"a",
            b"0123456789abcdefghijklmnopqrstuvwxyz",
            b"\xd0\xb6",
            b"\xe4\xb8\xad",
            b"\xef\xbf\xbf",
            b"\xed\x9f\xbf",
            b"\xe0\xa0\x80",
            b"\xc0\x80",
            b"\xed\xa0\xbd",
            b"\xe0\x9f\xbf",
            b"\xf0\x9f\x98\x80",
            b"\x80",
            b"\xe2\x82",
            b"\xff",
        ];
        let mut rng = wirebytes_testkit::Rng::new(0x2545_F491_4F6C_DD1D);
        let mut next = move |n: u64| rng.below(n as usize) as u64;
        for round in 0..wirebytes_testkit::scale_miri(20_000, 20_000, 6) {
            let mut bytes = Vec::new();
            // Mostly good text (the first seven pieces); every third body may hold anything.
            let kinds = if round % 3 == 0 { 14 } else { 7 };
            for _ in 0..next(200) {
                bytes.extend_from_slice(pieces[next(kinds) as usize]);
            }
            assert_checks(kernels, &bytes);
        }
    }
}
