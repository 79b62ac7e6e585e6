//! The 29 WHATWG single-byte encodings and the JDK's single-byte charsets: a reverse table
//! per charset, built once, on first use, from encoding_rs's own decoder of the 128 upper
//! bytes (so the mapping is encoding_rs's by construction), or from the JDK's mapping
//! (`crate::jdk`, dumped from the JDK's encoder).

use std::sync::OnceLock;

use encoding_rs::Encoding;

use crate::Policy;
use crate::arch::Kernels;
use crate::counters::{Path, add};
use crate::encodings::{ALL, FIRST_SINGLE_BYTE, SINGLE_BYTE_COUNT, TABLE_COUNT};
use crate::from_utf16::join_pair;
use crate::jdk::{self, JdkKind};
use crate::latin1::{Except, WINDOW, latin1_run};
use crate::ncr::{ncr_len, push_ncr};
use crate::sink::Sink;
use crate::swar::{self, HIGH_BITS, ascii_run};

/// The size of [`Table`]'s `pairs`: an entry per lead byte and six low bits of the byte
/// after it.
pub(crate) const PAIRS: usize = 0x4000;

/// Char -> byte for one single-byte charset. A 0 entry means "not mappable" (no non-ASCII
/// char maps to the byte 0x00 in any of these charsets: `crate::jdk`'s tests check the JDK's
/// data); an ASCII char's byte and whether it maps are kept apart, in `low` and
/// `ascii_mapped` (EBCDIC maps U+0000 to 0x00).
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
    pairs: Box<[u8; PAIRS]>,
    /// Most of U+00A0..U+00FF map to the bytes 0xA0..0xFF (all of them in windows-1252 and
    /// the JDK's ISO-8859-1; all but 8 in ISO-8859-15, all but 6 in windows-1254): such
    /// chars are encoded arithmetically by [`latin1_run`], without the table.
    latin1: bool,
    /// With [`latin1`](Self::latin1): the bytes 0xA0..=0xFF that are not the encoding of the
    /// char of the same number (ISO-8859-15's 0xA4 is €, not ¤): a window whose arithmetic
    /// output holds one is encoded through the table instead. `None` for windows-1252.
    except: Option<Except>,
    /// Every char of U+0000..=U+00FF is the byte of its number (the JDK's ISO-8859-1; in
    /// windows-1252 U+0080..U+009F are not).
    whole_latin1: bool,
    /// No char above ASCII is mapped (US-ASCII): under the JDK's policy each is a `?`, which
    /// [`crate::us_ascii`] writes without looking anything up.
    ascii_only: bool,
    /// Bit `c` for every ASCII char `c` that maps (to `low[c]`).
    ascii_mapped: u128,
    /// The byte the JDK's policy writes for an unmappable char (the charset's replacement).
    pub(crate) replacement: u8,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("pages", &self.pages.len())
            .finish()
    }
}

impl Table {
    /// The table of the charset that maps each char of `pairs` to its byte (the first pair
    /// of a char counts), with the JDK's `replacement`.
    fn from_pairs(pairs: impl Iterator<Item = (u32, u8)>, replacement: u8) -> Table {
        let mut table = Table {
            low: Box::new([0; 0x800]),
            index: [0; 256],
            pages: vec![[0; 256]],
            pairs: Box::new([0; PAIRS]),
            latin1: false,
            except: None,
            whole_latin1: false,
            ascii_only: true,
            ascii_mapped: 0,
            replacement,
        };
        for (c, b) in pairs {
            if c < 0x80 {
                if table.ascii_mapped & (1 << c) == 0 {
                    table.low[c as usize] = b;
                    table.ascii_mapped |= 1 << c;
                }
            } else if table.get(c) == 0 && b != 0 {
                // The first byte that decodes to a char is the one that char encodes to
                // (the WHATWG "index pointer"); no table maps a char twice, but this keeps
                // the choice explicit.
                table.set(c, b);
                table.ascii_only = false;
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
        let mut except = [false; 256];
        for c in 0xA0..=0xFFu8 {
            except[usize::from(c)] = table.low[usize::from(c)] != c;
        }
        table.latin1 = except.iter().filter(|&&e| e).count() <= LATIN1_EXCEPTIONS;
        table.except = Except::new(except);
        table.whole_latin1 =
            table.ascii_mapped == u128::MAX && (0..=0xFFu8).all(|c| table.low[usize::from(c)] == c);
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

    /// The byte of the ASCII char `c` (below 0x80), if it maps.
    #[inline(always)]
    pub(crate) fn ascii(&self, c: u8) -> Option<u8> {
        let c = usize::from(c & 0x7F);
        (self.ascii_mapped & (1 << c) != 0).then(|| self.low[c])
    }

    /// The ASCII chars' bytes, 0 for one that does not map.
    pub(crate) fn ascii_bytes(&self) -> [u8; 128] {
        let mut bytes = [0u8; 128];
        bytes.copy_from_slice(&self.low[..128]);
        bytes
    }

    /// The block encoder's view ([`Table`]'s `pairs`).
    pub(crate) fn pairs(&self) -> &[u8; PAIRS] {
        &self.pairs
    }

    /// Whether every ASCII char maps.
    pub(crate) fn maps_all_ascii(&self) -> bool {
        self.ascii_mapped == u128::MAX
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

/// A table takes the Latin-1 path when at most this many of the bytes 0xA0..=0xFF are not
/// the encoding of the char of the same number.
const LATIN1_EXCEPTIONS: usize = 16;

static TABLES: [OnceLock<Table>; TABLE_COUNT] = [const { OnceLock::new() }; TABLE_COUNT];

/// What the byte `b` decodes to in `encoding`, `None` if it is unassigned (decodes to
/// U+FFFD).
fn decode_byte(encoding: &'static Encoding, b: u8) -> Option<u32> {
    let byte = [b];
    let (text, had_errors) = encoding.decode_without_bom_handling(&byte);
    let mut chars = text.chars();
    match (had_errors, chars.next(), chars.next()) {
        (false, Some(c), None) => Some(u32::from(c)),
        _ => None,
    }
}

/// The `i`-th table ([`Kind::SingleByte`](crate::encodings::Kind)), built on first use: the
/// WHATWG single-byte encodings first, then the JDK's single-byte charsets.
pub(crate) fn table(i: usize) -> &'static Table {
    TABLES[i % TABLE_COUNT].get_or_init(|| {
        if i < SINGLE_BYTE_COUNT {
            let encoding = ALL[FIRST_SINGLE_BYTE + i];
            let ascii = (0..0x80u8).map(|b| (u32::from(b), b));
            let upper = (0x80..=0xFFu8).filter_map(|b| Some((decode_byte(encoding, b)?, b)));
            return Table::from_pairs(ascii.chain(upper), b'?');
        }
        let k = i - SINGLE_BYTE_COUNT;
        let replacement = jdk::CHARSETS
            .iter()
            .find(|charset| charset.kind == JdkKind::SingleByte(k))
            .and_then(|charset| charset.replacement.first().copied())
            .unwrap_or(b'?');
        Table::from_pairs(
            jdk::SINGLE_BYTE[k % jdk::SINGLE_BYTE.len()].pairs(),
            replacement,
        )
    })
}

/// Non-continuation bytes: the number of chars in a UTF-8 slice. Counted in `u8` lanes per
/// 128-byte chunk, which the compiler vectorizes sixteen bytes at a time.
#[inline(always)]
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

/// The exact output length of `text` (valid UTF-8) with `policy`.
pub(crate) fn len_str(table: &Table, text: &str, policy: Policy) -> usize {
    match policy {
        Policy::Whatwg => whatwg_len_str(table, text),
        Policy::Jdk | Policy::Strict => count_chars(text.as_bytes()),
    }
}

/// Decodes the char starting at `i` (a non-ASCII lead byte in valid UTF-8): (scalar, length).
#[inline(always)]
pub(crate) fn decode_at(bytes: &[u8], i: usize, lead: u8) -> (u32, usize) {
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

/// Encodes `bytes[i..]` (from a char boundary) a window of [`BLOCK`] bytes at a time with
/// `encode`, which writes a window's output into a `BLOCK`-byte array and returns its length,
/// or `None` for a window it does not take. Stops at the first such window, or when fewer
/// than [`WINDOW`] bytes are left, and returns where it stopped (a char boundary).
///
/// A window ends wherever it ends: a char that starts on its last byte is encoded with it
/// (`encode` reads one byte further), and the next window starts after that char. Output goes
/// through a stack buffer, appended to `out` a thousand bytes at a time.
#[inline]
pub(crate) fn window_run<S: Sink>(
    bytes: &[u8],
    mut i: usize,
    out: &mut S,
    mut encode: impl FnMut(&[u8; WINDOW], &mut [u8; BLOCK]) -> Option<usize>,
) -> usize {
    // The first window into a buffer of its own size: a run that stops at once (text the
    // table path must take, window after window) costs no more than that.
    let Some(window) = bytes.get(i..).and_then(<[u8]>::first_chunk::<WINDOW>) else {
        return i;
    };
    let mut first = [0u8; BLOCK];
    let Some(written) = encode(window, &mut first) else {
        return i;
    };
    out.extend_from_slice(&first[..written.min(BLOCK)]);
    crate::counters::add(crate::counters::Path::WindowRunAppends, 1);
    i += BLOCK + usize::from((window[BLOCK] & 0xC0) == 0x80);
    let mut buf = [0u8; 16 * BLOCK];
    let mut w = 0;
    while let Some(window) = bytes.get(i..).and_then(<[u8]>::first_chunk::<WINDOW>) {
        if w + BLOCK > buf.len() {
            out.extend_from_slice(&buf[..w]);
            crate::counters::add(crate::counters::Path::WindowRunAppends, 1);
            w = 0;
        }
        let Some(dst) = buf[w..].first_chunk_mut::<BLOCK>() else {
            break; // unreachable: w + BLOCK <= buf.len()
        };
        let Some(written) = encode(window, dst) else {
            break;
        };
        w += written.min(BLOCK);
        // Skip the continuation byte after the window: its char is encoded already.
        i += BLOCK + usize::from((window[BLOCK] & 0xC0) == 0x80);
    }
    out.extend_from_slice(&buf[..w]);
    crate::counters::add(crate::counters::Path::WindowRunAppends, 1);
    i
}

/// Whether [`encode_latin1_lane`] takes text for `table` into a sink of type `S`: a table that is
/// Latin-1 with no exception (ISO-8859-1), a sink that writes in place, and a Latin-1 kernel
/// in `kernels`.
#[inline(always)]
pub(crate) fn has_latin1_lane<S: Sink>(table: &Table, kernels: Kernels) -> bool {
    S::IN_PLACE && table.latin1 && table.except.is_none() && kernels.has_latin1_bytes()
}

/// The engine's lane for text that is not ASCII from its start (see [`has_latin1_lane`]):
/// the Latin-1 kernel from the first byte of `text` into `out`'s room in place (it takes
/// ASCII at its full speed, so no ASCII prefix is scanned or copied first), then
/// [`encode_str`] from the first char it does not take. Kept out of the engine's frame, which
/// ASCII text (copied whole) goes through.
#[inline(never)]
pub(crate) fn encode_latin1_lane<S: Sink>(
    table: &Table,
    text: &str,
    policy: Policy,
    out: &mut S,
    kernels: Kernels,
) -> Result<(), usize> {
    let bytes = text.as_bytes();
    if S::EXACT {
        out.reserve_exact(crate::engine::chars(text, kernels));
    }
    let mut read = 0;
    out.put_with(bytes.len().min(out.spare()), |room| {
        let Some((r, written)) = kernels.latin1_bytes(bytes, room, 0, table.whole_latin1) else {
            return 0;
        };
        read = r;
        written
    });
    if read == bytes.len() {
        return Ok(());
    }
    encode_str(table, text, read, policy, out, kernels)
}

/// Appends the encoding of `text[from..]` to `out`, whose spare capacity is exactly the
/// number of chars in `text[from..]` (one byte each). With [`Policy::Whatwg`] the first
/// unmappable char grows `out` once to the exact size of the rest.
///
/// The input goes in blocks of up to [`BLOCK`] bytes that end on a char boundary: an ASCII
/// block is copied, a block of one- and two-byte chars goes through [`two_byte_block`], and
/// any other block (or one with an unmappable char or a NUL) through [`encode_scalar`]. Where
/// `kernels` has the table window kernel, a [`window_run`] of it goes first and after every
/// such block (with SSSE3 alone, for tables not near Latin-1); for windows-1252 and its kin
/// ([`Table::latin1`]) without the AVX-512 kernel, [`latin1_run`] does. A table that is
/// Latin-1 with no exception (windows-1252, ISO-8859-1), written in place, goes first through
/// the Latin-1 writer ([`Kernels::latin1_bytes`]) straight into `out`'s room, up to the first
/// char it does not take, and again after the block that holds that char; where the writer
/// takes nothing, the paths above do. US-ASCII under [`Policy::Jdk`]
/// ([`Table::ascii_only`]) goes through [`crate::us_ascii`] instead.
pub(crate) fn encode_str<S: Sink>(
    table: &Table,
    text: &str,
    from: usize,
    policy: Policy,
    out: &mut S,
    kernels: Kernels,
) -> Result<(), usize> {
    let bytes = text.as_bytes();
    if table.ascii_only && policy == Policy::Jdk && table.replacement == b'?' {
        // `from` is a char boundary before a non-ASCII char: every non-ASCII char is a `?`,
        // and there is at least one.
        debug_assert!(
            from < bytes.len(),
            "the engine copies an all-ASCII text whole"
        );
        out.replaced();
        crate::us_ascii::ascii_or_question_marks(&bytes[from..], out);
        return Ok(());
    }
    let mut i = from;
    let mut resized = false;
    // The table window kernel's back-off: after a run that declined its first window,
    // `skip` blocks go the table path before the next try (2, 4, 8, then 16 after the
    // `misses` in a row), so text the kernel cannot take pays little for the tries.
    let (mut skip, mut misses) = (0u32, 0u32);
    // A sink that reports replacements leaves unmappable chars to the paths that report
    // them.
    let question_marks = policy == Policy::Jdk && !S::TRACKS && table.replacement == b'?';
    // The table window kernel takes every table, except that the Latin-1 kernel is faster on
    // Latin-1 text than the SSSE3 table window.
    let table_windows =
        kernels.has_table_window() && (kernels.has_wide_table_window() || !table.latin1);
    // A table that is Latin-1 with no exception, written in place: the Latin-1 kernel
    // first, the table window where it takes nothing.
    let mut in_place_latin1 = has_latin1_lane::<S>(table, kernels);
    while i < bytes.len() && !out.full() {
        let mut latin1_read = 0;
        if in_place_latin1 {
            let max = (bytes.len() - i).min(out.spare());
            out.put_with(max, |room| {
                let Some((read, written)) =
                    kernels.latin1_bytes(&bytes[i..], room, 0, table.whole_latin1)
                else {
                    in_place_latin1 = false;
                    return 0;
                };
                latin1_read = read;
                written
            });
            i += latin1_read;
            if i == bytes.len() {
                break;
            }
        }
        if latin1_read > 0 {
            // Stopped at a char it does not take: the block from there goes the table path.
        } else if table_windows {
            if skip == 0 {
                let start = i;
                i = window_run(bytes, i, out, |window, dst| {
                    kernels
                        .table_window(window, &table.pairs, None, question_marks, dst)
                        .flatten()
                });
                if i == bytes.len() {
                    break;
                }
                if i == start {
                    crate::counters::add(crate::counters::Path::WindowRunDeclines, 1);
                    misses = (misses + 1).min(4);
                    skip = 1 << misses;
                } else {
                    misses = 0;
                }
            } else {
                skip -= 1;
            }
        } else if table.latin1 {
            i = latin1_run(bytes, i, out, table.except.as_ref(), kernels);
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
            add(Path::SingleByteAsciiBlock, block.len());
        } else if max < 0xE0 && two_byte_block(table, block, true, policy, out) {
            add(Path::TwoByteBlock, block.len());
        } else {
            encode_scalar(table, text, i, end, policy, out, &mut resized)?;
        }
        i = end;
    }
    Ok(())
}

/// Encodes a block of at most [`BLOCK`] bytes holding only one- and two-byte chars, without a
/// branch per byte. An unmappable char (table entry 0) is `?` under [`Policy::Jdk`] when the
/// block holds no NUL; otherwise (another policy, or a NUL, whose entry is 0 too) the function
/// returns `false`, having written nothing.
///
/// Bit masks of the bytes that start a char and of the lead bytes of two-byte chars are made
/// eight bytes at a time ([`char_bits`]). A block that is mostly two-byte chars (Cyrillic,
/// Greek) walks the start mask and looks every char up by its first two bytes in
/// [`Table::pairs`] (as every block does where ASCII is not its own byte, `ascii_identity`
/// false: EBCDIC); a block that is mostly ASCII (Latin-1 prose) walks the lead mask and
/// copies the ASCII run before each two-byte char eight bytes at a time.
#[inline(always)]
pub(crate) fn two_byte_block<S: Sink>(
    table: &Table,
    block: &[u8],
    ascii_identity: bool,
    policy: Policy,
    out: &mut S,
) -> bool {
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
    if !ascii_identity || leads.count_ones() * 2 > starts.count_ones() {
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
    let dst = &mut dst[..w.min(BLOCK)];
    // Branch-free scans (the compiler vectorises them) rather than `contains`, a call each.
    let has_zero = |bytes: &[u8]| bytes.iter().fold(false, |acc, &b| acc | (b == 0));
    if has_zero(dst) {
        // An unmappable char, or a NUL. With the JDK's policy and no NUL in the block, every
        // 0 is an unmappable two-byte char: its `?`.
        if policy != Policy::Jdk || has_zero(block) {
            return false;
        }
        for b in dst.iter_mut() {
            *b = if *b == 0 { table.replacement } else { *b };
        }
        out.replaced();
    }
    out.extend_from_slice(dst);
    true
}

/// Two bit masks of an eight-byte `word` (bit `k` for byte `k`): the bytes that start a char
/// (all but the continuation bytes `10xxxxxx`) and the lead bytes `11xxxxxx`. SWAR: bit 6 of
/// each byte is shifted onto bit 7, and a multiplication gathers the eight bit 7s into the
/// top byte.
#[inline(always)]
fn char_bits(eight: &[u8]) -> (u8, u8) {
    let mut bytes = [0u8; 8];
    bytes.copy_from_slice(eight);
    let x = swar::word(&bytes);
    let bit6 = x << 1;
    let continuation = x & !bit6 & HIGH_BITS;
    let lead = x & bit6 & HIGH_BITS;
    let gather = |bits: u64| ((bits >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8;
    (gather(!continuation & HIGH_BITS), gather(lead))
}

/// Encodes `text[from..end]` char by char.
fn encode_scalar<S: Sink>(
    table: &Table,
    text: &str,
    from: usize,
    end: usize,
    policy: Policy,
    out: &mut S,
    resized: &mut bool,
) -> Result<(), usize> {
    let bytes = text.as_bytes();
    let mut i = from;
    while i < end {
        let lead = bytes[i];
        if lead < 0x80 {
            // The ASCII run up to the next non-ASCII byte (or `end`), in one copy.
            let run = ascii_run(&bytes[i..end]);
            out.extend_from_slice(&bytes[i..i + run]);
            i += run;
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
                Policy::Jdk => out.push(table.replacement),
                Policy::Whatwg => {
                    if S::EXACT && !*resized {
                        out.reserve_exact(whatwg_len_str(table, &text[i..]));
                        *resized = true;
                    }
                    push_ncr(out, c);
                }
                Policy::Strict => return Err(i),
            }
            out.replaced();
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
        let (c, mapped) = look_up(table, units, &mut i, u);
        n += match policy {
            Policy::Whatwg if mapped.is_none() => ncr_len_u32(c),
            _ => 1,
        };
    }
    n
}

/// The length of the run of U+0000..U+00FF that starts `units`, or `most` where the run is
/// longer (a multiple of 16): sixteen units at a time, in loops the compiler vectorises, then
/// one at a time.
fn latin1_run_len(units: &[u16], most: usize) -> usize {
    let latin1 = |u: &u16| *u < 0x100;
    let mut n = 0;
    while n < most {
        match units.get(n..n + 16) {
            Some(chunk) if chunk.iter().fold(true, |acc, u| acc & latin1(u)) => n += 16,
            _ => break,
        }
    }
    if n < most {
        n += units[n..].iter().take(16).take_while(|u| latin1(u)).count();
    }
    n.min(most)
}

impl Table {
    /// The bytes of sixteen units that all map and are below U+0800 (no surrogate among
    /// them), U+0000 excepted: `None` where one is not.
    #[inline(always)]
    fn map_chunk(&self, chunk: &[u16; 16]) -> Option<[u8; 16]> {
        let mut bytes = [0u8; 16];
        let mut mapped = true;
        for (b, &u) in bytes.iter_mut().zip(chunk) {
            let byte = self.low.get(usize::from(u)).copied().unwrap_or(0);
            mapped &= byte != 0;
            *b = byte;
        }
        mapped.then_some(bytes)
    }
}

/// The char of the unit `u`, just read from `units` (`i` is past it; a surrogate pair is
/// joined, see [`scalar_at`]), and its byte if it maps: an ASCII char through the table too
/// (not its own byte in EBCDIC).
#[inline(always)]
fn look_up(table: &Table, units: &[u16], i: &mut usize, u: u16) -> (u32, Option<u8>) {
    if u < 0x80 {
        return (u32::from(u), table.ascii(u as u8));
    }
    let c = scalar_at(units, i, u);
    let b = table.get(c);
    (c, (b != 0).then_some(b))
}

/// The scalar value of the non-ASCII unit `u`, just read from `units` (`i` is past it): a
/// surrogate pair is joined (and `i` moved past its low half); an unpaired surrogate is
/// U+FFFD, itself unmappable in every single-byte encoding.
#[inline(always)]
pub(crate) fn scalar_at(units: &[u16], i: &mut usize, u: u16) -> u32 {
    match u {
        0xD800..=0xDBFF if *i < units.len() && (0xDC00..=0xDFFF).contains(&units[*i]) => {
            let low = units[*i];
            *i += 1;
            join_pair(u, low)
        }
        0xD800..=0xDFFF => 0xFFFD,
        _ => u32::from(u),
    }
}

fn ncr_len_u32(c: u32) -> usize {
    char::from_u32(c).map_or(8, ncr_len)
}

/// Appends the encoding of UTF-16 `units` to `out`, reserving its exact size once (any
/// single-byte table: ASCII is looked up too).
/// Unpaired surrogates are `?` ([`Policy::Jdk`]) or U+FFFD, itself unmappable, so `&#65533;`
/// ([`Policy::Whatwg`]). [`Policy::Strict`]: `Err` with the index of the first unmappable
/// char or unpaired surrogate, nothing appended.
pub(crate) fn encode_utf16<S: Sink>(
    table: &Table,
    units: &[u16],
    policy: Policy,
    kernels: Kernels,
    out: &mut S,
) -> Result<(), usize> {
    let start = out.len();
    // One byte per char, mapped or replaced (JDK, strict): at most one a unit, one less for
    // each surrogate pair. Into a `Vec` that starts empty with no capacity, that bound is
    // reserved with no counting pass, and given back in the rare text with a pair; where the
    // `Vec` already has room for it, nothing is reserved; else the chars are counted first.
    let mut shrink = false;
    if S::EXACT {
        if policy == Policy::Whatwg {
            out.reserve_exact(len_utf16(table, units, policy));
        } else if start == 0 && out.spare() == 0 {
            out.reserve_exact(units.len());
            shrink = true;
        } else if out.spare() < units.len() {
            out.reserve_exact(crate::from_utf16::chars(units, kernels));
        }
    }
    let result = encode_utf16_run(table, units, policy, kernels, out);
    if shrink && out.len() < units.len() {
        out.shrink_to_fit();
    }
    result
}

/// The loop of [`encode_utf16`], into an output with its room reserved.
#[inline(always)]
fn encode_utf16_run<S: Sink>(
    table: &Table,
    units: &[u16],
    policy: Policy,
    kernels: Kernels,
    out: &mut S,
) -> Result<(), usize> {
    let start = out.len();
    let mut i = 0;
    // Whether the kernel may take the run at `i`: not again before a unit it cannot take
    // (it stopped short of the run's end only for want of a whole step).
    let mut kernel = true;
    while i < units.len() {
        // In the JDK's ISO-8859-1, a run of U+0000..U+00FF, each unit its own byte: through
        // the kernel where the sink lends its memory, then (the rest of the kernel's last
        // step, or the whole run without one) written in one go, up to a staging buffer's
        // worth where the sink has no memory to lend.
        if table.whole_latin1 {
            let mut after_kernel = false;
            if S::IN_PLACE && kernel && units[i] < 0x100 {
                let max = (units.len() - i).min(out.spare());
                let mut taken = 0;
                out.put_with(max, |room| {
                    taken = kernels
                        .utf16_latin1(&units[i..i + max], room, 0)
                        .unwrap_or(0);
                    taken
                });
                i += taken;
                if i == units.len() {
                    break;
                }
                (kernel, after_kernel) = (false, true);
            }
            let most = if S::IN_PLACE { usize::MAX } else { 2048 };
            let run = latin1_run_len(&units[i..], most);
            if run >= 16 || (after_kernel && run > 0) {
                let src = &units[i..i + run];
                out.put_with(run, |room| {
                    if room.put_each(0, src, |u| [u as u8]) {
                        run
                    } else {
                        0
                    }
                });
                add(Path::Utf16Latin1Run, run);
                i += run;
                continue;
            }
        }
        // Sixteen units of U+0001..U+07FF that all map, through the table of those.
        if let Some(chunk) = units.get(i..i + 16).and_then(|c| c.first_chunk::<16>()) {
            if let Some(bytes) = table.map_chunk(chunk) {
                out.extend_from_slice(&bytes);
                add(Path::Utf16TableChunks, 16);
                i += 16;
                kernel = true;
                continue;
            }
        }
        let u = units[i];
        let at = i;
        i += 1;
        kernel = true;
        let (c, mapped) = look_up(table, units, &mut i, u);
        if let Some(mapped) = mapped {
            out.push(mapped);
        } else {
            match policy {
                Policy::Whatwg => push_ncr(out, c),
                // '?' for an unmappable char and for an unpaired surrogate alike.
                Policy::Jdk => out.push(table.replacement),
                Policy::Strict => {
                    out.truncate(start);
                    return Err(at);
                }
            }
            out.replaced();
        }
    }
    Ok(())
}

#[cfg(test)]
mod table_tests {
    use super::Table;

    /// A char given twice keeps its first byte (a decode table's first byte for a char is
    /// the one it encodes to), and a pair with byte 0 maps nothing.
    #[test]
    fn the_first_pair_of_a_char_counts() {
        let pairs = [
            (0xE9, 0x82),
            (0xE9, 0x90),
            (0x416, 0xC6),
            (0x417, 0),
            (b'a'.into(), 0x81),
        ];
        let table = Table::from_pairs(pairs.into_iter(), b'?');
        assert_eq!(table.get(0xE9), 0x82);
        assert_eq!(table.get(0x416), 0xC6);
        assert_eq!(table.get(0x417), 0);
        assert_eq!(table.get(b'a'.into()), 0x81);
        assert!(!table.ascii_only);

        let only_zero = Table::from_pairs([(0xE9, 0)].into_iter(), b'?');
        assert_eq!(only_zero.get(0xE9), 0);
        assert!(
            only_zero.ascii_only,
            "a char mapped to no byte is not mapped"
        );
    }

    /// The run of U+0001..U+00FF at the start: every length up to 40 before a unit outside
    /// it (U+0000, U+0100, a surrogate) or the end, cut at `most`.
    #[test]
    fn latin1_runs_end_at_the_first_other_unit() {
        for len in 0..40 {
            for stop in [None, Some(0x100), Some(0x1FF), Some(0xD800), Some(0xFFFF)] {
                let mut units: Vec<u16> = (0..len).map(|k| (k * 37 % 0x100) as u16).collect();
                units.extend(stop);
                units.extend([0x41; 20]);
                let whole = if stop.is_some() { len } else { units.len() };
                assert_eq!(
                    super::latin1_run_len(&units, usize::MAX),
                    whole,
                    "{len} {stop:?}"
                );
                assert_eq!(
                    super::latin1_run_len(&units, 16),
                    whole.min(16),
                    "{len} {stop:?}"
                );
            }
        }
    }

    /// In every table, sixteen units map in one go exactly where each maps on its own and
    /// lies in U+0001..U+07FF, to the bytes of each on its own; beside a unit that does not
    /// map, none do.
    #[test]
    fn sixteen_units_map_as_each_does_alone() {
        for i in 0..super::TABLE_COUNT {
            let table = super::table(i);
            let alone = |u: u16| super::look_up(table, &[u], &mut 1, u).1;
            let unmapped = (0x80..0x800).find(|&u| alone(u).is_none());
            for u in (0..0x900).chain([0xD800, 0xDC00, 0x20AC, 0xFFFD, 0xFFFF]) {
                let chunk = [u; 16];
                let want = alone(u).filter(|_| (1..0x800).contains(&u));
                assert_eq!(table.map_chunk(&chunk), want.map(|b| [b; 16]), "{i} {u:#x}");
                if let (Some(_), Some(other)) = (want, unmapped) {
                    let mut mixed = chunk;
                    mixed[15] = other;
                    assert_eq!(table.map_chunk(&mixed), None, "{i} {u:#x} {other:#x}");
                }
            }
        }
    }
}

#[cfg(test)]
mod table_window_tests {
    use super::{BLOCK, TABLE_COUNT, WINDOW, table};
    use crate::levels;
    use wirebytes_testkit::Rng;

    /// The block of eight lead bytes from 0xC2 that holds `c`'s lead (`c` two bytes in UTF-8).
    fn lead_block(c: char) -> u32 {
        ((u32::from(c) >> 6) - 2) / 8
    }

    /// The table's byte for `c` (ASCII: itself), or `?` for an unmappable char with
    /// `question_marks`; `None` if there is none to write.
    fn byte(t: &super::Table, c: char, question_marks: bool) -> Option<u8> {
        match u32::from(c) {
            c @ 0..0x80 => u8::try_from(c).ok(),
            c => Some(t.get(c))
                .filter(|&b| b != 0)
                .or(question_marks.then_some(b'?')),
        }
    }

    /// What a table window kernel writes for `text`'s first window (the chars that start in
    /// its first [`BLOCK`] bytes), if it must take it: every char is ASCII or a two-byte char
    /// the table maps (or any two-byte char, with `question_marks`), and the two-byte ones
    /// share a block of eight lead bytes. `None` when it may decline.
    fn expected(t: &super::Table, text: &str, question_marks: bool) -> Option<Vec<u8>> {
        let chars: Vec<char> = text
            .char_indices()
            .take_while(|&(at, _)| at < BLOCK)
            .map(|(_, c)| c)
            .collect();
        let mut blocks = chars
            .iter()
            .filter(|c| !c.is_ascii())
            .map(|&c| lead_block(c));
        let first = blocks.next();
        if blocks.any(|b| Some(b) != first) || chars.iter().any(|&c| u32::from(c) >= 0x800) {
            return None;
        }
        chars.iter().map(|&c| byte(t, c, question_marks)).collect()
    }

    /// Random windows for each table: ASCII and chars of one lead block (mostly mapped ones),
    /// sometimes a NUL, an unmapped two-byte char, a mapped one of another block or a longer
    /// char; with and without `?` for the unmappable. Where the kernel takes a window, its
    /// bytes are the table's; where it must, it does. At each level with a table window
    /// kernel (SSSE3, and AVX-512 where the CPU has it).
    #[test]
    fn table_window_kernel_agrees_with_the_table() {
        for level in levels::all().filter(|l| l.kernels().has_table_window()) {
            check_table_window_kernel(level);
        }
    }

    /// [`table_window_kernel_agrees_with_the_table`] at one level.
    fn check_table_window_kernel(level: levels::Level) {
        let kernels = level.kernels();
        let name = level.name();
        let mut rng = Rng::new(0x7AB1_E000);
        let (mut taken, mut declined, mut rounds, mut marks) = (0, 0, 0, 0);
        // Under Miri, every eighth table (the tables are built on first use, slowly there).
        for i in (0..TABLE_COUNT).step_by(wirebytes_testkit::scale_miri(1, 1, 8)) {
            let t = table(i);
            let two_byte = || '\u{80}'..'\u{800}';
            let mapped: Vec<char> = two_byte().filter(|&c| t.get(c.into()) != 0).collect();
            let unmapped: Vec<char> = two_byte().filter(|&c| t.get(c.into()) == 0).collect();
            for _ in 0..wirebytes_testkit::scale_miri(3000, 3000, 24) {
                let question_marks = rng.below(2) == 0;
                let home = mapped
                    .get(rng.below(mapped.len().max(1)))
                    .map(|&c| lead_block(c));
                let local = |list: &[char]| -> Vec<char> {
                    list.iter()
                        .copied()
                        .filter(|&c| Some(lead_block(c)) == home)
                        .collect()
                };
                let (local_mapped, local_unmapped) = (local(&mapped), local(&unmapped));
                // Rare chars less rare under Miri, where there are fewer windows.
                let rare_odds = 1 + rng.below(wirebytes_testkit::scale_miri(300, 300, 60)) as u64;
                let mut text = String::new();
                while text.len() < WINDOW + 4 {
                    let r = rng.next_u64();
                    let pick = |list: &[char], r: u64| {
                        list.get((r >> 40) as usize % list.len().max(1)).copied()
                    };
                    let c = if r % rare_odds == 0 {
                        match (r >> 8) % 6 {
                            0 => Some('\0'),
                            1 => pick(&unmapped, r),
                            2 => pick(&local_unmapped, r),
                            3 => pick(&mapped, r),
                            4 => Some('€'),
                            _ => Some('😀'),
                        }
                    } else if r & 0x300 == 0 {
                        pick(&local_mapped, r)
                    } else {
                        char::from_u32((r >> 16) as u32 % 0x5F + 0x20)
                    };
                    text.push(c.unwrap_or('a'));
                }
                let window: &[u8; WINDOW] = text.as_bytes().first_chunk().expect("long enough");
                let mut dst = [0u8; BLOCK];
                let got = kernels
                    .table_window(window, &t.pairs, None, question_marks, &mut dst)
                    .flatten();
                let want = expected(t, &text, question_marks);
                let chars = text.char_indices().take_while(|&(at, _)| at < BLOCK);
                match got {
                    Some(n) => {
                        taken += 1;
                        let bytes: Option<Vec<u8>> =
                            chars.map(|(_, c)| byte(t, c, question_marks)).collect();
                        assert_eq!(
                            Some(&dst[..n]),
                            bytes.as_deref(),
                            "{name}: table {i}, {text:?}"
                        );
                        let unmappable = text
                            .char_indices()
                            .take_while(|&(at, _)| at < BLOCK)
                            .any(|(_, c)| !c.is_ascii() && t.get(c.into()) == 0);
                        marks += usize::from(unmappable);
                    }
                    None => {
                        declined += 1;
                        assert_eq!(want, None, "{name}: table {i}: declined {text:?}");
                    }
                }
                rounds += 1;
            }
        }
        assert!(
            taken > rounds / 10 && declined > rounds / 10 && marks > rounds / 100,
            "{name}: {taken} taken, {declined} declined, {marks} with `?`, of {rounds}"
        );
    }
}
