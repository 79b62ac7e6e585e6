//! The public types carry the traits a caller expects (the Rust API guidelines' C-COMMON-TRAITS,
//! C-GOOD-ERR, C-DEBUG and C-SEND-SYNC): checked at compile time, and the errors' text.

use wirebytes_mutf8::{DecodeError, DecodeErrorKind, LengthError};

fn value<T: Send + Sync + Unpin + Copy + Eq + core::hash::Hash + core::fmt::Debug>() {}
fn error<T: core::error::Error + Send + Sync + 'static>() {}

#[test]
fn the_types_have_the_common_traits() {
    value::<DecodeError>();
    value::<DecodeErrorKind>();
    value::<LengthError>();
    error::<DecodeError>();
    error::<LengthError>();
    #[cfg(feature = "bytes")]
    {
        value::<wirebytes_mutf8::GetUtfError>();
        error::<wirebytes_mutf8::GetUtfError>();
    }
    #[cfg(feature = "tokio-util")]
    {
        fn codec<
            T: Default + Clone + Copy + Eq + core::hash::Hash + core::fmt::Debug + Send + Sync + Unpin,
        >() {
        }
        codec::<wirebytes_mutf8::UtfCodec>();
        codec::<wirebytes_mutf8::Utf16Codec>();
    }
}

#[test]
fn the_errors_say_what_and_where() {
    let err = wirebytes_mutf8::decode(b"ab\x80").unwrap_err();
    assert_eq!(
        (err.kind(), err.valid_up_to()),
        (DecodeErrorKind::Malformed, 2)
    );
    assert_eq!(
        err.to_string(),
        "malformed modified UTF-8 sequence at byte 2 (the JDK: malformed input around byte 2)"
    );
}
