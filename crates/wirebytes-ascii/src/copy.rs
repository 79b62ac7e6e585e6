//! The fast `&str` copy: the driver, in safe code written so that LLVM turns the hot loops
//! into vector code, calling the SIMD kernels of [`Kernels`] where the CPU has them (each of
//! which returns having done nothing when it does not: the portable code here then runs).
//! Everything is written through an [`Out`], so the same code fills a `&mut [u8]`, the spare
//! capacity of a `Vec` and the chunks of a `BufMut`; the entry points for the three are here.
//! The copy knows nothing of headers: [`crate::header`] drives it with a rule of its own
//! ([`Plain`]) and checks what it writes.
//!
//! An ASCII run is found 64 bytes at a time (the standard library's vectorised `is_ascii`),
//! then 8, then 1, and copied with one bulk copy. Short ASCII strings (up to 16 bytes) take
//! two overlapping fixed-size loads and stores. Past the first non-ASCII byte a
//! word-at-a-time loop takes over: an ASCII word is stored as it is, a word with one or two
//! 2-byte chars is packed in registers (8 bytes in, 7 or 6 out), and other chars are decoded
//! straight from UTF-8 into the low byte of their UTF-16 unit(s) without building the UTF-16
//! form ([`crate::swar`], and [`crate::runs`] for long runs of chars of one length). Near the
//! end of either buffer a careful tail with a bounds check per char takes over (it is the one
//! that may cut a surrogate pair). A string of at most 64 bytes that is not all ASCII goes
//! through [`crate::short`] with no kernel (with AVX-512, only up to 32 bytes). In a longer
//! text, with AVX-512 the last 64 bytes of the rest are one masked kernel step instead, when
//! their units fit in the room; with SSSE3, a short rest, or the last bytes the word loop
//! leaves, are a few 16-byte windows.
//!
//! Every function here is compared against [`crate::reference`] by the tests below (at every
//! kernel level the CPU has) and by the sweep.

use crate::arch::Kernels;
use crate::chunks::SplitChunks;
use crate::counters::{self, Path};
#[cfg(any(feature = "alloc", feature = "bytes"))]
use crate::len::low_bytes_len_with;
use crate::out::Out;
#[cfg(feature = "alloc")]
use crate::out::extend_vec;
#[cfg(feature = "bytes")]
use crate::out::put_chunk;
use crate::short::{SHORT_TEXT, copy_text, word_at};
use crate::swar::{
    CHUNK, FOUR_BYTE_BITS, FOUR_BYTE_MASK, HIGH_BITS, HIGH_BITS_WIDE, THREE_BYTE_BITS,
    THREE_BYTE_MASK, TWO_BYTE_BITS, TWO_BYTE_MASK, ascii_prefix_len, high_surrogate_low_byte,
    low_byte_of, squeeze_two_byte_chars, surrogate_pairs_low_bytes, three_byte_low_bytes,
    two_byte_low_bytes,
};
#[cfg(feature = "alloc")]
use alloc::vec::Vec;

/// How far a copy got: the bytes of `src` it read (a char boundary), and, when the room ended
/// between the two units of a surrogate pair, the low byte of the second unit, which was not
/// written (the char's four bytes count as read).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Copied {
    pub(crate) read: usize,
    pub(crate) pending: Option<u8>,
}

/// A rule for the bytes a copy takes as they are, checked as they are copied: [`Ascii`] for
/// the plain copy; header rendering has a stricter one. Every plain byte is ASCII, so it is
/// its own low byte.
pub(crate) trait Plain {
    /// Whether every byte of `block` is plain: a loop the compiler vectorises.
    fn block<const N: usize>(block: &[u8; N]) -> bool;
    /// Whether `byte` is plain.
    fn byte(byte: u8) -> bool;
    /// The SIMD kernel that copies a plain prefix in 64-byte blocks (0, nothing written,
    /// without it).
    fn copy_blocks(kernels: Kernels, src: &[u8], out: &mut Out<'_>) -> usize;
    /// The length of the longest plain prefix of `src`: 64-byte blocks, then 16-byte ones,
    /// then bytes.
    #[inline(always)]
    fn prefix_len(src: &[u8]) -> usize {
        let mut len = 0;
        for block in src.split_chunks::<CHUNK>().0 {
            if !Self::block(block) {
                break;
            }
            len += CHUNK;
        }
        for block in src[len..].split_chunks::<16>().0 {
            if !Self::block(block) {
                break;
            }
            len += 16;
        }
        len + src[len..].iter().take_while(|&&b| Self::byte(b)).count()
    }
}

/// The plain bytes of the low-byte copy: ASCII.
pub(crate) struct Ascii;

impl Plain for Ascii {
    #[inline(always)]
    fn block<const N: usize>(block: &[u8; N]) -> bool {
        block.is_ascii()
    }

    #[inline(always)]
    fn byte(byte: u8) -> bool {
        byte < 0x80
    }

    #[inline(always)]
    fn copy_blocks(kernels: Kernels, src: &[u8], out: &mut Out<'_>) -> usize {
        kernels.copy_ascii_blocks(src, out)
    }

    #[inline(always)]
    fn prefix_len(src: &[u8]) -> usize {
        ascii_prefix_len(src)
    }
}

/// Writes `src` (at most the room of `out`) when all its bytes are plain, in fixed-size
/// overlapping loads and stores, no loop and no `memcpy` call: up to 16 bytes as two words
/// of 8 (or 4), up to 64 as 16-byte blocks, the last one ending where `src` ends. Returns
/// `false`, having written nothing, when a byte is not plain or `src` is longer than 64.
#[inline(always)]
fn copy_short<R: Plain>(src: &[u8], out: &mut Out<'_>) -> bool {
    /// `src` (at least `N` bytes) as `N`-byte blocks stored one after the other, the last
    /// one overlapping the one before so that it ends where `src` ends; `false` first if a
    /// block is not plain.
    #[inline(always)]
    fn blocks<R: Plain, const N: usize, const MAX: usize>(src: &[u8], out: &mut Out<'_>) -> bool {
        let Some(last) = src.last_chunk::<N>() else {
            return false;
        };
        let full = &src.split_chunks::<N>().0[..(src.len() / N).min(MAX)];
        if !full.iter().all(R::block) || !R::block(last) {
            return false;
        }
        let last_at = src.len() - N;
        let mut at = 0;
        for block in full {
            if at >= last_at {
                break;
            }
            out.store(*block, (last_at - at).min(N));
            at += N;
        }
        out.store(*last, N)
    }
    match src.len() {
        0..4 => {
            if !src.iter().all(|&b| R::byte(b)) {
                return false;
            }
            // Two overlapping 2-byte stores, or one byte: no call.
            out.put_word(word_at(src, 0), src.len());
            true
        }
        4..8 => blocks::<R, 4, 1>(src, out),
        8..=16 => blocks::<R, 8, 1>(src, out),
        17..=64 => blocks::<R, 16, 3>(src, out),
        _ => false,
    }
}

/// The portable block copy: 64-byte blocks from the start of `src` while they are plain,
/// each checked and stored in one pass (a fold the compiler vectorises, and four vector
/// stores), not found first and copied after. Returns the bytes copied.
#[inline(always)]
fn copy_plain_blocks<R: Plain>(src: &[u8], out: &mut Out<'_>) -> usize {
    let copied = CHUNK * out.store_blocks_while(src.split_chunks::<CHUNK>().0, R::block);
    counters::add(Path::PlainBlocks, copied);
    copied
}

/// Copies the longest plain prefix of `src` that fits in the room of `out`, and returns its
/// length. Up to 64 bytes: [`copy_short`]. Longer: with the SIMD kernel, whole 64-byte
/// blocks are checked and copied in one pass first; the rest of the run (or all of it,
/// without the kernel) is found first and copied after with one bulk copy.
#[inline(always)]
pub(crate) fn copy_plain_prefix<R: Plain>(
    src: &[u8],
    out: &mut Out<'_>,
    kernels: impl Fn() -> Kernels,
) -> usize {
    let src = &src[..src.len().min(out.room())];
    let blocks = if src.len() <= CHUNK {
        if copy_short::<R>(src, out) {
            counters::add(Path::CopyShort, src.len());
            return src.len();
        }
        0
    } else {
        match R::copy_blocks(kernels(), src, out) {
            0 => copy_plain_blocks::<R>(src, out),
            copied => copied,
        }
    };
    if blocks == src.len() {
        return blocks;
    }
    let len = blocks + R::prefix_len(&src[blocks..]);
    out.extend_from_slice(&src[blocks..len]);
    len
}

/// Copies the longest ASCII prefix of `src` that fits in the room of `out`, and returns its
/// length.
#[inline]
fn copy_ascii_prefix(src: &[u8], out: &mut Out<'_>, kernels: Kernels) -> usize {
    copy_plain_prefix::<Ascii>(src, out, || kernels)
}

/// `copy_low_bytes` with the kernels `kernels` gives: the public function passes
/// [`Kernels::detect`], and [`crate::levels`] each level this CPU has.
#[inline]
pub(crate) fn copy_low_bytes_with(
    src: &str,
    dst: &mut [u8],
    kernels: impl Fn() -> Kernels + Copy,
) -> usize {
    let mut out = Out::new(dst);
    copy_str(src.as_bytes(), &mut out, kernels);
    out.len()
}

/// Copies as much of `src` (the UTF-8 of a `str`, or the rest of one from a char boundary)
/// as the room of `out` takes. Inlined into the caller for the sake of short ASCII strings
/// (header names, tokens), which need no loop and no call at all, and ask for the kernels
/// only past them (so that a header name costs no atomic load); the rest goes to `copy_long`.
#[inline]
pub(crate) fn copy_str(
    src: &[u8],
    out: &mut Out<'_>,
    kernels: impl Fn() -> Kernels + Copy,
) -> Copied {
    let read = if src.len() <= SHORT_TEXT {
        // A short string: ASCII in a few fixed-size stores, other text in words and chars
        // ([`crate::short`]), neither with a kernel; the careful path takes what is left
        // where a step's bytes did not fit in the room.
        let fits = &src[..src.len().min(out.room())];
        if copy_short::<Ascii>(fits, out) {
            counters::add(Path::CopyShort, fits.len());
            return Copied {
                read: fits.len(),
                pending: None,
            };
        }
        if src.len() > WIDE_SHORT_FROM && kernels().has_wide_short() {
            // The AVX-512 short step takes the rest of 33 to 64 bytes in less time (the
            // times are at `WIDE_SHORT_FROM`).
            copy_plain_prefix::<Ascii>(src, out, kernels)
        } else {
            let read = copy_text(src, out);
            counters::add(Path::ShortText, read);
            read
        }
    } else {
        copy_plain_prefix::<Ascii>(src, out, kernels)
    };
    if read == src.len() || out.room() == 0 {
        return Copied {
            read,
            pending: None,
        };
    }
    copy_long(src, read, out, kernels())
}

/// The fast `low_bytes`, with the kernels `kernels` gives: one exact-size allocation, filled
/// without zeroing it first.
#[cfg(feature = "alloc")]
pub(crate) fn low_bytes(src: &str, kernels: Kernels) -> Vec<u8> {
    if src.is_ascii() {
        // ASCII text is its own low bytes: one exact-size copy.
        return src.as_bytes().to_vec();
    }
    let len = low_bytes_len_with(src, || kernels);
    let mut dst = Vec::with_capacity(len);
    // The length is known: counted once, not again by `low_bytes_to_vec`.
    append_reserved(src, &mut dst, len, || kernels);
    debug_assert_eq!(dst.len(), len);
    dst
}

/// The fast `low_bytes_to_vec`, with the kernels `kernels` gives: one reservation of
/// [`reserve_len`], and the spare capacity written without zeroing it first.
#[cfg(feature = "alloc")]
#[inline]
pub(crate) fn low_bytes_to_vec(src: &str, dst: &mut Vec<u8>, kernels: impl Fn() -> Kernels + Copy) {
    let reserve = reserve_len(src, dst, kernels);
    append_reserved(src, dst, reserve, kernels);
}

/// What an append of the low bytes of `src` to `dst` reserves: `src.len()` (an upper bound of
/// its UTF-16 units, so no count) when the spare capacity holds that much already, and no
/// reservation happens; else the exact number of units.
#[cfg(feature = "alloc")]
#[inline]
pub(crate) fn reserve_len(src: &str, dst: &Vec<u8>, kernels: impl Fn() -> Kernels) -> usize {
    if dst.capacity() - dst.len() >= src.len() {
        src.len()
    } else {
        low_bytes_len_with(src, kernels)
    }
}

/// [`low_bytes_to_vec`] with the room to reserve given: at least the UTF-16 length of `src`.
#[cfg(feature = "alloc")]
#[inline]
fn append_reserved(
    src: &str,
    dst: &mut Vec<u8>,
    reserve: usize,
    kernels: impl Fn() -> Kernels + Copy,
) {
    let bytes = src.as_bytes();
    let done: Result<(), core::convert::Infallible> = extend_vec(dst, reserve, |out| {
        let copied = copy_str(bytes, out, kernels);
        debug_assert_eq!((copied.read, copied.pending), (bytes.len(), None));
        Ok(())
    });
    let Ok(()) = done;
}

/// The fast `low_bytes_to_buf`, with the kernels `kernels` gives: `src` copied chunk by chunk
/// into what `dst` offers, a surrogate pair cut by the end of a chunk finished in the next.
///
/// # Panics
///
/// When `dst` has room for fewer bytes than `src` has UTF-16 units (before writing any).
#[cfg(feature = "bytes")]
pub(crate) fn low_bytes_to_buf<B: bytes::BufMut + ?Sized>(
    src: &str,
    dst: &mut B,
    kernels: impl Fn() -> Kernels + Copy,
) {
    let bytes = src.as_bytes();
    if dst.remaining_mut() < bytes.len() {
        let units = low_bytes_len_with(src, kernels);
        let remaining = dst.remaining_mut();
        assert!(
            remaining >= units,
            "low_bytes_to_buf: {units} bytes to put, room for {remaining}"
        );
    }
    let mut read = 0;
    let mut pending = None;
    while read < bytes.len() || pending.is_some() {
        let progress = put_chunk(dst, |out| {
            let room = out.room();
            if pending.is_some_and(|low| !out.push(low)) {
                return false;
            }
            let copied = copy_str(&bytes[read..], out, kernels);
            read += copied.read;
            pending = copied.pending;
            room > 0
        });
        // A `BufMut` with `remaining_mut` left offers a chunk that is not empty.
        assert!(
            progress,
            "low_bytes_to_buf: the BufMut offered an empty chunk"
        );
    }
}

/// The copy from `read` on (a char boundary of `src`, the UTF-8 of a `str`: the first
/// non-ASCII byte after a plain prefix), with room left in `out`. A rest of at most 64 bytes
/// is one short kernel step (AVX-512, or SSSE3 when it does not start with a 4-byte char) when
/// its units fit in the room. Otherwise the word loop runs, with AVX-512 to 64 bytes before
/// the end (the short step takes those), else to fewer than 24 bytes before it; then the SSSE3
/// short step, and where no kernel took them, the careful tail.
pub(crate) fn copy_long(src: &[u8], read: usize, out: &mut Out<'_>, kernels: Kernels) -> Copied {
    counters::add(Path::CopyLong, 1);
    let done = Copied {
        read: src.len(),
        pending: None,
    };
    let wide = kernels.has_wide_short();
    if src.len() - read <= SHORT
        && src.get(read).is_some_and(|&b| wide || b < 0xF0)
        && kernels.utf8_short(&src[read..], out).is_some()
    {
        return done;
    }
    let read = copy_words(src, read, out, kernels, if wide { SHORT } else { 0 });
    // (Without AVX-512, a tail that starts with a CJK char or an emoji is left to the careful
    // tail: fewer instructions than the windows for the few chars of a run's end.)
    if src.get(read).is_some_and(|&b| wide || b < 0xE0)
        && kernels.utf8_short(&src[read..], out).is_some()
    {
        return done;
    }
    let copied = copy_tail(src, out, read, kernels);
    counters::add(Path::CopyTail, copied.read - read);
    copied
}

/// The length above which a short text that is not all ASCII goes to the AVX-512 short step
/// (where the CPU has it) rather than through [`crate::short`]. On a 50-byte Latin-1 header
/// value away from a page end, the masked step took 18 ns and the words 28; next to a page
/// end, where the step goes through a buffer, the two cost about the same. For fewer bytes
/// the step's set-up costs more than the words.
const WIDE_SHORT_FROM: usize = 32;

/// The most bytes [`Kernels::utf8_short`] takes.
pub(crate) const SHORT: usize = 64;

/// The word loop of [`copy_long`]: from `read` on, while at least 24 bytes of `src` and more
/// than `leave` are left; returns where it stopped, a char boundary.
fn copy_words(
    src: &[u8],
    mut read: usize,
    out: &mut Out<'_>,
    kernels: Kernels,
    leave: usize,
) -> usize {
    if !kernels.decodes_text() {
        read = copy_windows(src, read, out, kernels);
    }
    let start = read;
    // The mixed kernel, while at least 24 bytes of `src` remain (so at least 8 more units,
    // since no char takes more than 3 UTF-8 bytes per UTF-16 unit) and 8 bytes of room.
    while src.len() - read >= 24 && src.len() - read > leave {
        let Some(&word) = src.get(read..).and_then(<[u8]>::first_chunk::<8>) else {
            break;
        };
        let w = u64::from_le_bytes(word);
        let high = w & HIGH_BITS;
        if high == 0 {
            if !out.store(word, 8) {
                break;
            }
            read += 8;
            // Two more ASCII words: a long run, continue in bulk.
            let next = src[read..]
                .first_chunk::<16>()
                .map(|n| u128::from_le_bytes(*n));
            if next.is_some_and(|n| n & HIGH_BITS_WIDE == 0) {
                read += copy_ascii_prefix(&src[read..], out, kernels);
            }
            continue;
        }
        // With AVX-512, a kernel takes any text without 4-byte chars, 64 bytes per step.
        let r = kernels.utf8_blocks(&src[read..], out);
        if r != 0 {
            read += r;
            continue;
        }
        // Text in a Latin, Greek or Cyrillic script: ASCII with one or two 2-byte chars
        // (U+0080..U+07FF) in the word. Every byte gets its output value at once, then the
        // lead bytes are squeezed out, without a branch per byte: 8 bytes in, 8 minus the
        // leads out.
        let leads = w & (w << 1) & HIGH_BITS; // bytes 0xC0..=0xFF
        let long_leads = leads & (w << 2); // bytes 0xE0..=0xFF: 3- and 4-byte sequences
        if long_leads == 0 {
            // ASCII and 2-byte chars only so far: the SSSE3 kernel, if the CPU has it, takes
            // 16 bytes per step while that lasts.
            let r = kernels.two_byte_blocks(&src[read..], out);
            if r != 0 {
                read += r;
                continue;
            }
        }
        // (Reading exactly 8 bytes keeps the next load's address free of this word's data:
        // a word that ends on a lead byte goes the slower way.)
        // (`x & (x - 1)` drops the lowest set bit: no `popcnt` on baseline x86-64.)
        let second = leads & leads.wrapping_sub(1);
        if second & second.wrapping_sub(1) == 0
            && long_leads == 0
            && (high ^ leads) & 0x80 == 0
            && leads >> 63 == 0
        {
            let squeezed = squeeze_two_byte_chars(w, high, leads, second);
            if !out.store(squeezed.to_le_bytes(), 7 - usize::from(second != 0)) {
                break;
            }
            counters::add(Path::SqueezedWords, 8);
            read += 8;
            continue;
        }
        // Otherwise: the ASCII bytes of the word first, then non-ASCII chars one after
        // another until the next ASCII byte.
        let ascii = (high.trailing_zeros() / 8) as usize;
        if !out.store(word, ascii) {
            break;
        }
        read += ascii;
        read += decode_run(&src[read..], out, kernels);
        // Back to the word loop: an ASCII byte is next, or too little is left and the
        // loop's condition sends us to the careful tail.
    }
    counters::add(Path::CopyWords, read - start);
    read
}

/// The portable path through text, where no SIMD kernel decodes it: 32 bytes per step from
/// `read` (a char boundary) while 128 bytes are left: an ASCII window is stored as it is, a
/// run of 3-byte chars goes 16 at a time ([`crate::runs`]), and other text through a window
/// of [`crate::window`]. Few branches, and each taken the same way while the text does not
/// change its kind: text that changes script every few chars costs no mispredictions. A
/// window with a 4-byte char is done the word loop's way, up to the next ASCII byte.
/// Returns where it stopped.
fn copy_windows(src: &[u8], mut read: usize, out: &mut Out<'_>, kernels: Kernels) -> usize {
    let start = read;
    while src.len() - read >= 128 {
        let rest = &src[read..];
        let Some(window) = rest.first_chunk::<32>() else {
            break;
        };
        if Ascii::block(window) {
            if !out.store(*window, 32) {
                break;
            }
            read += 32;
            continue;
        }
        if window[0] & 0xF0 == 0xE0 {
            let r = crate::runs::three_byte_run(rest, out);
            if r != 0 {
                read += r;
                continue;
            }
        }
        let r = crate::window::decode_window(src, read, out);
        if r != 0 {
            read += r;
            continue;
        }
        // A 4-byte char is near: the ASCII before it, then the chars up to the next ASCII
        // byte one run at a time.
        let before = read;
        read += copy_ascii_prefix(rest, out, kernels);
        read += decode_run(&src[read..], out, kernels);
        if read == before {
            break;
        }
    }
    counters::add(Path::CopyWindows, read - start);
    read
}

/// Decodes non-ASCII chars from the start of `src` (a char boundary) until an ASCII byte, or
/// until fewer than 16 bytes of `src` or 4 of room are left; returns the bytes read. Where
/// four chars of the same UTF-8 length follow each other (Cyrillic, CJK, emoji...), one
/// masked compare of the 16-byte window proves it and they are done together, and a longer
/// run goes to [`crate::runs`] (or, with SSSE3, to a kernel); otherwise one char at a time.
#[inline]
fn decode_run(src: &[u8], out: &mut Out<'_>, kernels: Kernels) -> usize {
    let mut read = 0;
    while let Some(window) = src.get(read..).and_then(<[u8]>::first_chunk::<16>) {
        if out.room() < 4 {
            break;
        }
        // One load; the bytes are taken out of the register (little-endian: byte k is bits
        // 8k..8k+8), not loaded one by one.
        let wide = u128::from_le_bytes(*window);
        let word = wide as u64;
        let w = |k: u32| (wide >> (8 * k)) as u8;
        let b0 = w(0);
        if b0 < 0x80 {
            break;
        } else if b0 < 0xE0 {
            // Two bytes, U+0080..U+07FF (0x80..0xBF never starts a char of a `str`).
            if word & TWO_BYTE_MASK == TWO_BYTE_BITS {
                let r = crate::runs::two_byte_run(&src[read..], out);
                if r != 0 {
                    read += r;
                    continue;
                }
                out.store(two_byte_low_bytes(word).to_le_bytes(), 4);
                read += 8;
            } else {
                out.push(low_byte_of(w(0), w(1)));
                read += 2;
            }
        } else if b0 < 0xF0 {
            // Three bytes, U+0800..U+FFFF.
            if wide & THREE_BYTE_MASK == THREE_BYTE_BITS {
                // At least four in a row: a run worth the SSSE3 kernel, if the CPU has it, or
                // the portable run loop.
                let r = kernels.three_byte_blocks(&src[read..], out);
                if r != 0 {
                    read += r;
                    continue;
                }
                let r = crate::runs::three_byte_run(&src[read..], out);
                if r != 0 {
                    read += r;
                    continue;
                }
                out.store(three_byte_low_bytes(wide).to_le_bytes(), 4);
                read += 12;
            } else {
                out.push(low_byte_of(w(1), w(2)));
                read += 3;
            }
        } else if word & FOUR_BYTE_MASK == FOUR_BYTE_BITS {
            // Two 4-byte chars (U+10000..U+10FFFF), four units: see `surrogate_pairs_low_bytes`.
            // A run of them goes to the SSSE3 kernel, if the CPU has it, or the run loop.
            let r = kernels.four_byte_blocks(&src[read..], out);
            if r != 0 {
                read += r;
                continue;
            }
            let r = crate::runs::four_byte_run(&src[read..], out);
            if r != 0 {
                read += r;
                continue;
            }
            out.store(surrogate_pairs_low_bytes(word).to_le_bytes(), 4);
            read += 8;
        } else {
            // One 4-byte char: a surrogate pair, two units (the room holds 4).
            out.push(high_surrogate_low_byte(w(1), w(2)));
            out.push(low_byte_of(w(2), w(3)));
            read += 4;
        }
    }
    read
}

/// The end of the copy, from `read` (a char boundary) on, with a bounds check for every
/// byte: near the end of `src` or of the room, where a surrogate pair can be cut and the
/// word-at-a-time kernel cannot run.
fn copy_tail(src: &[u8], out: &mut Out<'_>, mut read: usize, kernels: Kernels) -> Copied {
    loop {
        // Bulk: the ASCII run at `read`, as far as the room goes.
        read += copy_ascii_prefix(src.get(read..).unwrap_or_default(), out, kernels);

        // Then decode non-ASCII chars until the next ASCII byte.
        loop {
            if out.room() == 0 {
                return Copied {
                    read,
                    pending: None,
                };
            }
            match *src.get(read..).unwrap_or_default() {
                [b0 @ 0xC0..=0xDF, b1, ..] => {
                    out.push(low_byte_of(b0, b1));
                    read += 2;
                }
                [0xE0..=0xEF, b1, b2, ..] => {
                    out.push(low_byte_of(b1, b2));
                    read += 3;
                }
                [0xF0..=0xF7, b1, b2, b3, ..] => {
                    out.push(high_surrogate_low_byte(b1, b2));
                    read += 4;
                    // The pair may be cut by the end of the room: then only its first unit
                    // fits, and the second is pending.
                    let low = low_byte_of(b2, b3);
                    if !out.push(low) {
                        return Copied {
                            read,
                            pending: Some(low),
                        };
                    }
                }
                // ASCII again: back to the bulk copy.
                [0x00..=0x7F, ..] => break,
                // The end of `src` (a `str` holds no other byte sequence).
                _ => {
                    return Copied {
                        read,
                        pending: None,
                    };
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference;
    use std::string::String;
    use std::vec::Vec;
    use std::{format, vec};

    /// `copy_low_bytes` of `text` into a `dst` of each length in `dst_lens` (capped at four
    /// past the text's UTF-16 length), under each kernel choice: the count and every byte of
    /// `dst`, the untouched ones included, equal the reference's. A `dst` longer than the text
    /// shows any byte written past the count.
    fn same(text: &str, dst_lens: &[usize]) {
        let units = reference::low_bytes_len(text);
        for (level, kernels) in Kernels::levels() {
            for &len in dst_lens.iter().filter(|&&len| len <= units + 4) {
                let mut want = vec![0xA5u8; len];
                let mut got = vec![0xA5u8; len];
                let n_want = reference::copy_low_bytes(text, &mut want);
                let n_got = copy_low_bytes_with(text, &mut got, || kernels);
                assert_eq!(
                    (n_got, &got),
                    (n_want, &want),
                    "{level}, dst of {len}, text {text:?}"
                );
            }
        }
    }

    /// Eight 3-byte chars: 24 bytes that make only 8 units.
    const CJK_TAIL: &str = "\u{4E2D}\u{6587}\u{5B57}\u{7B26}\u{7F16}\u{7801}\u{6D4B}\u{8BD5}";

    /// 3-byte chars from both ends of their range and between, including the ones whose low
    /// byte is CR or LF.
    const THREE_BYTE: [char; 8] = [
        '\u{0800}', '\u{FFFF}', '\u{4E2D}', '\u{FF0A}', '\u{0D0D}', '\u{3002}', '\u{D7FF}',
        '\u{E000}',
    ];

    #[test]
    #[cfg_attr(
        miri,
        ignore = "a sweep of thousands of texts: too slow under Miri, where tests/overshoot.rs and tests/edges.rs take the kernels' boundaries"
    )]
    fn runs_of_three_byte_chars_with_one_other_char_anywhere() {
        for len in (0..=70).step_by(wirebytes_testkit::scale_miri(1, 1, 69)) {
            let run: Vec<char> = (0..len).map(|i| THREE_BYTE[i % THREE_BYTE.len()]).collect();
            for prefix in ["", "a", "ab", "abc", "abcdefgh"] {
                let plain = format!("{prefix}{}xy", run.iter().collect::<String>());
                let units = reference::low_bytes_len(&plain);
                same(&plain, &[units, units - 1, units / 2, 15, 16, 17, 24]);
                for at in (0..len).step_by(wirebytes_testkit::scale_miri(1, 1, 33)) {
                    for other in ['x', '\u{E9}', '\u{07FF}', '\u{1F600}'] {
                        let mut chars = run.clone();
                        chars[at] = other;
                        let text = format!("{prefix}{}xy", chars.iter().collect::<String>());
                        let units = reference::low_bytes_len(&text);
                        same(&text, &[units, units + 4, units - 1, prefix.len() + at + 1]);
                    }
                }
            }
        }
    }

    #[test]
    #[cfg_attr(
        miri,
        ignore = "a sweep of thousands of texts: too slow under Miri, where tests/overshoot.rs and tests/edges.rs take the kernels' boundaries"
    )]
    fn text_of_ascii_and_two_byte_chars_with_one_other_char_anywhere() {
        // Runs of 2-byte chars of every length from 1 to 5 between ASCII of every length from
        // 0 to 3, so that windows of 16 bytes end on leads and on continuation bytes alike.
        let pattern = "\u{E9}a\u{0100}\u{07FF}bc\u{0430}\u{0431}\u{0432}d\u{00FF}\u{0080}\u{05D0}\u{010D}\u{FF}ef\u{0D0A}g";
        let chars: Vec<char> = pattern.chars().cycle().take(130).collect();
        for (len, suffix) in (0..=130)
            .step_by(wirebytes_testkit::scale_miri(3, 3, 129))
            .flat_map(|len| [(len, ""), (len, CJK_TAIL), (len, "\u{4E2D}\u{4E2D}\u{E9}")])
        {
            for prefix in ["", "x", "xy", "xyz", "wxyz", "vwxyz", "uvwxyz", "tuvwxyz"] {
                let base: String = chars[..len].iter().collect();
                let plain = format!("{prefix}{base}{suffix}");
                let units = reference::low_bytes_len(&plain);
                same(
                    &plain,
                    &[units, units + 4, units.saturating_sub(1), units / 2, 16, 17],
                );
                for at in (0..len).step_by(wirebytes_testkit::scale_miri(1, 1, 51)) {
                    for other in ['\u{4E2D}', '\u{1F600}', 'q'] {
                        let mut edited = chars[..len].to_vec();
                        edited[at] = other;
                        let text = format!("{prefix}{}{suffix}", edited.iter().collect::<String>());
                        let units = reference::low_bytes_len(&text);
                        same(&text, &[units, units + 4, prefix.len() + at + 1]);
                    }
                }
            }
        }
    }

    #[test]
    #[cfg_attr(
        miri,
        ignore = "a sweep of thousands of texts: too slow under Miri, where tests/overshoot.rs and tests/edges.rs take the kernels' boundaries"
    )]
    fn runs_of_four_byte_chars_with_one_other_char_anywhere() {
        const FOUR_BYTE: [char; 6] = [
            '\u{10000}',
            '\u{10FFFF}',
            '\u{1F600}',
            '\u{1F40D}',
            '\u{2000A}',
            '\u{E010D}',
        ];
        // A tail of 3-byte chars makes the fewest units per byte: the bytes a kernel leaves
        // past its count must still be overwritten.
        for (len, suffix) in (0..=40)
            .step_by(wirebytes_testkit::scale_miri(1, 1, 39))
            .flat_map(|len| [(len, "xy"), (len, CJK_TAIL)])
        {
            let run: Vec<char> = (0..len).map(|i| FOUR_BYTE[i % FOUR_BYTE.len()]).collect();
            for prefix in ["", "a", "abc", "abcdefgh"] {
                let plain = format!("{prefix}{}{suffix}", run.iter().collect::<String>());
                let units = reference::low_bytes_len(&plain);
                same(
                    &plain,
                    &[units, units + 4, units - 1, units / 2, 15, 16, 17],
                );
                for at in (0..len).step_by(wirebytes_testkit::scale_miri(1, 1, 21)) {
                    for other in ['x', '\u{E9}', '\u{4E2D}'] {
                        let mut chars = run.clone();
                        chars[at] = other;
                        let text = format!("{prefix}{}{suffix}", chars.iter().collect::<String>());
                        let units = reference::low_bytes_len(&text);
                        let cut = prefix.len() + 2 * at + 1;
                        same(&text, &[units, units + 4, units - 1, cut]);
                    }
                }
            }
        }
    }

    #[test]
    #[cfg_attr(
        miri,
        ignore = "a sweep of thousands of texts: too slow under Miri, where tests/overshoot.rs and tests/edges.rs take the kernels' boundaries"
    )]
    fn long_runs_of_multibyte_chars_at_every_offset() {
        // Leads with every pair of low bits, so that a char finished from the window before
        // shows it if the wrong byte before it is taken.
        const CHARS: [char; 13] = [
            '\u{80}',
            '\u{FF}',
            '\u{100}',
            '\u{2BF}',
            '\u{3C0}',
            '\u{5D0}',
            '\u{7FF}',
            '\u{430}',
            '\u{4E2D}',
            '\u{FF0A}',
            '\u{1F600}',
            '\u{10000}',
            '\u{10FFFF}',
        ];
        // The kernels start at the first non-ASCII char: the ASCII after it moves the run
        // against their windows.
        for offset in (0..=70).step_by(wirebytes_testkit::scale_miri(1, 1, 51)) {
            for step in [1, 3, 7, 11] {
                let run: String = (0..150).map(|i| CHARS[(i * step) % CHARS.len()]).collect();
                let text = format!("\u{E9}{}{run}z", "a".repeat(offset));
                let units = reference::low_bytes_len(&text);
                same(&text, &[units, units + 4, units - 1, units - 40]);
            }
        }
    }

    #[test]
    #[cfg_attr(
        miri,
        ignore = "a sweep of thousands of texts: too slow under Miri, where tests/overshoot.rs and tests/edges.rs take the kernels' boundaries"
    )]
    fn ascii_blocks_with_one_other_char_anywhere() {
        for len in (0..=200).step_by(wirebytes_testkit::scale_miri(1, 1, 93)) {
            let ascii: String = (0..len)
                .map(|i| char::from(b'!' + (i % 90) as u8))
                .collect();
            same(&ascii, &[len, len + 1, len / 2, 63, 64, 65, 128]);
            for at in (0..len).step_by(wirebytes_testkit::scale_miri(1, 1, 39)) {
                for other in ['\u{80}', '\u{4E2D}', '\u{1F600}'] {
                    let mut text = String::from(&ascii[..at]);
                    text.push(other);
                    text.push_str(&ascii[at + 1..]);
                    let units = reference::low_bytes_len(&text);
                    same(&text, &[units, units + 4, at, at + 1]);
                }
            }
        }
    }

    #[test]
    fn ascii_blocks_at_every_alignment() {
        let long: String = (0..600)
            .map(|i| char::from(b' ' + (i % 95) as u8))
            .collect();
        for start in (0..64).step_by(wirebytes_testkit::scale_miri(1, 1, 63)) {
            for end in (start..=long.len()).step_by(wirebytes_testkit::scale_miri(7, 7, 447)) {
                let text = &long[start..end];
                same(text, &[text.len(), text.len().saturating_sub(1), 64, 130]);
            }
        }
    }

    /// Short texts (where the last 64 bytes are one kernel step) whose bytes end at every
    /// offset near a page boundary, and copies into destinations that start at every offset
    /// near one: the loads and stores that would cross the boundary take their other way.
    #[test]
    fn short_texts_and_destinations_at_a_page_boundary() {
        const PAGE: usize = 4096;
        let chars = [
            'a',
            '\u{E9}',
            '\u{430}',
            '\u{4E2D}',
            '\u{1F600}',
            '\u{0D0A}',
        ];
        let mut texts: Vec<String> = Vec::new();
        for len in (1..=40).step_by(wirebytes_testkit::scale_miri(1, 1, 13)) {
            for step in [1, 2, 5] {
                texts.push(
                    (0..len)
                        .map(|i| chars[(i * step + len) % chars.len()])
                        .collect(),
                );
            }
        }
        let mut pages = vec![0u8; 3 * PAGE];
        let start = PAGE - pages.as_ptr() as usize % PAGE;
        let boundary = start + PAGE;
        for text in &texts {
            let units = reference::low_bytes_len(text);
            let mut want = vec![0xA5u8; units + 8];
            reference::copy_low_bytes(text, &mut want);
            // The text's bytes end 0..=70 bytes before the boundary.
            for before in (0..=70).step_by(wirebytes_testkit::scale_miri(1, 1, 23)) {
                let at = boundary - before - text.len();
                pages[at..at + text.len()].copy_from_slice(text.as_bytes());
                let placed = core::str::from_utf8(&pages[at..at + text.len()]).unwrap();
                for (level, kernels) in Kernels::levels() {
                    let mut got = vec![0xA5u8; units + 8];
                    let n = copy_low_bytes_with(placed, &mut got, || kernels);
                    assert_eq!((n, &got), (units, &want), "{level}, {text:?} at {at}");
                }
            }
            // The destination starts 0..=70 bytes before the boundary.
            let placed = text.as_str();
            for before in (1..=70).step_by(wirebytes_testkit::scale_miri(1, 1, 23)) {
                let at = boundary - before;
                for (level, kernels) in Kernels::levels() {
                    let dst = &mut pages[at..at + units + 8];
                    dst.fill(0xA5);
                    let n = copy_low_bytes_with(placed, dst, || kernels);
                    assert_eq!(
                        (n, &*dst),
                        (units, &want[..]),
                        "{level}, {text:?} into {at}"
                    );
                }
            }
        }
    }
}
