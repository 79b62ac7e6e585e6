//! A text body streamed into any `io::Write` in a JDK charset with `write!`: the bytes are
//! those `String.getBytes(charset)` gives for the whole text.
//!
//! `cargo run -p wirebytes-charset --example encoding_writer`

use std::fmt::Write as _;

use wirebytes_charset::{Charset, Replacement};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rows = [("Kaffee", 3.2), ("Crème brûlée", 6.5), ("寿司", 12.0)];
    let charset = Charset::for_java_name("windows-1252").ok_or("no windows-1252")?;
    // Any `io::Write`: a socket, a file, a `Vec`.
    let mut writer = charset.new_writer(Replacement::Jdk, Vec::new());
    let mut text = String::new();
    for (name, price) in rows {
        write!(writer, "{name};{price:.2} €\r\n")?;
        write!(text, "{name};{price:.2} €\r\n")?;
    }
    let body = writer.finish()?;
    println!("{}", body.escape_ascii());
    // The euro sign is 0x80 in windows-1252; the two kanji are not in it: '?' each.
    assert!(body.starts_with(b"Kaffee;3.20 \x80\r\nCr\xE8me br\xFBl\xE9e;6.50 \x80\r\n??;"));
    assert_eq!(body, charset.encode(&text, Replacement::Jdk));
    Ok(())
}

#[cfg(test)]
#[test]
fn runs() {
    main().unwrap();
}
