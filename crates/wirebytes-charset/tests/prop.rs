//! Property tests: the fast paths against the reference on random text, for every encoding
//! and both replacements (through the helpers in `common`).

mod common;

use proptest::prelude::*;

/// Chars drawn from the scripts the encodings care about, plus the awkward ones.
fn interesting_char() -> impl Strategy<Value = char> {
    prop_oneof![
        4 => proptest::char::range('\u{20}', '\u{7E}'),
        1 => proptest::char::range('\0', '\u{1F}'),
        2 => proptest::char::range('\u{80}', '\u{FF}'),
        2 => proptest::char::range('\u{100}', '\u{7FF}'),
        1 => proptest::char::range('\u{2000}', '\u{2BFF}'),
        2 => proptest::char::range('\u{3000}', '\u{30FF}'),
        2 => proptest::char::range('\u{4E00}', '\u{9FFF}'),
        1 => proptest::char::range('\u{AC00}', '\u{D7A3}'),
        1 => proptest::char::range('\u{E000}', '\u{FFFF}'),
        1 => proptest::char::range('\u{10000}', '\u{10FFFF}'),
        1 => Just('\u{FFFD}'),
        1 => Just('\u{FEFF}'),
        1 => Just('\u{A5}'),
        1 => Just('\u{203E}'),
        1 => Just('\u{1B}'),
        1 => proptest::char::range('\u{F780}', '\u{F7FF}'),
    ]
}

fn interesting_text() -> impl Strategy<Value = String> {
    prop_oneof![
        proptest::collection::vec(interesting_char(), 0..80).prop_map(|v| v.into_iter().collect()),
        // A long ASCII run then a few other chars: crosses the ASCII-prefix fast path.
        (
            "[ -~]{0,100}",
            proptest::collection::vec(interesting_char(), 0..6)
        )
            .prop_map(|(a, v)| a + &v.into_iter().collect::<String>()),
    ]
}

/// UTF-16 units: mostly from real text, with unpaired surrogates sprinkled in.
fn interesting_units() -> impl Strategy<Value = Vec<u16>> {
    proptest::collection::vec(
        prop_oneof![
            6 => interesting_char().prop_map(|c| {
                let mut buf = [0u16; 2];
                c.encode_utf16(&mut buf).to_vec()
            }),
            1 => (0xD800u16..=0xDFFF).prop_map(|u| vec![u]),
        ],
        0..60,
    )
    .prop_map(|parts| parts.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(wirebytes_testkit::scale_miri(400, 100, 2) as u32))]

    #[test]
    fn str_input_matches_reference(text in interesting_text()) {
        common::check_str(&text);
    }

    #[test]
    fn utf16_input_matches_reference(units in interesting_units()) {
        common::check_units(&units);
    }

    #[test]
    fn try_encode_agrees_with_encoding_rs(text in interesting_text()) {
        for charset in wirebytes_charset::Charset::whatwg_charsets() {
            let Some(encoding) = charset.encoding() else {
                continue;
            };
            let (web, _, had_unmappables) = encoding.encode(&text);
            match charset.try_encode(&text) {
                Ok(bytes) => {
                    prop_assert!(!had_unmappables);
                    if !common::is_utf16(charset) {
                        prop_assert_eq!(&bytes[..], &web[..]);
                    }
                }
                Err(err) => {
                    prop_assert!(had_unmappables);
                    prop_assert!(text.is_char_boundary(err.offset()));
                    prop_assert_eq!(text[err.offset()..].chars().next(), Some(err.ch()));
                    let (_, _, before) = encoding.encode(&text[..err.offset()]);
                    prop_assert!(!before, "an earlier char was unmappable");
                }
            }
        }
    }
}
