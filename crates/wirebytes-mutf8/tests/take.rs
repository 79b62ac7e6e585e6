//! Records out of a byte slice (`take_utf`, `take_long_utf`) at every kernel level, against
//! the reference: borrowed when the body already is its text, the slice moved past the
//! record only when it is read, nothing consumed at any cut; and `GetUtfError` as an
//! `io::Error`, as `read_utf` reports the same failures.

use std::borrow::Cow;

use proptest::prelude::*;
use rstest::rstest;
use wirebytes_mutf8::{DecodeErrorKind, GetUtfError, levels, reference, take_long_utf, take_utf};

/// `body` behind an `N`-byte length field, then `after`.
fn record<const N: usize>(body: &[u8], after: &[u8]) -> Vec<u8> {
    let len = (body.len() as u64).to_be_bytes();
    [&len[8 - N..], body, after].concat()
}

/// `take_utf` and `take_long_utf` of `body` at every level: the reference's text, borrowed
/// exactly when the body is UTF-8 without a 4-byte sequence, the slice past the record; on
/// error, the slice where it was. And every cut of the record: `Incomplete` with the
/// record's length, nothing consumed.
fn assert_takes(body: &[u8]) {
    let want = reference::decode(body).map_err(GetUtfError::Invalid);
    let plain = std::str::from_utf8(body).is_ok_and(|s| s.chars().all(|c| c.len_utf8() < 4));
    for level in levels::all() {
        let name = level.name();
        let short = record::<2>(body, b"next");
        let long = record::<8>(body, b"next");
        type Take<'f> = &'f dyn for<'a> Fn(&mut &'a [u8]) -> Result<Cow<'a, str>, GetUtfError>;
        let takes: [(&[u8], Take<'_>); 2] = [
            (&short, &|input| level.take_utf(input)),
            (&long, &|input| {
                level.take_long_utf(input, body.len() as u64)
            }),
        ];
        for (wire, take) in takes {
            let mut input = wire;
            let got = take(&mut input);
            assert_eq!(
                got.as_deref().map_err(|e| *e),
                want.as_deref().map_err(|e| *e),
                "{name} {body:02x?}"
            );
            if got.is_ok() {
                assert_eq!(input, b"next", "{name}: moved past the record");
                assert_eq!(
                    matches!(got, Ok(Cow::Borrowed(_))),
                    plain,
                    "{name}: borrows"
                );
            } else {
                assert_eq!(input, wire, "{name}: an error consumes nothing");
            }
            for cut in 0..wire.len() - 4 {
                let mut input = &wire[..cut];
                let header = wire.len() - 4 - body.len();
                let needed = if cut < header { header } else { wire.len() - 4 };
                assert_eq!(
                    take(&mut input),
                    Err(GetUtfError::Incomplete {
                        needed: needed as u64
                    }),
                    "{name} cut at {cut}"
                );
                assert_eq!(input.len(), cut, "{name}: cut at {cut}, nothing consumed");
            }
        }
    }
    // The public functions, the level `detect` chose.
    let wire = record::<2>(body, b"");
    assert_eq!(take_utf(&mut wire.as_slice()).map(Cow::into_owned), want);
    let wire = record::<8>(body, b"");
    assert_eq!(
        take_long_utf(&mut wire.as_slice(), u64::MAX).map(Cow::into_owned),
        want
    );
}

#[rstest]
#[case::empty(b"")]
#[case::plain(b"java/lang/String")]
#[case::nul(b"a\xc0\x80b")]
#[case::raw_nul(b"a\x00b")]
#[case::pair(b"\xed\xa0\xbd\xed\xb8\x80")]
#[case::lone(b"\xed\xa0\x80")]
#[case::malformed(b"ab\xe2\x41\x41")]
#[case::truncated(b"ab\xe2\x82")]
#[case::four_byte(b"\xf0\x9f\x98\x80")]
fn records_are_taken_as_the_reference_decodes_them(#[case] body: &[u8]) {
    assert_takes(body);
}

#[test]
fn long_records_are_taken_as_the_reference_decodes_them() {
    for body in wirebytes_testkit::mutf8::long_bodies()
        .into_iter()
        .step_by(wirebytes_testkit::scale_miri(1, 1, 4))
    {
        assert_takes(&body);
    }
}

#[test]
fn records_follow_each_other_in_one_slice() {
    let mut wire = Vec::new();
    for text in ["Code", "", "\0", "\u{1F600}", "(Ljava/lang/String;)V"] {
        wire.extend(record::<2>(&reference::encode(text), b""));
    }
    let mut input = wire.as_slice();
    let mut texts = Vec::new();
    while !input.is_empty() {
        texts.push(take_utf(&mut input).unwrap().into_owned());
    }
    assert_eq!(
        texts,
        ["Code", "", "\0", "\u{1F600}", "(Ljava/lang/String;)V"]
    );
    assert_eq!(
        take_utf(&mut input),
        Err(GetUtfError::Incomplete { needed: 2 })
    );
}

#[test]
fn a_long_length_over_the_limit_or_the_input_consumes_nothing() {
    let mut input: &[u8] = b"\xff\xff\xff\xff\xff\xff\xff\xffabc";
    assert_eq!(
        take_long_utf(&mut input, u64::MAX),
        Err(GetUtfError::Incomplete { needed: u64::MAX })
    );
    let err = take_long_utf(&mut input, 2).unwrap_err();
    let GetUtfError::TooLong(inner) = err else {
        panic!("{err:?}");
    };
    assert_eq!((inner.length(), inner.limit()), (u64::MAX, 2));
    assert_eq!(input.len(), 11);
    let mut input: &[u8] = b"\xff\xffabc";
    assert_eq!(
        take_utf(&mut input),
        Err(GetUtfError::Incomplete { needed: 65_537 })
    );
    assert_eq!(input.len(), 5);
}

/// What a `GetUtfError` becomes as an `io::Error`: what `read_utf` returns for the same
/// record.
#[cfg(feature = "std")]
#[rstest]
#[case::cut_field(b"\x00")]
#[case::cut_body(b"\x00\x05abc")]
#[case::malformed(b"\x00\x03ab\x80")]
#[case::truncated(b"\x00\x03ab\xe2")]
#[case::lone(b"\x00\x03\xed\xa0\x80")]
fn get_utf_errors_are_the_io_errors_of_read_utf(#[case] wire: &[u8]) {
    use std::io;
    let err = io::Error::from(take_utf(&mut &wire[..]).unwrap_err());
    let read = wirebytes_mutf8::read_utf(&mut &wire[..]).unwrap_err();
    assert_eq!(err.kind(), read.kind(), "{wire:02x?}");
    let decode_error = |e: &io::Error| {
        e.get_ref()
            .and_then(|e| e.downcast_ref::<wirebytes_mutf8::DecodeError>())
            .copied()
    };
    assert_eq!(decode_error(&err), decode_error(&read), "{wire:02x?}");
    match err.kind() {
        io::ErrorKind::UnexpectedEof => {
            let inner = err.get_ref().and_then(|e| e.downcast_ref::<GetUtfError>());
            assert!(matches!(inner, Some(GetUtfError::Incomplete { .. })));
        }
        io::ErrorKind::InvalidData => assert!(decode_error(&err).is_some()),
        other => panic!("{other:?}"),
    }
    // The long form's limit: InvalidData with the LengthError inside, as read_long_utf.
    let long = b"\x00\x00\x00\x00\x00\x00\x01\x00";
    let err = io::Error::from(take_long_utf(&mut &long[..], 10).unwrap_err());
    let read = wirebytes_mutf8::read_long_utf(&mut &long[..], 10).unwrap_err();
    assert_eq!(
        (err.kind(), read.kind()),
        (io::ErrorKind::InvalidData, io::ErrorKind::InvalidData)
    );
    let length = |e: &io::Error| {
        e.get_ref()
            .and_then(|e| e.downcast_ref::<wirebytes_mutf8::LengthError>())
            .copied()
    };
    assert_eq!(length(&err), length(&read));
    assert!(length(&err).is_some());
}

/// `error_len` for what is cut by the end (`None`) and what is malformed (the bytes of the
/// offending sequence), under each rule.
#[rstest]
#[case::bad_lead(b"ab\xff", DecodeErrorKind::Malformed, Some(1))]
#[case::stray_continuation(b"ab\x80x", DecodeErrorKind::Malformed, Some(1))]
#[case::two_byte_bad_second(b"ab\xc3\x41", DecodeErrorKind::Malformed, Some(1))]
#[case::three_byte_bad_second(b"ab\xe2\x41\x82", DecodeErrorKind::Malformed, Some(1))]
#[case::three_byte_bad_third(b"ab\xe2\x82\x41", DecodeErrorKind::Malformed, Some(2))]
#[case::four_byte(b"\xf0\x9f\x98\x80", DecodeErrorKind::Malformed, Some(1))]
#[case::lone_surrogate(b"ab\xed\xa0\x80", DecodeErrorKind::UnpairedSurrogate, Some(3))]
#[case::cut_two_byte(b"ab\xc3", DecodeErrorKind::Truncated, None)]
#[case::cut_three_byte(b"ab\xe2\x82", DecodeErrorKind::Truncated, None)]
// The JDK checks the length first: a bad byte in a sequence the end cuts is `Truncated` too.
#[case::cut_with_a_bad_byte(b"ab\xe2\x41", DecodeErrorKind::Truncated, None)]
fn error_len_says_how_long_the_offending_sequence_is(
    #[case] bytes: &[u8],
    #[case] kind: DecodeErrorKind,
    #[case] len: Option<usize>,
) {
    let err = wirebytes_mutf8::decode(bytes).unwrap_err();
    assert_eq!((err.kind(), err.error_len()), (kind, len), "{bytes:02x?}");
    assert_eq!(reference::decode(bytes), Err(err));
    if kind != DecodeErrorKind::UnpairedSurrogate {
        assert_eq!(wirebytes_mutf8::decode_to_utf16(bytes), Err(err));
        assert_eq!(wirebytes_mutf8::validate(bytes), Err(err));
    }
}

/// `error_len` under the strict rules: `None` where the rule accepts the bytes, else the
/// error's `error_len()`.
#[rstest]
#[case::raw_nul(b"ab\x00", Some(Some(1)), None)]
#[case::c0_80(b"ab\xc0\x80", None, Some(Some(2)))]
#[case::overlong_three(b"ab\xe0\x81\x81", Some(Some(3)), Some(Some(3)))]
#[case::bad_second(b"ab\xe2\x41\x82", Some(Some(1)), Some(Some(1)))]
#[case::cut(b"ab\xe2\x82", Some(None), Some(None))]
fn error_len_under_the_strict_rules(
    #[case] bytes: &[u8],
    #[case] class: Option<Option<usize>>,
    #[case] cesu: Option<Option<usize>>,
) {
    let class_err = wirebytes_mutf8::class_file::validate(bytes).err();
    let cesu_err = wirebytes_mutf8::cesu8::validate(bytes).err();
    assert_eq!(
        class_err.map(|e| e.error_len()),
        class,
        "class file {bytes:02x?}"
    );
    assert_eq!(cesu_err.map(|e| e.error_len()), cesu, "cesu8 {bytes:02x?}");
    assert_eq!(
        reference::class_file_decode_to_utf16(bytes).err(),
        class_err
    );
    assert_eq!(reference::cesu8_decode_to_utf16(bytes).err(), cesu_err);
    assert_eq!(
        wirebytes_mutf8::class_file::decode_to_utf16(bytes).err(),
        class_err
    );
    assert_eq!(
        wirebytes_mutf8::cesu8::decode_to_utf16(bytes).err(),
        cesu_err
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(wirebytes_testkit::scale_miri(2048, 256, 2) as u32))]

    /// `error_len` is what `decode_lossy` replaces: the text is the lossy text of the bytes
    /// before the error, one U+FFFD, and the lossy text of the bytes after the sequence
    /// (for a sequence the end cuts, the U+FFFD and whatever follows it).
    #[test]
    fn decode_lossy_replaces_error_len_bytes(bytes in prop::collection::vec(
        prop_oneof![
            6 => prop::sample::select(wirebytes_testkit::mutf8::ACCEPTED),
            2 => prop::sample::select(wirebytes_testkit::mutf8::REJECTED),
            1 => prop::sample::select(wirebytes_testkit::mutf8::IRREGULAR),
        ],
        0..30,
    ).prop_map(|p| p.concat())) {
        let Err(err) = wirebytes_mutf8::decode(&bytes) else {
            return Ok(());
        };
        let at = err.valid_up_to();
        let lossy = wirebytes_mutf8::decode_lossy(&bytes);
        let head = format!("{}\u{FFFD}", wirebytes_mutf8::decode_lossy(&bytes[..at]));
        prop_assert!(lossy.starts_with(&head), "{:02x?} {:?}", bytes, err);
        match err.error_len() {
            Some(len) => {
                prop_assert!((1..=3).contains(&len));
                let tail = wirebytes_mutf8::decode_lossy(&bytes[at + len..]);
                prop_assert_eq!(lossy, format!("{head}{tail}"));
            }
            None => {
                prop_assert_eq!(err.kind(), DecodeErrorKind::Truncated);
                prop_assert!(bytes.len() - at < 3);
            }
        }
    }
}
