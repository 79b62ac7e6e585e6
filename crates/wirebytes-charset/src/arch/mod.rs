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
//! - [`Kernels::ascii_widen`] (AVX2, and AVX-512 F and BW for 64 bytes per step:
//!   `x86_64/ascii_widen.rs`), for `crate::unicode`'s UTF-8 to UTF-16 and UTF-32 decoder on
//!   ASCII runs, oracle: each byte `b` as the unit `b` (UTF-16: `[0, b]` big-endian, `[b, 0]`
//!   little-endian; UTF-32: `[0, 0, 0, b]`, `[b, 0, 0, 0]`).
//!   - Reads `src` 32 (or 64) bytes at a time while a step's bytes are all ASCII and `dst`
//!     has room for their units, and never past `src`.
//!   - Writes the bytes of each of those units to `dst` from its start, and nothing else.
//!   - Returns `Some(read)`: the bytes widened, `32 * (m / 32)` where `m` is the least of
//!     `src.len()`, the offset of its first non-ASCII byte and `dst.len()` divided by the
//!     unit's size. Nothing done: `None`, `dst` untouched.
//!
//! - [`Kernels::utf8_units`] (AVX-512 F, BW, VBMI2 and POPCNT: `x86_64/utf8_units.rs`; AVX2
//!   and POPCNT: `x86_64/utf8_units_avx2.rs`), for `crate::unicode`'s UTF-8 to UTF-16 and
//!   UTF-32 decoder on text that is not all ASCII, oracle `str::encode_utf16` and
//!   `str::chars`.
//!   - Reads `src` (valid UTF-8 from a char boundary) in steps: 32 bytes and the one after
//!     them where no char longer than two bytes starts in the 32 (16-bit lanes), else, with
//!     AVX-512, 16 bytes and the 3 after them; with AVX2, 15 bytes and the 3 after them to
//!     UTF-16 (16-bit lanes, a low surrogate in the lane after its char's lead byte), 16
//!     and the 3 after them to UTF-32 (where those are not there, 8 and the 8 after them).
//!     It goes on while those bytes are in `src`, the step does
//!     not begin a run of 64 ASCII bytes (UTF-16: nor four 3-byte chars, the 3-byte-run
//!     kernel's; with AVX2, four that start in one of its first four bytes) and `dst` has
//!     room for the step's stores from the next unit on (64 bytes; 128 for a 32-byte step to
//!     UTF-32); never past `src`.
//!   - Writes the units of every char that starts in a step's bytes to `dst` from its start
//!     (UTF-16: a char above U+FFFF as its surrogate pair), in the byte order asked for, and
//!     zeros after them within each store.
//!   - Returns `Some((read, written))`: `read` the bytes up to the first char boundary after
//!     the last window taken (0 when none was), `written` the units of their chars. Nothing
//!     done: `None`.
//!
//! - [`Kernels::count_units`] (AVX2, or AVX-512 F and BW and POPCNT:
//!   `x86_64/count_units.rs`), for the exact sizes of UTF-16, UTF-32 and single-byte output,
//!   oracle `crate::unicode::utf16_units` and `crate::single_byte::count_chars`.
//!   - Reads all of `text`, writes nothing.
//!   - Returns `Some(n)`: the chars of `text`, or its UTF-16 units (a char above U+FFFF
//!     counts two). Nothing done: `None`.
//! - [`Kernels::latin1_bytes`] (AVX2, SSSE3 and POPCNT, or AVX-512 F, BW, VBMI2 and POPCNT
//!   for 64 bytes per step: `x86_64/latin1_bytes.rs`),
//!   for `crate::single_byte`'s tables that are Latin-1 from U+00A0 (with `c1`, from
//!   U+0080: the JDK's ISO-8859-1), oracle: each char's number, up to the first char it
//!   does not take.
//!   - Reads `src` (valid UTF-8 from a char boundary) 64 bytes at a time and the byte after
//!     them (the last step: the bytes left), and never past `src`. AVX2: 32 bytes and the
//!     byte after them; the last bytes through a stack copy.
//!   - Writes into `dst`, from its start, the byte of each char that starts in a step's
//!     bytes up to the first char it does not take (one above U+00FF, or without `c1` one in
//!     U+0080..=U+009F): the char's number. A step is taken while `dst` has room for its
//!     bytes (AVX2: 32 bytes of room). Its stores may write scratch bytes past the output:
//!     AVX-512 within the 64 bytes after the last byte it counts, AVX2 within the 8 after a
//!     step's bytes. They do so in a room that takes such writes (`Room::scratch`), and in
//!     the caller's slice only in steps that enough bytes of `src` follow to hold as many
//!     chars (AVX-512: 256 bytes, AVX2: 32; a char is at most 4 bytes): the caller writes
//!     a byte or more for each char of `src` after those the kernel reads (a single-byte
//!     charset writes each char as one byte or more, or fails), over the scratch bytes, or
//!     the slice holds nothing usable. Elsewhere AVX-512 stores under a mask and AVX2
//!     through a stack copy.
//!   - Returns `Some((read, written))`: `read` the bytes up to the char boundary after the
//!     last char taken (that char's or the stop's), `written` the bytes written, one per
//!     char. Nothing done: `None`.
//! - [`Kernels::utf16_latin1`] (AVX2, or AVX-512 F, BW and VBMI: `x86_64/utf16_latin1.rs`),
//!   for `crate::single_byte`'s UTF-16 input to the JDK's ISO-8859-1, oracle: each unit
//!   below U+0100 as its own byte, up to the first unit above U+00FF.
//!   - Reads `src` (UTF-16 units in the machine's byte order) from its start; AVX2 32 units
//!     a step while they are all below U+0100, AVX-512 64, then 32 under a mask up to the
//!     exact end of the run; never past `src`.
//!   - Writes the byte of each unit it takes into `dst` from its start (while `dst` has room
//!     for a step's bytes; AVX-512: up to the exact end of `dst`), and nothing else.
//!   - Returns `Some(n)`: the units taken, one byte each. AVX2: a multiple of 32; AVX-512:
//!     the least of the run's length, `src.len()` and `dst.len()`. Nothing done: `None`.
//! - [`Kernels::utf16_counts`] (AVX2, or AVX-512 F, BW and POPCNT: `x86_64/utf16_counts.rs`),
//!   for the exact sizes of UTF-16 input to UTF-8 and to single-byte charsets, oracle
//!   `crate::from_utf16::utf8_counts` (AVX2: the same loop, built for the wider vectors;
//!   AVX-512: mask populations).
//!   - Reads all of `units`, writes nothing.
//!   - Returns `Some((len, surrogates))`: the length of `units` as UTF-8 with every
//!     surrogate counted 3, and the number of surrogates. Nothing done: `None`.
//! - [`Kernels::utf16_pairs`] (AVX2, or AVX-512 F, BW and POPCNT: `x86_64/utf16_counts.rs`),
//!   for the same sizes where a text has surrogates, oracle `crate::from_utf16::pairs` (AVX2:
//!   the same loop, built for the wider vectors; AVX-512: mask populations).
//!   - Reads all of `units`, writes nothing.
//!   - Returns `Some(pairs)`: the high surrogates right before a low one. Nothing done:
//!     `None`.
//! - [`Kernels::utf16_max`] (AVX2, or AVX-512 F and BW: `x86_64/utf16_counts.rs`), for the
//!   same sizes where a text has no surrogate (or no unit above ASCII), oracle
//!   `crate::from_utf16::max_unit`.
//!   - Reads all of `units`, writes nothing.
//!   - Returns `Some(max)`: the greatest unit of `units`, 0 when it is empty. Nothing done:
//!     `None`.
//! - [`Kernels::utf16_utf8`] (AVX-512 F, BW, VBMI, VBMI2 and POPCNT: `x86_64/utf16_utf8.rs`;
//!   AVX2 and POPCNT, into a room that takes scratch writes: `x86_64/utf16_utf8_avx2.rs`),
//!   for `crate::from_utf16`'s UTF-16 input to UTF-8, oracle `char::decode_utf16` and
//!   `char::encode_utf8`.
//!   - Reads `src` (UTF-16 units in the machine's byte order) from its start in steps.
//!     AVX-512: 32 units where every surrogate among them is paired (31 where the 32nd is a
//!     high surrogate), else 16 where every surrogate among them is paired (15 where the
//!     16th is a high surrogate, left with its pair for the next step); fewer than 32 units
//!     left, all of them in one last step under a mask where every surrogate among them is
//!     paired (a high one last left out), else 16 as above; it stops at the first step it
//!     cannot take (an unpaired surrogate among the next 16 units, fewer than 16 units left
//!     with one, or too little room) and after the last step. AVX2: 16 units where every
//!     surrogate among them is
//!     paired (15 where the 16th is a high surrogate), while `dst` has 32 bytes of room (64
//!     where one is above U+07FF). Never past `src`.
//!   - Writes the UTF-8 of each char it takes into `dst` from its start (a pair as one char
//!     of four bytes), each step while `dst` has room for its bytes. Past them, where the
//!     room takes scratch bytes or the caller writes over them (`covered`), bytes within the
//!     64 after a step's start (AVX2 always, and so only there; AVX-512 plain 64-byte
//!     stores); nothing else.
//!   - Returns `Some((read, written))`: the units taken (whole steps, never half a pair) and
//!     the bytes written. Nothing done: `None`.
//!
//! The kernels that decode to UTF-16, UTF-32 or Latin-1 write into a [`Room`], which may be
//! a `Vec`'s spare capacity: the `dst` they are given is its tail, not initialised, and the
//! bytes they say they wrote (from its start) are counted as written; so they write every one
//! of those bytes and never an uninitialised one.
//!
//! # Levels
//!
//! The sets of kernels the tests, sweeps and benches run by name ([`Kernels::levels`]):
//! "portable" (none), "ssse3" (the Latin-1 window, table window and 3-byte-run kernels),
//! "avx2" (those, the 3-byte-run kernel sixteen chars per step, the ASCII widening, the
//! Latin-1 writer, the counts and the all-ASCII check, and for UTF-16 input the Latin-1
//! packing, the UTF-8 writer and the counts), "avx512" (all: the AVX-512 table
//! window takes every single-byte table's windows but for windows-1252 and ISO-8859-1, whose
//! Latin-1 text the AVX-512 Latin-1 writer takes in one call).
//!
//! # Why `unsafe`
//!
//! Measured with criterion on an AMD EPYC (`charset/encode`, windows-1252, 4096 chars): with
//! the SSSE3 kernel, accent-dense Latin-1 text encodes in 1.6-1.7 µs against encoding_rs's
//! 9.5-10.9 µs; with the standard library's `is_ascii` (16-byte vectors) in place of the
//! AVX2 check, an all-ASCII body took 1.54-1.66x a plain `to_vec`.

use std::sync::atomic::{AtomicU8, Ordering};

use crate::counters::{Path, add};
use crate::sink::Room;

#[cfg(wirebytes_x86_kernels)]
mod x86_64;

use crate::latin1::WINDOW;
use crate::single_byte::{BLOCK, PAIRS};

/// The bytes of UTF-8 that follow what the kernel of any UTF-8 reads straight into a room
/// that takes no scratch bytes. Their units, at least 83 bytes (two or more for each three
/// bytes of text, less the three bytes of a char the kernel's last step may end in), cover
/// the scratch bytes its stores leave past its output: at most 68, a 128-byte UTF-32 store
/// of 15 chars or more (a 64-byte UTF-16 store holds 10 bytes of units or more).
#[cfg(wirebytes_x86_kernels)]
const UNITS_COVER: usize = 128;

/// The text that the kernel of any UTF-8 writes through a staging buffer into a room that
/// takes no scratch bytes: the last bytes, at most this many.
#[cfg(wirebytes_x86_kernels)]
const STAGED_TEXT: usize = 2 * UNITS_COVER;

/// The staging buffer's length: the UTF-32 units of [`STAGED_TEXT`] bytes and the widest
/// step's scratch bytes past them.
#[cfg(wirebytes_x86_kernels)]
const STAGE: usize = 4 * STAGED_TEXT + 128;

/// `i`, or the start of the char it falls in, in UTF-8 `src`.
#[cfg(wirebytes_x86_kernels)]
#[inline(always)]
fn char_floor(src: &[u8], mut i: usize) -> usize {
    while i > 0 && src.get(i).is_some_and(|&b| b & 0xC0 == 0x80) {
        i -= 1;
    }
    i
}

/// Runs a kernel that writes into `room` from byte `at` on (within its written front):
/// `kernel` gets the room's tail and returns what it read and the bytes it wrote from the
/// tail's start, which the room then counts as written. `(0, 0)` when `at` is past the front.
///
/// # Safety
///
/// `kernel` writes only initialised bytes into the tail, and every one of the bytes it says
/// it wrote (the module docs' contract).
#[cfg(wirebytes_x86_kernels)]
#[inline(always)]
unsafe fn into_room(
    room: &mut Room<'_>,
    at: usize,
    kernel: impl FnOnce(&mut [std::mem::MaybeUninit<u8>]) -> (usize, usize),
) -> (usize, usize) {
    // SAFETY: `kernel` writes only initialised bytes (the caller's promise), and `wrote_tail`
    // below is told of the bytes it says it wrote.
    let Some(dst) = (unsafe { room.tail(at) }) else {
        return (0, 0);
    };
    let (read, wrote) = kernel(dst);
    // SAFETY: `kernel` wrote those bytes from the tail's start (the caller's promise).
    unsafe { room.wrote_tail(at, wrote) };
    (read, wrote)
}

/// What the CPU says it has, of the features the kernels need.
#[cfg_attr(
    not(wirebytes_x86_kernels),
    allow(dead_code, reason = "no x86 kernel: nothing to ask")
)]
#[derive(Debug, Clone, Copy)]
struct Features {
    /// SSSE3.
    ssse3: bool,
    /// POPCNT.
    popcnt: bool,
    /// AVX2.
    avx2: bool,
    /// AVX-512 F.
    avx512f: bool,
    /// AVX-512 BW.
    avx512bw: bool,
    /// AVX-512 VBMI.
    avx512vbmi: bool,
    /// AVX-512 VBMI2.
    avx512vbmi2: bool,
}

/// The SIMD kernels this CPU can run. Only [`detect`](Self::detect) reads the CPU; every
/// other value is a subset of what it found (the levels), so a set bit proves the CPU has the
/// instructions and the methods below are safe to call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Kernels(u8);

/// What [`Kernels::detect`] found, with [`KNOWN`] set once it asked.
static DETECTED: AtomicU8 = AtomicU8::new(0);

/// The most bytes past its output [`Kernels::utf16_utf8`] writes where it may (into a
/// room that takes scratch bytes, or whose caller writes over them): the AVX2 kernel's
/// steps stay within 64 bytes of where they start, and the AVX-512 kernel's plain stores
/// are 64 bytes wide.
pub(crate) const UTF16_UTF8_SCRATCH: usize = 64;

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
        add(Path::Detect, 1);
        #[cfg(wirebytes_x86_kernels)]
        let bits = Self::bits(&Features {
            ssse3: std::is_x86_feature_detected!("ssse3"),
            popcnt: std::is_x86_feature_detected!("popcnt"),
            avx2: std::is_x86_feature_detected!("avx2"),
            avx512f: std::is_x86_feature_detected!("avx512f"),
            avx512bw: std::is_x86_feature_detected!("avx512bw"),
            avx512vbmi: std::is_x86_feature_detected!("avx512vbmi"),
            avx512vbmi2: std::is_x86_feature_detected!("avx512vbmi2"),
        });
        #[cfg(not(wirebytes_x86_kernels))]
        let bits = 0;
        DETECTED.store(bits | KNOWN, Ordering::Relaxed);
        Kernels(bits)
    }

    /// The kernel bits of a CPU with `features`: SSSE3 and POPCNT for the SSSE3 kernels,
    /// AVX2 for the AVX2 ones, AVX-512 F, BW, VBMI, VBMI2 and POPCNT for the AVX-512 ones
    /// (where the compiler built them).
    #[cfg_attr(
        not(wirebytes_x86_kernels),
        allow(dead_code, reason = "no x86 kernel: nothing to ask")
    )]
    fn bits(features: &Features) -> u8 {
        let ssse3 = features.ssse3 && features.popcnt;
        // A compiler without the AVX-512 intrinsics built no AVX-512 kernel.
        let avx512 = cfg!(wirebytes_avx512)
            && features.avx512f
            && features.avx512bw
            && features.avx512vbmi
            && features.avx512vbmi2
            && features.popcnt;
        (if ssse3 { Self::SSSE3 } else { 0 })
            | (if features.avx2 { Self::AVX2 } else { 0 })
            | (if avx512 { Self::AVX512 } else { 0 })
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
            let taken = unsafe { x86_64::latin1_window_ssse3(window, dst) };
            if taken.is_some() {
                add(Path::Latin1WindowSsse3, BLOCK);
            }
            return Some(taken);
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
            return self.three_byte_utf16_bytes(src, &mut Room::new(bytes), 0, false);
        }
        let _ = (src, dst);
        None
    }

    /// The 3-byte-run kernel (see the [module docs](self)) writing each unit's two bytes into
    /// `room` from byte `at` on (within its written front), big-endian when `big_endian`, else
    /// little-endian: `None` without SSSE3, else the bytes of `src` read and the units
    /// written (two bytes each). With AVX2, sixteen chars per step.
    #[inline]
    pub(crate) fn three_byte_utf16_bytes(
        self,
        src: &[u8],
        room: &mut Room<'_>,
        at: usize,
        big_endian: bool,
    ) -> Option<(usize, usize)> {
        #[cfg(wirebytes_x86_kernels)]
        if self.0 & Self::SSSE3 != 0 {
            let avx2 = self.0 & Self::AVX2 != 0;
            let kernel = |dst: &mut [std::mem::MaybeUninit<u8>]| {
                // SAFETY: `three_byte_utf16_avx2` requires AVX2 (which has SSSE3) and
                // nothing else, `three_byte_utf16_ssse3` SSSE3 and nothing else; each bit
                // is set only when `detect` saw the CPU has the feature.
                let (read, units) = unsafe {
                    match (avx2, big_endian) {
                        (true, true) => x86_64::three_byte_utf16_avx2::<true>(src, dst),
                        (true, false) => x86_64::three_byte_utf16_avx2::<false>(src, dst),
                        (false, true) => x86_64::three_byte_utf16_ssse3::<true>(src, dst),
                        (false, false) => x86_64::three_byte_utf16_ssse3::<false>(src, dst),
                    }
                };
                (read, 2 * units)
            };
            // SAFETY: the kernels write only initialised bytes, the two bytes of each unit they
            // count (the module docs' contract).
            let (read, wrote) = unsafe { into_room(room, at, kernel) };
            let done = (read, wrote / 2);
            let path = if avx2 {
                Path::ThreeByteUtf16Avx2
            } else {
                Path::ThreeByteUtf16Ssse3
            };
            add(path, done.0);
            return Some(done);
        }
        let _ = (src, room, at, big_endian);
        None
    }

    /// The ASCII-run kernel writing each ASCII byte of `src` as a UTF-16 unit's two bytes
    /// (a UTF-32 unit's four when `utf32`) into `room` from byte `at` on (within its written
    /// front), big-endian when `big_endian`, else little-endian, in whole steps (32 bytes
    /// with AVX2, 64 with AVX-512) while a step's bytes are all ASCII and the room has space
    /// for their units: `None` without AVX2, else the bytes of `src` read (each one unit).
    #[inline]
    pub(crate) fn ascii_widen(
        self,
        src: &[u8],
        room: &mut Room<'_>,
        at: usize,
        utf32: bool,
        big_endian: bool,
    ) -> Option<usize> {
        #[cfg(wirebytes_x86_kernels)]
        if self.0 & Self::AVX2 != 0 {
            let avx512 = cfg!(wirebytes_avx512) && self.0 & Self::AVX512 != 0;
            let unit = if utf32 { 4 } else { 2 };
            let kernel = |dst: &mut [std::mem::MaybeUninit<u8>]| {
                #[cfg(wirebytes_avx512)]
                if avx512 {
                    // SAFETY: `ascii_widen_avx512` requires AVX-512 F and BW and AVX2, and
                    // nothing else; the bit is set only when `detect` saw the CPU has
                    // AVX-512 F, BW, VBMI, VBMI2 and POPCNT, and every level with it has
                    // the AVX2 bit too (AVX-512 F implies AVX2).
                    let read = unsafe {
                        match (utf32, big_endian) {
                            (false, true) => x86_64::ascii_widen_avx512::<2, true>(src, dst),
                            (false, false) => x86_64::ascii_widen_avx512::<2, false>(src, dst),
                            (true, true) => x86_64::ascii_widen_avx512::<4, true>(src, dst),
                            (true, false) => x86_64::ascii_widen_avx512::<4, false>(src, dst),
                        }
                    };
                    return (read, unit * read);
                }
                // SAFETY: `ascii_widen_avx2` requires AVX2 and nothing else; the bit is
                // set only when `detect` saw the CPU has it.
                let read = unsafe {
                    match (utf32, big_endian) {
                        (false, true) => x86_64::ascii_widen_avx2::<2, true>(src, dst),
                        (false, false) => x86_64::ascii_widen_avx2::<2, false>(src, dst),
                        (true, true) => x86_64::ascii_widen_avx2::<4, true>(src, dst),
                        (true, false) => x86_64::ascii_widen_avx2::<4, false>(src, dst),
                    }
                };
                (read, unit * read)
            };
            // SAFETY: the kernels write only initialised bytes, the unit of each byte they
            // read (the module docs' contract).
            let (read, _) = unsafe { into_room(room, at, kernel) };
            let path = match (avx512, utf32) {
                (true, true) => Path::AsciiUtf32Avx512,
                (true, false) => Path::AsciiUtf16Avx512,
                (false, true) => Path::AsciiUtf32Avx2,
                (false, false) => Path::AsciiUtf16Avx2,
            };
            add(path, read);
            return Some(read);
        }
        let _ = (src, room, at, utf32, big_endian);
        None
    }

    /// The kernel of UTF-8 of any kind to UTF-16 (or UTF-32 when `utf32`) units, written
    /// into `room` from byte `at` on (within its written front), big-endian when
    /// `big_endian`, else little-endian: `None` below the AVX-512 level, else the bytes of
    /// `src` read (up to a char boundary) and the units written.
    #[inline]
    pub(crate) fn utf8_units(
        self,
        src: &[u8],
        room: &mut Room<'_>,
        at: usize,
        utf32: bool,
        big_endian: bool,
    ) -> Option<(usize, usize)> {
        #[cfg(wirebytes_x86_kernels)]
        if self.decodes_any_utf8() {
            let avx512 = cfg!(wirebytes_avx512) && self.0 & Self::AVX512 != 0;
            let unit = if utf32 { 4 } else { 2 };
            let kernel = |src: &[u8], dst: &mut [std::mem::MaybeUninit<u8>]| {
                #[cfg(wirebytes_avx512)]
                if avx512 {
                    // SAFETY: `utf8_units_avx512` requires AVX-512 F, BW, VBMI, VBMI2 and POPCNT,
                    // and nothing else; the bit is set only when `detect` saw the CPU has
                    // AVX-512 F, BW, VBMI, VBMI2 and POPCNT.
                    let (read, units) = unsafe {
                        match (utf32, big_endian) {
                            (false, true) => x86_64::utf8_units_avx512::<false, true>(src, dst),
                            (false, false) => x86_64::utf8_units_avx512::<false, false>(src, dst),
                            (true, true) => x86_64::utf8_units_avx512::<true, true>(src, dst),
                            (true, false) => x86_64::utf8_units_avx512::<true, false>(src, dst),
                        }
                    };
                    return (read, unit * units);
                }
                // SAFETY: `utf8_units_avx2` requires AVX2 and POPCNT, and nothing else; below
                // the AVX-512 level `decodes_any_utf8` holds only with the AVX2 bit (set only
                // when `detect` saw the CPU has AVX2) and the SSSE3 bit (only when it saw
                // SSSE3 and POPCNT).
                let (read, units) = unsafe {
                    match (utf32, big_endian) {
                        (false, true) => x86_64::utf8_units_avx2::<false, true>(src, dst),
                        (false, false) => x86_64::utf8_units_avx2::<false, false>(src, dst),
                        (true, true) => x86_64::utf8_units_avx2::<true, true>(src, dst),
                        (true, false) => x86_64::utf8_units_avx2::<true, false>(src, dst),
                    }
                };
                (read, unit * units)
            };
            // Into a room that takes no scratch bytes, the kernel writes straight into the
            // room only the text that `UNITS_COVER` bytes follow (their units write over its
            // scratch bytes); the last `STAGED_TEXT` bytes or fewer go through a staging
            // buffer, of which the units alone are copied.
            let direct = room.scratch() || src.len() > STAGED_TEXT;
            let (read, wrote) = if direct {
                let end = if room.scratch() {
                    src.len()
                } else {
                    char_floor(src, src.len() - UNITS_COVER)
                };
                let text = src.get(..end).unwrap_or_default();
                // SAFETY: the kernels write only initialised bytes, each unit they count (the
                // module docs' contract).
                unsafe { into_room(room, at, |dst| kernel(text, dst)) }
            } else {
                // SAFETY: the closure copies into the room's tail the units the kernel counts,
                // from the staging buffer where the kernel initialised them (its contract),
                // and says it wrote those bytes alone (none when the copy does not fit).
                unsafe {
                    into_room(room, at, |dst| {
                        let mut stage = [std::mem::MaybeUninit::<u8>::uninit(); STAGE];
                        let len = dst.len().min(STAGE);
                        let (read, wrote) = kernel(src, stage.get_mut(..len).unwrap_or_default());
                        match (dst.get_mut(..wrote), stage.get(..wrote)) {
                            (Some(out), Some(units)) => {
                                out.copy_from_slice(units);
                                (read, wrote)
                            }
                            _ => (0, 0),
                        }
                    })
                }
            };
            let path = if avx512 {
                Path::Utf8UnitsAvx512
            } else {
                Path::Utf8UnitsAvx2
            };
            add(path, read);
            return Some((read, wrote / unit));
        }
        let _ = (src, room, at, utf32, big_endian);
        None
    }

    /// The kernel of UTF-16 units below U+0100 to Latin-1 bytes (see the
    /// [module docs](self)), written into `room` from byte `at` on (within its written
    /// front): `None` without AVX2, else the units of `src` taken, one byte each.
    #[inline]
    pub(crate) fn utf16_latin1(self, src: &[u16], room: &mut Room<'_>, at: usize) -> Option<usize> {
        #[cfg(wirebytes_x86_kernels)]
        if self.0 & Self::AVX2 != 0 {
            let avx512 = cfg!(wirebytes_avx512) && self.0 & Self::AVX512 != 0;
            let kernel = |dst: &mut [std::mem::MaybeUninit<u8>]| {
                #[cfg(wirebytes_avx512)]
                if avx512 {
                    // SAFETY: `utf16_latin1_avx512` requires AVX-512 F, BW and VBMI, and
                    // nothing else; the bit is set only when `detect` saw the CPU has
                    // AVX-512 F, BW, VBMI, VBMI2 and POPCNT.
                    let n = unsafe { x86_64::utf16_latin1_avx512(src, dst) };
                    return (n, n);
                }
                // SAFETY: `utf16_latin1_avx2` requires AVX2 and nothing else; the bit is set
                // only when `detect` saw the CPU has it.
                let n = unsafe { x86_64::utf16_latin1_avx2(src, dst) };
                (n, n)
            };
            // SAFETY: the kernels write only initialised bytes, the byte of each unit they
            // take (the module docs' contract).
            let (read, _) = unsafe { into_room(room, at, kernel) };
            let path = if avx512 {
                Path::Utf16Latin1Avx512
            } else {
                Path::Utf16Latin1Avx2
            };
            add(path, read);
            return Some(read);
        }
        let _ = (src, room, at);
        None
    }

    /// The counts of UTF-16 input (see the [module docs](self)): `None` without AVX2, else
    /// its length as UTF-8 with every surrogate counted 3, and its surrogates.
    #[inline]
    pub(crate) fn utf16_counts(self, units: &[u16]) -> Option<(usize, usize)> {
        #[cfg(wirebytes_avx512)]
        if self.0 & Self::AVX512 != 0 {
            add(Path::Utf16CountsAvx512, units.len());
            // SAFETY: `utf16_counts_avx512` requires AVX-512 F and BW, AVX2 and POPCNT, and
            // nothing else; the bit is set only when `detect` saw the CPU has AVX-512 F, BW,
            // VBMI, VBMI2 and POPCNT, and AVX-512 F implies AVX2.
            return Some(unsafe { x86_64::utf16_counts_avx512(units) });
        }
        #[cfg(wirebytes_x86_kernels)]
        if self.0 & Self::AVX2 != 0 {
            add(Path::Utf16CountsAvx2, units.len());
            // SAFETY: `utf16_counts_avx2` requires AVX2 and nothing else; the bit is set only
            // when `detect` saw the CPU has it.
            return Some(unsafe { x86_64::utf16_counts_avx2(units) });
        }
        let _ = units;
        None
    }

    /// The surrogate pairs of `units` (see the [module docs](self)): `None` without AVX2.
    #[inline]
    pub(crate) fn utf16_pairs(self, units: &[u16]) -> Option<usize> {
        #[cfg(wirebytes_avx512)]
        if self.0 & Self::AVX512 != 0 {
            add(Path::Utf16PairsAvx512, units.len());
            // SAFETY: `utf16_pairs_avx512` requires AVX-512 F and BW, AVX2 and POPCNT, and
            // nothing else; the bit is set only when `detect` saw the CPU has AVX-512 F, BW,
            // VBMI, VBMI2 and POPCNT, and AVX-512 F implies AVX2.
            return Some(unsafe { x86_64::utf16_pairs_avx512(units) });
        }
        #[cfg(wirebytes_x86_kernels)]
        if self.0 & Self::AVX2 != 0 {
            add(Path::Utf16PairsAvx2, units.len());
            // SAFETY: `utf16_pairs_avx2` requires AVX2 and nothing else; the bit is set only
            // when `detect` saw the CPU has it.
            return Some(unsafe { x86_64::utf16_pairs_avx2(units) });
        }
        let _ = units;
        None
    }

    /// The greatest unit of `units` (see the [module docs](self)): `None` without AVX2.
    #[inline]
    pub(crate) fn utf16_max(self, units: &[u16]) -> Option<u16> {
        #[cfg(wirebytes_avx512)]
        if self.0 & Self::AVX512 != 0 {
            add(Path::Utf16MaxAvx512, units.len());
            // SAFETY: `utf16_max_avx512` requires AVX-512 F and BW and AVX2, and nothing
            // else; the bit is set only when `detect` saw the CPU has AVX-512 F, BW, VBMI,
            // VBMI2 and POPCNT, and AVX-512 F implies AVX2.
            return Some(unsafe { x86_64::utf16_max_avx512(units) });
        }
        #[cfg(wirebytes_x86_kernels)]
        if self.0 & Self::AVX2 != 0 {
            add(Path::Utf16MaxAvx2, units.len());
            // SAFETY: `utf16_max_avx2` requires AVX2 and nothing else; the bit is set only
            // when `detect` saw the CPU has it.
            return Some(unsafe { x86_64::utf16_max_avx2(units) });
        }
        let _ = units;
        None
    }

    /// The kernel of UTF-16 units to UTF-8 (see the [module docs](self)), written into `room`
    /// from byte `at` on (within its written front): `None` below the AVX2 level, and at the
    /// AVX2 level where no unit is covered; else the units of `src` taken and the bytes
    /// written. `covered`: the first units of `src` after whose output the caller writes at
    /// least [`UTF16_UTF8_SCRATCH`] more bytes into the room, so that bytes written past it
    /// are written over (all of them where the room takes scratch bytes). The AVX2 kernel
    /// takes only those.
    #[inline]
    pub(crate) fn utf16_utf8(
        self,
        src: &[u16],
        room: &mut Room<'_>,
        at: usize,
        covered: usize,
    ) -> Option<(usize, usize)> {
        let scratch = room.scratch();
        let covered = if scratch {
            src.len()
        } else {
            covered.min(src.len())
        };
        #[cfg(wirebytes_avx512)]
        if self.0 & Self::AVX512 != 0 {
            // SAFETY: `utf16_utf8_avx512` requires AVX-512 F, BW, VBMI, VBMI2 and POPCNT,
            // and nothing else; the bit is set only when `detect` saw the CPU has AVX-512 F, BW,
            // VBMI, VBMI2 and POPCNT.
            let kernel = |dst: &mut [std::mem::MaybeUninit<u8>]| unsafe {
                x86_64::utf16_utf8_avx512(src, dst, covered)
            };
            // SAFETY: the kernel writes only initialised bytes, the UTF-8 of each unit it
            // takes, and past them only in the covered steps, whose bytes past the output the
            // room takes or the caller writes over (the module docs' contract).
            let done = unsafe { into_room(room, at, kernel) };
            add(Path::Utf16Utf8Avx512, done.0);
            return Some(done);
        }
        #[cfg(wirebytes_x86_kernels)]
        if self.0 & Self::AVX2 != 0 && (scratch || covered > 0) {
            let src = &src[..covered];
            // SAFETY: `utf16_utf8_avx2` requires AVX2 and POPCNT, and nothing else; the bit is
            // set only when `detect` saw the CPU has AVX2 and POPCNT.
            let kernel = |dst: &mut [std::mem::MaybeUninit<u8>]| unsafe {
                x86_64::utf16_utf8_avx2(src, dst)
            };
            // SAFETY: the kernel writes only initialised bytes: the UTF-8 of each unit it
            // takes, and scratch bytes past them, which the room takes or the caller writes
            // over (the module docs' contract).
            let done = unsafe { into_room(room, at, kernel) };
            add(Path::Utf16Utf8Avx2, done.0);
            return Some(done);
        }
        let _ = (src, room, at, scratch, covered);
        None
    }

    /// Whether [`utf16_utf8`](Self::utf16_utf8) has a kernel for a room that takes scratch
    /// writes (or whose caller writes over them) or not (`scratch`): AVX-512, or AVX2 where
    /// `scratch`.
    #[inline]
    pub(crate) fn has_utf16_utf8(self, scratch: bool) -> bool {
        (cfg!(wirebytes_avx512) && self.0 & Self::AVX512 != 0)
            || (cfg!(wirebytes_x86_kernels) && scratch && self.0 & Self::AVX2 != 0)
    }

    /// Whether [`utf8_units`](Self::utf8_units) has a kernel (AVX2 with POPCNT, or AVX-512).
    #[inline]
    pub(crate) fn decodes_any_utf8(self) -> bool {
        (cfg!(wirebytes_avx512) && self.0 & Self::AVX512 != 0)
            || (cfg!(wirebytes_x86_kernels)
                && self.0 & (Self::AVX2 | Self::SSSE3) == Self::AVX2 | Self::SSSE3)
    }

    /// The kernel of UTF-8 to Latin-1 bytes, written into `room` from byte `at` on (within
    /// its written front): each char of U+0000..=U+00FF as the byte of its number, the chars
    /// U+0080..=U+009F only when `c1`. `None` without AVX2 and SSSE3, else the bytes of `src`
    /// read (up to a char boundary) and the bytes written. Into a room that takes no
    /// [scratch](Room::scratch) writes, the caller writes a byte or more for each char of
    /// `src` after those read, or throws the room's bytes away (see the [module
    /// docs](self)).
    #[inline]
    pub(crate) fn latin1_bytes(
        self,
        src: &[u8],
        room: &mut Room<'_>,
        at: usize,
        c1: bool,
    ) -> Option<(usize, usize)> {
        let avx512 = cfg!(wirebytes_avx512) && self.0 & Self::AVX512 != 0;
        #[cfg(wirebytes_x86_kernels)]
        if self.has_latin1_bytes() {
            let scratch = room.scratch();
            let kernel = |dst: &mut [std::mem::MaybeUninit<u8>]| {
                #[cfg(wirebytes_avx512)]
                if avx512 {
                    // SAFETY: `latin1_bytes_avx512` requires AVX-512 F, BW, VBMI2 and
                    // POPCNT, and nothing else; the bit is set only when `detect` saw the CPU
                    // has AVX-512 F, BW, VBMI, VBMI2 and POPCNT. It writes past its output
                    // where the room takes such writes (`scratch`), or where the caller
                    // writes over them (this function's contract).
                    return unsafe {
                        if c1 {
                            x86_64::latin1_bytes_avx512::<true>(src, dst, scratch)
                        } else {
                            x86_64::latin1_bytes_avx512::<false>(src, dst, scratch)
                        }
                    };
                }
                // SAFETY: `latin1_bytes_avx2` requires AVX2 and POPCNT, and nothing else; the
                // AVX2 bit is set only when `detect` saw the CPU has AVX2, and the SSSE3 bit
                // (which `has_latin1_bytes` asks for too) only when it saw POPCNT. It writes
                // past its output as the AVX-512 kernel does.
                unsafe {
                    if c1 {
                        x86_64::latin1_bytes_avx2::<true>(src, dst, scratch)
                    } else {
                        x86_64::latin1_bytes_avx2::<false>(src, dst, scratch)
                    }
                }
            };
            // SAFETY: the kernels write only initialised bytes, each byte they count (the
            // module docs' contract).
            let done = unsafe { into_room(room, at, kernel) };
            let path = if avx512 {
                Path::Latin1BytesAvx512
            } else {
                Path::Latin1BytesAvx2
            };
            add(path, done.0);
            return Some(done);
        }
        let _ = (src, room, at, c1, avx512);
        None
    }

    /// The number of chars in `text` (of UTF-16 units when `utf16`: a char above U+FFFF is
    /// two): `None` without AVX2.
    #[inline]
    pub(crate) fn count_units(self, text: &str, utf16: bool) -> Option<usize> {
        #[cfg(wirebytes_avx512)]
        if self.0 & Self::AVX512 != 0 {
            // SAFETY: `count_units_avx512` requires AVX-512 F and BW and POPCNT, and nothing
            // else; the bit is set only when `detect` saw the CPU has AVX-512 F, BW, VBMI,
            // VBMI2 and POPCNT.
            let n = unsafe {
                if utf16 {
                    x86_64::count_units_avx512::<true>(text)
                } else {
                    x86_64::count_units_avx512::<false>(text)
                }
            };
            add(Path::CountUnitsAvx512, text.len());
            return Some(n);
        }
        #[cfg(wirebytes_x86_kernels)]
        if self.0 & Self::AVX2 != 0 {
            // SAFETY: `count_units_avx2` requires AVX2 and nothing else; the bit is set only
            // when `detect` saw the CPU has it.
            let n = unsafe {
                if utf16 {
                    x86_64::count_units_avx2::<true>(text)
                } else {
                    x86_64::count_units_avx2::<false>(text)
                }
            };
            add(Path::CountUnitsAvx2, text.len());
            return Some(n);
        }
        let _ = (text, utf16);
        None
    }

    /// Whether [`latin1_bytes`](Self::latin1_bytes) has a kernel (AVX2 with SSSE3 and
    /// POPCNT, or AVX-512).
    #[inline]
    pub(crate) fn has_latin1_bytes(self) -> bool {
        cfg!(wirebytes_x86_kernels)
            && self.0 & (Self::AVX2 | Self::SSSE3) == Self::AVX2 | Self::SSSE3
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
            let taken =
                unsafe { x86_64::table_window_avx512(window, pairs, ascii, question_marks, dst) };
            if taken.is_some() {
                add(Path::TableWindowAvx512, BLOCK);
            }
            return Some(taken);
        }
        // The SSSE3 kernel writes ASCII as itself.
        if ascii.is_some() {
            return None;
        }
        #[cfg(wirebytes_x86_kernels)]
        if self.0 & Self::SSSE3 != 0 {
            // SAFETY: `table_window_ssse3` requires SSSE3 and POPCNT and nothing else; the bit
            // is set only when `detect` saw the CPU has both.
            let taken = unsafe { x86_64::table_window_ssse3(window, pairs, question_marks, dst) };
            if taken.is_some() {
                add(Path::TableWindowSsse3, BLOCK);
            }
            return Some(taken);
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
            let done = unsafe { x86_64::byte_map_avx512(src, table, dst) };
            add(Path::ByteMapAvx512, done);
            return Some(done);
        }
        #[cfg(wirebytes_x86_kernels)]
        if self.0 & Self::SSSE3 != 0 {
            // SAFETY: `byte_map_ssse3` requires SSSE3 and nothing else; the bit is set only
            // when `detect` saw the CPU has it (and POPCNT).
            let done = unsafe { x86_64::byte_map_ssse3(src, table, dst) };
            add(Path::ByteMapSsse3, done);
            return Some(done);
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

    /// Whether [`ascii_widen`](Self::ascii_widen) has a kernel (AVX2).
    #[inline]
    pub(crate) fn widens_ascii_runs(self) -> bool {
        cfg!(wirebytes_x86_kernels) && self.0 & Self::AVX2 != 0
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
            let all = unsafe { x86_64::is_ascii_avx2(bytes) };
            add(Path::IsAsciiAvx2, bytes.len());
            return Some(all);
        }
        let _ = bytes;
        None
    }
}

#[cfg(test)]
mod avx2_utf8_model;

#[cfg(test)]
mod tests {
    use super::{DETECTED, Features, KNOWN, Kernels};
    use crate::latin1::WINDOW;
    use crate::single_byte::BLOCK;
    use crate::sink::Room;
    use std::sync::atomic::Ordering;

    /// The level names, lowest first, and the bits each one must have: written out here, apart
    /// from the code under test.
    const EXPECTED: [(&str, u8); 4] = [
        ("portable", 0b000),
        ("ssse3", 0b001),
        ("avx2", 0b011),
        ("avx512", 0b111),
    ];

    /// The index in [`EXPECTED`] of the highest level whose features this CPU reports and
    /// whose kernels this compiler built.
    fn expected_level() -> usize {
        #[cfg(wirebytes_x86_kernels)]
        {
            let ssse3 =
                std::is_x86_feature_detected!("ssse3") && std::is_x86_feature_detected!("popcnt");
            let avx2 = ssse3 && std::is_x86_feature_detected!("avx2");
            let avx512 = cfg!(wirebytes_avx512)
                && avx2
                && std::is_x86_feature_detected!("avx512f")
                && std::is_x86_feature_detected!("avx512bw")
                && std::is_x86_feature_detected!("avx512vbmi")
                && std::is_x86_feature_detected!("avx512vbmi2");
            usize::from(ssse3) + usize::from(avx2) + usize::from(avx512)
        }
        #[cfg(not(wirebytes_x86_kernels))]
        0
    }

    /// `detect` finds exactly the highest level the CPU and the compiler have, keeps it (with
    /// the bit that says it asked), and `levels` names the levels up to it, in order.
    #[test]
    fn detect_finds_the_highest_level_and_levels_name_those_up_to_it() {
        let level = expected_level();
        assert_eq!(Kernels::detect(), Kernels(EXPECTED[level].1));
        assert_eq!(DETECTED.load(Ordering::Relaxed), EXPECTED[level].1 | KNOWN);
        assert_eq!(Kernels::detect(), Kernels(EXPECTED[level].1));
        let levels: Vec<(&str, Kernels)> = Kernels::levels().collect();
        let expected: Vec<(&str, Kernels)> = EXPECTED[..=level]
            .iter()
            .map(|&(name, bits)| (name, Kernels(bits)))
            .collect();
        assert_eq!(levels, expected);
    }

    /// Once known, the CPU is not asked again: a thousand more `detect`s on this thread ask
    /// it never.
    #[cfg(feature = "__counters")]
    #[test]
    fn detect_asks_the_cpu_once() {
        let asked = || {
            crate::counting::counts()
                .find(|&(name, _)| name == "detect")
                .map_or(0, |(_, n)| n)
        };
        let _ = Kernels::detect();
        let before = asked();
        for _ in 0..1000 {
            let _ = Kernels::detect();
        }
        assert_eq!(asked() - before, 0, "questions");
    }

    /// The bits of every combination of the seven features: SSSE3 needs POPCNT too, AVX2
    /// stands alone, AVX-512 needs F, BW, VBMI, VBMI2, POPCNT and a compiler that built it.
    #[test]
    fn bits_follow_the_features() {
        for combination in 0u8..128 {
            let has = |k: u8| combination & (1 << k) != 0;
            let features = Features {
                ssse3: has(0),
                popcnt: has(1),
                avx2: has(2),
                avx512f: has(3),
                avx512bw: has(4),
                avx512vbmi: has(5),
                avx512vbmi2: has(6),
            };
            let mut expected = 0;
            if has(0) && has(1) {
                expected += 1;
            }
            if has(2) {
                expected += 2;
            }
            if cfg!(wirebytes_avx512) && (1..=6).filter(|&k| k != 2).all(has) {
                expected += 4;
            }
            assert_eq!(Kernels::bits(&features), expected, "{features:?}");
        }
    }

    /// The level's bits, looked up by name in [`EXPECTED`].
    fn bits_of(name: &str) -> u8 {
        EXPECTED
            .iter()
            .find(|&&(n, _)| n == name)
            .map_or(0, |&(_, bits)| bits)
    }

    /// Every slice of each of `texts` that starts in its first 64 bytes (every `step`-th
    /// start) and runs 0..=`max` bytes (every `step`-th length), both ends moved to char
    /// boundaries (the start forward, the end back): `(from, to, slice)`.
    fn slices<'a>(
        texts: &[&'a str],
        max: usize,
        step: usize,
    ) -> impl Iterator<Item = (usize, usize, &'a str)> {
        let texts = texts.to_vec();
        texts.into_iter().flat_map(move |text| {
            (0..64).step_by(step).flat_map(move |start| {
                let mut from = start;
                while !text.is_char_boundary(from) {
                    from += 1;
                }
                (0..=max).step_by(step).map(move |len| {
                    let mut to = (from + len).min(text.len());
                    while !text.is_char_boundary(to) {
                        to -= 1;
                    }
                    (from, to, &text[from..to])
                })
            })
        })
    }

    /// Three texts for the kernels of any UTF-8: every char class mixed (200 chars), an
    /// emoji every third char (120 chars), so that a 4-byte char straddles every place of a
    /// window, and ASCII with 1- and 2-byte chars only (200 chars: Latin, Cyrillic, both
    /// ends of the 2-byte range), a 2-byte char at every place of a window.
    fn any_utf8_texts() -> (String, String, String) {
        let classes = crate::unicode::CHAR_CLASSES;
        let mixed = (0..200).map(|k| classes[(k * 7 + k / 9) % 9]).collect();
        let emoji = (0..120)
            .map(|k| if k % 3 == 0 { '😀' } else { 'x' })
            .collect();
        let short = ['a', 'é', '\u{80}', 'ж', '\u{7FF}', 'b', 'c'];
        let two_byte = (0..200).map(|k| short[(k * 5 + k / 11) % 7]).collect();
        (mixed, emoji, two_byte)
    }

    /// Which kernels each level says it has.
    #[test]
    fn each_level_has_its_kernels() {
        for (name, kernels) in Kernels::levels() {
            let bits = bits_of(name);
            assert_eq!(kernels.has_table_window(), bits & 1 != 0, "{name}");
            assert_eq!(kernels.decodes_three_byte_runs(), bits & 1 != 0, "{name}");
            assert_eq!(kernels.has_wide_table_window(), bits & 4 != 0, "{name}");
            assert_eq!(kernels.widens_ascii_runs(), bits & 2 != 0, "{name}");
        }
    }

    /// The ASCII-run kernel widens `32 * (m / 32)` bytes, `m` the least of the input's
    /// length, the offset of its first non-ASCII byte and the units `dst` has room for, to
    /// UTF-16 and UTF-32 units in either byte order, writing them and nothing else: every length 0..=256, every
    /// alignment of `src` in a 64-byte block, a non-ASCII byte at a spread of places, rooms
    /// short of and past the input.
    #[test]
    fn ascii_runs_widen_whole_steps() {
        let backing: Vec<u8> = (0..64 + 256).map(|k| (k * 7 % 128) as u8).collect();
        let scale = if cfg!(miri) { 61 } else { 1 };
        for (name, kernels) in Kernels::levels() {
            let avx2 = bits_of(name) & 2 != 0;
            for len in (0..=256).step_by(scale) {
                for align in (0..64).step_by(if len % 16 == 0 { 1 } else { 13 * scale }) {
                    let mut src = backing[align..align + len].to_vec();
                    let other = [len, len / 2, 31, 32, 33, 100];
                    for (variant, &at) in other.iter().enumerate() {
                        if variant > 0 && at >= len {
                            continue;
                        }
                        if at < len {
                            src[at] = 0xC3; // a lead byte: not ASCII
                        }
                        let stop = at.min(len);
                        for room in [len, len + 9, len / 2, 40] {
                            for (unit, big_endian) in [(2, true), (2, false), (4, true), (4, false)]
                            {
                                let mut dst = vec![0xAAu8; unit * room];
                                let mut lent = Room::new(&mut dst);
                                let done =
                                    kernels.ascii_widen(&src, &mut lent, 0, unit == 4, big_endian);
                                let written = lent.written();
                                if !avx2 {
                                    assert_eq!(written, 0, "{name}");
                                    assert_eq!(done, None, "{name}");
                                    assert!(dst.iter().all(|&b| b == 0xAA), "{name}");
                                    continue;
                                }
                                let read = 32 * (stop.min(room) / 32);
                                assert_eq!(
                                    (done, written),
                                    (Some(read), unit * read),
                                    "{name} len {len} at {at} room {room} unit {unit}"
                                );
                                for (k, got) in dst.chunks_exact(unit).enumerate() {
                                    let mut expected = vec![0xAA; unit];
                                    if k < read {
                                        expected.fill(0);
                                        expected[if big_endian { unit - 1 } else { 0 }] = src[k];
                                    }
                                    assert_eq!(got, expected, "{name} len {len} unit {k}");
                                }
                            }
                        }
                        if at < len {
                            src[at] = backing[align + at];
                        }
                    }
                }
            }
        }
    }

    /// What the UTF-16 to Latin-1 kernel of `kernels` takes of `src` into a room of `room`
    /// bytes: `(answer, bytes)`, the room's untouched bytes left 0xAA.
    fn utf16_latin1(kernels: Kernels, src: &[u16], room: usize) -> (Option<usize>, Vec<u8>) {
        let mut dst = vec![0xAAu8; room];
        let mut lent = Room::new(&mut dst);
        let done = kernels.utf16_latin1(src, &mut lent, 0);
        assert_eq!(lent.written(), done.unwrap_or(0));
        (done, dst)
    }

    /// The units the UTF-16 to Latin-1 kernel of level `name` takes, where the run of units
    /// below U+0100 is `run` long and the room `room` bytes: all of the least of the two with
    /// AVX-512, its whole 32-unit steps with AVX2, nothing without.
    fn utf16_latin1_expected(name: &str, run: usize, room: usize) -> Option<usize> {
        let bits = bits_of(name);
        let most = run.min(room);
        if bits & 4 != 0 && cfg!(wirebytes_avx512) {
            Some(most)
        } else if bits & 2 != 0 {
            Some(32 * (most / 32))
        } else {
            None
        }
    }

    /// The UTF-16 to Latin-1 kernel writes the byte of each unit it takes and nothing else,
    /// up to the first unit above U+00FF, the end of the input or of the room (AVX2: in whole
    /// 32-unit steps): every length 0..=256, every alignment in a 64-unit block, a unit above
    /// U+00FF at a spread of places, rooms short of and past the input.
    #[test]
    fn utf16_latin1_runs_write_the_byte_of_each_unit_taken() {
        let backing: Vec<u16> = (0..64 + 256).map(|k| (k * 37 % 0x100) as u16).collect();
        let scale = if cfg!(miri) { 61 } else { 1 };
        for (name, kernels) in Kernels::levels() {
            for len in (0..=256).step_by(scale) {
                for align in (0..64).step_by(if len % 16 == 0 { 1 } else { 13 * scale }) {
                    let base = &backing[align..align + len];
                    for (variant, at) in [len, len / 2, 0, 31, 32, 33, 63, 64, 100]
                        .into_iter()
                        .enumerate()
                    {
                        if variant > 0 && at >= len {
                            continue;
                        }
                        let mut src = base.to_vec();
                        if let Some(u) = src.get_mut(at) {
                            *u = [0x100, 0x1FF, 0xD800, 0xFF00, 0xFFFF][variant % 5];
                        }
                        for room in [len, len + 9, len / 2, 40, 0] {
                            let (done, dst) = utf16_latin1(kernels, &src, room);
                            let expected = utf16_latin1_expected(name, at.min(len), room);
                            assert_eq!(done, expected, "{name} len {len} at {at} room {room}");
                            let taken = done.unwrap_or(0);
                            for (k, &b) in dst.iter().enumerate() {
                                let want = if k < taken { src[k] as u8 } else { 0xAA };
                                assert_eq!(b, want, "{name} len {len} at {at} byte {k}");
                            }
                        }
                    }
                }
            }
        }
    }

    /// Every one of the 65,536 units, at a place in a 96-unit run of Latin-1 that moves with
    /// it (every place of a 64-unit step), stops the UTF-16 to Latin-1 kernel exactly when it
    /// is above U+00FF.
    #[test]
    fn utf16_latin1_stops_at_every_unit_above_latin1() {
        let step = if cfg!(miri) { 4099 } else { 1 };
        for (name, kernels) in Kernels::levels() {
            for u in (0..=0xFFFF_u16).step_by(step) {
                let at = usize::from(u) % 96;
                let mut src: Vec<u16> = (0..96).map(|k| (k * 3 % 0x100) as u16).collect();
                src[at] = u;
                let run = if u > 0xFF { at } else { 96 };
                let (done, dst) = utf16_latin1(kernels, &src, 96);
                assert_eq!(done, utf16_latin1_expected(name, run, 96), "{name} {u:#x}");
                let taken = done.unwrap_or(0);
                assert!(
                    dst[..taken]
                        .iter()
                        .zip(&src)
                        .all(|(&b, &u)| u16::from(b) == u),
                    "{name} {u:#x}"
                );
            }
        }
    }

    /// The count kernels agree with the portable loops on every length 0..=256 at every
    /// start in a 64-unit block, for text of every class, and on every unit at every place
    /// of a vector.
    #[test]
    fn utf16_counts_max_and_pairs_agree_with_the_portable_loops() {
        let text: Vec<u16> = "a\u{e9}\u{416}\u{4e16}\u{1f600}\u{ffff}\u{800}\u{7ff}\u{7f}"
            .encode_utf16()
            .chain([0xD800, 0x41, 0xDFFF])
            .cycle()
            .take(320)
            .collect();
        let lens = if cfg!(miri) { 40 } else { 256 };
        for (name, kernels) in Kernels::levels() {
            for start in 0..64 {
                for len in 0..=lens {
                    let units = &text[start..start + len];
                    if let Some(counts) = kernels.utf16_counts(units) {
                        let want = crate::from_utf16::utf8_counts(units);
                        assert_eq!(counts, want, "{name} {start} {len}");
                    }
                    if let Some(max) = kernels.utf16_max(units) {
                        assert_eq!(max, crate::from_utf16::max_unit(units), "{name} {len}");
                    }
                    if let Some(pairs) = kernels.utf16_pairs(units) {
                        let want = crate::from_utf16::pairs(units);
                        assert_eq!(pairs, want, "{name} {start} {len}");
                    }
                }
            }
            // Past two blocks of 16-bit sums of the AVX2 count (each ASCII unit takes 2 from
            // its lane's sum, the most), with surrogates and 3-byte units at the ends.
            #[cfg(all(wirebytes_x86_kernels, not(miri)))]
            {
                let mut units = vec![0x41_u16; 32 * super::x86_64::COUNTS_AVX2_BLOCK + 37];
                let n = units.len();
                units[..5].copy_from_slice(&[0xD800, 0xDC00, 0x4E2D, 0xE9, 0xDFFF]);
                units[n - 3..].copy_from_slice(&[0xDBFF, 0xFFFF, 0x7FF]);
                if let Some(counts) = kernels.utf16_counts(&units) {
                    let want = crate::from_utf16::utf8_counts(&units);
                    assert_eq!(counts, want, "{name} {n} units");
                }
            }
            let step = if cfg!(miri) { 4099 } else { 1 };
            for u in (0..=0xFFFF_u16).step_by(step) {
                let mut units = [0x41_u16; 40];
                units[usize::from(u) % 40] = u;
                if let Some(counts) = kernels.utf16_counts(&units) {
                    let want = crate::from_utf16::utf8_counts(&units);
                    assert_eq!(counts, want, "{name} {u:#x}");
                }
                // Before and after a high and a low surrogate, at every place of a step.
                for (k, pair) in [[0xD800, u], [u, 0xDC00], [0xDBFF, u], [u, 0xDFFF]]
                    .into_iter()
                    .enumerate()
                {
                    let at = (usize::from(u) + k) % 39;
                    units[at..at + 2].copy_from_slice(&pair);
                    if let Some(pairs) = kernels.utf16_pairs(&units) {
                        let want = crate::from_utf16::pairs(&units);
                        assert_eq!(pairs, want, "{name} {u:#x} {k}");
                    }
                    units = [0x41_u16; 40];
                }
            }
        }
    }

    /// The steps the UTF-16 to UTF-8 kernel takes of `src` with room to spare, written out
    /// apart from the kernel: the units of each.
    fn utf16_utf8_steps(src: &[u16]) -> Vec<usize> {
        let mut steps = Vec::new();
        let mut at = 0;
        while at < src.len() {
            let rest = src.len() - at;
            if rest < 32 {
                // The rest in one step where every surrogate is paired (a high one last left
                // out), and no more steps.
                let n = rest - usize::from((0xD800..0xDC00).contains(&src[src.len() - 1]));
                if String::from_utf16(&src[at..at + n]).is_ok() {
                    if n > 0 {
                        steps.push(n);
                    }
                    break;
                }
                if rest < 16 {
                    break;
                }
            }
            if rest >= 32 {
                // 32 units with every surrogate paired, 31 where the 32nd is a high one.
                let n = if (0xD800..0xDC00).contains(&src[at + 31]) {
                    31
                } else {
                    32
                };
                if String::from_utf16(&src[at..at + n]).is_ok() {
                    steps.push(n);
                    at += n;
                    continue;
                }
            }
            let mut n = 16;
            if (0xD800..0xDC00).contains(&src[at + 15]) {
                n = 15;
            }
            let block = &src[at..at + n];
            if String::from_utf16(block).is_err() {
                break;
            }
            steps.push(n);
            at += n;
        }
        steps
    }

    /// What the UTF-16 to UTF-8 kernel of `kernels` takes of `src` into a room of `room`
    /// bytes, checked: it took whole steps (those of [`utf16_utf8_steps`]: all of them, or
    /// up to the one whose bytes did not fit), and wrote their UTF-8 and nothing else (the
    /// room's other bytes left 0xAA). `None` where the level has no kernel (then the room is
    /// untouched).
    fn utf16_utf8(
        kernels: Kernels,
        src: &[u16],
        room: usize,
        scratch: bool,
        what: &str,
    ) -> Option<usize> {
        let mut dst = vec![0xAAu8; room];
        let mut lent = if scratch {
            Room::staging(&mut dst)
        } else {
            Room::new(&mut dst)
        };
        let done = kernels.utf16_utf8(src, &mut lent, 0, 0);
        assert_eq!(done.is_some(), kernels.has_utf16_utf8(scratch), "{what}");
        let Some((read, written)) = done else {
            assert_eq!(lent.written(), 0, "{what}");
            assert!(dst.iter().all(|&b| b == 0xAA), "{what}");
            return None;
        };
        assert_eq!(lent.written(), written, "{what}");
        let utf8 = String::from_utf16(&src[..read]).expect("whole chars taken");
        assert_eq!(&dst[..written], utf8.as_bytes(), "{what}");
        if !scratch {
            assert!(dst[written..].iter().all(|&b| b == 0xAA), "{what}");
        }
        if !kernels.has_utf16_utf8(false) {
            // AVX2: the model's steps.
            let (at, w) = super::avx2_utf8_model::avx2_utf16_utf8_steps(src, room);
            assert_eq!((read, written), (at, w), "{what}");
            return Some(read);
        }
        let mut at = 0;
        for step in utf16_utf8_steps(src) {
            if at == read {
                // Stopped before this step: its bytes did not fit.
                let bytes = String::from_utf16(&src[at..at + step]).expect("whole chars");
                assert!(
                    bytes.len() > room - written,
                    "{what}: stopped at {read} with room"
                );
                return Some(read);
            }
            at += step;
        }
        assert_eq!(read, at, "{what}");
        Some(read)
    }

    /// The UTF-16 to UTF-8 kernel writes the UTF-8 of exactly the whole steps it takes, up to
    /// an unpaired surrogate, the end (AVX2: the last 16 units) or the step that does not fit:
    /// texts of every
    /// char class (a surrogate pair and a 3-byte char at every place of a step), every length
    /// 0..=256, every start in a 64-unit block, rooms short and long.
    #[test]
    fn utf16_to_utf8_runs_write_the_bytes_of_whole_steps() {
        let (mixed, emoji, two_byte) = any_utf8_texts();
        let cjk: String = (0..300)
            .map(|k| ['中', 'a', 'é', '\u{FFFF}', '\u{800}', 'ж', ' '][(k * 3 + k / 7) % 7])
            .collect();
        let ascii: String = (0..320)
            .map(|k| char::from(b'a' + (k % 26) as u8))
            .collect();
        // Three-byte chars, a space every 41 chars.
        let threes: String = (0..320)
            .map(|k| {
                let chars = ['中', '\u{800}', '\u{FFFF}', '\u{D7FF}', '\u{E000}', '文'];
                if k % 41 == 40 { ' ' } else { chars[k % 6] }
            })
            .collect();
        let mut texts: Vec<Vec<u16>> = [mixed, emoji, two_byte, cjk, ascii, threes]
            .iter()
            .map(|t| t.encode_utf16().collect())
            .collect();
        // Unpaired surrogates, high and low, among emoji pairs.
        let mut lone = texts[1].clone();
        for (k, at) in (20..lone.len()).step_by(37).enumerate() {
            lone[at] = if k % 2 == 0 { 0xDC01 } else { 0xDBFE };
        }
        texts.push(lone);
        let scale = if cfg!(miri) { 37 } else { 1 };
        for (name, kernels) in Kernels::levels() {
            for (t, text) in texts.iter().enumerate() {
                for start in (0..64).step_by(7 * scale) {
                    for len in (0..=256.min(text.len() - start)).step_by(scale) {
                        let src = &text[start..start + len];
                        for room in [3 * len, len, len / 2, 40, 33, 32, 31, 17, 0] {
                            for scratch in [false, true] {
                                let what = format!(
                                    "{name} text {t} from {start} len {len} room {room} \
                                     scratch {scratch}"
                                );
                                utf16_utf8(kernels, src, room, scratch, &what);
                            }
                        }
                    }
                }
            }
        }
    }

    /// Steps of three-byte units with one or two units below U+0800 among them, at every
    /// place and every pair of places of a step (the AVX2 kernel's fixed three-byte gathers
    /// must take only the steps with none), the same pair in the next step one place on.
    #[test]
    fn utf16_to_utf8_takes_three_byte_steps_with_short_units_anywhere() {
        let base: Vec<u16> = "\u{4E2D}\u{800}\u{FFFD}\u{6587}"
            .repeat(12)
            .encode_utf16()
            .collect();
        for (name, kernels) in Kernels::levels() {
            for a in 0..16 {
                for b in a..16 {
                    for (x, y) in [(0x41, 0xE9), (0x7FF, 0x7F), (0x80, 0x80)] {
                        let mut src = base.clone();
                        src[a] = x;
                        src[b] = y;
                        src[16 + (a + 1) % 16] = x;
                        src[16 + (b + 1) % 16] = y;
                        for scratch in [false, true] {
                            let what = format!("{name} {a} {b} {x:#x} {y:#x} scratch {scratch}");
                            utf16_utf8(kernels, &src, 3 * 48, scratch, &what);
                        }
                    }
                }
            }
        }
    }

    /// Every one of the 65,536 units, at a place in 48 units of mixed text that moves with it
    /// (every place of a step), alone and before a low surrogate (a pair when it is a high
    /// one): the UTF-16 to UTF-8 kernel takes it as its UTF-8 where it is not an unpaired
    /// surrogate and stops before its step where it is.
    #[test]
    fn utf16_to_utf8_takes_every_unit_but_lone_surrogates() {
        let step = if cfg!(miri) { 4099 } else { 1 };
        // With a 3-byte char, and (for the AVX2 kernel) of one- and two-byte chars alone and of
        // 3-byte chars alone.
        let bases: [Vec<u16>; 3] = [
            "a\u{E9}\u{4E2D}b",
            "a\u{E9}\u{436}b",
            "\u{4E2D}\u{800}\u{FFFD}\u{6587}",
        ]
        .map(|text| text.repeat(12).encode_utf16().collect());
        for (name, kernels) in Kernels::levels() {
            for (u, base) in (0..=0xFFFF_u16)
                .step_by(step)
                .flat_map(|u| bases.iter().map(move |base| (u, base)))
            {
                let at = usize::from(u) % 47;
                let mut src = base.clone();
                src[at] = u;
                for scratch in [false, true] {
                    let what = format!("{name} {u:#06x} scratch {scratch}");
                    utf16_utf8(kernels, &src, 3 * 48, scratch, &what);
                }
                src[at + 1] = 0xDE00;
                for scratch in [false, true] {
                    let what = format!("{name} {u:#06x} + DE00 scratch {scratch}");
                    utf16_utf8(kernels, &src, 3 * 48, scratch, &what);
                }
            }
        }
    }

    /// The kernel of any UTF-8 takes its text in one call: into a room that takes scratch
    /// bytes, the whole text but its last steps' bytes; into one that does not, a long text
    /// up to the last `UNITS_COVER` bytes (straight into the room) and one of `STAGED_TEXT`
    /// bytes or fewer whole but those (through the staging buffer).
    #[test]
    #[cfg(wirebytes_x86_kernels)]
    fn any_utf8_runs_take_the_text_in_one_call() {
        use super::{STAGED_TEXT, UNITS_COVER};
        // 600 bytes of 2-byte chars alone, so every even place is a char boundary.
        let text = "\u{436}\u{3C9}".repeat(150);
        for (name, kernels) in Kernels::levels() {
            for utf32 in [false, true] {
                let unit = if utf32 { 4 } else { 2 };
                for len in [text.len(), STAGED_TEXT, 100] {
                    let src = &text.as_bytes()[..len];
                    for scratch in [false, true] {
                        let mut dst = vec![0u8; unit * len + 64];
                        let mut room = if scratch {
                            Room::staging(&mut dst)
                        } else {
                            Room::new(&mut dst)
                        };
                        let Some((read, _)) = kernels.utf8_units(src, &mut room, 0, utf32, false)
                        else {
                            continue;
                        };
                        let what = format!("{name} utf32 {utf32} {len} bytes scratch {scratch}");
                        let end = if scratch || len <= STAGED_TEXT {
                            len
                        } else {
                            len - UNITS_COVER
                        };
                        assert!(read <= end && read + 48 >= end, "{what}: read {read}");
                    }
                }
            }
        }
    }

    /// The kernel of any UTF-8 writes the units of exactly the chars it says it read, up to a
    /// char boundary, to UTF-16 and UTF-32 in either byte order, and nothing past its last
    /// 64-byte store: texts of every char class (a 4-byte char straddling every place of a
    /// window), every start in a 64-byte block, every length 0..=256, rooms short and long.
    #[test]
    fn any_utf8_runs_write_the_units_of_what_they_read() {
        let (mixed, emoji, two_byte) = any_utf8_texts();
        let scale = if cfg!(miri) { 37 } else { 1 };
        for (name, kernels) in Kernels::levels() {
            let bits = bits_of(name);
            let has = (bits & 4 != 0 && cfg!(wirebytes_avx512))
                || (bits & 3 == 3 && cfg!(wirebytes_x86_kernels));
            for (from, to, src) in slices(&[&mixed, &emoji, &two_byte], 256, scale) {
                for (utf32, big_endian) in
                    [(false, true), (false, false), (true, true), (true, false)]
                {
                    let unit = if utf32 { 4 } else { 2 };
                    for room in [unit * src.len() + 64, 64, 63, 100] {
                        let mut dst = vec![0xAAu8; room + 8];
                        let mut lent = Room::new(&mut dst[..room]);
                        let done =
                            kernels.utf8_units(src.as_bytes(), &mut lent, 0, utf32, big_endian);
                        let written_front = lent.written();
                        let Some((read, written)) = done else {
                            assert!(!has, "{name}");
                            assert_eq!(written_front, 0, "{name}");
                            continue;
                        };
                        assert!(has, "{name}");
                        let what = format!(
                            "{name} from {from} to {to} room {room} utf32 {utf32} be {big_endian}"
                        );
                        assert!(src.is_char_boundary(read), "{what}: read {read}");
                        let taken = &src[..read];
                        let want: Vec<u8> = if utf32 {
                            taken
                                .chars()
                                .flat_map(|c| {
                                    if big_endian {
                                        u32::from(c).to_be_bytes()
                                    } else {
                                        u32::from(c).to_le_bytes()
                                    }
                                })
                                .collect()
                        } else {
                            taken
                                .encode_utf16()
                                .flat_map(|u| {
                                    if big_endian {
                                        u16::to_be_bytes(u)
                                    } else {
                                        u16::to_le_bytes(u)
                                    }
                                })
                                .collect()
                        };
                        assert_eq!(unit * written, want.len(), "{what}");
                        assert_eq!(written_front, want.len(), "{what}");
                        assert_eq!(&dst[..want.len()], &want[..], "{what}");
                        assert!(
                            dst[room..].iter().all(|&b| b == 0xAA),
                            "{what}: past the room"
                        );
                        // A whole window was there to take: it was taken.
                        if src.len() >= 19 && room >= 64 && !src.as_bytes()[..16].is_ascii() {
                            assert!(read > 0, "{what}");
                        }
                    }
                }
            }
        }
    }

    /// The count kernels give `str::chars().count()` and `str::encode_utf16().count()` on text
    /// of every char class (a 4-byte char at every place of a vector), every start in a
    /// 64-byte block and every length 0..=300, at AVX2 and above; nothing below.
    #[test]
    fn count_kernels_count_chars_and_utf16_units() {
        let (mixed, emoji, two_byte) = any_utf8_texts();
        let scale = if cfg!(miri) { 41 } else { 1 };
        for (name, kernels) in Kernels::levels() {
            let has = bits_of(name) & 2 != 0 && cfg!(wirebytes_x86_kernels);
            for (from, to, src) in slices(&[&mixed, &emoji, &two_byte], 300, scale) {
                let chars = kernels.count_units(src, false);
                let units = kernels.count_units(src, true);
                if !has {
                    assert_eq!((chars, units), (None, None), "{name}");
                    continue;
                }
                let what = format!("{name} from {from} to {to}");
                assert_eq!(chars, Some(src.chars().count()), "{what}");
                assert_eq!(units, Some(src.encode_utf16().count()), "{what}");
            }
        }
    }

    /// The Latin-1 kernels write the bytes of exactly the chars they say they read, up to the
    /// first char they do not take, and nothing else (AVX2: nothing past 32 bytes after them):
    /// Latin-1 texts with C1 controls and
    /// chars above U+00FF at places that fall everywhere in a step (and one that ends in
    /// emoji, one of ASCII with a 2-byte char and a C1 control), every start in a 64-byte
    /// block, every length 0..=256, rooms short and long, with and without the C1 chars.
    #[test]
    fn latin1_runs_write_the_bytes_of_what_they_read() {
        let latin1 = ['a', 'é', 'ÿ', '\u{A0}', 'Z', 'ß', '\u{7F}', '\0', 'À'];
        let dense: String = (0..300).map(|k| latin1[(k * 5 + k / 7) % 9]).collect();
        // A C1 control or a char above U+00FF every 50 or so chars, the rest as above.
        let stops = ['\u{80}', '\u{9F}', 'ā', '€', '😀', '\u{85}'];
        let mixed: String = (0..300)
            .map(|k| {
                if k % 53 == 52 {
                    stops[(k / 53) % stops.len()]
                } else {
                    latin1[(k * 7 + k / 3) % 9]
                }
            })
            .collect();
        // Two-byte chars, then 4-byte ones: the fewest chars after a step's scratch bytes.
        let emoji_after = "é".repeat(100) + &"😀".repeat(20);
        // A 2-byte char, then a C1 control, each between ASCII runs: as the start moves,
        // each falls at every place of a step, its lead the last byte of one too.
        let lone = "a".repeat(100) + "é" + &"a".repeat(100) + "\u{85}" + &"a".repeat(100);
        let scale = if cfg!(miri) { 37 } else { 1 };
        for (name, kernels) in Kernels::levels() {
            let avx512 = bits_of(name) & 4 != 0 && cfg!(wirebytes_avx512);
            let has = avx512 || (bits_of(name) & 3 == 3 && cfg!(wirebytes_x86_kernels));
            for (from, to, src) in slices(&[&dense, &mixed, &emoji_after, &lone], 256, scale) {
                for c1 in [false, true] {
                    // The chars the kernel takes, up to the first it does not.
                    let takes =
                        |c: char| c <= '\u{FF}' && (c1 || !('\u{80}'..'\u{A0}').contains(&c));
                    let all = src.find(|c| !takes(c)).unwrap_or(src.len());
                    for room in [src.len() + 64, 64, 63, 100, 1] {
                        let mut dst = vec![0xAAu8; room + 8];
                        let mut lent = Room::staging(&mut dst[..room]);
                        let done = kernels.latin1_bytes(src.as_bytes(), &mut lent, 0, c1);
                        let written_front = lent.written();
                        // Into the caller's slice: the bytes of what it read, and scratch
                        // bytes past them only as far as the chars of `src` after those
                        // reach (the caller writes a byte or more for each, over them).
                        let mut exact = vec![0xAAu8; room];
                        let exact_done =
                            kernels.latin1_bytes(src.as_bytes(), &mut Room::new(&mut exact), 0, c1);
                        assert_eq!(exact_done.is_some(), done.is_some(), "{name}");
                        if let Some((read, written)) = exact_done {
                            let what = format!("{name} slice from {from} to {to} room {room}");
                            assert!(src.is_char_boundary(read) && read <= all, "{what}");
                            let want: Vec<u8> =
                                src[..read].chars().map(|c| u32::from(c) as u8).collect();
                            assert_eq!(exact[..written], want[..], "{what}");
                            let dirty = exact[written..]
                                .iter()
                                .rposition(|&b| b != 0xAA)
                                .map_or(0, |k| k + 1);
                            let after = src[read..].chars().count();
                            assert!(dirty <= after, "{what}: {dirty} bytes past, {after} chars");
                            // It stops short of that char only for want of room.
                            if read < all {
                                assert!(room - written < 64, "{what}: read {read} of {all}");
                            }
                        }
                        let Some((read, written)) = done else {
                            assert!(!has, "{name}");
                            assert_eq!(written_front, 0, "{name}");
                            continue;
                        };
                        assert!(has, "{name}");
                        let what = format!("{name} from {from} to {to} room {room} c1 {c1}");
                        assert!(src.is_char_boundary(read), "{what}: read {read}");
                        assert!(read <= all, "{what}: read {read} past {all}");
                        let want: Vec<u8> =
                            src[..read].chars().map(|c| u32::from(c) as u8).collect();
                        assert_eq!(written, want.len(), "{what}");
                        assert_eq!(written_front, want.len(), "{what}");
                        assert_eq!(&dst[..want.len()], &want[..], "{what}");
                        // Into a room that takes scratch bytes, AVX-512 may write some within
                        // the 64 after its bytes, AVX2 within the 32; neither past the room.
                        let scratch = if avx512 { 64 } else { 32 };
                        assert!(
                            dst[(want.len() + scratch).min(room)..]
                                .iter()
                                .all(|&b| b == 0xAA),
                            "{what}: wrote past its bytes"
                        );
                        // It stops short of that char only for want of room for a step's
                        // bytes (at most 64; AVX2: 32).
                        if read < all {
                            let step = if avx512 { 64 } else { 32 };
                            assert!(room - written < step, "{what}: read {read} of {all}");
                        }
                    }
                }
            }
        }
    }

    /// The Latin-1 window kernel takes a window of `é`s (32 chars, 32 bytes) with SSSE3,
    /// declines one with `ā`, and is absent at the portable level.
    #[test]
    fn latin1_window_takes_latin1_windows() {
        let mut window = [0u8; WINDOW];
        for pair in window.chunks_exact_mut(2) {
            pair.copy_from_slice("é".as_bytes());
        }
        window[BLOCK] = b'a';
        let mut other = window;
        other[..2].copy_from_slice("ā".as_bytes());
        for (name, kernels) in Kernels::levels() {
            let mut dst = [0u8; BLOCK];
            let taken = kernels.latin1_window(&window, &mut dst);
            let declined = kernels.latin1_window(&other, &mut [0u8; BLOCK]);
            if bits_of(name) & 1 != 0 {
                assert_eq!(taken, Some(Some(32)), "{name}");
                assert_eq!(dst[..32], [0xE9; 32], "{name}");
                assert_eq!(declined, Some(None), "{name}");
            } else {
                assert_eq!((taken, declined), (None, None), "{name}");
            }
        }
    }

    /// The 3-byte-run kernel takes as many 3-byte chars as `dst` has room for in steps of
    /// four (sixteen with AVX2), in either byte order, and nothing from a text that does not
    /// start with four of them.
    #[test]
    fn three_byte_runs_fill_the_room_they_have() {
        let text = "中".repeat(100);
        let src = text.as_bytes();
        for (name, kernels) in Kernels::levels() {
            let ssse3 = bits_of(name) & 1 != 0;
            for (room, taken) in [(16, 16), (20, 20), (4, 4), (3, 0), (0, 0)] {
                let mut units = vec![0u16; room];
                let done = kernels.three_byte_utf16(src, &mut units);
                if ssse3 {
                    assert_eq!(done, Some((3 * taken, taken)), "{name} {room}");
                    assert!(units[..taken].iter().all(|&u| u == 0x4E2D), "{name} {room}");
                } else {
                    assert_eq!(done, None, "{name} {room}");
                }
                for (big_endian, pair) in [(true, [0x4E, 0x2D]), (false, [0x2D, 0x4E])] {
                    let mut bytes = vec![0u8; 2 * room + 2];
                    let mut lent = Room::new(&mut bytes);
                    // From byte 2, after a written unit: the room's length is what counts.
                    assert!(lent.put(0, [0xFF, 0xFF]));
                    let done = kernels.three_byte_utf16_bytes(src, &mut lent, 2, big_endian);
                    assert_eq!(lent.written(), 2 + 2 * done.map_or(0, |d| d.1), "{name}");
                    let bytes = &bytes[2..];
                    if ssse3 {
                        assert_eq!(done, Some((3 * taken, taken)), "{name} {room}");
                        let written = bytes[..2 * taken].chunks_exact(2);
                        assert!(written.into_iter().all(|p| p == pair), "{name} {room}");
                    } else {
                        assert_eq!(done, None, "{name} {room}");
                    }
                }
            }
            let mixed = "中中中a中中中中中";
            let done = kernels.three_byte_utf16(mixed.as_bytes(), &mut [0u16; 16]);
            assert_eq!(done, ssse3.then_some((0, 0)), "{name}");
        }
    }

    /// The ASCII lookup translates 64-byte blocks of ASCII while `dst` has room for them.
    #[test]
    fn byte_map_translates_whole_ascii_blocks() {
        let mut table = [0u8; 128];
        for (k, byte) in table.iter_mut().enumerate() {
            *byte = 255 - k as u8;
        }
        let src: Vec<u8> = (0..200u8).map(|k| k % 128).collect();
        for (name, kernels) in Kernels::levels() {
            for (room, taken) in [(200, 192), (100, 64), (63, 0)] {
                let mut dst = vec![0u8; room];
                let done = kernels.byte_map(&src, &table, &mut dst);
                if bits_of(name) & 1 != 0 {
                    assert_eq!(done, Some(taken), "{name} {room}");
                    for (k, &byte) in dst[..taken].iter().enumerate() {
                        assert_eq!(byte, 255 - (k % 128) as u8, "{name} {room} {k}");
                    }
                } else {
                    assert_eq!(done, None, "{name} {room}");
                }
            }
        }
    }

    /// The table window kernel takes a window of 32 Cyrillic chars of windows-1251 where the
    /// level has SSSE3 (with the table's ASCII bytes, AVX-512 only), and nothing is done at
    /// the portable level.
    #[test]
    fn table_window_takes_two_byte_windows() {
        let charset = crate::Charset::from(encoding_rs::WINDOWS_1251);
        let crate::encodings::Kind::SingleByte(i) = crate::encodings::kind(charset) else {
            panic!("windows-1251 is a single-byte table");
        };
        let table = crate::single_byte::table(i);
        let ascii = table.ascii_bytes();
        let mut window = [0u8; WINDOW];
        for pair in window.chunks_exact_mut(2) {
            pair.copy_from_slice("ж".as_bytes());
        }
        window[BLOCK] = b'a';
        for (name, kernels) in Kernels::levels() {
            let bits = bits_of(name);
            for with_ascii in [None, Some(&ascii)] {
                let mut dst = [0u8; BLOCK];
                let taken =
                    kernels.table_window(&window, table.pairs(), with_ascii, false, &mut dst);
                let takes = if with_ascii.is_some() {
                    bits & 4 != 0
                } else {
                    bits & 1 != 0
                };
                if takes {
                    assert_eq!(taken, Some(Some(32)), "{name} {}", with_ascii.is_some());
                    assert_eq!(dst[..32], [0xE6; 32], "{name}");
                } else {
                    assert_eq!(taken, None, "{name} {}", with_ascii.is_some());
                }
            }
        }
    }

    /// The all-ASCII check answers with AVX2 and is absent below it.
    #[test]
    fn is_ascii_answers_with_avx2() {
        let ascii = vec![b'a'; 100];
        let mut other = ascii.clone();
        other[77] = 0x80;
        for (name, kernels) in Kernels::levels() {
            let expected = |all| (bits_of(name) & 2 != 0).then_some(all);
            assert_eq!(kernels.is_ascii(&ascii), expected(true), "{name}");
            assert_eq!(kernels.is_ascii(&other), expected(false), "{name}");
        }
    }
}
