//! Plain reference implementations, kept as the oracle for the tests and the
//! `cargo xtask verify` sweep, and as the "old way" baselines of the benches.
//!
//! Each is the obvious code: it walks bytes one at a time or scans from the first fragment,
//! so it is easy to trust and slow on purpose. Not meant for production use.

use core::hash::Hasher;

use crate::string::ByteString;

/// The block size [`ByteString`]'s `Hash` feeds to the hasher.
pub const HASH_BLOCK: usize = crate::cmp::HASH_BLOCK;

/// The byte at `index`, found by walking the fragments from the first one every time (what a
/// rope without a hint or offsets does: a sequential scan is quadratic).
///
/// # Examples
///
/// ```
/// use wirebytes_rope::{reference, ByteString};
///
/// let s = ByteString::from_static(b"ab").concat(&ByteString::from_static(b"cd"));
/// assert_eq!(reference::get_by_scan(&s, 3), Some(b'd'));
/// assert_eq!(reference::get_by_scan(&s, 4), None);
/// ```
#[must_use]
pub fn get_by_scan(s: &ByteString, mut index: usize) -> Option<u8> {
    for c in s.chunks() {
        if index < c.len() {
            return Some(c[index]);
        }
        index -= c.len();
    }
    None
}

/// Content equality through a byte iterator zip, one byte at a time.
///
/// # Examples
///
/// ```
/// use wirebytes_rope::{reference, ByteString};
///
/// let a = ByteString::from_static(b"ab").concat(&ByteString::from_static(b"cd"));
/// let b = ByteString::from_static(b"a").concat(&ByteString::from_static(b"bcd"));
/// assert!(reference::eq_by_bytes(&a, &b));
/// ```
#[must_use]
pub fn eq_by_bytes(a: &ByteString, b: &ByteString) -> bool {
    a.len() == b.len() && a.iter().zip(b.iter()).all(|(x, y)| x == y)
}

/// The first offset where `needle` occurs in `haystack`, by trying every offset; `Some(0)`
/// for an empty needle.
///
/// # Examples
///
/// ```
/// use wirebytes_rope::reference;
///
/// assert_eq!(reference::find_naive(b"abcabc", b"ca"), Some(2));
/// assert_eq!(reference::find_naive(b"abc", b""), Some(0));
/// assert_eq!(reference::find_naive(b"abc", b"abcd"), None);
/// ```
#[must_use]
pub fn find_naive(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.len() > haystack.len() {
        return None;
    }
    (0..=haystack.len() - needle.len()).find(|&i| &haystack[i..i + needle.len()] == needle)
}

/// The `write` calls that [`ByteString`]'s `Hash` makes, on the flat content: the length
/// through `write_usize`, then each [`HASH_BLOCK`]-byte block through `write`, then the
/// shorter tail block if the length is not a multiple of the block size.
///
/// # Examples
///
/// ```
/// use std::hash::{DefaultHasher, Hash, Hasher};
/// use wirebytes_rope::{reference, ByteString};
///
/// let s = ByteString::from(vec![7u8; 200]).concat(&ByteString::from(vec![9u8; 100]));
/// let (mut a, mut b) = (DefaultHasher::new(), DefaultHasher::new());
/// s.hash(&mut a);
/// reference::hash_flat(&s.to_vec(), &mut b);
/// assert_eq!(a.finish(), b.finish());
/// ```
pub fn hash_flat<H: Hasher>(bytes: &[u8], state: &mut H) {
    state.write_usize(bytes.len());
    for block in bytes.chunks(HASH_BLOCK) {
        state.write(block);
    }
}

/// The last offset where `needle` occurs in `haystack`, by trying every offset from the end;
/// `Some(haystack.len())` for an empty needle.
///
/// # Examples
///
/// ```
/// use wirebytes_rope::reference;
///
/// assert_eq!(reference::rfind_naive(b"abcabc", b"bc"), Some(4));
/// assert_eq!(reference::rfind_naive(b"abc", b""), Some(3));
/// assert_eq!(reference::rfind_naive(b"abc", b"x"), None);
/// ```
#[must_use]
pub fn rfind_naive(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.len() > haystack.len() {
        return None;
    }
    (0..=haystack.len() - needle.len())
        .rev()
        .find(|&i| &haystack[i..i + needle.len()] == needle)
}
