//! The public types carry the traits a caller expects (the Rust API guidelines' C-COMMON-TRAITS,
//! C-GOOD-ERR, C-DEBUG and C-SEND-SYNC): checked at compile time, and the errors' text.

use wirebytes_charset::{
    Charset, Encoder, Replacement, UnknownCharset, Unmappable, UnmappableUtf16,
};

fn value<T: Send + Sync + Unpin + Copy + Eq + core::hash::Hash + core::fmt::Debug>() {}
fn error<T: std::error::Error + Send + Sync + 'static>() {}
fn owned<T: Send + Sync + Unpin + core::fmt::Debug>() {}

#[test]
fn the_types_have_the_common_traits() {
    value::<Charset>();
    value::<Replacement>();
    value::<Unmappable>();
    value::<UnmappableUtf16>();
    value::<UnknownCharset>();
    error::<Unmappable>();
    error::<UnknownCharset>();
    error::<UnmappableUtf16>();
    owned::<Encoder>();
}

#[test]
fn a_charset_converts_and_prints_its_name() {
    let charset: Charset = encoding_rs::SHIFT_JIS.into();
    assert_eq!(charset.to_string(), "Shift_JIS");
    assert_eq!(Charset::ISO_8859_1.to_string(), "ISO-8859-1");
    assert_eq!(charset, encoding_rs::SHIFT_JIS);
    assert_eq!(format!("{charset:?}"), "Charset(Shift_JIS)");
    let ebcdic: Charset = "cp037".parse().unwrap();
    assert_eq!(ebcdic.to_string(), "IBM037");
    // By the JDK's names, with the JDK's tables: not WHATWG's Shift_JIS, though the name is
    // the same.
    // Without the feature `jdk-multi-byte` there is no JDK Shift_JIS, and no stand-in.
    if cfg!(feature = "jdk-multi-byte") {
        let sjis: Charset = "sjis".parse().unwrap();
        assert_eq!(sjis.to_string(), "Shift_JIS");
        assert_ne!(sjis, charset);
        assert_eq!(sjis.encode("\u{2014}", Replacement::Jdk), [0x81, 0x5C]);
        assert_eq!(charset.encode("\u{2014}", Replacement::Jdk), b"?");
    } else {
        assert_eq!("sjis".parse::<Charset>(), Err(UnknownCharset));
    }
    assert_eq!("shift jis".parse::<Charset>(), Err(UnknownCharset));
    assert_eq!(UnknownCharset.to_string(), "unknown charset name");
}

#[test]
fn the_errors_say_what_and_where() {
    let err = Charset::ISO_8859_1.try_encode("ab\u{20AC}").unwrap_err();
    assert_eq!(
        err.to_string(),
        "U+20AC at byte 2 cannot be encoded in ISO-8859-1"
    );
}
