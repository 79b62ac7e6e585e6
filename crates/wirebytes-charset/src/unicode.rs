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

/// Whether the eight bytes at `bytes[..8]` are ASCII.
#[inline(always)]
fn ascii8(bytes: &[u8; 8]) -> bool {
    u64::from_ne_bytes(*bytes) & 0x8080_8080_8080_8080 == 0
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

/// Appends `text` as UTF-16 (no BOM); the caller has reserved `2 * utf16_units(text)`.
pub(crate) fn str_to_utf16(text: &str, big_endian: bool, out: &mut Vec<u8>) {
    let bytes = text.as_bytes();
    let mut staged = Staged::new(out);
    let mut i = 0;
    while i < bytes.len() {
        // ASCII eight bytes at a time.
        if let Some(eight) = bytes.get(i..).and_then(<[u8]>::first_chunk::<8>)
            && ascii8(eight)
        {
            staged.room(16);
            let w = staged.w;
            if let Some(dst) = staged.buf.get_mut(w..w + 16) {
                for (pair, &b) in dst.chunks_exact_mut(2).zip(eight) {
                    pair.copy_from_slice(&unit_bytes(u16::from(b), big_endian));
                }
            }
            staged.w += 16;
            i += 8;
            continue;
        }
        let Some(c) = text.get(i..).and_then(|rest| rest.chars().next()) else {
            break;
        };
        i += c.len_utf8();
        let mut units = [0u16; 2];
        match *c.encode_utf16(&mut units) {
            [u] => staged.put(unit_bytes(u, big_endian)),
            [hi, lo] => {
                staged.put(unit_bytes(hi, big_endian));
                staged.put(unit_bytes(lo, big_endian));
            }
            _ => {}
        }
    }
}

/// Appends `text` as UTF-32 (no BOM).
pub(crate) fn str_to_utf32(text: &str, big_endian: bool, out: &mut Vec<u8>) {
    let chars = crate::single_byte::count_chars(text.as_bytes());
    out.reserve_exact(4 * chars);
    let bytes = text.as_bytes();
    let mut staged = Staged::new(out);
    let mut i = 0;
    while i < bytes.len() {
        if let Some(eight) = bytes.get(i..).and_then(<[u8]>::first_chunk::<8>)
            && ascii8(eight)
        {
            staged.room(32);
            let w = staged.w;
            if let Some(dst) = staged.buf.get_mut(w..w + 32) {
                for (quad, &b) in dst.chunks_exact_mut(4).zip(eight) {
                    quad.copy_from_slice(&scalar_bytes(u32::from(b), big_endian));
                }
            }
            staged.w += 32;
            i += 8;
            continue;
        }
        let Some(c) = text.get(i..).and_then(|rest| rest.chars().next()) else {
            break;
        };
        i += c.len_utf8();
        staged.put(scalar_bytes(u32::from(c), big_endian));
    }
}

/// One item of UTF-16 input: a char, or an unpaired surrogate at its index.
#[inline(always)]
fn next_item(units: &[u16], i: &mut usize) -> Option<Result<char, usize>> {
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
    if policy == Policy::Strict
        && let Some(at) = first_lone(units)
    {
        return Err(at);
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
    if policy == Policy::Strict
        && let Some(at) = first_lone(units)
    {
        return Err(at);
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
    if policy == Policy::Strict
        && let Some(at) = first_lone(units)
    {
        return Err(at);
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
