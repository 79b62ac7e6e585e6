//! Property tests: round trips on random strings and chars, and the fast decoders (at every
//! kernel level this CPU has, through `levels`) against the reference on random byte soup.

use std::borrow::Cow;

use proptest::prelude::*;
use wirebytes_mutf8::{
    decode, decode_lossy, decode_to_string, decode_to_utf16, encode, encode_from_utf16,
    encode_to_vec, encoded_len, levels, reference, validate,
};
use wirebytes_testkit::mutf8;

/// Byte soup: mostly forms the JDK accepts, now and then a rejected one; or plain random
/// bytes, biased to ASCII so that runs cross the 8-byte words.
fn soup() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        prop::collection::vec(
            prop_oneof![
                6 => prop::sample::select(mutf8::ACCEPTED),
                1 => prop::sample::select(mutf8::REJECTED),
            ],
            0..40
        )
        .prop_map(|p| p.concat()),
        prop::collection::vec(prop_oneof![4 => 0x20..0x7Fu8, 1 => any::<u8>()], 0..100),
    ]
}

/// Text of 2-byte scripts, which `decode_to_utf16` takes 16 or 32 bytes at a time; now and then
/// another form the JDK accepts, which stops the blocks, or a rejected one.
fn two_byte_text() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(
        prop_oneof![
            16 => prop::sample::select(mutf8::TWO_BYTE_TEXT),
            1 => prop::sample::select(mutf8::ACCEPTED),
            1 => prop::sample::select(mutf8::REJECTED),
        ],
        0..100,
    )
    .prop_map(|p| p.concat())
}

/// Text of every width the JDK accepts, long enough for the 32- and 64-byte blocks; now and
/// then an irregular form (a 3-byte overlong, a lone surrogate) or a rejected one.
fn multibyte_text() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(
        prop_oneof![
            12 => prop::sample::select(mutf8::WIDE_TEXT),
            4 => prop::sample::select(mutf8::TWO_BYTE_TEXT),
            1 => prop::sample::select(mutf8::IRREGULAR),
            1 => prop::sample::select(mutf8::REJECTED),
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
    #![proptest_config(ProptestConfig::with_cases(wirebytes_testkit::scale_miri(4096, 512, 2) as u32))]

    #[test]
    fn fast_decoders_agree_with_the_reference(bytes in soup()) {
        prop_assert_eq!(decode_to_utf16(&bytes), reference::decode_to_utf16(&bytes));
        prop_assert_eq!(decode(&bytes).map(Cow::into_owned), reference::decode(&bytes));
        prop_assert_eq!(decode_lossy(&bytes), reference::decode_lossy(&bytes));
        for level in levels::all() {
            prop_assert_eq!(level.decode_to_utf16(&bytes), reference::decode_to_utf16(&bytes));
            prop_assert_eq!(level.decode(&bytes).map(Cow::into_owned), reference::decode(&bytes));
            prop_assert_eq!(level.decode_lossy(&bytes), reference::decode_lossy(&bytes));
        }
    }

    /// The forms that allocate nothing: `validate` accepts what `decode_to_utf16` does, with its
    /// error; `decode_to_string` appends `decode`'s text, or leaves `dst` as it was.
    #[test]
    fn validate_and_decode_into_agree_with_the_reference(
        bytes in prop_oneof![soup(), multibyte_text()],
        head in "[a-z\u{e9}\u{1F600}]{0,5}",
    ) {
        let want = reference::decode(&bytes);
        prop_assert_eq!(validate(&bytes), reference::decode_to_utf16(&bytes).map(drop));
        for level in levels::all() {
            prop_assert_eq!(level.validate(&bytes), reference::decode_to_utf16(&bytes).map(drop));
            let mut dst = head.clone();
            let got = level.decode_to_string(&bytes, &mut dst);
            prop_assert_eq!(got, want.as_ref().map(drop).map_err(|e| *e));
            let expected = match &want {
                Ok(text) => format!("{head}{text}"),
                Err(_) => head.clone(),
            };
            prop_assert_eq!(dst, expected);
        }
        let mut dst = head.clone();
        let _ = decode_to_string(&bytes, &mut dst);
        prop_assert!(dst.starts_with(&head));
        let head16: Vec<u16> = head.encode_utf16().collect();
        let want16 = reference::decode_to_utf16(&bytes);
        for level in levels::all() {
            let mut dst = head16.clone();
            let got = level.decode_to_utf16_vec(&bytes, &mut dst);
            prop_assert_eq!(got, want16.as_ref().map(drop).map_err(|e| *e));
            let expected = match &want16 {
                Ok(chars) => [&head16[..], chars].concat(),
                Err(_) => head16.clone(),
            };
            prop_assert_eq!(dst, expected);
        }
    }

    #[test]
    fn fast_decoders_agree_with_the_reference_on_two_byte_text(bytes in two_byte_text()) {
        for level in levels::all() {
            prop_assert_eq!(level.decode_to_utf16(&bytes), reference::decode_to_utf16(&bytes));
            prop_assert_eq!(level.decode(&bytes).map(Cow::into_owned), reference::decode(&bytes));
        }
    }

    #[test]
    fn fast_decoders_agree_with_the_reference_on_multibyte_text(bytes in multibyte_text()) {
        // Borrowed exactly when the bytes already are the text.
        let plain = std::str::from_utf8(&bytes).is_ok_and(|s| s.chars().all(|c| c.len_utf8() < 4));
        for level in levels::all() {
            prop_assert_eq!(level.decode_to_utf16(&bytes), reference::decode_to_utf16(&bytes));
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
        let mut appended = b"head".to_vec();
        encode_to_vec(&text, &mut appended);
        prop_assert_eq!(&appended[..4], b"head");
        prop_assert_eq!(&appended[4..], &reference::encode(&text)[..]);
        let units: Vec<u16> = text.encode_utf16().collect();
        prop_assert_eq!(decode_to_utf16(&bytes), Ok(units));
    }

    #[test]
    fn any_chars_round_trip_like_the_jdk(units in prop::collection::vec(
        prop_oneof![3 => 0..0x80u16, 1 => any::<u16>(), 1 => 0xD800..0xE000u16],
        0..80
    )) {
        let bytes = encode_from_utf16(&units);
        prop_assert_eq!(&bytes, &reference::encode_from_utf16(&units));
        prop_assert_eq!(decode_to_utf16(&bytes), Ok(units.clone()));
        let lossy: String = char::decode_utf16(units.iter().copied())
            .map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
            .collect();
        prop_assert_eq!(decode_lossy(&bytes), lossy);
    }
}
