//! `ByteQueue` against a `VecDeque<u8>` model over random operation sequences, and the
//! contracts a model cannot see: vectored chunks, zero copy, fragments released at once.

mod common;

use std::collections::VecDeque;
use std::io::IoSlice;

use bytes::{Buf, Bytes};
use common::Rng;
use rstest::rstest;
use wirebytes_rope::{ByteQueue, ByteString, reference};

/// The `N` model bytes from `at`, if all there.
fn model_peek<const N: usize>(model: &VecDeque<u8>, at: usize) -> Option<[u8; N]> {
    let end = at.checked_add(N)?;
    (end <= model.len()).then(|| core::array::from_fn(|i| model[at + i]))
}

/// Takes `n` bytes off the front of the model.
fn model_take(model: &mut VecDeque<u8>, n: usize) -> Vec<u8> {
    model.drain(..n).collect()
}

/// A chunk to push: empty, one byte, or up to 40 bytes, over a three-letter alphabet so that
/// searches meet partial matches.
fn chunk(rng: &mut Rng) -> Bytes {
    let len = match rng.below(6) {
        0 => 0,
        1 | 2 => 1,
        _ => rng.below(41),
    };
    (0..len).map(|_| b'a' + rng.below(3) as u8).collect()
}

/// A length to consume: usually within the queue, sometimes one past it.
fn amount(rng: &mut Rng, len: usize) -> usize {
    match rng.below(8) {
        0 => len,
        1 => len + 1,
        2 => 0,
        _ => rng.below(len.min(50) + 1),
    }
}

/// Runs one random sequence of `ops` operations on a queue and on the model, comparing every
/// answer.
fn run_against_model(seed: u64, ops: usize) {
    let mut rng = Rng::new(seed);
    let mut q = ByteQueue::new();
    let mut model: VecDeque<u8> = VecDeque::new();
    for step in 0..ops {
        let len = model.len();
        let ctx = format!("seed {seed} step {step} len {len}");
        match rng.below(16) {
            0..=3 => {
                let c = chunk(&mut rng);
                model.extend(c.iter().copied());
                if rng.below(2) == 0 {
                    q.push(c);
                } else {
                    q.extend([Bytes::new(), c]);
                }
            }
            4 => {
                let n = amount(&mut rng, len);
                let got = q.try_split_to(n);
                if n <= len {
                    let got = got.unwrap_or_else(|| panic!("{ctx}: try_split_to({n})"));
                    assert_eq!(got, model_take(&mut model, n), "{ctx}");
                } else {
                    assert!(got.is_none(), "{ctx}");
                }
            }
            5 => {
                let n = rng.below(len + 1);
                assert_eq!(q.split_to(n), model_take(&mut model, n), "{ctx}");
            }
            6 => {
                let at = rng.below(len + 9);
                assert_eq!(
                    q.peek_u16_be(at),
                    model_peek(&model, at).map(u16::from_be_bytes),
                    "{ctx}"
                );
                assert_eq!(
                    q.peek_u32_be(at),
                    model_peek(&model, at).map(u32::from_be_bytes),
                    "{ctx}"
                );
                assert_eq!(
                    q.peek_u32_le(at),
                    model_peek(&model, at).map(u32::from_le_bytes),
                    "{ctx}"
                );
                assert_eq!(
                    q.peek_u64_be(at),
                    model_peek(&model, at).map(u64::from_be_bytes),
                    "{ctx}"
                );
                assert_eq!(q.get(at), model.get(at).copied(), "{ctx}");
            }
            7 => {
                let flat: Vec<u8> = model.iter().copied().collect();
                let needle: Vec<u8> = (0..rng.below(5))
                    .map(|_| b'a' + rng.below(3) as u8)
                    .collect();
                assert_eq!(
                    q.find(&needle),
                    reference::find_naive(&flat, &needle),
                    "{ctx} {needle:?}"
                );
                let byte = b'a' + rng.below(4) as u8;
                assert_eq!(
                    q.find_byte(byte),
                    flat.iter().position(|&b| b == byte),
                    "{ctx}"
                );
                let from = rng.below(len + 3);
                let after = |p: Option<usize>| p.map(|p| from + p);
                let rest = flat.get(from..);
                assert_eq!(
                    q.find_from(&needle, from),
                    rest.and_then(|r| after(reference::find_naive(r, &needle))),
                    "{ctx} {needle:?} from {from}"
                );
                assert_eq!(
                    q.find_byte_from(byte, from),
                    rest.and_then(|r| after(r.iter().position(|&b| b == byte))),
                    "{ctx} from {from}"
                );
            }
            8 => {
                let n = amount(&mut rng, len).min(len);
                q.advance(n);
                model.drain(..n);
            }
            9 => {
                let n = amount(&mut rng, len).min(len);
                assert_eq!(q.copy_to_bytes(n), model_take(&mut model, n), "{ctx}");
            }
            10 => {
                let n = amount(&mut rng, len).min(len);
                let mut dst = vec![0; n];
                q.copy_to_slice(&mut dst);
                assert_eq!(dst, model_take(&mut model, n), "{ctx}");
            }
            11 => match rng.below(4) {
                0 if len >= 1 => assert_eq!(q.get_u8(), model_take(&mut model, 1)[0], "{ctx}"),
                1 if len >= 2 => {
                    let v = model_take(&mut model, 2);
                    assert_eq!(q.get_u16(), u16::from_be_bytes([v[0], v[1]]), "{ctx}");
                }
                2 if len >= 4 => {
                    let v = model_take(&mut model, 4);
                    assert_eq!(
                        q.get_u32_le(),
                        u32::from_le_bytes(v.try_into().unwrap()),
                        "{ctx}"
                    );
                }
                3 if len >= 8 => {
                    let v = model_take(&mut model, 8);
                    assert_eq!(
                        q.get_u64(),
                        u64::from_be_bytes(v.try_into().unwrap()),
                        "{ctx}"
                    );
                }
                _ => assert!(q.try_get_u64().is_err() || len >= 8, "{ctx}"),
            },
            12 => {
                let mut slices = [IoSlice::new(&[]); 4];
                let n = q.chunks_vectored(&mut slices);
                let joined: Vec<u8> = slices[..n].iter().flat_map(|s| s.iter().copied()).collect();
                let flat: Vec<u8> = model.iter().copied().collect();
                assert!(flat.starts_with(&joined), "{ctx}");
                assert_eq!(n, q.fragment_count().min(4), "{ctx}");
                if q.fragment_count() <= 4 {
                    assert_eq!(joined, flat, "{ctx}");
                }
            }
            13 => {
                let flat: Vec<u8> = model.iter().copied().collect();
                assert_eq!(q.to_byte_string(), flat, "{ctx}");
                assert_eq!(
                    format!("{q:?}"),
                    format!("ByteQueue({:?})", Bytes::from(flat)),
                    "{ctx}"
                );
            }
            14 => {
                let chunk = q.chunk();
                assert_eq!(chunk.is_empty(), len == 0, "{ctx}");
                assert!(model.iter().take(chunk.len()).eq(chunk.iter()), "{ctx}");
            }
            _ => {
                let other: ByteQueue = ByteString::from(model.iter().copied().collect::<Vec<u8>>())
                    .fragments()
                    .cloned()
                    .collect();
                assert_eq!(q, other, "{ctx}");
                assert!(q.chunks().all(|c| !c.is_empty()), "{ctx}");
            }
        }
        assert_eq!(q.len(), model.len(), "{ctx}");
        assert_eq!(q.remaining(), model.len(), "{ctx}");
        assert_eq!(q.is_empty(), model.is_empty(), "{ctx}");
        let flat: Vec<u8> = model.iter().copied().collect();
        assert_eq!(q, flat[..], "{ctx}");
    }
}

#[test]
fn random_sequences_match_a_vecdeque_model() {
    let sequences = wirebytes_testkit::scale_miri(3000, 200, 2) as u64;
    for seed in 0..sequences {
        run_against_model(seed, 150);
    }
}

#[rstest]
#[case::none(0)]
#[case::one(1)]
#[case::two(2)]
#[case::many(64)]
fn chunks_vectored_fills_as_many_slices_as_given(#[case] slots: usize) {
    let content: Vec<u8> = (0..=255).collect();
    let mut rng = Rng::new(slots as u64);
    for max in [1, 7, 300] {
        let mut q: ByteQueue = common::split_random(&content, &mut rng, max)
            .into_iter()
            .collect();
        q.advance(3); // the first slice starts inside a fragment
        let mut dst = vec![IoSlice::new(b"stale"); slots];
        let n = q.chunks_vectored(&mut dst);
        assert_eq!(n, slots.min(q.fragment_count()));
        let joined: Vec<u8> = dst[..n].iter().flat_map(|s| s.iter().copied()).collect();
        assert!(dst[..n].iter().all(|s| !s.is_empty()));
        if slots >= q.fragment_count() {
            assert_eq!(joined, &content[3..], "all the remaining bytes, in order");
        } else {
            assert!(content[3..].starts_with(&joined));
            let expected: usize = q.chunks().take(slots).map(<[u8]>::len).sum();
            assert_eq!(joined.len(), expected);
        }
    }
    let empty = ByteQueue::new();
    let mut dst = vec![IoSlice::new(&[]); slots];
    assert_eq!(empty.chunks_vectored(&mut dst), 0);
}

#[test]
fn split_and_copy_within_a_fragment_share_it() {
    let chunk = Bytes::from(vec![7u8; 100]);
    let mut q = ByteQueue::new();
    q.push(chunk.clone());
    let frame = q.split_to(10);
    let copied = q.copy_to_bytes(10);
    let base = chunk.as_ptr();
    assert_eq!(frame.chunks().next().map(<[u8]>::as_ptr), Some(base));
    assert_eq!(copied.as_ptr(), base.wrapping_add(10));
    // A fragment taken whole is the same bytes too.
    let rest = q.copy_to_bytes(80);
    assert_eq!(rest.as_ptr(), base.wrapping_add(20));
}

#[test]
fn consumed_fragments_are_released_at_once() {
    let chunks: Vec<Bytes> = (0..4u8).map(|i| Bytes::from(vec![i; 10])).collect();
    let mut q: ByteQueue = chunks.iter().cloned().collect();
    let frame = q.split_to(15);
    // Fragment 0 is held by the frame alone; fragment 1 by the frame and the queue.
    drop(frame);
    assert!(chunks[0].is_unique(), "a consumed fragment stays pinned");
    assert!(!chunks[1].is_unique());
    q.advance(5);
    assert!(
        chunks[1].is_unique(),
        "advance past a fragment must release it"
    );
    let _ = q.get_u64();
    let _ = q.get_u16();
    assert!(
        chunks[2].is_unique(),
        "a read that finishes a fragment must release it"
    );
    let _ = q.copy_to_bytes(10);
    assert!(chunks.iter().all(Bytes::is_unique));
    assert_eq!(q.fragment_count(), 0);
}

#[test]
fn zero_length_push_is_a_no_op() {
    let mut q = ByteQueue::new();
    q.push(Bytes::new());
    assert_eq!((q.len(), q.fragment_count()), (0, 0));
    q.push(Bytes::from_static(b"a"));
    q.push(Bytes::new());
    assert_eq!((q.len(), q.fragment_count()), (1, 1));
    assert_eq!(q.split_to(0), ByteString::new());
    assert_eq!(q.len(), 1);
}

#[test]
fn peek_past_the_end_is_none() {
    let q: ByteQueue = [Bytes::from_static(b"abc")].into_iter().collect();
    assert_eq!(q.peek_u16_be(2), None);
    assert_eq!(q.peek_u32_be(usize::MAX), None);
    assert_eq!(q.peek_u64_be(0), None);
    assert_eq!(q.get(3), None);
    assert_eq!(ByteQueue::new().peek_u16_be(0), None);
}

#[test]
#[should_panic(expected = "ByteQueue::split_to: 4 bytes requested, 3 in the queue")]
fn split_to_past_the_end_panics() {
    let mut q: ByteQueue = [Bytes::from_static(b"abc")].into_iter().collect();
    let _ = q.split_to(4);
}

#[test]
fn find_matches_across_fragment_boundaries() {
    let content = b"GET / HTTP/1.1\r\nHost: x\r\n\r\nbody".to_vec();
    for max in 1..=8 {
        let q: ByteQueue = common::split_random(&content, &mut Rng::new(max as u64), max)
            .into_iter()
            .collect();
        for needle in [&b"\r\n\r\n"[..], b"Host", b"\r\nb", b"y", b"nope", b""] {
            assert_eq!(
                q.find(needle),
                reference::find_naive(&content, needle),
                "{needle:?}"
            );
        }
    }
}

/// `view(n)` reads the first `n` bytes through `Buf` whatever the fragments (every getter,
/// `chunk`, `advance` across boundaries, `to_vec`), consumes nothing, and is `None` past the
/// end.
#[test]
fn a_view_reads_the_first_bytes_without_consuming() {
    let mut rng = wirebytes_testkit::Rng::new(0x71E3);
    for _ in 0..wirebytes_testkit::scale_miri(500, 500, 20) {
        let len = rng.below(200);
        let content = rng.bytes(len);
        let queue: ByteQueue = wirebytes_testkit::fragments::split(&mut rng, &content, 8)
            .into_iter()
            .map(Bytes::copy_from_slice)
            .collect();
        let n = rng.below(content.len() + 1);
        assert!(queue.view(content.len() + 1).is_none());
        let mut view = queue.view(n).expect("n <= len");
        assert_eq!((view.len(), view.remaining()), (n, n));
        assert_eq!(view.to_vec(), &content[..n]);
        // Mixed reads, as a parser makes them.
        let mut flat = &content[..n];
        while view.has_remaining() {
            assert!(!view.is_empty());
            let chunk = view.chunk();
            assert!(!chunk.is_empty() && chunk.len() <= view.remaining());
            assert_eq!(chunk, &flat[..chunk.len()]);
            match rng.below(4) {
                0 if view.remaining() >= 4 => assert_eq!(view.get_u32_le(), flat.get_u32_le()),
                1 if view.remaining() >= 8 => assert_eq!(view.get_u64(), flat.get_u64()),
                _ => {
                    let k = rng.below(view.remaining() + 1);
                    view.advance(k);
                    flat.advance(k);
                }
            }
            assert_eq!(view.remaining(), flat.len());
        }
        assert!(view.is_empty() && view.chunk().is_empty());
        assert_eq!(queue, content[..], "the queue is as it was");
    }
}

#[test]
#[should_panic(expected = "advance past the end of the view")]
fn a_view_does_not_advance_past_its_end() {
    let queue: ByteQueue = [Bytes::from_static(b"abc")].into_iter().collect();
    queue.view(2).expect("2 <= 3").advance(3);
}
