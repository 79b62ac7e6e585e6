//! `ByteStringBuilder` as a `BufMut`: written through `chunk_mut` and `advance_mut` (what
//! codecs do), through the trait's own `put(impl Buf)` (which copies chunk by chunk through
//! them), and `remaining_mut` counting every byte the builder holds.

mod common;

use bytes::buf::Buf;
use bytes::{BufMut, Bytes};
use common::Rng;
use wirebytes_rope::{ByteString, ByteStringBuilder};
use wirebytes_testkit::buf::OneByteChunks;

/// Writes `bytes` through `chunk_mut` / `advance_mut`, at most `step` bytes per chunk, and
/// checks the chunk offered each time.
fn write_through_chunks(b: &mut ByteStringBuilder, mut bytes: &[u8], step: usize) {
    while !bytes.is_empty() {
        let len_before = b.len();
        let chunk = b.chunk_mut();
        assert!(chunk.len() > 0, "a growing builder offers room");
        let n = chunk.len().min(step).min(bytes.len());
        chunk[..n].copy_from_slice(&bytes[..n]);
        // SAFETY: the first `n` bytes of the chunk were just written.
        unsafe { b.advance_mut(n) };
        assert_eq!(b.len(), len_before + n);
        assert_eq!(b.remaining_mut(), usize::MAX - b.len());
        bytes = &bytes[n..];
    }
}

#[test]
fn chunk_mut_and_advance_mut_between_fragments() {
    let mut rng = Rng::new(0xB17D);
    for round in 0..wirebytes_testkit::scale_miri(300, 300, 12) {
        let mut b = ByteStringBuilder::with_capacity(rng.below(40));
        let mut model = Vec::new();
        for _ in 0..rng.below(8) {
            let len = rng.below(200);
            let part = rng.bytes(len);
            match rng.below(3) {
                // A fragment (kept as it is from 64 bytes on), then writes after it.
                0 => b.push(Bytes::from(part.clone())),
                1 => b.extend_from_slice(&part),
                _ => {
                    let step = 1 + rng.below(70);
                    write_through_chunks(&mut b, &part, step);
                }
            }
            model.extend_from_slice(&part);
            assert_eq!(b.len(), model.len(), "round {round}");
            assert_eq!(b.remaining_mut(), usize::MAX - model.len());
        }
        assert_eq!(b.build(), model, "round {round}");
    }
}

#[test]
fn advance_mut_by_zero_and_a_partly_written_chunk() {
    let mut b = ByteStringBuilder::new();
    b.push(Bytes::from(vec![b'f'; 100]));
    let chunk = b.chunk_mut();
    let room = chunk.len();
    assert!(room > 0);
    chunk[..2].copy_from_slice(b"xy");
    // SAFETY: nothing is taken as written.
    unsafe { b.advance_mut(0) };
    assert_eq!(b.len(), 100);
    let chunk = b.chunk_mut();
    chunk[..3].copy_from_slice(b"abc");
    // SAFETY: the first 3 bytes of the chunk were just written.
    unsafe { b.advance_mut(3) };
    let mut want = vec![b'f'; 100];
    want.extend_from_slice(b"abc");
    assert_eq!(b.build(), want);
}

/// One way of putting the test's bytes into a builder.
type Put<'a> = dyn Fn(&mut ByteStringBuilder) + 'a;

#[test]
fn put_copies_any_buf_through_the_chunks() {
    let mut rng = Rng::new(0x9077);
    let parts: Vec<Vec<u8>> = (0..6).map(|i| rng.bytes(i * 37 + 1)).collect();
    let flat: Vec<u8> = parts.concat();
    let rope: ByteString = parts.iter().map(|p| Bytes::from(p.clone())).collect();
    for before in [0, 5, 64, 150] {
        let head = rng.bytes(before);
        let mut want = head.clone();
        want.extend_from_slice(&flat);
        // A rope's reader, a chain of `Bytes`, a slice, and one byte per chunk.
        let sources: Vec<(&str, Box<Put<'_>>)> = vec![
            ("reader", Box::new(|b| b.put(rope.reader()))),
            (
                "chain",
                Box::new(|b| {
                    b.put(Bytes::from(parts[0].clone()).chain(Bytes::from(parts[1..].concat())))
                }),
            ),
            ("slice", Box::new(|b| b.put(&flat[..]))),
            (
                "one byte per chunk",
                Box::new(|b| b.put(OneByteChunks::new(&flat))),
            ),
        ];
        for (name, put) in &sources {
            let mut b = ByteStringBuilder::new();
            b.push(Bytes::from(head.clone()));
            put(&mut b);
            assert_eq!(b.len(), want.len(), "{name} after {before}");
            assert_eq!(b.remaining_mut(), usize::MAX - want.len());
            assert_eq!(b.build(), want, "{name} after {before}");
        }
    }
}

#[test]
fn remaining_mut_counts_the_fragments_too() {
    let mut b = ByteStringBuilder::new();
    assert_eq!(b.remaining_mut(), usize::MAX);
    b.push(Bytes::from(vec![0u8; 1000]));
    b.put_u8(1);
    assert_eq!(b.len(), 1001);
    assert_eq!(b.remaining_mut(), usize::MAX - 1001);
    assert!(b.has_remaining_mut());
}

/// `with_capacity` reserves what it is asked for: the first chunk holds at least that much.
#[test]
fn with_capacity_reserves_the_first_chunk() {
    for capacity in [1000, 5000] {
        let mut b = ByteStringBuilder::with_capacity(capacity);
        assert!(b.chunk_mut().len() >= capacity, "{capacity}");
    }
}

/// A builder is empty until something is put in it.
#[test]
fn a_builder_is_empty_until_written() {
    let mut builder = ByteStringBuilder::new();
    assert!(builder.is_empty());
    builder.put_u8(b'a');
    assert!(!builder.is_empty());
    assert_eq!(builder.len(), 1);
}
