//! The [`ByteString`] type: construction, length and indexing, slicing, concatenation.
//! How it holds its fragments is `repr.rs`; its iterators `iter.rs`; its conversions
//! `convert.rs`; its searches `search.rs`; equality, order and hashing `cmp.rs`.

use core::ops::{Bound, RangeBounds};
use std::sync::Arc;

use bytes::Bytes;

use crate::repr::{Parts, Repr, get_in};

/// An immutable byte string made of shared [`Bytes`] fragments.
///
/// Cloning, slicing and concatenating never copy the bytes. Equality, ordering and hashing
/// look at the content only, never at how it is split into fragments.
///
/// # Examples
///
/// ```
/// use bytes::Bytes;
/// use wirebytes_rope::ByteString;
///
/// let rope: ByteString = [Bytes::from("hello, "), Bytes::from("world")].into_iter().collect();
/// assert_eq!(rope.len(), 12);
/// assert_eq!(rope.chunks().count(), 2);
/// assert_eq!(rope, ByteString::from("hello, world".to_string()));
/// assert_eq!(rope.slice(5..9), ", wo");
/// ```
#[derive(Clone)]
pub struct ByteString {
    pub(crate) repr: Repr,
}

impl ByteString {
    /// The empty string. Does not allocate.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_rope::ByteString;
    ///
    /// assert!(ByteString::new().is_empty());
    /// ```
    #[must_use]
    pub const fn new() -> Self {
        ByteString {
            repr: Repr::One(Bytes::new()),
        }
    }

    /// A one-fragment string of static bytes. Does not allocate.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_rope::ByteString;
    ///
    /// let s = ByteString::from_static(b"GET / HTTP/1.1\r\n");
    /// assert!(s.starts_with(b"GET "));
    /// ```
    #[must_use]
    pub const fn from_static(bytes: &'static [u8]) -> Self {
        ByteString {
            repr: Repr::One(Bytes::from_static(bytes)),
        }
    }

    /// A one-fragment string holding a copy of `bytes`: one allocation of exactly
    /// `bytes.len()` bytes (none when `bytes` is empty), as [`Bytes::copy_from_slice`].
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_rope::ByteString;
    ///
    /// let mut read_buf = [0u8; 16];
    /// read_buf[..5].copy_from_slice(b"hello");
    /// let s = ByteString::copy_from_slice(&read_buf[..5]);
    /// read_buf.fill(0); // the string holds its own copy
    /// assert_eq!(s, "hello");
    /// assert_eq!(s.fragment_count(), 1);
    /// ```
    #[must_use]
    pub fn copy_from_slice(bytes: &[u8]) -> Self {
        ByteString::from(Bytes::copy_from_slice(bytes))
    }

    /// The number of bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_rope::ByteString;
    ///
    /// let s = ByteString::from_static(b"abc").concat(&ByteString::from_static(b"de"));
    /// assert_eq!(s.len(), 5);
    /// ```
    #[inline]
    #[must_use]
    pub fn len(&self) -> usize {
        match &self.repr {
            Repr::One(b) => b.len(),
            Repr::Two([a, b]) => a.len() + b.len(),
            Repr::Three([a, b, c]) => a.len() + b.len() + c.len(),
            Repr::Many(r) => r.len,
        }
    }

    /// True when the string holds no bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_rope::ByteString;
    ///
    /// assert!(ByteString::from_static(b"").is_empty());
    /// assert!(!ByteString::from_static(b"x").is_empty());
    /// ```
    #[inline]
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The byte at `index`, or `None` when `index >= len()`.
    ///
    /// O(1) when `index` lies in the fragment the previous `get` on this string (or any of
    /// its clones) resolved, or in one of that fragment's two neighbours: sequential scans
    /// forwards and backwards never re-walk the fragments. Otherwise O(log n) in the number
    /// of fragments. Safe to call from many threads at once.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_rope::ByteString;
    ///
    /// let s = ByteString::from_static(b"ab").concat(&ByteString::from_static(b"cd"));
    /// assert_eq!(s.get(2), Some(b'c'));
    /// assert_eq!(s.get(4), None);
    /// ```
    #[inline]
    #[must_use]
    pub fn get(&self, index: usize) -> Option<u8> {
        match &self.repr {
            Repr::One(b) => b.get(index).copied(),
            Repr::Two([a, b]) => match index.checked_sub(a.len()) {
                None => a.get(index).copied(),
                Some(i) => b.get(i).copied(),
            },
            Repr::Three(parts) => get_in(parts, index),
            Repr::Many(r) => r.get(index),
        }
    }

    /// The sub-string in `range`, sharing the fragments (no byte is copied).
    ///
    /// O(log n + k) for `k` fragments in the range; a range inside one fragment gives a
    /// one-fragment string.
    ///
    /// # Panics
    ///
    /// When the range starts after it ends or ends after `len()`; see
    /// [`try_slice`](Self::try_slice) for the variant that returns `None` instead.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_rope::ByteString;
    ///
    /// let s = ByteString::from_static(b"hello ").concat(&ByteString::from_static(b"world"));
    /// assert_eq!(s.slice(4..7), "o w");
    /// assert_eq!(s.slice(6..).chunks().count(), 1);
    /// ```
    #[track_caller]
    #[must_use]
    pub fn slice(&self, range: impl RangeBounds<usize>) -> ByteString {
        let len = self.len();
        let start = match range.start_bound() {
            Bound::Included(&s) => s,
            Bound::Excluded(&s) => s
                .checked_add(1)
                .unwrap_or_else(|| panic!("ByteString::slice: range start overflows usize")),
            Bound::Unbounded => 0,
        };
        let end = match range.end_bound() {
            Bound::Included(&e) => e
                .checked_add(1)
                .unwrap_or_else(|| panic!("ByteString::slice: range end overflows usize")),
            Bound::Excluded(&e) => e,
            Bound::Unbounded => len,
        };
        assert!(
            start <= end,
            "ByteString::slice: range start {start} is greater than range end {end}"
        );
        assert!(
            end <= len,
            "ByteString::slice: range end {end} is out of bounds for a string of length {len}"
        );
        self.slice_unchecked(start, end)
    }

    /// The sub-string in `range`, or `None` when the range starts after it ends or ends after
    /// `len()`. Otherwise the same as [`slice`](Self::slice).
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_rope::ByteString;
    ///
    /// let s = ByteString::from_static(b"abc");
    /// assert_eq!(s.try_slice(1..).unwrap(), "bc");
    /// assert!(s.try_slice(2..4).is_none());
    /// assert!(s.try_slice(2..1).is_none());
    /// ```
    #[must_use]
    pub fn try_slice(&self, range: impl RangeBounds<usize>) -> Option<ByteString> {
        let start = match range.start_bound() {
            Bound::Included(&s) => s,
            Bound::Excluded(&s) => s.checked_add(1)?,
            Bound::Unbounded => 0,
        };
        let end = match range.end_bound() {
            Bound::Included(&e) => e.checked_add(1)?,
            Bound::Excluded(&e) => e,
            Bound::Unbounded => self.len(),
        };
        (start <= end && end <= self.len()).then(|| self.slice_unchecked(start, end))
    }

    /// `slice(start..end)` for a range already checked against `len()`.
    pub(crate) fn slice_unchecked(&self, start: usize, end: usize) -> ByteString {
        debug_assert!(start <= end && end <= self.len());
        if start == end {
            return ByteString::new();
        }
        match &self.repr {
            Repr::One(b) => ByteString::from(b.slice(start..end)),
            Repr::Two(parts) => self.slice_inline(parts, start, end),
            Repr::Three(parts) => self.slice_inline(parts, start, end),
            Repr::Many(r) => {
                if start == 0 && end == r.len {
                    return self.clone();
                }
                let first = r.locate(start);
                let last = r.locate(end - 1);
                let f = &r.fragments[first];
                if first == last {
                    return ByteString::from(f.bytes.slice(start - f.start..end - f.start));
                }
                let mut parts = Parts::with_capacity(last - first + 1);
                parts.push(f.bytes.slice(start - f.start..));
                for f in &r.fragments[first + 1..last] {
                    parts.push(f.bytes.clone());
                }
                let l = &r.fragments[last];
                parts.push(l.bytes.slice(..end - l.start));
                parts.finish()
            }
        }
    }

    /// `slice_unchecked(start..end)` of a string held inline as `parts`: each part's share of
    /// the range, collected as a string of as many fragments as the range covers.
    fn slice_inline(&self, parts: &[Bytes], start: usize, end: usize) -> ByteString {
        if start == 0 && end == self.len() {
            return self.clone();
        }
        let mut out = Parts::with_capacity(parts.len());
        let mut at = 0;
        for b in parts {
            let (from, to) = (start.max(at), end.min(at + b.len()));
            if from < to {
                out.push(b.slice(from - at..to - at));
            }
            at += b.len();
        }
        out.finish()
    }

    /// This string followed by `other`. No byte is copied.
    ///
    /// O(n) in the number of fragments (the fragment list is rebuilt, the bytes are shared);
    /// to append repeatedly use [`append`](Self::append), amortised O(k) per call, or
    /// [`ByteStringBuilder`](crate::ByteStringBuilder).
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_rope::ByteString;
    ///
    /// let a = ByteString::from(vec![1u8; 100]);
    /// let b = ByteString::from(vec![2u8; 100]);
    /// let ab = a.concat(&b);
    /// assert_eq!(ab.len(), 200);
    /// assert_eq!(ab.chunks().count(), 2);
    /// assert_eq!(ab.get(100), Some(2));
    /// ```
    #[must_use]
    pub fn concat(&self, other: &ByteString) -> ByteString {
        let mut out = self.clone();
        out.append(other);
        out
    }

    /// Appends `other` to this string, in place when nobody else shares this string's
    /// fragment list (amortised O(k) for `k` fragments in `other`), else as
    /// [`concat`](Self::concat) does. No byte is copied: to gather many small pieces into
    /// few fragments, use [`ByteStringBuilder`](crate::ByteStringBuilder).
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_rope::ByteString;
    ///
    /// let mut s = ByteString::new();
    /// for part in ["GET ", "/index.html", " HTTP/1.1"] {
    ///     s.append(&ByteString::from(part.to_string()));
    /// }
    /// assert_eq!(s, "GET /index.html HTTP/1.1");
    /// ```
    pub fn append(&mut self, other: &ByteString) {
        if other.is_empty() {
            return;
        }
        if self.is_empty() {
            *self = other.clone();
            return;
        }
        if let Repr::Many(arc) = &mut self.repr {
            if let Some(rope) = Arc::get_mut(arc) {
                for b in other.fragments() {
                    rope.push(b.clone());
                }
                return;
            }
        }
        let mut parts = Parts::with_capacity(self.fragment_count() + other.fragment_count());
        for b in self.fragments().chain(other.fragments()) {
            parts.push(b.clone());
        }
        *self = parts.finish();
    }

    /// Appends one fragment; see [`append`](Self::append).
    ///
    /// # Examples
    ///
    /// ```
    /// use bytes::Bytes;
    /// use wirebytes_rope::ByteString;
    ///
    /// let mut s = ByteString::from_static(b"ab");
    /// s.push(Bytes::from_static(b"cd"));
    /// assert_eq!(s, "abcd");
    /// ```
    pub fn push(&mut self, bytes: Bytes) {
        self.append(&ByteString::from(bytes));
    }

    /// The number of fragments (0 for the empty string).
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_rope::ByteString;
    ///
    /// assert_eq!(ByteString::new().fragment_count(), 0);
    /// let s = ByteString::from(vec![0u8; 70]).concat(&ByteString::from(vec![1u8; 70]));
    /// assert_eq!(s.fragment_count(), 2);
    /// ```
    #[must_use]
    pub fn fragment_count(&self) -> usize {
        match &self.repr {
            Repr::One(b) => usize::from(!b.is_empty()),
            Repr::Two(_) => 2,
            Repr::Three(_) => 3,
            Repr::Many(r) => r.fragments.len(),
        }
    }

    /// The two halves `..mid` and `mid..`, sharing the fragments (no byte is copied).
    ///
    /// # Panics
    ///
    /// When `mid > len()`.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_rope::ByteString;
    ///
    /// let s = ByteString::from_static(b"key").concat(&ByteString::from_static(b": value"));
    /// let (name, rest) = s.split_at(s.find(b": ").unwrap());
    /// assert_eq!(name, "key");
    /// assert_eq!(rest, ": value");
    /// ```
    #[track_caller]
    #[must_use]
    pub fn split_at(&self, mid: usize) -> (ByteString, ByteString) {
        let len = self.len();
        assert!(
            mid <= len,
            "ByteString::split_at: mid {mid} is out of bounds for a string of length {len}"
        );
        (self.slice_unchecked(0, mid), self.slice_unchecked(mid, len))
    }
}

impl Default for ByteString {
    fn default() -> Self {
        ByteString::new()
    }
}

impl Extend<Bytes> for ByteString {
    /// Appends each fragment as [`ByteString::push`] does.
    ///
    /// # Examples
    ///
    /// ```
    /// use bytes::Bytes;
    /// use wirebytes_rope::ByteString;
    ///
    /// let mut s = ByteString::from_static(b"a");
    /// s.extend([Bytes::from_static(b"b"), Bytes::from_static(b"c")]);
    /// assert_eq!(s, "abc");
    /// ```
    fn extend<I: IntoIterator<Item = Bytes>>(&mut self, iter: I) {
        for b in iter {
            self.push(b);
        }
    }
}
