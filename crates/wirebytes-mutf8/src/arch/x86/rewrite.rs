//! `rewrite_avx512`: [`crate::decode()`]'s rewrite of modified UTF-8 into UTF-8, 64 bytes at a
//! time with AVX-512 (BW, VBMI and VBMI2). Its contract is `rewrite_utf8`'s in
//! [`crate::arch`].
//!
//! A block qualifies when it holds only ASCII, `C0`/`C1` + a continuation byte (`C0 80` and
//! the other overlong 2-byte forms), 2- and 3-byte sequences that already are UTF-8, and
//! surrogate pairs (`ED A0..AF xx ED B0..BF yy`); anything else (a 3-byte overlong, a lone
//! surrogate, a stray continuation byte, a byte `F0` or above) is left to the caller's scalar
//! loop, which also gives the JDK's errors. In a block that qualifies, every byte is rewritten
//! in place as it would be if a sequence started there, without a branch: a `C0`/`C1` lead
//! becomes its char and drops its continuation byte; a pair's six bytes become the four bytes
//! of its char (bytes 0, 1, 4 and 5 are rewritten or kept, 2 and 3 dropped); and
//! `vpcompressb` keeps the bytes that remain, in order, for one unaligned 64-byte store.
//!
//! Blocks are back to back, 64 bytes apart: a sequence (or pair) that runs past a block is
//! written with it, from that block's bytes and the ones after it (the loads are a byte on
//! and two bytes back), but its continuation bytes and its low surrogate are checked with the
//! next block, from the leads the block passes on. If that next block does not qualify (or
//! the input ends), the cursors go back to the start of that sequence, whose bytes are then
//! left to the caller. No check moves a cursor: the only branches are "all ASCII" and "does
//! not qualify".
//!
//! On a Zen 4, 64 KiB of mostly ASCII with a `C0 80` or a 6-byte pair every 40 chars take
//! 6.9-7.3 µs, against 9.6-10.0 µs with the scalar loop alone (ASCII 32 bytes at a time, one
//! branch per sequence; best of six side-by-side runs each). Ending each block before a
//! sequence running past it (so that the next block's start hangs on this block's masks)
//! takes 8.3-8.5 µs.

use core::mem::MaybeUninit;

#[cfg(target_arch = "x86")]
use core::arch::x86::{
    __m512i, _mm512_and_si512, _mm512_andnot_si512, _mm512_cmpeq_epi8_mask, _mm512_cmpge_epu8_mask,
    _mm512_loadu_si512, _mm512_mask_mov_epi8, _mm512_maskz_compress_epi8, _mm512_movepi8_mask,
    _mm512_or_si512, _mm512_permutexvar_epi8, _mm512_set1_epi8, _mm512_slli_epi16,
    _mm512_srli_epi16, _mm512_storeu_si512,
};
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::{
    __m512i, _mm512_and_si512, _mm512_andnot_si512, _mm512_cmpeq_epi8_mask, _mm512_cmpge_epu8_mask,
    _mm512_loadu_si512, _mm512_mask_mov_epi8, _mm512_maskz_compress_epi8, _mm512_movepi8_mask,
    _mm512_or_si512, _mm512_permutexvar_epi8, _mm512_set1_epi8, _mm512_slli_epi16,
    _mm512_srli_epi16, _mm512_storeu_si512,
};

/// Bits of `a` where `mask` has them, else of `b` (one `vpternlog`).
#[inline]
#[target_feature(enable = "avx512f")]
fn select(mask: __m512i, a: __m512i, b: __m512i) -> __m512i {
    _mm512_or_si512(_mm512_and_si512(mask, a), _mm512_andnot_si512(mask, b))
}

/// A `vpermb` table giving, for the second byte of a high surrogate (`1010hhhh`, 32..47 in
/// its low 6 bits), `f(hhhh)`.
#[inline]
#[target_feature(enable = "avx512f")]
fn table(f: impl Fn(u8) -> u8) -> __m512i {
    let mut t = [0u8; 64];
    for h in 0..16 {
        t[32 + h] = f(h as u8);
    }
    // SAFETY: `t` is 64 bytes; the load is unaligned.
    unsafe { _mm512_loadu_si512(t.as_ptr().cast()) }
}

/// Rewrites `bytes[i..]` as UTF-8 into `out[o..]`, 64 bytes at a time, while the blocks
/// qualify (see the module); returns the cursors where it stopped, at the start of a sequence
/// left to the caller. Each block writes at most one byte per byte read (`C0 xx` gives 1, a
/// pair 4 of 6), so `o <= i` still holds, and its 64-byte store at `o` stays within `out`.
/// The contract (what it reads and writes, what it guarantees of the bytes written) is
/// `rewrite_utf8`'s in [`crate::arch`].
///
/// # Panics
///
/// If `o > i` or `out` is shorter than `bytes` (the unchecked stores rely on both).
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt")]
pub(crate) fn rewrite_avx512(
    bytes: &[u8],
    mut i: usize,
    out: &mut [MaybeUninit<u8>],
    mut o: usize,
) -> (usize, usize) {
    let splat = |b: u8| _mm512_set1_epi8(b as i8);
    let n = bytes.len();
    assert!(o <= i && out.len() >= n, "the output cannot hold the text");
    if i < 2 {
        // The blocks read the two bytes before them.
        return (i, o);
    }
    let plane_lead = table(|h| 0xF0 | ((h + 1) >> 2));
    let plane_low = table(|h| 0x80 | (((h + 1) & 3) << 4));
    // What the last block passes on to the next: its 2- and 3-byte leads and high
    // surrogates (for the continuation bytes and the pairs that run into the next block),
    // and the bytes it kept.
    let (mut lead23, mut lead3, mut high, mut overlong, mut kept) = (0u64, 0u64, 0u64, 0u64, 0);
    // The cursors back at the start of the last block's last sequence if that one runs into
    // the next block (a 2-byte lead at 63, a 3-byte one at 62 or 63, a pair from 59 on),
    // whose checks it still needs: where the blocks stop.
    let back = |i: usize, o: usize, (lead23, lead3, high, kept): (u64, u64, u64, u64)| {
        let past = (lead23 & (1 << 63)) | (lead3 & (3 << 62)) | (high & (0x1F << 59));
        if past == 0 {
            (i, o)
        } else {
            let from = past.trailing_zeros();
            (
                i - (64 - from as usize),
                o - (kept >> from).count_ones() as usize,
            )
        }
    };
    // Each block reads `bytes[i - 2..i + 65]` and writes `out[o..o + 64]`, within both: each
    // block keeps at most as many bytes as it reads, so `o <= i` holds throughout.
    while i + 65 <= n {
        // SAFETY: `2 <= i` and `i + 65 <= n`: the three 64-byte loads, from `i - 2`, `i` and
        // `i + 1`, are within `bytes`, and unaligned.
        let (back2, x, next): (__m512i, __m512i, __m512i) = unsafe {
            let at = bytes.as_ptr().add(i);
            (
                _mm512_loadu_si512(at.sub(2).cast()),
                _mm512_loadu_si512(at.cast()),
                _mm512_loadu_si512(at.add(1).cast()),
            )
        };
        // SAFETY: `o + 64 <= i + 64 < n <= out.len()`.
        let dst = unsafe { out.as_mut_ptr().add(o) };
        let bit7 = _mm512_movepi8_mask(x);
        // Why 59: a sequence of the last block that runs into this one starts at byte 59 or
        // later (a pair from 59, as in `back`), and its checks are this block's; as ASCII
        // this block fails them, so it must not be stored as it is. Each such sequence has a
        // 2- or 3-byte lead in bytes 59..=63 (a pair from 59 or 60 also has its low half's
        // lead at 62 or 63, one from 61 its own lead at 61): 61 would still see them all,
        // 62 would miss a pair from 61 and store a lone high surrogate's bytes as UTF-8.
        if bit7 | (lead23 >> 59) == 0 {
            // ASCII, after a block with no lead in its last 5 bytes (so nothing to pass on).
            // SAFETY: `dst` has 64 bytes of `out` (see above); the store is unaligned.
            unsafe { _mm512_storeu_si512(dst.cast(), x) };
            (lead23, lead3, high, overlong) = (0, 0, 0, 0);
            i += 64;
            o += 64;
            continue;
        }
        // The class of each byte, and of the byte after it.
        let ge_c0 = _mm512_cmpge_epu8_mask(x, splat(0xC0));
        let ge_e0 = _mm512_cmpge_epu8_mask(x, splat(0xE0));
        let ge_f0 = _mm512_cmpge_epu8_mask(x, splat(0xF0));
        let continuation = bit7 & !ge_c0;
        // (With a byte `F0` or above, the block does not qualify.)
        let (now_lead23, now_lead3) = (ge_c0, ge_e0);
        let next_ge_a0 = _mm512_cmpge_epu8_mask(next, splat(0xA0));
        let next_ge_b0 = _mm512_cmpge_epu8_mask(next, splat(0xB0));
        let ed = _mm512_cmpeq_epi8_mask(x, splat(0xED));
        let now_high = ed & next_ge_a0 & !next_ge_b0;
        let low = ed & next_ge_b0;
        let e0 = _mm512_cmpeq_epi8_mask(x, splat(0xE0));
        let now_overlong = _mm512_cmpeq_epi8_mask(_mm512_and_si512(x, splat(0xFE)), splat(0xC0));
        // Each mask moved up by `k` bytes, with what the last block moved into this one.
        let up = |now: u64, before: u64, k: u32| {
            ((u128::from(now) << 64 | u128::from(before)) >> (64 - k)) as u64
        };
        // Each continuation byte right after a lead (one for a 2-byte lead, two for a 3-byte
        // one); no byte `F0` or above; no 3-byte overlong (`E0 80..9F`); every high
        // surrogate followed by a low one and every low one after a high one. One branch on
        // them all.
        let bad = ge_f0
            | (continuation ^ (up(now_lead23, lead23, 1) | up(now_lead3, lead3, 2)))
            | (e0 & !next_ge_a0)
            | (low ^ up(now_high, high, 3));
        if bad != 0 {
            // Back to the start of the last block's last sequence, if it runs into this one.
            return back(i, o, (lead23, lead3, high, kept));
        }
        // `C0`/`C1` + a continuation byte: the char, one byte (bit 0 of the lead as bit 6,
        // and the continuation byte's 6 bits).
        let short = select(splat(0x3F), next, _mm512_slli_epi16(x, 6));
        // A pair `ED 1010hhhh 10hhhhhh ED 1011llll 10llllll` is the char
        // `F0 | u >> 2`, `10 uu hhhh`, `10 hh llll`, `10llllll`, with u = (the first 4 h) + 1
        // (its plane, 1..16): written at bytes 0, 1, 4 and 5 of the pair. Bytes 0 and 1 look
        // up the first 4 h (which `vpermb` indexes with the low 6 bits, `1010hhhh` -> 32..47).
        let byte0 = _mm512_permutexvar_epi8(next, plane_lead);
        let byte1 = select(
            splat(0x0F),
            _mm512_srli_epi16(next, 2),
            _mm512_permutexvar_epi8(x, plane_low),
        );
        let byte2 = select(splat(0x30), _mm512_slli_epi16(back2, 4), x);
        let text = _mm512_mask_mov_epi8(x, now_overlong, short);
        let text = _mm512_mask_mov_epi8(text, now_high, byte0);
        let text = _mm512_mask_mov_epi8(text, up(now_high, high, 1), byte1);
        let text = _mm512_mask_mov_epi8(text, up(now_high, high, 4), byte2);
        let keep = !(up(now_overlong, overlong, 1) | up(now_high, high, 2) | up(now_high, high, 3));
        // SAFETY: `dst` has 64 bytes of `out` (see above); the store is unaligned.
        unsafe { _mm512_storeu_si512(dst.cast(), _mm512_maskz_compress_epi8(keep, text)) };
        kept = keep;
        (lead23, lead3, high, overlong) = (now_lead23, now_lead3, now_high, now_overlong);
        i += 64;
        o += keep.count_ones() as usize;
    }
    back(i, o, (lead23, lead3, high, kept))
}
