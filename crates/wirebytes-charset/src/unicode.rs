//! UTF-8, UTF-16 and UTF-32 targets: for a `Vec`, the exact size computed up front and one
//! reservation; then the bytes written in place (into a `Vec`'s spare capacity, not zeroed
//! first), the whole text at once where the level has the kernel of any UTF-8 (AVX2, AVX-512)
//! and the text does not begin as CJK, else a piece at a time, or, into sinks that do not
//! lend their memory, through a stack buffer.

use crate::Policy;
use crate::arch::Kernels;
use crate::counters::{Path, add};
use crate::from_utf16::join_pair;
use crate::sink::{Room, Sink};
use crate::swar::{
    HIGH_BITS, HIGH_BITS_WIDE, THREE_BYTE_BITS, THREE_BYTE_MASK, TWO_BYTE_BITS, TWO_BYTE_MASK,
    first_marked,
};

/// The size of [`Staged`]'s buffer.
const STAGED: usize = 1024;

/// Output staged in a stack buffer, appended to `out` when full and at the end.
struct Staged<'a, S: Sink> {
    out: &'a mut S,
    buf: [u8; STAGED],
    w: usize,
}

impl<'a, S: Sink> Staged<'a, S> {
    const SIZE: usize = STAGED;

    fn new(out: &'a mut S) -> Self {
        Staged {
            out,
            buf: [0; STAGED],
            w: 0,
        }
    }

    /// Room for `n` (at most 64) more bytes at `buf[w..]`.
    #[inline(always)]
    fn room(&mut self, n: usize) {
        if self.w + n > Self::SIZE {
            self.flush();
        }
    }

    #[inline(always)]
    fn put<const N: usize>(&mut self, bytes: [u8; N]) {
        self.room(N);
        if let Some(dst) = self.buf.get_mut(self.w..self.w + N) {
            dst.copy_from_slice(&bytes);
        }
        self.w += N;
    }

    fn flush(&mut self) {
        self.out.extend_from_slice(&self.buf[..self.w]);
        self.w = 0;
    }
}

impl<S: Sink> Drop for Staged<'_, S> {
    fn drop(&mut self) {
        self.flush();
    }
}

/// The UTF-16 unit `u` in the given byte order.
#[inline(always)]
fn unit_bytes(u: u16, big_endian: bool) -> [u8; 2] {
    if big_endian {
        u.to_be_bytes()
    } else {
        u.to_le_bytes()
    }
}

/// The scalar `c` as UTF-32 in the given byte order.
#[inline(always)]
fn scalar_bytes(c: u32, big_endian: bool) -> [u8; 4] {
    if big_endian {
        c.to_be_bytes()
    } else {
        c.to_le_bytes()
    }
}

/// The number of UTF-16 units of `text`: one per char, two for a four-byte one. Its
/// all-ASCII 64-byte blocks from the start are one unit a byte (one OR per block); the rest
/// is counted in `u8` lanes per 128-byte chunk, which the compiler vectorises: a chunk of
/// valid UTF-8 starts at most 128 chars, and at most 32 of them are four-byte ones, so its
/// count fits.
#[inline(always)]
pub(crate) fn utf16_units(text: &str) -> usize {
    let bytes = text.as_bytes();
    let ascii = 64
        * bytes
            .chunks_exact(64)
            .take_while(|block| block.iter().fold(0u8, |acc, &b| acc | b) < 0x80)
            .count();
    ascii
        + bytes[ascii..]
            .chunks(128)
            .map(|chunk| {
                let n: u8 = chunk
                    .iter()
                    .map(|&b| u8::from((b as i8) >= -0x40) + u8::from(b >= 0xF0))
                    .fold(0, u8::wrapping_add);
                usize::from(n)
            })
            .sum::<usize>()
}

/// How many bytes of `&str` input are converted to UTF-16 at a time.
const PIECE: usize = 512;

/// `text` in pieces of at most [`PIECE`] bytes, each cut at a char boundary.
fn pieces(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let mut cut = rest.len().min(PIECE);
        while !rest.is_char_boundary(cut) {
            cut -= 1;
        }
        let (piece, tail) = rest.split_at(cut);
        rest = tail;
        Some(piece)
    })
}

/// Whether `piece` goes through [`utf8_to_units`] at `kernels`: it is mostly 3-byte chars
/// (CJK) and `kernels` has the 3-byte-run kernel, or, for UTF-16 bytes (`to_bytes`),
/// `kernels` has the kernel of any UTF-8 or the piece begins with 64 ASCII bytes and
/// `kernels` has the ASCII-run kernel. Other text goes
/// through encoding_rs's `mem::convert_str_to_utf16` (ASCII in vectors, other chars one by
/// one).
#[inline]
fn own_decoder(piece: &str, kernels: Kernels, to_bytes: bool) -> bool {
    let bytes = piece.as_bytes();
    let own = (to_bytes && kernels.decodes_any_utf8())
        || (kernels.decodes_three_byte_runs() && mostly_three_byte(bytes))
        || (to_bytes && kernels.widens_ascii_runs() && bytes.len() >= 64 && bytes[..64].is_ascii());
    if own {
        add(Path::Utf16OwnDecoder, piece.len());
    }
    own
}

/// Calls `f` with the UTF-16 of `text`, a [piece](pieces) at a time.
#[inline]
fn utf16_pieces(text: &str, kernels: Kernels, mut f: impl FnMut(&[u16])) {
    // Room for the units of a piece (at most one per byte), and for the last fixed-size store.
    let mut units = [0u16; PIECE + 16];
    for piece in pieces(text) {
        let n = if own_decoder(piece, kernels, false) {
            utf8_to_units(piece, &mut units[..], kernels)
        } else {
            encoding_rs::mem::convert_str_to_utf16(piece, &mut units)
        };
        f(&units[..n.min(units.len())]);
    }
}

/// Whether 3-byte chars make at least half of the first 64 bytes of `bytes` (their lead
/// bytes, `1110xxxx`, at least a sixth), as a sample of the piece.
#[inline]
fn mostly_three_byte(bytes: &[u8]) -> bool {
    let sample = &bytes[..bytes.len().min(64)];
    let leads = sample
        .iter()
        .map(|&b| u8::from(b & 0xF0 == 0xE0))
        .fold(0u8, u8::wrapping_add);
    6 * usize::from(leads) >= sample.len()
}

/// Where [`utf8_to_units`] writes: UTF-16 units into a `[u16]`, UTF-16 bytes in one byte
/// order ([`Ordered`]), or UTF-32 bytes ([`Wide`]). Positions count units: UTF-16 units, or
/// chars for UTF-32.
trait UnitSink {
    /// The units of a char above U+FFFF: 2 (a surrogate pair) in UTF-16, 1 in UTF-32.
    const SUPPLEMENTARY: usize;

    /// Writes the chars `units` (none a surrogate) from unit `at` on; `false`, writing
    /// nothing, when there is room for fewer than `N` units from there.
    fn put<const N: usize>(&mut self, at: usize, units: &[u16; N]) -> bool;

    /// Writes the first `count` of the ASCII bytes `eight` as units from unit `at` on, and
    /// perhaps the others after them as scratch units (where the sink takes scratch
    /// writes); `false`, writing nothing, when they do not fit.
    fn put_ascii(&mut self, at: usize, eight: &[u8; 8], count: usize) -> bool;

    /// Writes `c`, above U+FFFF, at unit `at` ([`SUPPLEMENTARY`](Self::SUPPLEMENTARY) units);
    /// `false`, writing nothing, when it does not fit.
    fn put_supplementary(&mut self, at: usize, c: u32) -> bool;

    /// The 3-byte-run kernel on `src`, writing from unit `at` on: `None` without it.
    fn three_byte_run(&mut self, kernels: Kernels, src: &[u8], at: usize)
    -> Option<(usize, usize)>;

    /// The ASCII-run kernel on `src`, writing from unit `at` on: the bytes it widened (one
    /// unit each), `None` without it.
    fn ascii_run(&mut self, kernels: Kernels, src: &[u8], at: usize) -> Option<usize>;

    /// The kernel of UTF-8 of any kind on `src`, writing from unit `at` on: the bytes it read
    /// and the units it wrote, `None` without it.
    fn any_run(&mut self, kernels: Kernels, src: &[u8], at: usize) -> Option<(usize, usize)>;
}

/// The surrogate pair of `c`, above U+FFFF: the high and low ten bits of `c - 0x10000`.
#[inline(always)]
fn surrogate_pair(c: u32) -> [u16; 2] {
    [
        0xD800 | ((c - 0x1_0000) >> 10) as u16,
        0xDC00 | (c & 0x3FF) as u16,
    ]
}

impl UnitSink for [u16] {
    const SUPPLEMENTARY: usize = 2;

    #[inline(always)]
    fn put<const N: usize>(&mut self, at: usize, units: &[u16; N]) -> bool {
        let Some(dst) = self.get_mut(at..).and_then(<[u16]>::first_chunk_mut::<N>) else {
            return false;
        };
        *dst = *units;
        true
    }

    #[inline(always)]
    fn put_ascii(&mut self, at: usize, eight: &[u8; 8], _: usize) -> bool {
        // A stack buffer of units: all eight, the last ones overwritten later.
        self.put(at, &eight.map(u16::from))
    }

    #[inline(always)]
    fn put_supplementary(&mut self, at: usize, c: u32) -> bool {
        self.put(at, &surrogate_pair(c))
    }

    #[inline(always)]
    fn three_byte_run(
        &mut self,
        kernels: Kernels,
        src: &[u8],
        at: usize,
    ) -> Option<(usize, usize)> {
        kernels.three_byte_utf16(src, self.get_mut(at..).unwrap_or_default())
    }

    #[inline(always)]
    fn ascii_run(&mut self, _: Kernels, _: &[u8], _: usize) -> Option<usize> {
        None
    }

    #[inline(always)]
    fn any_run(&mut self, _: Kernels, _: &[u8], _: usize) -> Option<(usize, usize)> {
        None
    }
}

/// The units of the ASCII bytes `eight`, of which the first `count` are chars of the text,
/// and how many of them to write into `room`: all eight where it takes scratch writes (the
/// units past `count` are overwritten later), else `count` (the bytes past the output stay
/// as they were).
#[inline(always)]
fn ascii_units(eight: &[u8; 8], count: usize, room: &Room<'_>) -> ([u16; 8], usize) {
    let len = if room.scratch() { 8 } else { count };
    (eight.map(u16::from), len)
}

/// UTF-16 bytes written into a [`Room`] from byte `base` on, each unit's two big-endian when
/// `BIG_ENDIAN`, else little-endian.
struct Ordered<'r, 'a, const BIG_ENDIAN: bool> {
    room: &'r mut Room<'a>,
    base: usize,
}

impl<const BIG_ENDIAN: bool> UnitSink for Ordered<'_, '_, BIG_ENDIAN> {
    const SUPPLEMENTARY: usize = 2;

    #[inline(always)]
    fn put<const N: usize>(&mut self, at: usize, units: &[u16; N]) -> bool {
        self.room
            .put_each(self.base + 2 * at, units, |u| unit_bytes(u, BIG_ENDIAN))
    }

    #[inline(always)]
    fn put_ascii(&mut self, at: usize, eight: &[u8; 8], count: usize) -> bool {
        let (units, len) = ascii_units(eight, count, self.room);
        let units = units.get(..len).unwrap_or_default();
        self.room
            .put_each(self.base + 2 * at, units, |u| unit_bytes(u, BIG_ENDIAN))
    }

    #[inline(always)]
    fn put_supplementary(&mut self, at: usize, c: u32) -> bool {
        self.put(at, &surrogate_pair(c))
    }

    #[inline(always)]
    fn three_byte_run(
        &mut self,
        kernels: Kernels,
        src: &[u8],
        at: usize,
    ) -> Option<(usize, usize)> {
        kernels.three_byte_utf16_bytes(src, self.room, self.base + 2 * at, BIG_ENDIAN)
    }

    #[inline(always)]
    fn ascii_run(&mut self, kernels: Kernels, src: &[u8], at: usize) -> Option<usize> {
        kernels.ascii_widen(src, self.room, self.base + 2 * at, false, BIG_ENDIAN)
    }

    #[inline(always)]
    fn any_run(&mut self, kernels: Kernels, src: &[u8], at: usize) -> Option<(usize, usize)> {
        kernels.utf8_units(src, self.room, self.base + 2 * at, false, BIG_ENDIAN)
    }
}

/// UTF-32 bytes written into a [`Room`] from byte `base` on, each char's four big-endian
/// when `BIG_ENDIAN`, else little-endian.
struct Wide<'r, 'a, const BIG_ENDIAN: bool> {
    room: &'r mut Room<'a>,
    base: usize,
}

impl<const BIG_ENDIAN: bool> UnitSink for Wide<'_, '_, BIG_ENDIAN> {
    const SUPPLEMENTARY: usize = 1;

    #[inline(always)]
    fn put<const N: usize>(&mut self, at: usize, units: &[u16; N]) -> bool {
        self.room.put_each(self.base + 4 * at, units, |u| {
            scalar_bytes(u32::from(u), BIG_ENDIAN)
        })
    }

    #[inline(always)]
    fn put_ascii(&mut self, at: usize, eight: &[u8; 8], count: usize) -> bool {
        let (units, len) = ascii_units(eight, count, self.room);
        let units = units.get(..len).unwrap_or_default();
        self.room.put_each(self.base + 4 * at, units, |u| {
            scalar_bytes(u32::from(u), BIG_ENDIAN)
        })
    }

    #[inline(always)]
    fn put_supplementary(&mut self, at: usize, c: u32) -> bool {
        self.room
            .put(self.base + 4 * at, scalar_bytes(c, BIG_ENDIAN))
    }

    #[inline(always)]
    fn three_byte_run(&mut self, _: Kernels, _: &[u8], _: usize) -> Option<(usize, usize)> {
        None
    }

    #[inline(always)]
    fn ascii_run(&mut self, kernels: Kernels, src: &[u8], at: usize) -> Option<usize> {
        kernels.ascii_widen(src, self.room, self.base + 4 * at, true, BIG_ENDIAN)
    }

    #[inline(always)]
    fn any_run(&mut self, kernels: Kernels, src: &[u8], at: usize) -> Option<(usize, usize)> {
        kernels.utf8_units(src, self.room, self.base + 4 * at, true, BIG_ENDIAN)
    }
}

/// Writes the units of `text` to the start of `dst` (UTF-16 units, or chars for UTF-32) and
/// returns their number, or fewer if `dst` is too short.
///
/// 16 bytes of input are looked at per step, in one load: all ASCII, 16 units at once; four
/// 3-byte chars in their first 12 (CJK: the run goes to `kernels`' 3-byte-run kernel where
/// it has one), or four 2-byte chars in their first 8 (Cyrillic, Greek), four units; else
/// the ASCII bytes before the first other byte (all eight widened where `dst` takes scratch
/// units, the units past the count overwritten later), then one char. A step whose units do
/// not fit in `dst` ends the loop; the last bytes go char by char. The input is a `str`, so
/// a pattern of lead and continuation bytes proves the sequences are whole.
fn utf8_to_units<D: UnitSink + ?Sized>(text: &str, dst: &mut D, kernels: Kernels) -> usize {
    let bytes = text.as_bytes();
    let (mut i, mut n) = (0, 0);
    while let Some(window) = bytes.get(i..).and_then(<[u8]>::first_chunk::<16>) {
        let wide = u128::from_le_bytes(*window);
        let three_byte = wide & THREE_BYTE_MASK == THREE_BYTE_BITS;
        if three_byte {
            if let Some((read, written)) = dst.three_byte_run(kernels, &bytes[i..], n) {
                if read != 0 {
                    (i, n) = (i + read, n + written);
                    continue;
                }
            }
        }
        if wide & HIGH_BITS_WIDE == 0 {
            // An ASCII run: the kernel's whole steps where it has them, then 16 at a time.
            if let Some(read @ 1..) = dst.ascii_run(kernels, &bytes[i..], n) {
                (i, n) = (i + read, n + read);
                continue;
            }
            if !dst.put(n, &window.map(u16::from)) {
                break;
            }
            (i, n) = (i + 16, n + 16);
            continue;
        }
        // CJK (two 3-byte chars or more among the sixteen bytes) into UTF-16 stays out of
        // the kernel of any UTF-8: the 3-byte-run kernel takes the next run from the next
        // window, faster.
        if D::SUPPLEMENTARY == 1 || three_byte_leads(wide) < 2 {
            if let Some((read @ 1.., written)) = dst.any_run(kernels, &bytes[i..], n) {
                (i, n) = (i + read, n + written);
                continue;
            }
        }
        if three_byte {
            let mut units = [0u16; 4];
            for (unit, seq) in units.iter_mut().zip(window.chunks_exact(3)) {
                *unit = (u16::from(seq[0] & 0x0F) << 12)
                    | (u16::from(seq[1] & 0x3F) << 6)
                    | u16::from(seq[2] & 0x3F);
            }
            if !dst.put(n, &units) {
                break;
            }
            (i, n) = (i + 12, n + 4);
            continue;
        }
        let word = wide as u64;
        if word & TWO_BYTE_MASK == TWO_BYTE_BITS {
            let mut units = [0u16; 4];
            for (unit, seq) in units.iter_mut().zip(window[..8].chunks_exact(2)) {
                *unit = (u16::from(seq[0] & 0x1F) << 6) | u16::from(seq[1] & 0x3F);
            }
            if !dst.put(n, &units) {
                break;
            }
            (i, n) = (i + 8, n + 4);
            continue;
        }
        let b0 = window[0];
        let (fits, read, written) = if b0 < 0x80 {
            // The ASCII bytes before the first other byte (all 8 widened; the count moves
            // past the ASCII ones only).
            let ascii = first_marked(word & HIGH_BITS);
            let Some(eight) = window.first_chunk::<8>() else {
                break;
            };
            (dst.put_ascii(n, eight, ascii), ascii, ascii)
        } else if b0 < 0xE0 {
            let unit = (u16::from(b0 & 0x1F) << 6) | u16::from(window[1] & 0x3F);
            (dst.put(n, &[unit]), 2, 1)
        } else if b0 < 0xF0 {
            let unit = (u16::from(b0 & 0x0F) << 12)
                | (u16::from(window[1] & 0x3F) << 6)
                | u16::from(window[2] & 0x3F);
            (dst.put(n, &[unit]), 3, 1)
        } else {
            let c = (u32::from(b0 & 0x07) << 18)
                | (u32::from(window[1] & 0x3F) << 12)
                | (u32::from(window[2] & 0x3F) << 6)
                | u32::from(window[3] & 0x3F);
            (dst.put_supplementary(n, c), 4, D::SUPPLEMENTARY)
        };
        if !fits {
            break;
        }
        (i, n) = (i + read, n + written);
    }
    let before = n;
    for c in text.get(i..).unwrap_or_default().chars() {
        let c = u32::from(c);
        let (fits, written) = match u16::try_from(c) {
            Ok(unit) => (dst.put(n, &[unit]), 1),
            Err(_) => (dst.put_supplementary(n, c), D::SUPPLEMENTARY),
        };
        if !fits {
            break;
        }
        n += written;
    }
    crate::counters::add(crate::counters::Path::Utf16OwnTail, n - before);
    n
}

/// The bytes of `wide` (sixteen, little-endian) that lead a 3-byte char (`1110xxxx`).
#[inline(always)]
fn three_byte_leads(wide: u128) -> u32 {
    const LOW7: u128 = u128::from_le_bytes([0x7F; 16]);
    // A zero byte where the top four bits are 1110.
    let x = (wide & u128::from_le_bytes([0xF0; 16])) ^ u128::from_le_bytes([0xE0; 16]);
    (!(((x & LOW7) + LOW7) | x) & HIGH_BITS_WIDE).count_ones()
}

/// Writes the UTF-16 of `piece` (at most [`PIECE`] bytes) into `room` from byte `base` on
/// in the given byte order and returns the number of units written: all of them when the
/// room has space for them (`2 * utf16_units(piece)` bytes). `units` is room for the units
/// of a piece, made (zeroed) at its first use.
fn write_piece<const BIG_ENDIAN: bool>(
    piece: &str,
    room: &mut Room<'_>,
    base: usize,
    units: &mut Option<[u16; PIECE + 16]>,
    kernels: Kernels,
) -> usize {
    if own_decoder(piece, kernels, true) {
        return utf8_to_units(piece, &mut Ordered::<BIG_ENDIAN> { room, base }, kernels);
    }
    let units = units.get_or_insert([0; PIECE + 16]);
    let m = encoding_rs::mem::convert_str_to_utf16(piece, units);
    let units = units.get(..m).unwrap_or_default();
    if !room.put_each(base, units, |u| unit_bytes(u, BIG_ENDIAN)) {
        return 0;
    }
    m
}

/// The room an in-place writer takes: `unit` bytes for each of the `counted` units where the
/// caller counted them; else the worst case (`worst` bytes) where the sink's `spare` room
/// holds it, written with no count; else `unit` bytes for each unit `count` gives.
#[inline(always)]
fn in_place_room(
    counted: Option<usize>,
    unit: usize,
    worst: usize,
    spare: usize,
    count: impl FnOnce() -> usize,
) -> usize {
    match counted {
        Some(n) => unit * n,
        None if spare >= worst => worst,
        None => unit * count(),
    }
}

/// Appends `text` as UTF-16 (no BOM), `units` of them when the caller has counted them
/// (`utf16_units(text)`). Written in place at the end of `out`: the whole text at once into
/// a sink that lends its memory ([`Sink::IN_PLACE`]), else a [piece](pieces) at a time.
/// Into a sink that lends its memory, uncounted units are counted only where it has less
/// room in place than the worst case (two bytes a byte of UTF-8): into one that has it
/// (the caller's slice of `max_encoded_len`), the text is written in one pass.
pub(crate) fn str_to_utf16<S: Sink>(
    text: &str,
    units: Option<usize>,
    big_endian: bool,
    out: &mut S,
    kernels: Kernels,
) {
    let mut buf = None;
    let mut write = |piece: &str, room: &mut Room<'_>, base: usize| {
        if big_endian {
            write_piece::<true>(piece, room, base, &mut buf, kernels)
        } else {
            write_piece::<false>(piece, room, base, &mut buf, kernels)
        }
    };
    if S::IN_PLACE {
        let room_len = in_place_room(units, 2, 2 * text.len(), out.spare(), || {
            crate::engine::utf16_units(text, kernels)
        });
        out.put_with(room_len, |room| {
            if kernels.decodes_any_utf8() && !mostly_three_byte(text.as_bytes()) {
                // Every piece would go through the crate's own decoder: the text in one call
                // (CJK a piece at a time, which took fewer instructions at the AVX2 level).
                add(Path::Utf16OwnDecoder, text.len());
                let n = if big_endian {
                    utf8_to_units(text, &mut Ordered::<true> { room, base: 0 }, kernels)
                } else {
                    utf8_to_units(text, &mut Ordered::<false> { room, base: 0 }, kernels)
                };
                return 2 * n;
            }
            let mut n = 0;
            for piece in pieces(text) {
                n += write(piece, room, 2 * n);
            }
            2 * n
        });
        return;
    }
    for piece in pieces(text) {
        if out.full() {
            return;
        }
        out.put_with(2 * utf16_units(piece), |room| 2 * write(piece, room, 0));
    }
}

/// Writes the chars of `piece` (at most [`PIECE`] bytes) as UTF-32 into `room` from byte
/// `base` on and returns the number written: all of them when the room has space for them.
/// A piece that is not mostly CJK goes straight into the room through the crate's own
/// decoder where `kernels` has the kernel of any UTF-8, or where it starts with 64 ASCII
/// bytes and `kernels` has the ASCII-run kernel; other text is decoded to UTF-16
/// into `units` (room for the units of a piece, made at its first use: the 3-byte-run
/// kernel for CJK text, encoding_rs's converter else), then widened into the room.
fn write_utf32_piece<const BIG_ENDIAN: bool>(
    piece: &str,
    room: &mut Room<'_>,
    base: usize,
    units: &mut Option<[u16; PIECE + 16]>,
    kernels: Kernels,
) -> usize {
    let bytes = piece.as_bytes();
    let cjk = own_decoder(piece, kernels, false);
    if !cjk
        && (kernels.decodes_any_utf8()
            || (kernels.widens_ascii_runs() && bytes.len() >= 64 && bytes[..64].is_ascii()))
    {
        return utf8_to_units(piece, &mut Wide::<BIG_ENDIAN> { room, base }, kernels);
    }
    let units = units.get_or_insert([0; PIECE + 16]);
    let m = if cjk {
        utf8_to_units(piece, &mut units[..], kernels)
    } else {
        encoding_rs::mem::convert_str_to_utf16(piece, units)
    };
    let units = units.get(..m).unwrap_or_default();
    let surrogates = units
        .iter()
        .fold(false, |acc, &u| acc | ((u & 0xF800) == 0xD800));
    if !surrogates {
        let fits = room.put_each(base, units, |u| scalar_bytes(u32::from(u), BIG_ENDIAN));
        return if fits { m } else { 0 };
    }
    let mut w = 0;
    let mut i = 0;
    while let Some(item) = next_item(units, &mut i) {
        // The units are those of a `str`: every surrogate is paired.
        let c = item.map_or(0xFFFD, u32::from);
        if !room.put(base + 4 * w, scalar_bytes(c, BIG_ENDIAN)) {
            break;
        }
        w += 1;
    }
    w
}

/// Appends `text` as UTF-32 (no BOM), `chars` of them when the caller has counted them.
/// Written in place at the end of a sink that lends its memory ([`Sink::IN_PLACE`]), else
/// through a stack buffer a piece at a time. Uncounted chars are counted only as
/// [`str_to_utf16`] counts its units.
pub(crate) fn str_to_utf32<S: Sink>(
    text: &str,
    chars: Option<usize>,
    big_endian: bool,
    out: &mut S,
    kernels: Kernels,
) {
    if S::IN_PLACE {
        // The worst case is four bytes a byte of UTF-8.
        let worst = text.len().saturating_mul(4);
        let room_len = in_place_room(chars, 4, worst, out.spare(), || {
            crate::engine::chars(text, kernels)
        });
        let mut units = None;
        out.put_with(room_len, |room| {
            if kernels.decodes_any_utf8() && !mostly_three_byte(text.as_bytes()) {
                // Text that does not begin as CJK: in one call, through the kernel of any
                // UTF-8 (CJK goes faster a piece at a time through the 3-byte-run kernel).
                let n = if big_endian {
                    utf8_to_units(text, &mut Wide::<true> { room, base: 0 }, kernels)
                } else {
                    utf8_to_units(text, &mut Wide::<false> { room, base: 0 }, kernels)
                };
                return 4 * n;
            }
            let mut n = 0;
            for piece in pieces(text) {
                n += if big_endian {
                    write_utf32_piece::<true>(piece, room, 4 * n, &mut units, kernels)
                } else {
                    write_utf32_piece::<false>(piece, room, 4 * n, &mut units, kernels)
                };
            }
            4 * n
        });
        return;
    }
    let mut bytes = [0u8; 4 * (PIECE + 1)];
    utf16_pieces(text, kernels, |units| {
        // No surrogate (the common case): one unit, one char, in a loop the compiler
        // vectorises.
        let surrogates = units
            .iter()
            .fold(false, |acc, &u| acc | ((u & 0xF800) == 0xD800));
        if !surrogates {
            let dst = &mut bytes[..4 * units.len()];
            if big_endian {
                for (quad, &u) in dst.chunks_exact_mut(4).zip(units) {
                    quad.copy_from_slice(&u32::from(u).to_be_bytes());
                }
            } else {
                for (quad, &u) in dst.chunks_exact_mut(4).zip(units) {
                    quad.copy_from_slice(&u32::from(u).to_le_bytes());
                }
            }
            out.extend_from_slice(dst);
            return;
        }
        // The units of whole chars: a pair is never cut.
        let mut w = 0;
        let mut i = 0;
        while i < units.len() {
            let u = units[i];
            let low = if (0xD800..0xDC00).contains(&u) {
                units.get(i + 1)
            } else {
                None
            };
            let c = if let Some(&low) = low {
                i += 2;
                join_pair(u, low)
            } else {
                i += 1;
                u32::from(u)
            };
            if let Some(dst) = bytes.get_mut(w..w + 4) {
                dst.copy_from_slice(&scalar_bytes(c, big_endian));
            }
            w += 4;
        }
        out.extend_from_slice(&bytes[..w.min(bytes.len())]);
    });
}

/// One item of UTF-16 input: a char, or an unpaired surrogate at its index.
#[inline(always)]
pub(crate) fn next_item(units: &[u16], i: &mut usize) -> Option<Result<char, usize>> {
    let u = *units.get(*i)?;
    let at = *i;
    *i += 1;
    match u {
        0xD800..=0xDBFF => match units.get(*i) {
            Some(&low @ 0xDC00..=0xDFFF) => {
                *i += 1;
                let c = join_pair(u, low);
                Some(char::from_u32(c).ok_or(at))
            }
            _ => Some(Err(at)),
        },
        0xDC00..=0xDFFF => Some(Err(at)),
        _ => Some(char::from_u32(u32::from(u)).ok_or(at)),
    }
}

/// The index of the first unpaired surrogate in `units`.
pub(crate) fn first_lone(units: &[u16]) -> Option<usize> {
    let valid = encoding_rs::mem::utf16_valid_up_to(units);
    (valid < units.len()).then_some(valid)
}

/// Appends `prefix` then UTF-16 `units` as UTF-16 bytes in the given order; an unpaired surrogate becomes
/// U+FFFD (what the JDK and the WHATWG standard both write), or `Err` with its index under
/// [`Policy::Strict`] (nothing appended).
pub(crate) fn utf16_to_utf16<S: Sink>(
    prefix: &[u8],
    units: &[u16],
    big_endian: bool,
    policy: Policy,
    out: &mut S,
) -> Result<(), usize> {
    if policy == Policy::Strict {
        if let Some(at) = first_lone(units) {
            return Err(at);
        }
    }
    if S::EXACT {
        out.reserve_exact(prefix.len() + 2 * units.len());
    }
    out.extend_from_slice(prefix);
    let mut staged = Staged::new(out);
    let mut i = 0;
    while i < units.len() {
        let valid = encoding_rs::mem::utf16_valid_up_to(&units[i..]);
        for chunk in units[i..i + valid].chunks(64) {
            staged.room(128);
            let w = staged.w;
            if let Some(dst) = staged.buf.get_mut(w..w + 2 * chunk.len()) {
                for (pair, &u) in dst.chunks_exact_mut(2).zip(chunk) {
                    pair.copy_from_slice(&unit_bytes(u, big_endian));
                }
            }
            staged.w += 2 * chunk.len();
        }
        i += valid;
        if i < units.len() {
            staged.put(unit_bytes(0xFFFD, big_endian));
            staged.out.replaced();
            i += 1;
        }
    }
    Ok(())
}

/// Appends `prefix` then UTF-16 `units` as UTF-32 in the given order; an unpaired surrogate becomes U+FFFD,
/// or `Err` with its index under [`Policy::Strict`] (nothing appended).
pub(crate) fn utf16_to_utf32<S: Sink>(
    prefix: &[u8],
    units: &[u16],
    big_endian: bool,
    policy: Policy,
    out: &mut S,
) -> Result<(), usize> {
    if policy == Policy::Strict {
        if let Some(at) = first_lone(units) {
            return Err(at);
        }
    }
    if S::EXACT {
        let pairs = units
            .windows(2)
            .filter(|w| (0xD800..=0xDBFF).contains(&w[0]) && (0xDC00..=0xDFFF).contains(&w[1]))
            .count();
        out.reserve_exact(prefix.len() + 4 * (units.len() - pairs));
    }
    out.extend_from_slice(prefix);
    let mut staged = Staged::new(out);
    let mut i = 0;
    while let Some(item) = next_item(units, &mut i) {
        let c = item.unwrap_or_else(|_| {
            staged.out.replaced();
            '\u{FFFD}'
        });
        staged.put(scalar_bytes(u32::from(c), big_endian));
    }
    Ok(())
}

/// The number of bytes of `text` in the JDK's CESU-8: its UTF-8 length, and two more for
/// each 4-byte char (written as two 3-byte surrogates).
pub(crate) fn cesu8_len(text: &str) -> usize {
    let four_byte = text
        .as_bytes()
        .chunks(128)
        .map(|chunk| {
            let n: u8 = chunk.iter().map(|&b| u8::from(b >= 0xF0)).sum();
            usize::from(n)
        })
        .sum::<usize>();
    text.len() + 2 * four_byte
}

/// A UTF-16 unit (a surrogate too) as the three bytes CESU-8 and modified UTF-8 give it.
fn three_bytes(u: u16) -> [u8; 3] {
    [
        0xE0 | (u >> 12) as u8,
        0x80 | ((u >> 6) & 0x3F) as u8,
        0x80 | (u & 0x3F) as u8,
    ]
}

/// Appends `text` in the JDK's CESU-8: the UTF-8 between 4-byte chars as it is, each 4-byte
/// char as its two surrogates of three bytes each.
pub(crate) fn str_to_cesu8<S: Sink>(text: &str, out: &mut S) {
    if S::EXACT {
        out.reserve_exact(cesu8_len(text));
    }
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(at) = bytes[from..].iter().position(|&b| b >= 0xF0) {
        let at = from + at;
        out.extend_from_slice(&bytes[from..at]);
        let c = text[at..].chars().next().map_or(0, u32::from);
        let high = 0xD800 | ((c - 0x1_0000) >> 10) as u16;
        let low = 0xDC00 | (c & 0x3FF) as u16;
        out.extend_from_slice(&three_bytes(high));
        out.extend_from_slice(&three_bytes(low));
        from = at + 4;
    }
    out.extend_from_slice(&bytes[from..]);
}

/// Appends UTF-16 `units` in the JDK's CESU-8: a surrogate pair as its two surrogates of
/// three bytes each; an unpaired surrogate is `?` ([`Policy::Jdk`]: the JDK's replacement),
/// U+FFFD ([`Policy::Whatwg`]) or `Err` with its index ([`Policy::Strict`], nothing
/// appended).
pub(crate) fn utf16_to_cesu8<S: Sink>(
    units: &[u16],
    policy: Policy,
    out: &mut S,
) -> Result<(), usize> {
    if policy == Policy::Strict {
        if let Some(at) = first_lone(units) {
            return Err(at);
        }
    }
    let lone: &[u8] = if policy == Policy::Jdk {
        b"?"
    } else {
        "\u{FFFD}".as_bytes()
    };
    if S::EXACT {
        let mut len = 0;
        let mut i = 0;
        while let Some(item) = next_item(units, &mut i) {
            len += match item {
                Ok(c) if (c as u32) < 0x80 => 1,
                Ok(c) if (c as u32) < 0x800 => 2,
                Ok(c) if (c as u32) < 0x1_0000 => 3,
                Ok(_) => 6,
                Err(_) => lone.len(),
            };
        }
        out.reserve_exact(len);
    }
    let mut staged = Staged::new(out);
    let mut i = 0;
    while let Some(item) = next_item(units, &mut i) {
        match item {
            Ok(c) => {
                let c = u32::from(c);
                if c < 0x80 {
                    staged.put([c as u8]);
                } else if c < 0x800 {
                    staged.put([0xC0 | (c >> 6) as u8, 0x80 | (c & 0x3F) as u8]);
                } else if c < 0x1_0000 {
                    staged.put(three_bytes(c as u16));
                } else {
                    staged.put(three_bytes(0xD800 | ((c - 0x1_0000) >> 10) as u16));
                    staged.put(three_bytes(0xDC00 | (c & 0x3FF) as u16));
                }
            }
            Err(_) => {
                staged.out.replaced();
                if lone.len() == 1 {
                    staged.put([lone[0]]);
                } else {
                    staged.put([0xEF, 0xBF, 0xBD]);
                }
            }
        }
    }
    Ok(())
}

/// A char of each class of UTF-8 length and UTF-16 form, the edges of each: what the tests
/// of the decoders and their kernels build their texts from.
#[cfg(test)]
pub(crate) const CHAR_CLASSES: [char; 9] = [
    'a',
    'é',
    '\u{7FF}',
    'ж',
    '\u{800}',
    '日',
    '\u{FFFF}',
    '😀',
    '\u{10FFFF}',
];

#[cfg(test)]
mod tests {
    use super::*;
    use wirebytes_testkit::Rng;
    use wirebytes_testkit::text::random_text;

    /// `utf16_units` counts what `encode_utf16` writes when ASCII blocks come first and
    /// the first other char sits at every offset of the block after them: its bytes may
    /// cancel out in an XOR of the block (`é` is `C3 A9`), a 4-byte char counts two.
    #[test]
    fn units_after_ascii_blocks() {
        for blocks in [0, 1, 3] {
            for c in ['é', '€', '😀', 'a'] {
                for at in 0..70 {
                    let mut text = "x".repeat(64 * blocks + at);
                    text.push(c);
                    text.push_str(&"y".repeat(70 - at));
                    assert_eq!(
                        utf16_units(&text),
                        text.encode_utf16().count(),
                        "{blocks} blocks, {c:?} at {at}"
                    );
                }
            }
        }
    }

    /// `utf8_to_units` of `text` into room for one unit per byte equals the standard
    /// library's `encode_utf16`, as `u16`s and as bytes in each order, and its chars as UTF-32
    /// in each order; `str_to_utf16` and `str_to_utf32` into exactly the room of their bytes
    /// fill it with them, and into a `Vec` (not zeroed) append them. At every kernel level.
    fn same(text: &str) {
        let want: Vec<u16> = text.encode_utf16().collect();
        let be: Vec<u8> = want.iter().flat_map(|u| u.to_be_bytes()).collect();
        let le: Vec<u8> = want.iter().flat_map(|u| u.to_le_bytes()).collect();
        let be32: Vec<u8> = text
            .chars()
            .flat_map(|c| u32::from(c).to_be_bytes())
            .collect();
        let le32: Vec<u8> = text
            .chars()
            .flat_map(|c| u32::from(c).to_le_bytes())
            .collect();
        for (level, kernels) in Kernels::levels() {
            let mut dst = vec![0u16; text.len()];
            let n = utf8_to_units(text, &mut dst[..], kernels);
            assert_eq!(&dst[..n], &want[..], "{level}: {text:?}");
            // Under Miri the exact writes below stand for the byte sinks.
            if !cfg!(miri) {
                let mut bytes = vec![0u8; 4 * text.len()];
                let mut room = Room::new(&mut bytes);
                let n = utf8_to_units(
                    text,
                    &mut Ordered::<true> {
                        room: &mut room,
                        base: 0,
                    },
                    kernels,
                );
                assert_eq!(&bytes[..2 * n], &be[..], "{level}, big-endian: {text:?}");
                let mut room = Room::new(&mut bytes);
                let n = utf8_to_units(
                    text,
                    &mut Ordered::<false> {
                        room: &mut room,
                        base: 0,
                    },
                    kernels,
                );
                assert_eq!(&bytes[..2 * n], &le[..], "{level}, little-endian: {text:?}");
                let mut room = Room::new(&mut bytes);
                let n = utf8_to_units(
                    text,
                    &mut Wide::<true> {
                        room: &mut room,
                        base: 0,
                    },
                    kernels,
                );
                assert_eq!(&bytes[..4 * n], &be32[..], "{level}, UTF-32BE: {text:?}");
                let mut room = Room::new(&mut bytes);
                let n = utf8_to_units(
                    text,
                    &mut Wide::<false> {
                        room: &mut room,
                        base: 0,
                    },
                    kernels,
                );
                assert_eq!(&bytes[..4 * n], &le32[..], "{level}, UTF-32LE: {text:?}");
            }
            for (want, wide, big_endian) in [
                (&be, false, true),
                (&le, false, false),
                (&be32, true, true),
                (&le32, true, false),
            ] {
                let write = |out: &mut Vec<u8>| {
                    if wide {
                        str_to_utf32(text, None, big_endian, out, kernels);
                    } else {
                        str_to_utf16(text, None, big_endian, out, kernels);
                    }
                };
                let mut exact = vec![0u8; want.len()];
                let mut sink = crate::sink::SliceSink::new(&mut exact);
                if wide {
                    str_to_utf32(text, None, big_endian, &mut sink, kernels);
                } else {
                    str_to_utf16(text, None, big_endian, &mut sink, kernels);
                }
                let n = sink.written();
                assert_eq!(
                    (n, &exact),
                    (Some(want.len()), want),
                    "{level}, exact room, wide {wide}, big-endian {big_endian}: {text:?}"
                );
                let mut vec = b"pre".to_vec();
                write(&mut vec);
                assert_eq!(&vec[3..], &want[..], "{level}, Vec: {text:?}");
            }
        }
    }

    #[test]
    fn runs_of_each_length_broken_at_every_place() {
        let chars = super::CHAR_CLASSES;
        let every = wirebytes_testkit::scale_miri(1, 1, 13);
        for &run in &chars {
            for &other in chars.iter().step_by(every.min(4)) {
                for len in (0..=40).step_by(every) {
                    for at in (0..len).chain([len]).step_by(every) {
                        let text: String = (0..len)
                            .map(|k| if k == at { other } else { run })
                            .collect();
                        same(&text);
                        same(&format!("x{text}yz"));
                    }
                }
            }
        }
    }

    #[test]
    fn random_text_converts_as_encode_utf16() {
        let mut rng = Rng::new(0x0055_7F16);
        for _ in 0..wirebytes_testkit::scale_miri(3000, 300, 8) {
            let text = random_text(&mut rng, 12);
            same(&text);
        }
    }

    #[test]
    fn short_room_stops_without_writing_past_it() {
        let text = "日本語のテキスト、ASCII and ü".repeat(4);
        let all: Vec<u16> = text.encode_utf16().collect();
        for (level, kernels) in Kernels::levels() {
            for room in 0..40 {
                let mut dst = vec![0u16; room];
                let n = utf8_to_units(&text, &mut dst[..], kernels);
                assert_eq!(&dst[..n], &all[..n], "{level}, room {room}");
                assert!(n <= room);
                // Bytes: a sentinel after the room stays.
                let mut bytes = vec![0xEEu8; 2 * room + 1];
                let mut lent = Room::new(&mut bytes[..2 * room]);
                let n = utf8_to_units(
                    &text,
                    &mut Ordered::<true> {
                        room: &mut lent,
                        base: 0,
                    },
                    kernels,
                );
                let want: Vec<u8> = all[..n].iter().flat_map(|u| u.to_be_bytes()).collect();
                assert_eq!(&bytes[..2 * n], &want[..], "{level}, room {room}");
                assert_eq!(bytes[2 * room], 0xEE, "{level}, room {room}");
            }
        }
    }

    /// CJK bodies long enough for every kernel step (16, 8 and 4 chars), with one other char
    /// at every place, through `str_to_utf16` into exactly the room they need.
    #[test]
    fn cjk_bodies_with_one_other_char_anywhere_write_exactly() {
        // Under Miri, the longest body (every kernel step) at three places.
        let every = wirebytes_testkit::scale_miri(1, 1, 35);
        let lens: &[usize] = if cfg!(miri) { &[70] } else { &[20, 37, 70] };
        for other in ['a', 'é', 'ж', '😀', '\u{FFFF}'] {
            for &len in lens {
                for at in (0..=len).step_by(every) {
                    let text: String = (0..len)
                        .map(|k| {
                            if k == at {
                                other
                            } else {
                                char::from_u32(0x3041 + k as u32).unwrap_or('日')
                            }
                        })
                        .collect();
                    same(&text);
                }
            }
        }
    }
}
