//! The conversions and comparisons against the flat bytes, over every representation and
//! fragmentations with empty fragments: `copy_from_slice`, `Vec::from`, `Bytes::from`,
//! `to_vec`, `compact`, and `==` with byte slices, arrays, vectors, `Bytes` and text both
//! ways; and what the conversions allocate.

mod common;

use bytes::{Buf, Bytes, BytesMut};
use common::{Rng, SIZES, shapes, split_random};
use rstest::rstest;
use wirebytes_rope::{ByteQueue, ByteString};
use wirebytes_testkit::alloc::{CountingAlloc, allocations, largest_allocation};

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc;

/// Every representation of `flat`, and fragmentations collected with empty fragments.
fn strings(flat: &[u8], seed: u64) -> Vec<(&'static str, ByteString)> {
    let mut rng = Rng::new(seed ^ 0xc0de);
    let mut all = shapes(flat, seed);
    for max in [1, 3, 64] {
        let mut parts = vec![Bytes::new()];
        for b in split_random(flat, &mut rng, max) {
            parts.push(b);
            parts.push(Bytes::new());
        }
        all.push(("collected-with-empty", parts.into_iter().collect()));
    }
    all
}

/// `flat` with one bit of one byte flipped (or, for the empty content, one byte).
fn near_miss(flat: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut other = flat.to_vec();
    match other.len() {
        0 => other.push(0),
        n => other[rng.below(n)] ^= 1 << rng.below(8),
    }
    other
}

/// `s == t` and `t == s`, and `!=` both ways, all agreeing with `want`.
fn both_ways<T: PartialEq<ByteString> + ?Sized>(s: &ByteString, t: &T, want: bool) -> bool
where
    ByteString: PartialEq<T>,
{
    PartialEq::eq(s, t) == want
        && PartialEq::eq(t, s) == want
        && PartialEq::ne(s, t) != want
        && PartialEq::ne(t, s) != want
}

#[rstest]
fn conversions_give_the_flat_bytes(#[values(1, 2)] seed: u64) {
    for &n in SIZES {
        let flat = Rng::new(seed * 13 + n as u64).bytes(n);
        for (name, s) in strings(&flat, seed * 1000 + n as u64) {
            let ctx = format!("{name}, {n} bytes");
            assert_eq!(s.to_vec(), flat, "{ctx}");
            assert_eq!(s.compact(), flat, "{ctx}");
            assert_eq!(Bytes::from(s.clone()), flat, "{ctx}");
            assert_eq!(Vec::from(s.clone()), flat, "{ctx}");
            assert_eq!(s, flat, "{ctx}: the conversions left the string alone");
            let copy = ByteString::copy_from_slice(&flat);
            assert_eq!(copy, s, "{ctx}");
            assert_eq!(copy.fragment_count(), usize::from(n > 0), "{ctx}");
            assert!(!copy.chunks().any(|c| c.as_ptr() == flat.as_ptr()), "{ctx}");
        }
    }
}

#[rstest]
fn equality_with_flat_types_both_ways(#[values(3, 4)] seed: u64) {
    let mut rng = Rng::new(seed);
    for &n in SIZES {
        // Text, so that `str` and `String` meet every representation too.
        let flat: Vec<u8> = (0..n).map(|_| b' ' + rng.below(95) as u8).collect();
        let text = String::from_utf8(flat.clone()).expect("ASCII");
        let miss = near_miss(&flat, &mut rng);
        let shorter = &flat[..n.saturating_sub(1)];
        for (name, s) in strings(&flat, seed * 1000 + n as u64) {
            let ctx = format!("{name}, {n} bytes");
            for (other, want) in [(&flat[..], true), (&miss[..], false), (shorter, n == 0)] {
                let ctx = format!("{ctx} against {} bytes, equal: {want}", other.len());
                assert!(both_ways(&s, other, want), "{ctx}: [u8]");
                assert!(both_ways(&s, &other, want), "{ctx}: &[u8]");
                assert!(both_ways(&s, &other.to_vec(), want), "{ctx}: Vec<u8>");
                assert!(
                    both_ways(&s, &Bytes::copy_from_slice(other), want),
                    "{ctx}: Bytes"
                );
            }
            assert!(both_ways(&s, &text[..], true), "{ctx}: str");
            assert!(both_ways(&s, &&text[..], true), "{ctx}: &str");
            assert!(both_ways(&s, &text, true), "{ctx}: String");
            let mut other_text = text.clone();
            other_text.push('!');
            assert!(both_ways(&s, &other_text, false), "{ctx}: String");
        }
    }
    // Arrays, by value and by reference.
    let s: ByteString = [&b"ab"[..], b"", b"c", b"de"]
        .into_iter()
        .map(Bytes::from_static)
        .collect();
    assert!(both_ways(&s, b"abcde", true));
    assert!(both_ways(&s, &b"abcde", true));
    assert!(both_ways(&s, b"abcdf", false));
    assert!(both_ways(&s, &b"abcd", false));
    assert!(both_ways(&ByteString::new(), &[], true));
}

#[rstest]
fn a_queue_equals_its_bytes_both_ways(#[values(5, 6)] seed: u64) {
    let mut rng = Rng::new(seed);
    for &n in SIZES {
        let flat = rng.bytes(n);
        let miss = near_miss(&flat, &mut rng);
        let mut queue = ByteQueue::new();
        let max = 1 + rng.below(50);
        for b in split_random(&flat, &mut rng, max) {
            queue.push(Bytes::new());
            queue.push(b);
        }
        let skip = rng.below(n + 1);
        queue.advance(skip);
        let rest = &flat[skip..];
        let miss = &miss[skip.min(miss.len())..];
        let ctx = format!("{n} bytes, {skip} consumed");
        for (other, want) in [(rest, true), (miss, rest == miss)] {
            let pairs = [
                (queue == *other, *other == queue),
                (queue == other, other == queue),
                (queue == other.to_vec(), other.to_vec() == queue),
                (
                    queue == Bytes::copy_from_slice(other),
                    Bytes::copy_from_slice(other) == queue,
                ),
                (
                    queue == ByteString::copy_from_slice(other),
                    ByteString::copy_from_slice(other) == queue,
                ),
            ];
            assert!(pairs.iter().all(|&p| p == (want, want)), "{ctx}: {pairs:?}");
        }
    }
}

#[test]
fn vec_from_takes_the_buffer_of_one_unshared_fragment() {
    // Made from a `Vec`, a `String` or a `BytesMut`, held by nobody else: the same buffer.
    let body = Rng::new(9).bytes(1000);
    let owned = body.clone();
    let ptr = owned.as_ptr();
    let s = ByteString::from(owned);
    let mut v = Vec::new();
    assert_eq!(allocations(|| v = Vec::from(s)), 0);
    assert_eq!(v.as_ptr(), ptr);
    assert!(v == body);
    let text = String::from("a frame of text");
    let ptr = text.as_ptr();
    let v = Vec::from(ByteString::from(text));
    assert_eq!((v.as_ptr(), &v[..]), (ptr, &b"a frame of text"[..]));
    let mut buf = BytesMut::with_capacity(64);
    buf.extend_from_slice(b"read");
    let ptr = buf.as_ptr();
    let v = Vec::from(ByteString::from(buf));
    assert_eq!((v.as_ptr(), &v[..]), (ptr, &b"read"[..]));
    // The empty string: nothing to allocate.
    let mut v = vec![1];
    assert_eq!(allocations(|| v = Vec::from(ByteString::new())), 0);
    assert!(v.is_empty());
}

#[test]
fn vec_from_copies_once_what_it_cannot_take() {
    let flat = Rng::new(10).bytes(3000);
    let mut rng = Rng::new(11);
    let shared = ByteString::from(flat.clone());
    let keep = shared.clone();
    let many: ByteString = split_random(&flat, &mut rng, 100).into_iter().collect();
    let two =
        ByteString::from(flat[..1000].to_vec()).concat(&ByteString::from(flat[1000..].to_vec()));
    let fixed: &'static [u8] = Vec::leak(flat.clone());
    let cases = [
        ("shared with a clone", shared),
        ("many fragments", many),
        ("two fragments", two),
        ("static", ByteString::from_static(fixed)),
    ];
    for (name, s) in cases {
        let mut v = Vec::new();
        let (count, largest) = (
            allocations(|| v = Vec::from(s.clone())),
            largest_allocation(|| drop(Vec::from(s.clone()))),
        );
        assert_eq!((count, largest), (1, flat.len()), "{name}");
        assert_eq!((v.len(), v.capacity()), (flat.len(), flat.len()), "{name}");
        assert_eq!(v, flat, "{name}");
        assert!(s.chunks().all(|c| c.as_ptr() != v.as_ptr()), "{name}");
    }
    assert_eq!(keep, flat);
}

#[test]
fn copy_from_slice_allocates_its_bytes_once() {
    for n in [1, 7, 64, 1000] {
        let flat = Rng::new(n as u64).bytes(n);
        let mut s = ByteString::new();
        assert_eq!(
            (
                allocations(|| s = ByteString::copy_from_slice(&flat)),
                largest_allocation(|| drop(ByteString::copy_from_slice(&flat)))
            ),
            (1, n)
        );
        assert_eq!(
            (s.fragment_count(), &s),
            (1, &ByteString::from(flat.clone()))
        );
        assert!(s.chunks().all(|c| c.as_ptr() != flat.as_ptr()));
    }
    assert_eq!(allocations(|| ByteString::copy_from_slice(&[])), 0);
    assert!(ByteString::copy_from_slice(&[]).is_empty());
}

/// A `&'static [u8]` becomes the byte string of those bytes.
#[test]
fn a_static_slice_converts_to_its_bytes() {
    let string = ByteString::from(&b"static bytes"[..]);
    assert_eq!(string, "static bytes");
    assert_eq!(string.len(), 12);
}
