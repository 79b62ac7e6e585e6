//! The SIMD kernels, behind [`Kernels`]: the one type, on every target, that says which of
//! them this CPU runs. Each kernel has one safe method; where the CPU (or the target) lacks
//! the kernel's instructions the method does nothing and returns `None`, and the caller does
//! the same job with its portable code. The `#[target_feature]` functions live in
//! `x86_64/<job>.rs`, named `<job>_<isa>`; this module is the only place that calls them.
//!
//! # The kernels
//!
//! Each kernel gives the same answer as the portable code beside its caller, which the tests
//! and the `charset` sweep compare it with at every level the CPU has.
//!
//! - [`Kernels::latin1_window`] (SSSE3 and POPCNT: `x86_64/latin1_window.rs`), for
//!   `crate::latin1`'s run of windows, oracle `crate::latin1::latin1_window`.
//!   - Reads all of `window`: [`BLOCK`] bytes of valid UTF-8 from a char boundary and the
//!     byte after them ([`WINDOW`] bytes: the continuation byte of a char that starts on the
//!     last byte of the block).
//!   - Writes into `dst`, from `dst[0]` on, the byte of each char that starts in
//!     `window[..BLOCK]`: the char itself for ASCII, `(lead & 0x03) << 6 | (next & 0x3F)`
//!     for U+00A0..=U+00FF. It may write anything anywhere else in `dst` (a `BLOCK`-byte
//!     array always has room for every char of the block), and nothing outside it.
//!   - Returns `Some(Some(n))` when every one of those chars is ASCII or in
//!     U+00A0..=U+00FF: `dst[..n]` holds their `n` bytes. `Some(None)` when one is not (a
//!     byte 0xC4 or above, or a char in U+0080..=U+009F): `dst` holds garbage.
//!   - Nothing done: `None`, `dst` untouched.
//! - [`Kernels::table_window`] (SSSE3 and POPCNT, or AVX-512 F, BW, VBMI, VBMI2 and POPCNT:
//!   `x86_64/table_window.rs`), for `crate::single_byte`'s run of windows (every single-byte
//!   table; with SSSE3 alone, the tables not near Latin-1, whose windows the Latin-1 kernel
//!   takes faster); oracle: the table itself (`Table::get` per char).
//!   - Reads all of `window` (as [`Kernels::latin1_window`]) and of `pairs` the entries of
//!     its two-byte chars (AVX-512: 512 bytes around them).
//!   - Writes into `dst`, from `dst[0]` on, the table's byte of each char that starts in
//!     `window[..BLOCK]` (ASCII: the char itself, or with `ascii` its byte there, every ASCII
//!     char mapping; with `question_marks`, `?` for an unmappable char), and may write
//!     anything anywhere else in `dst`, nothing outside it. With `ascii`, only the AVX-512
//!     kernel runs (`None` otherwise).
//!   - Returns `Some(Some(n))` with the `n` bytes in `dst[..n]`, or `Some(None)` for a window
//!     it does not take: one with a char longer than two bytes, an unmappable one (without
//!     `question_marks`), or (AVX-512 only) two-byte chars whose lead bytes are not all in
//!     one block of eight from 0xC2 (0xC2..=0xC9, 0xCA..=0xD1, ...). It must take every
//!     other window.
//!   - Nothing done: `None`.
//! - [`Kernels::three_byte_utf16_bytes`] (SSSE3, and AVX2 for sixteen chars per step:
//!   `x86_64/three_byte_utf16.rs`), for `crate::unicode`'s UTF-8 to UTF-16 decoder, and
//!   through [`Kernels::three_byte_utf16`] (the same, into `u16`s) for `crate::multi_byte`'s
//!   runs of CJK chars (decoded, then looked up in the encode table), oracle
//!   `str::encode_utf16`.
//!   - Reads `src` from its start (a char boundary of valid UTF-8) 16 bytes at a time while
//!     their first 12 are four 3-byte chars, and so never reads past `src`.
//!   - Writes the UTF-16 unit of each of those chars to `dst` from its start on, two bytes
//!     each in the byte order asked for, four, eight or sixteen units at a time while `dst`
//!     has room for them, and nothing else.
//!   - Returns `Some((read, written))`: the bytes of `src` taken (a multiple of 12, a char
//!     boundary) and the units written (a third of that); `(0, 0)` when `src` does not start
//!     with four 3-byte chars or `dst` has room for fewer than four units.
//!   - Nothing done: `None`.
//! - [`Kernels::byte_map`] (SSSE3, or AVX-512 F, BW and VBMI: `x86_64/byte_map.rs`), for
//!   `crate::byte_map`'s runs of ASCII in a charset where ASCII is not its own byte
//!   (EBCDIC), oracle: the lookup `table[src[k]]`.
//!   - Reads `src` 64 bytes at a time while a block is all ASCII and `dst` has room for it,
//!     and all of `table` (128 bytes).
//!   - Writes `dst[k] = table[src[k]]` for every byte of those blocks, and nothing else.
//!   - Returns `Some(n)`: the bytes translated (a multiple of 64); nothing done: `None`,
//!     `dst` untouched.
//! - [`Kernels::is_ascii`] (AVX2: `x86_64/is_ascii.rs`), for
//!   `crate::ascii_prefix::ascii_valid_up_to`, oracle `<[u8]>::is_ascii`.
//!   - Reads all of `bytes`, writes nothing.
//!   - Returns `Some(true)` when every byte is below 0x80, else `Some(false)`.
//!   - Nothing done: `None`.
//!
//! # Levels
//!
//! The sets of kernels the tests, sweeps and benches run by name ([`Kernels::levels`]):
//! "portable" (none), "ssse3" (the Latin-1, table window and 3-byte-run kernels), "avx2"
//! (those, the 3-byte-run kernel sixteen chars per step, and the all-ASCII check), "avx512"
//! (all: the AVX-512 table window takes every single-byte table's windows, the Latin-1
//! ones too).
//!
//! # Why `unsafe`
//!
//! Measured with criterion on an AMD EPYC (`charset/encode`, windows-1252, 4096 chars): with
//! the SSSE3 kernel, accent-dense Latin-1 text encodes in 1.6-1.7 µs against encoding_rs's
//! 9.5-10.9 µs; with the standard library's `is_ascii` (16-byte vectors) in place of the
//! AVX2 check, an all-ASCII body took 1.54-1.66x a plain `to_vec`.

use std::sync::atomic::{AtomicU8, Ordering};

#[cfg(wirebytes_x86_kernels)]
mod x86_64;

use crate::latin1::WINDOW;
use crate::single_byte::{BLOCK, PAIRS};

/// The SIMD kernels this CPU can run. Only [`detect`](Self::detect) reads the CPU; every
/// other value is a subset of what it found (the levels), so a set bit proves the CPU has the
/// instructions and the methods below are safe to call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Kernels(u8);

/// What [`Kernels::detect`] found, with [`KNOWN`] set once it asked.
static DETECTED: AtomicU8 = AtomicU8::new(0);

/// The bit of [`DETECTED`] that says the CPU was asked.
const KNOWN: u8 = 1 << 7;

impl Kernels {
    /// No kernel: the portable code.
    pub(crate) const NONE: Kernels = Kernels(0);
    /// The Latin-1 and table window kernels (SSSE3 and POPCNT) and the 3-byte-run kernel
    /// (SSSE3).
    const SSSE3: u8 = 1 << 0;
    /// The all-ASCII check and the 3-byte-run kernel's 16-char steps: AVX2.
    const AVX2: u8 = 1 << 1;
    /// The AVX-512 single-byte table window kernel: AVX-512 F, BW, VBMI, VBMI2 and POPCNT.
    const AVX512: u8 = 1 << 2;
    /// The levels, each with every kernel of the ones before it, by name.
    const LEVELS: [(&'static str, u8); 4] = [
        ("portable", 0),
        ("ssse3", Self::SSSE3),
        ("avx2", Self::SSSE3 | Self::AVX2),
        ("avx512", Self::SSSE3 | Self::AVX2 | Self::AVX512),
    ];

    /// What this CPU has. Asked once ([`ask`](Self::ask)), then kept in one `AtomicU8`: every
    /// later call costs one relaxed load. The public functions that call it are `#[inline]`,
    /// so the load and the cold call land in the caller's frame rather than in a frame of
    /// their own.
    #[inline]
    pub(crate) fn detect() -> Kernels {
        let bits = DETECTED.load(Ordering::Relaxed);
        if bits & KNOWN != 0 {
            return Kernels(bits & !KNOWN);
        }
        Self::ask()
    }

    /// Asks the CPU (on x86-64, `std::is_x86_feature_detected!`; elsewhere there is no kernel)
    /// and keeps the answer for [`detect`](Self::detect). Threads that race here store the
    /// same value.
    #[cold]
    #[inline(never)]
    fn ask() -> Kernels {
        #[cfg(wirebytes_x86_kernels)]
        let bits = {
            let ssse3 =
                std::is_x86_feature_detected!("ssse3") && std::is_x86_feature_detected!("popcnt");
            let avx2 = std::is_x86_feature_detected!("avx2");
            // A compiler without the AVX-512 intrinsics built no AVX-512 kernel.
            #[cfg(wirebytes_avx512)]
            let avx512 = std::is_x86_feature_detected!("avx512f")
                && std::is_x86_feature_detected!("avx512bw")
                && std::is_x86_feature_detected!("avx512vbmi")
                && std::is_x86_feature_detected!("avx512vbmi2")
                && std::is_x86_feature_detected!("popcnt");
            #[cfg(not(wirebytes_avx512))]
            let avx512 = false;
            (if ssse3 { Self::SSSE3 } else { 0 })
                | (if avx2 { Self::AVX2 } else { 0 })
                | (if avx512 { Self::AVX512 } else { 0 })
        };
        #[cfg(not(wirebytes_x86_kernels))]
        let bits = 0;
        DETECTED.store(bits | KNOWN, Ordering::Relaxed);
        Kernels(bits)
    }

    /// The levels this CPU has, by name: "portable" first, then each one
    /// [`detect`](Self::detect) covers.
    pub(crate) fn levels() -> impl Iterator<Item = (&'static str, Kernels)> {
        let detected = Self::detect().0;
        Self::LEVELS
            .into_iter()
            .filter(move |&(_, bits)| bits & !detected == 0)
            .map(|(name, bits)| (name, Kernels(bits)))
    }

    /// The Latin-1 window kernel (see the [module docs](self)): `None` without SSSE3 and
    /// POPCNT, else `Some` of the kernel's answer.
    #[inline]
    pub(crate) fn latin1_window(
        self,
        window: &[u8; WINDOW],
        dst: &mut [u8; BLOCK],
    ) -> Option<Option<usize>> {
        #[cfg(wirebytes_x86_kernels)]
        if self.0 & Self::SSSE3 != 0 {
            // SAFETY: `latin1_window_ssse3` requires SSSE3 and POPCNT and nothing else; the bit
            // is set only when `detect` saw the CPU has both.
            return Some(unsafe { x86_64::latin1_window_ssse3(window, dst) });
        }
        let _ = (window, dst);
        None
    }

    /// The 3-byte-run kernel (see the [module docs](self)) writing `u16` units: `None`
    /// without SSSE3, else the bytes of `src` read and the units written to `dst`.
    #[inline]
    pub(crate) fn three_byte_utf16(self, src: &[u8], dst: &mut [u16]) -> Option<(usize, usize)> {
        #[cfg(wirebytes_x86_kernels)]
        if self.0 & Self::SSSE3 != 0 {
            let len = 2 * dst.len();
            // SAFETY: the bytes of `dst`, borrowed mutably for the call: `2 * dst.len()` of
            // them from its start, and a `u8` needs no alignment. Any two bytes are a valid
            // `u16`, and x86-64 is little-endian, so units written little-endian are the
            // `u16` values.
            let bytes = unsafe { std::slice::from_raw_parts_mut(dst.as_mut_ptr().cast(), len) };
            return self.three_byte_utf16_bytes(src, bytes, false);
        }
        let _ = (src, dst);
        None
    }

    /// The 3-byte-run kernel (see the [module docs](self)) writing each unit's two bytes,
    /// big-endian when `big_endian`, else little-endian: `None` without SSSE3, else the bytes
    /// of `src` read and the units written to `dst` (two bytes each). With AVX2, sixteen chars
    /// per step.
    #[inline]
    pub(crate) fn three_byte_utf16_bytes(
        self,
        src: &[u8],
        dst: &mut [u8],
        big_endian: bool,
    ) -> Option<(usize, usize)> {
        #[cfg(wirebytes_x86_kernels)]
        {
            if self.0 & Self::AVX2 != 0 {
                // SAFETY: `three_byte_utf16_avx2` requires AVX2 (which has SSSE3) and nothing
                // else; the bit is set only when `detect` saw the CPU has it.
                return Some(unsafe {
                    if big_endian {
                        x86_64::three_byte_utf16_avx2::<true>(src, dst)
                    } else {
                        x86_64::three_byte_utf16_avx2::<false>(src, dst)
                    }
                });
            }
            if self.0 & Self::SSSE3 != 0 {
                // SAFETY: `three_byte_utf16_ssse3` requires SSSE3 and nothing else; the bit is
                // set only when `detect` saw the CPU has it.
                return Some(unsafe {
                    if big_endian {
                        x86_64::three_byte_utf16_ssse3::<true>(src, dst)
                    } else {
                        x86_64::three_byte_utf16_ssse3::<false>(src, dst)
                    }
                });
            }
        }
        let _ = (src, dst, big_endian);
        None
    }

    /// The single-byte table window kernel (see the [module docs](self)): `None` without
    /// SSSE3 and POPCNT, else `Some` of the kernel's answer: the AVX-512 kernel's where the
    /// set has it, else the SSSE3 one's.
    #[inline]
    pub(crate) fn table_window(
        self,
        window: &[u8; WINDOW],
        pairs: &[u8; PAIRS],
        ascii: Option<&[u8; 128]>,
        question_marks: bool,
        dst: &mut [u8; BLOCK],
    ) -> Option<Option<usize>> {
        #[cfg(wirebytes_avx512)]
        if self.0 & Self::AVX512 != 0 {
            // SAFETY: `table_window_avx512` requires AVX-512 F, BW, VBMI and VBMI2 and POPCNT,
            // and nothing else; the bit is set only when `detect` saw the CPU has them all.
            return Some(unsafe {
                x86_64::table_window_avx512(window, pairs, ascii, question_marks, dst)
            });
        }
        // The SSSE3 kernel writes ASCII as itself.
        if ascii.is_some() {
            return None;
        }
        #[cfg(wirebytes_x86_kernels)]
        if self.0 & Self::SSSE3 != 0 {
            // SAFETY: `table_window_ssse3` requires SSSE3 and POPCNT and nothing else; the bit
            // is set only when `detect` saw the CPU has both.
            return Some(unsafe { x86_64::table_window_ssse3(window, pairs, question_marks, dst) });
        }
        let _ = (window, pairs, question_marks, dst);
        None
    }

    /// The bytes of ASCII chars through a 128-byte lookup, `dst[k] = table[src[k]]`, 64 at a
    /// time, as long as a block of 64 is all ASCII and both slices have 64 more: with AVX-512
    /// VBMI (one `vpermi2b` a block) or SSSE3 (`pshufb` nibble lookups) where the set has
    /// them; `None`, writing nothing, otherwise.
    #[inline]
    pub(crate) fn byte_map(self, src: &[u8], table: &[u8; 128], dst: &mut [u8]) -> Option<usize> {
        #[cfg(wirebytes_avx512)]
        if self.0 & Self::AVX512 != 0 {
            // SAFETY: `byte_map_avx512` requires AVX-512 F, BW and VBMI and nothing else; the
            // bit is set only when `detect` saw the CPU has them (and VBMI2 and POPCNT).
            return Some(unsafe { x86_64::byte_map_avx512(src, table, dst) });
        }
        #[cfg(wirebytes_x86_kernels)]
        if self.0 & Self::SSSE3 != 0 {
            // SAFETY: `byte_map_ssse3` requires SSSE3 and nothing else; the bit is set only
            // when `detect` saw the CPU has it (and POPCNT).
            return Some(unsafe { x86_64::byte_map_ssse3(src, table, dst) });
        }
        let _ = (src, table, dst);
        None
    }

    /// Whether the single-byte table window kernel is in this set (SSSE3 and POPCNT).
    #[inline]
    pub(crate) fn has_table_window(self) -> bool {
        self.0 & Self::SSSE3 != 0
    }

    /// Whether the set has the AVX-512 table window kernel, which is faster than the Latin-1
    /// one on Latin-1 text too.
    #[inline]
    pub(crate) fn has_wide_table_window(self) -> bool {
        self.0 & Self::AVX512 != 0
    }

    /// Whether the 3-byte-run kernel is in this set: UTF-16 and UTF-32 output then go
    /// through the crate's own UTF-8 decoder, which calls it, for text that is mostly 3-byte
    /// chars.
    #[inline]
    pub(crate) fn decodes_three_byte_runs(self) -> bool {
        self.0 & Self::SSSE3 != 0
    }

    /// The all-ASCII check (see the [module docs](self)): `None` without AVX2, else whether
    /// every byte of `bytes` is ASCII.
    #[inline]
    pub(crate) fn is_ascii(self, bytes: &[u8]) -> Option<bool> {
        #[cfg(wirebytes_x86_kernels)]
        if self.0 & Self::AVX2 != 0 {
            // SAFETY: `is_ascii_avx2` requires AVX2 and nothing else; the bit is set only when
            // `detect` saw the CPU has it.
            return Some(unsafe { x86_64::is_ascii_avx2(bytes) });
        }
        let _ = bytes;
        None
    }
}
