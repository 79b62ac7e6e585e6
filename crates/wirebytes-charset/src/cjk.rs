//! Encode tables for the CJK encodings (Shift_JIS, EUC-JP, EUC-KR, Big5, GBK, gb18030; for
//! ISO-2022-JP the JIS X 0208 codes): BMP char → its one or two bytes, built lazily per
//! encoding on first use.
//!
//! A table is built from encoding_rs itself, so its mapping is encoding_rs's by
//! construction: the decoder enumerates the chars the encoding can hold (every one- and
//! two-byte sequence that decodes to one BMP char), and encoding_rs's encoder says what each
//! of those chars encodes to; a char whose encoding is one or two bytes goes into the table.
//! Every other char (an unmappable one, a supplementary one, gb18030's four-byte forms, the
//! few chars only encoding_rs's encoder maps, such as U+2212 in Shift_JIS) has no entry and
//! goes through encoding_rs's encoder, char by char.
//!
//! # Memory
//!
//! A table is a 256-entry page index (512 bytes) and one 512-byte page of `u16` codes per
//! 256-char block of the BMP that holds a mapped char, allocated on the heap when the
//! encoding is first used: 50 KiB for Shift_JIS and EUC-JP (7,390 entries), 74 KiB for
//! EUC-KR (17,048), 64 KiB for Big5 (14,362), 66 KiB for GBK and for gb18030 (23,939 each),
//! and for ISO-2022-JP about as much as EUC-JP (it is built from EUC-JP's, which it builds too);
//! the unit test holds each under 100 KiB. Nothing is allocated for an encoding that is never
//! used, and no table is compiled into the binary.

use std::sync::OnceLock;

use encoding_rs::{DecoderResult, EncoderResult, Encoding};

/// BMP char → code: `0` for no entry, below `0x100` one byte, else two bytes (big-endian;
/// every two-byte code of these encodings has a lead byte of 0x81 or more).
pub(crate) struct Table {
    /// The page of each 256-char block (0: the all-zero page).
    index: [u16; 256],
    /// The pages, 256 codes each.
    codes: Vec<u16>,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("pages", &(self.codes.len() / 256))
            .finish()
    }
}

/// The encodings with a table, in the order of [`TABLES`].
const ENCODINGS: [&Encoding; 7] = [
    &encoding_rs::SHIFT_JIS_INIT,
    &encoding_rs::EUC_JP_INIT,
    &encoding_rs::EUC_KR_INIT,
    &encoding_rs::BIG5_INIT,
    &encoding_rs::GBK_INIT,
    &encoding_rs::GB18030_INIT,
    &encoding_rs::ISO_2022_JP_INIT,
];

static TABLES: [OnceLock<Table>; 7] = [const { OnceLock::new() }; 7];

/// The table of `encoding`, built on first use; `None` for an encoding without one.
pub(crate) fn table(encoding: &'static Encoding) -> Option<&'static Table> {
    let i = ENCODINGS.iter().position(|&e| e == encoding)?;
    Some(TABLES[i].get_or_init(|| Table::build(encoding)))
}

impl Table {
    /// The code of the BMP char `c` (`0`: no entry).
    #[inline(always)]
    pub(crate) fn get(&self, c: u32) -> u16 {
        let page = usize::from(self.index[((c >> 8) & 0xFF) as usize]);
        self.codes[(page << 8) | (c & 0xFF) as usize]
    }

    fn set(&mut self, c: u16, code: u16) {
        let hi = usize::from(c >> 8);
        if self.index[hi] == 0 {
            self.index[hi] = u16::try_from(self.codes.len() / 256).unwrap_or(0);
            self.codes.resize(self.codes.len() + 256, 0);
        }
        let page = usize::from(self.index[hi]);
        self.codes[(page << 8) | usize::from(c & 0xFF)] = code;
    }

    /// How many bytes the table holds.
    #[cfg(test)]
    fn size(&self) -> usize {
        std::mem::size_of::<Self>() + 2 * self.codes.len()
    }

    fn build(encoding: &'static Encoding) -> Table {
        if encoding == encoding_rs::ISO_2022_JP {
            return Self::build_iso_2022_jp();
        }
        let mut table = Table {
            index: [0; 256],
            codes: vec![0; 256],
        };
        // Which BMP chars some one- or two-byte sequence decodes to.
        let mut held = vec![false; 0x1_0000];
        let mut mark = |bytes: &[u8]| {
            let mut decoder = encoding.new_decoder_without_bom_handling();
            let mut out = [0u16; 4];
            let (result, _, written) =
                decoder.decode_to_utf16_without_replacement(bytes, &mut out, true);
            if result == DecoderResult::InputEmpty
                && written == 1
                && !(0xD800..=0xDFFF).contains(&out[0])
            {
                held[usize::from(out[0])] = true;
            }
        };
        for b in 0x80..=0xFFu8 {
            mark(&[b]);
        }
        for lead in 0x81..=0xFEu8 {
            for trail in 0x40..=0xFEu8 {
                mark(&[lead, trail]);
            }
        }
        // What encoding_rs's encoder writes for each of them.
        let mut encoder = encoding.new_encoder();
        for c in (0x80..=0xFFFFu16).filter(|&c| held[usize::from(c)]) {
            let mut out = [0u8; 8];
            let (result, _, written) =
                encoder.encode_from_utf16_without_replacement(&[c], &mut out, false);
            let code = match (result, written) {
                (EncoderResult::InputEmpty, 1) => u16::from(out[0]),
                (EncoderResult::InputEmpty, 2) if out[0] >= 0x81 => {
                    u16::from_be_bytes([out[0], out[1]])
                }
                _ => continue,
            };
            table.set(c, code);
        }
        table
    }

    /// ISO-2022-JP's table: the JIS X 0208 code of every char that encoding_rs's ISO-2022-JP
    /// encoder writes in the JIS X 0208 state (`ESC $ B` and two bytes, from the ASCII
    /// state): the chars EUC-JP's decoder yields, the halfwidth katakana (written as their
    /// fullwidth forms) and U+2212.
    fn build_iso_2022_jp() -> Table {
        let euc_jp = table(encoding_rs::EUC_JP);
        let mut table = Table {
            index: [0; 256],
            codes: vec![0; 256],
        };
        let candidates = (0x80..=0xFFFFu16)
            .filter(|&c| euc_jp.is_some_and(|t| t.get(u32::from(c)) != 0))
            .chain(0xFF61..=0xFF9F)
            .chain([0x2212]);
        for c in candidates {
            let mut encoder = encoding_rs::ISO_2022_JP.new_encoder();
            let mut out = [0u8; 8];
            let (result, _, written) =
                encoder.encode_from_utf16_without_replacement(&[c], &mut out, false);
            if let (EncoderResult::InputEmpty, 5, [0x1B, b'$', b'B', hi, lo, ..]) =
                (result, written, out)
            {
                table.set(c, u16::from_be_bytes([hi, lo]));
            }
        }
        table
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every BMP char: the table's bytes are encoding_rs's encoder's wherever it has an
    /// entry, and the table stays within its memory budget.
    #[test]
    #[cfg_attr(
        miri,
        ignore = "asks encoding_rs about every BMP char: too slow under Miri"
    )]
    fn tables_agree_with_encoding_rs_and_stay_small() {
        for encoding in &ENCODINGS[..6] {
            let table = table(encoding).expect("a table");
            assert!(
                table.size() <= 100 * 1024,
                "{} {}",
                encoding.name(),
                table.size()
            );
            let mut entries = 0;
            let mut encoder = encoding.new_encoder();
            for c in 0x80..=0xFFFFu16 {
                let code = table.get(u32::from(c));
                if code == 0 {
                    continue;
                }
                entries += 1;
                let mut out = [0u8; 8];
                let (result, _, written) =
                    encoder.encode_from_utf16_without_replacement(&[c], &mut out, false);
                assert_eq!(
                    result,
                    EncoderResult::InputEmpty,
                    "{} U+{c:04X}",
                    encoding.name()
                );
                let want: &[u8] = &out[..written];
                let got = code.to_be_bytes();
                let got: &[u8] = if code < 0x100 { &got[1..] } else { &got };
                assert_eq!(got, want, "{} U+{c:04X}", encoding.name());
            }
            assert!(entries > 7000, "{} has {entries} entries", encoding.name());
            let pages = table.codes.len() / 256;
            assert_eq!(format!("{table:?}"), format!("Table {{ pages: {pages} }}"));
        }
    }

    /// Every BMP char: where ISO-2022-JP's table has an entry, encoding_rs's encoder writes
    /// `ESC $ B` and those two bytes from the ASCII state.
    #[test]
    #[cfg_attr(
        miri,
        ignore = "asks encoding_rs about every BMP char: too slow under Miri"
    )]
    fn iso_2022_jp_table_agrees_with_encoding_rs() {
        let table = table(encoding_rs::ISO_2022_JP).expect("a table");
        assert!(table.size() <= 100 * 1024, "{}", table.size());
        let mut entries = 0;
        for c in 0x80..=0xFFFFu16 {
            let mut encoder = encoding_rs::ISO_2022_JP.new_encoder();
            let mut out = [0u8; 8];
            let (result, _, written) =
                encoder.encode_from_utf16_without_replacement(&[c], &mut out, false);
            let code = table.get(u32::from(c));
            let jis0208 =
                result == EncoderResult::InputEmpty && written == 5 && out.starts_with(b"\x1B$B");
            if code == 0 {
                assert!(!jis0208, "U+{c:04X} missing");
            } else {
                entries += 1;
                assert!(jis0208, "U+{c:04X}");
                assert_eq!(out[3..5], code.to_be_bytes(), "U+{c:04X}");
            }
        }
        assert!(entries > 7000, "{entries} entries");
    }
}
