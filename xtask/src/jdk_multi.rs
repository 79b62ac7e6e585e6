//! The multi-byte half of `cargo xtask jdk-tables`: each stateless multi-byte charset's
//! mapping (what the JDK writes for every char alone) turned into 16-bit codes with a rule
//! that gives their bytes (a [`Form`]), and all of them packed into one binary file the crate
//! includes, `crates/wirebytes-charset/src/jdk/multi_byte.bin`:
//!
//! - **index** (`u16`): per charset, the block of each 64 chars of the BMP (1,024 entries) and,
//!   for a charset that maps chars of plane 2, of U+20000..U+2FFFF (1,024 more); block 0 is
//!   the empty block;
//! - **masks** (`u64`): per block, which of its 64 chars map;
//! - **bases** (`u32`): per block, where its codes start in `codes`;
//! - **codes** (`u16`): the codes of the chars that map, in char order, so the code of char
//!   `k` of a block is at `base + popcount(mask & ((1 << k) - 1))`.
//!
//! Identical blocks are stored once across all charsets. All numbers are little-endian; each
//! section starts at a multiple of 8 bytes.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;

/// One multi-byte charset as dumped.
#[derive(Debug, Default)]
pub(crate) struct MultiDump {
    /// Every code point that encodes, with its bytes when encoded alone.
    pub(crate) map: BTreeMap<u32, Vec<u8>>,
    /// Whether the BMP in one string is its chars' bytes one after the other.
    pub(crate) stateless: Option<bool>,
    /// Two chars written together as these bytes.
    pub(crate) pairs: Vec<(u32, u32, Vec<u8>)>,
}

/// How a code becomes bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Form {
    /// One byte below 0x100, else two (big-endian).
    Mixed,
    /// Two bytes, always.
    Double,
    /// One byte below 0x100; two with bit 15 set; else three: 0x8F and the two bytes with
    /// their high bits set (JIS X 0212 in EUC-JP).
    EucJp,
    /// One byte below 0x100, else a cell of a 94x94 plane (CNS 11643 in EUC-TW).
    Planes(Vec<Plane>),
    /// GB18030: one or two bytes from the table, else four, by `runs` in the BMP and by
    /// arithmetic above it.
    Gb18030 { runs: Vec<Run> },
    /// The ISO-2022-JP family (stateful): below 0x80 ASCII (`ESC ( B`); `0x100 | b` JIS X
    /// 0201 Roman (`ESC ( J`); `0x200 | b` JIS X 0201 katakana (`ESC ( I`); a code from
    /// 0x2121 JIS X 0208 (`ESC $ B`); with bit 15 set JIS X 0212 (`ESC $ ( D`).
    Jis,
    /// ISO-2022-KR and ISO-2022-CN (stateful): below 0x80 ASCII (shifted in); from 0x2121 the
    /// set `g1` designates, shifted out (`SO`); with bit 15 set the set `g2` designates, one
    /// char at a time after `ESC N` (single shift 2); with bits 15 and 7 set the set `g3`
    /// designates, after `ESC O` (single shift 3).
    Iso2022 {
        g1: Vec<u8>,
        g2: Vec<u8>,
        g3: Vec<u8>,
    },
    /// An EBCDIC code page with a double-byte set (stateful): one byte below 0x100 (shifted
    /// in), else two between shift-out (`0E`) and shift-in (`0F`).
    Shifted,
}

/// `ESC ( B`: back to ASCII.
const TO_ASCII: &[u8] = b"\x1B(B";

/// A plane of [`Form::Planes`]: codes from `base` are its cells, row by row from
/// `first_row`, 94 a row (columns 0xA1 to 0xFE), written after `prefix`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Plane {
    pub(crate) prefix: Vec<u8>,
    pub(crate) first_row: u8,
    pub(crate) base: u16,
}

/// A run of GB18030's four-byte BMP chars: `count` chars from `first`, whose linear
/// four-byte indices count up from `linear`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Run {
    pub(crate) first: u16,
    pub(crate) count: u16,
    pub(crate) linear: u32,
}

/// GB18030's four bytes of linear index `linear`.
#[cfg(test)]
pub(crate) fn gb18030_four(linear: u32) -> [u8; 4] {
    let (b4, rest) = (linear % 10, linear / 10);
    let (b3, rest) = (rest % 126, rest / 126);
    let (b2, b1) = (rest % 10, rest / 10);
    [
        (b1 + 0x81) as u8,
        (b2 + 0x30) as u8,
        (b3 + 0x81) as u8,
        (b4 + 0x30) as u8,
    ]
}

/// The linear index of GB18030's four bytes.
fn gb18030_linear(b: &[u8]) -> Option<u32> {
    let [b1, b2, b3, b4] = *b else { return None };
    let ok = (0x81..=0xFE).contains(&b1)
        && (0x30..=0x39).contains(&b2)
        && (0x81..=0xFE).contains(&b3)
        && (0x30..=0x39).contains(&b4);
    ok.then(|| {
        ((u32::from(b1 - 0x81) * 10 + u32::from(b2 - 0x30)) * 126 + u32::from(b3 - 0x81)) * 10
            + u32::from(b4 - 0x30)
    })
}

/// The linear index of U+10000 in GB18030 (`90 30 81 30`).
pub(crate) const GB18030_SUPPLEMENTARY: u32 = 189_000;

impl Form {
    /// The bytes of `code`, as the crate writes them (a stateful form: the char alone, from
    /// the initial state to the end).
    pub(crate) fn bytes(&self, code: u16) -> Vec<u8> {
        let [hi, lo] = code.to_be_bytes();
        match self {
            Form::Jis => match code {
                0..0x80 => vec![lo],
                0x100..0x200 => [b"\x1B(J", &[lo][..], TO_ASCII].concat(),
                0x200..0x300 => [b"\x1B(I", &[lo][..], TO_ASCII].concat(),
                0x8000.. => [b"\x1B$(D", &[hi & 0x7F, lo][..], TO_ASCII].concat(),
                _ => [b"\x1B$B", &[hi, lo][..], TO_ASCII].concat(),
            },
            Form::Iso2022 { g1, g2, g3 } => match code {
                0..0x80 => vec![lo],
                0x8080.. if code & 0x80 != 0 => {
                    [&g3[..], b"\x1BO", &[hi & 0x7F, lo & 0x7F]].concat()
                }
                0x8000.. => [&g2[..], b"\x1BN", &[hi & 0x7F, lo]].concat(),
                _ => [&g1[..], b"\x0E", &[hi, lo]].concat(),
            },
            Form::Shifted if code < 0x100 => vec![lo],
            Form::Shifted => vec![0x0E, hi, lo, 0x0F],
            Form::Double => vec![hi, lo],
            _ if code < 0x100 => vec![lo],
            Form::Mixed | Form::Gb18030 { .. } => vec![hi, lo],
            Form::EucJp if code & 0x8000 != 0 => vec![hi, lo],
            Form::EucJp => vec![0x8F, hi | 0x80, lo | 0x80],
            Form::Planes(planes) => {
                let Some(plane) = planes.iter().rev().find(|p| p.base <= code) else {
                    return Vec::new();
                };
                let cell = code - plane.base;
                let mut out = plane.prefix.clone();
                out.push(plane.first_row + (cell / 94) as u8);
                out.push(0xA1 + (cell % 94) as u8);
                out
            }
        }
    }

    /// The form of a charset's mapping, found from its bytes.
    fn of(name: &str, map: &BTreeMap<u32, Vec<u8>>, stateless: bool) -> Result<Form, String> {
        let has = |len: usize, first: Option<u8>| {
            map.values()
                .any(|b| b.len() == len && first.is_none_or(|f| b[0] == f))
        };
        if !stateless {
            let starting = |prefix: &[u8]| map.values().find(|b| b.starts_with(prefix));
            if starting(b"\x1B$B").is_some() {
                return Ok(Form::Jis);
            }
            if let Some(g1) = starting(b"\x1B$)") {
                let designation = |b: &Vec<u8>| b[..4].to_vec();
                return Ok(Form::Iso2022 {
                    g1: g1
                        .get(..4)
                        .ok_or(format!("{name}: a short designation"))?
                        .to_vec(),
                    g2: starting(b"\x1B$*").map_or(Vec::new(), designation),
                    g3: starting(b"\x1B$+").map_or(Vec::new(), designation),
                });
            }
            if starting(b"\x0E").is_some() {
                return Ok(Form::Shifted);
            }
            return Err(format!("{name}: a stateful charset of no known form"));
        }
        if has(4, Some(0x8E)) {
            return planes(name, map).map(Form::Planes);
        }
        if has(4, None) {
            return gb18030_runs(name, map).map(|runs| Form::Gb18030 { runs });
        }
        if has(3, Some(0x8F)) {
            return Ok(Form::EucJp);
        }
        if !has(1, None) {
            return Ok(Form::Double);
        }
        Ok(Form::Mixed)
    }

    /// The code of `bytes`, if this form has one for them.
    fn code(&self, bytes: &[u8]) -> Option<u16> {
        let code = match (self, bytes) {
            (Form::Jis | Form::Iso2022 { .. }, &[b]) if b < 0x80 => u16::from(b),
            (Form::Jis, [0x1B, b'(', b'J', b, ..]) => 0x100 | u16::from(*b),
            (Form::Jis, [0x1B, b'(', b'I', b, ..]) => 0x200 | u16::from(*b),
            (Form::Jis, [0x1B, b'$', b'B', hi, lo, ..]) => u16::from_be_bytes([*hi, *lo]),
            (Form::Jis, [0x1B, b'$', b'(', b'D', hi, lo, ..]) => {
                0x8000 | u16::from_be_bytes([*hi, *lo])
            }
            (Form::Iso2022 { g1, g2, g3 }, _) if bytes.len() >= 7 => {
                let (designation, rest) = bytes.split_at(4);
                match *rest {
                    [0x0E, hi, lo] if designation == g1 => u16::from_be_bytes([hi, lo]),
                    [0x1B, b'N', hi, lo] if designation == g2 => {
                        0x8000 | u16::from_be_bytes([hi, lo])
                    }
                    [0x1B, b'O', hi, lo] if designation == g3 => {
                        0x8080 | u16::from_be_bytes([hi, lo])
                    }
                    _ => return None,
                }
            }
            (Form::Shifted, &[0x0E, hi, lo, 0x0F]) => u16::from_be_bytes([hi, lo]),
            (Form::Jis | Form::Iso2022 { .. }, _) => return None,
            (Form::Double, &[hi, lo]) => u16::from_be_bytes([hi, lo]),
            (Form::Double, _) => return None,
            (_, &[b]) => u16::from(b),
            (Form::Mixed | Form::Gb18030 { .. }, &[hi, lo]) if hi >= 1 => {
                u16::from_be_bytes([hi, lo])
            }
            (Form::EucJp, &[hi, lo]) if hi & 0x80 != 0 => u16::from_be_bytes([hi, lo]),
            (Form::EucJp, &[0x8F, hi, lo]) if hi & 0x80 != 0 && lo & 0x80 != 0 => {
                u16::from_be_bytes([hi & 0x7F, lo & 0x7F])
            }
            (Form::Planes(planes), _) if bytes.len() >= 2 => {
                let (prefix, cell) = bytes.split_at(bytes.len() - 2);
                let plane = planes.iter().find(|p| p.prefix == prefix)?;
                let row = cell[0].checked_sub(plane.first_row)?;
                let column = cell[1].checked_sub(0xA1)?;
                if column >= 94 {
                    return None;
                }
                plane.base + u16::from(row) * 94 + u16::from(column)
            }
            _ => return None,
        };
        // A code of one byte must be one: below 0x100 only where the form says so.
        (self.bytes(code) == bytes).then_some(code)
    }
}

/// The planes of an EUC-TW-like mapping: the two-byte codes (no prefix) and each `8E xx`
/// prefix of the four-byte ones, each spanning its rows in use.
fn planes(name: &str, map: &BTreeMap<u32, Vec<u8>>) -> Result<Vec<Plane>, String> {
    let mut rows: BTreeMap<Vec<u8>, (u8, u8)> = BTreeMap::new();
    for bytes in map.values().filter(|b| b.len() >= 2) {
        let (prefix, cell) = bytes.split_at(bytes.len() - 2);
        let span = rows.entry(prefix.to_vec()).or_insert((cell[0], cell[0]));
        span.0 = span.0.min(cell[0]);
        span.1 = span.1.max(cell[0]);
    }
    let mut base = 0x100u32;
    let mut planes = Vec::new();
    for (prefix, (first, last)) in rows {
        planes.push(Plane {
            prefix,
            first_row: first,
            base: u16::try_from(base).map_err(|_| format!("{name}: too many planes"))?,
        });
        base += (u32::from(last - first) + 1) * 94;
    }
    if base > 0x1_0000 {
        return Err(format!("{name}: the planes take {base} codes"));
    }
    Ok(planes)
}

/// GB18030's four-byte BMP chars as runs; fails unless every supplementary char is the
/// arithmetic one.
fn gb18030_runs(name: &str, map: &BTreeMap<u32, Vec<u8>>) -> Result<Vec<Run>, String> {
    let mut runs: Vec<Run> = Vec::new();
    for (&c, bytes) in map {
        if bytes.len() != 4 {
            continue;
        }
        let linear =
            gb18030_linear(bytes).ok_or_else(|| format!("{name}: U+{c:04X} is {bytes:02X?}"))?;
        if c >= 0x1_0000 {
            if linear != GB18030_SUPPLEMENTARY + (c - 0x1_0000) {
                return Err(format!("{name}: U+{c:04X} is not at its four-byte index"));
            }
            continue;
        }
        match runs.last_mut() {
            Some(run)
                if u32::from(run.first) + u32::from(run.count) == c
                    && run.linear + u32::from(run.count) == linear =>
            {
                run.count += 1;
            }
            _ => runs.push(Run {
                first: c as u16,
                count: 1,
                linear,
            }),
        }
    }
    if (0x1_0000..=0x10_FFFF).any(|c| !map.contains_key(&c)) {
        return Err(format!("{name}: a supplementary char does not map"));
    }
    Ok(runs)
}

/// A stateless multi-byte charset ready to be written.
#[derive(Debug)]
pub(crate) struct Planned {
    pub(crate) form: Form,
    /// Every char with a code in the table (GB18030's four-byte chars are not).
    pub(crate) codes: BTreeMap<u32, u16>,
    /// (base, mark, code) of every pair written together.
    pub(crate) pairs: Vec<(u16, u16, u16)>,
    /// Every ASCII char is its own byte.
    pub(crate) ascii: bool,
}

/// Plans a stateless charset: its form and codes, each checked to give its bytes back.
pub(crate) fn plan(name: &str, dump: &MultiDump) -> Result<Planned, String> {
    let form = Form::of(name, &dump.map, dump.stateless != Some(false))?;
    let mut codes = BTreeMap::new();
    for (&c, bytes) in &dump.map {
        if matches!(form, Form::Gb18030 { .. }) && bytes.len() == 4 {
            continue;
        }
        if c > 0x2_FFFF || (0x1_0000..0x2_0000).contains(&c) {
            return Err(format!(
                "{name}: U+{c:04X} maps, outside the BMP and plane 2"
            ));
        }
        let code = form
            .code(bytes)
            .ok_or_else(|| format!("{name}: U+{c:04X} is {bytes:02X?}, not in {form:?}"))?;
        codes.insert(c, code);
    }
    let mut pairs = Vec::new();
    for (base, mark, bytes) in &dump.pairs {
        let code = form
            .code(bytes)
            .ok_or_else(|| format!("{name}: the pair {base:04X} {mark:04X} is {bytes:02X?}"))?;
        let (Ok(base), Ok(mark)) = (u16::try_from(*base), u16::try_from(*mark)) else {
            return Err(format!("{name}: a pair outside the BMP"));
        };
        pairs.push((base, mark, code));
    }
    pairs.sort_unstable();
    let ascii = (0..0x80u32).all(|c| dump.map.get(&c).is_some_and(|b| b[..] == [c as u8]));
    Ok(Planned {
        form,
        codes,
        pairs,
        ascii,
    })
}

/// Chars per block.
pub(crate) const BLOCK: u32 = 64;
/// Index entries of one 64 Ki-char plane.
pub(crate) const PLANE_BLOCKS: usize = 0x1_0000 / BLOCK as usize;

/// Every charset's blocks, stored once.
#[derive(Debug, Default)]
pub(crate) struct Pool {
    index: Vec<u16>,
    masks: Vec<u64>,
    bases: Vec<u32>,
    codes: Vec<u16>,
    ids: HashMap<(u64, Vec<u16>), u16>,
}

impl Pool {
    pub(crate) fn new() -> Pool {
        let mut pool = Pool::default();
        pool.masks.push(0);
        pool.bases.push(0);
        pool
    }

    /// Adds the index of the plane from `first` (0 or 0x20000) of `codes`; returns where it
    /// starts in the index (in entries).
    pub(crate) fn add_plane(
        &mut self,
        codes: &BTreeMap<u32, u16>,
        first: u32,
    ) -> Result<u32, String> {
        let at = u32::try_from(self.index.len()).map_err(|e| e.to_string())?;
        for block in 0..PLANE_BLOCKS as u32 {
            let start = first + block * BLOCK;
            let mut mask = 0u64;
            let mut entries = Vec::new();
            for (&c, &code) in codes.range(start..start + BLOCK) {
                mask |= 1 << (c - start);
                entries.push(code);
            }
            let id = if mask == 0 {
                0
            } else if let Some(&id) = self.ids.get(&(mask, entries.clone())) {
                id
            } else {
                let id = u16::try_from(self.masks.len()).map_err(|_| "more than 65,535 blocks")?;
                self.masks.push(mask);
                self.bases
                    .push(u32::try_from(self.codes.len()).map_err(|e| e.to_string())?);
                self.codes.extend_from_slice(&entries);
                self.ids.insert((mask, entries), id);
                id
            };
            self.index.push(id);
        }
        Ok(at)
    }

    /// The bytes of the file, and the byte offsets of its sections (index, masks, bases,
    /// codes).
    pub(crate) fn bytes(&self) -> (Vec<u8>, [usize; 4]) {
        let mut out = Vec::new();
        let mut at = [0; 4];
        let pad = |out: &mut Vec<u8>| out.resize(out.len().next_multiple_of(8), 0);
        at[0] = out.len();
        out.extend(self.index.iter().flat_map(|v| v.to_le_bytes()));
        pad(&mut out);
        at[1] = out.len();
        out.extend(self.masks.iter().flat_map(|v| v.to_le_bytes()));
        pad(&mut out);
        at[2] = out.len();
        out.extend(self.bases.iter().flat_map(|v| v.to_le_bytes()));
        pad(&mut out);
        at[3] = out.len();
        out.extend(self.codes.iter().flat_map(|v| v.to_le_bytes()));
        pad(&mut out);
        (out, at)
    }

    /// The number of blocks (the empty one included).
    pub(crate) fn blocks(&self) -> usize {
        self.masks.len()
    }
}

/// The Rust expression of `form`.
pub(crate) fn form_source(form: &Form) -> String {
    match form {
        Form::Mixed => "Form::Mixed".to_owned(),
        Form::Double => "Form::Double".to_owned(),
        Form::EucJp => "Form::EucJp".to_owned(),
        Form::Jis => "Form::Jis".to_owned(),
        Form::Shifted => "Form::Shifted".to_owned(),
        Form::Iso2022 { g1, g2, g3 } => {
            let hex = |b: &[u8]| b.iter().map(|b| format!("\\x{b:02X}")).collect::<String>();
            format!(
                "Form::Iso2022 {{ g1: b\"{}\", g2: b\"{}\", g3: b\"{}\" }}",
                hex(g1),
                hex(g2),
                hex(g3)
            )
        }
        Form::Planes(planes) => {
            let mut out = String::from("Form::Planes(&[");
            for plane in planes {
                let prefix: String = plane.prefix.iter().map(|b| format!("\\x{b:02X}")).collect();
                let _ = write!(
                    out,
                    "Plane {{ prefix: b\"{prefix}\", first_row: 0x{:02X}, base: 0x{:04X} }}, ",
                    plane.first_row, plane.base
                );
            }
            out.push_str("])");
            out
        }
        Form::Gb18030 { runs } => {
            let mut out = String::from("Form::Gb18030(&[\n");
            for chunk in runs.chunks(4) {
                out.push_str("       ");
                for run in chunk {
                    let _ = write!(
                        out,
                        " Run {{ first: 0x{:04X}, count: {}, linear: {} }},",
                        run.first, run.count, run.linear
                    );
                }
                out.push('\n');
            }
            out.push_str("    ])");
            out
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(pairs: &[(u32, &[u8])]) -> BTreeMap<u32, Vec<u8>> {
        pairs.iter().map(|&(c, b)| (c, b.to_vec())).collect()
    }

    #[test]
    fn forms_are_found_and_give_their_bytes_back() {
        let euc_jp = map(&[(0x41, b"A"), (0x3042, b"\xA4\xA2"), (0xE9, b"\x8F\xAB\xB1")]);
        let planned = plan(
            "EUC-JP",
            &MultiDump {
                map: euc_jp,
                ..MultiDump::default()
            },
        )
        .unwrap();
        assert_eq!(planned.form, Form::EucJp);
        assert_eq!(planned.codes[&0xE9], 0x2B31);
        assert_eq!(planned.form.bytes(0x2B31), b"\x8F\xAB\xB1");
        assert_eq!(planned.form.bytes(0xA4A2), b"\xA4\xA2");

        let tw = map(&[
            (0x41, b"A"),
            (0x4E00, b"\xC4\xA1"),
            (0x4E42, b"\x8E\xA2\xA1\xA2"),
        ]);
        let form = Form::of("x-EUC-TW", &tw, true).unwrap();
        let Form::Planes(planes) = &form else {
            panic!("{form:?}")
        };
        assert_eq!(planes.len(), 2);
        for bytes in tw.values() {
            assert_eq!(&form.bytes(form.code(bytes).unwrap()), bytes);
        }
        // A two-byte code where a plane has no such row is refused.
        assert_eq!(form.code(b"\xA1\xA1"), None);
    }

    /// The stateful forms, found from what the JDK writes for a char alone (its escapes and
    /// shifts around it), give each char's code and its bytes back; bytes of another set or
    /// designation are refused.
    #[test]
    fn stateful_forms_are_found_and_give_their_bytes_back() {
        /// A charset's name, chars with their bytes alone, and the form they show.
        type Case<'a> = (&'a str, &'a [(u32, &'a [u8])], Form);
        let cases: [Case; 3] = [
            (
                "ISO-2022-JP-2",
                &[
                    (0x61, b"a"),
                    (0xA5, b"\x1B(J\x5C\x1B(B"),
                    (0xFF71, b"\x1B(I\x31\x1B(B"),
                    (0x3042, b"\x1B$B\x24\x22\x1B(B"),
                    (0xE9, b"\x1B$(D\x2B\x31\x1B(B"),
                ],
                Form::Jis,
            ),
            (
                "x-ISO-2022-CN-CNS",
                &[
                    (0x61, b"a"),
                    (0x4E2D, b"\x1B$)G\x0E\x44\x63"),
                    (0x4E42, b"\x1B$*H\x1BN\x21\x21"),
                    (0x3421, b"\x1B$+I\x1BO\x34\x3B"),
                ],
                Form::Iso2022 {
                    g1: b"\x1B$)G".to_vec(),
                    g2: b"\x1B$*H".to_vec(),
                    g3: b"\x1B$+I".to_vec(),
                },
            ),
            (
                "x-IBM930",
                &[(0x61, b"\x62"), (0x3042, b"\x0E\x44\x81\x0F")],
                Form::Shifted,
            ),
        ];
        for (name, chars, expected) in &cases {
            let dump = MultiDump {
                map: map(chars),
                stateless: Some(false),
                ..MultiDump::default()
            };
            let planned = plan(name, &dump).unwrap();
            assert_eq!(planned.form, *expected, "{name}");
            for &(c, bytes) in chars.iter() {
                let code = planned.codes[&c];
                assert_eq!(planned.form.bytes(code), bytes, "{name} U+{c:04X}");
            }
        }
        // A JIS X 0208 code under another escape, a G1 char under G2's designation, and a
        // double-byte EBCDIC char not shifted back in are not codes of their forms.
        assert_eq!(Form::Jis.code(b"\x1B$@\x24\x22\x1B(B"), None);
        let cns = &cases[1].2;
        assert_eq!(cns.code(b"\x1B$*H\x0E\x44\x63"), None);
        assert_eq!(Form::Shifted.code(b"\x0E\x44\x81"), None);
        // A stateful charset of no known form is refused.
        let odd = MultiDump {
            map: map(&[(0x3042, b"\x1B%G\x24\x22")]),
            stateless: Some(false),
            ..MultiDump::default()
        };
        assert!(plan("odd", &odd).unwrap_err().contains("no known form"));
    }

    #[test]
    fn gb18030_runs_and_arithmetic() {
        assert_eq!(gb18030_four(GB18030_SUPPLEMENTARY), *b"\x90\x30\x81\x30");
        assert_eq!(gb18030_linear(b"\x81\x30\x81\x30"), Some(0));
        assert_eq!(gb18030_linear(b"\x84\x31\xA4\x39"), Some(39419));
        let mut m = map(&[
            (0x80, b"\x81\x30\x81\x30"),
            (0x81, b"\x81\x30\x81\x31"),
            (0xA4, b"\xA1\xE8"),
        ]);
        for c in 0x1_0000..=0x10_FFFF {
            m.insert(
                c,
                gb18030_four(GB18030_SUPPLEMENTARY + c - 0x1_0000).to_vec(),
            );
        }
        let runs = gb18030_runs("GB18030", &m).unwrap();
        assert_eq!(
            runs,
            [Run {
                first: 0x80,
                count: 2,
                linear: 0
            }]
        );
        m.insert(0x1_0001, b"\x90\x30\x81\x30".to_vec());
        assert!(gb18030_runs("GB18030", &m).is_err());
    }

    #[test]
    fn identical_blocks_are_stored_once() {
        let codes: BTreeMap<u32, u16> = [(0x41, 0x41), (0x3042, 0xA4A2)].into_iter().collect();
        let mut pool = Pool::new();
        assert_eq!(pool.add_plane(&codes, 0).unwrap(), 0);
        assert_eq!(pool.add_plane(&codes, 0).unwrap(), PLANE_BLOCKS as u32);
        assert_eq!(pool.blocks(), 3);
        let (bytes, at) = pool.bytes();
        assert_eq!(at[0], 0);
        assert_eq!(bytes.len() % 8, 0);
        assert_eq!(&bytes[at[1] + 8..at[1] + 16], &2u64.to_le_bytes());
    }
}
