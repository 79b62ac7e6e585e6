//! The public types carry the traits a caller expects (the Rust API guidelines' C-COMMON-TRAITS,
//! C-GOOD-ERR, C-DEBUG and C-SEND-SYNC): checked at compile time, and the error's text.

use wirebytes_ascii::InvalidHeaderByte;

fn common<T: Send + Sync + Unpin + Copy + Eq + core::hash::Hash + core::fmt::Debug>() {}

#[cfg(feature = "std")]
fn error<T: std::error::Error + Send + Sync + 'static>() {}

#[test]
fn the_error_is_a_plain_value() {
    common::<InvalidHeaderByte>();
    #[cfg(feature = "std")]
    error::<InvalidHeaderByte>();
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
