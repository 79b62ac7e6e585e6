//! Edge cases: exact bytes for chosen inputs (the JDK's where it agrees, from a JDK 17), and
//! every edge input through every encoding against the reference.

mod common;

use common::{check_str, check_units};
use rstest::rstest;
use wirebytes_charset::{Charset, CoderResult, Encoding, Replacement, levels, reference};

use encoding_rs::{
    BIG5, EUC_JP, EUC_KR, GB18030, GBK, IBM866, ISO_2022_JP, ISO_8859_2, ISO_8859_5, ISO_8859_8,
    KOI8_R, REPLACEMENT, SHIFT_JIS, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_874, WINDOWS_1251,
    WINDOWS_1252, WINDOWS_1253, X_MAC_CYRILLIC, X_USER_DEFINED,
};

const JDK: Replacement = Replacement::Jdk;
const WEB: Replacement = Replacement::Whatwg;

/// encoding_rs's encodings, as the crate lists them.
fn all_encodings() -> Vec<&'static Encoding> {
    Charset::whatwg_charsets()
        .filter_map(Charset::encoding)
        .collect()
}

#[rstest]
#[case::empty("")]
#[case::nul("\0")]
#[case::nul_inside("a\0b\0")]
#[case::bom("\u{FEFF}")]
#[case::bom_then_text("\u{FEFF}hello")]
#[case::replacement_char("\u{FFFD}")]
#[case::replacement_char_inside("x\u{FFFD}y")]
#[case::ascii("The quick brown fox")]
#[case::latin1("Grüße, señor, ça va? ¡Olé! ÿ")]
#[case::cyrillic("Съешь же ещё этих мягких французских булок")]
#[case::greek("Ξεσκεπάζω την ψυχοφθόρα βδελυγμία")]
#[case::hebrew("דג סקרן שט בים מאוכזב")]
#[case::arabic("نص حكيم له سر قاطع")]
#[case::thai("เป็นมนุษย์สุดประเสริฐ")]
#[case::cjk("日本語のテキスト、한국어, 中文字符")]
#[case::emoji("😀🎉")]
#[case::emoji_in_ascii("{\"a\":1,\"b\":\"😀\"}")]
#[case::euro_and_quotes("€ “quoted” – ‘x’ …")]
#[case::iso_2022_jp_controls("a\u{1B}b\u{0E}c\u{0F}")]
#[case::iso_2022_jp_switches("a¥b‾cあd¥あ‾e\\~ｱｲ")]
#[case::iso_2022_jp_roman_then_tilde_backslash("¥~¥\\‾x\u{1B}あ\u{1B}")]
#[case::x_user_defined("\u{F780}\u{F7FF}\u{F800}\u{F77F}")]
#[case::c1_controls("\u{80}\u{81}\u{9F}")]
#[case::max_chars("\u{7F}\u{80}\u{7FF}\u{800}\u{FFFF}\u{10000}\u{10FFFF}")]
#[case::ascii_then_latin1_at_vector_edge("0123456789abcdef0123456789abcdefé")]
fn every_encoding_agrees_with_reference(#[case] text: &str) {
    check_str(text);
}

#[rstest]
#[case::lone_high_start(&[0xD800, 0x61])]
#[case::lone_high_middle(&[0x61, 0xD83D, 0x62])]
#[case::lone_high_end(&[0x61, 0xDBFF])]
#[case::lone_low_start(&[0xDC00, 0x61])]
#[case::lone_low_middle(&[0x61, 0xDE00, 0x62])]
#[case::lone_low_end(&[0x61, 0xDFFF])]
#[case::reversed_pair(&[0xDE00, 0xD83D])]
#[case::two_highs_then_low(&[0xD83D, 0xD83D, 0xDE00])]
#[case::only_lone(&[0xD800])]
#[case::lone_in_cjk(&[0x3042, 0xD800, 0x3042])]
#[case::lone_after_roman(&[0xA5, 0xDC00, 0x78])]
#[case::pair(&[0xD83D, 0xDE00])]
#[case::empty(&[])]
fn utf16_input_agrees_with_reference(#[case] units: &[u16]) {
    check_units(units);
}

/// Exact bytes. The `Jdk` ones are what JDK 17's `String.getBytes` wrote for the same input.
#[rstest]
#[case::win1252_euro("€", WINDOWS_1252, JDK, b"\x80")]
#[case::win1252_emoji_is_one_question_mark("a😀b", WINDOWS_1252, JDK, b"a?b")]
#[case::win1252_emoji_ncr("a😀b", WINDOWS_1252, WEB, b"a&#128512;b")]
#[case::win1252_c1_unmappable_jdk("\u{81}", WINDOWS_1252, JDK, b"\x81")]
#[case::win1251("Привет", WINDOWS_1251, JDK, b"\xCF\xF0\xE8\xE2\xE5\xF2")]
#[case::koi8r_unmappable("é", KOI8_R, JDK, b"?")]
#[case::koi8r_unmappable_ncr("é", KOI8_R, WEB, b"&#233;")]
#[case::latin2("é✓", ISO_8859_2, JDK, b"\xE9?")]
#[case::iso8859_5_euro("€", ISO_8859_5, WEB, b"&#8364;")]
#[case::ibm866_box("╔", IBM866, JDK, b"\xC9")]
#[case::greek_unassigned_byte_not_reachable("\u{FFFD}", WINDOWS_1253, WEB, b"&#65533;")]
#[case::hebrew_unmappable("Ж", ISO_8859_8, JDK, b"?")]
#[case::thai("ก", WINDOWS_874, JDK, b"\xA1")]
#[case::mac_cyrillic("Ж", X_MAC_CYRILLIC, JDK, b"\x86")]
#[case::x_user_defined_low("\u{F780}", X_USER_DEFINED, JDK, b"\x80")]
#[case::x_user_defined_high("\u{F7FF}", X_USER_DEFINED, JDK, b"\xFF")]
#[case::x_user_defined_outside("\u{F800}é", X_USER_DEFINED, JDK, b"??")]
#[case::x_user_defined_outside_ncr("\u{F800}", X_USER_DEFINED, WEB, b"&#63488;")]
#[case::nul_everywhere("\0", SHIFT_JIS, JDK, b"\0")]
#[case::nul_utf16("\0", UTF_16BE, JDK, b"\0\0")]
#[case::bom_as_text_utf8("\u{FEFF}", UTF_8, JDK, b"\xEF\xBB\xBF")]
#[case::bom_as_text_utf16le("\u{FEFF}", UTF_16LE, JDK, b"\xFF\xFE")]
#[case::bom_unmappable("\u{FEFF}", WINDOWS_1252, JDK, b"?")]
#[case::fffd_gb18030("\u{FFFD}", GB18030, JDK, b"\x84\x31\xA4\x37")]
#[case::emoji_gb18030("😀", GB18030, JDK, b"\x94\x39\xFC\x36")]
#[case::emoji_utf16le("😀", UTF_16LE, JDK, b"\x3D\xD8\x00\xDE")]
#[case::sjis_unmappable("a\u{e9}b", SHIFT_JIS, JDK, b"a?b")]
#[case::sjis_yen("¥‾", SHIFT_JIS, JDK, b"\x5C\x7E")]
#[case::euc_kr_unmappable("é😀", EUC_KR, JDK, b"??")]
#[case::euc_kr_ncr("é😀", EUC_KR, WEB, b"&#233;&#128512;")]
#[case::big5_unmappable("é", BIG5, JDK, b"?")]
#[case::gbk_emoji("😀", GBK, JDK, b"?")]
#[case::euc_jp_fullwidth_question("？", EUC_JP, JDK, b"\xA1\xA9")]
#[case::replacement_is_utf8("é😀", REPLACEMENT, JDK, "é😀".as_bytes())]
// ISO-2022-JP: the JDK writes U+FF1F (JIS X 0208 21 29) for an unmappable char.
#[case::iso2022jp_hiragana("あ", ISO_2022_JP, JDK, b"\x1B$B$\"\x1B(B")]
#[case::iso2022jp_unmappable_between_kana("あéあ", ISO_2022_JP, JDK, b"\x1B$B$\"!)$\"\x1B(B")]
#[case::iso2022jp_unmappable_after_ascii("aé", ISO_2022_JP, JDK, b"a\x1B$B!)\x1B(B")]
#[case::iso2022jp_unmappable_after_roman("¥éx", ISO_2022_JP, JDK, b"\x1B(J\\\x1B$B!)\x1B(Bx")]
#[case::iso2022jp_emoji("a😀", ISO_2022_JP, JDK, b"a\x1B$B!)\x1B(B")]
#[case::iso2022jp_ncr_leaves_jis("あé", ISO_2022_JP, WEB, b"\x1B$B$\"\x1B(B&#233;")]
#[case::iso2022jp_roman("¥‾", ISO_2022_JP, JDK, b"\x1B(J\\~\x1B(B")]
#[case::iso2022jp_esc_unmappable("\u{1B}", ISO_2022_JP, WEB, b"&#65533;")]
#[case::iso2022jp_ends_in_ascii("あ", ISO_2022_JP, WEB, b"\x1B$B$\"\x1B(B")]
fn exact_bytes(
    #[case] text: &str,
    #[case] encoding: &'static Encoding,
    #[case] replacement: Replacement,
    #[case] expected: &[u8],
) {
    assert_eq!(Charset::from(encoding).encode(text, replacement), expected);
    assert_eq!(
        reference::encode(Charset::from(encoding), text, replacement),
        expected
    );
    for level in levels::all() {
        assert_eq!(
            level.encode(Charset::from(encoding), text, replacement),
            expected,
            "{}",
            level.name()
        );
    }
}

/// Exact bytes for UTF-16 input; the `Jdk` ones are JDK 17's.
#[rstest]
#[case::utf8_lone(&[0x61, 0xD800, 0x62], UTF_8, JDK, b"a?b")]
#[case::utf8_lone_web(&[0x61, 0xD800, 0x62], UTF_8, WEB, b"a\xEF\xBF\xBDb")]
#[case::utf16be_lone(&[0x61, 0xD800, 0x62], UTF_16BE, JDK, b"\0a\xFF\xFD\0b")]
#[case::utf16le_lone_end(&[0x61, 0xDC00], UTF_16LE, JDK, b"a\0\xFD\xFF")]
#[case::win1252_lone(&[0xD83D], WINDOWS_1252, JDK, b"?")]
#[case::win1252_lone_web(&[0xD83D], WINDOWS_1252, WEB, b"&#65533;")]
#[case::sjis_lone(&[0x61, 0xD800, 0x62], SHIFT_JIS, JDK, b"a?b")]
#[case::gb18030_lone(&[0xD800], GB18030, JDK, b"?")]
#[case::gb18030_lone_web(&[0xD800], GB18030, WEB, b"\x84\x31\xA4\x37")]
// The JDK's ISO-2022-JP writes 21 29 as is for an unpaired surrogate, in any state.
#[case::iso2022jp_lone_ascii(&[0x61, 0xD800, 0x62], ISO_2022_JP, JDK, b"a!)b")]
#[case::iso2022jp_lone_jis(&[0x3042, 0xDC00, 0x61], ISO_2022_JP, JDK, b"\x1B$B$\"!)\x1B(Ba")]
#[case::iso2022jp_lone_roman(&[0xA5, 0xD800], ISO_2022_JP, JDK, b"\x1B(J\\!)\x1B(B")]
#[case::iso2022jp_lone_web(&[0x3042, 0xD800], ISO_2022_JP, WEB, b"\x1B$B$\"\x1B(B&#65533;")]
fn exact_bytes_utf16(
    #[case] units: &[u16],
    #[case] encoding: &'static Encoding,
    #[case] replacement: Replacement,
    #[case] expected: &[u8],
) {
    assert_eq!(
        Charset::from(encoding).encode_from_utf16(units, replacement),
        expected
    );
    assert_eq!(
        reference::encode_from_utf16(Charset::from(encoding), units, replacement),
        expected
    );
}

#[rstest]
#[case::win1252("a✓", WINDOWS_1252, '✓', 1)]
#[case::koi8r("abc\u{e9}", KOI8_R, 'é', 3)]
#[case::latin2_after_mapped("ąé€", ISO_8859_2, '€', 4)]
#[case::x_user_defined("\u{F780}\u{F800}", X_USER_DEFINED, '\u{F800}', 3)]
#[case::sjis("日本é", SHIFT_JIS, 'é', 6)]
#[case::euc_jp("x😀", EUC_JP, '😀', 1)]
#[case::euc_kr("ü", EUC_KR, 'ü', 0)]
#[case::big5("ab€x😀", BIG5, '😀', 6)]
#[case::gbk("中😀", GBK, '😀', 3)]
#[case::iso2022jp_after_kanji("漢é", ISO_2022_JP, 'é', 3)]
#[case::iso2022jp_escape("ab\u{1B}", ISO_2022_JP, '\u{1B}', 2)]
fn try_encode_reports_first_unmappable(
    #[case] text: &str,
    #[case] encoding: &'static Encoding,
    #[case] ch: char,
    #[case] offset: usize,
) {
    let err = Charset::from(encoding).try_encode(text).unwrap_err();
    assert_eq!(
        (err.ch(), err.offset(), err.encoding()),
        (ch, offset, Some(encoding))
    );
    assert!(err.to_string().contains(encoding.name()));
}

#[test]
fn try_encode_succeeds_with_the_same_bytes_when_everything_maps() {
    let texts = [
        "",
        "plain",
        "Grüße",
        "Привет",
        "日本語",
        "😀",
        "\u{FFFD}\u{FEFF}",
    ];
    for encoding in all_encodings() {
        for text in texts {
            let expected = Charset::from(encoding).encode(text, JDK);
            match Charset::from(encoding).try_encode(text) {
                Ok(bytes) => {
                    assert_eq!(bytes, expected, "{}", encoding.name());
                    assert_eq!(bytes.capacity(), bytes.len());
                    // Nothing was replaced: WHATWG writes the same.
                    assert_eq!(
                        bytes,
                        Charset::from(encoding).encode(text, WEB),
                        "{}",
                        encoding.name()
                    );
                }
                Err(err) => {
                    // Then the char really is unmappable: encoding_rs agrees.
                    let (_, _, had_unmappables) = encoding.encode(&text[err.offset()..]);
                    assert!(had_unmappables, "{} {text:?}", encoding.name());
                    let (_, _, prefix_unmappables) = encoding.encode(&text[..err.offset()]);
                    assert!(!prefix_unmappables, "{} {text:?}", encoding.name());
                }
            }
        }
    }
    for text in texts {
        for encoding in [UTF_8, UTF_16LE, UTF_16BE, REPLACEMENT, GB18030] {
            assert!(
                Charset::from(encoding).try_encode(text).is_ok(),
                "{}",
                encoding.name()
            );
        }
    }
}

#[test]
fn encode_string_reuses_the_buffer_when_bytes_are_identical() {
    for encoding in all_encodings() {
        let text = String::from("{\"id\":42,\"name\":\"plain ascii\"}");
        let ptr = text.as_ptr();
        let body = Charset::from(encoding).encode_string(text.clone(), JDK);
        assert_eq!(
            body,
            Charset::from(encoding).encode(&text, JDK),
            "{}",
            encoding.name()
        );
        assert_eq!(body.capacity(), body.len());
        let moved = Charset::from(encoding).encode_string(text, JDK);
        let ascii_compatible = encoding.is_ascii_compatible() || encoding == ISO_2022_JP;
        let utf8_out = encoding == UTF_8 || encoding == REPLACEMENT;
        assert_eq!(
            moved.as_ptr() == ptr,
            ascii_compatible || utf8_out,
            "{}",
            encoding.name()
        );
    }
    // UTF-8 keeps any text's buffer; with spare capacity it is shrunk to fit.
    let mut text = String::with_capacity(64);
    text.push_str("Grüße 😀");
    let body = Charset::from(UTF_8).encode_string(text, WEB);
    assert_eq!(body, "Grüße 😀".as_bytes());
    assert_eq!(body.capacity(), body.len());
    // Non-ASCII text to a legacy encoding is encoded.
    let body = Charset::from(WINDOWS_1252).encode_string(String::from("Grüße"), JDK);
    assert_eq!(body, b"Gr\xFC\xDFe");
    // ESC is not ASCII to ISO-2022-JP.
    let body = Charset::from(ISO_2022_JP).encode_string(String::from("a\u{1B}"), WEB);
    assert_eq!(body, b"a&#65533;");
}

#[test]
fn bom_variants_prepend_the_bom_in_one_exact_allocation() {
    // Under Miri, every fifth encoding (the first is UTF-8, then single-byte ones).
    for encoding in all_encodings()
        .into_iter()
        .step_by(wirebytes_testkit::scale_miri(1, 1, 15))
    {
        for replacement in [JDK, WEB] {
            let mut expected = Charset::from(encoding).bom().to_vec();
            expected.extend(Charset::from(encoding).encode("hé😀", replacement));
            let with = Charset::from(encoding).encode_with_bom("hé😀", replacement);
            assert_eq!(with, expected, "{}", encoding.name());
            assert_eq!(with.capacity(), with.len());
            let units: Vec<u16> = "hé😀".encode_utf16().collect();
            assert_eq!(
                Charset::from(encoding).encode_from_utf16_with_bom(&units, replacement),
                expected
            );
            for level in levels::all() {
                let name = level.name();
                let with = level.encode_with_bom(Charset::from(encoding), "hé😀", replacement);
                assert_eq!(with, expected, "{name} {}", encoding.name());
                assert_eq!(with.capacity(), with.len(), "{name}");
                let with = Charset::from(encoding).encode_from_utf16_with_bom(&units, replacement);
                assert_eq!(with, expected, "{name} {}", encoding.name());
            }
        }
    }
    assert_eq!(Charset::from(UTF_8).bom(), b"\xEF\xBB\xBF");
    assert_eq!(Charset::from(UTF_16BE).bom(), b"\xFE\xFF");
    assert_eq!(
        Charset::from(UTF_16BE).encode_with_bom("a", JDK),
        b"\xFE\xFF\0a"
    );
}

#[test]
fn every_whatwg_label_resolves_into_all() {
    // Every label of the WHATWG Encoding Standard (encodings.json), per encoding.
    let labels: &[&str] = &[
        "unicode-1-1-utf-8",
        "unicode11utf8",
        "unicode20utf8",
        "utf-8",
        "utf8",
        "x-unicode20utf8",
        "866",
        "cp866",
        "csibm866",
        "ibm866",
        "csisolatin2",
        "iso-8859-2",
        "iso-ir-101",
        "iso8859-2",
        "iso88592",
        "iso_8859-2",
        "iso_8859-2:1987",
        "l2",
        "latin2",
        "csisolatin3",
        "iso-8859-3",
        "iso-ir-109",
        "iso8859-3",
        "iso88593",
        "iso_8859-3",
        "iso_8859-3:1988",
        "l3",
        "latin3",
        "csisolatin4",
        "iso-8859-4",
        "iso-ir-110",
        "iso8859-4",
        "iso88594",
        "iso_8859-4",
        "iso_8859-4:1988",
        "l4",
        "latin4",
        "csisolatincyrillic",
        "cyrillic",
        "iso-8859-5",
        "iso-ir-144",
        "iso8859-5",
        "iso88595",
        "iso_8859-5",
        "iso_8859-5:1988",
        "arabic",
        "asmo-708",
        "csiso88596e",
        "csiso88596i",
        "csisolatinarabic",
        "ecma-114",
        "iso-8859-6",
        "iso-8859-6-e",
        "iso-8859-6-i",
        "iso-ir-127",
        "iso8859-6",
        "iso88596",
        "iso_8859-6",
        "iso_8859-6:1987",
        "csisolatingreek",
        "ecma-118",
        "elot_928",
        "greek",
        "greek8",
        "iso-8859-7",
        "iso-ir-126",
        "iso8859-7",
        "iso88597",
        "iso_8859-7",
        "iso_8859-7:1987",
        "sun_eu_greek",
        "csiso88598e",
        "csisolatinhebrew",
        "hebrew",
        "iso-8859-8",
        "iso-8859-8-e",
        "iso-ir-138",
        "iso8859-8",
        "iso88598",
        "iso_8859-8",
        "iso_8859-8:1988",
        "visual",
        "csiso88598i",
        "iso-8859-8-i",
        "logical",
        "csisolatin6",
        "iso-8859-10",
        "iso-ir-157",
        "iso8859-10",
        "iso885910",
        "l6",
        "latin6",
        "iso-8859-13",
        "iso8859-13",
        "iso885913",
        "iso-8859-14",
        "iso8859-14",
        "iso885914",
        "csisolatin9",
        "iso-8859-15",
        "iso8859-15",
        "iso885915",
        "iso_8859-15",
        "l9",
        "iso-8859-16",
        "cskoi8r",
        "koi",
        "koi8",
        "koi8-r",
        "koi8_r",
        "koi8-ru",
        "koi8-u",
        "csmacintosh",
        "mac",
        "macintosh",
        "x-mac-roman",
        "dos-874",
        "iso-8859-11",
        "iso8859-11",
        "iso885911",
        "tis-620",
        "windows-874",
        "cp1250",
        "windows-1250",
        "x-cp1250",
        "cp1251",
        "windows-1251",
        "x-cp1251",
        "ansi_x3.4-1968",
        "ascii",
        "cp1252",
        "cp819",
        "csisolatin1",
        "ibm819",
        "iso-8859-1",
        "iso-ir-100",
        "iso8859-1",
        "iso88591",
        "iso_8859-1",
        "iso_8859-1:1987",
        "l1",
        "latin1",
        "us-ascii",
        "windows-1252",
        "x-cp1252",
        "cp1253",
        "windows-1253",
        "x-cp1253",
        "cp1254",
        "csisolatin5",
        "iso-8859-9",
        "iso-ir-148",
        "iso8859-9",
        "iso88599",
        "iso_8859-9",
        "iso_8859-9:1989",
        "l5",
        "latin5",
        "windows-1254",
        "x-cp1254",
        "cp1255",
        "windows-1255",
        "x-cp1255",
        "cp1256",
        "windows-1256",
        "x-cp1256",
        "cp1257",
        "windows-1257",
        "x-cp1257",
        "cp1258",
        "windows-1258",
        "x-cp1258",
        "x-mac-cyrillic",
        "x-mac-ukrainian",
        "chinese",
        "csgb2312",
        "csiso58gb231280",
        "gb2312",
        "gb_2312",
        "gb_2312-80",
        "gbk",
        "iso-ir-58",
        "x-gbk",
        "gb18030",
        "big5",
        "big5-hkscs",
        "cn-big5",
        "csbig5",
        "x-x-big5",
        "cseucpkdfmtjapanese",
        "euc-jp",
        "x-euc-jp",
        "csiso2022jp",
        "iso-2022-jp",
        "csshiftjis",
        "ms932",
        "ms_kanji",
        "shift-jis",
        "shift_jis",
        "sjis",
        "windows-31j",
        "x-sjis",
        "cseuckr",
        "csksc56011987",
        "euc-kr",
        "iso-ir-149",
        "korean",
        "ks_c_5601-1987",
        "ks_c_5601-1989",
        "ksc5601",
        "ksc_5601",
        "windows-949",
        "csiso2022kr",
        "hz-gb-2312",
        "iso-2022-cn",
        "iso-2022-cn-ext",
        "iso-2022-kr",
        "replacement",
        "unicodefffe",
        "utf-16be",
        "csunicode",
        "iso-10646-ucs-2",
        "ucs-2",
        "unicode",
        "unicodefeff",
        "utf-16",
        "utf-16le",
        "x-user-defined",
    ];
    let mut seen = Vec::new();
    for label in labels {
        let encoding = Charset::for_label(label.as_bytes())
            .and_then(Charset::encoding)
            .unwrap_or_else(|| panic!("label {label:?} does not resolve"));
        assert!(
            all_encodings().contains(&encoding),
            "{label:?} -> {} not in the list",
            encoding.name()
        );
        // Upper case and surrounding whitespace resolve the same way.
        let loud = format!(" {}\t", label.to_ascii_uppercase());
        assert_eq!(Charset::for_label(loud.as_bytes()), Some(encoding.into()));
        if !seen.contains(&encoding) {
            seen.push(encoding);
        }
    }
    // Each encoding's own name is a label of it, and every encoding of the list is reachable.
    for encoding in all_encodings() {
        assert_eq!(
            Charset::for_label(encoding.name().as_bytes()),
            Some(encoding.into()),
            "{}",
            encoding.name()
        );
        assert!(seen.contains(&encoding), "no label for {}", encoding.name());
    }
    assert_eq!(seen.len(), all_encodings().len());
}

#[rstest]
#[case::iso_8859_1_means_windows_1252("text/plain; charset=ISO-8859-1", Some(WINDOWS_1252))]
#[case::us_ascii_means_windows_1252("text/plain; charset=us-ascii", Some(WINDOWS_1252))]
#[case::latin1_means_windows_1252("text/plain; charset=\"latin1\"", Some(WINDOWS_1252))]
#[case::quoted("application/json;charset=\"UTF-8\"", Some(UTF_8))]
#[case::other_params_first("text/html; q=0.9; charset=Shift_JIS", Some(SHIFT_JIS))]
#[case::spaces("text/html ;  charset = koi8-r ", Some(KOI8_R))]
#[case::utf16_means_le("text/plain; charset=utf-16", Some(UTF_16LE))]
#[case::unknown("text/plain; charset=klingon", None)]
#[case::absent("text/plain", None)]
#[case::iso_2022_kr_is_replacement("text/plain; charset=iso-2022-kr", Some(REPLACEMENT))]
fn content_type_lookup(#[case] value: &str, #[case] expected: Option<&'static Encoding>) {
    assert_eq!(
        Charset::for_content_type(value.as_bytes()),
        expected.map(Charset::from)
    );
}

#[test]
fn single_byte_tables_match_encoding_rs_for_every_bmp_char() {
    for encoding in all_encodings()
        .into_iter()
        .filter(|e| e.is_single_byte())
        .step_by(wirebytes_testkit::scale_miri(1, 1, 27))
    {
        let mut mapped = 0;
        for c in (0x80..=0xFFFFu32)
            .step_by(wirebytes_testkit::scale_miri(1, 1, 183))
            .filter_map(char::from_u32)
        {
            let mut buf = [0u8; 4];
            let text = c.encode_utf8(&mut buf);
            let (web, _, had_unmappables) = encoding.encode(text);
            match Charset::from(encoding).try_encode(text) {
                Ok(bytes) => {
                    assert!(!had_unmappables, "{} U+{:04X}", encoding.name(), c as u32);
                    assert_eq!(bytes, &web[..], "{} U+{:04X}", encoding.name(), c as u32);
                    mapped += 1;
                }
                Err(err) => {
                    assert!(had_unmappables, "{} U+{:04X}", encoding.name(), c as u32);
                    assert_eq!((err.ch(), err.offset()), (c, 0));
                }
            }
        }
        // Each maps at most the 128 upper bytes' chars (fewer where bytes are unassigned;
        // under Miri, of the chars sampled).
        assert!(
            (wirebytes_testkit::scale_miri(60, 60, 0)..=128).contains(&mapped),
            "{}: {mapped}",
            encoding.name()
        );
    }
}

#[test]
fn sizes_around_vector_widths_and_positions() {
    let specials = ["é", "Ж", "€", "あ", "😀", "\u{FFFD}", "\0", "\u{1B}"];
    for len in [0, 1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65]
        .into_iter()
        .step_by(wirebytes_testkit::scale_miri(1, 1, 12))
    {
        let ascii: String = (0..len)
            .map(|i| char::from(b'a' + (i % 26) as u8))
            .collect();
        check_str(&ascii);
        for special in specials {
            for at in [0, len / 2, len] {
                let mut text = ascii.clone();
                text.insert_str(at, special);
                check_str(&text);
            }
        }
    }
}

/// windows-1252's Latin-1 path, at every level: text long enough for several of its 64-byte
/// windows, with a char the windows do not take (a C1 control, a char just past U+00FF, a
/// longer one, NUL) at every offset across the first two windows, to both replacements.
#[test]
fn latin1_windows_at_every_level() {
    let latin1: String = "Fête à Zürich: naïve café, smørrebrød, ¡señor! Ærø ÿ ß £10 ½ "
        .chars()
        .cycle()
        .take(200)
        .collect();
    let specials = [
        "\u{80}", "\u{81}", "\u{90}", "\u{9F}", "\u{A0}", "\u{FF}", "\u{100}", "€", "😀", "\0",
    ];
    for special in specials {
        for at in (0..=140).filter(|&at| latin1.is_char_boundary(at)) {
            let mut text = latin1.clone();
            text.insert_str(at, special);
            for replacement in [JDK, WEB] {
                let expected = reference::encode(Charset::from(WINDOWS_1252), &text, replacement);
                for level in levels::all() {
                    assert_eq!(
                        level.encode(Charset::from(WINDOWS_1252), &text, replacement),
                        expected,
                        "{} {replacement:?} {special:?} at {at}",
                        level.name()
                    );
                }
            }
        }
    }
}

/// The JDK-only charsets: bytes from `String.getBytes` of a JDK 17.
#[rstest]
#[case::latin1(Charset::ISO_8859_1, &[0xD83D, 0xDE00, 0xE9, 0x20AC, 0xD800], b"?\xE9??")]
#[case::latin1_c1_and_ff(Charset::ISO_8859_1, &[0x85, 0xFF, 0x100], b"\x85\xFF?")]
#[case::ascii(Charset::US_ASCII, &[0xD83D, 0xDE00, 0xE9, 0x20AC, 0xDC00, 0x7F], b"????\x7F")]
#[case::utf16_lone(Charset::UTF_16, &[0x61, 0xD800], b"\xFE\xFF\0a\xFF\xFD")]
#[case::utf16_pair(Charset::UTF_16, &[0xD83D, 0xDE00], b"\xFE\xFF\xD8\x3D\xDE\x00")]
#[case::utf16_empty(Charset::UTF_16, &[], b"")]
#[case::utf32_lone(Charset::UTF_32, &[0x61, 0xD800], b"\0\0\0a\0\0\xFF\xFD")]
#[case::utf32_pair(Charset::UTF_32, &[0xD83D, 0xDE00], b"\0\x01\xF6\0")]
#[case::utf32be(Charset::UTF_32BE, &[0x61], b"\0\0\0a")]
#[case::utf32le_lone(Charset::UTF_32LE, &[0x61, 0xD800], b"a\0\0\0\xFD\xFF\0\0")]
#[case::utf32le_pair(Charset::UTF_32LE, &[0xD83D, 0xDE00], b"\0\xF6\x01\0")]
#[case::utf32_empty(Charset::UTF_32, &[], b"")]
fn jdk_only_exact_bytes(#[case] charset: Charset, #[case] units: &[u16], #[case] expected: &[u8]) {
    assert_eq!(charset.encode_from_utf16(units, JDK), expected);
    assert_eq!(reference::encode_from_utf16(charset, units, JDK), expected);
    if let Ok(text) = String::from_utf16(units) {
        assert_eq!(charset.encode(&text, JDK), expected);
        assert_eq!(charset.encoded_len(&text, JDK), expected.len());
    }
}

/// The JDK's multi-byte charsets: bytes from `String.getBytes` of a JDK 17 (17.0.15, whose
/// GB18030 is the 2022 mapping; `gb18030-2000` the 2005 one).
#[cfg(feature = "jdk-multi-byte")]
#[rstest]
#[case::big5("Big5", "a\u{430}\u{30A2}\u{1F600}", b"a\xC7\xC8\xC6\xF9?")]
#[case::euc_jp("EUC-JP", "\u{E9}\u{3042}\u{FF71}", b"\x8F\xAB\xB1\xA4\xA2\x8E\xB1")]
#[case::shift_jis("Shift_JIS", "\u{2014}\u{A5}\u{203E}", b"\x81\x5C\x5C\x7E")]
#[case::gbk("GBK", "\u{20AC}", b"\xA2\xE3")]
#[case::gb18030(
    "GB18030",
    "\u{E78D}\u{9FB4}\u{FE10}\u{E9}",
    b"\x84\x31\x82\x36\xFE\x59\xA6\xD9\xA8\xA6"
)]
#[case::gb18030_2000(
    "gb18030-2000",
    "\u{E78D}\u{9FB4}\u{FE10}",
    b"\xA6\xD9\x82\x35\x90\x37\x84\x31\x82\x36"
)]
#[case::sjis_0213_pairs(
    "x-SJIS_0213",
    "\u{304B}\u{309A}\u{304B}\u{2E9}\u{2E5}\u{2E9}",
    b"\x82\xF5\x82\xA9\x86\x85\x86\x84"
)]
#[case::ibm834("x-IBM834", "a\u{AC00}", b"\xFE\xFE\x88\x61")]
#[case::jis0208("x-JIS0208", "a\u{3042}", b"\x21\x29\x24\x22")]
#[case::euc_kr("EUC-KR", "\u{AC02}", b"?")]
#[case::windows_949("x-windows-949", "\u{AC02}", b"\x81\x41")]
#[case::iso_2022_jp(
    "ISO-2022-JP",
    "a\u{3042}\u{A5}\u{FF71}\u{4E02}\u{E9}z",
    b"a\x1B$B\x24\x22\x1B(J\x5C\x1B(I\x31\x1B$B\x21\x29\x21\x29\x1B(Bz"
)]
#[case::iso_2022_jp_unmappable_first("ISO-2022-JP", "\u{1F600}", b"\x1B$B\x21\x29\x1B(B")]
#[case::iso_2022_jp_2("ISO-2022-JP-2", "\u{E9}a", b"\x1B$(D\x2B\x31\x1B(Ba")]
#[case::windows_50220("x-windows-50220", "\u{FF71}\u{FF72}", b"\x1B$B\x25\x22\x25\x24\x1B(B")]
#[case::windows_50221("x-windows-50221", "\u{2460}", b"\x1B$B\x2D\x21\x1B(B")]
#[case::iso_2022_kr(
    "ISO-2022-KR",
    "\u{AC00}\n\u{AC00}\r\u{AC00}\u{E9}",
    b"\x1B$)C\x0E\x30\x21\x0F\n\x1B$)C\x0E\x30\x21\x0F\r\x0E\x30\x21?"
)]
#[case::iso_2022_cn_cns(
    "x-ISO-2022-CN-CNS",
    "\u{4E2D}\u{4E42}\u{4E2D}\u{3421}",
    b"\x1B$)G\x0E\x44\x63\x1B$*H\x1BN\x21\x21\x44\x63\x1B$+I\x1BO\x34\x3B"
)]
#[case::iso_2022_cn_gb(
    "x-ISO-2022-CN-GB",
    "\u{4E2D}\n\u{4E2D}",
    b"\x1B$)A\x0E\x56\x50\x0F\n\x1B$)A\x0E\x56\x50"
)]
#[case::ibm930(
    "x-IBM930",
    "a\u{3042}b\u{3042}\u{E9}",
    b"\x62\x0E\x44\x81\x0F\x63\x0E\x44\x81\x6F\x0F"
)]
#[case::ibm933("x-IBM933", "\u{AC00}\u{FF71}", b"\x0E\x88\x61\x6F\x0F")]
fn jdk_multi_byte_exact_bytes(#[case] name: &str, #[case] text: &str, #[case] expected: &[u8]) {
    let charset = Charset::for_java_name(name).unwrap();
    assert_eq!(charset.encode(text, JDK), expected, "{name}");
    assert_eq!(reference::encode(charset, text, JDK), expected, "{name}");
    assert_eq!(charset.encoded_len(text, JDK), expected.len(), "{name}");
    let units: Vec<u16> = text.encode_utf16().collect();
    assert_eq!(charset.encode_from_utf16(&units, JDK), expected, "{name}");
}

/// The JDK's multi-byte encoders say when they wrote a replacement, streaming into a slice
/// or a vector, from `&str` or UTF-16, and only then.
#[cfg(feature = "jdk-multi-byte")]
#[test]
fn jdk_multi_byte_encoders_report_replacements() {
    for name in [
        "x-IBM930",
        "ISO-2022-KR",
        "x-EUC-TW",
        "Big5-HKSCS",
        "x-SJIS_0213",
    ] {
        let charset = Charset::for_java_name(name).unwrap();
        for (text, replaced) in [("a\u{10FFFD}b", true), ("ab", false)] {
            let want = charset.encode(text, JDK);
            let mut dst = [0u8; 64];
            let mut encoder = charset.new_encoder(JDK);
            let (result, read, written, got) = encoder.encode_to_slice(text, &mut dst, true);
            assert_eq!(
                (result, read),
                (CoderResult::InputEmpty, text.len()),
                "{name}"
            );
            assert_eq!(
                (&dst[..written], got),
                (&want[..], replaced),
                "{name} {text:?}"
            );
            let units: Vec<u16> = text.encode_utf16().collect();
            let mut encoder = charset.new_encoder(JDK);
            let (_, _, written, got) = encoder.encode_from_utf16_to_slice(&units, &mut dst, true);
            assert_eq!(
                (&dst[..written], got),
                (&want[..], replaced),
                "{name} {text:?}"
            );
        }
    }
}

/// A lone surrogate is the replacement; a pair's base before it is written alone.
#[cfg(feature = "jdk-multi-byte")]
#[test]
fn jdk_multi_byte_lone_surrogates() {
    let sjis_0213 = Charset::for_java_name("x-SJIS_0213").unwrap();
    assert_eq!(
        sjis_0213.encode_from_utf16(&[0x304B, 0xD800], JDK),
        b"\x82\xA9?"
    );
    let gb18030 = Charset::for_java_name("GB18030").unwrap();
    assert_eq!(gb18030.encode_from_utf16(&[0xD800, 0x61], JDK), b"?a");
    // The JDK's stateful encoders switch sets for an unmappable char, not for a lone
    // surrogate: its replacement goes where the output is.
    let jis = Charset::for_java_name("ISO-2022-JP").unwrap();
    assert_eq!(
        jis.encode_from_utf16(&[0x61, 0xD800, 0x62], JDK),
        b"a\x21\x29b"
    );
    assert_eq!(
        jis.encode_from_utf16(&[0x3042, 0xD800], JDK),
        b"\x1B$B\x24\x22\x21\x29\x1B(B"
    );
    let ibm930 = Charset::for_java_name("x-IBM930").unwrap();
    assert_eq!(
        ibm930.encode_from_utf16(&[0x3042, 0xD800], JDK),
        b"\x0E\x44\x81\x6F\x0F"
    );
    // GB18030 maps U+FFFD, what WHATWG's rule makes of a lone surrogate.
    assert_eq!(
        gb18030.encode_from_utf16(&[0xDC00], WEB),
        b"\x84\x31\xA4\x37"
    );
}

/// The two GB18030 mappings are two values with one name.
#[cfg(feature = "jdk-multi-byte")]
#[test]
fn gb18030_2005_is_reachable() {
    let new = Charset::for_java_name("GB18030").unwrap();
    let old = Charset::for_java_name("gb18030-2000").unwrap();
    assert_ne!(new, old);
    assert_eq!(old.name(), "GB18030");
    assert_eq!(Charset::for_java_name("gb18030-2022"), Some(new));
    assert!(Charset::java_charsets().any(|c| c == new));
    assert!(!Charset::java_charsets().any(|c| c == old));
}

#[rstest]
#[case::latin1("latin1", Some("ISO-8859-1"))]
#[case::iso8859_1("ISO8859_1", Some("ISO-8859-1"))]
#[case::cp819("CP819", Some("ISO-8859-1"))]
#[case::ascii("ascii", Some("US-ASCII"))]
#[case::unicode_big("UnicodeBig", Some("UTF-16"))]
#[case::utf_32le("x-utf-32le", Some("UTF-32LE"))]
#[case::windows_1252("Cp1252", Some("windows-1252"))]
#[case::ebcdic("ebcdic-cp-us", Some("IBM037"))]
#[case::dos("cp437", Some("IBM437"))]
#[case::cesu8("cesu8", Some("CESU-8"))]
#[case::utf_16le_bom("UnicodeLittle", Some("x-UTF-16LE-BOM"))]
#[case::sjis("SJIS", Some("Shift_JIS"))]
#[case::big5("Big5", Some("Big5"))]
#[case::ms932("MS932", Some("windows-31j"))]
#[case::gb18030_2022("gb18030-2022", Some("GB18030"))]
#[case::ibm_dbcs("Cp943C", Some("x-IBM943C"))]
// The stateful charsets (ISO-2022, EBCDIC with shift-out) are not written: no stand-in.
#[case::iso_2022_jp("ISO-2022-JP", Some("ISO-2022-JP"))]
#[case::ibm939("Cp939", Some("x-IBM939"))]
#[case::unknown("no-such-charset", None)]
fn java_names(#[case] name: &str, #[case] canonical: Option<&str>) {
    let charset = Charset::for_java_name(name);
    // Without the feature's tables the JDK's multi-byte charsets are not there, and never
    // stood in for by WHATWG's.
    let multi_byte = [
        "Shift_JIS",
        "Big5",
        "windows-31j",
        "GB18030",
        "x-IBM943C",
        "ISO-2022-JP",
        "x-IBM939",
    ];
    let canonical =
        canonical.filter(|c| cfg!(feature = "jdk-multi-byte") || !multi_byte.contains(c));
    assert_eq!(charset.map(Charset::name), canonical, "{name}");
    if let Some(charset) = charset {
        assert_eq!(
            Charset::for_java_name(charset.name()),
            Some(charset),
            "{name}"
        );
        assert!(charset.is_java(), "{name}");
        assert!(Charset::java_charsets().any(|c| c == charset), "{name}");
    }
}

/// `is_java`: every charset of the JDK's list, and of the WHATWG encodings only the three
/// that are one value with the JDK's (UTF-8 and UTF-16BE/LE).
#[test]
fn is_java_tells_the_jdk_charsets_apart() {
    for charset in Charset::java_charsets() {
        assert!(charset.is_java(), "{charset}");
    }
    for charset in Charset::whatwg_charsets() {
        let shared = [Charset::UTF_8, Charset::UTF_16BE, Charset::UTF_16LE].contains(&charset);
        assert_eq!(charset.is_java(), shared, "{charset}");
    }
}

/// The JDK's charsets and their WHATWG twins are different values with different bytes where
/// the tables differ; UTF-8 and UTF-16BE/LE are one value.
#[test]
fn the_two_families_are_never_mixed_up() {
    let jdk = Charset::for_java_name("windows-1252").unwrap();
    let web = Charset::from(WINDOWS_1252);
    assert_ne!(jdk, web);
    assert_eq!(jdk.encode("\u{81}", JDK), b"?");
    assert_eq!(web.encode("\u{81}", JDK), b"\x81");
    assert_eq!(jdk.encoding(), None);
    assert!(!web.is_java());
    for name in ["UTF-8", "UTF-16BE", "UTF-16LE"] {
        let charset = Charset::for_java_name(name).unwrap();
        assert_eq!(Some(charset), Charset::for_label(name.as_bytes()), "{name}");
    }
}

/// The JDK's charsets: what `String.getBytes` of a JDK 17 wrote for the same UTF-16.
#[rstest]
#[case::ebcdic(
    "IBM037",
    &[0x48, 0x69, 0x21, 0x20, 0xE9, 0x20AC],
    b"\xC8\x89\x5A\x40\x51\x3F"
)]
#[case::ebcdic_nel("IBM1047", &[0x5B, 0x61, 0x5D, 0x85], b"\xAD\x81\xBD\x25")]
#[case::ebcdic_kana("IBM290", &[0x61], b"\x62")]
#[case::dos("IBM437", &[0xE9, 0x2554], b"\x82\xC9")]
#[case::mac("x-MacRoman", &[0xE9, 0x20AC, 0xA0], b"\x8E\xDB\xCA")]
#[case::cesu8(
    "CESU-8",
    &[0x61, 0, 0xD83D, 0xDE00],
    b"\x61\x00\xED\xA0\xBD\xED\xB8\x80"
)]
#[case::cesu8_lone("CESU-8", &[0x78, 0xD800, 0x79], b"\x78\x3F\x79")]
#[case::utf16le_bom("x-UTF-16LE-BOM", &[0x68, 0x69], b"\xFF\xFE\x68\x00\x69\x00")]
#[case::utf16le_bom_empty("x-UTF-16LE-BOM", &[], b"")]
#[case::utf32be_bom("X-UTF-32BE-BOM", &[0x61], b"\x00\x00\xFE\xFF\x00\x00\x00\x61")]
#[case::utf32le_bom_lone(
    "X-UTF-32LE-BOM",
    &[0x61, 0xDC00],
    b"\xFF\xFE\x00\x00\x61\x00\x00\x00\xFD\xFF\x00\x00"
)]
#[case::windows_1252_c1("windows-1252", &[0x81, 0x20AC], b"\x3F\x80")]
#[case::koi8_u("KOI8-U", &[0x40E, 0x45E], b"\x3F\x3F")]
#[case::ibm864_percent("IBM864", &[0x61, 0x25, 0xE9], b"\x61\x3F\x3F")]
#[case::jis_x0201("JIS_X0201", &[0x5C, 0x7E, 0xA5], b"\x5C\x7E\x5C")]
#[case::ibm1129_dong("x-IBM1129", &[0x20AB], b"\xFE")]
fn jdk_exact_bytes(#[case] name: &str, #[case] units: &[u16], #[case] expected: &[u8]) {
    let charset = Charset::for_java_name(name).unwrap();
    assert_eq!(charset.encode_from_utf16(units, JDK), expected, "{name}");
    assert_eq!(
        reference::encode_from_utf16(charset, units, JDK),
        expected,
        "{name}"
    );
    if let Ok(text) = String::from_utf16(units) {
        assert_eq!(charset.encode(&text, JDK), expected, "{name}");
        assert_eq!(charset.encoded_len(&text, JDK), expected.len(), "{name}");
        for level in levels::all() {
            assert_eq!(
                level.encode(charset, &text, JDK),
                expected,
                "{name} {}",
                level.name()
            );
        }
    }
}

#[test]
fn try_encode_jdk_only() {
    let err = Charset::ISO_8859_1.try_encode("abc€").unwrap_err();
    assert_eq!(
        (err.ch(), err.offset(), err.charset()),
        ('€', 3, Charset::ISO_8859_1)
    );
    assert_eq!(err.encoding(), None);
    assert_eq!(
        err.to_string(),
        "U+20AC at byte 3 cannot be encoded in ISO-8859-1"
    );
    assert_eq!(Charset::ISO_8859_1.try_encode("ÿ").unwrap(), b"\xFF");
    assert_eq!(Charset::US_ASCII.try_encode("ÿ").unwrap_err().offset(), 0);
    for charset in [
        Charset::UTF_16,
        Charset::UTF_32,
        Charset::UTF_32BE,
        Charset::UTF_32LE,
    ] {
        assert!(charset.try_encode("a😀\u{FFFF}").is_ok(), "{charset}");
        let err = charset.try_encode_from_utf16(&[0x61, 0xDFFF]).unwrap_err();
        assert_eq!((err.offset(), err.code_point()), (1, 0xDFFF), "{charset}");
    }
}

/// Every output buffer gets one reservation: appending to a `Vec` with room to spare does not
/// reallocate, and a fresh `Vec` is exact-size.
#[test]
fn encode_to_vec_appends_without_reallocating() {
    let text = "Grüße, 日本語, Привет 😀 ".repeat(40);
    for charset in common::charsets() {
        for replacement in [JDK, WEB] {
            let len = charset.encoded_len(&text, replacement);
            let mut dst = Vec::with_capacity(3 + len);
            dst.extend_from_slice(b"abc");
            let ptr = dst.as_ptr();
            charset.encode_to_vec(&text, replacement, &mut dst);
            assert_eq!(dst.len(), 3 + len, "{charset}");
            assert_eq!(dst.as_ptr(), ptr, "{charset} {replacement:?} reallocated");
            assert_eq!(&dst[3..], &charset.encode(&text, replacement)[..]);
        }
    }
}

#[cfg(feature = "bytes")]
#[test]
#[should_panic(expected = "do not fit")]
fn encode_to_buf_refuses_a_short_fixed_buffer() {
    let mut storage = [0u8; 3];
    let mut dst = &mut storage[..];
    Charset::US_ASCII.encode_to_buf("abcd", JDK, &mut dst);
}

#[cfg(feature = "bytes")]
#[test]
#[should_panic(expected = "do not fit")]
fn encode_from_utf16_to_buf_refuses_a_short_fixed_buffer() {
    let mut storage = [0u8; 3];
    let mut dst = &mut storage[..];
    Charset::US_ASCII.encode_from_utf16_to_buf(&[0x61; 4], JDK, &mut dst);
}

/// Every char of U+0080..U+00FF inside Latin-1 text long enough for the Latin-1 windows, at
/// several offsets, through every single-byte charset: a char the charset maps elsewhere or
/// not at all (ISO-8859-15's ¤, windows-1254's Ð) must not come out as its own number.
#[test]
fn latin1_windows_respect_each_single_byte_table() {
    let singles = all_encodings()
        .into_iter()
        .filter(|e| e.is_single_byte())
        .map(Charset::from)
        .chain([Charset::ISO_8859_1, Charset::US_ASCII]);
    for charset in singles.step_by(wirebytes_testkit::scale_miri(1, 1, 21)) {
        for c in ('\u{80}'..='\u{FF}').step_by(wirebytes_testkit::scale_miri(1, 1, 51)) {
            for at in [0, 1, 31, 63, 64, 100] {
                let mut text = "äbcdéfghïj".repeat(16);
                let at = (0..=at)
                    .rev()
                    .find(|&i| text.is_char_boundary(i))
                    .unwrap_or(0);
                text.insert(at, c);
                for replacement in [JDK, WEB] {
                    let expected = reference::encode(charset, &text, replacement);
                    for level in levels::all() {
                        assert_eq!(
                            level.encode(charset, &text, replacement),
                            expected,
                            "{} {charset} U+{:04X} at {at}",
                            level.name(),
                            u32::from(c)
                        );
                    }
                }
            }
        }
    }
}

/// Runs of 3-byte chars, which the CJK encodings take eight at a time with the SSSE3 kernel,
/// with one other char at every place: a half-width katakana (one byte in Shift_JIS, two in
/// EUC-JP), U+203E and U+00A5 (ISO-2022-JP's Roman set), an unmappable char, ASCII and a
/// 2-byte char. Every level, both replacements, against the reference; strict, the same
/// offset at every level.
#[rstest]
fn cjk_runs_with_one_other_char_anywhere(
    #[values(SHIFT_JIS, EUC_JP, ISO_2022_JP, GBK, GB18030, BIG5, EUC_KR)]
    encoding: &'static Encoding,
) {
    const RUN: [char; 6] = ['日', '本', '語', 'の', '文', '字'];
    const OTHERS: [char; 8] = ['ｱ', 'ﾟ', '\u{203E}', '¥', '\u{2603}', 'a', 'é', '한'];
    let every = wirebytes_testkit::scale_miri(1, 1, 7);
    for len in (0..=40).step_by(every) {
        let run: Vec<char> = (0..len).map(|k| RUN[k % RUN.len()]).collect();
        for at in (0..=len).step_by(every) {
            for other in OTHERS {
                let mut chars = run.clone();
                chars.insert(at, other);
                // Half-width katakana in runs of their own, too.
                let text: String = chars.iter().collect::<String>() + "ｶﾀｶﾅｶﾀｶﾅｶﾀｶﾅ日本";
                for replacement in [JDK, WEB] {
                    let expected = reference::encode(Charset::from(encoding), &text, replacement);
                    for level in levels::all() {
                        assert_eq!(
                            level.encode(Charset::from(encoding), &text, replacement),
                            expected,
                            "{} {} {replacement:?} {other:?} at {at} of {len}",
                            level.name(),
                            encoding.name()
                        );
                    }
                }
                // Strict: every level stops at the same char.
                let offsets: Vec<_> = levels::all()
                    .map(|level| {
                        level
                            .try_encode(Charset::from(encoding), &text)
                            .map_err(|e| e.offset())
                    })
                    .collect();
                assert!(offsets.windows(2).all(|w| w[0] == w[1]), "{offsets:?}");
            }
        }
    }
}

/// Texts made of the most expensive chars for some charset, repeated (a 2-byte char whose
/// `&#N;` is 7 bytes, ESC in ISO-2022-JP, state switches on every char, ...), as `&str` and
/// as UTF-16 with unpaired surrogates: no charset writes more than `max_encoded_len` says,
/// and a fresh `Encoder` takes each whole in one slice of `max_buffer_length` bytes.
#[test]
fn the_worst_case_bounds_hold() {
    let pieces = [
        "a",
        "\u{80}",
        "\u{7FF}",
        "\u{FFFF}",
        "\u{10FFFF}",
        "\u{1B}",
        "α\u{1B}",
        "αé",
        "α\u{7FF}",
        "¥a",
        "αa",
        "ｱα",
        "\u{FFFD}",
        "a\u{1B}",
    ];
    let lone: [&[u16]; 3] = [&[0xD800], &[0x3042, 0xDC00], &[0x61, 0xD800, 0x1B]];
    for charset in common::charsets() {
        let name = charset.name();
        for replacement in common::REPLACEMENTS {
            for reps in [1, 2, 7] {
                let texts = pieces.iter().map(|piece| piece.repeat(reps));
                for text in texts {
                    let len = charset.encoded_len(&text, replacement);
                    let max = charset.max_encoded_len(text.len(), replacement);
                    assert!(len <= max, "{name} {replacement:?} {text:?}: {len} > {max}");
                    let units: Vec<u16> = text.encode_utf16().collect();
                    let len = charset.encoded_len_from_utf16(&units, replacement);
                    let max = charset.max_encoded_len_from_utf16(units.len(), replacement);
                    assert!(
                        len <= max,
                        "{name} {replacement:?} {units:04x?}: {len} > {max}"
                    );
                    let mut encoder = charset.new_encoder(replacement);
                    let mut dst = vec![0u8; encoder.max_buffer_length(text.len()).unwrap()];
                    let (result, read, _, _) = encoder.encode_to_slice(&text, &mut dst, true);
                    assert_eq!(
                        (result, read),
                        (CoderResult::InputEmpty, text.len()),
                        "{name}"
                    );
                }
                for piece in lone {
                    let units = piece.repeat(reps);
                    let len = charset.encoded_len_from_utf16(&units, replacement);
                    let max = charset.max_encoded_len_from_utf16(units.len(), replacement);
                    assert!(
                        len <= max,
                        "{name} {replacement:?} {units:04x?}: {len} > {max}"
                    );
                    let mut encoder = charset.new_encoder(replacement);
                    let room = encoder.max_buffer_length_from_utf16(units.len()).unwrap();
                    let mut dst = vec![0u8; room];
                    let (result, read, _, _) =
                        encoder.encode_from_utf16_to_slice(&units, &mut dst, true);
                    assert_eq!(
                        (result, read),
                        (CoderResult::InputEmpty, units.len()),
                        "{name}"
                    );
                }
            }
        }
    }
}

/// Every charset of the JDK's, every BMP char in one string after each of the edge texts,
/// as `&str` at every level and as UTF-16 with lone surrogates: the same bytes as the
/// reference, which looks each char up in the JDK's data directly.
#[test]
fn the_jdk_charsets_agree_with_the_reference() {
    let step = wirebytes_testkit::scale_miri(1, 1, 997);
    let bmp: String = (0..=0xFFFFu32)
        .step_by(step)
        .filter_map(char::from_u32)
        .collect();
    let texts = [
        bmp.clone(),
        format!("abc{bmp}\u{1F600}x"),
        "Hello, World! 0123456789 ~\\{}[]".repeat(5),
    ];
    let mut units: Vec<u16> = bmp.encode_utf16().collect();
    units.extend_from_slice(&[0xD800, 0x61, 0xDC00, 0xD83D, 0xDE00, 0xDBFF]);
    let charsets = Charset::java_charsets()
        .filter(|c| c.encoding().is_none())
        .step_by(wirebytes_testkit::scale_miri(1, 1, 40));
    for charset in charsets {
        for replacement in [JDK, WEB] {
            for text in &texts {
                let expected = reference::encode(charset, text, replacement);
                for level in levels::all() {
                    assert_eq!(
                        level.encode(charset, text, replacement),
                        expected,
                        "{charset} {replacement:?} {}",
                        level.name()
                    );
                }
            }
            assert_eq!(
                charset.encode_from_utf16(&units, replacement),
                reference::encode_from_utf16(charset, &units, replacement),
                "{charset} {replacement:?}"
            );
        }
    }
}

/// The stateful charsets on random text that switches sets many times (ASCII, line ends,
/// JIS X 0201 and 0208 and 0212, KS X 1001, GB 2312, CNS 11643 planes 1-3, chars none of them
/// writes, lone surrogates): every level and the `Encoder` cut at every position = the
/// reference.
#[cfg(feature = "jdk-multi-byte")]
#[test]
fn stateful_charsets_switch_sets_as_the_reference() {
    const POOL: [u16; 20] = [
        0x61, 0x0A, 0x0D, 0xA5, 0x203E, 0xFF71, 0x3042, 0x65E5, 0xE9, 0x4E02, 0x2460, 0xAC00,
        0x4E2D, 0x4E42, 0x3421, 0x3000, 0x20AC, 0xD83D, 0xDE00, 0xD800,
    ];
    let names = [
        "ISO-2022-JP",
        "ISO-2022-JP-2",
        "x-windows-50220",
        "x-windows-50221",
        "x-windows-iso2022jp",
        "ISO-2022-KR",
        "x-ISO-2022-CN-GB",
        "x-ISO-2022-CN-CNS",
        "x-IBM930",
        "x-IBM939",
        "x-IBM1364",
    ];
    let mut rng = wirebytes_testkit::Rng::new(0x0057_47E1);
    let texts = wirebytes_testkit::scale(200, 20);
    for name in names {
        let charset = Charset::for_java_name(name).unwrap();
        for replacement in [JDK, WEB] {
            for _ in 0..texts {
                let len = rng.below(14);
                let units: Vec<u16> = (0..len).map(|_| *rng.pick(&POOL)).collect();
                let text = String::from_utf16_lossy(&units);
                let expected = reference::encode(charset, &text, replacement);
                let expected_units = reference::encode_from_utf16(charset, &units, replacement);
                for level in levels::all() {
                    assert_eq!(
                        level.encode(charset, &text, replacement),
                        expected,
                        "{name} {text:?}"
                    );
                    assert_eq!(
                        level.encode_from_utf16(charset, &units, replacement),
                        expected_units,
                        "{name} {units:04X?}"
                    );
                }
                assert!(expected.len() <= charset.max_encoded_len(text.len(), replacement));
                for at in (0..=text.len()).filter(|&i| text.is_char_boundary(i)) {
                    let mut encoder = charset.new_encoder(replacement);
                    let mut out = Vec::new();
                    encoder.encode_to_vec(&text[..at], false, &mut out);
                    encoder.encode_to_vec(&text[at..], true, &mut out);
                    assert_eq!(out, expected, "{name} {text:?} cut at {at}");
                }
                for at in 0..=units.len() {
                    let mut encoder = charset.new_encoder(replacement);
                    let mut out = Vec::new();
                    encoder.encode_from_utf16_to_vec(&units[..at], false, &mut out);
                    encoder.encode_from_utf16_to_vec(&units[at..], true, &mut out);
                    assert_eq!(out, expected_units, "{name} {units:04X?} cut at {at}");
                }
            }
        }
    }
}

/// One 2-byte or 4-byte char anywhere in the first KiB of 1100 bytes of ASCII: the AVX2
/// all-ASCII check ORs each KiB into 32 lanes, and the char's bytes land in two or four of
/// them; their high bits must not cancel out. Never taken for ASCII, at every level.
#[test]
fn one_char_in_a_kib_of_ascii_is_never_taken_for_ascii() {
    let charsets = [
        Charset::from(WINDOWS_1252),
        Charset::for_java_name("windows-1252").expect("a JDK charset"),
    ];
    for c in ["\u{E9}", "\u{1F600}"] {
        for at in 0..1024 {
            let text = format!("{}{c}{}", "a".repeat(at), "a".repeat(1100 - at));
            for charset in charsets {
                let slow = reference::encode(charset, &text, JDK);
                for level in levels::all() {
                    assert_eq!(
                        level.encode(charset, &text, JDK),
                        slow,
                        "{} {charset} at {at}",
                        level.name()
                    );
                }
            }
        }
    }
}

/// Bytes an `Encoder` holds back from a slice that was full come first in the next call,
/// whichever form it is: after a slice too short for the first char, `encode_to_vec` (and
/// its UTF-16 form) appends the held bytes, then the rest, and the whole is
/// [`Charset::encode`]'s.
#[test]
fn held_bytes_come_out_through_the_vec_forms() {
    let text = "日é😀a€";
    let units: Vec<u16> = text.encode_utf16().collect();
    for charset in common::charsets() {
        let name = charset.name();
        for replacement in common::REPLACEMENTS {
            let want = charset.encode(text, replacement);
            for room in 1..4 {
                let mut dst = vec![0u8; room];
                let mut encoder = charset.new_encoder(replacement);
                let (_, read, written, _) = encoder.encode_to_slice(text, &mut dst, false);
                let mut out = dst[..written].to_vec();
                encoder.encode_to_vec(&text[read..], true, &mut out);
                assert_eq!(out, *want, "{name} {replacement:?} str, {room} bytes first");

                let mut encoder = charset.new_encoder(replacement);
                let (_, read, written, _) =
                    encoder.encode_from_utf16_to_slice(&units, &mut dst, false);
                let mut out = dst[..written].to_vec();
                encoder.encode_from_utf16_to_vec(&units[read..], true, &mut out);
                assert_eq!(
                    out, *want,
                    "{name} {replacement:?} UTF-16, {room} bytes first"
                );
            }
        }
    }
}

/// `max_encoded_len` is the bound its docs give, not just some bound: per byte of UTF-8,
/// 1 for UTF-8 and for the single-byte charsets under the JDK's replacement (ASCII its own
/// byte or not), 2 for UTF-16 (plus the JDK's BOM), 4 for UTF-32; per UTF-16 unit, 3 for
/// UTF-8 and 1 for the single-byte charsets.
#[test]
fn the_worst_case_bounds_are_the_documented_ones() {
    let single_byte = |c: Charset| {
        c.encoding().map_or_else(
            || common::JDK_SINGLE_BYTE.contains(&c.name()),
            Encoding::is_single_byte,
        )
    };
    let mut singles = 0;
    for charset in common::charsets().into_iter().filter(|&c| single_byte(c)) {
        for len in [0, 1, 7, 1000] {
            assert_eq!(charset.max_encoded_len(len, JDK), len, "{}", charset.name());
            let units = charset.max_encoded_len_from_utf16(len, JDK);
            assert_eq!(units, len, "{}", charset.name());
        }
        singles += 1;
    }
    assert!(
        cfg!(miri) || singles == 36,
        "{singles} single-byte charsets"
    );
    for len in [0, 1, 7, 1000] {
        assert_eq!(Charset::UTF_8.max_encoded_len(len, JDK), len);
        assert_eq!(Charset::UTF_8.max_encoded_len_from_utf16(len, JDK), 3 * len);
        assert_eq!(Charset::UTF_16BE.max_encoded_len(len, JDK), 2 * len);
        assert_eq!(Charset::UTF_16.max_encoded_len(len, JDK), 2 * len + 2);
        assert_eq!(Charset::UTF_32BE.max_encoded_len(len, JDK), 4 * len);
    }
}

/// UTF-16 input to UTF-8 into the caller's slice, at every level: whatever the text and its
/// length, no byte past the output is written (the kernels' scratch bytes past their own
/// output are written over by the units after them), through `encode_from_utf16_to_slice`
/// and through an `Encoder`'s slice whose chunk ends in a high surrogate that waits for its
/// pair.
#[test]
fn utf16_to_utf8_leaves_the_slice_past_the_output_untouched() {
    let heads: [&[u16]; 4] = [
        &[0x4E2D],
        &[0xD83D, 0xDE00],
        &[0x416],
        &[0x4E2D, 0x61, 0xD83D, 0xDE00],
    ];
    let step = wirebytes_testkit::scale_miri(1, 1, 9);
    for level in levels::all() {
        let name = level.name();
        for head in heads {
            for reps in (0..120).step_by(step) {
                for tail in (0..90).step_by(step) {
                    let mut units = head.repeat(reps);
                    units.extend((0..tail).map(|k| 0x61 + (k % 26) as u16));
                    let want = reference::encode_from_utf16(Charset::UTF_8, &units, JDK);
                    let mut dst = vec![0xAA_u8; want.len() + 100];
                    let written =
                        level.encode_from_utf16_to_slice(Charset::UTF_8, &units, JDK, &mut dst);
                    let what = format!("{name} {head:04x?} x {reps} + {tail}");
                    assert_eq!(written, Some(want.len()), "{what}");
                    assert_eq!(dst[..want.len()], want[..], "{what}");
                    assert!(dst[want.len()..].iter().all(|&b| b == 0xAA), "{what}");

                    units.push(0xD83D);
                    // Room for the worst case: the whole chunk in one go.
                    let mut encoder = level.new_encoder(Charset::UTF_8, JDK);
                    let room = encoder.max_buffer_length_from_utf16(units.len()).unwrap();
                    let mut dst = vec![0xAA_u8; room];
                    let (result, read, written, _) =
                        encoder.encode_from_utf16_to_slice(&units, &mut dst, false);
                    assert_eq!(
                        (result, read, written),
                        (CoderResult::InputEmpty, units.len(), want.len()),
                        "{what} pending"
                    );
                    assert_eq!(dst[..want.len()], want[..], "{what} pending");
                    assert!(
                        dst[want.len()..].iter().all(|&b| b == 0xAA),
                        "{what} pending"
                    );
                }
            }
        }
    }
}
