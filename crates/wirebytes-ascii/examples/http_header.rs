//! An HTTP/1.1 response head rendered line by line, each line checked for bytes that would
//! split it as it is written, and an `http::HeaderValue` checked once (feature `http`).
//!
//! `cargo run -p wirebytes-ascii --features http --example http_header`

use wirebytes_ascii::{InvalidHeader, header_value, render_header, render_status_line};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut head = Vec::new();
    render_status_line(200, "OK", &mut head)?;
    // Each char written as its low 8 bits: Latin-1 text as its Latin-1 bytes.
    render_header(
        "Content-Disposition",
        "attachment; filename=\"Grüße.txt\"",
        &mut head,
    )?;
    render_header("Content-Length", "42", &mut head)?;
    head.extend_from_slice(b"\r\n");
    println!("{}", head.escape_ascii());
    assert_eq!(
        head,
        b"HTTP/1.1 200 OK\r\n\
          Content-Disposition: attachment; filename=\"Gr\xFC\xDFe.txt\"\r\n\
          Content-Length: 42\r\n\r\n"
    );

    // A value that would end its line early is refused, and nothing is written.
    let before = head.len();
    let err = render_header("X-Name", "a\r\nSet-Cookie: stolen=1", &mut head).unwrap_err();
    println!("refused: {err}");
    assert!(matches!(err, InvalidHeader::Value(e) if e.offset() == 1));
    assert_eq!(head.len(), before);

    // For the http crate: a HeaderValue, validated in the same pass that renders it.
    let value = header_value("Grüße")?;
    assert_eq!(value.as_bytes(), b"Gr\xFC\xDFe");
    Ok(())
}

#[cfg(test)]
#[test]
fn runs() {
    main().unwrap();
}
