//! The encodings this crate knows (all 40 of encoding_rs), how each one is written, and the
//! label / `Content-Type` lookup.

use encoding_rs::Encoding;

use crate::Charset;
use crate::jdk::{self, JdkKind};

/// Every encoding encoding_rs knows, in one place: the 40 encodings of the WHATWG Encoding
/// Standard (29 single-byte ones, x-user-defined included; the Unicode ones; the CJK ones;
/// `replacement`). Every WHATWG label resolves to one of these (a test checks it for every
/// label); [`Charset::whatwg_charsets`] lists them.
pub(crate) static ALL: [&Encoding; 40] = [
    &encoding_rs::UTF_8_INIT,
    &encoding_rs::UTF_16LE_INIT,
    &encoding_rs::UTF_16BE_INIT,
    &encoding_rs::REPLACEMENT_INIT,
    &encoding_rs::IBM866_INIT,
    &encoding_rs::ISO_8859_2_INIT,
    &encoding_rs::ISO_8859_3_INIT,
    &encoding_rs::ISO_8859_4_INIT,
    &encoding_rs::ISO_8859_5_INIT,
    &encoding_rs::ISO_8859_6_INIT,
    &encoding_rs::ISO_8859_7_INIT,
    &encoding_rs::ISO_8859_8_INIT,
    &encoding_rs::ISO_8859_8_I_INIT,
    &encoding_rs::ISO_8859_10_INIT,
    &encoding_rs::ISO_8859_13_INIT,
    &encoding_rs::ISO_8859_14_INIT,
    &encoding_rs::ISO_8859_15_INIT,
    &encoding_rs::ISO_8859_16_INIT,
    &encoding_rs::KOI8_R_INIT,
    &encoding_rs::KOI8_U_INIT,
    &encoding_rs::MACINTOSH_INIT,
    &encoding_rs::WINDOWS_874_INIT,
    &encoding_rs::WINDOWS_1250_INIT,
    &encoding_rs::WINDOWS_1251_INIT,
    &encoding_rs::WINDOWS_1252_INIT,
    &encoding_rs::WINDOWS_1253_INIT,
    &encoding_rs::WINDOWS_1254_INIT,
    &encoding_rs::WINDOWS_1255_INIT,
    &encoding_rs::WINDOWS_1256_INIT,
    &encoding_rs::WINDOWS_1257_INIT,
    &encoding_rs::WINDOWS_1258_INIT,
    &encoding_rs::X_MAC_CYRILLIC_INIT,
    &encoding_rs::X_USER_DEFINED_INIT,
    &encoding_rs::GBK_INIT,
    &encoding_rs::GB18030_INIT,
    &encoding_rs::BIG5_INIT,
    &encoding_rs::EUC_JP_INIT,
    &encoding_rs::ISO_2022_JP_INIT,
    &encoding_rs::SHIFT_JIS_INIT,
    &encoding_rs::EUC_KR_INIT,
];

/// Index in [`ALL`] of the first single-byte encoding; the 29 single-byte encodings follow
/// it contiguously (IBM866 .. x-user-defined).
pub(crate) const FIRST_SINGLE_BYTE: usize = 4;
/// How many single-byte encodings there are (x-user-defined included).
pub(crate) const SINGLE_BYTE_COUNT: usize = 29;

/// How many single-byte tables there are: the 29 WHATWG single-byte encodings, then the
/// JDK's single-byte charsets in the order of [`jdk::SINGLE_BYTE`].
pub(crate) const TABLE_COUNT: usize = SINGLE_BYTE_COUNT + jdk::SINGLE_BYTE.len();

/// How a charset is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// UTF-8 bytes: UTF-8 itself and `replacement` (whose output encoding is UTF-8).
    Utf8,
    /// The JDK's CESU-8: UTF-8, but a supplementary char as its two surrogates, three bytes
    /// each.
    Cesu8,
    /// UTF-16 code units, big-endian when `big_endian`; with `bom`, the byte order mark
    /// before non-empty output (the JDK's "UTF-16" and "x-UTF-16LE-BOM").
    Utf16 { big_endian: bool, bom: bool },
    /// UTF-32, big-endian when `big_endian`; with `bom`, the byte order mark before
    /// non-empty output.
    Utf32 { big_endian: bool, bom: bool },
    /// One byte per char through a reverse table, ASCII as itself: the index among the
    /// [`TABLE_COUNT`] tables.
    SingleByte(usize),
    /// One byte per char through a reverse table, ASCII too (EBCDIC and the other charsets
    /// where ASCII is not its own byte): the index among the [`TABLE_COUNT`] tables.
    ByteMap(usize),
    /// Shift_JIS, EUC-JP, EUC-KR, Big5, GBK, gb18030 (ASCII-compatible, stateless).
    MultiByte(&'static Encoding),
    /// ISO-2022-JP (stateful; ESC, SO and SI are not written as themselves).
    Iso2022Jp,
    /// A stateless multi-byte charset of the JDK's: the index of its data in
    /// [`jdk::MULTI_BYTE`].
    JdkMultiByte(usize),
}

/// Classifies `charset`.
#[inline]
pub(crate) fn kind(charset: Charset) -> Kind {
    let Some(encoding) = charset.encoding() else {
        let Some(jdk) = charset.jdk() else {
            debug_assert!(false, "a charset is WHATWG or JDK");
            return Kind::Utf8;
        };
        return match jdk.kind {
            JdkKind::Utf8 => Kind::Utf8,
            JdkKind::Cesu8 => Kind::Cesu8,
            JdkKind::Utf16 { big_endian, bom } => Kind::Utf16 { big_endian, bom },
            JdkKind::Utf32 { big_endian, bom } => Kind::Utf32 { big_endian, bom },
            JdkKind::SingleByte(k) if jdk::SINGLE_BYTE[k].ascii => {
                Kind::SingleByte(SINGLE_BYTE_COUNT + k)
            }
            JdkKind::SingleByte(k) => Kind::ByteMap(SINGLE_BYTE_COUNT + k),
            JdkKind::MultiByte(data) => Kind::JdkMultiByte(data),
        };
    };
    if encoding == encoding_rs::UTF_8 || encoding == encoding_rs::REPLACEMENT {
        Kind::Utf8
    } else if encoding == encoding_rs::UTF_16LE {
        Kind::Utf16 {
            big_endian: false,
            bom: false,
        }
    } else if encoding == encoding_rs::UTF_16BE {
        Kind::Utf16 {
            big_endian: true,
            bom: false,
        }
    } else if encoding.is_single_byte() {
        let singles = &ALL[FIRST_SINGLE_BYTE..FIRST_SINGLE_BYTE + SINGLE_BYTE_COUNT];
        match singles.iter().position(|e| *e == encoding) {
            Some(i) => Kind::SingleByte(i),
            // Every encoding_rs encoding is in ALL (a test checks it); a future single-byte
            // one would still be written correctly by encoding_rs's own encoder.
            None => Kind::MultiByte(encoding),
        }
    } else if encoding == encoding_rs::ISO_2022_JP {
        Kind::Iso2022Jp
    } else {
        Kind::MultiByte(encoding)
    }
}

/// The value of the first `charset` parameter of a media type (a `Content-Type` header
/// value, as bytes), unquoted.
pub(crate) fn charset_parameter(value: &[u8]) -> Option<Vec<u8>> {
    fn trim(mut bytes: &[u8]) -> &[u8] {
        while let [b' ' | b'\t', rest @ ..] = bytes {
            bytes = rest;
        }
        while let [rest @ .., b' ' | b'\t'] = bytes {
            bytes = rest;
        }
        bytes
    }
    // Skip the type/subtype.
    let mut i = value.iter().position(|&b| b == b';')?;
    while i < value.len() {
        // At a ';' (or past the end of the previous parameter): skip separators.
        while i < value.len() && (value[i] == b';' || value[i].is_ascii_whitespace()) {
            i += 1;
        }
        let name_start = i;
        while i < value.len() && value[i] != b'=' && value[i] != b';' {
            i += 1;
        }
        let name = trim(&value[name_start..i]);
        if i >= value.len() || value[i] == b';' {
            continue; // a parameter without a value
        }
        i += 1; // '='
        while i < value.len() && (value[i] == b' ' || value[i] == b'\t') {
            i += 1;
        }
        let mut param = Vec::new();
        if i < value.len() && value[i] == b'"' {
            i += 1;
            while i < value.len() {
                match value[i] {
                    b'"' => {
                        i += 1;
                        break;
                    }
                    b'\\' => {
                        if let Some(&escaped) = value.get(i + 1) {
                            param.push(escaped);
                        }
                        i += 2;
                    }
                    b => {
                        param.push(b);
                        i += 1;
                    }
                }
            }
            // Anything up to the next ';' after a quoted string is ignored.
            while i < value.len() && value[i] != b';' {
                i += 1;
            }
        } else {
            let start = i;
            while i < value.len() && value[i] != b';' {
                i += 1;
            }
            param.extend_from_slice(trim(&value[start..i]));
        }
        if name.eq_ignore_ascii_case(b"charset") {
            return Some(param);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_holds_forty_distinct_encodings_in_the_expected_families() {
        for (i, a) in ALL.iter().enumerate() {
            for b in &ALL[i + 1..] {
                assert_ne!(a, b, "{} listed twice", a.name());
            }
        }
        let singles: Vec<_> = ALL.iter().filter(|e| e.is_single_byte()).collect();
        assert_eq!(singles.len(), SINGLE_BYTE_COUNT);
        for (i, e) in ALL.iter().enumerate() {
            let in_block = (FIRST_SINGLE_BYTE..FIRST_SINGLE_BYTE + SINGLE_BYTE_COUNT).contains(&i);
            assert_eq!(e.is_single_byte(), in_block, "{}", e.name());
            if in_block {
                assert!(
                    matches!(kind((*e).into()), Kind::SingleByte(j) if j == i - FIRST_SINGLE_BYTE)
                );
            }
        }
    }

    #[test]
    fn content_type_parameters() {
        let cases: &[(&str, Option<&str>)] = &[
            ("text/plain; charset=utf-8", Some("utf-8")),
            ("text/plain;charset=\"utf-8\"", Some("utf-8")),
            (
                "text/plain; format=flowed; Charset = koi8-r ; x=y",
                Some("koi8-r"),
            ),
            ("text/plain; a=\"x;charset=no\"; charset=big5", Some("big5")),
            // What follows a quoted value up to the next ';' is no parameter.
            ("text/plain; a=\"x\"charset=no; charset=big5", Some("big5")),
            ("text/plain; a=\"q\\\"\"; charset=\"b\\ig5\"", Some("big5")),
            ("text/plain; charset", None),
            ("text/plain; charset=", Some("")),
            ("text/plain", None),
            ("", None),
            ("text/plain; charset=\"unterminated", Some("unterminated")),
            ("text/plain; charset=a; charset=b", Some("a")),
            // Blanks after the `=` are skipped before a quoted value too.
            ("text/plain; charset= \"utf-8\"", Some("utf-8")),
            ("text/plain; charset=\t\"utf-8\"", Some("utf-8")),
        ];
        for (value, expected) in cases {
            assert_eq!(
                charset_parameter(value.as_bytes()).as_deref(),
                expected.map(str::as_bytes),
                "{value:?}"
            );
        }
        // Bytes that are not UTF-8 are a label like any other (which no label table knows).
        assert_eq!(
            charset_parameter(b"text/plain; charset=\xFFx").as_deref(),
            Some(&b"\xFFx"[..])
        );
    }
}
