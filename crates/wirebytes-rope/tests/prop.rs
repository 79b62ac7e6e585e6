//! Property tests: every operation on a randomly fragmented rope equals the same operation on
//! the flat bytes.

use std::hash::{BuildHasher, Hash, Hasher};

use bytes::{Buf, Bytes};
use proptest::prelude::*;
use wirebytes_rope::{ByteQueue, ByteString, reference};

fn rope(parts: &[Vec<u8>]) -> ByteString {
    parts.iter().map(|p| Bytes::copy_from_slice(p)).collect()
}

fn flat(parts: &[Vec<u8>]) -> Vec<u8> {
    parts.concat()
}

/// Fragments over a three-letter alphabet (so searches and comparisons meet partial matches).
fn parts() -> impl Strategy<Value = Vec<Vec<u8>>> {
    prop::collection::vec(prop::collection::vec(b'a'..=b'c', 0..24), 0..12)
}

/// `a == b` and `b == a`.
fn both_ways<A: PartialEq<B>, B: PartialEq<A> + ?Sized>(a: &A, b: &B) -> bool {
    PartialEq::eq(a, b) && PartialEq::eq(b, a)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(wirebytes_testkit::scale_miri(2000, 2000, 2) as u32))]

    #[test]
    fn get_slice_find(p in parts(), a in 0usize..300, b in 0usize..300, needle in prop::collection::vec(b'a'..=b'c', 0..6)) {
        let (s, f) = (rope(&p), flat(&p));
        prop_assert_eq!(s.len(), f.len());
        prop_assert_eq!(s.get(a), f.get(a).copied());
        prop_assert_eq!(s.get(b), f.get(b).copied());
        prop_assert_eq!(s.try_slice(a..b).map(|x| x.to_vec()), f.get(a..b).map(<[u8]>::to_vec));
        prop_assert_eq!(s.find(&needle), reference::find_naive(&f, &needle));
        prop_assert_eq!(s.rfind(&needle), reference::rfind_naive(&f, &needle));
        prop_assert_eq!(
            s.find_from(&needle, a),
            f.get(a..).and_then(|rest| reference::find_naive(rest, &needle)).map(|p| p + a)
        );
        prop_assert_eq!(s.starts_with(&needle), f.starts_with(&needle));
        prop_assert_eq!(s.ends_with(&needle), f.ends_with(&needle));
        if let Some(sub) = s.try_slice(a.min(b)..a.max(b)) {
            let fsub = &f[a.min(b)..a.max(b)];
            prop_assert_eq!(sub.find(&needle), reference::find_naive(fsub, &needle));
        }
    }

    #[test]
    fn eq_cmp_hash(p in parts(), q in parts()) {
        let (s, t) = (rope(&p), rope(&q));
        let (f, g) = (flat(&p), flat(&q));
        prop_assert_eq!(s == t, f == g);
        prop_assert_eq!(s.cmp(&t), f.cmp(&g));
        prop_assert_eq!(reference::eq_by_bytes(&s, &t), f == g);
        let compacted = ByteString::from(s.compact());
        let build = foldhash::fast::FixedState::with_seed(3);
        prop_assert_eq!(build.hash_one(&s), build.hash_one(&compacted));
        let mut h1 = rustc_hash::FxHasher::default();
        s.hash(&mut h1);
        let mut h2 = rustc_hash::FxHasher::default();
        reference::hash_flat(&f, &mut h2);
        prop_assert_eq!(h1.finish(), h2.finish());
    }

    #[test]
    fn concat_and_reader(p in parts(), q in parts(), steps in prop::collection::vec(0usize..9, 0..40)) {
        let joined = rope(&p).concat(&rope(&q));
        let mut expected = flat(&p);
        expected.extend(flat(&q));
        prop_assert_eq!(joined.to_vec(), expected.clone());
        let mut r = joined.reader();
        let mut e = &expected[..];
        for step in steps {
            match step {
                0 if e.remaining() >= 4 => prop_assert_eq!(r.get_u32_le(), e.get_u32_le()),
                1 if e.remaining() >= 2 => prop_assert_eq!(r.get_u16(), e.get_u16()),
                2 if e.remaining() >= 8 => prop_assert_eq!(r.get_u64_le(), e.get_u64_le()),
                3 => {
                    let n = 3.min(e.remaining());
                    prop_assert_eq!(r.copy_to_bytes(n), e.copy_to_bytes(n));
                }
                4 => {
                    let n = 5.min(e.remaining());
                    prop_assert_eq!(r.split_to(n).to_vec(), e[..n].to_vec());
                    e.advance(n);
                }
                _ => {
                    let n = step.min(e.remaining());
                    r.advance(n);
                    e.advance(n);
                }
            }
            prop_assert_eq!(r.remaining(), e.remaining());
            prop_assert_eq!(r.chunk(), &e[..r.chunk().len()]);
        }
    }

    /// The bytes from both ends in the order `ends` draws (true: the front), the chunks, the
    /// conversions and `==` with the flat types, on fragment lists with empty fragments.
    #[test]
    fn iterators_conversions_and_flat_equality(p in parts(), ends in prop::collection::vec(any::<bool>(), 0..300)) {
        let (s, f) = (rope(&p), flat(&p));
        prop_assert_eq!((&s).into_iter().collect::<Vec<u8>>(), f.clone());
        let mut it = s.iter();
        let (mut front, mut back) = (0, f.len());
        for from_front in ends {
            let got = if from_front { it.next() } else { it.next_back() };
            let want = if front == back {
                None
            } else if from_front {
                front += 1;
                Some(f[front - 1])
            } else {
                back -= 1;
                Some(f[back])
            };
            prop_assert_eq!(got, want);
            prop_assert_eq!(it.len(), back - front);
        }
        prop_assert_eq!(it.collect::<Vec<u8>>(), f[front..back].to_vec());
        let chunks: Vec<&[u8]> = s.chunks().collect();
        prop_assert_eq!(chunks.concat(), f.clone());
        prop_assert_eq!(chunks.len(), p.iter().filter(|x| !x.is_empty()).count());
        prop_assert_eq!(Vec::from(s.clone()), f.clone());
        prop_assert_eq!(ByteString::copy_from_slice(&f), s.clone());
        prop_assert!(both_ways(&s, &f) && both_ways(&s, &f[..]) && both_ways(&s, &&f[..]));
        prop_assert!(both_ways(&s, &Bytes::from(f.clone())));
        let queue: ByteQueue = p.iter().map(|x| Bytes::copy_from_slice(x)).collect();
        prop_assert_eq!(queue.chunks().collect::<Vec<&[u8]>>(), chunks);
        prop_assert!(both_ways(&queue, &f) && both_ways(&queue, &f[..]));
    }
}
