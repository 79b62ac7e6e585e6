//! The public types carry the traits a caller expects (the Rust API guidelines' C-COMMON-TRAITS,
//! C-GOOD-ERR, C-DEBUG and C-SEND-SYNC): checked at compile time, and the error's text.

use wirebytes_ascii::{InvalidHeader, InvalidHeaderByte};

fn common<T: Send + Sync + Unpin + Copy + Eq + core::hash::Hash + core::fmt::Debug>() {}

#[cfg(feature = "std")]
fn error<T: std::error::Error + Send + Sync + 'static>() {}

#[test]
fn the_error_is_a_plain_value() {
    common::<InvalidHeaderByte>();
    common::<InvalidHeader>();
    #[cfg(feature = "std")]
    error::<InvalidHeaderByte>();
    #[cfg(feature = "std")]
    error::<InvalidHeader>();
}

#[cfg(feature = "alloc")]
#[test]
fn the_error_says_where_and_what() {
    let mut dst = Vec::new();
    let err = wirebytes_ascii::render_header_value("a\u{10D}", &mut dst).unwrap_err();
    assert_eq!(
        err.to_string(),
        "byte 0x0D at offset 1 is not allowed in a header value"
    );
}

#[cfg(feature = "alloc")]
#[test]
fn the_line_error_says_which_part_where_and_what() {
    use core::error::Error as _;
    let mut dst = Vec::new();
    let err = wirebytes_ascii::render_header("X-\u{E9}", "v", &mut dst).unwrap_err();
    assert_eq!(
        err.to_string(),
        "byte 0xC3 at offset 2 is not allowed in a header name"
    );
    assert!(err.source().is_none());
    let err = wirebytes_ascii::render_header("X", "a\u{10D}", &mut dst).unwrap_err();
    assert_eq!(
        err.to_string(),
        "byte 0x0D at offset 1 is not allowed in a header value"
    );
    let inner = err.source().expect("the value's error");
    assert_eq!(inner.to_string(), err.to_string());
    assert_eq!(
        wirebytes_ascii::render_status_line(1000, "", &mut dst)
            .unwrap_err()
            .to_string(),
        "status code 1000 is not three digits (100..=999)"
    );
    let value = wirebytes_ascii::render_header_value("\u{7F}", &mut dst).unwrap_err();
    assert_eq!(InvalidHeader::from(value), InvalidHeader::Value(value));
}
