//! Length-prefixed frames over TCP loopback with `FrameReader` (feature `tokio`): a thread
//! writes frames of many sizes; each arrives as a `ByteString` that shares the reads it
//! spans, none copied.
//!
//! `cargo run -p wirebytes-rope --features tokio --example frame_reader`

use std::io::{self, Write};

use futures_util::StreamExt;
use wirebytes_rope::{ByteString, FrameReader, LengthDelimited};

/// The frames' sizes: empty, tiny, one TCP segment, several 16 KiB reads.
const SIZES: [usize; 6] = [0, 1, 100, 1448, 70_000, 5];

fn main() -> io::Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .build()?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        let writer = std::thread::spawn(move || -> io::Result<()> {
            let mut socket = std::net::TcpStream::connect(addr)?;
            for (i, &len) in SIZES.iter().enumerate() {
                socket.write_all(&(len as u32).to_be_bytes())?;
                socket.write_all(&vec![i as u8; len])?;
            }
            Ok(())
        });
        let (socket, _) = listener.accept().await?;
        let framing = LengthDelimited::new().max_frame_len(1 << 20);
        let mut frames = FrameReader::length_delimited(socket, framing);
        let mut count = 0;
        while let Some(frame) = frames.next().await {
            let frame: ByteString = frame?;
            assert_eq!(frame.len(), SIZES[count]);
            assert!(frame.iter().all(|b| b == count as u8));
            println!(
                "frame {count}: {} bytes in {} fragment(s)",
                frame.len(),
                frame.fragment_count()
            );
            count += 1;
        }
        assert_eq!(count, SIZES.len());
        writer.join().expect("the writer thread")
    })
}

#[cfg(test)]
#[test]
fn runs() {
    main().unwrap();
}
