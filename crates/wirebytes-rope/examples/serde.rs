//! A `ByteString` field of a serde struct (feature `serde`), through JSON and postcard.
//!
//! `cargo run -p wirebytes-rope --features serde --example serde`

use serde::{Deserialize, Serialize};
use wirebytes_rope::ByteString;

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Message {
    id: u32,
    body: ByteString,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Two fragments: serialised as the 12 bytes they hold together.
    let body = ByteString::from_static(b"hello, ").concat(&ByteString::from_static(b"world"));
    let message = Message { id: 7, body };

    let json = serde_json::to_string(&message)?;
    println!("JSON: {json}");
    assert_eq!(
        json,
        r#"{"id":7,"body":[104,101,108,108,111,44,32,119,111,114,108,100]}"#
    );
    assert_eq!(serde_json::from_str::<Message>(&json)?, message);

    let compact = postcard::to_allocvec(&message)?;
    println!("postcard: {compact:02X?}");
    // The id, the body's length, its bytes.
    assert_eq!(compact, b"\x07\x0Chello, world");
    assert_eq!(postcard::from_bytes::<Message>(&compact)?, message);
    Ok(())
}

#[cfg(test)]
#[test]
fn runs() {
    main().unwrap();
}
