//! Property tests: round trips on random strings and chars, and the fast decoders (at every
//! kernel level this CPU has, through `levels`) against the reference on random byte soup.

use std::borrow::Cow;

use proptest::prelude::*;
use wirebytes_mutf8::{
    decode, decode_lossy, decode_utf16, encode, encode_utf16, encoded_len, levels, reference,
};

/// Pieces that byte soup is made of: ASCII runs, every kind of sequence the JDK accepts,
/// and the ways it rejects one.
const PIECES: &[&[u8]] = &[
    b"a",
    b"0123456789abcdef",
    b"\x00",
    b"\x7f",
    b"\xc0\x80",
    b"\xc1\x81",
    b"\xc2\xa9",
    b"\xdf\xbf",
    b"\xe0\x80\x80",
    b"\xe0\x9f\xbf",
    b"\xe2\x82\xac",
    b"\xef\xbf\xbf",
    b"\xed\x9f\xbf",
    b"\xed\xa0\x80",
    b"\xed\xa0\xbd",
    b"\xed\xb0\x80",
    b"\xed\xb8\x80",
    b"\xed\xbf\xbf",
    b"\xf0\x9f\x98\x80",
    b"\x80",
    b"\xbf",
    b"\xf8",
    b"\xff",
    b"\xc2",
    b"\xe2",
    b"\xe2\x82",
];

fn soup() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        // Mostly valid pieces, now and then a bad one.
        prop::collection::vec(prop::sample::select(PIECES), 0..40).prop_map(|p| p.concat()),
        // Plain random bytes, biased to ASCII so that runs cross the 8-byte words.
        prop::collection::vec(prop_oneof![4 => 0x20..0x7Fu8, 1 => any::<u8>()], 0..100),
    ]
}

/// Text of a 2-byte script: letters (2-byte sequences) between ASCII bytes, which
/// `decode_utf16` takes 16 bytes at a time; now and then an overlong form, a sequence that
/// stops the blocks, or a bad one.
const LETTERS: &[&[u8]] = &[
    b"\xd0\xb6",
    b"\xd1\x8f",
    b"\xce\xa9",
    b"\xc2\x80",
    b"\xdf\xbf",
];
const BETWEEN: &[&[u8]] = &[b" ", b"a", b".", b"\x00", b"\x7f"];
const OTHERS: &[&[u8]] = &[b"\xc0\x80", b"\xc1\x81", b"\xe2\x82\xac", b"\xed\xa0\x80"];
const BAD: &[&[u8]] = &[
    b"\x80",
    b"\xbf",
    b"\xd0",
    b"\xd0\x41",
    b"\xd0\xc0",
    b"\xe2\x82",
    b"\xf0",
    b"\xff",
];

fn two_byte_text() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(
        prop_oneof![
            12 => prop::sample::select(LETTERS),
            4 => prop::sample::select(BETWEEN),
            1 => prop::sample::select(OTHERS),
            1 => prop::sample::select(BAD),
        ],
        0..100,
    )
    .prop_map(|p| p.concat())
}

/// Text of every width the JDK accepts, long enough for the 32- and 64-byte blocks: 3-byte
/// chars (CJK, U+FFFF, surrogates, overlong forms), 2-byte chars and ASCII; now and then a
/// 4-byte sequence or a bad byte.
const WIDE: &[&[u8]] = &[
    b"\xe4\xb8\xad",
    b"\xe6\x96\x87",
    b"\xe2\x82\xac",
    b"\xef\xbf\xbf",
    b"\xe0\xa0\x80",
    b"\xed\x9f\xbf",
    b"\xee\x80\x80",
];
const ODD_WIDE: &[&[u8]] = &[
    b"\xe0\x80\x80",
    b"\xe0\x9f\xbf",
    b"\xed\xa0\xbd",
    b"\xed\xb8\x80",
    b"\xc0\x80",
    b"\xf0\x9f\x98\x80",
    b"\xf4\x8f\xbf\xbf",
];

fn multibyte_text() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(
        prop_oneof![
            12 => prop::sample::select(WIDE),
            4 => prop::sample::select(LETTERS),
            4 => prop::sample::select(BETWEEN),
            1 => prop::sample::select(ODD_WIDE),
            1 => prop::sample::select(BAD),
        ],
        0..160,
    )
    .prop_map(|p| p.concat())
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        prop::collection::vec(
            prop_oneof![
                6 => prop::char::range('a', 'z'),
                1 => Just('\0'),
                1 => prop::char::range('\u{80}', '\u{7FF}'),
                1 => prop::char::range('\u{800}', '\u{FFFF}'),
                1 => prop::char::range('\u{10000}', '\u{10FFFF}'),
            ],
            0..80
        )
        .prop_map(|c| c.into_iter().collect()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(wirebytes_testkit::scale(4096, 512) as u32))]

    #[test]
    fn fast_decoders_agree_with_the_reference(bytes in soup()) {
        prop_assert_eq!(decode_utf16(&bytes), reference::decode_utf16(&bytes));
        prop_assert_eq!(decode(&bytes).map(Cow::into_owned), reference::decode(&bytes));
        prop_assert_eq!(decode_lossy(&bytes), reference::decode_lossy(&bytes));
        for level in levels::all() {
            prop_assert_eq!(level.decode_utf16(&bytes), reference::decode_utf16(&bytes));
            prop_assert_eq!(level.decode(&bytes).map(Cow::into_owned), reference::decode(&bytes));
            prop_assert_eq!(level.decode_lossy(&bytes), reference::decode_lossy(&bytes));
        }
    }

    #[test]
    fn fast_decoders_agree_with_the_reference_on_two_byte_text(bytes in two_byte_text()) {
        for level in levels::all() {
            prop_assert_eq!(level.decode_utf16(&bytes), reference::decode_utf16(&bytes));
            prop_assert_eq!(level.decode(&bytes).map(Cow::into_owned), reference::decode(&bytes));
        }
    }

    #[test]
    fn fast_decoders_agree_with_the_reference_on_multibyte_text(bytes in multibyte_text()) {
        // Borrowed exactly when the bytes already are the text.
        let plain = std::str::from_utf8(&bytes).is_ok_and(|s| s.chars().all(|c| c.len_utf8() < 4));
        for level in levels::all() {
            prop_assert_eq!(level.decode_utf16(&bytes), reference::decode_utf16(&bytes));
            let text = level.decode(&bytes);
            prop_assert_eq!(text.clone().map(Cow::into_owned), reference::decode(&bytes));
            prop_assert_eq!(matches!(text, Ok(Cow::Borrowed(_))), plain);
            prop_assert_eq!(level.decode_lossy(&bytes), reference::decode_lossy(&bytes));
        }
    }

    #[test]
    fn encode_then_decode_gives_the_text_back(text in text()) {
        let bytes = encode(&text);
        prop_assert_eq!(bytes.to_vec(), reference::encode(&text));
        prop_assert_eq!(encoded_len(&text), bytes.len());
        prop_assert_eq!(reference::encoded_len(&text), bytes.len());
        prop_assert_eq!(
            matches!(bytes, Cow::Borrowed(_)),
            !text.contains('\0') && text.chars().all(|c| c.len_utf8() < 4)
        );
        prop_assert_eq!(decode(&bytes).map(Cow::into_owned), Ok(text.clone()));
        let units: Vec<u16> = text.encode_utf16().collect();
        prop_assert_eq!(decode_utf16(&bytes), Ok(units));
    }

    #[test]
    fn any_chars_round_trip_like_the_jdk(units in prop::collection::vec(
        prop_oneof![3 => 0..0x80u16, 1 => any::<u16>(), 1 => 0xD800..0xE000u16],
        0..80
    )) {
        let bytes = encode_utf16(&units);
        prop_assert_eq!(&bytes, &reference::encode_utf16(&units));
        prop_assert_eq!(decode_utf16(&bytes), Ok(units.clone()));
        let lossy: String = char::decode_utf16(units.iter().copied())
            .map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
            .collect();
        prop_assert_eq!(decode_lossy(&bytes), lossy);
    }
}
