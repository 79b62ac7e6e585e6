//! UTF-8, UTF-16 and UTF-32 targets: the exact size computed up front, one reservation,
//! then the bytes written through a stack buffer appended a KiB at a time.

use crate::Policy;

/// Output staged in a stack buffer, appended to `out` when full and at the end.
struct Staged<'a> {
    out: &'a mut Vec<u8>,
    buf: [u8; Staged::SIZE],
    w: usize,
}

impl<'a> Staged<'a> {
    const SIZE: usize = 1024;

    fn new(out: &'a mut Vec<u8>) -> Self {
        Staged {
            out,
            buf: [0; Self::SIZE],
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

impl Drop for Staged<'_> {
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

/// The number of UTF-16 units of `text`: one per char, two for a four-byte one.
#[inline]
pub(crate) fn utf16_units(text: &str) -> usize {
    text.as_bytes()
        .chunks(128)
        .map(|chunk| {
            let n: u16 = chunk
                .iter()
                .map(|&b| u16::from((b as i8) >= -0x40) + u16::from(b >= 0xF0))
                .sum();
            usize::from(n)
        })
        .sum()
}

/// How many bytes of `&str` input are converted to UTF-16 at a time.
const PIECE: usize = 512;

/// Calls `f` with the UTF-16 of `text`, [`PIECE`] bytes of input (cut at a char boundary) at a
/// time, converted by encoding_rs's `mem::convert_str_to_utf16` (ASCII in vectors).
#[inline]
fn utf16_pieces(text: &str, mut f: impl FnMut(&[u16])) {
    let mut units = [0u16; PIECE + 1];
    let mut rest = text;
    while !rest.is_empty() {
        let mut cut = rest.len().min(PIECE);
        while !rest.is_char_boundary(cut) {
            cut -= 1;
        }
        let (piece, tail) = rest.split_at(cut);
        let n = encoding_rs::mem::convert_str_to_utf16(piece, &mut units);
        f(&units[..n.min(units.len())]);
        rest = tail;
    }
}

/// Appends `units` as UTF-16 bytes in the given order, through a stack buffer.
#[inline]
fn put_units(units: &[u16], big_endian: bool, out: &mut Vec<u8>) {
    let mut bytes = [0u8; 2 * (PIECE + 1)];
    for chunk in units.chunks(PIECE + 1) {
        let dst = &mut bytes[..2 * chunk.len()];
        if big_endian {
            for (pair, &u) in dst.chunks_exact_mut(2).zip(chunk) {
                pair.copy_from_slice(&u.to_be_bytes());
            }
        } else {
            for (pair, &u) in dst.chunks_exact_mut(2).zip(chunk) {
                pair.copy_from_slice(&u.to_le_bytes());
            }
        }
        out.extend_from_slice(dst);
    }
}

/// Appends `text` as UTF-16 (no BOM); the caller has reserved `2 * utf16_units(text)`.
pub(crate) fn str_to_utf16(text: &str, big_endian: bool, out: &mut Vec<u8>) {
    utf16_pieces(text, |units| put_units(units, big_endian, out));
}

/// Appends `text` as UTF-32 (no BOM).
pub(crate) fn str_to_utf32(text: &str, big_endian: bool, out: &mut Vec<u8>) {
    let chars = crate::single_byte::count_chars(text.as_bytes());
    out.reserve_exact(4 * chars);
    let mut bytes = [0u8; 4 * (PIECE + 1)];
    utf16_pieces(text, |units| {
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
            let u = u32::from(units[i]);
            let low = if (0xD800..0xDC00).contains(&u) {
                units.get(i + 1)
            } else {
                None
            };
            let c = if let Some(&low) = low {
                i += 2;
                0x1_0000 + ((u - 0xD800) << 10) + (u32::from(low) & 0x3FF)
            } else {
                i += 1;
                u
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
                let c = 0x1_0000 + ((u32::from(u) - 0xD800) << 10) + (u32::from(low) - 0xDC00);
                Some(char::from_u32(c).ok_or(at))
            }
            _ => Some(Err(at)),
        },
        0xDC00..=0xDFFF => Some(Err(at)),
        _ => Some(char::from_u32(u32::from(u)).ok_or(at)),
    }
}

/// The index of the first unpaired surrogate in `units`.
fn first_lone(units: &[u16]) -> Option<usize> {
    let valid = encoding_rs::mem::utf16_valid_up_to(units);
    (valid < units.len()).then_some(valid)
}

/// Appends `prefix` then UTF-16 `units` as UTF-8; an unpaired surrogate is `?` ([`Policy::Jdk`]), U+FFFD
/// ([`Policy::Whatwg`]) or `Err` with its index ([`Policy::Strict`], nothing appended).
pub(crate) fn utf16_to_utf8(
    prefix: &[u8],
    units: &[u16],
    policy: Policy,
    out: &mut Vec<u8>,
) -> Result<(), usize> {
    if policy == Policy::Strict {
        if let Some(at) = first_lone(units) {
            return Err(at);
        }
    }
    let lone_len = if policy == Policy::Jdk { 1 } else { 3 };
    let mut len = 0;
    let mut i = 0;
    while i < units.len() {
        let u = units[i];
        i += 1;
        len += match u {
            0..=0x7F => 1,
            0x80..=0x7FF => 2,
            0xD800..=0xDBFF if i < units.len() && (0xDC00..=0xDFFF).contains(&units[i]) => {
                i += 1;
                4
            }
            0xD800..=0xDFFF => lone_len,
            _ => 3,
        };
    }
    out.reserve_exact(prefix.len() + len);
    out.extend_from_slice(prefix);
    let mut buf = [0u8; 4];
    for c in char::decode_utf16(units.iter().copied()) {
        match c {
            Ok(c) if (c as u32) < 0x80 => out.push(c as u8),
            Ok(c) => out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes()),
            Err(_) if policy == Policy::Jdk => out.push(b'?'),
            Err(_) => out.extend_from_slice("\u{FFFD}".as_bytes()),
        }
    }
    Ok(())
}

/// Appends `prefix` then UTF-16 `units` as UTF-16 bytes in the given order; an unpaired surrogate becomes
/// U+FFFD (what the JDK and the WHATWG standard both write), or `Err` with its index under
/// [`Policy::Strict`] (nothing appended).
pub(crate) fn utf16_to_utf16(
    prefix: &[u8],
    units: &[u16],
    big_endian: bool,
    policy: Policy,
    out: &mut Vec<u8>,
) -> Result<(), usize> {
    if policy == Policy::Strict {
        if let Some(at) = first_lone(units) {
            return Err(at);
        }
    }
    out.reserve_exact(prefix.len() + 2 * units.len());
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
            i += 1;
        }
    }
    Ok(())
}

/// Appends UTF-16 `units` as UTF-32 in the given order; an unpaired surrogate becomes U+FFFD,
/// or `Err` with its index under [`Policy::Strict`] (nothing appended).
pub(crate) fn utf16_to_utf32(
    units: &[u16],
    big_endian: bool,
    policy: Policy,
    out: &mut Vec<u8>,
) -> Result<(), usize> {
    if policy == Policy::Strict {
        if let Some(at) = first_lone(units) {
            return Err(at);
        }
    }
    let pairs = units
        .windows(2)
        .filter(|w| (0xD800..=0xDBFF).contains(&w[0]) && (0xDC00..=0xDFFF).contains(&w[1]))
        .count();
    out.reserve_exact(4 * (units.len() - pairs));
    let mut staged = Staged::new(out);
    let mut i = 0;
    while let Some(item) = next_item(units, &mut i) {
        let c = item.map_or(0xFFFD, u32::from);
        staged.put(scalar_bytes(c, big_endian));
    }
    Ok(())
}
