//! The JDK's rules (issue 5's table, checked on JDK 17 with `DataInputStream.readUTF`), one
//! case each, through every decoder: the fast ones and the reference.

use std::borrow::Cow;

use rstest::rstest;
use wirebytes_mutf8::{
    DecodeError, DecodeErrorKind, decode, decode_lossy, decode_to_utf16, reference,
};

/// What the JDK returns for a body that it accepts: its chars.
#[rstest]
#[case::raw_nul(b"\x00", &[0x0000])]
#[case::c0_80(b"\xc0\x80", &[0x0000])]
#[case::overlong_c1_81(b"\xc1\x81", &[0x0041])]
#[case::overlong_c0_b1(b"\xc0\xb1", &[0x0031])]
#[case::overlong_e0_80_80(b"\xe0\x80\x80", &[0x0000])]
#[case::overlong_e0_9f_bf(b"\xe0\x9f\xbf", &[0x07FF])]
#[case::lone_high(b"\xed\xa0\x80", &[0xD800])]
#[case::lone_low(b"\xed\xb0\x80", &[0xDC00])]
#[case::reversed_pair(b"\xed\xb0\x80\xed\xa0\x80", &[0xDC00, 0xD800])]
#[case::pair(b"\xed\xa0\xbd\xed\xb8\x80", &[0xD83D, 0xDE00])]
#[case::high_then_ascii(b"\xed\xa0\xbdA", &[0xD83D, 0x41])]
#[case::high_high_low(b"\xed\xa0\x80\xed\xa0\xbd\xed\xb8\x80", &[0xD800, 0xD83D, 0xDE00])]
#[case::plain(b"h\xc3\xa9llo \xe2\x82\xac", &[0x68, 0xE9, 0x6C, 0x6C, 0x6F, 0x20, 0x20AC])]
#[case::empty(b"", &[])]
fn accepted(#[case] bytes: &[u8], #[case] chars: &[u16]) {
    assert_eq!(decode_to_utf16(bytes).as_deref(), Ok(chars));
    assert_eq!(reference::decode_to_utf16(bytes).as_deref(), Ok(chars));
    let lone = char::decode_utf16(chars.iter().copied()).position(|c| c.is_err());
    let lossy: String = char::decode_utf16(chars.iter().copied())
        .map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
        .collect();
    assert_eq!(decode_lossy(bytes), lossy);
    assert_eq!(reference::decode_lossy(bytes), lossy);
    match lone {
        None => {
            assert_eq!(decode(bytes).as_deref(), Ok(lossy.as_str()));
            assert_eq!(reference::decode(bytes).as_deref(), Ok(lossy.as_str()));
        }
        Some(_) => {
            let err = decode(bytes).unwrap_err();
            assert_eq!(err.kind(), DecodeErrorKind::UnpairedSurrogate);
            assert_eq!(err.jdk_position(), None);
            assert_eq!(reference::decode(bytes), Err(err));
        }
    }
}

/// Where the first lone surrogate is reported: the start of its 3 bytes.
#[rstest]
#[case::lone_high(b"ab\xed\xa0\x80cd", 2)]
#[case::lone_low(b"ab\xed\xb0\x80", 2)]
#[case::reversed(b"\xed\xb0\x80\xed\xa0\x80", 0)]
#[case::pair_then_lone(b"\xed\xa0\xbd\xed\xb8\x80\xed\xa0\xbd", 6)]
#[case::high_high_low(b"x\xed\xa0\x80\xed\xa0\xbd\xed\xb8\x80", 1)]
fn unpaired_surrogate_position(#[case] bytes: &[u8], #[case] at: usize) {
    let err = decode(bytes).unwrap_err();
    assert_eq!(err.kind(), DecodeErrorKind::UnpairedSurrogate);
    assert_eq!(err.valid_up_to(), at);
    assert_eq!(reference::decode(bytes), Err(err));
    assert!(decode(&bytes[..at]).is_ok());
}

/// What the JDK rejects: `Some(N)` of "malformed input around byte N", `None` for "partial
/// character at end"; and `valid_up_to`, the start of the offending sequence.
#[rstest]
#[case::lead_80(b"ab\x80", Some(2), 2)]
#[case::lead_bf(b"ab\xbf", Some(2), 2)]
#[case::lead_f0_four_byte_utf8(b"ab\xf0\x9f\x98\x80", Some(2), 2)]
#[case::lead_f4(b"ab\xf4\x80\x80\x80", Some(2), 2)]
#[case::lead_f8(b"\xf8", Some(0), 0)]
#[case::lead_ff(b"ab\xff", Some(2), 2)]
#[case::lead_after_fast_path(b"abcdefghij\x80", Some(10), 10)]
#[case::two_byte_bad_continuation(b"ab\xc2\x41c", Some(4), 2)]
#[case::two_byte_c0_bad_continuation(b"\xc0\x00", Some(2), 0)]
#[case::three_byte_bad_first(b"ab\xe2\x41\x80c", Some(4), 2)]
#[case::three_byte_bad_second(b"ab\xe2\x80\x41c", Some(4), 2)]
#[case::three_byte_both_bad(b"abcdefghij\xe2\x41\x41", Some(12), 10)]
#[case::surrogate_bad_continuation(b"\xed\xa0\x80\xed\xb0\x41", Some(5), 3)]
#[case::partial_two(b"ab\xc2", None, 2)]
#[case::partial_three_one(b"ab\xe2", None, 2)]
#[case::partial_three_two(b"ab\xe2\x80", None, 2)]
#[case::partial_before_continuation_check(b"ab\xe2\x41", None, 2)]
#[case::partial_two_bad_continuation_lead_at_end(b"abcdefgh\xdf", None, 8)]
#[case::partial_after_high_surrogate(b"\xed\xa0\x80\xed\xb0", None, 3)]
#[case::malformed_after_lone_surrogate(b"\xed\xa0\x80abc\xff", Some(6), 6)]
#[case::partial_after_lone_surrogate(b"\xed\xb0\x80\xc0", None, 3)]
fn rejected(#[case] bytes: &[u8], #[case] jdk: Option<usize>, #[case] valid_up_to: usize) {
    let err: DecodeError = decode_to_utf16(bytes).unwrap_err();
    let kind = if jdk.is_some() {
        DecodeErrorKind::Malformed
    } else {
        DecodeErrorKind::Truncated
    };
    assert_eq!(err.kind(), kind);
    assert_eq!(err.jdk_position(), jdk);
    assert_eq!(err.valid_up_to(), valid_up_to);
    assert_eq!(reference::decode_to_utf16(bytes), Err(err));
    // The JDK's error comes first even when a lone surrogate precedes it.
    assert_eq!(decode(bytes), Err(err));
    assert_eq!(reference::decode(bytes), Err(err));
    // The bytes before the error are accepted.
    assert!(decode_to_utf16(&bytes[..valid_up_to]).is_ok());
    assert!(decode_lossy(bytes).contains('\u{FFFD}'));
    assert_eq!(decode_lossy(bytes), reference::decode_lossy(bytes));
}

#[rstest]
#[case::bad_lead(b"a\x80b", "a\u{FFFD}b")]
#[case::four_byte_utf8(b"\xf0\x9f\x98\x80", "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}")]
#[case::bad_second(b"\xe2\x41\x82", "\u{FFFD}A\u{FFFD}")]
#[case::bad_third(b"\xe2\x82\x41", "\u{FFFD}A")]
#[case::cut_at_end(b"a\xe2\x82", "a\u{FFFD}")]
#[case::partial_then_ascii_at_end(b"a\xe2\x41", "a\u{FFFD}A")]
#[case::lone_then_pair(b"\xed\xa0\x80\xed\xa0\xbd\xed\xb8\x80", "\u{FFFD}\u{1F600}")]
#[case::high_then_bad(b"\xed\xa0\xbd\xff\xed\xb8\x80", "\u{FFFD}\u{FFFD}\u{FFFD}")]
#[case::nul_and_overlong(b"\xc0\x80\xc1\x81\xe0\x80\x80", "\0A\0")]
fn lossy(#[case] bytes: &[u8], #[case] text: &str) {
    assert_eq!(decode_lossy(bytes), text);
    assert_eq!(reference::decode_lossy(bytes), text);
}

#[rstest]
#[case::ascii(b"hello, world")]
#[case::raw_nul(b"nul \x00 inside")]
#[case::latin(b"h\xc3\xa9llo")]
#[case::cjk(b"\xe4\xb8\xad\xe6\x96\x87")]
#[case::empty(b"")]
fn valid_utf8_is_borrowed(#[case] bytes: &[u8]) {
    assert!(matches!(decode(bytes), Ok(Cow::Borrowed(_))));
    assert!(matches!(decode_lossy(bytes), Cow::Borrowed(_)));
}

#[rstest]
#[case::nul_c0_80(b"\xc0\x80")]
#[case::overlong(b"\xe0\x81\x81")]
#[case::pair(b"\xed\xa0\xbd\xed\xb8\x80")]
fn transcoded_is_owned(#[case] bytes: &[u8]) {
    assert!(matches!(decode(bytes), Ok(Cow::Owned(_))));
}

#[test]
fn display_names_both_positions() {
    let err = decode(b"ab\xe2\x41\x80").unwrap_err();
    assert_eq!(
        err.to_string(),
        "malformed modified UTF-8 sequence at byte 2 (the JDK: malformed input around byte 4)"
    );
    let err = decode(b"ab\xe2").unwrap_err();
    assert_eq!(
        err.to_string(),
        "incomplete modified UTF-8 sequence at byte 2 \
         (the JDK: malformed input: partial character at end)"
    );
    let err = decode(b"\xed\xa0\x80").unwrap_err();
    assert_eq!(
        err.to_string(),
        "unpaired surrogate at byte 0: not representable in a str"
    );
}
