//! The slow streaming encoder, kept as the oracle the fast paths are tested against and as
//! the benches' baseline ("the old way").
//!
//! It feeds the input **one char at a time** through an encoding_rs [`Encoder`] into a `Vec`
//! that starts at 1.1x the input's length (bytes of a `&str`, units of a `&[u16]`) and grows
//! by copying, the way a streaming `CharsetEncoder` fills and regrows a `ByteBuffer`. Its
//! output is **not** exact-size. Each replacement is written the plainest way: `?` (or, in
//! ISO-2022-JP, U+FF1F) and `&#N;` go through the encoder like text. UTF-16LE/BE, which
//! encoding_rs does not write, are `char::encode_utf16` per char; the JDK's charsets are
//! written by their definitions, a char at a time: a single-byte charset by looking the
//! char up among the pairs of its data (`crate::jdk`), its replacement bytes where it is not
//! there; UTF-32 as the scalar value; CESU-8 as each UTF-16 unit in three bytes or fewer;
//! the charsets with a BOM after it (when there is any input).
//!
//! The bytes are the contract: [`Charset::encode`] and [`Charset::encode_from_utf16`] return
//! the same bytes as [`encode`] and [`encode_from_utf16`] for every input, charset and
//! [`Replacement`].
//!
//! # Examples
//!
//! ```
//! use wirebytes_charset::{Charset, Replacement, reference};
//!
//! let cp1252 = Charset::from(encoding_rs::WINDOWS_1252);
//! let slow = reference::encode(cp1252, "Grüße €", Replacement::Jdk);
//! let fast = cp1252.encode("Grüße €", Replacement::Jdk);
//! assert_eq!(slow, fast);
//! ```

use encoding_rs::{Encoder, EncoderResult};

use crate::jdk::multi::Form;
use crate::jdk::{self, JdkKind, SingleByteData};
use crate::{Charset, Replacement};

/// One unit of input as the streaming encoder sees it.
#[derive(Clone, Copy)]
enum Item {
    Char(char),
    /// An unpaired surrogate (only from UTF-16 input).
    Lone,
}

/// The streaming encoder: an encoding_rs encoder, or by hand: UTF-16, UTF-32, the JDK's
/// CESU-8, or a JDK single-byte charset by its data.
enum Sink {
    Encoder(Encoder),
    Utf16 {
        big_endian: bool,
    },
    Utf32 {
        big_endian: bool,
    },
    Cesu8,
    /// A JDK single-byte charset: its mapping, looked up pair by pair, and its replacement.
    Table {
        data: &'static SingleByteData,
        replacement: &'static [u8],
    },
}

/// Encodes `text` the slow way. The same bytes as [`Charset::encode`].
///
/// # Examples
///
/// ```
/// use wirebytes_charset::{Charset, Replacement, reference};
///
/// let koi8_r = Charset::from(encoding_rs::KOI8_R);
/// assert_eq!(reference::encode(koi8_r, "a😀", Replacement::Jdk), b"a?");
/// assert_eq!(reference::encode(koi8_r, "a😀", Replacement::Whatwg), b"a&#128512;");
/// ```
pub fn encode(charset: Charset, text: &str, replacement: Replacement) -> Vec<u8> {
    run(
        text.len(),
        text.chars().map(Item::Char),
        charset,
        replacement,
    )
}

/// Encodes UTF-16 `units` (unpaired surrogates allowed) the slow way. The same bytes as
/// [`Charset::encode_from_utf16`].
///
/// # Examples
///
/// ```
/// use wirebytes_charset::{Charset, Replacement, reference};
///
/// let units = [0x61, 0xD800, 0x62];
/// assert_eq!(reference::encode_from_utf16(Charset::UTF_8, &units, Replacement::Jdk), b"a?b");
/// assert_eq!(
///     reference::encode_from_utf16(Charset::UTF_8, &units, Replacement::Whatwg),
///     "a\u{FFFD}b".as_bytes()
/// );
/// ```
pub fn encode_from_utf16(charset: Charset, units: &[u16], replacement: Replacement) -> Vec<u8> {
    let items = char::decode_utf16(units.iter().copied()).map(|r| match r {
        Ok(c) => Item::Char(c),
        Err(_) => Item::Lone,
    });
    run(units.len(), items, charset, replacement)
}

fn run(
    input_len: usize,
    items: impl Iterator<Item = Item>,
    charset: Charset,
    replacement: Replacement,
) -> Vec<u8> {
    let mut out = Vec::with_capacity(input_len + input_len / 10);
    let Some(encoding) = charset.encoding() else {
        let Some(jdk) = charset.jdk() else {
            return out;
        };
        let mut items = items.peekable();
        let non_empty = items.peek().is_some();
        let sink = match jdk.kind {
            JdkKind::SingleByte(k) => Sink::Table {
                data: jdk::SINGLE_BYTE[k],
                replacement: jdk.replacement,
            },
            JdkKind::Utf16 { big_endian, bom } => {
                if bom && non_empty {
                    out.extend_from_slice(if big_endian { b"\xFE\xFF" } else { b"\xFF\xFE" });
                }
                Sink::Utf16 { big_endian }
            }
            JdkKind::Utf32 { big_endian, bom } => {
                if bom && non_empty {
                    out.extend_from_slice(if big_endian {
                        b"\0\0\xFE\xFF"
                    } else {
                        b"\xFF\xFE\0\0"
                    });
                }
                Sink::Utf32 { big_endian }
            }
            JdkKind::Cesu8 => Sink::Cesu8,
            JdkKind::MultiByte(k) => {
                let (data, jdk) = (&jdk::MULTI_BYTE[k], jdk.replacement);
                if data.form.is_stateful() {
                    stateful(k, jdk, items, replacement, &mut out);
                } else {
                    multi_byte(k, jdk, items, replacement, &mut out);
                }
                return out;
            }
            // UTF-8 is an encoding_rs charset.
            JdkKind::Utf8 => return out,
        };
        for item in items {
            write_by_hand(&sink, item, replacement, &mut out);
        }
        return out;
    };
    let mut sink = if encoding == encoding_rs::UTF_16LE {
        Sink::Utf16 { big_endian: false }
    } else if encoding == encoding_rs::UTF_16BE {
        Sink::Utf16 { big_endian: true }
    } else {
        // `replacement` writes UTF-8, as `output_encoding()` says.
        Sink::Encoder(encoding.output_encoding().new_encoder())
    };
    let iso_2022_jp = encoding == encoding_rs::ISO_2022_JP;
    for item in items {
        match (&mut sink, item) {
            (Sink::Utf16 { .. } | Sink::Utf32 { .. } | Sink::Cesu8 | Sink::Table { .. }, item) => {
                write_by_hand(&sink, item, replacement, &mut out);
            }
            (Sink::Encoder(encoder), Item::Char(c)) => {
                let mut buf = [0u8; 4];
                if let Some(unmappable) = feed(encoder, c.encode_utf8(&mut buf), &mut out) {
                    match replacement {
                        Replacement::Jdk if iso_2022_jp => {
                            jdk_iso_2022_jp(encoder, &mut out);
                        }
                        Replacement::Jdk => {
                            feed(encoder, "?", &mut out);
                        }
                        Replacement::Whatwg => {
                            let ncr = format!("&#{};", u32::from(unmappable));
                            feed(encoder, &ncr, &mut out);
                        }
                    }
                }
            }
            (Sink::Encoder(encoder), Item::Lone) => match replacement {
                // The JDK's ISO-2022-JP encoder writes its replacement bytes as they are.
                Replacement::Jdk if iso_2022_jp => out.extend_from_slice(b"\x21\x29"),
                Replacement::Jdk => {
                    feed(encoder, "?", &mut out);
                }
                Replacement::Whatwg => {
                    if let Some(unmappable) = feed(encoder, "\u{FFFD}", &mut out) {
                        let ncr = format!("&#{};", u32::from(unmappable));
                        feed(encoder, &ncr, &mut out);
                    }
                }
            },
        }
    }
    if let Sink::Encoder(encoder) = &mut sink {
        // End of input: ISO-2022-JP returns to the ASCII state.
        while let (EncoderResult::OutputFull, _) =
            encoder.encode_from_utf8_to_vec_without_replacement("", &mut out, true)
        {
            out.reserve(out.capacity().max(8));
        }
    }
    out
}

/// Writes `item` with a sink that is not an encoding_rs encoder.
fn write_by_hand(sink: &Sink, item: Item, replacement: Replacement, out: &mut Vec<u8>) {
    let c = match item {
        Item::Char(c) => c,
        Item::Lone => '\u{FFFD}',
    };
    match *sink {
        Sink::Utf16 { big_endian } => {
            let mut units = [0u16; 2];
            for &unit in c.encode_utf16(&mut units).iter() {
                let bytes = if big_endian {
                    unit.to_be_bytes()
                } else {
                    unit.to_le_bytes()
                };
                out.extend_from_slice(&bytes);
            }
        }
        Sink::Utf32 { big_endian } => {
            let c = u32::from(c);
            out.extend_from_slice(&if big_endian {
                c.to_be_bytes()
            } else {
                c.to_le_bytes()
            });
        }
        Sink::Cesu8 => match item {
            // The JDK's replacement, `?`, or U+FFFD in UTF-8.
            Item::Lone if replacement == Replacement::Jdk => out.push(b'?'),
            _ => {
                let mut units = [0u16; 2];
                for &unit in c.encode_utf16(&mut units).iter() {
                    // Each unit as UTF-8 would write it if it were a char (a surrogate too).
                    let u = u32::from(unit);
                    if u < 0x80 {
                        out.push(u as u8);
                    } else if u < 0x800 {
                        out.extend_from_slice(&[0xC0 | (u >> 6) as u8, 0x80 | (u & 0x3F) as u8]);
                    } else {
                        out.extend_from_slice(&[
                            0xE0 | (u >> 12) as u8,
                            0x80 | ((u >> 6) & 0x3F) as u8,
                            0x80 | (u & 0x3F) as u8,
                        ]);
                    }
                }
            }
        },
        Sink::Table {
            data,
            replacement: jdk,
        } => match lookup(data, u32::from(c)) {
            Some(byte) if matches!(item, Item::Char(_)) => out.push(byte),
            _ if replacement == Replacement::Jdk => out.extend_from_slice(jdk),
            _ => out.extend_from_slice(format!("&#{};", u32::from(c)).as_bytes()),
        },
        Sink::Encoder(_) => {}
    }
}

/// The byte of `c` in a JDK single-byte charset: its pairs in a hash map, made once.
fn lookup(data: &'static SingleByteData, c: u32) -> Option<u8> {
    use std::collections::HashMap;
    use std::sync::OnceLock;
    static MAPS: OnceLock<Vec<HashMap<u32, u8>>> = OnceLock::new();
    let maps = MAPS.get_or_init(|| {
        jdk::SINGLE_BYTE
            .iter()
            .map(|data| data.pairs().collect())
            .collect()
    });
    let k = jdk::SINGLE_BYTE
        .iter()
        .position(|d| std::ptr::eq(*d, data))?;
    maps.get(k)?.get(&c).copied()
}

/// A JDK multi-byte charset, a char at a time: a pair (the char and the next) where the two
/// are one, else the char's bytes from a hash map of every char's, made once per charset from
/// a walk over its blocks, or the replacement.
fn multi_byte(
    k: usize,
    jdk: &'static [u8],
    items: impl Iterator<Item = Item>,
    replacement: Replacement,
    out: &mut Vec<u8>,
) {
    use std::collections::HashMap;
    use std::sync::OnceLock;
    /// Every char's bytes in one charset.
    type Map = HashMap<u32, Vec<u8>>;
    static MAPS: [OnceLock<Map>; jdk::MULTI_BYTE.len()] =
        [const { OnceLock::new() }; jdk::MULTI_BYTE.len()];
    let data = &jdk::MULTI_BYTE[k];
    let maps = &MAPS;
    let map = maps[k].get_or_init(|| data.pairs_slow().into_iter().collect());
    let items: Vec<Item> = items.collect();
    let mut i = 0;
    while i < items.len() {
        if let (Item::Char(c), Some(&Item::Char(m))) = (items[i], items.get(i + 1)) {
            let pair = data
                .pairs
                .iter()
                .find(|&&(b, p, _)| u32::from(b) == u32::from(c) && u32::from(p) == u32::from(m));
            if let Some(&(_, _, code)) = pair {
                out.extend_from_slice(data.bytes_of(code).as_slice());
                i += 2;
                continue;
            }
        }
        let c = match items[i] {
            Item::Char(c) => u32::from(c),
            Item::Lone if replacement == Replacement::Jdk => u32::MAX,
            Item::Lone => 0xFFFD,
        };
        match map.get(&c) {
            Some(bytes) => out.extend_from_slice(bytes),
            None if replacement == Replacement::Jdk => out.extend_from_slice(jdk),
            None => out.extend_from_slice(format!("&#{c};").as_bytes()),
        }
        i += 1;
    }
}

/// A JDK stateful charset, a char at a time, from a hash map of every char's code (made once
/// per charset from a walk over its blocks): the output's set is tracked by name, and a char
/// of another set is written after the sequence that enters it.
///
/// - ISO-2022-JP family: ASCII `ESC ( B`, JIS X 0201 Roman `ESC ( J`, katakana `ESC ( I`,
///   JIS X 0208 `ESC $ B`, JIS X 0212 `ESC $ ( D`. An unmappable char is the replacement in
///   JIS X 0208 (entered if need be); an unpaired surrogate the replacement where the output
///   is. The end returns to ASCII.
/// - ISO-2022-KR/CN: a set is designated (its `ESC $ ) X`, `ESC $ * X`, `ESC $ + X`) once per
///   line; G1 is shifted out (`SO`) and back in (`SI`) for ASCII; G2 and G3 chars come one at a
///   time after `ESC N` or `ESC O`. The replacement is written where the output is; the end
///   writes nothing.
/// - The EBCDIC pages: double-byte chars between `SO` and `SI`; the replacement where the
///   output is; the end shifts in.
///
/// A numeric character reference ([`Replacement::Whatwg`]) is its chars, each written as any
/// other char.
fn stateful(
    k: usize,
    jdk: &'static [u8],
    items: impl Iterator<Item = Item>,
    replacement: Replacement,
    out: &mut Vec<u8>,
) {
    use std::collections::HashMap;
    use std::sync::OnceLock;
    /// Every char's code in one charset.
    type Codes = HashMap<u32, u16>;
    static CODES: [OnceLock<Codes>; jdk::MULTI_BYTE.len()] =
        [const { OnceLock::new() }; jdk::MULTI_BYTE.len()];
    let data = &jdk::MULTI_BYTE[k];
    let codes = CODES[k].get_or_init(|| data.codes_slow().into_iter().collect());

    /// The sets, by name.
    #[derive(Clone, Copy, PartialEq, Eq)]
    enum Set {
        Ascii,
        Roman,
        Kana,
        X0208,
        X0212,
        /// ISO-2022's G1, or EBCDIC's double-byte set: shifted out.
        Out,
        /// ISO-2022's G2 and G3: one char at a time.
        Single2,
        Single3,
    }
    let jis = matches!(data.form, Form::Jis);
    let (g1, g2, g3) = match data.form {
        Form::Iso2022 { g1, g2, g3 } => (g1, g2, g3),
        _ => (&b""[..], &b""[..], &b""[..]),
    };
    let set_of = |code: u16| -> Set {
        match data.form {
            Form::Jis if code < 0x80 => Set::Ascii,
            Form::Jis if code < 0x200 => Set::Roman,
            Form::Jis if code < 0x300 => Set::Kana,
            Form::Jis if code >= 0x8000 => Set::X0212,
            Form::Jis => Set::X0208,
            Form::Iso2022 { .. } if code < 0x80 => Set::Ascii,
            Form::Iso2022 { .. } if code & 0x8080 == 0x8080 => Set::Single3,
            Form::Iso2022 { .. } if code & 0x8000 != 0 => Set::Single2,
            _ if code < 0x100 => Set::Ascii,
            _ => Set::Out,
        }
    };
    let mut set = Set::Ascii;
    // Designated since the last line feed: G1, G2, G3.
    let mut designated = [false; 3];
    let write = |code: u16, set: &mut Set, designated: &mut [bool; 3], out: &mut Vec<u8>| {
        let to = set_of(code);
        let [hi, lo] = code.to_be_bytes();
        if jis {
            if to != *set {
                out.extend_from_slice(match to {
                    Set::Ascii => b"\x1B(B",
                    Set::Roman => b"\x1B(J",
                    Set::Kana => b"\x1B(I",
                    Set::X0212 => b"\x1B$(D",
                    _ => b"\x1B$B",
                });
                *set = to;
            }
            match to {
                Set::Ascii | Set::Roman | Set::Kana => out.push(lo),
                _ => out.extend_from_slice(&[hi & 0x7F, lo]),
            }
            return;
        }
        if g1.is_empty() {
            // EBCDIC
            if to != *set {
                out.push(if to == Set::Out { 0x0E } else { 0x0F });
                *set = to;
            }
            if to == Set::Out {
                out.extend_from_slice(&[hi, lo]);
            } else {
                out.push(lo);
            }
            return;
        }
        match to {
            Set::Ascii => {
                if *set == Set::Out {
                    out.push(0x0F);
                    *set = Set::Ascii;
                }
                out.push(lo);
                if lo == b'\n' {
                    *designated = [false; 3];
                }
            }
            Set::Single2 | Set::Single3 => {
                let (g, n, shift) = if to == Set::Single2 {
                    (g2, 1, b'N')
                } else {
                    (g3, 2, b'O')
                };
                if !designated[n] {
                    out.extend_from_slice(g);
                    designated[n] = true;
                }
                out.extend_from_slice(&[0x1B, shift, hi & 0x7F, lo & 0x7F]);
            }
            _ => {
                if !designated[0] {
                    out.extend_from_slice(g1);
                    designated[0] = true;
                }
                if *set != Set::Out {
                    out.push(0x0E);
                    *set = Set::Out;
                }
                out.extend_from_slice(&[hi, lo]);
            }
        }
    };
    for item in items {
        let c = match item {
            Item::Char(c) => u32::from(c),
            Item::Lone if replacement == Replacement::Jdk => {
                out.extend_from_slice(jdk);
                continue;
            }
            Item::Lone => 0xFFFD,
        };
        if let Some(&code) = codes.get(&c) {
            write(code, &mut set, &mut designated, out);
        } else if replacement == Replacement::Jdk {
            if jis && set != Set::X0208 {
                out.extend_from_slice(b"\x1B$B");
                set = Set::X0208;
            }
            out.extend_from_slice(jdk);
        } else {
            for b in format!("&#{c};").bytes() {
                match codes.get(&u32::from(b)) {
                    Some(&code) => write(code, &mut set, &mut designated, out),
                    None => out.extend_from_slice(jdk),
                }
            }
        }
    }
    match set {
        Set::Ascii => {}
        _ if jis => out.extend_from_slice(b"\x1B(B"),
        _ if g1.is_empty() => out.push(0x0F),
        _ => {}
    }
}

/// Feeds `text` through `encoder` into `out`, growing `out` by copying when it is full;
/// returns the char the encoder could not map, if any (`text` is one char or a replacement).
fn feed(encoder: &mut Encoder, mut text: &str, out: &mut Vec<u8>) -> Option<char> {
    loop {
        let (result, read) = encoder.encode_from_utf8_to_vec_without_replacement(text, out, false);
        text = &text[read..];
        match result {
            EncoderResult::InputEmpty => return None,
            // Double the buffer: the grow-by-copy the fast paths avoid.
            EncoderResult::OutputFull => out.reserve(out.capacity().max(8)),
            EncoderResult::Unmappable(c) => {
                debug_assert!(text.is_empty());
                return Some(c);
            }
        }
    }
}

/// The JDK writes U+FF1F for an unmappable char in ISO-2022-JP without leaving the JIS X 0208
/// state, which encoding_rs's encoder leaves (`ESC ( B`) before it reports the char: undo that
/// escape, feed U+FF1F (which re-enters JIS X 0208) and drop the re-entering `ESC $ B`.
fn jdk_iso_2022_jp(encoder: &mut Encoder, out: &mut Vec<u8>) {
    let left_jis0208 = out.ends_with(b"\x1B(B");
    if left_jis0208 {
        out.truncate(out.len() - 3);
    }
    let before = out.len();
    feed(encoder, "\u{FF1F}", out);
    if left_jis0208 {
        out.drain(before..before + 3);
    }
}
