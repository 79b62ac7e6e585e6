//! The x86-64 kernels chosen at run time: the one place of the crate with `unsafe`.
//!
//! - [`Simd::copy_ascii_blocks`] (AVX2): the ASCII bulk copy, checking and copying 64-byte
//!   blocks in one pass. The portable path finds the whole run first and copies it after.
//! - [`Simd::utf8_blocks`] (AVX-512 F, BW, VBMI, VBMI2): any text, 64 bytes per step:
//!   every byte's value computed at once, the bytes that end a char (and the third bytes of
//!   4-byte chars, for their high surrogates) kept by `vpcompressb`. Where the CPU has it, it
//!   takes over from the SSSE3 kernels below, which remain for CPUs without it.
//! - [`Simd::two_byte_blocks`] (SSSE3, POPCNT): text of ASCII and 2-byte chars, 16 bytes per
//!   step, the lead bytes squeezed out by a `pshufb` table. The portable path packs a word
//!   with one or two 2-byte chars, else goes a char at a time.
//! - [`Simd::three_byte_blocks`] (SSSE3): runs of 3-byte chars (CJK), sixteen per step.
//! - [`Simd::four_byte_blocks`] (SSSE3): runs of 4-byte chars (emoji), eight per step. The
//!   portable path does four UTF-16 units per step in integer registers for both.
//!
//! Measured gains (criterion, `ascii/copy_low_bytes`, `ours` against `ours-portable` side by
//! side, AMD EPYC, 2026-11-30): see the crate's README.
//!
//! Every kernel here is a `#[target_feature]` function; the `unsafe` is the call into it, once
//! a [`Simd`] value proves that the CPU has the feature, and the vector loads and stores, each
//! inside a fixed-size array. Without the `std` feature nothing is detected at run time: a
//! kernel runs only if its feature is enabled at compile time (`-C target-feature`,
//! `-C target-cpu`).
#![allow(unsafe_code)]

use core::arch::x86_64::{
    __m128i, _mm_add_epi8, _mm_alignr_epi8, _mm_and_si128, _mm_andnot_si128, _mm_cmpeq_epi8,
    _mm_cvtsi128_si64, _mm_loadu_si128, _mm_max_epu8, _mm_movemask_epi8, _mm_or_si128,
    _mm_set_epi64x, _mm_set1_epi8, _mm_set1_epi16, _mm_setr_epi8, _mm_shuffle_epi8, _mm_slli_epi16,
    _mm_srli_epi16, _mm_storeu_si128, _mm_sub_epi8, _mm256_loadu_si256, _mm256_movemask_epi8,
    _mm256_or_si256, _mm256_storeu_si256, _mm512_and_si512, _mm512_cmpge_epu8_mask,
    _mm512_cmplt_epi8_mask, _mm512_loadu_si512, _mm512_mask_blend_epi8, _mm512_mask_storeu_epi8,
    _mm512_maskz_compress_epi8, _mm512_or_si512, _mm512_permutex2var_epi8, _mm512_set1_epi8,
    _mm512_setzero_si512, _mm512_slli_epi16, _mm512_srli_epi16, _mm512_sub_epi8,
};

/// The SIMD features the CPU was seen to have. Only [`Simd::detect`] sets a field, after
/// checking the CPU, so a `true` field is a proof that the matching kernel may run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Simd {
    /// The CPU has AVX2.
    avx2: bool,
    /// The CPU has SSSE3 and POPCNT.
    ssse3: bool,
    /// The CPU has AVX-512 F, BW, VBMI and VBMI2 (and POPCNT).
    avx512: bool,
}

impl Simd {
    /// No SIMD kernel: the portable code only (the tests run it beside the detected one).
    pub(crate) const NONE: Simd = Simd {
        avx2: false,
        ssse3: false,
        avx512: false,
    };

    /// What this CPU has: asked at run time with the `std` feature, known at compile time
    /// without it. The answer is kept in one byte, so that a call costs one load once the
    /// first call has asked (the standard library's own cache takes a load and a test per
    /// feature, which a 47-byte header line measurably paid for).
    #[inline]
    pub(crate) fn detect() -> Simd {
        use core::sync::atomic::{AtomicU8, Ordering};
        /// Bit 7: known; bits 0, 1, 2: `avx2`, `ssse3`, `avx512`.
        static KNOWN: AtomicU8 = AtomicU8::new(0);
        let bits = KNOWN.load(Ordering::Relaxed);
        if bits != 0 {
            return Simd {
                avx2: bits & 1 != 0,
                ssse3: bits & 2 != 0,
                avx512: bits & 4 != 0,
            };
        }
        let simd = Simd::ask();
        let bits =
            0x80 | u8::from(simd.avx2) | u8::from(simd.ssse3) << 1 | u8::from(simd.avx512) << 2;
        KNOWN.store(bits, Ordering::Relaxed);
        simd
    }

    /// What this CPU has, asked (see [`Simd::detect`]).
    #[cold]
    fn ask() -> Simd {
        #[cfg(feature = "std")]
        {
            Simd {
                avx2: std::is_x86_feature_detected!("avx2"),
                ssse3: std::is_x86_feature_detected!("ssse3")
                    && std::is_x86_feature_detected!("popcnt"),
                avx512: std::is_x86_feature_detected!("avx512f")
                    && std::is_x86_feature_detected!("avx512bw")
                    && std::is_x86_feature_detected!("avx512vbmi")
                    && std::is_x86_feature_detected!("avx512vbmi2")
                    && std::is_x86_feature_detected!("popcnt"),
            }
        }
        #[cfg(not(feature = "std"))]
        {
            Simd {
                avx2: cfg!(target_feature = "avx2"),
                ssse3: cfg!(all(target_feature = "ssse3", target_feature = "popcnt")),
                avx512: cfg!(all(
                    target_feature = "avx512f",
                    target_feature = "avx512bw",
                    target_feature = "avx512vbmi",
                    target_feature = "avx512vbmi2",
                    target_feature = "popcnt"
                )),
            }
        }
    }

    /// Copies an ASCII prefix of `src` into `dst` in 64-byte blocks and returns its length:
    /// the longest ASCII prefix, or less by at most 63 bytes (the block holding the first
    /// non-ASCII byte is not copied; at the end, the last 64 bytes are). `None` when the CPU lacks AVX2
    /// (nothing is written then). A block is checked before it is stored: no byte past the
    /// returned length is written.
    #[inline]
    pub(crate) fn copy_ascii_blocks(self, src: &[u8], dst: &mut [u8]) -> Option<usize> {
        if !self.avx2 {
            return None;
        }
        // SAFETY: `ascii_blocks_avx2` requires AVX2 and nothing else, and `self.avx2` is only
        // true when `detect` saw the CPU has it.
        Some(unsafe { ascii_blocks_avx2(src, dst) })
    }

    /// These kernels without the AVX-512 one.
    pub(crate) fn without_avx512(self) -> Simd {
        Simd {
            avx512: false,
            ..self
        }
    }

    /// The kernels this CPU allows, each level without the ones above it: the portable code,
    /// SSSE3, SSSE3 + AVX2, and everything (the tests run each against the reference).
    #[cfg(test)]
    pub(crate) fn levels() -> std::vec::Vec<Simd> {
        let all = Simd::detect();
        let mut levels = std::vec![Simd::NONE];
        for level in [
            Simd {
                ssse3: all.ssse3,
                ..Simd::NONE
            },
            Simd {
                avx512: false,
                ..all
            },
            all,
        ] {
            if !levels.contains(&level) {
                levels.push(level);
            }
        }
        levels
    }

    /// Copies text from the start of `src` (a char boundary of a `str`) into `dst`, the low
    /// byte of each UTF-16 unit (two for a char above U+FFFF), 64 bytes of `src` per step,
    /// until fewer than 65 bytes of `src` or 64 of `dst` are left; returns the bytes read and
    /// written, ending at a char boundary ((0, 0) when the CPU lacks AVX-512 VBMI2). Writes
    /// nothing past the returned count but the high surrogate's byte of a char it leaves to
    /// the caller, which the caller writes again.
    #[inline]
    pub(crate) fn utf8_blocks(self, src: &[u8], dst: &mut [u8]) -> (usize, usize) {
        if !self.avx512 {
            return (0, 0);
        }
        // SAFETY: `utf8_blocks_avx512` requires AVX-512 F, BW, VBMI, VBMI2 and POPCNT and
        // nothing else, and `self.avx512` is only true when `detect` saw the CPU has them.
        unsafe { utf8_blocks_avx512(src, dst) }
    }

    /// Copies ASCII and 2-byte chars (U+0080..U+07FF: Latin, Greek, Cyrillic, Hebrew, Arabic
    /// text) from the start of `src` (a char boundary of a `str`) into `dst`, one low byte
    /// per char, 16 bytes of `src` per step, until a window holds a 3- or 4-byte char or fewer
    /// than 40 bytes of `src` or 16 of `dst` are left; returns the bytes read and written
    /// ((0, 0) when the CPU lacks SSSE3 and POPCNT).
    ///
    /// Each step stores 16 bytes past the count so far, of which it counts one per char
    /// that ends in its window: up to 8 bytes past the returned count are written with
    /// meaningless values. At least 24 bytes of `src` follow, which make at least 8 UTF-16
    /// units: a caller that goes on to copy the rest of `src` into `dst` overwrites them (or
    /// `dst` ends after them and they are all below the final count).
    #[inline]
    pub(crate) fn two_byte_blocks(self, src: &[u8], dst: &mut [u8]) -> (usize, usize) {
        if !self.ssse3 {
            return (0, 0);
        }
        // SAFETY: `two_byte_blocks_ssse3` requires SSSE3 and POPCNT and nothing else, and
        // `self.ssse3` is only true when `detect` saw the CPU has both.
        unsafe { two_byte_blocks_ssse3(src, dst) }
    }

    /// Decodes the run of 4-byte chars (U+10000..U+10FFFF: emoji, historic scripts) at the
    /// start of `src` (a char boundary of a `str`) into `dst`, the low bytes of both
    /// surrogates of each, eight chars at a time, while 48 bytes of `src` and 16 of `dst` are
    /// left; returns the bytes read and written: (0, 0) when the CPU lacks SSSE3 or there is
    /// no room, else at least one char when `src` starts with a 4-byte char.
    ///
    /// Each step stores 16 bytes, also when the run ends inside its 32-byte block after
    /// `k < 8` chars: then up to `16 - 2k` bytes of `dst` past the returned count are written
    /// with meaningless values. At least `48 - 4k` bytes of `src` follow the run, and every 3
    /// bytes of UTF-8 make at least one UTF-16 unit, which is at least `16 - 2k` units for
    /// every `k >= 1`: a caller that goes on to copy the rest of `src` into `dst` overwrites
    /// every one of those bytes (or `dst` ends after them and they are all below the final
    /// count).
    #[inline]
    pub(crate) fn four_byte_blocks(self, src: &[u8], dst: &mut [u8]) -> (usize, usize) {
        if !self.ssse3 {
            return (0, 0);
        }
        // SAFETY: `four_byte_blocks_ssse3` requires SSSE3 and nothing else, and `self.ssse3`
        // is only true when `detect` saw the CPU has it (and POPCNT).
        unsafe { four_byte_blocks_ssse3(src, dst) }
    }

    /// Decodes the run of 3-byte chars at the start of `src` (a char boundary of a `str`) into
    /// `dst`, one low byte per char, sixteen at a time, and the runs after it that are
    /// separated by a single ASCII byte (as CJK text with spaces or digits is), while 48 bytes
    /// of `src` and 16 of `dst` are left; returns the bytes read and written: (0, 0) when the CPU lacks SSSE3 or
    /// there is no room, else at least one char when `src` starts with a 3-byte char.
    ///
    /// Each step stores 16 bytes, also when the run ends inside its 48-byte block after
    /// `k < 16` chars: then up to `16 - k` bytes of `dst` past the returned count are
    /// written with meaningless values. At least `3 * (16 - k)` bytes of `src` follow the run
    /// inside that block, and every 3 bytes of UTF-8 make at least one UTF-16 unit: a caller
    /// that goes on to copy the rest of `src` into `dst` overwrites every one of those bytes
    /// (or `dst` ends after them and they are all below the final count).
    #[inline]
    pub(crate) fn three_byte_blocks(self, src: &[u8], dst: &mut [u8]) -> (usize, usize) {
        if !self.ssse3 {
            return (0, 0);
        }
        // SAFETY: `three_byte_blocks_ssse3` requires SSSE3 and nothing else, and `self.ssse3`
        // is only true when `detect` saw the CPU has it.
        unsafe { three_byte_blocks_ssse3(src, dst) }
    }
}

/// See [`Simd::copy_ascii_blocks`]. 64-byte blocks from the start; when they reach the end,
/// the last 64 bytes (overlapping what is copied already) finish the copy without a scalar
/// tail. (Starting the blocks where `dst` is 64-byte aligned, so that no store crosses a cache
/// line, measured no faster.)
#[target_feature(enable = "avx2")]
fn ascii_blocks_avx2(src: &[u8], dst: &mut [u8]) -> usize {
    let n = src.len().min(dst.len());
    let (src, dst) = (&src[..n], &mut dst[..n]);
    let mut copied = 0;
    let (blocks, _) = src.as_chunks::<64>();
    let (out, _) = dst.as_chunks_mut::<64>();
    for (block, out) in blocks.iter().zip(out) {
        if !copy_ascii_block(block, out) {
            return copied;
        }
        copied += 64;
    }
    // Fewer than 64 bytes are left: the last 64 bytes, overlapping what is copied already.
    if let (Some(last), Some(out)) = (src.last_chunk::<64>(), dst.last_chunk_mut::<64>())
        && copy_ascii_block(last, out)
    {
        copied = n;
    }
    copied
}

/// Copies `block` into `out` if its bytes are all ASCII: two 32-byte loads, one test, and the
/// same two registers stored. Returns `false`, with nothing written, if a byte is not ASCII.
#[inline]
#[target_feature(enable = "avx2")]
fn copy_ascii_block(block: &[u8; 64], out: &mut [u8; 64]) -> bool {
    let from = block.as_ptr();
    // SAFETY: the two loads read bytes 0..32 and 32..64 of `block`, a `[u8; 64]`; they have
    // no alignment requirement.
    let (low, high) = unsafe {
        (
            _mm256_loadu_si256(from.cast()),
            _mm256_loadu_si256(from.add(32).cast()),
        )
    };
    // The high bit of every byte, gathered: zero if all 64 bytes are ASCII.
    if _mm256_movemask_epi8(_mm256_or_si256(low, high)) != 0 {
        return false;
    }
    let to = out.as_mut_ptr();
    // SAFETY: the two stores write bytes 0..32 and 32..64 of `out`, a `[u8; 64]` borrowed
    // mutably; they have no alignment requirement.
    unsafe {
        _mm256_storeu_si256(to.cast(), low);
        _mm256_storeu_si256(to.add(32).cast(), high);
    }
    true
}

/// One 16-byte load of a block of sixteen 3-byte sequences, with its constants.
struct Load {
    /// The offset of the 16 loaded bytes in the 48-byte block.
    at: usize,
    /// The `pshufb` indices that gather the lead, the first and the second continuation bytes
    /// of its four sequences into the four bytes of the result that belong to this load.
    lead: [i8; 16],
    c1: [i8; 16],
    c2: [i8; 16],
}

impl Load {
    /// The load at offset `at` of the block, whose four sequences start at byte `first` of
    /// the register, and go to bytes `4 * slot..4 * slot + 4` of the result.
    const fn new(at: usize, first: i8, slot: usize) -> Load {
        Load {
            at,
            lead: gather(first, 0, slot),
            c1: gather(first, 1, slot),
            c2: gather(first, 2, slot),
        }
    }
}

/// The four loads of a 48-byte block: sequences 0-3, 4-7, 8-11 and 12-15. The last one is
/// loaded from offset 32 so that it stays inside the block (its sequences start at byte 4).
const LOADS: [Load; 4] = [
    Load::new(0, 0, 0),
    Load::new(12, 0, 1),
    Load::new(24, 0, 2),
    Load::new(32, 4, 3),
];

/// The `pshufb` indices that put the bytes at `first + 3j + offset` (j = 0..3) of a register
/// into bytes `4 * slot + j` of the result, zeroing every other byte (index 0x80).
const fn gather(first: i8, offset: i8, slot: usize) -> [i8; 16] {
    let mut indices = [-128i8; 16]; // 0x80: a zero byte
    let mut j = 0;
    while j < 4 {
        indices[4 * slot + j] = first + 3 * j as i8 + offset;
        j += 1;
    }
    indices
}

/// Sixteen bytes as a vector (the `_mm_setr_epi8` order: byte 0 first).
#[inline]
#[target_feature(enable = "ssse3")]
fn vector(bytes: [i8; 16]) -> __m128i {
    let [
        b0,
        b1,
        b2,
        b3,
        b4,
        b5,
        b6,
        b7,
        b8,
        b9,
        b10,
        b11,
        b12,
        b13,
        b14,
        b15,
    ] = bytes;
    _mm_setr_epi8(
        b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11, b12, b13, b14, b15,
    )
}

/// See [`Simd::three_byte_blocks`]. A 3-byte sequence `l c1 c2` (U+0800..U+FFFF) has the low
/// byte `(c1 & 0x03) << 6 | (c2 & 0x3F)`: for each of the four loads of a 48-byte block, the
/// first continuation bytes of its four sequences are gathered into one register and the
/// second ones into another, each into its own four bytes, and the sixteen low bytes are then
/// computed together and stored, whatever the block holds. Where a sequence is found that is
/// not a 3-byte one, only the chars before it count; the bytes stored for the others are
/// overwritten by the caller's next output (see [`Simd::three_byte_blocks`]).
#[target_feature(enable = "ssse3")]
fn three_byte_blocks_ssse3(src: &[u8], dst: &mut [u8]) -> (usize, usize) {
    let mut read = 0;
    let mut written = 0;
    while let (Some(block), Some(out)) = (
        src.get(read..).and_then(<[u8]>::first_chunk::<48>),
        dst.get_mut(written..)
            .and_then(<[u8]>::first_chunk_mut::<16>),
    ) {
        let mut leads = _mm_set1_epi8(0);
        let mut c1 = _mm_set1_epi8(0);
        let mut c2 = _mm_set1_epi8(0);
        for load in &LOADS {
            // SAFETY: `load.at + 16 <= 48`: the 16 bytes read lie inside `block`, a
            // `[u8; 48]`; the load has no alignment requirement.
            let v = unsafe { _mm_loadu_si128(block.as_ptr().add(load.at).cast()) };
            leads = _mm_or_si128(leads, _mm_shuffle_epi8(v, vector(load.lead)));
            c1 = _mm_or_si128(c1, _mm_shuffle_epi8(v, vector(load.c1)));
            c2 = _mm_or_si128(c2, _mm_shuffle_epi8(v, vector(load.c2)));
        }
        // Bit j: byte 3j is a 3-byte lead (`1110xxxx`). `src` is UTF-8, so a lead's
        // continuation bytes follow it: the first `chars` sequences are 3-byte chars (the ones
        // after a sequence that is not may only seem to be: they are out of step).
        let is_lead = _mm_cmpeq_epi8(
            _mm_and_si128(leads, _mm_set1_epi8(0xF0u8 as i8)),
            _mm_set1_epi8(0xE0u8 as i8),
        );
        let chars = (!_mm_movemask_epi8(is_lead)).trailing_zeros().min(16) as usize;
        if chars == 0 {
            break;
        }
        // (c1 & 0x03) << 6 within each byte: the 16-bit shift moves bits 1..0 of each byte to
        // bits 7..6 of the same byte, never into its neighbour.
        let high = _mm_slli_epi16(_mm_and_si128(c1, _mm_set1_epi8(0x03)), 6);
        let low = _mm_and_si128(c2, _mm_set1_epi8(0x3F));
        // SAFETY: `out` is a `[u8; 16]`: the 16 bytes written lie inside it; the store has no
        // alignment requirement.
        unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), _mm_or_si128(high, low)) };
        read += 3 * chars;
        written += chars;
        if chars < 16 {
            // One ASCII byte (a space, a digit) between two runs: copy it over the first of
            // the bytes just left past the count, and go on with the next run. The bytes left
            // past the count are then one fewer, and so are the ones of `src` that follow.
            match (src.get(read), src.get(read + 1), dst.get_mut(written)) {
                (Some(&ascii), Some(&next), Some(d)) if ascii < 0x80 && next & 0xF0 == 0xE0 => {
                    *d = ascii;
                    read += 1;
                    written += 1;
                }
                _ => break,
            }
        }
    }
    (read, written)
}

/// The `pshufb` indices of [`four_byte_blocks_ssse3`] for one 16-byte load of four 4-byte
/// sequences `b0 b1 b2 b3` going to output bytes `8 * half..8 * half + 8` (two per char):
/// the leads (into bytes `4 * half + j`), then the bytes that make each output byte: for
/// the high surrogate's byte, `b1` and `b2`; for the low surrogate's, `b2` and `b3`.
struct FourByteLoad {
    leads: [i8; 16],
    first: [i8; 16],
    second: [i8; 16],
}

impl FourByteLoad {
    const fn new(half: usize) -> FourByteLoad {
        let mut load = FourByteLoad {
            leads: [-128; 16],
            first: [-128; 16],
            second: [-128; 16],
        };
        let mut j = 0;
        while j < 4 {
            let at = 4 * j as i8;
            load.leads[4 * half + j] = at;
            load.first[8 * half + 2 * j] = at + 1;
            load.second[8 * half + 2 * j] = at + 2;
            load.first[8 * half + 2 * j + 1] = at + 2;
            load.second[8 * half + 2 * j + 1] = at + 3;
            j += 1;
        }
        load
    }
}

/// The two loads of a 32-byte block of eight 4-byte sequences.
const FOUR_BYTE_LOADS: [FourByteLoad; 2] = [FourByteLoad::new(0), FourByteLoad::new(1)];

/// See [`Simd::four_byte_blocks`]. A 4-byte sequence `b0 b1 b2 b3` (U+10000..U+10FFFF) is
/// a surrogate pair in UTF-16; the high surrogate's low byte is
/// `((b1 & 0x3F) << 2 | (b2 >> 4) & 0x03) - 0x40` and the low surrogate's
/// `(b2 & 0x03) << 6 | (b3 & 0x3F)` (see `crate::fast`). The two bytes each output byte
/// needs are gathered into two registers, both formulas are computed for every byte, and the
/// even (high surrogate) and odd (low surrogate) bytes are taken from the one that applies.
#[target_feature(enable = "ssse3")]
fn four_byte_blocks_ssse3(src: &[u8], dst: &mut [u8]) -> (usize, usize) {
    let mut read = 0;
    let mut written = 0;
    // 16 bytes of `src` after the block: see `Simd::four_byte_blocks`.
    while let (Some(block), true, Some(out)) = (
        src.get(read..).and_then(<[u8]>::first_chunk::<32>),
        src.len() - read >= 32 + 16,
        dst.get_mut(written..)
            .and_then(<[u8]>::first_chunk_mut::<16>),
    ) {
        let mut leads = _mm_set1_epi8(0);
        let mut first = _mm_set1_epi8(0);
        let mut second = _mm_set1_epi8(0);
        for (half, load) in FOUR_BYTE_LOADS.iter().enumerate() {
            // SAFETY: the 16 bytes read are bytes `16 * half..16 * half + 16` of `block`, a
            // `[u8; 32]`; the load has no alignment requirement.
            let v = unsafe { _mm_loadu_si128(block.as_ptr().add(16 * half).cast()) };
            leads = _mm_or_si128(leads, _mm_shuffle_epi8(v, vector(load.leads)));
            first = _mm_or_si128(first, _mm_shuffle_epi8(v, vector(load.first)));
            second = _mm_or_si128(second, _mm_shuffle_epi8(v, vector(load.second)));
        }
        // Bit j (of 8): byte 4j is a 4-byte lead (`11110xxx`; `src` is UTF-8, so its
        // continuation bytes follow). The first `chars` sequences are 4-byte chars.
        let f0 = _mm_set1_epi8(0xF0u8 as i8);
        let is_lead = _mm_cmpeq_epi8(_mm_and_si128(leads, f0), f0);
        let chars = (!_mm_movemask_epi8(is_lead)).trailing_zeros().min(8) as usize;
        if chars == 0 {
            break;
        }
        // The 16-bit shifts move no set bit across a byte boundary once masked.
        let high_surrogate = _mm_sub_epi8(
            _mm_or_si128(
                _mm_slli_epi16(_mm_and_si128(first, _mm_set1_epi8(0x3F)), 2),
                _mm_and_si128(_mm_srli_epi16(second, 4), _mm_set1_epi8(0x03)),
            ),
            _mm_set1_epi8(0x40),
        );
        let low_surrogate = _mm_or_si128(
            _mm_slli_epi16(_mm_and_si128(first, _mm_set1_epi8(0x03)), 6),
            _mm_and_si128(second, _mm_set1_epi8(0x3F)),
        );
        let even = _mm_set1_epi16(0x00FF);
        let bytes = _mm_or_si128(
            _mm_and_si128(even, high_surrogate),
            _mm_andnot_si128(even, low_surrogate),
        );
        // SAFETY: `out` is a `[u8; 16]`: the 16 bytes written lie inside it; the store has no
        // alignment requirement.
        unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), bytes) };
        read += 4 * chars;
        written += 2 * chars;
        if chars < 8 {
            break;
        }
    }
    (read, written)
}

/// For [`utf8_blocks_avx512`]: the `vpermt2b` indices that give every byte of a window the
/// byte before it, the first one the last byte of the window before.
const BYTE_BEFORE: [i8; 64] = {
    let mut indices = [0i8; 64];
    indices[0] = 64 + 63; // the second source (the window before), byte 63
    let mut k = 1;
    while k < 64 {
        indices[k] = k as i8 - 1;
        k += 1;
    }
    indices
};

/// See [`Simd::utf8_blocks`]. The low byte of the UTF-16 unit of a 1-, 2- or 3-byte char is
/// its last byte if that is ASCII, else `(before_last & 0x03) << 6 | (last & 0x3F)`; a 4-byte
/// char ends the same way for its low surrogate, and its third byte gives the high
/// surrogate's. Both are computed at every byte; the bytes that end a char (the ones not
/// followed by a continuation byte) and the third bytes of 4-byte chars are kept by
/// `vpcompressb` and stored with a masked store.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt")]
fn utf8_blocks_avx512(src: &[u8], dst: &mut [u8]) -> (usize, usize) {
    let mut read = 0;
    let mut written = 0;
    // SAFETY: `BYTE_BEFORE` is 64 bytes; the load has no alignment requirement.
    let byte_before = unsafe { _mm512_loadu_si512(BYTE_BEFORE.as_ptr().cast()) };
    // The window before: zero at first (`src` starts at a char boundary, so the first byte
    // needs no byte before it).
    let mut before_window = _mm512_setzero_si512();
    // The third bytes of 4-byte chars whose lead is in the last two bytes of the window
    // before, at bits 0 and 1.
    let mut third_carried = 0u64;
    // 64 bytes and the one after them (is it a continuation byte?).
    while let (Some(window), Some(&after), Some(out)) = (
        src.get(read..).and_then(<[u8]>::first_chunk::<64>),
        src.get(read + 64),
        dst.get_mut(written..)
            .and_then(<[u8]>::first_chunk_mut::<64>),
    ) {
        // SAFETY: the 64 bytes read are `window`, a `[u8; 64]`; no alignment requirement.
        let v = unsafe { _mm512_loadu_si512(window.as_ptr().cast()) };
        // Continuation bytes 80..BF are the bytes below C0 as signed values.
        let continuation = _mm512_cmplt_epi8_mask(v, _mm512_set1_epi8(0xC0u8 as i8));
        let after_continues = u64::from((after as i8) < (0xC0u8 as i8));
        let ends = !((continuation >> 1) | (after_continues << 63));
        // A 4-byte char (lead F0..F4) is a surrogate pair: its third byte gives the high
        // surrogate's low byte, its last byte the low one's.
        let four_byte_leads = _mm512_cmpge_epu8_mask(v, _mm512_set1_epi8(0xF0u8 as i8));
        let thirds = (four_byte_leads << 2) | third_carried;
        third_carried = four_byte_leads >> 62;
        let before = _mm512_permutex2var_epi8(v, byte_before, before_window);
        // (before & 0x03) << 6 | (byte & 0x3F): the 16-bit shift keeps bits 1..0 of each
        // byte within the same byte.
        let decoded = _mm512_or_si512(
            _mm512_slli_epi16(_mm512_and_si512(before, _mm512_set1_epi8(0x03)), 6),
            _mm512_and_si512(v, _mm512_set1_epi8(0x3F)),
        );
        // ((before & 0x3F) << 2 | (byte >> 4) & 0x03) - 0x40 at the third bytes (see
        // `crate::fast::high_surrogate_low_byte`); the shifts keep every bit within its byte
        // once masked.
        let high_surrogate = _mm512_sub_epi8(
            _mm512_or_si512(
                _mm512_slli_epi16(_mm512_and_si512(before, _mm512_set1_epi8(0x3F)), 2),
                _mm512_and_si512(_mm512_srli_epi16(v, 4), _mm512_set1_epi8(0x03)),
            ),
            _mm512_set1_epi8(0x40),
        );
        let values = _mm512_mask_blend_epi8(
            thirds,
            _mm512_mask_blend_epi8(continuation, v, decoded),
            high_surrogate,
        );
        let keep = ends | thirds;
        let chars = keep.count_ones() as usize;
        let kept = _mm512_maskz_compress_epi8(keep, values);
        let store = if chars == 64 {
            u64::MAX
        } else {
            (1u64 << chars) - 1
        };
        // SAFETY: `out` is a `[u8; 64]`; the masked store writes its first `chars` bytes and
        // touches no other; no alignment requirement.
        unsafe { _mm512_mask_storeu_epi8(out.as_mut_ptr().cast(), store, kept) };
        read += 64;
        written += chars;
        before_window = v;
    }
    // A char cut by the end of the last window is the caller's, from its lead on (at most
    // three bytes back). Its last unit was not counted; the high surrogate of a 4-byte char
    // whose third byte was in the window was, and is taken back.
    let end = read;
    while read > 0 && src.get(read).is_some_and(|&b| (b as i8) < (0xC0u8 as i8)) {
        read -= 1;
    }
    if read + 2 < end && src.get(read).is_some_and(|&b| b >= 0xF0) {
        written -= 1;
    }
    (read, written)
}

/// For each set of lead bytes among eight (bit `i`: byte `i` is a lead), the `pshufb`
/// indices of the other bytes in order, then 0x80 (a zero byte): the bytes kept when the
/// leads are squeezed out.
const KEEP: [[u8; 8]; 256] = {
    let mut table = [[0x80u8; 8]; 256];
    let mut leads = 0;
    while leads < 256 {
        let mut kept = 0;
        let mut byte = 0;
        while byte < 8 {
            if leads & (1 << byte) == 0 {
                table[leads][kept] = byte as u8;
                kept += 1;
            }
            byte += 1;
        }
        leads += 1;
    }
    table
};

/// See [`Simd::two_byte_blocks`]. Per 16-byte window: every continuation byte gets the low
/// byte of its char, `(lead & 0x03) << 6 | (continuation & 0x3F)`, from the byte before it;
/// ASCII bytes stay; then each half of the window is squeezed by a `pshufb` from [`KEEP`]
/// (the lead bytes removed) and stored as 8 bytes, the second half right after the first
/// half's output. A char cut by the end of a window is finished by the next one.
#[target_feature(enable = "ssse3,popcnt")]
fn two_byte_blocks_ssse3(src: &[u8], dst: &mut [u8]) -> (usize, usize) {
    let mut read = 0;
    let mut written = 0;
    // The window before (zero at first: `src` starts at a char boundary), and whether its last
    // byte is a lead, whose char then ends in the next window.
    let mut before_window = _mm_set1_epi8(0);
    let mut ends_on_lead = false;
    // 24 bytes of `src` after the window: see `Simd::two_byte_blocks`.
    while let (Some(window), true, Some(out)) = (
        src.get(read..).and_then(<[u8]>::first_chunk::<16>),
        src.len() - read >= 16 + 24,
        dst.get_mut(written..)
            .and_then(<[u8]>::first_chunk_mut::<16>),
    ) {
        // SAFETY: the 16 bytes read are `window`, a `[u8; 16]`; the load has no alignment
        // requirement.
        let v = unsafe { _mm_loadu_si128(window.as_ptr().cast()) };
        // Bytes E0..FF start 3- and 4-byte chars: not for this kernel.
        let long = _mm_cmpeq_epi8(_mm_max_epu8(v, _mm_set1_epi8(0xE0u8 as i8)), v);
        if _mm_movemask_epi8(long) != 0 {
            break;
        }
        let is_lead = _mm_cmpeq_epi8(
            _mm_and_si128(v, _mm_set1_epi8(0xE0u8 as i8)),
            _mm_set1_epi8(0xC0u8 as i8),
        );
        let leads = _mm_movemask_epi8(is_lead) as u32;
        let is_continuation = _mm_cmpeq_epi8(
            _mm_and_si128(v, _mm_set1_epi8(0xC0u8 as i8)),
            _mm_set1_epi8(0x80u8 as i8),
        );
        // (lead & 0x03) << 6 | (continuation & 0x3F) at every byte, from the byte before it:
        // the 16-bit shift keeps bits 1..0 of each byte within the same byte.
        // Every byte's predecessor, the first one's from the window before: a char cut by the
        // end of that window is finished here (its lead was squeezed out there). The next
        // window's start does not wait for this one's bytes: the loop runs 16 bytes per step.
        let before = _mm_alignr_epi8::<15>(v, before_window);
        let decoded = _mm_or_si128(
            _mm_slli_epi16(_mm_and_si128(before, _mm_set1_epi8(0x03)), 6),
            _mm_and_si128(v, _mm_set1_epi8(0x3F)),
        );
        let values = _mm_or_si128(
            _mm_and_si128(is_continuation, decoded),
            _mm_andnot_si128(is_continuation, v),
        );
        let low_leads = (leads & 0xFF) as usize;
        let high_leads = (leads >> 8) as usize;
        let keep_low = _mm_set_epi64x(0, i64::from_le_bytes(KEEP[low_leads]));
        let keep_high = _mm_add_epi8(
            _mm_set_epi64x(0, i64::from_le_bytes(KEEP[high_leads])),
            _mm_set1_epi8(8),
        );
        let low = _mm_cvtsi128_si64(_mm_shuffle_epi8(values, keep_low)).to_le_bytes();
        let high = _mm_cvtsi128_si64(_mm_shuffle_epi8(values, keep_high)).to_le_bytes();
        let low_len = 8 - low_leads.count_ones() as usize;
        let high_len = 8 - high_leads.count_ones() as usize;
        out[..8].copy_from_slice(&low);
        out[low_len..low_len + 8].copy_from_slice(&high);
        read += 16;
        written += low_len + high_len;
        before_window = v;
        ends_on_lead = leads & 0x8000 != 0;
    }
    if ends_on_lead {
        // The last window's last char is not done: it is the caller's, from its lead on.
        read -= 1;
    }
    (read, written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_gather_indices_pick_the_continuation_bytes() {
        assert_eq!(
            gather(4, 2, 3),
            [
                -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, 6, 9, 12,
                15
            ]
        );
        assert_eq!(
            gather(0, 0, 0),
            [
                0, 3, 6, 9, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128
            ]
        );
    }
}
