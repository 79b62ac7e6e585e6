//! UTF-8 and UTF-16LE/BE targets: exact size computed up front, one allocation.

use crate::Policy;

/// UTF-16 `units` as UTF-8 after `prefix`; an unpaired surrogate is `?` ([`Policy::Jdk`]) or
/// U+FFFD ([`Policy::Whatwg`]).
pub(crate) fn utf16_to_utf8(prefix: &[u8], units: &[u16], policy: Policy) -> Vec<u8> {
    let lone_len = if policy == Policy::Jdk { 1 } else { 3 };
    let mut len = prefix.len();
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
    let mut out = Vec::with_capacity(len);
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
    out
}

/// Appends one UTF-16 code unit in the given byte order.
#[inline(always)]
fn push_unit(out: &mut Vec<u8>, unit: u16, big_endian: bool) {
    let bytes = if big_endian {
        unit.to_be_bytes()
    } else {
        unit.to_le_bytes()
    };
    out.extend_from_slice(&bytes);
}

/// `text` as UTF-16 bytes (no BOM unless `prefix` is one).
pub(crate) fn str_to_utf16(prefix: &[u8], text: &str, big_endian: bool) -> Vec<u8> {
    let bytes = text.as_bytes();
    // Every char is one unit, and a four-byte one (lead 0xF0..) a second one.
    let units = bytes
        .iter()
        .map(|&b| usize::from((b as i8) >= -0x40) + usize::from(b >= 0xF0))
        .sum::<usize>();
    let mut out = Vec::with_capacity(prefix.len() + 2 * units);
    out.extend_from_slice(prefix);
    let mut rest = text;
    while !rest.is_empty() {
        // ASCII runs eight bytes at a time.
        let ascii = rest
            .as_bytes()
            .chunks_exact(8)
            .take_while(|chunk| {
                u64::from_ne_bytes([
                    chunk[0], chunk[1], chunk[2], chunk[3], chunk[4], chunk[5], chunk[6], chunk[7],
                ]) & 0x8080_8080_8080_8080
                    == 0
            })
            .count()
            * 8;
        for &b in &rest.as_bytes()[..ascii] {
            push_unit(&mut out, u16::from(b), big_endian);
        }
        rest = &rest[ascii..];
        // Then one char (ASCII or not) the ordinary way.
        let Some(c) = rest.chars().next() else {
            break;
        };
        let mut buf = [0u16; 2];
        for &unit in c.encode_utf16(&mut buf).iter() {
            push_unit(&mut out, unit, big_endian);
        }
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// UTF-16 `units` as bytes in the given order; an unpaired surrogate becomes U+FFFD (what the
/// JDK and the WHATWG standard both write).
pub(crate) fn utf16_to_utf16(prefix: &[u8], units: &[u16], big_endian: bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(prefix.len() + 2 * units.len());
    out.extend_from_slice(prefix);
    let mut i = 0;
    while i < units.len() {
        let valid = encoding_rs::mem::utf16_valid_up_to(&units[i..]);
        for &unit in &units[i..i + valid] {
            push_unit(&mut out, unit, big_endian);
        }
        i += valid;
        if i < units.len() {
            push_unit(&mut out, 0xFFFD, big_endian);
            i += 1;
        }
    }
    out
}
