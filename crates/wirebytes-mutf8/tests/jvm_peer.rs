//! `UtfCodec` and `Utf16Codec` over a real TCP socket to a real JVM: `tests/java/UtfPeer.java`
//! writes records with `DataOutputStream.writeUTF` and reads them with
//! `DataInputStream.readUTF`. Every text travels with its UTF-16 units in hex, so each side
//! checks what it read char for char. Skipped, with a message, where `java` is missing.
#![cfg(feature = "tokio-util")]

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use tokio::net::TcpListener;
use tokio_util::codec::{FramedRead, FramedWrite};
use wirebytes_mutf8::{Utf16Codec, UtfCodec};
use wirebytes_testkit::{Rng, text};

/// The JVM, killed when the test ends, passed or not.
struct Peer(Child);

impl Drop for Peer {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Whether `java` runs here.
fn java_runs() -> bool {
    Command::new("java")
        .arg("-version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success())
}

/// UTF-16 units as four hex digits each, as the peer writes them.
fn hex(units: &[u16]) -> String {
    units.iter().map(|u| format!("{u:04x}")).collect()
}

/// The units four hex digits name.
fn unhex(hex: &str) -> Vec<u16> {
    assert_eq!(hex.len() % 4, 0, "{hex}");
    (0..hex.len())
        .step_by(4)
        .map(|at| u16::from_str_radix(&hex[at..at + 4], 16).expect("hex digits"))
        .collect()
}

/// Texts for the JVM: random text with NULs (a `String` holds them), long ones among them.
fn rust_texts(rng: &mut Rng) -> Vec<String> {
    let mut texts: Vec<String> = ["", "\0", "\u{1F600}", "\u{FFFF}\u{10000}\u{10FFFF}"]
        .map(String::from)
        .into();
    for _ in 0..200 {
        let mut text = text::random_text(rng, 8);
        if rng.one_in(3) {
            text = text.replace(' ', "\0");
        }
        texts.push(text);
    }
    texts.push("é\0😀".repeat(2_000));
    texts
}

/// The next record of `records`, within a minute.
async fn next_record<S, T>(records: &mut S) -> T
where
    S: futures_util::Stream<Item = std::io::Result<T>> + Unpin,
{
    tokio::time::timeout(Duration::from_secs(60), records.next())
        .await
        .expect("a record within a minute")
        .expect("a record before the end")
        .expect("a record the codec reads")
}

#[test]
#[cfg_attr(miri, ignore = "starts a JVM")]
fn records_agree_with_a_jvm_over_tcp() {
    if !java_runs() {
        eprintln!("skipped: no `java` here to talk to");
        return;
    }
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/java/UtfPeer.java");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
        let port = listener.local_addr().expect("its address").port();
        let _peer = Peer(
            Command::new("java")
                .arg(&source)
                .arg(port.to_string())
                .arg("20261205")
                .spawn()
                .expect("java starts"),
        );
        let (socket, _) = tokio::time::timeout(Duration::from_secs(120), listener.accept())
            .await
            .expect("the JVM connects within two minutes")
            .expect("a connection");
        let (read, write) = socket.into_split();

        // From the JVM: texts a `String` holds, through `UtfCodec`...
        let mut records = FramedRead::new(read, UtfCodec::new());
        let mut next = async || next_record(&mut records).await;
        let count: usize = next().await.parse().expect("a count");
        for i in 0..count {
            let got = next().await;
            let want = String::from_utf16(&unhex(&next().await)).expect("no lone surrogate");
            assert_eq!(got, want, "text {i} from the JVM");
        }
        // ... then texts with lone surrogates, through `Utf16Codec`.
        let mut records = records.map_decoder(|_| Utf16Codec::new());
        let mut next = async || next_record(&mut records).await;
        let count: usize = String::from_utf16(&next().await)
            .expect("ASCII")
            .parse()
            .expect("a count");
        let mut lone = 0;
        for i in 0..count {
            let got = next().await;
            let want = unhex(&String::from_utf16(&next().await).expect("ASCII"));
            assert_eq!(got, want, "text {i} from the JVM");
            lone += usize::from(String::from_utf16(&got).is_err());
        }
        assert!(lone > count / 4, "{lone} of {count} with lone surrogates");

        // To the JVM: random `str`s through `UtfCodec`, then random UTF-16 (lone surrogates
        // among it) through `Utf16Codec`.
        let mut rng = Rng::new(0x1A7A_50C7);
        let texts = rust_texts(&mut rng);
        let units: Vec<Vec<u16>> = (0..200).map(|_| text::random_units(&mut rng, 60)).collect();
        let mut sink = FramedWrite::new(write, UtfCodec::new());
        sink.feed((texts.len() + units.len()).to_string())
            .await
            .expect("sent");
        for text in &texts {
            let text_units: Vec<u16> = text.encode_utf16().collect();
            sink.feed(text).await.expect("sent");
            sink.feed(hex(&text_units)).await.expect("sent");
        }
        let mut sink = sink.map_encoder(|_| Utf16Codec::new());
        for text in &units {
            sink.feed(text).await.expect("sent");
            sink.feed(hex(text).encode_utf16().collect::<Vec<u16>>())
                .await
                .expect("sent");
        }
        SinkExt::<&[u16]>::flush(&mut sink).await.expect("sent");

        let mut records = records.map_decoder(|_| UtfCodec::new());
        let reply = next_record(&mut records).await;
        assert_eq!(reply, format!("ok {}", texts.len() + units.len()));
    });
}
