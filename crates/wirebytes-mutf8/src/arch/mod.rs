//! The SIMD kernels behind one type, [`Kernels`], and the SSE2 widening of short ASCII
//! bodies. With [`crate::out`] (the writers and the UTF-8 proof the kernels write through),
//! the only place in the crate with `unsafe`.
//!
//! # Which kernels
//!
//! A [`Kernels`] value is a set of kernels this CPU can run. [`Kernels::detect`] asks once
//! (with `std`, at run time; without it, what the target is compiled for) and keeps the
//! answer in one byte; every other value is a subset of it ([`Kernels::PORTABLE`], the
//! [levels](Kernels::levels)), so a set bit proves the CPU has the instructions. Kernels run
//! on x86 and x86_64; elsewhere the set is empty. The bits, with what each kernel's
//! `#[target_feature]` lists:
//!
//! | bit | features | kernels |
//! |---|---|---|
//! | SSSE3 | `ssse3`, `popcnt` | `pairs_ssse3` |
//! | AVX2 | `avx2`, `popcnt` | `check_avx2`, `blocks_avx2` |
//! | AVX512 | `avx512f`, `avx512bw`, `avx512vl`, `avx512vbmi`, `avx512vbmi2`, `avx2`, `popcnt` | `rewrite_avx512`, `pairs_avx512`, `blocks_avx512` |
//!
//! The levels are cumulative: `portable` (none), `ssse3`, `avx2` (with SSSE3), `avx512` (with
//! both); `detect` answers the largest level the CPU covers.
//!
//! Each method runs its kernel when the set holds it and returns `None` when not: nothing
//! read, nothing written. Every method is safe for any arguments: a kernel's preconditions are
//! checked (or made to hold) by the method, and where an argument is out of a kernel's range
//! the method does nothing (or the kernel panics on a bounds check) rather than read or write
//! out of bounds.
//!
//! # The shape of the writing kernels
//!
//! The kernels that write (the rewrite and the `decode_to_utf16` decoders) take
//! `(bytes, i, out, o)` and return `(i, o)`: they read `bytes` from `i`, write `out` from `o`,
//! and return the cursors where they stopped. Every element of `out` below the returned `o`
//! is written, and nothing below the given `o` is touched; `bytes[i..]` of the returned `i`
//! is left to the caller, and `i` is then at the start of a sequence. They need `o <= i` and
//! `out.len() >= bytes.len()` (and panic, by a bounds check or an assert, without them): each
//! block writes at most one element per byte it reads, so its store, as wide as the block, at
//! `o` ends before `i` + the block's width `<= bytes.len()`.
//!
//! The methods hand them the whole buffer of a writer ([`SpareVec`], [`Utf8Vec`]), grown to
//! `bytes.len()` elements if shorter, with `o` the writer's length, and keep what the kernel
//! returns. Stores reach past the kept elements (how far, below) into the spare capacity;
//! those elements are not kept. When the writer already holds more than `i` elements, or
//! fewer bytes are left from `i` than the kernel's block reads (so that no block could run),
//! the method does nothing and returns `Some(i)`.
//!
//! # The kernels
//!
//! [`utf8_check`](Kernels::utf8_check) (AVX2, `check_avx2`): whether a body already is its own
//! text, UTF-8 without a 4-byte sequence (the JDK rejects those). Reads all of `bytes`, 64 at a
//! time (the last partial block is copied into a zeroed block first: nothing past the end is
//! read). Writes nothing. Returns a [`Utf8Prefix`] that is whole if the bytes are such UTF-8;
//! else it proves `bytes[..start]`, where `start` is at the start of a char, at most 67 bytes
//! before the first byte that breaks the rule (the start of the 64-byte block where the check
//! failed, moved back to the start of its char).
//!
//! [`rewrite_utf8`](Kernels::rewrite_utf8) (AVX512, `rewrite_avx512`): `decode`'s rewrite of
//! modified UTF-8 as UTF-8, 64 bytes at a time, while the blocks qualify (ASCII, `C0`/`C1` + a
//! continuation byte, 2- and 3-byte sequences that already are UTF-8, surrogate pairs). Each
//! block reads `bytes[i - 2..i + 65]` (blocks run while `i + 65 <= bytes.len()`; nothing is
//! done when `i < 2`) and stores 64 bytes at the writer's end: up to 64 past the kept ones.
//! It keeps whole UTF-8 sequences only, whatever `i` is: ASCII, `C2..DF` + a continuation
//! byte, a 3-byte sequence checked not to be overlong nor a surrogate, the 4 bytes of a
//! pair's char. For the JDK's chars, `i` must start a sequence (not the low half of a pair).
//! Returns the `i` where it stopped: with fewer than 65 bytes left, or at (or just before,
//! at the start of a sequence that runs into it) a block that does not qualify.
//!
//! [`utf16_pairs_ssse3`](Kernels::utf16_pairs_ssse3) (SSSE3, `pairs_ssse3`) and
//! [`utf16_pairs_avx512`](Kernels::utf16_pairs_avx512) (AVX512, `pairs_avx512`):
//! `decode_to_utf16`'s decoders of text of ASCII and 2-byte sequences, 16 (32) bytes per block,
//! while a block holds only ASCII, 2-byte leads and continuation bytes right after a lead, and
//! not only ASCII. Each block reads 24 bytes from its start (two 16-byte loads 8 apart) or 33
//! (two 32-byte loads 1 apart), never past the end, and stores at the writer's end two 8-char
//! halves (the second where the first's kept chars end: up to 8 chars past the kept ones) or
//! one 32-char store (up to 32 past). They keep the JDK's chars of the bytes they took, and
//! return the `i` where they stopped; a lead in a block's last byte is decoded with it, and
//! the returned `i` is past its continuation byte.
//!
//! [`utf16_blocks_avx2`](Kernels::utf16_blocks_avx2) (AVX2, `blocks_avx2`) and
//! [`utf16_blocks_avx512`](Kernels::utf16_blocks_avx512) (AVX512, `blocks_avx512`):
//! `decode_to_utf16`'s decoders of any text the JDK accepts (ASCII, 2- and 3-byte sequences,
//! overlong forms and surrogates included), 32 bytes per block, until a block holds something
//! the JDK rejects. Each block reads 34 bytes from its start (three 32-byte loads 1 apart),
//! never past the end, and stores at the writer's end two 8-char halves or, for a block of
//! ASCII only, 32 chars (AVX2: up to 8 chars past the kept ones), or one 32-char store
//! (AVX-512: up to 32 past). They keep the JDK's chars of the bytes they took and return the
//! `i` where they stopped, past the continuation bytes of the sequences of the last block.
//!
//! For the JDK's chars, the `decode_to_utf16` decoders need `i` at the start of a sequence; from
//! anywhere else they keep chars all the same (any `u16` is a char of a `Vec<u16>`).
//! [`utf16_text`](Kernels::utf16_text) is the choice among them that `decode_to_utf16` makes.
//!
//! # Writers and proofs
//!
//! The kernels write into the writers of [`crate::out`] ([`SpareVec`], [`Utf8Vec`]) through
//! their `with_kernel`, an `unsafe fn` whose guarantees are the kernels' contracts above;
//! [`utf8_check`](Kernels::utf8_check) proves bytes UTF-8 with
//! [`Utf8Prefix::new_unchecked`](crate::out::Utf8Prefix::new_unchecked).
//!
//! # Counted
//!
//! Each method adds the bytes its kernel took (the returned `i` less the given one; for
//! `check_avx2`, the bytes it proved) to [`crate::counters`], and the widening functions the
//! bytes they widened: with the test-only feature `__counters` the tests see which kernel ran
//! on what; without it nothing is counted and nothing is computed.
//!
//! # Widening
//!
//! [`widen16`], [`widen8`] and [`widen4`] widen bytes to their chars with SSE2 where the
//! target is compiled with it (every x86_64 target), for the short ASCII bodies of
//! [`crate::out`]; elsewhere they do nothing and say so.

#[cfg(wirebytes_x86_kernels)]
mod x86;

use core::mem::MaybeUninit;

pub(crate) use crate::chunks::SplitChunks;

use crate::counters::{self, Path};
use crate::out::{SpareVec, Utf8Prefix, Utf8Vec};

/// Writes the 16 bytes of `src` into `dst`, each as its char, with SSE2 where the target is
/// compiled with it; whether it did (elsewhere nothing is written).
#[inline(always)]
pub(crate) fn widen16(src: &[u8; 16], dst: &mut [MaybeUninit<u16>; 16]) -> bool {
    #[cfg(all(wirebytes_x86_kernels, target_feature = "sse2"))]
    let done = {
        x86::widen16_sse2(src, dst);
        counters::add(Path::Widen16Sse2, 16);
        true
    };
    #[cfg(not(all(wirebytes_x86_kernels, target_feature = "sse2")))]
    let done = {
        let _ = (src, dst);
        false
    };
    done
}

/// [`widen16`] for 8 bytes.
#[inline(always)]
pub(crate) fn widen8(src: &[u8; 8], dst: &mut [MaybeUninit<u16>; 8]) -> bool {
    #[cfg(all(wirebytes_x86_kernels, target_feature = "sse2"))]
    let done = {
        x86::widen8_sse2(src, dst);
        counters::add(Path::Widen8Sse2, 8);
        true
    };
    #[cfg(not(all(wirebytes_x86_kernels, target_feature = "sse2")))]
    let done = {
        let _ = (src, dst);
        false
    };
    done
}

/// [`widen16`] for 4 bytes.
#[inline(always)]
pub(crate) fn widen4(src: &[u8; 4], dst: &mut [MaybeUninit<u16>; 4]) -> bool {
    #[cfg(all(wirebytes_x86_kernels, target_feature = "sse2"))]
    let done = {
        x86::widen4_sse2(src, dst);
        counters::add(Path::Widen4Sse2, 4);
        true
    };
    #[cfg(not(all(wirebytes_x86_kernels, target_feature = "sse2")))]
    let done = {
        let _ = (src, dst);
        false
    };
    done
}

/// Whether the CPU has every one of these x86 features: asked at run time with `std`, else
/// what the target is compiled for.
#[cfg(wirebytes_x86_kernels)]
macro_rules! has {
    ($($feature:tt),+) => {
        $({
            #[cfg(feature = "std")]
            let has = std::is_x86_feature_detected!($feature);
            #[cfg(not(feature = "std"))]
            let has = cfg!(target_feature = $feature);
            has
        })&&+
    };
}

/// The SIMD kernels this CPU can run. Only `detect` reads the CPU; every other value is a
/// subset of what it found ([`Kernels::PORTABLE`], the levels), so a set bit proves the CPU
/// has the instructions and the methods below are safe to call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Kernels(u8);

impl Kernels {
    /// No kernel: the portable code only.
    #[cfg_attr(
        not(test),
        expect(dead_code, reason = "the level without kernels, for the tests")
    )]
    pub(crate) const PORTABLE: Kernels = Kernels(0);
    /// `pairs_ssse3`.
    const SSSE3: u8 = 1 << 0;
    /// `check_avx2`, `blocks_avx2`.
    const AVX2: u8 = 1 << 1;
    /// `rewrite_avx512`, `pairs_avx512`, `blocks_avx512`.
    const AVX512: u8 = 1 << 2;
    /// Set in the kept byte once the CPU has been asked.
    const KNOWN: u8 = 1 << 7;
    /// The levels, each with every kernel of the ones before it, by name.
    const LEVELS: [(&'static str, u8); 4] = [
        ("portable", 0),
        ("ssse3", Self::SSSE3),
        ("avx2", Self::SSSE3 | Self::AVX2),
        ("avx512", Self::SSSE3 | Self::AVX2 | Self::AVX512),
    ];

    /// What this CPU has: the largest level it covers. Asked once ([`Kernels::ask`]), then
    /// kept in one byte: every later call costs one relaxed load. Without `std`, a constant.
    #[inline]
    pub(crate) fn detect() -> Kernels {
        use core::sync::atomic::{AtomicU8, Ordering};
        /// [`Kernels::KNOWN`] and the bits, once asked.
        static DETECTED: AtomicU8 = AtomicU8::new(0);
        if cfg!(not(feature = "std")) {
            return Kernels(Self::ask());
        }
        let kept = DETECTED.load(Ordering::Relaxed);
        if kept & Self::KNOWN != 0 {
            return Kernels(kept & !Self::KNOWN);
        }
        let bits = Self::ask();
        counters::add(Path::DetectAsk, 1);
        DETECTED.store(bits | Self::KNOWN, Ordering::Relaxed);
        Kernels(bits)
    }

    /// The bits of the largest level this CPU covers: with `std`,
    /// `std::is_x86_feature_detected!`; without it, `cfg!(target_feature = ...)` (what the
    /// target is compiled for). On other architectures, none.
    #[cfg_attr(feature = "std", cold)]
    #[cfg_attr(not(feature = "std"), inline(always))]
    fn ask() -> u8 {
        #[cfg(wirebytes_x86_kernels)]
        {
            let ssse3 = has!("ssse3", "popcnt");
            let avx2 = has!("avx2", "popcnt");
            #[cfg(wirebytes_avx512)]
            let avx512 = has!(
                "avx512f",
                "avx512bw",
                "avx512vl",
                "avx512vbmi",
                "avx512vbmi2",
                "avx2",
                "popcnt"
            );
            // A compiler without the AVX-512 intrinsics built no AVX-512 kernel.
            #[cfg(not(wirebytes_avx512))]
            let avx512 = false;
            Self::level_of(ssse3, avx2, avx512)
        }
        #[cfg(not(wirebytes_x86_kernels))]
        0
    }

    /// The bits of the largest level that a CPU with these kernels' features covers (`ssse3`:
    /// SSSE3 and POPCNT; `avx2`: AVX2 and POPCNT; `avx512`: every feature of the AVX-512
    /// kernels).
    #[cfg_attr(
        not(any(wirebytes_x86_kernels, test)),
        expect(dead_code, reason = "only x86 CPUs have the features")
    )]
    #[inline(always)]
    fn level_of(ssse3: bool, avx2: bool, avx512: bool) -> u8 {
        let have = (u8::from(ssse3) * Self::SSSE3)
            | (u8::from(avx2) * Self::AVX2)
            | (u8::from(avx512) * Self::AVX512);
        let mut level = 0;
        for (_, bits) in Self::LEVELS {
            if bits & !have == 0 {
                level = bits;
            }
        }
        level
    }

    /// The levels this CPU has, by name: `portable` first, then each one [`Kernels::detect`]
    /// covers (the last is `detect`'s).
    pub(crate) fn levels() -> impl Iterator<Item = (&'static str, Kernels)> {
        let have = Self::detect().0;
        Self::LEVELS
            .into_iter()
            .filter(move |&(_, bits)| bits & !have == 0)
            .map(|(name, bits)| (name, Kernels(bits)))
    }

    /// Whether `bytes` are UTF-8 without a 4-byte sequence, with `check_avx2`; `None` without
    /// AVX2. See the module for the contract.
    #[inline]
    pub(crate) fn utf8_check(self, bytes: &[u8]) -> Option<Utf8Prefix<'_>> {
        #[cfg(wirebytes_x86_kernels)]
        if self.0 & Self::AVX2 != 0 {
            // SAFETY: `check_avx2` needs AVX2 and nothing else; the bit is set only when the
            // CPU has it (see `detect`).
            let valid = match unsafe { x86::check_avx2(bytes) } {
                Ok(()) => bytes.len(),
                Err(start) => start,
            };
            counters::add(Path::CheckAvx2, valid);
            // SAFETY: `check_avx2` passes `bytes` whole if they are UTF-8 (without a 4-byte
            // sequence), else returns an index before which they are (see the module).
            return Some(unsafe { Utf8Prefix::new_unchecked(bytes, valid) });
        }
        let _ = bytes;
        None
    }

    /// `decode`'s rewrite of `bytes[i..]` as UTF-8 into `out`, with `rewrite_avx512`; the `i`
    /// where it stopped, or `None` without AVX-512. See the module for the contract.
    #[inline]
    pub(crate) fn rewrite_utf8(self, bytes: &[u8], i: usize, out: &mut Utf8Vec) -> Option<usize> {
        #[cfg(wirebytes_avx512)]
        if self.0 & Self::AVX512 != 0 {
            // SAFETY: the bit is set only when the CPU has every feature `rewrite_avx512`
            // needs (see `detect`). It writes `out` only from the `o` it is given, has
            // written every byte below the `o` it returns (which is not smaller), and the
            // bytes it keeps are whole UTF-8 sequences (see the module).
            let next = unsafe { out.with_kernel(bytes, i, x86::rewrite_avx512) };
            counters::add(Path::RewriteAvx512, next - i);
            return Some(next);
        }
        let _ = (bytes, i, out);
        None
    }

    /// `decode_to_utf16`'s block decoders from the byte at `i` (not ASCII), as this set has
    /// them: with AVX-512, the 2-byte decoder if the byte is a 2-byte lead, then the general
    /// one from where it stopped; with AVX2, the general one; with SSSE3 only, the 2-byte
    /// decoder if the byte is a 2-byte lead. Returns the `i` where they stopped (`i` itself
    /// when nothing was done).
    #[inline(always)]
    pub(crate) fn utf16_text(self, bytes: &[u8], i: usize, out: &mut SpareVec<u16>) -> usize {
        // The leads there is a decoder for, `first..first + count`: the same for every call
        // with this set, so that a loop making them tests only this range per sequence.
        let (first, count) = if self.0 & (Self::AVX2 | Self::AVX512) != 0 {
            (0xC0, 0x40)
        } else if self.0 & Self::SSSE3 != 0 {
            (0xC0, 0x20)
        } else {
            (0, 0)
        };
        // Fewer bytes left than the shortest block any of them reads (24, `pairs_ssse3`'s):
        // none could run.
        if bytes.len().saturating_sub(i) < 24 {
            return i;
        }
        let c = bytes[i];
        if c.wrapping_sub(first) >= count {
            return i;
        }
        if self.0 & Self::AVX512 != 0 {
            if c < 0xC0 {
                return i;
            }
            let j = if c < 0xE0 {
                self.utf16_pairs_avx512(bytes, i, out).unwrap_or(i)
            } else {
                i
            };
            return self.utf16_blocks_avx512(bytes, j, out).unwrap_or(j);
        }
        if self.0 & Self::AVX2 != 0 {
            if c < 0xC0 {
                return i;
            }
            return self.utf16_blocks_avx2(bytes, i, out).unwrap_or(i);
        }
        if c & 0xE0 == 0xC0 {
            return self.utf16_pairs_ssse3(bytes, i, out).unwrap_or(i);
        }
        i
    }

    /// `pairs_ssse3` from `i` into `out`: the `i` where it stopped, or `None` without SSSE3.
    /// See the module for the contract.
    #[inline]
    pub(crate) fn utf16_pairs_ssse3(
        self,
        bytes: &[u8],
        i: usize,
        out: &mut SpareVec<u16>,
    ) -> Option<usize> {
        #[cfg(wirebytes_x86_kernels)]
        if self.0 & Self::SSSE3 != 0 {
            // Fewer than a block's 24 bytes left: no block runs; the call is not made.
            if bytes.len().saturating_sub(i) < 24 {
                return Some(i);
            }
            // SAFETY: the bit is set only when the CPU has SSSE3 and POPCNT, all that `pairs_ssse3` needs (see
            // `detect`). It writes `out` only from the `o` it is given and has written every
            // char below the `o` it returns, which is not smaller (see the module).
            let next = unsafe { out.with_kernel(bytes, i, x86::pairs_ssse3) };
            counters::add(Path::PairsSsse3, next - i);
            return Some(next);
        }
        let _ = (bytes, i, out);
        None
    }

    /// `pairs_avx512` from `i` into `out`: the `i` where it stopped, or `None` without AVX-512.
    /// See the module for the contract.
    #[inline]
    pub(crate) fn utf16_pairs_avx512(
        self,
        bytes: &[u8],
        i: usize,
        out: &mut SpareVec<u16>,
    ) -> Option<usize> {
        #[cfg(wirebytes_avx512)]
        if self.0 & Self::AVX512 != 0 {
            // Fewer than a block's 33 bytes left: no block runs; the call is not made.
            if bytes.len().saturating_sub(i) < 33 {
                return Some(i);
            }
            // SAFETY: the bit is set only when the CPU has every feature `pairs_avx512` needs (see
            // `detect`). It writes `out` only from the `o` it is given and has written every
            // char below the `o` it returns, which is not smaller (see the module).
            let next = unsafe { out.with_kernel(bytes, i, x86::pairs_avx512) };
            counters::add(Path::PairsAvx512, next - i);
            return Some(next);
        }
        let _ = (bytes, i, out);
        None
    }

    /// `blocks_avx2` from `i` into `out`: the `i` where it stopped, or `None` without AVX2.
    /// See the module for the contract.
    #[inline]
    pub(crate) fn utf16_blocks_avx2(
        self,
        bytes: &[u8],
        i: usize,
        out: &mut SpareVec<u16>,
    ) -> Option<usize> {
        #[cfg(wirebytes_x86_kernels)]
        if self.0 & Self::AVX2 != 0 {
            // Fewer than a block's 34 bytes left: no block runs; the call is not made.
            if bytes.len().saturating_sub(i) < 34 {
                return Some(i);
            }
            // SAFETY: the bit is set only when the CPU has AVX2 and POPCNT, all that `blocks_avx2` needs (see
            // `detect`). It writes `out` only from the `o` it is given and has written every
            // char below the `o` it returns, which is not smaller (see the module).
            let next = unsafe { out.with_kernel(bytes, i, x86::blocks_avx2) };
            counters::add(Path::BlocksAvx2, next - i);
            return Some(next);
        }
        let _ = (bytes, i, out);
        None
    }

    /// `blocks_avx512` from `i` into `out`: the `i` where it stopped, or `None` without AVX-512.
    /// See the module for the contract.
    #[inline]
    pub(crate) fn utf16_blocks_avx512(
        self,
        bytes: &[u8],
        i: usize,
        out: &mut SpareVec<u16>,
    ) -> Option<usize> {
        #[cfg(wirebytes_avx512)]
        if self.0 & Self::AVX512 != 0 {
            // Fewer than a block's 34 bytes left: no block runs; the call is not made.
            if bytes.len().saturating_sub(i) < 34 {
                return Some(i);
            }
            // SAFETY: the bit is set only when the CPU has every feature `blocks_avx512` needs (see
            // `detect`). It writes `out` only from the `o` it is given and has written every
            // char below the `o` it returns, which is not smaller (see the module).
            let next = unsafe { out.with_kernel(bytes, i, x86::blocks_avx512) };
            counters::add(Path::BlocksAvx512, next - i);
            return Some(next);
        }
        let _ = (bytes, i, out);
        None
    }
}

#[cfg(test)]
mod tests {
    use alloc::vec::Vec;

    use super::*;

    #[test]
    fn the_levels_start_portable_and_end_with_what_detect_found() {
        let levels: Vec<_> = Kernels::levels().collect();
        assert_eq!(levels[0], ("portable", Kernels::PORTABLE));
        assert_eq!(levels.last().map(|&(_, k)| k), Some(Kernels::detect()));
        for pair in levels.windows(2) {
            // Each level holds every kernel of the one before it.
            assert_eq!(pair[0].1.0 & !pair[1].1.0, 0, "{pair:?}");
        }
        // Nothing but the levels' names, in order.
        let names: Vec<_> = levels.iter().map(|&(name, _)| name).collect();
        let all: Vec<_> = Kernels::LEVELS.iter().map(|&(name, _)| name).collect();
        assert_eq!(names, all[..names.len()]);
    }

    /// Without `std`, the kernels are those the target is compiled for (e.g. with
    /// `-C target-feature=+avx2,+popcnt,+ssse3`: the `avx2` level).
    #[cfg(not(feature = "std"))]
    #[test]
    fn without_std_the_level_is_what_the_target_is_compiled_for() {
        let x86 = cfg!(wirebytes_x86_kernels);
        let ssse3 = x86 && cfg!(all(target_feature = "ssse3", target_feature = "popcnt"));
        let avx2 = ssse3 && cfg!(target_feature = "avx2");
        let avx512 = avx2
            && cfg!(all(
                wirebytes_avx512,
                target_feature = "avx512f",
                target_feature = "avx512bw",
                target_feature = "avx512vl",
                target_feature = "avx512vbmi",
                target_feature = "avx512vbmi2"
            ));
        let want = [(avx512, "avx512"), (avx2, "avx2"), (ssse3, "ssse3")]
            .into_iter()
            .find_map(|(has, name)| has.then_some(name))
            .unwrap_or("portable");
        assert_eq!(Kernels::levels().last().map(|(name, _)| name), Some(want));
    }

    /// With `std`, the detected level is the highest one whose features the CPU reports and
    /// whose kernels this compiler built, named independently of [`Kernels::ask`]; `levels()`
    /// names the level list up to it.
    #[cfg(feature = "std")]
    #[test]
    fn detect_answers_the_highest_level_the_cpu_and_the_build_have() {
        extern crate std;
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        let (ssse3, avx2, avx512) = {
            let built = cfg!(wirebytes_x86_kernels);
            let popcnt = std::is_x86_feature_detected!("popcnt");
            let ssse3 = built && popcnt && std::is_x86_feature_detected!("ssse3");
            let avx2 = ssse3 && std::is_x86_feature_detected!("avx2");
            let avx512 = avx2
                && cfg!(wirebytes_avx512)
                && std::is_x86_feature_detected!("avx512f")
                && std::is_x86_feature_detected!("avx512bw")
                && std::is_x86_feature_detected!("avx512vl")
                && std::is_x86_feature_detected!("avx512vbmi")
                && std::is_x86_feature_detected!("avx512vbmi2");
            (ssse3, avx2, avx512)
        };
        #[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
        let (ssse3, avx2, avx512) = (false, false, false);
        let (want, bits): (&[&str], u8) = if avx512 {
            (&["portable", "ssse3", "avx2", "avx512"], 0b111)
        } else if avx2 {
            (&["portable", "ssse3", "avx2"], 0b011)
        } else if ssse3 {
            (&["portable", "ssse3"], 0b001)
        } else {
            (&["portable"], 0)
        };
        assert_eq!(Kernels::detect(), Kernels(bits));
        // Asked again (not the kept byte): the same answer.
        assert_eq!(Kernels::ask(), bits);
        let names: Vec<_> = Kernels::levels().map(|(name, _)| name).collect();
        assert_eq!(names, want);
        // Each level's set, written out: SSSE3 = bit 0, AVX2 = bit 1, AVX-512 = bit 2.
        let sets: Vec<_> = Kernels::levels().map(|(_, k)| k.0).collect();
        assert_eq!(sets, [0, 0b001, 0b011, 0b111][..want.len()]);
    }

    /// Every combination of features gives the largest cumulative level it covers: a level
    /// needs the features of the ones before it.
    #[test]
    fn each_combination_of_features_gives_the_largest_level_it_covers() {
        for k in 0..8u8 {
            let (ssse3, avx2, avx512) = (k & 1 != 0, k & 2 != 0, k & 4 != 0);
            let want = match (ssse3, avx2, avx512) {
                (true, true, true) => 0b111,
                (true, true, false) => 0b011,
                (true, false, _) => 0b001,
                (false, _, _) => 0,
            };
            assert_eq!(
                Kernels::level_of(ssse3, avx2, avx512),
                want,
                "{ssse3} {avx2} {avx512}"
            );
        }
    }

    #[test]
    fn without_the_instructions_nothing_is_done() {
        let mut out = SpareVec::with_capacity(64);
        let mut text = Utf8Vec::with_capacity(64);
        let bytes = [0xD0; 64];
        let k = Kernels::PORTABLE;
        assert!(k.utf8_check(&bytes).is_none());
        assert!(k.rewrite_utf8(&bytes, 2, &mut text).is_none());
        assert!(k.utf16_pairs_ssse3(&bytes, 0, &mut out).is_none());
        assert!(k.utf16_pairs_avx512(&bytes, 0, &mut out).is_none());
        assert!(k.utf16_blocks_avx2(&bytes, 0, &mut out).is_none());
        assert!(k.utf16_blocks_avx512(&bytes, 0, &mut out).is_none());
        assert_eq!(k.utf16_text(&bytes, 0, &mut out), 0);
        assert_eq!((out.into_vec().len(), text.into_string().len()), (0, 0));
    }

    #[test]
    fn a_writer_ahead_of_the_input_gets_nothing_done() {
        let bytes = "\u{436}".repeat(40);
        for (name, kernels) in Kernels::levels() {
            let mut out = SpareVec::with_capacity(0);
            for _ in 0..10 {
                out.push(0);
            }
            for kernel in [
                Kernels::utf16_pairs_ssse3,
                Kernels::utf16_pairs_avx512,
                Kernels::utf16_blocks_avx2,
                Kernels::utf16_blocks_avx512,
            ] {
                let got = kernel(kernels, bytes.as_bytes(), 4, &mut out);
                assert!(matches!(got, None | Some(4)), "{name}");
            }
            assert_eq!(out.into_vec(), [0; 10], "{name}");
        }
    }
}
