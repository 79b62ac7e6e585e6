//! Equality, ordering and hashing agree across every representation of the same content.

mod common;

use std::cmp::Ordering;
use std::collections::HashSet;
use std::hash::{BuildHasher, BuildHasherDefault, Hash, Hasher};

use bytes::Bytes;
use common::{Rng, SIZES, shapes};
use rstest::rstest;
use wirebytes_rope::{ByteString, reference};

/// A hasher that records every call, so two hashes agree only if the calls and their
/// boundaries agree: the strictest `Hasher` there can be.
#[derive(Debug, Default, PartialEq, Eq)]
struct Recording(Vec<Call>);

#[derive(Debug, PartialEq, Eq)]
enum Call {
    Write(Vec<u8>),
    Usize(usize),
}

impl Hasher for Recording {
    fn finish(&self) -> u64 {
        self.0.len() as u64
    }
    fn write(&mut self, bytes: &[u8]) {
        self.0.push(Call::Write(bytes.to_vec()));
    }
    fn write_usize(&mut self, n: usize) {
        self.0.push(Call::Usize(n));
    }
}

fn recorded(s: &ByteString) -> Recording {
    let mut h = Recording::default();
    s.hash(&mut h);
    h
}

fn hash_with<B: BuildHasher>(build: &B, s: &ByteString) -> u64 {
    build.hash_one(s)
}

/// The hashers the tests use: SipHash (fixed keys), FxHash, foldhash and ahash (fixed seeds).
fn hashes(s: &ByteString) -> [u64; 4] {
    [
        hash_with(
            &BuildHasherDefault::<std::hash::DefaultHasher>::default(),
            s,
        ),
        hash_with(&rustc_hash::FxBuildHasher, s),
        hash_with(&foldhash::fast::FixedState::with_seed(7), s),
        hash_with(&ahash::RandomState::with_seeds(1, 2, 3, 4), s),
    ]
}

/// `s == t` and `t == s`, through the two `PartialEq` impls.
fn both_ways<T: PartialEq<ByteString> + ?Sized>(s: &ByteString, t: &T) -> bool
where
    ByteString: PartialEq<T>,
{
    PartialEq::eq(s, t) && PartialEq::eq(t, s)
}

fn content(len: usize, seed: u64) -> Vec<u8> {
    Rng::new(seed ^ len as u64).bytes(len)
}

#[rstest]
fn every_representation_is_equal_and_hashes_alike(#[values(1, 2, 3)] seed: u64) {
    for &n in SIZES {
        let flat = content(n, seed);
        let all = shapes(&flat, seed * 1000 + n as u64);
        let mut expected = Recording::default();
        reference::hash_flat(&flat, &mut expected);
        let expected_hashes = hashes(&ByteString::from(flat.clone()));
        for (name, s) in &all {
            assert_eq!(s.len(), n, "{name} at {n}");
            assert_eq!(s.to_vec(), flat, "{name} at {n}");
            assert_eq!(&s.compact()[..], &flat[..], "{name} at {n}");
            assert!(
                s.chunks().all(|c| !c.is_empty()),
                "{name} has an empty chunk"
            );
            assert_eq!(s.chunks().count(), s.fragment_count(), "{name}");
            // Against flat types, both directions.
            assert!(both_ways(s, &flat[..]), "{name} at {n}: [u8]");
            assert!(both_ways(s, &&flat[..]), "{name} at {n}: &[u8]");
            assert!(both_ways(s, &flat), "{name} at {n}: Vec<u8>");
            let bytes = Bytes::from(flat.clone());
            assert!(both_ways(s, &bytes), "{name} at {n}: Bytes");
            // Hash: exactly the reference's calls, so the same value for every hasher.
            assert_eq!(recorded(s), expected, "{name} at {n}: hash calls");
            assert_eq!(hashes(s), expected_hashes, "{name} at {n}: hash values");
            assert_eq!(
                format!("{s:?}"),
                format!("{bytes:?}"),
                "{name} at {n}: Debug"
            );
            for (other_name, t) in &all {
                assert_eq!(s, t, "{name} == {other_name} at {n}");
                assert_eq!(s.cmp(t), Ordering::Equal, "{name} cmp {other_name} at {n}");
                assert!(reference::eq_by_bytes(s, t));
            }
        }
    }
}

#[rstest]
#[case::first_byte(0)]
#[case::last_byte(usize::MAX)]
#[case::middle_byte(1)]
fn one_differing_byte_is_seen_everywhere(#[case] where_: usize) {
    for &n in SIZES.iter().filter(|&&n| n > 0) {
        let a = content(n, 11);
        let mut b = a.clone();
        let at = match where_ {
            0 => 0,
            usize::MAX => n - 1,
            _ => n / 2,
        };
        b[at] = b[at].wrapping_add(1 + (n % 254) as u8);
        let expected = a.cmp(&b);
        let (sa, sb) = (shapes(&a, 5), shapes(&b, 6));
        for (x_name, x) in &sa {
            assert!(*x != b[..], "{x_name} == other content at {n}");
            for (y_name, y) in &sb {
                assert_ne!(x, y, "{x_name} vs {y_name} at {n}, byte {at}");
                assert_eq!(
                    x.cmp(y),
                    expected,
                    "{x_name} cmp {y_name} at {n}, byte {at}"
                );
                assert_eq!(y.cmp(x), expected.reverse());
                assert!(!reference::eq_by_bytes(x, y));
            }
        }
    }
}

#[test]
fn differing_lengths_are_unequal_and_ordered_as_prefixes() {
    for &n in SIZES.iter().filter(|&&n| n > 0) {
        let long = content(n, 12);
        let short = &long[..n - 1];
        for (x_name, x) in &shapes(short, 8) {
            for (y_name, y) in &shapes(&long, 9) {
                assert_ne!(x, y, "{x_name} vs {y_name} at {n}");
                assert_eq!(x.cmp(y), Ordering::Less, "{x_name} < {y_name} at {n}");
                assert_eq!(y.cmp(x), Ordering::Greater);
                assert!(*x != long[..] && *y != *short);
            }
        }
    }
}

#[test]
fn order_agrees_with_flat_on_random_pairs() {
    let mut rng = Rng::new(99);
    for _ in 0..wirebytes_testkit::scale_miri(3000, 3000, 7) {
        // A two-letter alphabet makes long common prefixes likely.
        let a: Vec<u8> = (0..rng.below(40))
            .map(|_| b'a' + rng.below(2) as u8)
            .collect();
        let b: Vec<u8> = (0..rng.below(40))
            .map(|_| b'a' + rng.below(2) as u8)
            .collect();
        let (sa, sb) = (shapes(&a, rng.next_u64()), shapes(&b, rng.next_u64()));
        let (x, y) = (&sa[rng.below(sa.len())].1, &sb[rng.below(sb.len())].1);
        assert_eq!(x.cmp(y), a.cmp(&b), "{a:?} vs {b:?}");
        assert_eq!(x == y, a == b);
        assert_eq!(x.partial_cmp(y), Some(a.cmp(&b)));
    }
}

#[expect(
    clippy::mutable_key_type,
    reason = "the atomic get hint inside a ByteString takes no part in Hash or Eq"
)]
fn membership<B: BuildHasher + Default>() {
    let mut set: HashSet<ByteString, B> = HashSet::default();
    for &n in SIZES {
        for (_, s) in shapes(&content(n, 21), n as u64) {
            set.insert(s);
        }
    }
    assert_eq!(set.len(), SIZES.len(), "one entry per distinct content");
    for &n in SIZES {
        for (name, s) in shapes(&content(n, 21), 1000 + n as u64) {
            assert!(set.contains(&s), "{name} at {n} not found");
        }
        let mut other = content(n, 21);
        other.push(0);
        assert!(!set.contains(&ByteString::from(other)) || SIZES.contains(&(n + 1)));
    }
}

#[test]
fn hash_set_membership_across_representations() {
    membership::<BuildHasherDefault<std::hash::DefaultHasher>>();
    membership::<rustc_hash::FxBuildHasher>();
    membership::<foldhash::fast::RandomState>();
    membership::<ahash::RandomState>();
}

#[test]
fn the_recording_hasher_can_tell_write_boundaries_apart() {
    // The check above would prove nothing if the recording hasher ignored boundaries.
    let mut one = Recording::default();
    one.write(b"abcd");
    let mut two = Recording::default();
    two.write(b"ab");
    two.write(b"cd");
    assert_ne!(one, two);
}
