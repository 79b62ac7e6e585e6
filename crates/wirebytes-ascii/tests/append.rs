//! The appending and header functions at every kernel level this CPU has, against
//! `reference`: `low_bytes_to_vec` and `render_header_value` into vectors with and without
//! spare capacity, `find_invalid_header_byte` over every byte value at every position, and
//! rstest cases for what a header guard must refuse.

use rstest::rstest;
use wirebytes_ascii::{
    InvalidHeaderByte, find_invalid_header_byte, is_header_byte, levels, reference,
};
use wirebytes_testkit::Rng;
use wirebytes_testkit::text::{EDGE_CHARS, random_text};

/// Chars whose low byte is a control byte or DEL, a header guard's whole business.
const SMUGGLERS: [char; 9] = [
    '\u{010D}',
    '\u{010A}',
    '\u{0100}',
    '\u{011F}',
    '\u{017F}',
    '\u{FF0A}',
    '\r',
    '\u{7F}',
    '\u{1F50D}',
];

/// Destinations: empty, a prefix without spare capacity, a prefix with plenty.
fn destinations() -> [Vec<u8>; 3] {
    let mut roomy = Vec::with_capacity(4096);
    roomy.extend_from_slice(b"X-Key: ");
    let mut tight = b"Host: ".to_vec();
    tight.shrink_to_fit();
    [Vec::new(), tight, roomy]
}

/// `low_bytes_to_vec` and `render_header_value` of `text` at every level, into every
/// destination, equal the reference: the bytes, the error, and `dst` unchanged on error.
fn same(text: &str) {
    for level in levels::all() {
        for dst in destinations() {
            let mut want = dst.clone();
            reference::low_bytes_to_vec(text, &mut want);
            let mut got = dst.clone();
            level.low_bytes_to_vec(text, &mut got);
            assert_eq!(got, want, "extend, {}, {text:?}", level.name());

            let mut want = dst.clone();
            let want_result = reference::render_header_value(text, &mut want);
            let mut got = dst.clone();
            let got_result = level.render_header_value(text, &mut got);
            assert_eq!(
                (got_result, &got),
                (want_result, &want),
                "render, {}, {text:?}",
                level.name()
            );
        }
    }
}

/// `find_invalid_header_byte` of `rendered`, public and at every level, equals the
/// reference's.
fn found_as_the_reference(rendered: &[u8], what: &str) {
    let want = reference::find_invalid_header_byte(rendered);
    assert_eq!(find_invalid_header_byte(rendered), want, "{what}");
    for level in levels::all() {
        let got = level.find_invalid_header_byte(rendered);
        assert_eq!(got, want, "{}: {what}", level.name());
    }
}

#[test]
fn random_text_appends_as_the_reference() {
    let mut rng = Rng::new(0xA99E_0D01);
    for _ in 0..wirebytes_testkit::scale_miri(3000, 300, 5) {
        same(&random_text(&mut rng, 12));
    }
}

#[test]
fn one_smuggler_anywhere_in_ascii_and_latin1_is_found() {
    for len in (0..=150).step_by(wirebytes_testkit::scale_miri(1, 1, 111)) {
        for base in ["a", "\u{E9}"] {
            let plain = base.repeat(len);
            same(&plain);
            for at in (0..len).step_by(wirebytes_testkit::scale_miri(1, 1, 39)) {
                for smuggler in SMUGGLERS {
                    let mut chars: Vec<char> = plain.chars().collect();
                    chars[at] = smuggler;
                    same(&chars.into_iter().collect::<String>());
                }
            }
        }
    }
}

#[test]
fn every_ascii_byte_anywhere_in_long_ascii() {
    for len in [16, 17, 63, 64, 65, 100, 128, 129, 200] {
        for at in (0..len).step_by(wirebytes_testkit::scale_miri(1, 1, 87)) {
            for byte in (0..0x80u8).step_by(wirebytes_testkit::scale_miri(1, 1, 27)) {
                let mut text = "h".repeat(len);
                text.replace_range(at..=at, char::from(byte).encode_utf8(&mut [0; 4]));
                for level in levels::all() {
                    let mut want = Vec::new();
                    let want_result = reference::render_header_value(&text, &mut want);
                    let mut got = Vec::new();
                    let got_result = level.render_header_value(&text, &mut got);
                    assert_eq!((got_result, got), (want_result, want), "{}", level.name());
                }
            }
        }
    }
}

/// Two bad bytes 64 apart, one below 0x20 and one above 0x7E (either first): the AVX-512
/// header check of 128 bytes compares the bytewise minimum and maximum of its two 64-byte
/// halves, where both bytes sit at the same place, and must still see the first.
#[test]
fn two_bad_bytes_64_apart_are_both_seen() {
    for len in [128, 129, 191, 256] {
        for at in (0..len - 64).step_by(wirebytes_testkit::scale_miri(1, 1, 13)) {
            for (first, second) in [('\u{1}', '\u{7F}'), ('\u{7F}', '\r'), ('\0', '\u{E9}')] {
                let mut chars = vec!['h'; len];
                chars[at] = first;
                chars[at + 64] = second;
                same(&chars.into_iter().collect::<String>());

                let mut rendered = vec![b'h'; len];
                rendered[at] = first as u8;
                rendered[at + 64] = second as u8;
                assert_eq!(reference::find_invalid_header_byte(&rendered), Some(at));
                found_as_the_reference(
                    &rendered,
                    &format!("{first:?} at {at} and {second:?} 64 after, of {len}"),
                );
            }
        }
    }
}

#[test]
fn edge_chars_and_tabs_at_every_length() {
    for &edge in EDGE_CHARS {
        for len in [0, 1, 15, 16, 17, 63, 64, 65, 130] {
            let text = format!("{}{edge}\t{}", "x".repeat(len), "y".repeat(len));
            same(&text);
        }
    }
}

#[test]
fn find_invalid_header_byte_sees_every_byte_at_every_position() {
    for len in (1..=130).step_by(wirebytes_testkit::scale_miri(1, 1, 57)) {
        for at in (0..len).step_by(if len > 70 {
            7
        } else {
            wirebytes_testkit::scale_miri(1, 1, 15)
        }) {
            for byte in (0..=255u8).step_by(wirebytes_testkit::scale_miri(1, 1, 21)) {
                let mut rendered = vec![b'a'; len];
                rendered[at] = byte;
                found_as_the_reference(&rendered, &format!("byte {byte:#04x} at {at} of {len}"));
            }
        }
    }
}

/// Two bytes that are not header bytes, 64 apart (the same lane of two blocks the AVX-512
/// search tests together): a control byte, DEL or both, in either order, at every position
/// of the first block: the first is found.
#[test]
fn find_invalid_header_byte_sees_two_bad_bytes_a_block_apart() {
    for at in (0..64).step_by(wirebytes_testkit::scale_miri(1, 1, 9)) {
        for (first, second) in [(0x7F, 0x01), (0x01, 0x7F), (0x7F, 0x7F), (0x00, 0x1F)] {
            let mut rendered = vec![b'v'; 256];
            rendered[at] = first;
            rendered[at + 64] = second;
            let what = format!("{first:#04x} at {at}, {second:#04x} at {}", at + 64);
            assert_eq!(reference::find_invalid_header_byte(&rendered), Some(at));
            found_as_the_reference(&rendered, &what);
        }
    }
}

/// `is_header_byte` is the reference's rule for every byte value, is what
/// `find_invalid_header_byte` applies to a byte alone, and can be evaluated at compile time.
#[test]
fn is_header_byte_is_the_reference_for_every_byte() {
    const { assert!(!is_header_byte(b'\r') && is_header_byte(b'\t')) };
    for byte in 0..=255u8 {
        let want = reference::is_header_byte(byte);
        assert_eq!(is_header_byte(byte), want, "{byte:#04x}");
        assert_eq!(
            find_invalid_header_byte(&[byte]).is_none(),
            want,
            "{byte:#04x}"
        );
    }
}

/// Random bytes with a few bad ones (controls, DEL) among valid ones of every kind (HTAB,
/// printable, 0x80..=0xFF): the first bad one is found at every level, whatever the length
/// (each block and vector boundary, and the overlapping last vector).
#[test]
fn the_first_of_several_invalid_bytes_is_found() {
    const VALID: [u8; 6] = [b'\t', b' ', b'~', 0x80, 0xAB, 0xFF];
    const INVALID: [u8; 6] = [0x00, b'\r', b'\n', 0x08, 0x1F, 0x7F];
    let mut rng = Rng::new(0x004E_ADE2);
    for _ in 0..wirebytes_testkit::scale_miri(3000, 300, 40) {
        let len = rng.below(200);
        let mut rendered: Vec<u8> = (0..len).map(|_| VALID[rng.below(VALID.len())]).collect();
        for _ in 0..rng.below(4) {
            if len > 0 {
                let at = rng.below(len);
                rendered[at] = INVALID[rng.below(INVALID.len())];
            }
        }
        let want = reference::find_invalid_header_byte(&rendered);
        assert_eq!(find_invalid_header_byte(&rendered), want, "{rendered:02x?}");
        for level in levels::all() {
            assert_eq!(
                level.find_invalid_header_byte(&rendered),
                want,
                "{}: {rendered:02x?}",
                level.name()
            );
        }
    }
}

#[rstest]
#[case::empty("", Ok(()))]
#[case::tab_is_allowed("a\tb", Ok(()))]
#[case::latin1_is_allowed("caf\u{E9} \u{FF}", Ok(()))]
#[case::cr("a\rb", Err((1, 0x0D)))]
#[case::lf_from_u_ff0a("ok\u{FF0A}", Err((2, 0x0A)))]
#[case::cr_from_u_010d("Ond\u{010D}ej", Err((3, 0x0D)))]
#[case::nul_from_u_0100("\u{0100}", Err((0, 0x00)))]
#[case::del("abc\u{7F}", Err((3, 0x7F)))]
#[case::del_from_u_017f("\u{017F}", Err((0, 0x7F)))]
#[case::low_surrogate_byte("\u{1F50D}", Err((1, 0x0D)))]
#[case::tab_from_u_0109_is_allowed("\u{0109}", Ok(()))]
#[case::offset_counts_units("\u{1F642}\u{4E2D}\u{0108}", Err((3, 0x08)))]
fn render_header_value_refuses_controls(
    #[case] text: &str,
    #[case] expected: Result<(), (usize, u8)>,
) {
    let mut dst = b"X: ".to_vec();
    let result = wirebytes_ascii::render_header_value(text, &mut dst);
    assert_eq!(result.map_err(|e| (e.offset(), e.byte())), expected);
    if expected.is_err() {
        assert_eq!(dst, b"X: ");
    } else {
        assert_eq!(&dst[3..], wirebytes_ascii::low_bytes(text));
    }
}

#[test]
fn the_error_says_where_and_what() {
    let mut dst = Vec::new();
    let err: InvalidHeaderByte =
        wirebytes_ascii::render_header_value("abc\u{0100}", &mut dst).unwrap_err();
    assert_eq!(
        err.to_string(),
        "byte 0x00 at offset 3 is not allowed in a header value"
    );
    let _: &dyn std::error::Error = &err;
}
