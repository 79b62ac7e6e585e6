//! The single-byte charsets where ASCII is not its own byte: the EBCDIC code pages, IBM864,
//! the Mac symbol charsets. Every char goes through the table; a block of 64 ASCII bytes,
//! when the charset maps every ASCII char, through a 128-byte lookup (one `vpermi2b` with
//! AVX-512 VBMI, `pshufb` nibble lookups with SSSE3, a byte-by-byte loop elsewhere).

use crate::Policy;
use crate::arch::Kernels;
use crate::ncr::{ncr_len, push_ncr};
use crate::single_byte::{BLOCK, Table, count_chars, decode_at, scalar_at};
use crate::sink::Sink;

/// Output collects in a stack buffer of this many bytes and goes to the sink when it holds
/// fewer than [`ROOM`] free.
const STAGE: usize = 2048;
/// The most one block writes: [`BLOCK`] chars, each at most `&#1114111;` (ten bytes).
const ROOM: usize = BLOCK * 10;

/// The byte of each ASCII char, 128 at a time, through the table's lookup (every ASCII char
/// maps: the caller checks [`Table::maps_all_ascii`]).
#[inline]
fn ascii_block(ascii: &[u8; 128], src: &[u8; BLOCK], dst: &mut [u8; BLOCK], kernels: Kernels) {
    if kernels.byte_map(src, ascii, dst).is_none() {
        for (d, &s) in dst.iter_mut().zip(src) {
            *d = ascii[usize::from(s & 0x7F)];
        }
    }
}

/// Appends the encoding of `text` to `out`. [`Policy::Strict`]: `Err` with the byte offset
/// of the first unmappable char.
pub(crate) fn encode_str<S: Sink>(
    table: &Table,
    text: &str,
    policy: Policy,
    out: &mut S,
    kernels: Kernels,
) -> Result<(), usize> {
    let bytes = text.as_bytes();
    if S::EXACT {
        out.reserve_exact(len_str(table, text, policy));
    }
    let ascii = table.ascii_bytes();
    let blocks = table.maps_all_ascii();
    let mut stage = [0u8; STAGE];
    let mut w = 0;
    let mut i = 0;
    while i < bytes.len() {
        if w + ROOM > STAGE {
            out.extend_from_slice(&stage[..w]);
            w = 0;
            if out.full() {
                return Ok(());
            }
        }
        if blocks {
            if let Some(block) = bytes.get(i..).and_then(<[u8]>::first_chunk::<BLOCK>) {
                if block.is_ascii() {
                    if let Some(dst) = stage.get_mut(w..).and_then(<[u8]>::first_chunk_mut) {
                        ascii_block(&ascii, block, dst, kernels);
                        w += BLOCK;
                        i += BLOCK;
                        continue;
                    }
                }
            }
        }
        // Up to a block of chars one by one (the last may end past the block).
        let end = (i + BLOCK).min(bytes.len());
        while i < end {
            let lead = bytes[i];
            let (c, len, mapped) = if lead < 0x80 {
                (u32::from(lead), 1, table.ascii(lead))
            } else {
                let (c, len) = decode_at(bytes, i, lead);
                let b = table.get(c);
                (c, len, (b != 0).then_some(b))
            };
            if let Some(b) = mapped {
                stage[w % STAGE] = b;
                w += 1;
            } else {
                match policy {
                    Policy::Jdk => {
                        stage[w % STAGE] = table.replacement;
                        w += 1;
                    }
                    Policy::Whatwg => {
                        let mut ncr = [0u8; 12];
                        let n = crate::ncr::write_ncr(&mut ncr, c);
                        if let Some(dst) = stage.get_mut(w..w + n) {
                            dst.copy_from_slice(&ncr[..n]);
                        }
                        w += n;
                    }
                    Policy::Strict => {
                        out.extend_from_slice(&stage[..w.min(STAGE)]);
                        return Err(i);
                    }
                }
                out.replaced();
            }
            i += len;
        }
    }
    out.extend_from_slice(&stage[..w.min(STAGE)]);
    Ok(())
}

/// The exact output length of `text` with `policy`.
pub(crate) fn len_str(table: &Table, text: &str, policy: Policy) -> usize {
    match policy {
        Policy::Whatwg => text
            .chars()
            .map(|c| {
                let mapped = match u8::try_from(c) {
                    Ok(b) if b < 0x80 => table.ascii(b).is_some(),
                    _ => table.get(u32::from(c)) != 0,
                };
                if mapped { 1 } else { ncr_len(c) }
            })
            .sum(),
        Policy::Jdk | Policy::Strict => count_chars(text.as_bytes()),
    }
}

/// The exact output length of UTF-16 `units` with `policy`.
fn len_units(table: &Table, units: &[u16], policy: Policy) -> usize {
    if policy != Policy::Whatwg {
        return units.len()
            - units
                .windows(2)
                .filter(|w| (0xD800..0xDC00).contains(&w[0]) && (0xDC00..0xE000).contains(&w[1]))
                .count();
    }
    let mut n = 0;
    let mut i = 0;
    while i < units.len() {
        let u = units[i];
        i += 1;
        let (c, mapped) = if u < 0x80 {
            (u32::from(u), table.ascii(u as u8).is_some())
        } else {
            let c = scalar_at(units, &mut i, u);
            (c, table.get(c) != 0)
        };
        n += if mapped {
            1
        } else {
            char::from_u32(c).map_or(8, ncr_len)
        };
    }
    n
}

/// Appends the encoding of UTF-16 `units`. An unpaired surrogate is U+FFFD, which no
/// single-byte charset maps: the replacement ([`Policy::Jdk`]), `&#65533;`
/// ([`Policy::Whatwg`]), or `Err` with its index ([`Policy::Strict`], nothing appended).
pub(crate) fn encode_utf16<S: Sink>(
    table: &Table,
    units: &[u16],
    policy: Policy,
    out: &mut S,
) -> Result<(), usize> {
    let start = out.len();
    if S::EXACT {
        out.reserve_exact(len_units(table, units, policy));
    }
    let mut i = 0;
    while i < units.len() {
        let u = units[i];
        let at = i;
        i += 1;
        let (c, mapped) = if u < 0x80 {
            (u32::from(u), table.ascii(u as u8))
        } else {
            let c = scalar_at(units, &mut i, u);
            let b = table.get(c);
            (c, (b != 0).then_some(b))
        };
        if let Some(b) = mapped {
            out.push(b);
            continue;
        }
        match policy {
            Policy::Jdk => out.push(table.replacement),
            Policy::Whatwg => push_ncr(out, c),
            Policy::Strict => {
                out.truncate(start);
                return Err(at);
            }
        }
        out.replaced();
    }
    Ok(())
}
