//! The JDK's names of the charsets this crate knows: each one's canonical name and the
//! aliases `Charset.aliases()` lists on a JDK 17.

use encoding_rs::Encoding;

use crate::Charset;

/// One JDK charset: the charset, its canonical name, its aliases (as `aliases()` lists them
/// on a JDK 17; the `charset` sweep checks the table against the JDK it finds).
#[derive(Debug)]
pub(crate) struct JavaName {
    pub(crate) charset: Charset,
    pub(crate) canonical: &'static str,
    pub(crate) aliases: &'static [&'static str],
}

const fn e(encoding: &'static Encoding) -> Charset {
    Charset::from_encoding(encoding)
}

/// The JDK's names of every charset this crate supports.
pub(crate) static JAVA_NAMES: &[JavaName] = &[
    JavaName {
        charset: Charset::ISO_8859_1,
        canonical: "ISO-8859-1",
        aliases: &[
            "819",
            "8859_1",
            "IBM-819",
            "IBM819",
            "ISO8859-1",
            "ISO8859_1",
            "ISO_8859-1",
            "ISO_8859-1:1987",
            "ISO_8859_1",
            "cp819",
            "csISOLatin1",
            "iso-ir-100",
            "l1",
            "latin1",
        ],
    },
    JavaName {
        charset: Charset::US_ASCII,
        canonical: "US-ASCII",
        aliases: &[
            "646",
            "ANSI_X3.4-1968",
            "ANSI_X3.4-1986",
            "ASCII",
            "IBM367",
            "ISO646-US",
            "ISO_646.irv:1991",
            "ascii7",
            "cp367",
            "csASCII",
            "default",
            "iso-ir-6",
            "iso_646.irv:1983",
            "us",
        ],
    },
    JavaName {
        charset: Charset::UTF_16,
        canonical: "UTF-16",
        aliases: &["UTF_16", "UnicodeBig", "unicode", "utf16"],
    },
    JavaName {
        charset: Charset::UTF_32,
        canonical: "UTF-32",
        aliases: &["UTF32", "UTF_32"],
    },
    JavaName {
        charset: Charset::UTF_32BE,
        canonical: "UTF-32BE",
        aliases: &["UTF_32BE", "X-UTF-32BE"],
    },
    JavaName {
        charset: Charset::UTF_32LE,
        canonical: "UTF-32LE",
        aliases: &["UTF_32LE", "X-UTF-32LE"],
    },
    JavaName {
        charset: e(encoding_rs::UTF_8),
        canonical: "UTF-8",
        aliases: &["UTF8", "unicode-1-1-utf-8"],
    },
    JavaName {
        charset: e(encoding_rs::UTF_16LE),
        canonical: "UTF-16LE",
        aliases: &["UTF_16LE", "UnicodeLittleUnmarked", "X-UTF-16LE"],
    },
    JavaName {
        charset: e(encoding_rs::UTF_16BE),
        canonical: "UTF-16BE",
        aliases: &[
            "ISO-10646-UCS-2",
            "UTF_16BE",
            "UnicodeBigUnmarked",
            "X-UTF-16BE",
        ],
    },
    JavaName {
        charset: e(encoding_rs::IBM866),
        canonical: "IBM866",
        aliases: &["866", "cp866", "csIBM866", "ibm-866", "ibm866"],
    },
    JavaName {
        charset: e(encoding_rs::ISO_8859_2),
        canonical: "ISO-8859-2",
        aliases: &[
            "8859_2",
            "912",
            "ISO8859-2",
            "ISO_8859-2",
            "ISO_8859-2:1987",
            "cp912",
            "csISOLatin2",
            "ibm-912",
            "ibm912",
            "iso-ir-101",
            "iso8859_2",
            "l2",
            "latin2",
        ],
    },
    JavaName {
        charset: e(encoding_rs::ISO_8859_3),
        canonical: "ISO-8859-3",
        aliases: &[
            "8859_3",
            "913",
            "ISO8859-3",
            "ISO_8859-3",
            "ISO_8859-3:1988",
            "cp913",
            "csISOLatin3",
            "ibm-913",
            "ibm913",
            "iso-ir-109",
            "iso8859_3",
            "l3",
            "latin3",
        ],
    },
    JavaName {
        charset: e(encoding_rs::ISO_8859_4),
        canonical: "ISO-8859-4",
        aliases: &[
            "8859_4",
            "914",
            "ISO_8859-4",
            "ISO_8859-4:1988",
            "cp914",
            "csISOLatin4",
            "ibm-914",
            "ibm914",
            "iso-ir-110",
            "iso8859-4",
            "iso8859_4",
            "l4",
            "latin4",
        ],
    },
    JavaName {
        charset: e(encoding_rs::ISO_8859_5),
        canonical: "ISO-8859-5",
        aliases: &[
            "8859_5",
            "915",
            "ISO8859-5",
            "ISO_8859-5",
            "ISO_8859-5:1988",
            "cp915",
            "csISOLatinCyrillic",
            "cyrillic",
            "ibm-915",
            "ibm915",
            "iso-ir-144",
            "iso8859_5",
        ],
    },
    JavaName {
        charset: e(encoding_rs::ISO_8859_6),
        canonical: "ISO-8859-6",
        aliases: &[
            "1089",
            "8859_6",
            "ASMO-708",
            "ECMA-114",
            "ISO8859-6",
            "ISO_8859-6",
            "ISO_8859-6:1987",
            "arabic",
            "cp1089",
            "csISOLatinArabic",
            "ibm-1089",
            "ibm1089",
            "iso-ir-127",
            "iso8859_6",
        ],
    },
    JavaName {
        charset: e(encoding_rs::ISO_8859_7),
        canonical: "ISO-8859-7",
        aliases: &[
            "813",
            "8859_7",
            "ECMA-118",
            "ELOT_928",
            "ISO_8859-7",
            "ISO_8859-7:1987",
            "cp813",
            "csISOLatinGreek",
            "greek",
            "greek8",
            "ibm-813",
            "ibm813",
            "iso-ir-126",
            "iso8859-7",
            "iso8859_7",
            "sun_eu_greek",
        ],
    },
    JavaName {
        charset: e(encoding_rs::ISO_8859_8),
        canonical: "ISO-8859-8",
        aliases: &[
            "8859_8",
            "916",
            "ISO8859-8",
            "ISO_8859-8",
            "ISO_8859-8:1988",
            "cp916",
            "csISOLatinHebrew",
            "hebrew",
            "ibm-916",
            "ibm916",
            "iso-ir-138",
            "iso8859_8",
        ],
    },
    JavaName {
        charset: e(encoding_rs::ISO_8859_13),
        canonical: "ISO-8859-13",
        aliases: &["8859_13", "ISO8859-13", "iso8859_13", "iso_8859-13"],
    },
    JavaName {
        charset: e(encoding_rs::ISO_8859_15),
        canonical: "ISO-8859-15",
        aliases: &[
            "8859_15",
            "923",
            "IBM-923",
            "IBM923",
            "ISO-8859-15",
            "ISO8859-15",
            "ISO8859_15",
            "ISO8859_15_FDIS",
            "ISO_8859-15",
            "L9",
            "LATIN0",
            "LATIN9",
            "Latin-9",
            "cp923",
            "csISO885915",
            "csISOlatin0",
            "csISOlatin9",
        ],
    },
    JavaName {
        charset: e(encoding_rs::ISO_8859_16),
        canonical: "ISO-8859-16",
        aliases: &[
            "ISO8859_16",
            "ISO_8859-16",
            "ISO_8859-16:2001",
            "csISO885916",
            "iso-ir-226",
            "l10",
            "latin10",
        ],
    },
    JavaName {
        charset: e(encoding_rs::KOI8_R),
        canonical: "KOI8-R",
        aliases: &["cskoi8r", "koi8", "koi8_r"],
    },
    JavaName {
        charset: e(encoding_rs::KOI8_U),
        canonical: "KOI8-U",
        aliases: &["koi8_u"],
    },
    JavaName {
        charset: e(encoding_rs::MACINTOSH),
        canonical: "x-MacRoman",
        aliases: &["MacRoman"],
    },
    JavaName {
        charset: e(encoding_rs::WINDOWS_874),
        canonical: "x-windows-874",
        aliases: &["ms-874", "ms874", "windows-874"],
    },
    JavaName {
        charset: e(encoding_rs::WINDOWS_1250),
        canonical: "windows-1250",
        aliases: &["cp1250", "cp5346"],
    },
    JavaName {
        charset: e(encoding_rs::WINDOWS_1251),
        canonical: "windows-1251",
        aliases: &["ansi-1251", "cp1251", "cp5347"],
    },
    JavaName {
        charset: e(encoding_rs::WINDOWS_1252),
        canonical: "windows-1252",
        aliases: &["cp1252", "cp5348", "ibm-1252", "ibm1252"],
    },
    JavaName {
        charset: e(encoding_rs::WINDOWS_1253),
        canonical: "windows-1253",
        aliases: &["cp1253", "cp5349"],
    },
    JavaName {
        charset: e(encoding_rs::WINDOWS_1254),
        canonical: "windows-1254",
        aliases: &["cp1254", "cp5350"],
    },
    JavaName {
        charset: e(encoding_rs::WINDOWS_1255),
        canonical: "windows-1255",
        aliases: &["cp1255"],
    },
    JavaName {
        charset: e(encoding_rs::WINDOWS_1256),
        canonical: "windows-1256",
        aliases: &["cp1256"],
    },
    JavaName {
        charset: e(encoding_rs::WINDOWS_1257),
        canonical: "windows-1257",
        aliases: &["cp1257", "cp5353"],
    },
    JavaName {
        charset: e(encoding_rs::WINDOWS_1258),
        canonical: "windows-1258",
        aliases: &["cp1258"],
    },
    JavaName {
        charset: e(encoding_rs::X_MAC_CYRILLIC),
        canonical: "x-MacCyrillic",
        aliases: &["MacCyrillic"],
    },
    JavaName {
        charset: e(encoding_rs::GBK),
        canonical: "GBK",
        aliases: &["CP936", "windows-936"],
    },
    JavaName {
        charset: e(encoding_rs::GB18030),
        canonical: "GB18030",
        aliases: &["gb18030-2022"],
    },
    JavaName {
        charset: e(encoding_rs::BIG5),
        canonical: "Big5",
        aliases: &["csBig5"],
    },
    JavaName {
        charset: e(encoding_rs::EUC_JP),
        canonical: "EUC-JP",
        aliases: &[
            "Extended_UNIX_Code_Packed_Format_for_Japanese",
            "csEUCPkdFmtjapanese",
            "euc_jp",
            "eucjis",
            "eucjp",
            "x-euc-jp",
            "x-eucjp",
        ],
    },
    JavaName {
        charset: e(encoding_rs::ISO_2022_JP),
        canonical: "ISO-2022-JP",
        aliases: &[
            "csISO2022JP",
            "csjisencoding",
            "iso2022jp",
            "jis",
            "jis_encoding",
        ],
    },
    JavaName {
        charset: e(encoding_rs::SHIFT_JIS),
        canonical: "Shift_JIS",
        aliases: &[
            "csShiftJIS",
            "ms_kanji",
            "shift-jis",
            "shift_jis",
            "sjis",
            "x-sjis",
        ],
    },
    JavaName {
        charset: e(encoding_rs::EUC_KR),
        canonical: "EUC-KR",
        aliases: &[
            "5601",
            "csEUCKR",
            "euc_kr",
            "euckr",
            "ks_c_5601-1987",
            "ksc5601",
            "ksc5601-1987",
            "ksc5601_1987",
            "ksc_5601",
        ],
    },
];

/// The JDK's names, for the `charset` sweep: `(charset, canonical name, aliases)` of every
/// JDK charset [`Charset::for_java_name`] knows.
pub(crate) fn java_names() -> impl Iterator<Item = (Charset, &'static str, &'static [&'static str])>
{
    JAVA_NAMES
        .iter()
        .map(|entry| (entry.charset, entry.canonical, entry.aliases))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg_attr(
        miri,
        ignore = "quadratic in the JDK's names, no unsafe code on its path: too slow under Miri"
    )]
    fn every_name_is_unique_and_resolves_to_its_charset() {
        // The JDK lists some names twice in different case (`IBM866` and `ibm866`), within
        // one charset; no name belongs to two.
        let mut seen: Vec<(String, &str)> = Vec::new();
        for entry in JAVA_NAMES {
            for name in std::iter::once(&entry.canonical).chain(entry.aliases) {
                let lower = name.to_ascii_lowercase();
                assert!(
                    seen.iter()
                        .all(|(other, owner)| *other != lower || *owner == entry.canonical),
                    "{name} in two charsets"
                );
                seen.push((lower, entry.canonical));
                assert_eq!(Charset::for_java_name(name), Some(entry.charset), "{name}");
                let upper = name.to_ascii_uppercase();
                assert_eq!(
                    Charset::for_java_name(&upper),
                    Some(entry.charset),
                    "{upper}"
                );
            }
            assert_eq!(entry.charset.name(), entry.canonical);
        }
        // One entry per charset.
        for (i, a) in JAVA_NAMES.iter().enumerate() {
            for b in &JAVA_NAMES[i + 1..] {
                assert_ne!(a.charset, b.charset, "{}", a.canonical);
            }
        }
        for charset in Charset::java_charsets() {
            assert!(!charset.name().is_empty(), "{charset:?}");
        }
    }

    #[test]
    fn unknown_names_give_none() {
        for name in [
            "",
            " UTF-8",
            "UTF-8 ",
            "utf-9",
            "windows-31j",
            "x-IBM930",
            "latin 1",
        ] {
            assert_eq!(Charset::for_java_name(name), None, "{name:?}");
        }
    }
}
