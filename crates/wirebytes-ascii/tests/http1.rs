//! HTTP/1 lines: the header-name check against the reference and the `http` crate's
//! `HeaderName` for every byte, header and status lines against the reference (the same
//! bytes, the same error, `dst` untouched on an error), their reservations, and, with the
//! `http` feature, `header_value` against `HeaderValue::from_bytes` for every BMP char and
//! random text.

use proptest::prelude::*;
use rstest::rstest;
use wirebytes_ascii::{
    InvalidHeader, find_invalid_header_name_byte, low_bytes, reference, render_header,
    render_status_line,
};

/// Every single byte and every pair: the check is the reference's and agrees with
/// `http::HeaderName::from_bytes` (which also takes upper-case letters, lowering them).
#[test]
fn header_names_of_one_and_two_bytes_are_the_reference_and_the_http_crate() {
    for a in 0..=255u8 {
        let one = [a];
        assert_eq!(
            find_invalid_header_name_byte(&one),
            reference::find_invalid_header_name_byte(&one),
            "{a:#04x}"
        );
        assert_eq!(
            find_invalid_header_name_byte(&one).is_none(),
            http::HeaderName::from_bytes(&one).is_ok(),
            "{a:#04x}"
        );
        for b in 0..=255u8 {
            let two = [a, b];
            assert_eq!(
                find_invalid_header_name_byte(&two),
                reference::find_invalid_header_name_byte(&two),
                "{a:#04x} {b:#04x}"
            );
        }
    }
    assert_eq!(find_invalid_header_name_byte(b""), Some(0));
}

#[rstest]
#[case("Host", "example.com", b"Host: example.com\r\n")]
#[case("x", "", b"x: \r\n")]
#[case(
    "!#$%&'*+-.^_`|~09azAZ",
    "\t v \t",
    b"!#$%&'*+-.^_`|~09azAZ: \t v \t\r\n"
)]
#[case("X-Author", "Fran\u{E7}ois", b"X-Author: Fran\xE7ois\r\n")]
// Low bytes: U+0141 renders as 0x41, U+4E2D as 0x2D.
#[case("X-Low", "\u{141}\u{4E2D}", b"X-Low: A-\r\n")]
fn header_lines(#[case] name: &str, #[case] value: &str, #[case] line: &[u8]) {
    outcome_is(
        |dst| render_header(name, value, dst),
        |dst| reference::render_header(name, value, dst),
        Ok(line),
    );
}

/// What `render` does after a prefix (the same as `slow`): `expected` is the line it appends,
/// or the error for which it appends nothing.
fn outcome_is(
    render: impl Fn(&mut Vec<u8>) -> Result<(), InvalidHeader>,
    slow: impl Fn(&mut Vec<u8>) -> Result<(), InvalidHeader>,
    expected: Result<&[u8], InvalidHeader>,
) {
    let prefix = b"HTTP/1.1 200 OK\r\n";
    let mut dst = prefix.to_vec();
    let result = render(&mut dst);
    match expected {
        Ok(line) => {
            assert_eq!(result, Ok(()));
            assert_eq!(&dst[prefix.len()..], line);
        }
        Err(err) => {
            assert_eq!(result, Err(err));
            assert_eq!(dst, prefix);
        }
    }
    let mut reference = prefix.to_vec();
    assert_eq!(slow(&mut reference), result);
    assert_eq!(reference, dst);
}

#[rstest]
#[case("", "v", InvalidHeader::Name { offset: 0, byte: b':' })]
#[case("Host:", "v", InvalidHeader::Name { offset: 4, byte: b':' })]
#[case("X Y", "v", InvalidHeader::Name { offset: 1, byte: b' ' })]
#[case("X\r\nY", "v", InvalidHeader::Name { offset: 1, byte: b'\r' })]
// A name is checked as it is, never through low bytes: U+0141 would render as `A`.
#[case("X-\u{141}", "v", InvalidHeader::Name { offset: 2, byte: 0xC5 })]
#[case("X-\u{E9}", "v", InvalidHeader::Name { offset: 2, byte: 0xC3 })]
#[case("X", "a\u{10D}\u{10A}Set-Cookie: s=1", value_error(1, b'\r'))]
#[case("X", "\u{4E2D}\u{7F}", value_error(1, 0x7F))]
// An emoji is two units, D83D DE00: the second renders as NUL.
#[case("X", "\u{1F600}", value_error(1, 0))]
#[case("X", "ok\n", value_error(2, b'\n'))]
#[case("X", "\0", value_error(0, 0))]
fn header_lines_refused(#[case] name: &str, #[case] value: &str, #[case] err: InvalidHeader) {
    outcome_is(
        |dst| render_header(name, value, dst),
        |dst| reference::render_header(name, value, dst),
        Err(err),
    );
}

/// The `Value` error at `offset` with `byte`, as the value check reports it.
fn value_error(offset: usize, byte: u8) -> InvalidHeader {
    let mut units = vec![u16::from(b'a'); offset];
    units.push(u16::from(byte));
    let text = String::from_utf16(&units).unwrap();
    let err = wirebytes_ascii::render_header_value(&text, &mut Vec::new()).unwrap_err();
    assert_eq!((err.offset(), err.byte()), (offset, byte));
    InvalidHeader::Value(err)
}

#[rstest]
#[case(200, "OK", b"HTTP/1.1 200 OK\r\n")]
#[case(100, "Continue", b"HTTP/1.1 100 Continue\r\n")]
#[case(204, "", b"HTTP/1.1 204 \r\n")]
#[case(999, "\t\u{E9}x ", b"HTTP/1.1 999 \t\xE9x \r\n")]
#[case(404, "Not Found", b"HTTP/1.1 404 Not Found\r\n")]
#[case(510, "Not Extended", b"HTTP/1.1 510 Not Extended\r\n")]
fn status_lines(#[case] code: u16, #[case] reason: &str, #[case] line: &[u8]) {
    outcome_is(
        |dst| render_status_line(code, reason, dst),
        |dst| reference::render_status_line(code, reason, dst),
        Ok(line),
    );
}

#[rstest]
#[case(0, "OK", InvalidHeader::Status(0))]
#[case(99, "OK", InvalidHeader::Status(99))]
#[case(1000, "OK", InvalidHeader::Status(1000))]
#[case(u16::MAX, "OK", InvalidHeader::Status(u16::MAX))]
#[case(200, "O\u{10A}K", value_error(1, b'\n'))]
#[case(200, "\r", value_error(0, b'\r'))]
fn status_lines_refused(#[case] code: u16, #[case] reason: &str, #[case] err: InvalidHeader) {
    outcome_is(
        |dst| render_status_line(code, reason, dst),
        |dst| reference::render_status_line(code, reason, dst),
        Err(err),
    );
}

/// Every code from 0 to 1100: the digits are the code's, the refused ones are those outside
/// `100..=999`.
#[test]
fn every_status_code() {
    for code in 0..=1100u16 {
        let mut fast = Vec::new();
        let mut slow = Vec::new();
        assert_eq!(
            render_status_line(code, "R", &mut fast),
            reference::render_status_line(code, "R", &mut slow),
            "{code}"
        );
        assert_eq!(fast, slow, "{code}");
        assert_eq!(fast.is_empty(), !(100..=999).contains(&code), "{code}");
    }
}

/// One reservation, within the documented bound: from an empty `Vec`, the capacity is at most
/// the bound (or the allocator's minimum of 8), and a `Vec` with that much room is never
/// moved.
#[rstest]
#[case("Host", "example.com")]
#[case("X", "")]
#[case("X-Cjk", "\u{4E2D}\u{6587}")]
#[case("X-Latin", "\u{E9}\u{E9}\u{E9}\u{E9}\u{E9}\u{E9}\u{E9}\u{E9}\u{E9}")]
#[case(
    "Content-Type",
    "text/html; charset=utf-8 and some more text to be long enough"
)]
fn reservations(#[case] name: &str, #[case] value: &str) {
    within(name.len() + value.len() + 4, |dst| {
        render_header(name, value, dst)
    });
    within(value.len() + 15, |dst| render_status_line(200, value, dst));
}

/// `render` from an empty `Vec` leaves a capacity of at most `bound` (or the allocator's
/// minimum of 8), and into a `Vec` with `bound` bytes of room it never moves it.
fn within(bound: usize, render: impl Fn(&mut Vec<u8>) -> Result<(), InvalidHeader>) {
    let mut dst = Vec::new();
    render(&mut dst).unwrap();
    assert!(
        dst.capacity() <= bound.max(8),
        "{} > {bound}",
        dst.capacity()
    );
    let mut roomy = Vec::with_capacity(bound);
    let at = roomy.as_ptr();
    render(&mut roomy).unwrap();
    assert_eq!(roomy.as_ptr(), at);
}

/// Names and values from an alphabet of token bytes, delimiters, controls, Latin-1 and chars
/// whose low byte is a control or a token byte.
fn piece() -> impl Strategy<Value = String> {
    let c = prop_oneof![
        6 => proptest::char::range('!', '~'),
        1 => proptest::char::range('\0', '\u{20}'),
        1 => Just('\u{7F}'),
        1 => proptest::char::range('\u{80}', '\u{FF}'),
        1 => proptest::char::range('\u{100}', '\u{17F}'),
        1 => any::<char>(),
    ];
    proptest::collection::vec(c, 0..40).prop_map(|chars| chars.into_iter().collect())
}

proptest! {
    #[test]
    fn lines_are_the_reference(
        name in piece(),
        value in piece(),
        code in 0u16..1200,
        prefix in proptest::collection::vec(any::<u8>(), 0..20),
    ) {
        let mut fast = prefix.clone();
        let mut slow = prefix.clone();
        prop_assert_eq!(
            render_header(&name, &value, &mut fast),
            reference::render_header(&name, &value, &mut slow)
        );
        prop_assert_eq!(&fast, &slow);
        let mut fast = prefix.clone();
        let mut slow = prefix;
        prop_assert_eq!(
            render_status_line(code, &value, &mut fast),
            reference::render_status_line(code, &value, &mut slow)
        );
        prop_assert_eq!(&fast, &slow);
    }

    /// What is accepted, the `http` crate accepts: the name as a `HeaderName`, the rendered
    /// value as a `HeaderValue`.
    #[test]
    fn accepted_lines_are_accepted_by_the_http_crate(name in piece(), value in piece()) {
        let mut line = Vec::new();
        let ours = render_header(&name, &value, &mut line);
        let theirs = http::HeaderName::from_bytes(name.as_bytes()).is_ok()
            && http::HeaderValue::from_bytes(&low_bytes(&value)).is_ok();
        prop_assert_eq!(ours.is_ok(), theirs);
    }
}

#[cfg(feature = "http")]
mod http_values {
    use super::piece;
    use proptest::prelude::*;
    use wirebytes_ascii::{header_value, low_bytes};

    /// `header_value` of `text` against `HeaderValue::from_bytes` of its low bytes: both accept
    /// or both refuse, with the same bytes.
    fn agree(text: &str) {
        let theirs = http::HeaderValue::from_bytes(&low_bytes(text));
        match (header_value(text), theirs) {
            (Ok(ours), Ok(theirs)) => {
                assert_eq!(ours.as_bytes(), theirs.as_bytes(), "{text:?}");
                assert_eq!(ours, theirs);
            }
            (Err(err), Err(_)) => {
                assert_eq!(
                    wirebytes_ascii::find_invalid_header_byte(&low_bytes(text)),
                    Some(err.offset())
                );
            }
            (ours, theirs) => panic!("{text:?}: ours {ours:?}, theirs {theirs:?}"),
        }
    }

    /// Every BMP char (each low byte 256 times over), alone and between ASCII.
    #[test]
    fn every_bmp_char_as_the_http_crate() {
        for c in (0..=0xFFFFu32).filter_map(char::from_u32) {
            agree(&c.to_string());
            agree(&format!("text/plain; q={c}; x=1"));
        }
        agree("");
    }

    proptest! {
        #[test]
        fn random_values_as_the_http_crate(value in piece()) {
            agree(&value);
        }
    }
}
