//! The kernels of UTF-8 to Latin-1 bytes: each char's byte made at one of its bytes, then
//! those bytes packed. AVX-512: 64 bytes per step, one load; a 2-byte char's byte is made at
//! its continuation byte (plus 0x40 after 0xC3, the lead of the step before carried in a mask
//! bit) and the leads are dropped by `vpcompressb`; whole steps first (no char the kernel
//! stops at, 64 bytes of room: stored 64 bytes wide where the room takes scratch bytes),
//! then the rest stored under a mask. AVX2: 32 bytes per step, each
//! lead replaced by its char's byte (made from it and the byte after it), each eight packed
//! with `pshufb` ([`COMPACT`]) and stored eight bytes wide. Their contract is
//! [`Kernels::latin1_bytes`](crate::arch::Kernels::latin1_bytes)'s.

use std::mem::MaybeUninit;

use std::arch::x86_64::{
    __m256i, _mm_set_epi64x, _mm_shuffle_epi8, _mm_storel_epi64, _mm_unpackhi_epi64,
    _mm256_and_si256, _mm256_blendv_epi8, _mm256_castsi256_si128, _mm256_cmpeq_epi8,
    _mm256_cmpgt_epi8, _mm256_extracti128_si256, _mm256_loadu_si256, _mm256_max_epu8,
    _mm256_min_epu8, _mm256_movemask_epi8, _mm256_or_si256, _mm256_set1_epi8, _mm256_slli_epi16,
};
#[cfg(wirebytes_avx512)]
use std::arch::x86_64::{
    __m512i, _mm512_cmpeq_epi8_mask, _mm512_cmpge_epu8_mask, _mm512_cmplt_epu8_mask,
    _mm512_loadu_si512, _mm512_mask_add_epi8, _mm512_mask_storeu_epi8, _mm512_maskz_compress_epi8,
    _mm512_movepi8_mask, _mm512_set1_epi8, _mm512_storeu_si512,
};

use super::compact::COMPACT;
#[cfg(wirebytes_avx512)]
use super::{first, load_first64};

/// The bytes of the source that follow an AVX-512 step stored 64 bytes wide into the caller's
/// slice: 64 chars or more, whose bytes the caller writes after the step's, over the up to 64
/// scratch bytes of its store.
#[cfg(wirebytes_avx512)]
const COVER_AVX512: usize = 256;

/// The same for an AVX2 step, whose eight-byte stores write up to 8 bytes past its output:
/// 8 chars or more.
const COVER_AVX2: usize = 32;

/// Where the steps that may leave scratch bytes end, in `len` bytes of text: at its end
/// where the room takes scratch bytes, else `cover` bytes before it (the bytes of the
/// chars in those write over the scratch).
#[inline(always)]
fn covered_end(len: usize, scratch: bool, cover: usize) -> usize {
    if scratch {
        len
    } else {
        len.saturating_sub(cover)
    }
}

/// What an AVX-512 step carries into the next: whether the last byte of the step was a lead
/// (its char's byte is made from the continuation byte that starts the next step, and is
/// written there), and whether it was 0xC2 or 0xC3, each in bit 0.
#[cfg(wirebytes_avx512)]
#[derive(Clone, Copy, Default)]
struct Carry {
    lead: u64,
    c2: u64,
    c3: u64,
}

/// The leads of `x` (0xC0 and above) and where the kernel stops in it: the leads of the chars
/// above U+00FF, and (without `C1`) those of the chars U+0080..=U+009F (0xC2, then a byte
/// below 0xA0). `true` in the last place when such a char's lead is the last byte of the
/// step before (`carry`): the kernel stops before it.
#[cfg(wirebytes_avx512)]
#[clippy::msrv = "1.89"]
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn leads_and_stops<const C1: bool>(x: __m512i, carry: Carry) -> (u64, u64, bool) {
    let leads = _mm512_cmpge_epu8_mask(x, _mm512_set1_epi8(0xC0_u8 as i8));
    let mut stops = _mm512_cmpge_epu8_mask(x, _mm512_set1_epi8(0xC4_u8 as i8));
    let mut before = false;
    if !C1 {
        // The continuation bytes 0x80..=0x9F that follow a 0xC2.
        let low =
            _mm512_movepi8_mask(x) & _mm512_cmplt_epu8_mask(x, _mm512_set1_epi8(0xA0_u8 as i8));
        let c1 =
            ((_mm512_cmpeq_epi8_mask(x, _mm512_set1_epi8(0xC2_u8 as i8)) << 1) | carry.c2) & low;
        stops |= c1 >> 1;
        before = c1 & 1 != 0;
    }
    (leads, stops, before)
}

/// The byte of each char of `x` at its last byte (the continuation byte of a 2-byte char: as
/// it is after 0xC2, plus 0x40 after 0xC3), the leads as they are, and the carry into the
/// next step.
#[cfg(wirebytes_avx512)]
#[clippy::msrv = "1.89"]
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn char_bytes(x: __m512i, leads: u64, carry: Carry) -> (__m512i, Carry) {
    let c3 = _mm512_cmpeq_epi8_mask(x, _mm512_set1_epi8(0xC3_u8 as i8));
    let c2 = _mm512_cmpeq_epi8_mask(x, _mm512_set1_epi8(0xC2_u8 as i8));
    let bytes = _mm512_mask_add_epi8(x, (c3 << 1) | carry.c3, x, _mm512_set1_epi8(0x40));
    let next = Carry {
        lead: leads >> 63,
        c2: c2 >> 63,
        c3: c3 >> 63,
    };
    (bytes, next)
}

/// See [`Kernels::latin1_bytes`](crate::arch::Kernels::latin1_bytes): the chars of
/// U+0080..=U+009F are taken when `C1`, else they stop the kernel. `scratch`: whether the
/// bytes of `dst` past those written may be written too (then whole steps store 64 bytes;
/// else only those that [`COVER_AVX512`] bytes of `src` follow).
///
/// One load a step: each char's byte is made at its last byte (the continuation of a 2-byte
/// char, the lead of the step before carried in a mask bit), and the leads are dropped by
/// `vpcompressb`. A step of ASCII takes the same path: a branch for it cost more than it saved
/// on Latin-1 text, where steps with and without a 2-byte char alternate.
#[cfg(wirebytes_avx512)]
#[clippy::msrv = "1.89"]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi2,popcnt")]
pub(crate) fn latin1_bytes_avx512<const C1: bool>(
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
    scratch: bool,
) -> (usize, usize) {
    let (mut i, mut w) = (0usize, 0usize);
    let mut carry = Carry::default();
    // The end of the steps stored 64 bytes wide.
    let plain_end = covered_end(src.len(), scratch, COVER_AVX512);
    // Whole steps: 64 bytes, none a stop, and room for 64 bytes.
    while let (Some(block), Some(out)) = (
        src.get(i..).and_then(<[u8]>::first_chunk::<64>),
        dst.get_mut(w..)
            .and_then(<[MaybeUninit<u8>]>::first_chunk_mut::<64>),
    ) {
        // SAFETY: the load reads the 64 bytes of `block`; no alignment requirement.
        let x = unsafe { _mm512_loadu_si512(block.as_ptr().cast()) };
        let (leads, stops, before) = leads_and_stops::<C1>(x, carry);
        if stops != 0 || before {
            break;
        }
        let (bytes, next) = char_bytes(x, leads, carry);
        let count = (!leads).count_ones() as usize;
        let packed = _mm512_maskz_compress_epi8(!leads, bytes);
        if i + 64 <= plain_end {
            // SAFETY: the store writes the 64 bytes of `out`, borrowed mutably; those past
            // `count` may be written (`scratch`, or the caller writes over them) and are
            // initialised (zeros). No alignment requirement.
            unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast(), packed) };
        } else {
            // SAFETY: the store writes only the lanes of its mask, the first `count` (at
            // most 64) bytes of `out`, borrowed mutably; a masked-off lane is not written.
            // No alignment requirement.
            unsafe { _mm512_mask_storeu_epi8(out.as_mut_ptr().cast(), first(count), packed) };
        }
        (i, w, carry) = (i + 64, w + count, next);
    }
    // The rest, one step under masks at a time, up to the first stop.
    while i < src.len() {
        // `k` bytes from `i` (zeros after them: ASCII, never a stop).
        let k = (src.len() - i).min(64);
        let x = load_first64(&src[i..]);
        let (leads, stops, before) = leads_and_stops::<C1>(x, carry);
        if before {
            // The char of the lead that ends the step before stops the kernel: its bytes
            // are not read.
            break;
        }
        // The chars that end before the first stop (all of them when there is none).
        let ends = !leads & first(k) & stops.wrapping_sub(1) & !stops;
        let count = ends.count_ones() as usize;
        let Some(out) = dst.get_mut(w..w + count) else {
            break;
        };
        let (bytes, next) = char_bytes(x, leads, carry);
        let packed = _mm512_maskz_compress_epi8(ends, bytes);
        // SAFETY: the store writes only the lanes of its mask, the first `count` bytes, the
        // `count` bytes of `out`, borrowed mutably; a masked-off lane is not written. No
        // alignment requirement.
        unsafe { _mm512_mask_storeu_epi8(out.as_mut_ptr().cast(), first(count), packed) };
        w += count;
        if stops != 0 {
            return (i + stops.trailing_zeros() as usize, w);
        }
        (i, carry) = (i + k, next);
    }
    // A lead whose char was not written (the next step stopped, or had no room) is not read.
    (i - carry.lead as usize, w)
}

/// The mask of the bytes of `v` at least `min` (unsigned), bit `i` for byte `i`.
#[target_feature(enable = "avx2")]
#[inline]
fn at_least(v: __m256i, min: u8) -> u32 {
    let min = _mm256_set1_epi8(min as i8);
    _mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_max_epu8(v, min), v)) as u32
}

/// Writes the 16 bytes of `v` whose bit in `kept` (bit `i`: byte `i`) is set, in order, to
/// `dst` from `w` on, and returns `w` past them: `pshufb` gathers each eight's kept bytes to
/// its front ([`COMPACT`]) and each eight is stored eight bytes wide (the bytes past the kept
/// ones are overwritten by the next store, or are past the count). `None`, after writing some
/// of them, when a store does not fit in `dst`.
#[target_feature(enable = "avx2,popcnt")]
#[inline]
fn compact16(
    v: std::arch::x86_64::__m128i,
    kept: u32,
    dst: &mut [MaybeUninit<u8>],
    w: usize,
) -> Option<usize> {
    let (low, high) = ((!kept & 0xFF) as usize, ((!kept >> 8) & 0xFF) as usize);
    let indices = _mm_set_epi64x(
        (COMPACT[high] | 0x0808_0808_0808_0808) as i64,
        COMPACT[low] as i64,
    );
    let packed = _mm_shuffle_epi8(v, indices);
    let low_out = dst.get_mut(w..w + 8)?;
    // SAFETY: the store writes the 8 bytes of `low_out`, borrowed mutably; no alignment
    // requirement.
    unsafe { _mm_storel_epi64(low_out.as_mut_ptr().cast(), packed) };
    let w = w + 8 - low.count_ones() as usize;
    let high_out = dst.get_mut(w..w + 8)?;
    // SAFETY: the store writes the 8 bytes of `high_out` (the upper half of `packed`),
    // borrowed mutably; no alignment requirement (`movq`, not `movhpd`, which asks for an
    // aligned `f64` place).
    unsafe {
        _mm_storel_epi64(
            high_out.as_mut_ptr().cast(),
            _mm_unpackhi_epi64(packed, packed),
        )
    };
    Some(w + 8 - high.count_ones() as usize)
}

/// One AVX2 step over the 32 bytes `x` (and `y`, each one's next byte): the bytes with each
/// lead replaced by its char's byte (and each continuation byte by anything: it is not
/// kept), the mask of the bytes before the stop that start a char, and the stop mask (the
/// lead of the first char not taken; 0 when every char is taken).
#[target_feature(enable = "avx2")]
#[inline]
fn step<const C1: bool>(x: __m256i, y: __m256i) -> (__m256i, u32, u32) {
    // Continuation bytes, 0x80..=0xBF: below -64 as signed bytes.
    let continuation = _mm256_movemask_epi8(_mm256_cmpgt_epi8(_mm256_set1_epi8(-64), x)) as u32;
    // The first byte not taken: the lead of a char above U+00FF, or (without `C1`) of one
    // below U+00A0 (0xC2 and a next byte below 0xA0).
    let mut stop = at_least(x, 0xC4);
    if !C1 {
        let c2 = _mm256_cmpeq_epi8(x, _mm256_set1_epi8(0xC2_u8 as i8));
        let below = _mm256_cmpeq_epi8(_mm256_min_epu8(y, _mm256_set1_epi8(0x9F_u8 as i8)), y);
        stop |= _mm256_movemask_epi8(_mm256_and_si256(c2, below)) as u32;
    }
    // The bytes before the stop (all of them when there is none) that start a char: all but
    // continuation bytes (the first may be the continuation of the last char of the step
    // before, written there).
    let starts = !continuation & stop.wrapping_sub(1) & !stop;
    let pair = _mm256_or_si256(
        _mm256_and_si256(_mm256_slli_epi16::<6>(x), _mm256_set1_epi8(0xC0_u8 as i8)),
        _mm256_and_si256(y, _mm256_set1_epi8(0x3F)),
    );
    // Every byte with its high bit set (a lead, or a continuation byte, which is dropped)
    // takes the pair's byte: `blendv` picks by each mask byte's high bit, and `x` is that
    // mask.
    (_mm256_blendv_epi8(x, pair, x), starts, stop)
}

/// See [`Kernels::latin1_bytes`](crate::arch::Kernels::latin1_bytes): the chars of
/// U+0080..=U+009F are taken when `C1`, else they stop the kernel. Steps of 32 bytes while 33
/// are left (where `dst` takes no scratch bytes, `scratch` false: while [`COVER_AVX2`]
/// follow them) and `dst` has 32 bytes of room, stored eight bytes wide, up to 8 bytes past
/// a step's output; then the last bytes (or those the room is short for) 32 at a time
/// through a stack copy, each step's bytes copied out exactly while they fit.
#[target_feature(enable = "avx2,popcnt")]
pub(crate) fn latin1_bytes_avx2<const C1: bool>(
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
    scratch: bool,
) -> (usize, usize) {
    let (mut i, mut w) = (0usize, 0usize);
    // The end of the steps' bytes.
    let end = covered_end(src.len(), scratch, COVER_AVX2);
    while let (Some(bytes), Some(out)) = (
        src.get(i..i + 33),
        dst.get_mut(w..w + 32)
            .and_then(<[MaybeUninit<u8>]>::first_chunk_mut::<32>),
    ) {
        if i + 32 > end {
            break;
        }
        // SAFETY: each load reads 32 of the 33 bytes of `bytes`; no alignment requirement.
        let (x, y) = unsafe {
            (
                _mm256_loadu_si256(bytes.as_ptr().cast()),
                _mm256_loadu_si256(bytes.as_ptr().add(1).cast()),
            )
        };
        let (value, starts, stop) = step::<C1>(x, y);
        // At most 16 bytes from each half, into the 32 of `out`: every store fits (the
        // bound on `mid`, which holds, tells the compiler so).
        let Some(mid) = compact16(_mm256_castsi256_si128(value), starts & 0xFFFF, out, 0) else {
            break;
        };
        let Some(end) = compact16(
            _mm256_extracti128_si256::<1>(value),
            starts >> 16,
            out,
            mid.min(16),
        ) else {
            break;
        };
        w += end;
        if stop != 0 {
            return (i + stop.trailing_zeros() as usize, w);
        }
        i += 32;
    }
    while i < src.len() {
        // Up to 33 bytes from `i`, zeros after them (not a char's bytes: masked off below).
        let left = src.len() - i;
        let mut window = [0u8; 33];
        let k = left.min(33);
        window[..k].copy_from_slice(&src[i..i + k]);
        // SAFETY: each load reads 32 of the 33 bytes of `window`; no alignment requirement.
        let (x, y) = unsafe {
            (
                _mm256_loadu_si256(window.as_ptr().cast()),
                _mm256_loadu_si256(window.as_ptr().add(1).cast()),
            )
        };
        let (value, starts, stop) = step::<C1>(x, y);
        let starts = starts & u32::MAX.checked_shr(32 - left.min(32) as u32).unwrap_or(0);
        let count = starts.count_ones() as usize;
        let Some(out) = dst.get_mut(w..w + count) else {
            break;
        };
        // The kept bytes, packed as above into a stack copy (32 bytes: every store fits),
        // then copied out exactly.
        let mut staged = [MaybeUninit::<u8>::uninit(); 32];
        let mid = compact16(
            _mm256_castsi256_si128(value),
            starts & 0xFFFF,
            &mut staged,
            0,
        );
        let high = _mm256_extracti128_si256::<1>(value);
        let end = match mid {
            Some(mid) => compact16(high, starts >> 16, &mut staged, mid),
            None => None,
        };
        if end != Some(count) {
            break; // unreachable: the stores fit and keep `count` bytes
        }
        out.copy_from_slice(&staged[..count]);
        w += count;
        if stop != 0 {
            return (i + stop.trailing_zeros() as usize, w);
        }
        i += left.min(32);
    }
    (super::next_char_start(src, i), w)
}
