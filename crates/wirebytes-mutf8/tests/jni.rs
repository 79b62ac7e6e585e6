//! JNI's forms: `encode_cstring`, the `cstr!` macro's compile-time encoding, `decode_cstr`.

use std::ffi::{CStr, CString};

use proptest::prelude::*;
use rstest::rstest;
use wirebytes_mutf8::{
    __cstr, DecodeErrorKind, cstr, decode, decode_cstr, encode_cstring, reference,
};

/// What the JNI forms must hold: the body `encode` writes, then one `00`.
fn with_nul(text: &str) -> Vec<u8> {
    let mut bytes = reference::encode(text);
    bytes.push(0);
    bytes
}

/// The `const fn` encoder at run time, for texts of one char (whose lengths with the
/// terminator are 2, 3, 4 or 7).
fn const_encoded(text: &str) -> Vec<u8> {
    match __cstr::len_with_nul(text) {
        2 => __cstr::encode_with_nul::<2>(text).to_vec(),
        3 => __cstr::encode_with_nul::<3>(text).to_vec(),
        4 => __cstr::encode_with_nul::<4>(text).to_vec(),
        7 => __cstr::encode_with_nul::<7>(text).to_vec(),
        n => panic!("{n} bytes for one char"),
    }
}

#[test]
fn every_char_encodes_as_the_reference_at_run_and_compile_time() {
    let mut utf8 = [0u8; 4];
    for scalar in (0..=0x10FFFF).step_by(wirebytes_testkit::scale_miri(1, 7, 150063)) {
        let Some(c) = char::from_u32(scalar) else {
            continue;
        };
        let text = c.encode_utf8(&mut utf8);
        let want = with_nul(text);
        assert_eq!(
            encode_cstring(text).as_bytes_with_nul(),
            want,
            "{scalar:#x}"
        );
        assert_eq!(const_encoded(text), want, "{scalar:#x}");
        assert_eq!(decode_cstr(&encode_cstring(text)).as_deref(), Ok(&*text));
    }
}

// In a const item: the encoding happens at compile time.
const STRING_CLASS: &CStr = cstr!("java/lang/String");
const INIT_SIGNATURE: &CStr = cstr!("(Ljava/lang/String;[BI)V");

#[rstest]
#[case::class(STRING_CLASS, "java/lang/String")]
#[case::signature(INIT_SIGNATURE, "(Ljava/lang/String;[BI)V")]
#[case::empty(cstr!(""), "")]
#[case::nul(cstr!("\0"), "\0")]
#[case::nuls(cstr!("a\0\0b"), "a\0\0b")]
#[case::two_byte(cstr!("caf\u{e9}"), "caf\u{e9}")]
#[case::three_byte(cstr!("\u{20ac}\u{ffff}"), "\u{20ac}\u{ffff}")]
#[case::supplementary(cstr!("\u{10000}x\u{1F600}\u{10FFFF}"), "\u{10000}x\u{1F600}\u{10FFFF}")]
fn the_macro_gives_what_encode_cstring_does(#[case] got: &'static CStr, #[case] text: &str) {
    assert_eq!(got.to_bytes_with_nul(), with_nul(text));
    assert_eq!(got, encode_cstring(text).as_c_str());
    assert_eq!(decode_cstr(got).as_deref(), Ok(text));
}

#[rstest]
#[case::bad_lead(c"ab\xff", DecodeErrorKind::Malformed, 2)]
#[case::bad_continuation(c"abc\xe2\x41\x82", DecodeErrorKind::Malformed, 3)]
#[case::truncated(c"x\xe2\x82", DecodeErrorKind::Truncated, 1)]
#[case::four_byte(c"\xf0\x9f\x98\x80", DecodeErrorKind::Malformed, 0)]
#[case::lone(c"ok\xed\xa0\x80", DecodeErrorKind::UnpairedSurrogate, 2)]
fn a_cstr_the_jdk_rejects_is_an_error_with_its_offset(
    #[case] s: &CStr,
    #[case] kind: DecodeErrorKind,
    #[case] at: usize,
) {
    let err = decode_cstr(s).unwrap_err();
    assert_eq!((err.kind(), err.valid_up_to()), (kind, at));
}

/// Every 1- and 2-byte string without a `00`: `decode_cstr` decodes as `decode` does.
#[test]
fn decode_cstr_is_decode_before_the_terminator() {
    for b0 in (1..=255u8).step_by(wirebytes_testkit::scale_miri(1, 1, 69)) {
        for b1 in (0..=255u8)
            .step_by(wirebytes_testkit::scale_miri(1, 1, 87))
            .map(|b| (b != 0).then_some(b))
        {
            let mut bytes = vec![b0];
            bytes.extend(b1);
            let s = CString::new(bytes.clone()).expect("no 00 byte");
            assert_eq!(decode_cstr(&s), decode(&bytes), "{bytes:02x?}");
        }
    }
}

proptest! {
    #[test]
    fn encode_cstring_is_the_body_and_a_terminator(text in any::<String>()) {
        let s = encode_cstring(&text);
        prop_assert_eq!(s.as_bytes_with_nul(), &with_nul(&text)[..]);
        let back = decode_cstr(&s);
        prop_assert_eq!(back.as_deref(), Ok(text.as_str()));
    }
}
