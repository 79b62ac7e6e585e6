//! The SIMD kernels of the `&str` copy, behind [`Kernels`]: one type on every target, whose
//! methods do nothing (and say so) where the CPU or the target lacks the instructions, so the
//! portable code in [`crate::copy`] runs instead. This module holds ISA code only: the
//! dispatch and the `#[target_feature]` functions under `x86_64/`. With the writer
//! [`crate::out`] and the array view [`crate::chunks`], it is all of the crate's `unsafe`
//! code.
//!
//! # The kernels and their contracts
//!
//! Every kernel starts at the beginning of `src`, which is a char boundary of a `str`, writes
//! at the end of the output so far of an [`Out`] (into its room, which may be uninitialised
//! memory), counts there the bytes it output, and returns the bytes of `src` it read (0 when
//! it did nothing). Each stops at a char boundary, so the caller goes on from there with any
//! other code. "Past the count" below means in the room, after the counted output.
//!
//! - **`copy_ascii_blocks`** (AVX2, or AVX-512 BW with one register per block): copies an ASCII prefix of `src` in 64-byte blocks and
//!   returns its length: the longest ASCII prefix, or less by at most 63 bytes (the block
//!   holding the first non-ASCII byte is not copied; at the end, the last 64 bytes are,
//!   overlapping). A block is checked before it is stored: nothing past the returned length is
//!   written. `None`, nothing written, without AVX2.
//! - **`copy_header_blocks`** (AVX2, or AVX-512 BW): the same, for a prefix of printable ASCII
//!   (`0x20..=0x7E`, header bytes but HTAB): the block holding the first other byte is not
//!   copied.
//! - **`find_invalid_header_byte`** (AVX2): reads `src` (at least 32 bytes) in 64-byte blocks,
//!   then 32-byte vectors, the last ending where `src` ends, and returns the index of the first
//!   byte `http::HeaderValue` rejects, or `None`; writes nothing. Not called (`None`) without
//!   AVX2 or on fewer than 32 bytes. With AVX-512 BW and at least 64 bytes: 64-byte blocks,
//!   the last ending where `src` ends.
//! - **`utf8_blocks`** (AVX-512 F, BW, VBMI, VBMI2): any text, the low byte of each UTF-16
//!   unit (two for a char above U+FFFF), 64 bytes of `src` per step, until fewer than 65 bytes
//!   of `src` or 64 of room are left. Writes nothing past the returned count but the high
//!   surrogate's byte of a char it leaves to the caller, which the caller writes again.
//!   `(0, 0)` without the features.
//! - **`utf8_short`** (AVX-512 F, BW, VBMI, VBMI2; or SSSE3 and POPCNT): all of `src` when it
//!   holds at most 64 bytes and ends where a `str` ends, the low byte of each UTF-16 unit, when
//!   they fit in the room: with AVX-512 one masked load and one masked store; with SSSE3 (no
//!   char longer than 3 bytes) four 16-byte windows over a zero-padded copy into a buffer,
//!   then copied out. Writes nothing past the count. Returns the written bytes that a header
//!   value may not hold, as a mask (bit `i` for byte `i`). `None`, nothing written, without
//!   the features, on a longer `src`, with SSSE3 alone on a 4-byte char, or with too little
//!   room.
//! - **`count_units`** (AVX2; AVX-512 BW and POPCNT): the UTF-16 length of `bytes` (whole
//!   chars of UTF-8); reads only. `None` without the features.
//! - **`two_byte_blocks`** (SSSE3, POPCNT): ASCII and 2-byte chars (U+0080..U+07FF: Latin,
//!   Greek, Cyrillic, Hebrew, Arabic), one low byte per char, 16 bytes of `src` per step, until
//!   a window holds a 3- or 4-byte char or fewer than 40 bytes of `src` or 16 of `dst` are
//!   left. Each step stores 16 bytes past the count so far and counts one per char that ends
//!   in its window: up to 8 bytes past the returned count are written with meaningless values.
//!   At least 24 bytes of `src` follow, which make at least 8 UTF-16 units, so a caller that
//!   goes on to copy the rest of `src` overwrites them (or the room ends after them and
//!   they are all below the final count). `(0, 0)` without the features.
//! - **`three_byte_blocks`** (SSSE3): the run of 3-byte chars at the start of `src` (CJK),
//!   one low byte per char, sixteen at a time, and the runs after it that are separated by a
//!   single ASCII byte (a space, a digit), while 48 bytes of `src` and 16 of room are left;
//!   at least one char when `src` starts with a 3-byte char and there is room. Each step
//!   stores 16 bytes, also when the run ends inside its 48-byte block after `k < 16` chars:
//!   then up to `16 - k` bytes past the returned count are written with meaningless values. At
//!   least `3 * (16 - k)` bytes of `src` follow the run inside that block, and every 3 bytes of
//!   UTF-8 make at least one UTF-16 unit: a caller that goes on to copy the rest of `src`
//!   overwrites every one of them (or they are all below the final count). `(0, 0)` without
//!   SSSE3 or room.
//! - **`four_byte_blocks`** (SSSE3): the run of 4-byte chars at the start of `src` (emoji,
//!   historic scripts), the low bytes of both surrogates of each, eight chars at a time, while
//!   48 bytes of `src` and 16 of room are left; at least one char when `src` starts with a
//!   4-byte char and there is room. Each step stores 16 bytes, also when the run ends inside
//!   its 32-byte block after `k < 8` chars: then up to `16 - 2k` bytes past the returned count
//!   are written with meaningless values. At least `48 - 4k` bytes of `src` follow the run, and
//!   every 3 bytes of UTF-8 make at least one unit, which is at least `16 - 2k` units for every
//!   `k >= 1`: a caller that goes on to copy the rest of `src` overwrites every one of them (or
//!   they are all below the final count). `(0, 0)` without SSSE3 or room.
//!
//! Measured gains (criterion, `ascii/copy_low_bytes`, `ours` against `ours-portable` side by
//! side): see the crate's README.
//!
//! # Detection
//!
//! With the `std` feature the CPU is asked once, at the first call that needs a kernel, and
//! the answer is kept in one byte: every later call costs one relaxed load (the standard
//! library's own cache costs a load and a test per feature, which a 47-byte header line
//! measurably paid for). Without `std`, a kernel runs only where its features are enabled at
//! compile time (`-C target-feature`, `-C target-cpu`).

#[cfg(wirebytes_x86_kernels)]
mod x86_64;

#[cfg(wirebytes_x86_kernels)]
use crate::counters::{self, Path};
use crate::out::Out;

/// What [`Kernels::detect`] found, with [`Kernels::KNOWN`] set once it has asked the CPU.
static FOUND: core::sync::atomic::AtomicU8 = core::sync::atomic::AtomicU8::new(0);

/// The SIMD kernels this CPU can run. Only [`Kernels::detect`] reads the CPU; every other
/// value is a subset of what it found (the [levels](Kernels::levels), `"portable"` the empty
/// one), so a set bit proves the CPU has the instructions and the methods are safe to call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Kernels(u8);

impl Kernels {
    /// SSSE3 and POPCNT: the 2-, 3- and 4-byte kernels.
    const SSSE3: u8 = 0b0000_0001;
    /// AVX2: the ASCII block copy.
    const AVX2: u8 = 0b0000_0010;
    /// AVX-512 F, BW, VBMI, VBMI2 and POPCNT: the kernel for any text.
    const AVX512: u8 = 0b0000_0100;
    /// No kernel: the portable code.
    pub(crate) const NONE: Kernels = Kernels(0);
    /// Set once the CPU has been asked.
    const KNOWN: u8 = 0b1000_0000;
    /// The levels, each with every kernel of the ones before it, by name: the bits of
    /// [`SSSE3`](Self::SSSE3), then with [`AVX2`](Self::AVX2), then with
    /// [`AVX512`](Self::AVX512) (written as literals, checked by the tests below).
    const LEVELS: [(&'static str, u8); 4] = [
        ("portable", 0),
        ("ssse3", 0b001),
        ("avx2", 0b011),
        ("avx512", 0b111),
    ];

    /// The kernels this CPU has: asked once, then one relaxed load per call.
    #[inline]
    pub(crate) fn detect() -> Kernels {
        use core::sync::atomic::Ordering;
        let bits = FOUND.load(Ordering::Relaxed);
        if bits & Self::KNOWN != 0 {
            return Kernels(bits & !Self::KNOWN);
        }
        let bits = Self::ask();
        FOUND.store(bits | Self::KNOWN, Ordering::Relaxed);
        Kernels(bits)
    }

    /// What the CPU has, asked at run time with `std`, else known at compile time.
    #[cold]
    fn ask() -> u8 {
        #[cfg(wirebytes_x86_kernels)]
        {
            /// Whether the CPU has `feature`.
            macro_rules! has {
                ($feature:tt) => {{
                    #[cfg(feature = "std")]
                    let has = std::is_x86_feature_detected!($feature);
                    #[cfg(not(feature = "std"))]
                    let has = cfg!(target_feature = $feature);
                    has
                }};
            }
            let all = |features: &[bool]| features.iter().all(|&has| has);
            let mut bits = 0;
            if all(&[has!("ssse3"), has!("popcnt")]) {
                bits |= Self::SSSE3;
            }
            if has!("avx2") {
                bits |= Self::AVX2;
            }
            // A compiler without the AVX-512 intrinsics built no AVX-512 kernel.
            #[cfg(wirebytes_avx512)]
            if all(&[
                has!("avx512f"),
                has!("avx512bw"),
                has!("avx512vbmi"),
                has!("avx512vbmi2"),
                has!("popcnt"),
            ]) {
                bits |= Self::AVX512;
            }
            bits
        }
        #[cfg(not(wirebytes_x86_kernels))]
        0
    }

    /// The levels this CPU has, `"portable"` first, each with the kernels of the ones before.
    pub(crate) fn levels() -> impl Iterator<Item = (&'static str, Kernels)> {
        let found = Self::detect().0;
        Self::LEVELS
            .into_iter()
            .filter(move |&(_, bits)| Kernels(found).has(bits))
            .map(|(name, bits)| (name, Kernels(bits)))
    }

    /// Whether any kernel for non-ASCII text is in this set (SSSE3 and up): without one,
    /// the portable code decodes mixed text in its own windows.
    #[inline(always)]
    pub(crate) fn decodes_text(self) -> bool {
        self.has(Self::SSSE3)
    }

    /// Whether every feature of `bits` is in this set.
    #[inline(always)]
    fn has(self, bits: u8) -> bool {
        self.0 & bits == bits
    }

    /// See the [module docs](self#the-kernels-and-their-contracts): an ASCII prefix of `src`
    /// copied in 64-byte blocks, or `None` without AVX2.
    #[inline]
    pub(crate) fn copy_ascii_blocks(self, src: &[u8], out: &mut Out<'_>) -> usize {
        #[cfg(wirebytes_avx512)]
        if self.has(Self::AVX512) {
            // SAFETY: `ascii_blocks_avx512` needs AVX-512 F and BW and nothing else, and the
            // bit is set only where `detect` saw the CPU has them. It writes the count it
            // returns, from the start of the room (its contract above), so `with_room` may
            // count them.
            let read = unsafe {
                out.with_room(|dst| {
                    let n = x86_64::ascii_blocks_avx512(src, dst);
                    (n, n)
                })
            };
            counters::add(Path::AsciiBlocksAvx512, read);
            return read;
        }
        #[cfg(wirebytes_x86_kernels)]
        if self.has(Self::AVX2) {
            // SAFETY: `ascii_blocks_avx2` needs AVX2 and nothing else, and the bit is set only
            // where `detect` saw the CPU has it. It writes the count it returns, from the
            // start of the room (its contract above), so `with_room` may count them.
            let read = unsafe {
                out.with_room(|dst| {
                    let n = x86_64::ascii_blocks_avx2(src, dst);
                    (n, n)
                })
            };
            counters::add(Path::AsciiBlocksAvx2, read);
            return read;
        }
        let _ = (src, out);
        0
    }

    /// See the [module docs](self#the-kernels-and-their-contracts): a prefix of `src` of
    /// printable ASCII (`0x20..=0x7E`) copied in 64-byte blocks, or 0 without AVX2.
    #[cfg(feature = "alloc")]
    #[inline]
    pub(crate) fn copy_header_blocks(self, src: &[u8], out: &mut Out<'_>) -> usize {
        #[cfg(wirebytes_avx512)]
        if self.has(Self::AVX512) {
            // SAFETY: `header_blocks_avx512` needs AVX-512 F and BW and nothing else, and the
            // bit is set only where `detect` saw the CPU has them. It writes the count it
            // returns, from the start of the room (its contract above), so `with_room` may
            // count them.
            let read = unsafe {
                out.with_room(|dst| {
                    let n = x86_64::header_blocks_avx512(src, dst);
                    (n, n)
                })
            };
            counters::add(Path::HeaderBlocksAvx512, read);
            return read;
        }
        #[cfg(wirebytes_x86_kernels)]
        if self.has(Self::AVX2) {
            // SAFETY: `header_blocks_avx2` needs AVX2 and nothing else, and the bit is set
            // only where `detect` saw the CPU has it. It writes the count it returns, from the
            // start of the room (its contract above), so `with_room` may count them.
            let read = unsafe {
                out.with_room(|dst| {
                    let n = x86_64::header_blocks_avx2(src, dst);
                    (n, n)
                })
            };
            counters::add(Path::HeaderBlocksAvx2, read);
            return read;
        }
        let _ = (src, out);
        0
    }

    /// See the [module docs](self#the-kernels-and-their-contracts): the first byte of `src`
    /// that is not a header byte, `Some(None)` if there is none, or `None` (nothing done)
    /// without AVX2 or when `src` is shorter than 32 bytes.
    #[inline]
    pub(crate) fn find_invalid_header_byte(self, src: &[u8]) -> Option<Option<usize>> {
        #[cfg(wirebytes_avx512)]
        if self.has(Self::AVX512) && src.len() >= 64 {
            // SAFETY: `find_invalid_header_byte_avx512` needs AVX-512 F and BW and nothing
            // else, and the bit is set only where `detect` saw the CPU has them; it only reads
            // `src`, which holds the 64 bytes it asks for.
            let found = unsafe { x86_64::find_invalid_header_byte_avx512(src) };
            counters::add(Path::FindInvalidHeaderByteAvx512, src.len());
            return Some(found);
        }
        #[cfg(wirebytes_x86_kernels)]
        if self.has(Self::AVX2) && src.len() >= 32 {
            // SAFETY: `find_invalid_header_byte_avx2` needs AVX2 and nothing else, and the bit
            // is set only where `detect` saw the CPU has it; it only reads `src`, which holds
            // the 32 bytes it asks for.
            let found = unsafe { x86_64::find_invalid_header_byte_avx2(src) };
            counters::add(Path::FindInvalidHeaderByteAvx2, src.len());
            return Some(found);
        }
        let _ = src;
        None
    }

    /// See the [module docs](self#the-kernels-and-their-contracts): the UTF-16 length of
    /// `bytes`, or `None` without AVX2.
    #[inline]
    pub(crate) fn count_units(self, bytes: &[u8]) -> Option<usize> {
        #[cfg(wirebytes_avx512)]
        if self.has(Self::AVX512) {
            // SAFETY: `count_units_avx512` needs AVX-512 F and BW and POPCNT and nothing else,
            // and the bit is set only where `detect` saw the CPU has them; it only reads.
            let units = unsafe { x86_64::count_units_avx512(bytes) };
            counters::add(Path::CountUnitsAvx512, bytes.len());
            return Some(units);
        }
        #[cfg(wirebytes_x86_kernels)]
        if self.has(Self::AVX2) {
            // SAFETY: `count_units_avx2` needs AVX2 and nothing else, and the bit is set only
            // where `detect` saw the CPU has it; it only reads.
            let units = unsafe { x86_64::count_units_avx2(bytes) };
            counters::add(Path::CountUnitsAvx2, bytes.len());
            return Some(units);
        }
        let _ = bytes;
        None
    }

    /// See the [module docs](self#the-kernels-and-their-contracts): any text, 64 bytes per
    /// step; `(0, 0)` without AVX-512.
    #[inline]
    pub(crate) fn utf8_blocks(self, src: &[u8], out: &mut Out<'_>) -> usize {
        #[cfg(wirebytes_avx512)]
        if self.has(Self::AVX512) {
            // SAFETY: `utf8_blocks_avx512` needs AVX-512 F, BW, VBMI, VBMI2 and POPCNT and
            // nothing else, and the bit is set only where `detect` saw the CPU has them.
            // The kernel initialises every byte it counts as written, from the start of
            // the room (its contract above), so `with_room` may count them.
            let read = unsafe {
                out.with_room(|dst| x86_64::utf8_blocks_avx512::<false>(src, dst, &mut false))
            };
            counters::add(Path::Utf8BlocksAvx512, read);
            return read;
        }
        let _ = (src, out);
        0
    }

    /// [`utf8_blocks`](Self::utf8_blocks), its output watched for bytes a header value may
    /// not hold: the bytes read, and whether one of the bytes written may be one (below 0x20,
    /// HTAB included, or DEL).
    #[cfg(feature = "alloc")]
    #[inline]
    pub(crate) fn utf8_blocks_checked(self, src: &[u8], out: &mut Out<'_>) -> (usize, bool) {
        #[cfg(wirebytes_avx512)]
        if self.has(Self::AVX512) {
            let mut suspect = false;
            // SAFETY: as for `utf8_blocks`: the same kernel.
            let read = unsafe {
                out.with_room(|dst| x86_64::utf8_blocks_avx512::<true>(src, dst, &mut suspect))
            };
            counters::add(Path::Utf8BlocksCheckedAvx512, read);
            return (read, suspect);
        }
        let _ = (src, out);
        (0, false)
    }

    /// Whether [`utf8_short`](Self::utf8_short) runs the AVX-512 kernel (any text, and the
    /// kernel the render check is fused into).
    #[inline(always)]
    pub(crate) fn has_wide_short(self) -> bool {
        cfg!(wirebytes_avx512) && self.has(Self::AVX512)
    }

    /// See [the module docs](self#the-kernels-and-their-contracts): all of a short `src`,
    /// or nothing.
    #[inline]
    pub(crate) fn utf8_short(self, src: &[u8], out: &mut Out<'_>) -> Option<u64> {
        #[cfg(wirebytes_avx512)]
        if self.has(Self::AVX512) {
            let mut not_header = 0;
            // SAFETY: `utf8_short_avx512` needs AVX-512 F, BW, VBMI, VBMI2 and POPCNT and
            // nothing else, and the bit is set only where `detect` saw the CPU has them.
            // The kernel initialises every byte it counts as written, from the start of
            // the room (its contract above), so `with_room` may count them.
            let read = unsafe {
                out.with_room(|dst| x86_64::utf8_short_avx512(src, dst, &mut not_header))
            };
            counters::add(Path::Utf8ShortAvx512, read);
            return (read != 0).then_some(not_header);
        }
        #[cfg(wirebytes_x86_kernels)]
        if self.has(Self::SSSE3) {
            let mut not_header = 0;
            // SAFETY: `bmp_short_ssse3` needs SSSE3 and POPCNT and nothing else, and the bit
            // is set only where `detect` saw the CPU has both. The kernel initialises every
            // byte it counts as written, from the start of the room (its contract above),
            // so `with_room` may count them.
            let read =
                unsafe { out.with_room(|dst| x86_64::bmp_short_ssse3(src, dst, &mut not_header)) };
            counters::add(Path::BmpShortSsse3, read);
            return (read != 0).then_some(not_header);
        }
        let _ = (src, out);
        None
    }

    /// See the [module docs](self#the-kernels-and-their-contracts): ASCII and 2-byte chars,
    /// 16 bytes per step; `(0, 0)` without SSSE3.
    #[inline]
    pub(crate) fn two_byte_blocks(self, src: &[u8], out: &mut Out<'_>) -> usize {
        #[cfg(wirebytes_x86_kernels)]
        if self.has(Self::SSSE3) {
            // SAFETY: `two_byte_blocks_ssse3` needs SSSE3 and POPCNT and nothing else, and the
            // bit is set only where `detect` saw the CPU has both.
            // The kernel initialises every byte it counts as written, from the start of
            // the room (its contract above), so `with_room` may count them.
            let read = unsafe { out.with_room(|dst| x86_64::two_byte_blocks_ssse3(src, dst)) };
            counters::add(Path::TwoByteBlocksSsse3, read);
            return read;
        }
        let _ = (src, out);
        0
    }

    /// See the [module docs](self#the-kernels-and-their-contracts): runs of 3-byte chars,
    /// sixteen per step; `(0, 0)` without SSSE3.
    #[inline]
    pub(crate) fn three_byte_blocks(self, src: &[u8], out: &mut Out<'_>) -> usize {
        #[cfg(wirebytes_x86_kernels)]
        if self.has(Self::SSSE3) {
            // SAFETY: `three_byte_blocks_ssse3` needs SSSE3 and nothing else, and the bit is
            // set only where `detect` saw the CPU has it.
            // The kernel initialises every byte it counts as written, from the start of
            // the room (its contract above), so `with_room` may count them.
            let read = unsafe { out.with_room(|dst| x86_64::three_byte_blocks_ssse3(src, dst)) };
            counters::add(Path::ThreeByteBlocksSsse3, read);
            return read;
        }
        let _ = (src, out);
        0
    }

    /// See the [module docs](self#the-kernels-and-their-contracts): runs of 4-byte chars,
    /// eight per step; `(0, 0)` without SSSE3.
    #[inline]
    pub(crate) fn four_byte_blocks(self, src: &[u8], out: &mut Out<'_>) -> usize {
        #[cfg(wirebytes_x86_kernels)]
        if self.has(Self::SSSE3) {
            // SAFETY: `four_byte_blocks_ssse3` needs SSSE3 and nothing else, and the bit is
            // set only where `detect` saw the CPU has it.
            // The kernel initialises every byte it counts as written, from the start of
            // the room (its contract above), so `with_room` may count them.
            let read = unsafe { out.with_room(|dst| x86_64::four_byte_blocks_ssse3(src, dst)) };
            counters::add(Path::FourByteBlocksSsse3, read);
            counters::add(Path::FourByteCallsSsse3, usize::from(read > 0));
            return read;
        }
        let _ = (src, out);
        0
    }
}

#[cfg(test)]
mod tests {
    use super::Kernels;

    #[test]
    fn the_levels_start_portable_and_grow() {
        let levels: std::vec::Vec<_> = Kernels::levels().collect();
        assert_eq!(levels[0], ("portable", Kernels(0)));
        let named = |bits: u8| {
            Kernels::LEVELS
                .iter()
                .find(|&&(_, b)| b == bits)
                .map(|&(n, _)| n)
        };
        assert_eq!(named(Kernels::SSSE3), Some("ssse3"));
        assert_eq!(named(Kernels::SSSE3 | Kernels::AVX2), Some("avx2"));
        assert_eq!(
            named(Kernels::SSSE3 | Kernels::AVX2 | Kernels::AVX512),
            Some("avx512")
        );
        for pair in levels.windows(2) {
            let ((_, lower), (_, higher)) = (pair[0], pair[1]);
            assert!(higher.has(lower.0) && higher != lower, "{levels:?}");
        }
        let (_, last) = levels[levels.len() - 1];
        assert_eq!(last, Kernels::detect());
    }

    /// The cached answer is the CPU's, so the tests that go through the levels do run every
    /// kernel this CPU has.
    #[cfg(all(wirebytes_x86_kernels, feature = "std"))]
    #[test]
    fn detect_sees_what_the_cpu_has() {
        use std::is_x86_feature_detected as has;
        let found = Kernels::detect();
        assert_eq!(found.has(Kernels::AVX2), has!("avx2"));
        assert_eq!(found.has(Kernels::SSSE3), has!("ssse3") && has!("popcnt"));
        #[cfg(wirebytes_avx512)]
        assert_eq!(
            found.has(Kernels::AVX512),
            has!("avx512vbmi2") && has!("avx512bw")
        );
        #[cfg(not(wirebytes_avx512))]
        assert!(!found.has(Kernels::AVX512));
        assert_eq!(Kernels::detect(), found, "the cached answer");
    }

    /// After the first call the answer is kept, marked as known (the top bit), so later
    /// calls do not ask the CPU again.
    #[test]
    fn detect_keeps_its_answer() {
        use core::sync::atomic::Ordering;
        let found = Kernels::detect();
        assert_eq!(super::FOUND.load(Ordering::Relaxed), found.0 | 0x80);
        assert_eq!(Kernels::detect(), found);
    }

    /// The detected level is the highest one whose features (listed here, apart from the
    /// code under test) the CPU reports and the compiler built kernels for, and the level
    /// names are the list up to it, in order.
    #[cfg(feature = "std")]
    #[test]
    fn the_detected_level_is_the_highest_the_cpu_and_the_build_have() {
        #[cfg(target_arch = "x86_64")]
        use std::is_x86_feature_detected as has;
        let levels: [(&str, bool); 4] = [
            ("portable", true),
            #[cfg(all(target_arch = "x86_64", wirebytes_x86_kernels))]
            ("ssse3", has!("ssse3") && has!("popcnt")),
            #[cfg(not(all(target_arch = "x86_64", wirebytes_x86_kernels)))]
            ("ssse3", false),
            #[cfg(all(target_arch = "x86_64", wirebytes_x86_kernels))]
            ("avx2", has!("avx2")),
            #[cfg(not(all(target_arch = "x86_64", wirebytes_x86_kernels)))]
            ("avx2", false),
            #[cfg(all(target_arch = "x86_64", wirebytes_avx512))]
            (
                "avx512",
                has!("avx512f")
                    && has!("avx512bw")
                    && has!("avx512vbmi")
                    && has!("avx512vbmi2")
                    && has!("popcnt"),
            ),
            #[cfg(not(all(target_arch = "x86_64", wirebytes_avx512)))]
            ("avx512", false),
        ];
        // Each level holds the ones before: the list goes up to the first level missing.
        let expected: std::vec::Vec<&str> = levels
            .iter()
            .take_while(|&&(_, has)| has)
            .map(|&(name, _)| name)
            .collect();
        let names: std::vec::Vec<&str> = Kernels::levels().map(|(name, _)| name).collect();
        assert_eq!(names, expected);
        let bits = [0, 0b001, 0b011, 0b111];
        let top = Kernels(bits[expected.len() - 1]);
        assert_eq!(Kernels::detect(), top, "detected, against {expected:?}");
        for (i, (_, kernels)) in Kernels::levels().enumerate() {
            assert_eq!(kernels, Kernels(bits[i]), "{}", expected[i]);
        }
    }
}
