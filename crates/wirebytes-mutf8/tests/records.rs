//! Records over `std::io`: lengths, truncated streams, refused bodies.
#![cfg(feature = "std")]

use std::io::{self, ErrorKind, Read};

use rstest::rstest;
use wirebytes_mutf8::{
    DecodeError, DecodeErrorKind, LengthError, MAX_UTF_LEN, levels, read_long_utf, read_utf,
    read_utf16, reference, write_long_utf, write_utf,
};

fn inner<E: std::error::Error + 'static>(err: &io::Error) -> &E {
    err.get_ref()
        .and_then(|e| e.downcast_ref::<E>())
        .expect("the io::Error wraps the crate's error")
}

#[rstest]
#[case::empty("")]
#[case::ascii("hello")]
#[case::nul("a\0b")]
#[case::supplementary("\u{1F600} and \u{10FFFF}")]
#[case::long_small_write(&"x".repeat(600))]
fn write_then_read(#[case] text: &str) {
    let mut wire = Vec::new();
    write_utf(&mut wire, text).unwrap();
    let body = wirebytes_mutf8::encode(text);
    assert_eq!(&wire[..2], &(body.len() as u16).to_be_bytes());
    assert_eq!(&wire[2..], &*body);
    assert_eq!(read_utf(&mut wire.as_slice()).unwrap(), text);

    let mut wire = Vec::new();
    write_long_utf(&mut wire, text).unwrap();
    assert_eq!(&wire[..8], &(body.len() as u64).to_be_bytes());
    assert_eq!(&wire[8..], &*body);
    assert_eq!(
        read_long_utf(&mut wire.as_slice(), body.len() as u64).unwrap(),
        text
    );
}

/// Bodies long enough for every kernel, read at every kernel level this CPU has (the body is
/// decoded in the buffer it was read into), against the reference.
#[test]
fn long_records_at_every_level_decode_as_the_reference() {
    for body in wirebytes_testkit::mutf8::long_bodies()
        .into_iter()
        .step_by(wirebytes_testkit::scale_miri(1, 1, 2))
    {
        let want = reference::decode(&body);
        let mut wire = (body.len() as u16).to_be_bytes().to_vec();
        wire.extend_from_slice(&body);
        for level in levels::all() {
            let got = level
                .read_utf(&mut wire.as_slice())
                .map_err(|e| *inner::<DecodeError>(&e));
            assert_eq!(got, want, "{}", level.name());
            let got = level
                .read_utf16(&mut wire.as_slice())
                .map_err(|e| *inner::<DecodeError>(&e));
            assert_eq!(got, reference::decode_to_utf16(&body), "{}", level.name());
            // The long form of the same body.
            let mut long = (body.len() as u64).to_be_bytes().to_vec();
            long.extend_from_slice(&body);
            let got = level
                .read_long_utf(&mut long.as_slice(), body.len() as u64)
                .map_err(|e| *inner::<DecodeError>(&e));
            assert_eq!(got, want, "long, {}", level.name());
        }
    }
}

#[test]
fn every_truncation_of_a_record_is_unexpected_eof() {
    let mut wire = Vec::new();
    write_utf(&mut wire, "mixed: \0 \u{e9} \u{20ac} \u{1F600}").unwrap();
    for cut in (0..wire.len()).step_by(wirebytes_testkit::scale_miri(1, 1, 21)) {
        let err = read_utf(&mut &wire[..cut]).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::UnexpectedEof, "cut at {cut}");
        let err = read_utf16(&mut &wire[..cut]).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::UnexpectedEof, "utf16 cut at {cut}");
    }
    let mut wire = Vec::new();
    write_long_utf(&mut wire, "long form").unwrap();
    for cut in (0..wire.len()).step_by(wirebytes_testkit::scale_miri(1, 1, 21)) {
        let err = read_long_utf(&mut &wire[..cut], 1000).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::UnexpectedEof, "cut at {cut}");
    }
}

#[test]
fn records_follow_each_other() {
    let mut wire = Vec::new();
    for text in ["one", "", "\0three\0", "\u{10400}"] {
        write_utf(&mut wire, text).unwrap();
    }
    let mut stream = wire.as_slice();
    for text in ["one", "", "\0three\0", "\u{10400}"] {
        assert_eq!(read_utf(&mut stream).unwrap(), text);
    }
    assert!(stream.is_empty());
    assert_eq!(
        read_utf(&mut stream).unwrap_err().kind(),
        ErrorKind::UnexpectedEof
    );
}

#[rstest]
#[case::malformed(b"\x00\x03ab\x80", DecodeErrorKind::Malformed, 2)]
#[case::partial(b"\x00\x03ab\xe2", DecodeErrorKind::Truncated, 2)]
#[case::lone(b"\x00\x03\xed\xa0\x80", DecodeErrorKind::UnpairedSurrogate, 0)]
fn bad_bodies_are_invalid_data(
    #[case] wire: &[u8],
    #[case] kind: DecodeErrorKind,
    #[case] at: usize,
) {
    let mut stream = wire;
    let err = read_utf(&mut stream).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidData);
    let found: &DecodeError = inner(&err);
    assert_eq!((found.kind(), found.valid_up_to()), (kind, at));
    assert!(stream.is_empty(), "the whole record is consumed");

    // read_utf16 returns a lone surrogate, and fails with the same error on the rest.
    let mut stream = wire;
    match read_utf16(&mut stream) {
        Ok(units) => {
            assert_eq!(kind, DecodeErrorKind::UnpairedSurrogate);
            assert_eq!(Ok(units), reference::decode_to_utf16(&wire[2..]));
        }
        Err(err) => {
            assert_eq!(err.kind(), ErrorKind::InvalidData);
            let inner: &DecodeError = inner(&err);
            assert_eq!((inner.kind(), inner.valid_up_to()), (kind, at));
        }
    }
    assert!(stream.is_empty(), "the whole record is consumed");
}

#[test]
fn write_utf_refuses_long_bodies_and_writes_nothing() {
    let fits = "\u{20ac}".repeat(MAX_UTF_LEN / 3);
    let mut wire = Vec::new();
    write_utf(&mut wire, &fits).unwrap();
    assert_eq!(&wire[..2], b"\xff\xff");
    assert_eq!(read_utf(&mut wire.as_slice()).unwrap(), fits);

    for text in [
        fits.clone() + "x",
        "\0".repeat(MAX_UTF_LEN / 2 + 1),
        "x".repeat(1 << 17),
    ] {
        let mut wire = Vec::new();
        let err = write_utf(&mut wire, &text).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidInput);
        let inner: &LengthError = inner(&err);
        assert_eq!(inner.length(), wirebytes_mutf8::encoded_len(&text) as u64);
        assert_eq!(inner.limit(), MAX_UTF_LEN as u64);
        assert!(wire.is_empty());
    }
}

/// A stream that never ends: only the length field and the limit decide how much is read.
struct Endless;

impl Read for Endless {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        buf.fill(b'a');
        Ok(buf.len())
    }
}

#[test]
fn long_form_lengths_are_checked_against_the_limit() {
    let mut wire: &[u8] = b"\x7f\xff\xff\xff\xff\xff\xff\xff";
    let err = read_long_utf(&mut wire, 1 << 20).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidData);
    let inner: &LengthError = inner(&err);
    assert_eq!((inner.length(), inner.limit()), (i64::MAX as u64, 1 << 20));

    // At the limit it reads; one above it does not.
    let (at, above) = (100u64.to_be_bytes(), 101u64.to_be_bytes());
    let mut stream = at.as_slice().chain(Endless);
    assert_eq!(read_long_utf(&mut stream, 100).unwrap(), "a".repeat(100));
    let mut stream = above.as_slice().chain(Endless);
    assert_eq!(
        read_long_utf(&mut stream, 100).unwrap_err().kind(),
        ErrorKind::InvalidData
    );
}

#[test]
fn long_bodies_in_the_long_form() {
    let text = "\u{1F600}".repeat(20_000) + "\0";
    let mut wire = Vec::new();
    write_long_utf(&mut wire, &text).unwrap();
    assert_eq!(wire.len(), 8 + 120_002);
    assert_eq!(read_long_utf(&mut wire.as_slice(), 1 << 20).unwrap(), text);
}

/// `write_utf16` writes what `write_utf` writes for the same text, and any UTF-16 (lone
/// surrogates too) as the reference encodes it; `read_utf16` reads it back. Around the
/// length where the record stops going through the stack, and over 65535 bytes: refused,
/// nothing written.
#[test]
fn write_utf16_writes_every_unit_and_refuses_long_bodies() {
    let mut texts: Vec<String> = ["", "a", "nul \0", "\u{1F600}\u{e9}\u{20ac}"]
        .map(str::to_owned)
        .to_vec();
    for len in [516, 517, 518, 519, 520, 521, 2000] {
        texts.push("x".repeat(len));
        texts.push("\u{e9}".repeat(len / 2));
        texts.push("\0".repeat(len / 2));
    }
    for text in &texts {
        let units: Vec<u16> = text.encode_utf16().collect();
        let (mut by_text, mut by_units) = (Vec::new(), Vec::new());
        write_utf(&mut by_text, text).unwrap();
        wirebytes_mutf8::write_utf16(&mut by_units, &units).unwrap();
        assert_eq!(by_units, by_text, "{}", text.len());
        assert_eq!(read_utf16(&mut by_units.as_slice()).unwrap(), units);
        let mut long = Vec::new();
        write_long_utf(&mut long, text).unwrap();
        assert_eq!(&long[8..], &by_text[2..]);
        assert_eq!(long[..8], (by_text.len() as u64 - 2).to_be_bytes());
    }
    for units in wirebytes_testkit::text::surrogate_soup() {
        let mut wire = Vec::new();
        wirebytes_mutf8::write_utf16(&mut wire, &units).unwrap();
        let body = reference::encode_from_utf16(&units);
        assert_eq!(
            wire,
            [&(body.len() as u16).to_be_bytes()[..], &body].concat()
        );
        assert_eq!(read_utf16(&mut wire.as_slice()).unwrap(), units);
    }
    for units in [vec![0x20AC; 21_846], vec![0; 32_768], vec![0xD800; 21_846]] {
        let mut wire = Vec::new();
        let err = wirebytes_mutf8::write_utf16(&mut wire, &units).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidInput);
        let inner: &LengthError = inner(&err);
        assert_eq!(
            inner.length(),
            reference::encode_from_utf16(&units).len() as u64
        );
        assert!(wire.is_empty());
    }
    // At the limit: written.
    let mut wire = Vec::new();
    wirebytes_mutf8::write_utf16(&mut wire, &[0x20AC; 21_845]).unwrap();
    assert_eq!(wire.len(), 2 + 65_535);
}

/// A writer that keeps each `write` call's bytes apart and takes all it is given at once.
struct Calls(Vec<Vec<u8>>);

impl io::Write for Calls {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.push(buf.to_vec());
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A record whose body fits the stack buffer (518 bytes) goes to the writer in one write,
/// length and body together; a longer one in two: the length, then the body.
#[rstest]
#[case::empty("", 1)]
#[case::short("hello", 1)]
#[case::fits("x".repeat(518), 1)]
#[case::nuls_fit("\0".repeat(259), 1)]
#[case::one_over("x".repeat(519), 2)]
#[case::nuls_over("\0".repeat(260), 2)]
#[case::long("\u{e9}".repeat(1000), 2)]
fn short_records_go_to_the_writer_in_one_write(#[case] text: String, #[case] writes: usize) {
    let units: Vec<u16> = text.encode_utf16().collect();
    let mut whole = Vec::new();
    write_utf(&mut whole, &text).unwrap();
    let mut calls = Calls(Vec::new());
    write_utf(&mut calls, &text).unwrap();
    assert_eq!(calls.0.len(), writes, "write_utf");
    assert_eq!(calls.0.concat(), whole);
    let mut calls = Calls(Vec::new());
    wirebytes_mutf8::write_utf16(&mut calls, &units).unwrap();
    assert_eq!(calls.0.len(), writes, "write_utf16");
    assert_eq!(calls.0.concat(), whole);
}
