//! `writeUTF` records with tokio-util's `FramedWrite` and `FramedRead` and this crate's
//! `UtfCodec` (feature `tokio-util`): the bytes a Java `DataOutputStream` writes and a
//! `DataInputStream` reads.
//!
//! `cargo run -p wirebytes-mutf8 --features tokio-util --example utf_codec`

use futures_util::{SinkExt, StreamExt};
use tokio_util::codec::{FramedRead, FramedWrite};
use wirebytes_mutf8::UtfCodec;

const TEXTS: [&str; 4] = ["plain", "NUL \0 inside", "emoji \u{1F600}", ""];

fn main() -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread().build()?;
    runtime.block_on(async {
        let mut sink = FramedWrite::new(Vec::new(), UtfCodec::new());
        for text in TEXTS {
            sink.send(text).await?;
        }
        let wire = sink.into_inner();
        // "NUL \0 inside": a length of 13, NUL as C0 80.
        assert_eq!(&wire[7..22], b"\x00\x0DNUL \xC0\x80 inside");
        // The emoji as two 3-byte surrogates, not one 4-byte sequence.
        assert_eq!(&wire[22..36], b"\x00\x0Cemoji \xED\xA0\xBD\xED\xB8\x80");
        println!(
            "{} records in {} bytes: {wire:02X?}",
            TEXTS.len(),
            wire.len()
        );

        let records: Vec<String> = FramedRead::new(&wire[..], UtfCodec::new())
            .map(|record| record.expect("a record"))
            .collect()
            .await;
        assert_eq!(records, TEXTS);
        Ok(())
    })
}

#[cfg(test)]
#[test]
fn runs() {
    main().unwrap();
}
