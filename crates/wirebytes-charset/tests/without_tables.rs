//! The WHATWG multi-byte coder without its encode table or ISO-2022-JP state machine, the path
//! of an encoding that has neither (encoding_rs's encoder alone, with the crate's JDK
//! replacements and strict offsets), against the table paths the public functions take: the
//! same bytes, the same error offset and the same replacement record, for every replacement
//! and for strict encoding, on chosen text, random text and random UTF-16 (lone surrogates
//! included).

use encoding_rs::Encoding;
use rstest::rstest;
use wirebytes_charset::{Charset, Replacement, levels};
use wirebytes_testkit::Rng;
use wirebytes_testkit::text::{random_text, random_units};

const ENCODINGS: [&Encoding; 7] = [
    encoding_rs::SHIFT_JIS,
    encoding_rs::EUC_JP,
    encoding_rs::EUC_KR,
    encoding_rs::BIG5,
    encoding_rs::GBK,
    encoding_rs::GB18030,
    encoding_rs::ISO_2022_JP,
];

/// JDK and WHATWG replacements, and strict encoding.
const POLICIES: [Option<Replacement>; 3] =
    [Some(Replacement::Jdk), Some(Replacement::Whatwg), None];

/// Text through both paths: equal outcomes, and the table path's bytes are the public
/// functions' (for a replacement) or its offset `try_encode`'s.
fn same_str(encoding: &'static Encoding, text: &str) {
    for replacement in POLICIES {
        let with = levels::multi_byte_coder(encoding, true, text, replacement);
        let without = levels::multi_byte_coder(encoding, false, text, replacement);
        assert_eq!(
            with,
            without,
            "{} {replacement:?} {text:?}",
            encoding.name()
        );
        let charset = Charset::from(encoding);
        match replacement {
            Some(r) => assert_eq!(with.0.as_deref(), Ok(&charset.encode(text, r)[..])),
            None => assert_eq!(
                with.0.as_ref().map_err(|&at| at),
                charset.try_encode(text).as_ref().map_err(|e| e.offset())
            ),
        }
    }
}

/// UTF-16 through both paths: equal outcomes (a strict error records no replacement: the
/// record is for output that was written).
fn same_units(encoding: &'static Encoding, units: &[u16]) {
    for replacement in POLICIES {
        let mut with = levels::multi_byte_coder_from_utf16(encoding, true, units, replacement);
        let mut without = levels::multi_byte_coder_from_utf16(encoding, false, units, replacement);
        if replacement.is_none() {
            (with.1, without.1) = (false, false);
        }
        assert_eq!(
            with,
            without,
            "{} {replacement:?} {units:04X?}",
            encoding.name()
        );
    }
}

#[rstest]
#[case::ascii("plain ASCII, long enough for eight-byte words")]
#[case::mapped("\u{3042}\u{4E2D}\u{AC00}\u{FF21} mixed \u{3001}")]
// Unmappable everywhere: an emoji (a pair in UTF-16), a private-use char, U+0100.
#[case::emoji_first("\u{1F600}abc")]
#[case::emoji_after_cjk("\u{4E2D}\u{6587}\u{1F600}\u{4E2D}")]
#[case::private_use("a\u{E000}b\u{E001}")]
#[case::latin("\u{100}\u{E9}x")]
// ISO-2022-JP: the replacement in the JIS X 0208 state, then ASCII, then JIS X 0208 again;
// and its own control bytes, which it refuses.
#[case::jp_states("\u{3042}\u{1F600}a\u{3044}\u{E000}\u{3046}")]
#[case::jp_controls("a\u{1B}b\u{E}c\u{F}")]
fn chosen_text(#[case] text: &str) {
    for encoding in ENCODINGS {
        same_str(encoding, text);
        let units: Vec<u16> = text.encode_utf16().collect();
        same_units(encoding, &units);
    }
}

#[rstest]
#[case::lone_high(&[0x61, 0xD800, 0x62])]
#[case::lone_low(&[0xDC00])]
#[case::reversed(&[0xDC00, 0xD800, 0x3042])]
#[case::pair_then_lone(&[0xD83D, 0xDE00, 0xD83D])]
#[case::in_jis0208(&[0x3042, 0xD800, 0x3044, 0xDFFF])]
fn chosen_units(#[case] units: &[u16]) {
    for encoding in ENCODINGS {
        same_units(encoding, units);
    }
}

#[test]
fn random_text_and_units() {
    let mut rng = Rng::new(0xC0DE_7AB1);
    for _ in 0..wirebytes_testkit::scale(300, 40) {
        let text = random_text(&mut rng, 6);
        let units = random_units(&mut rng, 60);
        for encoding in ENCODINGS {
            same_str(encoding, &text);
            same_units(encoding, &units);
        }
    }
}
