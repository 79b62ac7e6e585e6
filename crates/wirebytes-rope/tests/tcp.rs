//! `ByteQueue` framing a real TCP stream on loopback: a writer thread sends random frames in
//! random write sizes; the reader pushes each read and takes frames off the front.

mod common;

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::thread;

use bytes::{Buf, Bytes, BytesMut};
use common::Rng;
use wirebytes_rope::{ByteQueue, ByteString};

/// The largest payload the writer sends.
const MAX_FRAME: usize = 3000;

/// The payloads, drawn from `seed`: mostly 0..=MAX_FRAME random bytes, some empty.
fn payloads(seed: u64, count: usize) -> Vec<Vec<u8>> {
    let mut rng = Rng::new(seed);
    (0..count)
        .map(|_| {
            let len = if rng.one_in(20) {
                0
            } else {
                rng.below(MAX_FRAME + 1)
            };
            rng.bytes(len)
        })
        .collect()
}

/// Takes every complete frame (u32 big-endian length, then the payload) off the queue.
fn decode(queue: &mut ByteQueue, frames: &mut Vec<ByteString>) {
    while let Some(len) = queue.peek_u32_be(0) {
        let len = len as usize;
        if queue.len() < 4 + len {
            break;
        }
        queue.advance(4);
        frames.push(queue.split_to(len));
    }
}

#[test]
#[cfg_attr(miri, ignore = "Miri has no TCP sockets")]
fn frames_over_loopback_arrive_intact_in_order_and_pin_nothing() {
    let count = wirebytes_testkit::scale(10_000, 1_000);
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind a loopback port");
    let addr = listener.local_addr().expect("the bound address");
    let writer = thread::spawn(move || {
        let mut wire = Vec::new();
        for p in payloads(1, count) {
            wire.extend_from_slice(&(p.len() as u32).to_be_bytes());
            wire.extend_from_slice(&p);
        }
        let mut stream = TcpStream::connect(addr).expect("connect to the reader");
        stream.set_nodelay(true).expect("TCP_NODELAY");
        let mut rng = Rng::new(2);
        let mut rest = &wire[..];
        while !rest.is_empty() {
            let n = (1 + rng.below(4000)).min(rest.len());
            stream.write_all(&rest[..n]).expect("write to the reader");
            rest = &rest[n..];
        }
        wire.len()
    });
    let (mut stream, _) = listener.accept().expect("accept the writer");

    let mut queue = ByteQueue::new();
    let mut frames = Vec::new();
    let mut reads: Vec<Bytes> = Vec::new(); // a handle on every buffer pushed
    let mut rng = Rng::new(3);
    let mut received = 0;
    loop {
        let mut buf = BytesMut::zeroed(1 + rng.below(8192));
        let n = stream.read(&mut buf).expect("read from the writer");
        if n == 0 {
            break;
        }
        received += n;
        buf.truncate(n);
        let read = buf.freeze();
        reads.push(read.clone());
        queue.push(read);
        decode(&mut queue, &mut frames);
        assert!(
            queue.len() < 4 + MAX_FRAME,
            "a complete frame was left in the queue"
        );
    }
    let sent = writer.join().expect("the writer thread");
    assert_eq!(received, sent);
    assert!(queue.is_empty(), "{} bytes left over", queue.len());
    assert_eq!(queue.fragment_count(), 0);

    let expected = payloads(1, count);
    assert_eq!(frames.len(), expected.len());
    for (i, (got, want)) in frames.iter().zip(&expected).enumerate() {
        assert!(got == want, "frame {i} differs");
    }
    assert!(
        frames.iter().any(|f| f.fragment_count() > 1),
        "no frame straddled two reads: the test lost its point"
    );
    assert!(reads.len() > 100, "only {} reads", reads.len());
    assert!(
        !reads.iter().all(Bytes::is_unique),
        "the frames share the reads"
    );
    drop(frames);
    let pinned = reads.iter().filter(|r| !r.is_unique()).count();
    assert_eq!(pinned, 0, "reads still pinned after the last frame dropped");
}
