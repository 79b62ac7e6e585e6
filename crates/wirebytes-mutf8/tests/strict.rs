//! The strict relatives: `class_file` (HotSpot's `CONSTANT_Utf8` rule) and `cesu8` (the
//! JDK's "CESU-8" charset): `decode`, `validate` (at every kernel level) and
//! `decode_to_utf16`, against their references.

use std::borrow::Cow;

use proptest::prelude::*;
use rstest::rstest;
use wirebytes_mutf8::{DecodeErrorKind, cesu8, class_file, decode_class_file, levels, reference};
use wirebytes_testkit::{Rng, mutf8};

/// Both rules' decoders at every level against their references; borrowed exactly when the
/// bytes already are the text; `validate` and `decode_to_utf16` with the reference's chars
/// and error.
fn assert_strict_decoders_agree(bytes: &[u8]) {
    let plain = std::str::from_utf8(bytes).is_ok_and(|s| s.chars().all(|c| c.len_utf8() < 4));
    let class = reference::class_file_decode(bytes);
    let cesu = reference::cesu8_decode(bytes);
    let class16 = reference::class_file_decode_to_utf16(bytes);
    let cesu16 = reference::cesu8_decode_to_utf16(bytes);
    assert_eq!(class_file::decode_to_utf16(bytes), class16, "{bytes:02x?}");
    assert_eq!(cesu8::decode_to_utf16(bytes), cesu16, "{bytes:02x?}");
    assert_eq!(
        class_file::validate(bytes),
        class16.as_ref().map(drop).map_err(|e| *e)
    );
    assert_eq!(
        cesu8::validate(bytes),
        cesu16.as_ref().map(drop).map_err(|e| *e)
    );
    for level in levels::all() {
        let name = level.name();
        assert_eq!(
            level.class_file_validate(bytes),
            class16.as_ref().map(drop).map_err(|e| *e),
            "class file validate, {name}, {bytes:02x?}"
        );
        assert_eq!(
            level.cesu8_validate(bytes),
            cesu16.as_ref().map(drop).map_err(|e| *e),
            "cesu8 validate, {name}, {bytes:02x?}"
        );
        let got = level.class_file_decode(bytes);
        assert_eq!(
            got.as_deref(),
            class.as_deref(),
            "class file, {name}, {bytes:02x?}"
        );
        assert_eq!(
            matches!(got, Ok(Cow::Borrowed(_))),
            plain && !bytes.contains(&0),
            "class file borrows, {name}, {bytes:02x?}"
        );
        let got = level.cesu8_decode(bytes);
        assert_eq!(
            got.as_deref(),
            cesu.as_deref(),
            "cesu8, {name}, {bytes:02x?}"
        );
        assert_eq!(
            matches!(got, Ok(Cow::Borrowed(_))),
            plain,
            "cesu8 borrows, {name}, {bytes:02x?}"
        );
    }
    assert_eq!(decode_class_file(bytes).as_deref(), class.as_deref());
    assert_eq!(class_file::decode(bytes).as_deref(), class.as_deref());
    assert_eq!(cesu8::decode(bytes).as_deref(), cesu.as_deref());
}

/// Every 1- and 2-byte body, behind 0..=33 ASCII bytes (so that it falls on each side of a
/// 32-byte block), with and without text after.
#[test]
fn every_short_body_at_every_offset() {
    let pads: Vec<usize> = (0..=33)
        .step_by(wirebytes_testkit::scale_miri(1, 5, 48))
        .collect();
    let mut body = Vec::new();
    for b0 in (0..=255u8).step_by(wirebytes_testkit::scale_miri(1, 1, 69)) {
        for b1 in (0..=256u16)
            .step_by(wirebytes_testkit::scale_miri(1, 1, 87))
            .map(|b| u8::try_from(b).ok())
        {
            for &pad in &pads {
                for suffix in [&b""[..], b"xyz\xc3\xa9"] {
                    body.clear();
                    body.extend((0..pad).map(|k| b'a' + (k % 26) as u8));
                    body.push(b0);
                    body.extend(b1);
                    body.extend_from_slice(suffix);
                    assert_strict_decoders_agree(&body);
                }
            }
        }
    }
}

#[test]
fn bodies_of_every_kind() {
    let mut rng = Rng::new(0x636c_6173_7366_696c);
    for round in 0..wirebytes_testkit::scale_miri(6000, 1000, 5) {
        let mut body = if round % 2 == 0 {
            mutf8::body(&mut rng, mutf8::ACCEPTED, 160, 6)
        } else {
            mutf8::body(&mut rng, mutf8::WIDE_TEXT, 160, 20)
        };
        if round % 5 == 0 && !body.is_empty() {
            let at = rng.below(body.len());
            body[at] = if rng.one_in(2) {
                0
            } else {
                rng.next_u64() as u8
            };
        }
        assert_strict_decoders_agree(&body);
    }
}

#[rstest]
#[case::raw_nul(b"ab\x00", Err((DecodeErrorKind::Malformed, 2)), Ok("ab\0"))]
#[case::two_byte_nul(b"ab\xc0\x80", Ok("ab\0"), Err((DecodeErrorKind::Malformed, 2)))]
#[case::overlong_two(b"\xc1\x81", Err((DecodeErrorKind::Malformed, 0)), Err((DecodeErrorKind::Malformed, 0)))]
#[case::overlong_three(b"x\xe0\x81\x81", Err((DecodeErrorKind::Malformed, 1)), Err((DecodeErrorKind::Malformed, 1)))]
#[case::pair(b"\xed\xa0\xbd\xed\xb8\x80", Ok("\u{1F600}"), Ok("\u{1F600}"))]
#[case::lone(b"a\xed\xb8\x80", Err((DecodeErrorKind::UnpairedSurrogate, 1)), Err((DecodeErrorKind::UnpairedSurrogate, 1)))]
#[case::lone_then_bad(b"\xed\xa0\x80\xff", Err((DecodeErrorKind::Malformed, 3)), Err((DecodeErrorKind::Malformed, 3)))]
#[case::four_byte(b"\xf0\x9f\x98\x80", Err((DecodeErrorKind::Malformed, 0)), Err((DecodeErrorKind::Malformed, 0)))]
#[case::cut(b"ab\xe2\x82", Err((DecodeErrorKind::Truncated, 2)), Err((DecodeErrorKind::Truncated, 2)))]
// The JDK's CESU-8 decoder finds the second byte bad before it finds the input short.
#[case::cut_bad_second(b"\xe2\x41", Err((DecodeErrorKind::Truncated, 0)), Err((DecodeErrorKind::Malformed, 0)))]
#[case::cut_c0(b"\xc0", Err((DecodeErrorKind::Truncated, 0)), Err((DecodeErrorKind::Malformed, 0)))]
fn the_rules_differ_where_the_table_says(
    #[case] bytes: &[u8],
    #[case] class: Result<&str, (DecodeErrorKind, usize)>,
    #[case] cesu: Result<&str, (DecodeErrorKind, usize)>,
) {
    let kind_at = |r: Result<Cow<'_, str>, wirebytes_mutf8::DecodeError>| {
        r.map(Cow::into_owned)
            .map_err(|e| (e.kind(), e.valid_up_to()))
    };
    assert_eq!(kind_at(decode_class_file(bytes)), class.map(str::to_owned));
    assert_eq!(kind_at(cesu8::decode(bytes)), cesu.map(str::to_owned));
    assert_strict_decoders_agree(bytes);
}

/// `encode_from_utf16` for every char between ASCII, and for the pairs and lone surrogates.
#[test]
fn cesu8_encodes_every_char_as_the_reference() {
    for unit in (0..=0xFFFF_u16).step_by(wirebytes_testkit::scale_miri(1, 1, 2991)) {
        let units = [u16::from(b'a'), unit, u16::from(b'z')];
        assert_eq!(
            cesu8::encode_from_utf16(&units),
            reference::cesu8_encode_from_utf16(&units)
        );
    }
    for units in [
        &[0xD800, 0xDC00][..],
        &[0xDBFF, 0xDFFF],
        &[0xDC00, 0xD800],
        &[0xD800],
        &[0xD800, 0xD800, 0xDC00],
    ] {
        assert_eq!(
            cesu8::encode_from_utf16(units),
            reference::cesu8_encode_from_utf16(units),
            "{units:04x?}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(wirebytes_testkit::scale_miri(2048, 256, 2) as u32))]

    #[test]
    fn cesu8_round_trips(text in any::<String>()) {
        let units: Vec<u16> = text.encode_utf16().collect();
        let bytes = cesu8::encode(&text);
        prop_assert_eq!(&*bytes, &reference::cesu8_encode_from_utf16(&units)[..]);
        prop_assert_eq!(
            matches!(bytes, Cow::Borrowed(_)),
            text.chars().all(|c| c.len_utf8() < 4)
        );
        prop_assert_eq!(cesu8::encode_from_utf16(&units), bytes.to_vec());
        let back = cesu8::decode(&bytes);
        prop_assert_eq!(back.as_deref(), Ok(text.as_str()));
        // The class-file form of the same text is modified UTF-8.
        let class = wirebytes_mutf8::encode(&text);
        let back = decode_class_file(&class);
        prop_assert_eq!(back.as_deref(), Ok(text.as_str()));
    }

    #[test]
    fn any_chars_encode_as_the_reference(units in prop::collection::vec(
        prop_oneof![3 => 0..0x80u16, 1 => any::<u16>(), 1 => 0xD800..0xE000u16],
        0..80
    )) {
        prop_assert_eq!(cesu8::encode_from_utf16(&units), reference::cesu8_encode_from_utf16(&units));
    }

    #[test]
    fn soup_decodes_as_the_reference(bytes in prop::collection::vec(
        prop_oneof![
            4 => prop::sample::select(mutf8::ACCEPTED),
            2 => prop::sample::select(mutf8::WIDE_TEXT),
            1 => prop::sample::select(mutf8::REJECTED),
            1 => Just(&b"\x00"[..]),
        ],
        0..60,
    ).prop_map(|p| p.concat())) {
        assert_strict_decoders_agree(&bytes);
    }
}
