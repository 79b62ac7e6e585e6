//! The `cesu8` crate's JNI names, `to_java_cesu8` and `from_java_cesu8`, from this crate:
//! a swap of the import, with the JVM's own rules (see the `compat` module for where they
//! differ).
//!
//! `cargo run -p wirebytes-mutf8 --example jni_compat`

use wirebytes_mutf8::compat::{from_java_cesu8, to_java_cesu8};

fn main() -> Result<(), wirebytes_mutf8::DecodeError> {
    let text = "NUL \0 and \u{1F600}";
    let java = to_java_cesu8(text);
    println!("{text:?} -> {java:02X?}");
    assert_eq!(&java[..], b"NUL \xC0\x80 and \xED\xA0\xBD\xED\xB8\x80");
    assert_eq!(from_java_cesu8(&java)?, text);

    // ASCII without NUL is the same in both forms, and borrowed both ways.
    assert!(matches!(
        to_java_cesu8("jni"),
        std::borrow::Cow::Borrowed(_)
    ));

    // A 4-byte UTF-8 sequence is not modified UTF-8: an error saying where it starts.
    let err = from_java_cesu8("\u{1F600}".as_bytes()).unwrap_err();
    println!("refused: {err}");
    assert_eq!(err.valid_up_to(), 0);
    Ok(())
}

#[cfg(test)]
#[test]
fn runs() {
    main().unwrap();
}
