//! `slice`, `try_slice`, `concat`, `append` and the builder against the flat bytes.

mod common;

use bytes::{BufMut, Bytes};
use common::{Rng, SIZES, shapes};
use rstest::rstest;
use wirebytes_rope::{ByteString, ByteStringBuilder};

#[test]
fn every_slice_of_small_strings() {
    for n in [0usize, 1, 2, 5, 17, 40] {
        let flat = Rng::new(n as u64).bytes(n);
        for (name, s) in shapes(&flat, n as u64) {
            for a in 0..=n {
                for b in a..=n {
                    let sub = s.slice(a..b);
                    assert_eq!(sub, flat[a..b], "{name}[{a}..{b}]");
                    assert_eq!(sub.len(), b - a);
                    assert!(sub.chunks().all(|c| !c.is_empty()), "{name}[{a}..{b}]");
                    assert_eq!(s.try_slice(a..b).as_ref(), Some(&sub));
                    if b > a {
                        assert_eq!(s.slice(a..=b - 1), flat[a..b], "{name}[{a}..={}]", b - 1);
                    }
                }
                assert!(s.try_slice(a..n + 1).is_none());
                assert_eq!(s.slice(a..), flat[a..]);
                assert_eq!(s.slice(..a), flat[..a]);
            }
            assert!(s.try_slice(usize::MAX..).is_none() || n == usize::MAX);
            assert!(s.try_slice(..=usize::MAX).is_none());
        }
    }
}

#[test]
fn slices_of_slices_and_their_gets() {
    let mut rng = Rng::new(4);
    for &n in SIZES {
        let flat = rng.bytes(n);
        for (name, s) in shapes(&flat, rng.next_u64()) {
            let (mut lo, mut hi, mut cur) = (0, n, s.clone());
            for _ in 0..6 {
                let a = lo + rng.below(hi - lo + 1);
                let b = a + rng.below(hi - a + 1);
                cur = cur.slice(a - lo..b - lo);
                (lo, hi) = (a, b);
                assert_eq!(cur, flat[lo..hi], "{name} [{lo}..{hi}]");
                for i in 0..cur.len() {
                    assert_eq!(cur.get(i), Some(flat[lo + i]));
                }
            }
        }
    }
}

#[rstest]
#[case::start_after_end(3, 2, "range start 3 is greater than range end 2")]
#[case::end_past_len(0, 11, "range end 11 is out of bounds for a string of length 10")]
fn bad_slices_panic_with_a_clear_message(
    #[case] a: usize,
    #[case] b: usize,
    #[case] message: &str,
) {
    let s = ByteString::from(vec![1u8; 6]).concat(&ByteString::from(vec![2u8; 4]));
    let err = std::panic::catch_unwind(|| s.slice(a..b)).expect_err("must panic");
    let text = err.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(text.contains(message), "{text}");
    assert!(s.try_slice(a..b).is_none());
}

#[test]
fn concat_and_append_agree_with_flat() {
    let mut rng = Rng::new(8);
    for _ in 0..400 {
        let mut flat = Vec::new();
        let mut by_concat = ByteString::new();
        let mut by_append = ByteString::new();
        let mut builder = ByteStringBuilder::new();
        for _ in 0..rng.below(12) {
            let len = rng.below(150);
            let piece = rng.bytes(len);
            let all = shapes(&piece, rng.next_u64());
            let part = &all[rng.below(all.len())].1;
            flat.extend_from_slice(&piece);
            let before = by_concat.clone();
            by_concat = by_concat.concat(part);
            // concat leaves its operands alone.
            assert_eq!(before, flat[..flat.len() - piece.len()]);
            by_append.append(part);
            match rng.below(3) {
                0 => builder.append(part),
                1 => builder.extend_from_slice(&piece),
                _ => builder.put_slice(&piece),
            }
        }
        assert_eq!(by_concat, flat);
        assert_eq!(by_append, flat);
        assert_eq!(builder.len(), flat.len());
        assert_eq!(builder.build(), flat);
    }
}

#[test]
fn append_in_place_does_not_change_shared_clones() {
    let mut s = ByteString::from(vec![1u8; 100]).concat(&ByteString::from(vec![2u8; 100]));
    let before = s.clone();
    s.append(&ByteString::from(vec![3u8; 100]));
    assert_eq!(before.len(), 200);
    assert_eq!(before.get(150), Some(2));
    assert_eq!(s.len(), 300);
    let mut unique = s.clone();
    drop(s);
    unique.push(Bytes::from(vec![4u8; 100])); // unique now: appended in place
    assert_eq!(unique.get(350), Some(4));
    assert_eq!(unique.fragment_count(), 4);
}

#[test]
fn concat_and_append_keep_every_fragment_as_it_is() {
    // Tiny fragments are neither joined nor copied, shared or not: the fragments of the
    // result are the very `Bytes` of the two sides.
    let (x, y, z) = (
        Bytes::from_static(b"abc"),
        Bytes::from_static(b"d"),
        Bytes::from_static(b"ef"),
    );
    let a = ByteString::from(x.clone()).concat(&ByteString::from(y.clone()));
    assert_eq!((a.fragment_count(), &a), (2, &ByteString::from("abcd")));
    let mut m: ByteString = [x.clone(), y.clone(), z.clone(), x.clone()]
        .into_iter()
        .collect();
    let shared = m.clone();
    m.append(&ByteString::from(z.clone()));
    assert_eq!(shared.fragment_count(), 4);
    drop(shared);
    m.append(&a); // unshared now: in place
    let expected = [&x, &y, &z, &x, &z, &x, &y];
    assert_eq!(m.fragment_count(), expected.len());
    for (got, want) in m.fragments().zip(expected) {
        assert_eq!(got.as_ptr(), want.as_ptr());
        assert_eq!(got.len(), want.len());
    }
    assert_eq!(m, "abcdefabcefabcd");
}
