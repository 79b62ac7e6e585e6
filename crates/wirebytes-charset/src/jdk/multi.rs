//! The JDK's stateless multi-byte charsets as data: per charset a [`MultiByteData`]
//! (`generated.rs`) and, shared by all of them, the blocks of `multi_byte.bin`, both written by
//! `cargo xtask jdk-tables`.
//!
//! A charset maps a char to a 16-bit code, and its [`Form`] turns the code into one to four
//! bytes. The codes live in blocks of 64 chars: the charset's index gives the block of each
//! 64 chars of the BMP (and of plane 2, where it maps chars there); a block is a 64-bit mask
//! of the chars that map and where their codes start, so the code of char `k` of a block is
//! at `base + popcount(mask & ((1 << k) - 1))`. Identical blocks are stored once for all the
//! charsets. The file is little-endian: index (`u16`), masks (`u64`), bases (`u32`), codes
//! (`u16`), at the offsets [`SECTIONS`] gives. Nothing is decompressed or allocated: a
//! lookup reads the bytes where they are.

use super::generated::SECTIONS;

/// The blocks of every stateless multi-byte charset.
#[cfg(feature = "jdk-multi-byte")]
static BLOB: &[u8] = include_bytes!("multi_byte.bin");
/// Without the feature no `Charset` holds a multi-byte charset of the JDK's, and every
/// lookup finds nothing.
#[cfg(not(feature = "jdk-multi-byte"))]
static BLOB: &[u8] = &[];

/// How a code becomes bytes.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Form {
    /// One byte below 0x100, else two (big-endian).
    Mixed,
    /// Two bytes, always.
    Double,
    /// One byte below 0x100; two with bit 15 set; else three: 0x8F and the two bytes with
    /// their high bits set (JIS X 0212 in EUC-JP).
    EucJp,
    /// One byte below 0x100, else a cell of one of the 94x94 planes (CNS 11643 in EUC-TW),
    /// in the order of their bases.
    Planes(&'static [Plane]),
    /// GB18030: one or two bytes by the table; a BMP char without a code is four bytes if one
    /// of the runs holds it; a supplementary char is four bytes by arithmetic.
    Gb18030(&'static [Run]),
    /// The ISO-2022-JP family, stateful: below 0x80 ASCII (`ESC ( B`); `0x100 | b` JIS X
    /// 0201 Roman (`ESC ( J`); `0x200 | b` JIS X 0201 katakana (`ESC ( I`); from 0x2121 JIS X
    /// 0208 (`ESC $ B`); with bit 15 set JIS X 0212 (`ESC $ ( D`). A code's bytes are those
    /// in its set.
    Jis,
    /// ISO-2022-KR and ISO-2022-CN, stateful: below 0x80 ASCII (shifted in, `SI`); from
    /// 0x2121 the set `g1` designates, shifted out (`SO`); with bit 15 set the set `g2`
    /// designates, a char at a time after `ESC N`; with bits 15 and 7 set the set `g3`
    /// designates, after `ESC O`. A designation holds until a line feed.
    Iso2022 {
        g1: &'static [u8],
        g2: &'static [u8],
        g3: &'static [u8],
    },
    /// An EBCDIC code page with a double-byte set, stateful: one byte below 0x100 (shifted
    /// in, `0F`), else two (shifted out, `0E`).
    Shifted,
}

impl Form {
    /// Whether the bytes of a text depend on the chars before: the ISO-2022 and shifted
    /// forms.
    #[inline]
    pub(crate) fn is_stateful(&self) -> bool {
        matches!(self, Form::Jis | Form::Iso2022 { .. } | Form::Shifted)
    }
}

/// A plane of [`Form::Planes`]: the codes from `base` are its cells, row by row from
/// `first_row`, 94 a row (columns 0xA1 to 0xFE), written after `prefix`.
#[derive(Debug)]
pub(crate) struct Plane {
    pub(crate) prefix: &'static [u8],
    pub(crate) first_row: u8,
    pub(crate) base: u16,
}

/// GB18030's four-byte BMP chars: `count` chars from `first`, whose linear four-byte indices
/// count up from `linear`.
#[derive(Debug)]
pub(crate) struct Run {
    pub(crate) first: u16,
    pub(crate) count: u16,
    pub(crate) linear: u32,
}

/// The linear four-byte index of U+10000 in GB18030 (`90 30 81 30`).
const GB18030_SUPPLEMENTARY: u32 = 189_000;

/// One stateless multi-byte charset.
#[derive(Debug)]
pub(crate) struct MultiByteData {
    pub(crate) form: Form,
    /// Every ASCII char is its own byte.
    pub(crate) ascii: bool,
    /// Where the BMP's 1,024 index entries start (in entries).
    pub(crate) bmp: u32,
    /// Where plane 2's 1,024 index entries start, for a charset that maps chars there.
    pub(crate) plane2: Option<u32>,
    /// Two chars written together as one code (base, mark, code), sorted.
    pub(crate) pairs: &'static [(u16, u16, u16)],
}

/// The bytes of one char: up to four.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Bytes {
    pub(crate) buf: [u8; 4],
    pub(crate) len: u8,
}

impl Bytes {
    #[inline]
    pub(crate) fn as_slice(&self) -> &[u8] {
        &self.buf[..usize::from(self.len)]
    }

    #[inline]
    fn of(bytes: &[u8]) -> Bytes {
        let mut buf = [0; 4];
        let len = bytes.len().min(4);
        buf[..len].copy_from_slice(&bytes[..len]);
        Bytes {
            buf,
            len: len as u8,
        }
    }
}

/// `N` little-endian bytes at `at` of the blob (zeros past its end, which the generated data
/// never reaches).
#[inline(always)]
fn read<const N: usize>(at: usize) -> [u8; N] {
    match BLOB.get(at..at + N).and_then(|b| b.first_chunk::<N>()) {
        Some(bytes) => *bytes,
        None => [0; N],
    }
}

impl MultiByteData {
    /// The code of `c` in the table, if it has one.
    #[inline(always)]
    pub(crate) fn code(&self, c: u32) -> Option<u16> {
        let start = if c < 0x1_0000 {
            self.bmp
        } else if (0x2_0000..0x3_0000).contains(&c) {
            self.plane2?
        } else {
            return None;
        };
        let entry = start as usize + ((c & 0xFFFF) >> 6) as usize;
        let block = usize::from(u16::from_le_bytes(read(SECTIONS[0] + 2 * entry)));
        let mask = u64::from_le_bytes(read(SECTIONS[1] + 8 * block));
        let bit = 1u64 << (c & 63);
        if mask & bit == 0 {
            return None;
        }
        let base = u32::from_le_bytes(read(SECTIONS[2] + 4 * block)) as usize;
        let k = (mask & (bit - 1)).count_ones() as usize;
        Some(u16::from_le_bytes(read(SECTIONS[3] + 2 * (base + k))))
    }

    /// The bytes of `code` (in a stateful form, its bytes within its set).
    #[inline(always)]
    pub(crate) fn bytes_of(&self, code: u16) -> Bytes {
        let [hi, lo] = code.to_be_bytes();
        match self.form {
            Form::Double => Bytes {
                buf: [hi, lo, 0, 0],
                len: 2,
            },
            _ if code < 0x100 => Bytes {
                buf: [lo, 0, 0, 0],
                len: 1,
            },
            Form::Jis | Form::Iso2022 { .. } if code & 0x8000 != 0 => Bytes {
                buf: [hi & 0x7F, lo & 0x7F, 0, 0],
                len: 2,
            },
            Form::Jis if code < 0x300 => Bytes {
                buf: [lo, 0, 0, 0],
                len: 1,
            },
            Form::Mixed | Form::Gb18030(_) | Form::Jis | Form::Iso2022 { .. } | Form::Shifted => {
                Bytes {
                    buf: [hi, lo, 0, 0],
                    len: 2,
                }
            }
            Form::EucJp if code & 0x8000 != 0 => Bytes {
                buf: [hi, lo, 0, 0],
                len: 2,
            },
            Form::EucJp => Bytes {
                buf: [0x8F, hi | 0x80, lo | 0x80, 0],
                len: 3,
            },
            Form::Planes(planes) => {
                let Some(plane) = planes.iter().rev().find(|p| p.base <= code) else {
                    return Bytes {
                        buf: [0; 4],
                        len: 0,
                    };
                };
                let cell = code - plane.base;
                let row = plane.first_row.wrapping_add((cell / 94) as u8);
                let column = 0xA1 + (cell % 94) as u8;
                let mut out = Bytes::of(plane.prefix);
                let n = usize::from(out.len);
                if n + 2 <= 4 {
                    out.buf[n] = row;
                    out.buf[n + 1] = column;
                    out.len += 2;
                }
                out
            }
        }
    }

    /// The bytes of `c` alone, if it maps (pairs aside).
    #[inline]
    pub(crate) fn bytes(&self, c: u32) -> Option<Bytes> {
        if let Some(code) = self.code(c) {
            return Some(self.bytes_of(code));
        }
        let Form::Gb18030(runs) = self.form else {
            return None;
        };
        let linear = if c >= 0x1_0000 {
            GB18030_SUPPLEMENTARY + (c - 0x1_0000)
        } else {
            // The last run that starts at or before `c`.
            let after = runs.partition_point(|run| u32::from(run.first) <= c);
            let run = runs.get(after.checked_sub(1)?)?;
            let k = c - u32::from(run.first);
            if k >= u32::from(run.count) {
                return None;
            }
            run.linear + k
        };
        Some(gb18030_four(linear))
    }

    /// The code `base` and `mark` are written as together, if they are a pair.
    #[inline]
    pub(crate) fn pair(&self, base: u32, mark: u32) -> Option<u16> {
        let key = (u16::try_from(base).ok()?, u16::try_from(mark).ok()?);
        let at = self
            .pairs
            .binary_search_by(|&(b, m, _)| (b, m).cmp(&key))
            .ok()?;
        Some(self.pairs[at].2)
    }

    /// Whether `c` begins some pair.
    #[inline]
    pub(crate) fn is_base(&self, c: u32) -> bool {
        !self.pairs.is_empty() && self.pairs.iter().any(|&(b, _, _)| u32::from(b) == c)
    }

    /// Every char that maps alone, with its bytes, in char order (the slow way, for tests and
    /// the reference: block by block and bit by bit, without the lookup's arithmetic).
    #[cfg(any(test, feature = "__internal"))]
    pub(crate) fn pairs_slow(&self) -> Vec<(u32, Vec<u8>)> {
        let mut out: Vec<(u32, Vec<u8>)> = self
            .codes_slow()
            .into_iter()
            .map(|(c, code)| (c, self.bytes_of(code).as_slice().to_vec()))
            .collect();
        if let Form::Gb18030(runs) = self.form {
            for run in runs {
                for k in 0..u32::from(run.count) {
                    let c = u32::from(run.first) + k;
                    out.push((c, gb18030_four(run.linear + k).as_slice().to_vec()));
                }
            }
            for c in 0x1_0000..=0x10_FFFF {
                out.push((
                    c,
                    gb18030_four(GB18030_SUPPLEMENTARY + (c - 0x1_0000))
                        .as_slice()
                        .to_vec(),
                ));
            }
        }
        out.sort_unstable();
        out
    }

    /// Every char with a code in the table, with its code, in char order (block by block and
    /// bit by bit).
    #[cfg(any(test, feature = "__internal"))]
    pub(crate) fn codes_slow(&self) -> Vec<(u32, u16)> {
        let mut out = Vec::new();
        let planes = [(0u32, Some(self.bmp)), (0x2_0000, self.plane2)];
        for (first, start) in planes {
            let Some(start) = start else { continue };
            for entry in 0..1024u32 {
                let block = usize::from(u16::from_le_bytes(read(
                    SECTIONS[0] + 2 * (start + entry) as usize,
                )));
                let mask = u64::from_le_bytes(read(SECTIONS[1] + 8 * block));
                let mut at = u32::from_le_bytes(read(SECTIONS[2] + 4 * block)) as usize;
                for k in 0..64 {
                    if mask >> k & 1 == 1 {
                        let code = u16::from_le_bytes(read(SECTIONS[3] + 2 * at));
                        at += 1;
                        let c = first + entry * 64 + k;
                        out.push((c, code));
                    }
                }
            }
        }
        out
    }
}

/// GB18030's four bytes of linear index `linear`.
#[inline]
fn gb18030_four(linear: u32) -> Bytes {
    let (b4, rest) = (linear % 10, linear / 10);
    let (b3, rest) = (rest % 126, rest / 126);
    let (b2, b1) = (rest % 10, rest / 10);
    Bytes {
        buf: [
            (b1 + 0x81) as u8,
            (b2 + 0x30) as u8,
            (b3 + 0x81) as u8,
            (b4 + 0x30) as u8,
        ],
        len: 4,
    }
}

#[cfg(test)]
// The tests read the tables, which only the feature has.
#[cfg(feature = "jdk-multi-byte")]
mod tests {
    use super::super::generated::MULTI_BYTE;
    use super::super::{CHARSETS, JdkKind};
    use super::*;

    /// The codes of the ISO-2022 forms are ASCII (below 0x80) or two bytes of 0x21..=0x7E
    /// (with the set's flag bits 0x8000 / 0x8080 on top): the encoder tells the two apart at
    /// 0x80.
    #[test]
    fn iso_2022_codes_are_ascii_or_two_bytes() {
        let mut seen = 0;
        for data in MULTI_BYTE
            .iter()
            .filter(|data| matches!(data.form, Form::Iso2022 { .. }))
        {
            seen += 1;
            for c in (0..=0xFFFF).chain(0x2_0000..0x3_0000) {
                if let Some(code) = data.code(c) {
                    let [hi, lo] = (code & 0x7F7F).to_be_bytes();
                    assert!(
                        code < 0x80 || ((0x21..=0x7E).contains(&hi) && (0x21..=0x7E).contains(&lo)),
                        "U+{c:04X}: {code:#06x}"
                    );
                }
            }
        }
        assert!(seen > 0);
    }

    fn data(name: &str) -> &'static MultiByteData {
        let charset = CHARSETS
            .iter()
            .find(|c| c.name == name)
            .unwrap_or_else(|| panic!("{name}"));
        match charset.kind {
            JdkKind::MultiByte(k) => &MULTI_BYTE[k],
            other => panic!("{name}: {other:?}"),
        }
    }

    /// The bytes of the blob one charset reads: its index entries and, once each, the
    /// blocks they name (mask, base and codes).
    fn bytes_read(data: &MultiByteData) -> usize {
        let mut blocks = std::collections::BTreeSet::new();
        let planes = [Some(data.bmp), data.plane2];
        for start in planes.into_iter().flatten() {
            for entry in start as usize..start as usize + 1024 {
                blocks.insert(u16::from_le_bytes(read(SECTIONS[0] + 2 * entry)));
            }
        }
        let entries = 1024 * planes.iter().flatten().count();
        let codes: usize = blocks
            .iter()
            .map(|&block| {
                let mask = u64::from_le_bytes(read(SECTIONS[1] + 8 * usize::from(block)));
                mask.count_ones() as usize
            })
            .sum();
        2 * entries + (8 + 4) * blocks.len() + 2 * codes
    }

    /// The tables' size targets: at most 128 KiB read for any one charset, at most 3 MiB for
    /// all of them.
    #[test]
    fn the_tables_are_small() {
        for charset in &CHARSETS {
            if let JdkKind::MultiByte(k) = charset.kind {
                let size = bytes_read(&MULTI_BYTE[k]);
                assert!(size <= 128 * 1024, "{}: {size} bytes", charset.name);
            }
        }
        assert!(BLOB.len() <= 3 * 1024 * 1024, "{}", BLOB.len());
        assert_eq!(BLOB.len(), SECTIONS[4]);
    }

    /// JDK 17's bytes for chars of each form.
    #[test]
    fn the_jdks_bytes() {
        let cases: [(&str, char, &[u8]); 12] = [
            ("Big5", 'а', b"\xC7\xC8"),
            ("EUC-JP", 'é', b"\x8F\xAB\xB1"),
            ("EUC-JP", 'あ', b"\xA4\xA2"),
            ("EUC-JP", 'ｱ', b"\x8E\xB1"),
            ("Shift_JIS", '—', b"\x81\x5C"),
            ("GBK", '€', b"\xA2\xE3"),
            ("GB18030", '€', b"\xA2\xE3"),
            ("GB18030", '\u{80}', b"\x81\x30\x81\x30"),
            ("GB18030", '😀', b"\x94\x39\xFC\x36"),
            ("x-EUC-TW", '\u{4E42}', b"\x8E\xA2\xA1\xA1"),
            ("x-JIS0208", 'あ', b"\x24\x22"),
            ("Big5-HKSCS", '\u{20021}', b"\x9C\x71"),
        ];
        for (name, c, want) in cases {
            let got = data(name).bytes(u32::from(c));
            assert_eq!(got.as_ref().map(Bytes::as_slice), Some(want), "{name} {c}");
        }
        assert_eq!(data("Big5").bytes(0x20021), None);
        assert_eq!(data("Shift_JIS").bytes(0xD800), None);
        assert_eq!(data("GB18030").bytes(0xD800), None);
        let sjis = data("x-SJIS_0213");
        assert_eq!(sjis.pair(0x304B, 0x309A), Some(0x82F5));
        assert!(sjis.is_base(0x304B));
        assert!(!sjis.is_base(0x304C));
    }

    /// The lookup agrees with the slow walk over every block, for every char.
    #[test]
    #[cfg_attr(miri, ignore = "every char of every charset: too slow under Miri")]
    fn the_lookup_is_the_walk() {
        for data in &MULTI_BYTE {
            let slow = data.pairs_slow();
            let mut at = 0;
            for c in 0..=0x10_FFFFu32 {
                let want = match slow.get(at) {
                    Some((mapped, bytes)) if *mapped == c => {
                        at += 1;
                        Some(bytes.as_slice())
                    }
                    _ => None,
                };
                let got = data.bytes(c);
                assert_eq!(
                    got.as_ref().map(Bytes::as_slice),
                    want,
                    "U+{c:04X} {data:?}"
                );
            }
        }
    }
}
