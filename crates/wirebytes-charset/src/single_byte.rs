//! The 29 single-byte encodings: a reverse table per encoding, built once from encoding_rs's
//! own decoder of the 128 upper bytes, so the mapping is encoding_rs's by construction.

use std::sync::OnceLock;

use encoding_rs::Encoding;

use crate::encodings::{ALL, FIRST_SINGLE_BYTE, SINGLE_BYTE_COUNT};
use crate::{Policy, ncr_len, push_ncr};

/// Char -> byte for one single-byte encoding. A 0 entry means "not mappable" (no non-ASCII
/// char maps to the byte 0x00 in any of these encodings); ASCII maps to itself.
pub(crate) struct Table {
    /// U+0000..U+07FF (every char that is two bytes in UTF-8, where Latin, Greek, Cyrillic,
    /// Hebrew and Arabic letters live): one lookup.
    low: Box<[u8; 0x800]>,
    /// U+0800..U+FFFF: the high byte selects a page of `pages` (page 0 is all zero).
    index: [u8; 256],
    pages: Vec<[u8; 256]>,
    /// The block encoder's view: indexed by `lead << 6 | (next & 0x3F)` for the byte `lead`
    /// that starts a one- or two-byte char and the byte after it, so that ASCII (the entry
    /// is `lead` whatever follows) and two-byte chars need no branch to tell them apart.
    pairs: Box<[u8; 0x4000]>,
    /// U+00A0..U+00FF map to the bytes 0xA0..0xFF (windows-1252, the WHATWG "ISO-8859-1"):
    /// such chars are encoded arithmetically by [`latin1_block`], without the table.
    latin1: bool,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("pages", &self.pages.len())
            .finish()
    }
}

impl Table {
    fn build(encoding: &'static Encoding) -> Table {
        let mut table = Table {
            low: Box::new([0; 0x800]),
            index: [0; 256],
            pages: vec![[0; 256]],
            pairs: Box::new([0; 0x4000]),
            latin1: false,
        };
        // ASCII maps to itself (only the block encoder looks ASCII up).
        for b in 0..0x80u8 {
            table.low[usize::from(b)] = b;
        }
        for b in 0x80..=0xFFu8 {
            let byte = [b];
            let (text, had_errors) = encoding.decode_without_bom_handling(&byte);
            if had_errors {
                continue; // the byte is unassigned: decodes to U+FFFD
            }
            let mut chars = text.chars();
            let (Some(c), None) = (chars.next(), chars.next()) else {
                continue;
            };
            let c = c as u32;
            // The first byte that decodes to a char is the one that char encodes to (the
            // WHATWG "index pointer"); none of encoding_rs's tables map a char twice, but
            // this keeps the choice explicit.
            if table.get(c) == 0 {
                table.set(c, b);
            }
        }
        for lead in (0..0x80).chain(0xC0..0xE0) {
            for next in 0..0x40 {
                let c = if lead < 0x80 {
                    lead
                } else {
                    ((lead & 0x1F) << 6) | next
                };
                table.pairs[(lead << 6) | next] = table.low[c];
            }
        }
        table.latin1 = (0xA0..=0xFF).all(|c| usize::from(table.low[c]) == c);
        table
    }

    fn set(&mut self, c: u32, b: u8) {
        if c < 0x800 {
            self.low[c as usize] = b;
        } else if c < 0x1_0000 {
            let hi = (c >> 8) as usize;
            if self.index[hi] == 0 {
                self.pages.push([0; 256]);
                self.index[hi] = u8::try_from(self.pages.len() - 1).unwrap_or(0);
            }
            self.pages[usize::from(self.index[hi])][(c & 0xFF) as usize] = b;
        }
    }

    /// The byte for a char above U+007F (U+0800..U+FFFF through the pages), 0 if unmappable.
    #[inline(always)]
    fn high(&self, c: u32) -> u8 {
        self.pages[usize::from(self.index[((c >> 8) & 0xFF) as usize])][(c & 0xFF) as usize]
    }

    /// The byte for any char above U+007F, 0 if unmappable.
    #[inline]
    pub(crate) fn get(&self, c: u32) -> u8 {
        if c < 0x800 {
            self.low[c as usize]
        } else if c < 0x1_0000 {
            self.high(c)
        } else {
            0
        }
    }
}

static TABLES: [OnceLock<Table>; SINGLE_BYTE_COUNT] =
    [const { OnceLock::new() }; SINGLE_BYTE_COUNT];

/// The table of the `i`-th single-byte encoding, built on first use.
pub(crate) fn table(i: usize) -> &'static Table {
    TABLES[i].get_or_init(|| Table::build(ALL[FIRST_SINGLE_BYTE + i]))
}

/// Non-continuation bytes: the number of chars in a UTF-8 slice. Counted in `u8` lanes per
/// 128-byte chunk, which the compiler vectorizes sixteen bytes at a time.
#[inline]
pub(crate) fn count_chars(bytes: &[u8]) -> usize {
    bytes
        .chunks(128)
        .map(|chunk| {
            let starts: u8 = chunk.iter().map(|&b| u8::from((b as i8) >= -0x40)).sum();
            usize::from(starts)
        })
        .sum()
}

/// The exact output length of `bytes[from..]` (valid UTF-8 from a char boundary) with
/// WHATWG replacement.
fn whatwg_len_str(table: &Table, text: &str) -> usize {
    text.chars()
        .map(|c| {
            if (c as u32) < 0x80 || table.get(c as u32) != 0 {
                1
            } else {
                ncr_len(c)
            }
        })
        .sum()
}

/// Decodes the char starting at `i` (a non-ASCII lead byte in valid UTF-8): (scalar, length).
#[inline(always)]
fn decode_at(bytes: &[u8], i: usize, lead: u8) -> (u32, usize) {
    let lead = u32::from(lead);
    if lead < 0xE0 {
        (((lead & 0x1F) << 6) | (u32::from(bytes[i + 1]) & 0x3F), 2)
    } else if lead < 0xF0 {
        (
            ((lead & 0x0F) << 12)
                | ((u32::from(bytes[i + 1]) & 0x3F) << 6)
                | (u32::from(bytes[i + 2]) & 0x3F),
            3,
        )
    } else {
        (
            ((lead & 0x07) << 18)
                | ((u32::from(bytes[i + 1]) & 0x3F) << 12)
                | ((u32::from(bytes[i + 2]) & 0x3F) << 6)
                | (u32::from(bytes[i + 3]) & 0x3F),
            4,
        )
    }
}

/// Input is encoded in blocks of this many bytes.
pub(crate) const BLOCK: usize = 64;

/// Appends the encoding of `text[from..]` to `out`, whose spare capacity is exactly the
/// number of chars in `text[from..]` (one byte each). With [`Policy::Whatwg`] the first
/// unmappable char grows `out` once to the exact size of the rest.
///
/// The input goes in blocks of up to [`BLOCK`] bytes that end on a char boundary: an ASCII
/// block is copied, a block of one- and two-byte chars goes through [`two_byte_block`], and
/// any other block (or one with an unmappable char or a NUL) through [`encode_scalar`]. For
/// windows-1252 ([`Table::latin1`]), [`latin1_run`] goes first and after every such block.
pub(crate) fn encode_str(
    table: &Table,
    text: &str,
    from: usize,
    policy: Policy,
    out: &mut Vec<u8>,
) -> Result<(), usize> {
    let bytes = text.as_bytes();
    let mut i = from;
    let mut resized = false;
    while i < bytes.len() {
        if table.latin1 {
            i = latin1_run(bytes, i, out);
            if i == bytes.len() {
                break;
            }
        }
        let mut end = (i + BLOCK).min(bytes.len());
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        let block = &bytes[i..end];
        let max = block.iter().fold(0u8, |acc, &b| acc.max(b));
        if max < 0x80 {
            out.extend_from_slice(block);
        } else if max >= 0xE0 || !two_byte_block(table, block, out) {
            encode_scalar(table, text, i, end, policy, out, &mut resized)?;
        }
        i = end;
    }
    Ok(())
}

/// Encodes a block of at most [`BLOCK`] bytes holding only one- and two-byte chars, without a
/// branch per byte. Returns `false`, having written nothing, if an unmappable char (table
/// entry 0) or a NUL is in the block.
///
/// Bit masks of the bytes that start a char and of the lead bytes of two-byte chars are made
/// eight bytes at a time ([`char_bits`]). A block that is mostly two-byte chars (Cyrillic,
/// Greek) walks the start mask and looks every char up by its first two bytes in
/// [`Table::pairs`]; a block that is mostly ASCII (Latin-1 prose) walks the lead mask and
/// copies the ASCII run before each two-byte char eight bytes at a time.
#[inline(always)]
fn two_byte_block(table: &Table, block: &[u8], out: &mut Vec<u8>) -> bool {
    const SLACK: usize = 8;
    let n = block.len().min(BLOCK);
    let mut padded = [0u8; BLOCK + SLACK];
    padded[..n].copy_from_slice(&block[..n]);
    let (mut starts, mut leads) = (0u64, 0u64);
    for (k, word) in padded[..BLOCK].chunks_exact(8).enumerate() {
        let (s, l) = char_bits(word);
        starts |= u64::from(s) << (8 * k);
        leads |= u64::from(l) << (8 * k);
    }
    if n < BLOCK {
        starts &= (1u64 << n) - 1; // the zero padding is not input
    }
    let mut dst = [0u8; BLOCK + SLACK];
    let mut w = 0usize;
    if leads.count_ones() * 2 > starts.count_ones() {
        while starts != 0 {
            let j = starts.trailing_zeros() as usize % BLOCK;
            starts &= starts - 1;
            // At most 0xFF << 6 | 0x3F: always inside the table.
            let index = (usize::from(padded[j]) << 6) | usize::from(padded[j + 1] & 0x3F);
            dst[w % BLOCK] = table.pairs[index];
            w += 1;
        }
    } else {
        let mut from = 0usize;
        loop {
            let lead = if leads == 0 {
                n
            } else {
                leads.trailing_zeros() as usize % BLOCK
            };
            // The ASCII run from..lead, eight bytes at a time (the slack takes the overshoot).
            let mut at = from;
            while at < lead {
                let (src, dst_at) = (at % BLOCK, (w + at - from) % BLOCK);
                dst[dst_at..dst_at + 8].copy_from_slice(&padded[src..src + 8]);
                at += 8;
            }
            w += lead - from;
            if leads == 0 {
                break;
            }
            leads &= leads - 1;
            let index = (usize::from(padded[lead]) << 6) | usize::from(padded[lead + 1] & 0x3F);
            dst[w % BLOCK] = table.pairs[index];
            w += 1;
            from = lead + 2;
        }
    }
    let dst = &dst[..w.min(BLOCK)];
    if dst.contains(&0) {
        return false;
    }
    out.extend_from_slice(dst);
    true
}

/// Bytes read by a Latin-1 kernel per [`BLOCK`]-byte window: the window and the byte after
/// it (the continuation byte of a char that starts at its end).
pub(crate) const WINDOW: usize = BLOCK + 1;

/// The Latin-1 fast path, for a table whose [`Table::latin1`] is set: encodes `bytes[i..]`
/// (from a char boundary) window by window as long as a window holds only ASCII and
/// U+00A0..U+00FF (lead bytes 0xC2 and 0xC3), whose byte is the scalar value,
/// `(lead & 0x03) << 6 | (next & 0x3F)`. Stops at the first other window, or when fewer than
/// [`WINDOW`] bytes are left, and returns where it stopped (a char boundary); the caller
/// encodes from there through the table.
///
/// A window of [`BLOCK`] bytes ends wherever it ends: a char that starts on its last byte is
/// encoded with it (the kernel reads one byte further), and the next window starts after that
/// char. Output goes through a stack buffer, appended to `out` a thousand bytes at a time.
/// The kernel is [`crate::latin1_x86`]'s (SSSE3) where the CPU has it, else
/// [`latin1_window`].
fn latin1_run(bytes: &[u8], mut i: usize, out: &mut Vec<u8>) -> usize {
    #[cfg(target_arch = "x86_64")]
    let ssse3 = crate::latin1_x86::Ssse3::detect();
    let mut buf = [0u8; 16 * BLOCK];
    let mut w = 0;
    while let Some(window) = bytes.get(i..).and_then(<[u8]>::first_chunk::<WINDOW>) {
        if w + BLOCK > buf.len() {
            out.extend_from_slice(&buf[..w]);
            w = 0;
        }
        let Some(dst) = buf[w..].first_chunk_mut::<BLOCK>() else {
            break; // unreachable: w + BLOCK <= buf.len()
        };
        #[cfg(target_arch = "x86_64")]
        let written = match ssse3 {
            Some(ssse3) => ssse3.latin1_window(window, dst),
            None => latin1_window(window, dst),
        };
        #[cfg(not(target_arch = "x86_64"))]
        let written = latin1_window(window, dst);
        let Some(written) = written else {
            break;
        };
        w += written;
        // Skip the continuation byte after the window: its char is encoded already.
        i += BLOCK + usize::from((window[BLOCK] & 0xC0) == 0x80);
    }
    out.extend_from_slice(&buf[..w]);
    i
}

/// The portable Latin-1 kernel (and the oracle of the SSSE3 one in the tests): encodes the
/// chars that start in `window[..BLOCK]` (`window[0]` starts a char) into `dst`, returning the
/// number of bytes written, or `None` if a byte is 0xC4 or above or a char is in
/// U+0080..U+009F (then `dst` holds garbage).
///
/// SWAR, eight bytes at a time: every lead byte is replaced by its char's byte, and each byte
/// is stored branch-free, the write position advancing only past the bytes that start a char
/// (so continuation bytes are overwritten).
pub(crate) fn latin1_window(window: &[u8; WINDOW], dst: &mut [u8; BLOCK]) -> Option<usize> {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const LOW2: u64 = 0x0303_0303_0303_0303;
    const LOW6: u64 = 0x3F3F_3F3F_3F3F_3F3F;
    if window[..BLOCK].iter().fold(0u8, |acc, &b| acc.max(b)) >= 0xC4 {
        return None;
    }
    let word = |at: usize| {
        let mut bytes = [0u8; 8];
        bytes.copy_from_slice(&window[at..at + 8]);
        u64::from_le_bytes(bytes)
    };
    let mut w = 0usize;
    let mut c1 = 0u64;
    for at in (0..BLOCK).step_by(8) {
        // `x`: eight input bytes; `y`: each one's next byte.
        let (x, y) = (word(at), word(at + 1));
        let lead = x & (x << 1) & HIGH;
        let continuation = x & !(x << 1) & HIGH;
        let lead_bytes = (lead >> 7) * 0xFF;
        let value = (x & !lead_bytes) | (lead_bytes & (((x & LOW2) << 6) | (y & LOW6)));
        // A 0xC2 lead whose char is below U+00A0 (bit 5 of the next byte clear).
        c1 |= lead & !(x << 7) & !(y << 2);
        let start = !continuation & HIGH;
        for k in 0..8 {
            // At most 63: the bytes before this one that start a char.
            dst[w % BLOCK] = (value >> (8 * k)) as u8;
            w += ((start >> (8 * k + 7)) & 1) as usize;
        }
    }
    (c1 == 0).then_some(w)
}

/// Two bit masks of an eight-byte `word` (bit `k` for byte `k`): the bytes that start a char
/// (all but the continuation bytes `10xxxxxx`) and the lead bytes `11xxxxxx`. SWAR: bit 6 of
/// each byte is shifted onto bit 7, and a multiplication gathers the eight bit 7s into the
/// top byte.
#[inline(always)]
fn char_bits(word: &[u8]) -> (u8, u8) {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut bytes = [0u8; 8];
    bytes.copy_from_slice(word);
    let x = u64::from_le_bytes(bytes);
    let bit6 = x << 1;
    let continuation = x & !bit6 & HIGH;
    let lead = x & bit6 & HIGH;
    let gather = |bits: u64| ((bits >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8;
    (gather(!continuation & HIGH), gather(lead))
}

/// Encodes `text[from..end]` char by char.
fn encode_scalar(
    table: &Table,
    text: &str,
    from: usize,
    end: usize,
    policy: Policy,
    out: &mut Vec<u8>,
    resized: &mut bool,
) -> Result<(), usize> {
    let bytes = text.as_bytes();
    let mut i = from;
    while i < end {
        let lead = bytes[i];
        if lead < 0x80 {
            out.push(lead);
            i += 1;
            continue;
        }
        let (c, len) = decode_at(bytes, i, lead);
        let mapped = if len == 2 {
            table.low[c as usize]
        } else if len == 3 {
            table.high(c)
        } else {
            0
        };
        if mapped != 0 {
            out.push(mapped);
        } else {
            match policy {
                Policy::Jdk => out.push(b'?'),
                Policy::Whatwg => {
                    if !*resized {
                        out.reserve_exact(whatwg_len_str(table, &text[i..]));
                        *resized = true;
                    }
                    push_ncr(out, c);
                }
                Policy::Strict => return Err(i),
            }
        }
        i += len;
    }
    Ok(())
}

/// The exact output length of `units` with the given policy.
fn len_utf16(table: &Table, units: &[u16], policy: Policy) -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < units.len() {
        let u = units[i];
        i += 1;
        if u < 0x80 {
            n += 1;
            continue;
        }
        let c = scalar_at(units, &mut i, u);
        n += match policy {
            Policy::Whatwg if table.get(c) == 0 => ncr_len_u32(c),
            _ => 1,
        };
    }
    n
}

/// The scalar value of the non-ASCII unit `u`, just read from `units` (`i` is past it): a
/// surrogate pair is joined (and `i` moved past its low half); an unpaired surrogate is
/// U+FFFD, itself unmappable in every single-byte encoding.
#[inline(always)]
fn scalar_at(units: &[u16], i: &mut usize, u: u16) -> u32 {
    match u {
        0xD800..=0xDBFF if *i < units.len() && (0xDC00..=0xDFFF).contains(&units[*i]) => {
            let low = units[*i];
            *i += 1;
            0x1_0000 + ((u32::from(u) - 0xD800) << 10) + (u32::from(low) - 0xDC00)
        }
        0xD800..=0xDFFF => 0xFFFD,
        _ => u32::from(u),
    }
}

fn ncr_len_u32(c: u32) -> usize {
    char::from_u32(c).map_or(8, ncr_len)
}

/// Encodes UTF-16 `units` into an exact-size `Vec` (after `prefix`). Unpaired surrogates are
/// `?` ([`Policy::Jdk`]) or U+FFFD, itself unmappable, so `&#65533;` ([`Policy::Whatwg`]).
pub(crate) fn encode_utf16(table: &Table, units: &[u16], policy: Policy) -> Vec<u8> {
    let mut out = Vec::with_capacity(len_utf16(table, units, policy));
    let mut i = 0;
    while i < units.len() {
        let u = units[i];
        i += 1;
        if u < 0x80 {
            out.push(u as u8);
            continue;
        }
        let c = scalar_at(units, &mut i, u);
        let mapped = table.get(c);
        if mapped != 0 {
            out.push(mapped);
        } else if policy == Policy::Whatwg {
            push_ncr(&mut out, c);
        } else {
            // Jdk: '?' for an unmappable char and for an unpaired surrogate alike.
            out.push(b'?');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{BLOCK, WINDOW, latin1_window};

    /// What a Latin-1 kernel must return for `window`: the chars that start in its first
    /// [`BLOCK`] bytes as bytes, or `None` if one of them is not ASCII or U+00A0..U+00FF.
    fn expected(text: &str) -> Option<Vec<u8>> {
        text.char_indices()
            .take_while(|&(at, _)| at < BLOCK)
            .map(|(_, c)| match u32::from(c) {
                c @ (0..0x80 | 0xA0..0x100) => u8::try_from(c).ok(),
                _ => None,
            })
            .collect()
    }

    /// Random text of at least [`WINDOW`] bytes: mostly ASCII and U+00A0..U+00FF, sometimes
    /// a C1 control, a char just outside the range or a longer one.
    fn random_window(seed: &mut u64) -> String {
        const RARE: &[char] = &[
            '\u{80}', '\u{9F}', '\u{100}', '\u{7FF}', '\u{800}', '€', '😀', '\0', '\u{7F}',
        ];
        let mut next = || {
            *seed = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = *seed;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        let rare_odds = 1 + next() % 400;
        let mut text = String::new();
        while text.len() < WINDOW + 4 {
            let r = next();
            let c = if r % rare_odds == 0 {
                RARE[(r >> 32) as usize % RARE.len()]
            } else if r & 0x100 == 0 {
                char::from(0xA0 + (r >> 16) as u8 % 0x60)
            } else {
                char::from((r >> 16) as u8 & 0x7F)
            };
            text.push(c);
        }
        text
    }

    #[test]
    fn latin1_kernels_agree_with_a_char_by_char_encoder() {
        let mut seed = 0x1234_5678;
        let mut passed = 0;
        for _ in 0..200_000 {
            let text = random_window(&mut seed);
            let window: &[u8; WINDOW] = text.as_bytes().first_chunk().expect("long enough");
            let want = expected(&text);
            passed += usize::from(want.is_some());
            let mut dst = [0u8; BLOCK];
            let got = latin1_window(window, &mut dst).map(|n| dst[..n].to_vec());
            assert_eq!(got, want, "portable kernel, input {:02X?}", window);
            #[cfg(target_arch = "x86_64")]
            if let Some(ssse3) = crate::latin1_x86::Ssse3::detect() {
                let mut dst = [0u8; BLOCK];
                let got = ssse3
                    .latin1_window(window, &mut dst)
                    .map(|n| dst[..n].to_vec());
                assert_eq!(got, want, "SSSE3 kernel, input {:02X?}", window);
            }
        }
        // Both outcomes are exercised, each often.
        assert!(
            (20_000..180_000).contains(&passed),
            "{passed} windows passed"
        );
    }
}
