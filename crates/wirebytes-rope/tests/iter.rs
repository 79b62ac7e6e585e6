//! The named iterators against the flat bytes, over every representation and fragmentations
//! with empty fragments: `Iter` (`ByteString::iter` and `&ByteString`'s `IntoIterator`),
//! `Chunks` and `Fragments` of a `ByteString` and of a `ByteQueue`.

mod common;

use core::fmt::Debug;
use core::iter::FusedIterator;

use bytes::{Buf, Bytes};
use common::{Rng, SIZES, shapes, split_random};
use rstest::rstest;
use wirebytes_rope::{ByteQueue, ByteString, Chunks, Fragments, Iter};

/// What every iterator of the crate is: the traits are part of the contract.
fn contract<I: DoubleEndedIterator + ExactSizeIterator + FusedIterator + Clone + Debug>(_: &I) {}

/// `flat` as fragments (empty ones between), cut at random points.
fn fragments_with_empty(flat: &[u8], rng: &mut Rng) -> Vec<Bytes> {
    let max = *rng.pick(&[1, 2, 5, 40, 1000]);
    let mut out = vec![Bytes::new()];
    for b in split_random(flat, rng, max) {
        out.push(b);
        if rng.one_in(2) {
            out.push(Bytes::new());
        }
    }
    out
}

/// Every representation of `flat` from `shapes`, and two more fragmentations that had
/// empty fragments.
fn strings(flat: &[u8], seed: u64) -> Vec<(&'static str, ByteString)> {
    let mut rng = Rng::new(seed ^ 0x17e5);
    let mut all = shapes(flat, seed);
    for _ in 0..2 {
        all.push((
            "collected-with-empty",
            fragments_with_empty(flat, &mut rng).into_iter().collect(),
        ));
    }
    all
}

/// Reads `it` to its end from both ends in the order `rng` draws, checking each byte and
/// the length left against `flat`, then that it stays at its end.
fn drain_from_both_ends(mut it: Iter<'_>, flat: &[u8], rng: &mut Rng, ctx: &str) {
    let (mut front, mut back) = (0, flat.len());
    assert_eq!(it.size_hint(), (back, Some(back)), "{ctx}");
    while front < back {
        if rng.one_in(2) {
            assert_eq!(it.next(), Some(flat[front]), "{ctx}: next at {front}");
            front += 1;
        } else {
            back -= 1;
            assert_eq!(
                it.next_back(),
                Some(flat[back]),
                "{ctx}: next_back at {back}"
            );
        }
        assert_eq!(it.len(), back - front, "{ctx}");
        assert_eq!(it.size_hint(), (back - front, Some(back - front)), "{ctx}");
    }
    for _ in 0..3 {
        assert_eq!(
            (it.next(), it.next_back(), it.len()),
            (None, None, 0),
            "{ctx}"
        );
    }
}

#[rstest]
fn iter_gives_the_bytes_from_either_end(#[values(1, 2, 3)] seed: u64) {
    for &n in SIZES {
        let flat = Rng::new(seed * 7 + n as u64).bytes(n);
        let reversed: Vec<u8> = flat.iter().rev().copied().collect();
        for (name, s) in strings(&flat, seed * 1000 + n as u64) {
            let ctx = format!("{name}, {n} bytes");
            let it: Iter<'_> = s.iter();
            contract(&it);
            assert_eq!(it.len(), n, "{ctx}");
            assert_eq!(s.iter().collect::<Vec<u8>>(), flat, "{ctx}");
            assert_eq!(s.iter().rev().collect::<Vec<u8>>(), reversed, "{ctx}");
            // `&ByteString` yields the same bytes, in a `for` loop too.
            let into: Iter<'_> = (&s).into_iter();
            assert_eq!(into.collect::<Vec<u8>>(), flat, "{ctx}");
            let mut seen = Vec::new();
            for byte in &s {
                seen.push(byte);
            }
            assert_eq!(seen, flat, "{ctx}");
            // The slice loops of `fold` and `rfold`, and what is built on them.
            let sum = |acc: u64, b: u8| acc.wrapping_mul(31).wrapping_add(u64::from(b));
            assert_eq!(
                s.iter().fold(0, sum),
                flat.iter().copied().fold(0, sum),
                "{ctx}"
            );
            assert_eq!(
                s.iter().rfold(0, sum),
                flat.iter().copied().rfold(0, sum),
                "{ctx}"
            );
            assert_eq!(s.iter().count(), n, "{ctx}");
            assert_eq!(s.iter().last(), flat.last().copied(), "{ctx}");
            let mut rng = Rng::new(seed + n as u64);
            for k in 0..4 {
                drain_from_both_ends(s.iter(), &flat, &mut rng, &format!("{ctx}, run {k}"));
            }
            // Partly read, then folded or cloned: the rest, from both ends.
            if n >= 2 {
                let a = rng.below(n / 2 + 1);
                let b = rng.below(n / 2 + 1);
                let mut it = s.iter();
                for _ in 0..a {
                    it.next();
                }
                for _ in 0..b {
                    it.next_back();
                }
                let rest = &flat[a..n - b];
                assert_eq!(it.clone().collect::<Vec<u8>>(), rest, "{ctx} [{a}..-{b}]");
                assert_eq!(
                    it.clone().rev().collect::<Vec<u8>>(),
                    rest.iter().rev().copied().collect::<Vec<u8>>(),
                    "{ctx} [{a}..-{b}] rev"
                );
                assert_eq!(
                    it.clone().fold(0, sum),
                    rest.iter().copied().fold(0, sum),
                    "{ctx}"
                );
                assert_eq!(
                    it.clone().rfold(0, sum),
                    rest.iter().copied().rfold(0, sum),
                    "{ctx}"
                );
                assert_eq!(it.len(), rest.len(), "{ctx}");
            }
        }
    }
}

/// Checks `chunks` and `fragments` of one string or queue against `flat`: the chunks
/// concatenated are the content, none is empty, the two iterators walk the same buffers,
/// from both ends, their lengths counting down, and stay at their end.
fn check_fragment_iterators(chunks: Chunks<'_>, fragments: Fragments<'_>, flat: &[u8], ctx: &str) {
    contract(&chunks);
    contract(&fragments);
    let all: Vec<&[u8]> = chunks.clone().collect();
    assert_eq!(all.concat(), flat, "{ctx}");
    assert!(all.iter().all(|c| !c.is_empty()), "{ctx}: an empty chunk");
    assert_eq!(chunks.len(), all.len(), "{ctx}");
    assert_eq!(fragments.len(), all.len(), "{ctx}");
    for (c, f) in chunks.clone().zip(fragments.clone()) {
        assert_eq!((c.as_ptr(), c.len()), (f.as_ptr(), f.len()), "{ctx}");
    }
    let mut backwards: Vec<&[u8]> = chunks.clone().rev().collect();
    backwards.reverse();
    assert_eq!(backwards, all, "{ctx}");
    let (mut c, mut f) = (chunks, fragments);
    let (mut front, mut back) = (0, all.len());
    while front < back {
        if (front + back) % 3 == 0 {
            assert_eq!(c.next(), Some(all[front]), "{ctx}");
            assert_eq!(f.next().map(|b| &b[..]), Some(all[front]), "{ctx}");
            front += 1;
        } else {
            back -= 1;
            assert_eq!(c.next_back(), Some(all[back]), "{ctx}");
            assert_eq!(f.next_back().map(|b| &b[..]), Some(all[back]), "{ctx}");
        }
        assert_eq!((c.len(), f.len()), (back - front, back - front), "{ctx}");
        let left = (back - front, Some(back - front));
        assert_eq!((c.size_hint(), f.size_hint()), (left, left), "{ctx}");
    }
    for _ in 0..3 {
        assert_eq!((c.next(), c.next_back()), (None, None), "{ctx}");
        assert_eq!((f.next(), f.next_back()), (None, None), "{ctx}");
    }
}

#[rstest]
fn chunks_and_fragments_of_a_string(#[values(4, 5)] seed: u64) {
    for &n in SIZES {
        let flat = Rng::new(seed * 11 + n as u64).bytes(n);
        for (name, s) in strings(&flat, seed * 1000 + n as u64) {
            let ctx = format!("{name}, {n} bytes");
            check_fragment_iterators(s.chunks(), s.fragments(), &flat, &ctx);
            assert_eq!(s.chunks().len(), s.fragment_count(), "{ctx}");
        }
    }
}

#[rstest]
fn chunks_and_fragments_of_a_queue(#[values(6, 7)] seed: u64) {
    let mut rng = Rng::new(seed);
    for &n in SIZES {
        let flat = rng.bytes(n);
        for _ in 0..3 {
            // The reads, empty ones among them (the queue drops those).
            let reads = fragments_with_empty(&flat, &mut rng);
            let mut queue = ByteQueue::new();
            for read in &reads {
                queue.push(read.clone());
            }
            let ctx = format!("{n} bytes in {} reads", reads.len());
            check_fragment_iterators(queue.chunks(), queue.fragments(), &flat, &ctx);
            assert_eq!(queue.chunks().len(), queue.fragment_count(), "{ctx}");
            // The pushed buffers themselves, not copies.
            let pushed: Vec<&Bytes> = reads.iter().filter(|b| !b.is_empty()).collect();
            assert!(
                queue
                    .fragments()
                    .zip(&pushed)
                    .all(|(f, p)| f.as_ptr() == p.as_ptr() && f.len() == p.len()),
                "{ctx}"
            );
            // Consumed from the front: the first fragment cut, finished ones gone.
            let mut consumed = 0;
            while consumed < n {
                let k = 1 + rng.below((n - consumed).min(70));
                if rng.one_in(2) {
                    queue.advance(k);
                } else {
                    let _ = queue.split_to(k);
                }
                consumed += k;
                let ctx = format!("{ctx}, {consumed} consumed");
                check_fragment_iterators(
                    queue.chunks(),
                    queue.fragments(),
                    &flat[consumed..],
                    &ctx,
                );
                assert_eq!(queue.chunks().len(), queue.fragment_count(), "{ctx}");
            }
            assert_eq!(queue.chunks().len(), 0);
        }
    }
}
