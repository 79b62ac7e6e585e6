//! The [`ByteString`] type: representation, indexing, slicing and concatenation.

use core::ops::{Bound, RangeBounds};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use bytes::{Bytes, BytesMut};

use crate::into_reader::IntoReader;
use crate::reader::Reader;

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

/// One fragment; two or three non-empty fragments held inline (no allocation of their own,
/// so a frame that straddles one or two read boundaries costs none); or an `Arc` of at
/// least four non-empty fragments.
#[derive(Clone)]
pub(crate) enum Repr {
    One(Bytes),
    Two([Bytes; 2]),
    Three([Bytes; 3]),
    Many(Arc<Rope>),
}

/// A fragment and the offset of its first byte in the string.
#[derive(Clone)]
pub(crate) struct Fragment {
    pub(crate) start: usize,
    pub(crate) bytes: Bytes,
}

/// At least four fragments, none empty, with their start offsets (strictly increasing).
pub(crate) struct Rope {
    pub(crate) fragments: Vec<Fragment>,
    pub(crate) len: usize,
    /// The index of the fragment that the last `get` resolved: always `< fragments.len()`.
    hint: AtomicUsize,
}

/// Collects fragments into a [`ByteString`]: drops empty ones, keeps the first three inline
/// (no allocation for a string of up to three fragments), and from the fourth on builds the
/// fragment list with start offsets in place (one allocation for it, one for the `Arc`).
pub(crate) struct Parts {
    /// The first three fragments, while there are no more.
    head: [Bytes; 3],
    /// Every fragment once there are four or more (then `head` is empty).
    fragments: Vec<Fragment>,
    count: usize,
    capacity: usize,
    len: usize,
}

impl Parts {
    /// An empty collection expecting about `capacity` fragments. Does not allocate.
    pub(crate) fn with_capacity(capacity: usize) -> Parts {
        Parts {
            head: Default::default(),
            fragments: Vec::new(),
            count: 0,
            capacity,
            len: 0,
        }
    }

    /// Appends a fragment (nothing when it is empty).
    #[inline]
    pub(crate) fn push(&mut self, bytes: Bytes) {
        if bytes.is_empty() {
            return;
        }
        let start = self.len;
        self.len += bytes.len();
        match self.count {
            0..=2 => self.head[self.count] = bytes,
            3 => {
                self.fragments.reserve(self.capacity.max(8));
                let mut at = 0;
                for bytes in core::mem::take(&mut self.head) {
                    let len = bytes.len();
                    self.fragments.push(Fragment { start: at, bytes });
                    at += len;
                }
                self.fragments.push(Fragment { start, bytes });
            }
            _ => self.fragments.push(Fragment { start, bytes }),
        }
        self.count += 1;
    }

    /// The string of the fragments collected.
    pub(crate) fn finish(self) -> ByteString {
        let repr = match self.count {
            0 => return ByteString::new(),
            1 => {
                let [a, _, _] = self.head;
                Repr::One(a)
            }
            2 => {
                let [a, b, _] = self.head;
                Repr::Two([a, b])
            }
            3 => Repr::Three(self.head),
            _ => Repr::Many(Arc::new(Rope {
                fragments: self.fragments,
                len: self.len,
                hint: AtomicUsize::new(0),
            })),
        };
        ByteString { repr }
    }
}

/// Byte `index` of the string made of `parts`, or `None` past its end.
#[inline]
fn get_in(parts: &[Bytes], mut index: usize) -> Option<u8> {
    for b in parts {
        match b.get(index) {
            Some(&byte) => return Some(byte),
            None => index -= b.len(),
        }
    }
    None
}

impl Rope {
    /// Appends a non-empty fragment (only on a rope nobody else shares).
    fn push(&mut self, bytes: Bytes) {
        debug_assert!(!bytes.is_empty());
        let start = self.len;
        self.len += bytes.len();
        self.fragments.push(Fragment { start, bytes });
    }

    /// The index of the fragment holding byte `index` (which must be `< len`).
    #[inline]
    pub(crate) fn locate(&self, index: usize) -> usize {
        debug_assert!(index < self.len);
        self.fragments.partition_point(|f| f.start <= index) - 1
    }

    #[inline]
    fn get(&self, index: usize) -> Option<u8> {
        let hint = self.hint.load(Ordering::Relaxed);
        // The hint is always a valid index, so this lookup cannot fail; `get` keeps the code
        // free of a panic path anyway.
        let f = self.fragments.get(hint);
        if let Some(&b) = f.and_then(|f| f.bytes.get(index.wrapping_sub(f.start))) {
            return Some(b);
        }
        self.get_cold(index, hint)
    }

    /// `get` when the hinted fragment does not hold `index`: try its neighbours (the next
    /// step of a forward or backward scan), else binary search; then move the hint.
    #[inline(never)]
    fn get_cold(&self, index: usize, hint: usize) -> Option<u8> {
        if index >= self.len {
            return None;
        }
        let near = [hint.wrapping_add(1), hint.wrapping_sub(1)];
        let found = near
            .into_iter()
            .find(|&i| {
                self.fragments
                    .get(i)
                    .is_some_and(|f| index.wrapping_sub(f.start) < f.bytes.len())
            })
            .unwrap_or_else(|| self.locate(index));
        self.hint.store(found, Ordering::Relaxed);
        let f = &self.fragments[found];
        Some(f.bytes[index - f.start])
    }
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

    /// The string of two non-empty fragments, held inline.
    #[inline]
    pub(crate) fn two(first: Bytes, second: Bytes) -> Self {
        debug_assert!(!first.is_empty() && !second.is_empty());
        ByteString {
            repr: Repr::Two([first, second]),
        }
    }

    /// Builds a string from fragments, dropping the empty ones. Keeps every other fragment
    /// as it is (use [`ByteStringBuilder`](crate::ByteStringBuilder) to merge tiny ones).
    pub(crate) fn from_parts(parts: Vec<Bytes>) -> Self {
        let mut out = Parts::with_capacity(parts.len());
        for b in parts {
            out.push(b);
        }
        out.finish()
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
        self.append_with(other, 0);
    }

    /// [`append`](Self::append), copying the junction into one fresh fragment when the last
    /// fragment of `self` and the first of `other` hold together at most `coalesce_limit`
    /// bytes (`append` passes 0: never; [`levels::append_joining`](crate::levels::append_joining)
    /// passes [`COALESCE_LIMIT`](crate::levels::COALESCE_LIMIT)).
    pub(crate) fn append_with(&mut self, other: &ByteString, coalesce_limit: usize) {
        if other.is_empty() {
            return;
        }
        if self.is_empty() {
            *self = other.clone();
            return;
        }
        let mut incoming = other.fragments();
        let mut first = incoming.next().cloned().unwrap_or_default();
        let last_len = self.fragments().next_back().map_or(0, Bytes::len);
        let join = last_len + first.len() <= coalesce_limit;
        let unshared = match &mut self.repr {
            Repr::Many(arc) => Arc::get_mut(arc),
            _ => None,
        };
        if let Some(rope) = unshared {
            if join {
                let last = rope.fragments.pop().map(|f| f.bytes).unwrap_or_default();
                rope.len -= last.len();
                first = joined(&last, &first);
            }
            rope.push(first);
            for b in incoming {
                rope.push(b.clone());
            }
            return;
        }
        let mut parts: Vec<Bytes> =
            Vec::with_capacity(self.fragment_count() + other.fragment_count());
        parts.extend(self.fragments().cloned());
        if join {
            let last = parts.pop().unwrap_or_default();
            first = joined(&last, &first);
        }
        parts.push(first);
        parts.extend(incoming.cloned());
        *self = ByteString::from_parts(parts);
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
    pub fn fragment_count(&self) -> usize {
        match &self.repr {
            Repr::One(b) => usize::from(!b.is_empty()),
            Repr::Two(_) => 2,
            Repr::Three(_) => 3,
            Repr::Many(r) => r.fragments.len(),
        }
    }

    /// Fragment `index` (for a one-fragment string, fragment 0 even when it is empty).
    #[inline]
    pub(crate) fn fragment(&self, index: usize) -> Option<&Bytes> {
        match &self.repr {
            Repr::One(b) => (index == 0).then_some(b),
            Repr::Two(pair) => pair.get(index),
            Repr::Three(parts) => parts.get(index),
            Repr::Many(r) => r.fragments.get(index).map(|f| &f.bytes),
        }
    }

    /// The fragment holding byte `at` (`at < len()`) and the offset of the byte in it.
    pub(crate) fn locate(&self, at: usize) -> (usize, usize) {
        debug_assert!(at < self.len());
        match &self.repr {
            Repr::One(_) => (0, at),
            Repr::Two([a, _]) if at < a.len() => (0, at),
            Repr::Two([a, _]) => (1, at - a.len()),
            Repr::Three([a, _, _]) if at < a.len() => (0, at),
            Repr::Three([a, b, _]) if at - a.len() < b.len() => (1, at - a.len()),
            Repr::Three([a, b, _]) => (2, at - a.len() - b.len()),
            Repr::Many(r) => {
                let i = r.locate(at);
                (i, at - r.fragments[i].start)
            }
        }
    }

    /// The fragments as byte slices, in order (none for the empty string, else none empty).
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_rope::ByteString;
    ///
    /// let s = ByteString::from(vec![b'a'; 80]).concat(&ByteString::from(vec![b'b'; 80]));
    /// let lens: Vec<usize> = s.chunks().map(<[u8]>::len).collect();
    /// assert_eq!(lens, [80, 80]);
    /// ```
    pub fn chunks(&self) -> Chunks<'_> {
        Chunks {
            inner: self.fragments(),
        }
    }

    /// The chunks from byte `from` on (`from <= len()`): the first one cut at `from`.
    pub(crate) fn chunks_from(&self, from: usize) -> impl Iterator<Item = &[u8]> {
        debug_assert!(from <= self.len());
        let (first, skip) = match &self.repr {
            Repr::One(_) => (0, from),
            _ if from < self.len() => self.locate(from),
            _ => (self.fragment_count(), 0),
        };
        self.chunks()
            .skip(first)
            .enumerate()
            .map(move |(k, c)| if k == 0 { &c[skip..] } else { c })
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
    pub fn split_at(&self, mid: usize) -> (ByteString, ByteString) {
        let len = self.len();
        assert!(
            mid <= len,
            "ByteString::split_at: mid {mid} is out of bounds for a string of length {len}"
        );
        (self.slice_unchecked(0, mid), self.slice_unchecked(mid, len))
    }

    /// The fragments as shared [`Bytes`], in order: clone them to keep or send a fragment
    /// without copying it.
    ///
    /// # Examples
    ///
    /// ```
    /// use bytes::Bytes;
    /// use wirebytes_rope::ByteString;
    ///
    /// let s = ByteString::from(Bytes::from_static(b"one"));
    /// let parts: Vec<Bytes> = s.fragments().cloned().collect();
    /// assert_eq!(parts, [Bytes::from_static(b"one")]);
    /// ```
    pub fn fragments(&self) -> Fragments<'_> {
        let inner = match &self.repr {
            Repr::One(b) if b.is_empty() => FragmentsInner::Flat([].iter()),
            Repr::One(b) => FragmentsInner::Flat(core::slice::from_ref(b).iter()),
            Repr::Two(pair) => FragmentsInner::Flat(pair.iter()),
            Repr::Three(parts) => FragmentsInner::Flat(parts.iter()),
            Repr::Many(r) => FragmentsInner::Many(r.fragments.iter()),
        };
        Fragments { inner }
    }

    /// The bytes one by one (prefer [`chunks`](Self::chunks) for bulk work).
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_rope::ByteString;
    ///
    /// let s = ByteString::from_static(b"ab").concat(&ByteString::from_static(b"c"));
    /// assert_eq!(s.iter().collect::<Vec<u8>>(), b"abc");
    /// ```
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = u8> + '_ {
        self.chunks().flat_map(|c| c.iter().copied())
    }

    /// One contiguous [`Bytes`] with the content: no copy when the string is one fragment,
    /// else one allocation of exactly `len()` bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_rope::ByteString;
    ///
    /// let s = ByteString::from(vec![1u8; 70]).concat(&ByteString::from(vec![2u8; 70]));
    /// let flat = s.compact();
    /// assert_eq!(flat.len(), 140);
    /// assert_eq!(s, flat);
    /// ```
    pub fn compact(&self) -> Bytes {
        match &self.repr {
            Repr::One(b) => b.clone(),
            _ => {
                let mut out = BytesMut::with_capacity(self.len());
                for c in self.chunks() {
                    out.extend_from_slice(c);
                }
                out.freeze()
            }
        }
    }

    /// The content copied into a `Vec<u8>` of exactly `len()` bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_rope::ByteString;
    ///
    /// let s = ByteString::from_static(b"ab").concat(&ByteString::from_static(b"c"));
    /// assert_eq!(s.to_vec(), b"abc");
    /// ```
    pub fn to_vec(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.len());
        for c in self.chunks() {
            out.extend_from_slice(c);
        }
        out
    }

    /// A reader over the whole string, implementing [`bytes::Buf`] and [`std::io::Read`],
    /// borrowing the string. O(1), no allocation.
    ///
    /// # Examples
    ///
    /// ```
    /// use bytes::Buf;
    /// use wirebytes_rope::ByteString;
    ///
    /// let s = ByteString::from_static(b"\x01\x02").concat(&ByteString::from_static(b"\x03\x04"));
    /// let mut reader = s.reader();
    /// assert_eq!(reader.get_u32_le(), 0x0403_0201);
    /// assert_eq!(reader.remaining(), 0);
    /// ```
    pub fn reader(&self) -> Reader<'_> {
        Reader::new(self)
    }

    /// An owning reader over the whole string (`'static` and `Send`, for a reader that must
    /// outlive the string or move to another thread), implementing [`bytes::Buf`] and
    /// [`std::io::Read`]. O(1), no allocation; each read costs a little more than with
    /// [`reader`](Self::reader).
    ///
    /// # Examples
    ///
    /// ```
    /// use bytes::Buf;
    /// use wirebytes_rope::ByteString;
    ///
    /// let s = ByteString::from_static(b"\x01\x02").concat(&ByteString::from_static(b"\x03\x04"));
    /// let handle = std::thread::spawn(move || s.into_reader().get_u32());
    /// assert_eq!(handle.join().unwrap(), 0x0102_0304);
    /// ```
    pub fn into_reader(self) -> IntoReader {
        IntoReader::new(self)
    }
}

/// The bytes of `a` then `b` in one fresh fragment.
fn joined(a: &[u8], b: &[u8]) -> Bytes {
    let mut out = Vec::with_capacity(a.len() + b.len());
    out.extend_from_slice(a);
    out.extend_from_slice(b);
    Bytes::from(out)
}

impl Default for ByteString {
    fn default() -> Self {
        ByteString::new()
    }
}

/// The fragments of a [`ByteString`] as shared [`Bytes`]: see [`ByteString::fragments`].
#[derive(Debug, Clone)]
pub struct Fragments<'a> {
    inner: FragmentsInner<'a>,
}

#[derive(Debug, Clone)]
enum FragmentsInner<'a> {
    Flat(core::slice::Iter<'a, Bytes>),
    Many(core::slice::Iter<'a, Fragment>),
}

impl<'a> Iterator for Fragments<'a> {
    type Item = &'a Bytes;

    #[inline]
    fn next(&mut self) -> Option<&'a Bytes> {
        match &mut self.inner {
            FragmentsInner::Flat(it) => it.next(),
            FragmentsInner::Many(it) => it.next().map(|f| &f.bytes),
        }
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.len();
        (n, Some(n))
    }
}

impl DoubleEndedIterator for Fragments<'_> {
    #[inline]
    fn next_back(&mut self) -> Option<Self::Item> {
        match &mut self.inner {
            FragmentsInner::Flat(it) => it.next_back(),
            FragmentsInner::Many(it) => it.next_back().map(|f| &f.bytes),
        }
    }
}

impl ExactSizeIterator for Fragments<'_> {
    fn len(&self) -> usize {
        match &self.inner {
            FragmentsInner::Flat(it) => it.len(),
            FragmentsInner::Many(it) => it.len(),
        }
    }
}

impl core::iter::FusedIterator for Fragments<'_> {}

/// The fragments of a [`ByteString`] as byte slices: see [`ByteString::chunks`].
#[derive(Debug, Clone)]
pub struct Chunks<'a> {
    inner: Fragments<'a>,
}

impl<'a> Iterator for Chunks<'a> {
    type Item = &'a [u8];

    #[inline]
    fn next(&mut self) -> Option<&'a [u8]> {
        self.inner.next().map(|b| &b[..])
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.inner.size_hint()
    }
}

impl DoubleEndedIterator for Chunks<'_> {
    #[inline]
    fn next_back(&mut self) -> Option<Self::Item> {
        self.inner.next_back().map(|b| &b[..])
    }
}

impl ExactSizeIterator for Chunks<'_> {
    fn len(&self) -> usize {
        self.inner.len()
    }
}

impl core::iter::FusedIterator for Chunks<'_> {}

impl core::fmt::Debug for Fragment {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Fragment")
            .field("start", &self.start)
            .field("len", &self.bytes.len())
            .finish()
    }
}

impl From<Bytes> for ByteString {
    /// A one-fragment string: no copy, no allocation.
    ///
    /// # Examples
    ///
    /// ```
    /// use bytes::Bytes;
    /// use wirebytes_rope::ByteString;
    ///
    /// assert_eq!(ByteString::from(Bytes::from_static(b"hi")), "hi");
    /// ```
    fn from(bytes: Bytes) -> Self {
        ByteString {
            repr: Repr::One(bytes),
        }
    }
}

impl From<BytesMut> for ByteString {
    /// A one-fragment string of the frozen buffer: no copy.
    ///
    /// # Examples
    ///
    /// ```
    /// use bytes::BytesMut;
    /// use wirebytes_rope::ByteString;
    ///
    /// assert_eq!(ByteString::from(BytesMut::from(&b"hi"[..])), "hi");
    /// ```
    fn from(bytes: BytesMut) -> Self {
        ByteString::from(bytes.freeze())
    }
}

impl From<Vec<u8>> for ByteString {
    /// A one-fragment string owning the vector: no copy.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_rope::ByteString;
    ///
    /// assert_eq!(ByteString::from(vec![104, 105]), "hi");
    /// ```
    fn from(bytes: Vec<u8>) -> Self {
        ByteString::from(Bytes::from(bytes))
    }
}

impl From<String> for ByteString {
    /// A one-fragment string of the UTF-8 bytes: no copy.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_rope::ByteString;
    ///
    /// assert_eq!(ByteString::from("hi".to_string()), "hi");
    /// ```
    fn from(text: String) -> Self {
        ByteString::from(Bytes::from(text))
    }
}

impl From<&'static [u8]> for ByteString {
    /// A one-fragment string of static bytes: no copy, no allocation.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_rope::ByteString;
    ///
    /// assert_eq!(ByteString::from(&b"hi"[..]), "hi");
    /// ```
    fn from(bytes: &'static [u8]) -> Self {
        ByteString::from_static(bytes)
    }
}

impl From<&'static str> for ByteString {
    /// A one-fragment string of static UTF-8 bytes: no copy, no allocation.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_rope::ByteString;
    ///
    /// assert_eq!(ByteString::from("hi"), "hi");
    /// ```
    fn from(text: &'static str) -> Self {
        ByteString::from_static(text.as_bytes())
    }
}

impl From<ByteString> for Bytes {
    /// The content as one [`Bytes`]: see [`ByteString::compact`].
    ///
    /// # Examples
    ///
    /// ```
    /// use bytes::Bytes;
    /// use wirebytes_rope::ByteString;
    ///
    /// let s = ByteString::from(vec![1u8; 70]).concat(&ByteString::from(vec![2u8; 70]));
    /// assert_eq!(Bytes::from(s).len(), 140);
    /// ```
    fn from(s: ByteString) -> Self {
        match s.repr {
            Repr::One(b) => b,
            _ => s.compact(),
        }
    }
}

impl FromIterator<Bytes> for ByteString {
    /// A string of these fragments, in order, each kept as it is (empty ones are dropped).
    ///
    /// # Examples
    ///
    /// ```
    /// use bytes::Bytes;
    /// use wirebytes_rope::ByteString;
    ///
    /// let s: ByteString = ["a", "", "bc"].into_iter().map(|t: &'static str| Bytes::from_static(t.as_bytes())).collect();
    /// assert_eq!(s, "abc");
    /// assert_eq!(s.fragment_count(), 2);
    /// ```
    fn from_iter<I: IntoIterator<Item = Bytes>>(iter: I) -> Self {
        let iter = iter.into_iter();
        let mut parts = Parts::with_capacity(iter.size_hint().0);
        for b in iter {
            parts.push(b);
        }
        parts.finish()
    }
}

impl FromIterator<ByteString> for ByteString {
    /// The concatenation of these strings, fragments kept as they are.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_rope::ByteString;
    ///
    /// let s: ByteString = ["ab", "cd"].into_iter().map(ByteString::from).collect();
    /// assert_eq!(s, "abcd");
    /// ```
    fn from_iter<I: IntoIterator<Item = ByteString>>(iter: I) -> Self {
        let mut parts = Vec::new();
        for s in iter {
            parts.extend(s.fragments().cloned());
        }
        ByteString::from_parts(parts)
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

impl<'a> IntoIterator for &'a ByteString {
    type Item = &'a [u8];
    type IntoIter = Chunks<'a>;

    /// The fragments as slices: see [`ByteString::chunks`].
    fn into_iter(self) -> Chunks<'a> {
        self.chunks()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn send_sync() {
        fn check<T: Send + Sync + 'static>() {}
        check::<ByteString>();
        check::<IntoReader>();
        check::<Reader<'static>>();
    }

    #[test]
    fn many_has_no_empty_fragment_and_offsets_are_prefix_sums() {
        let s: ByteString = ["", "ab", "", "c", "def", "", "g"]
            .into_iter()
            .map(|t: &'static str| Bytes::from_static(t.as_bytes()))
            .collect();
        let Repr::Many(r) = &s.repr else {
            panic!("four fragments must be Many")
        };
        let starts: Vec<usize> = r.fragments.iter().map(|f| f.start).collect();
        assert_eq!(starts, [0, 2, 3, 6]);
        assert_eq!(r.len, 7);
    }

    #[test]
    fn up_to_three_fragments_are_held_inline() {
        let (a, b) = (Bytes::from(vec![1u8; 70]), Bytes::from(vec![2u8; 80]));
        let c = Bytes::from(vec![3u8; 5]);
        let two = ByteString::from(a.clone()).concat(&ByteString::from(b.clone()));
        assert!(matches!(two.repr, Repr::Two(_)));
        assert_eq!(
            (two.get(69), two.get(70), two.get(149), two.get(150)),
            (Some(1), Some(2), Some(2), None)
        );
        let three = two.concat(&ByteString::from(c.clone()));
        assert!(matches!(three.repr, Repr::Three(_)));
        assert_eq!(
            (
                three.get(149),
                three.get(150),
                three.get(154),
                three.get(155)
            ),
            (Some(2), Some(3), Some(3), None)
        );
        assert_eq!(
            [0, 69, 70, 149, 150, 154].map(|at| three.locate(at)),
            [(0, 0), (0, 69), (1, 0), (1, 79), (2, 0), (2, 4)]
        );
        // Slices of longer ropes that cover two or three fragments, and a split across a
        // boundary.
        let four = three.concat(&ByteString::from(Bytes::from(vec![4u8; 9])));
        assert!(matches!(four.repr, Repr::Many(_)));
        assert!(matches!(four.slice(100..152).repr, Repr::Two(_)));
        assert!(matches!(four.slice(60..155).repr, Repr::Three(_)));
        assert!(matches!(four.slice(60..156).repr, Repr::Many(_)));
        assert!(matches!(three.slice(60..152).repr, Repr::Three(_)));
        assert!(matches!(three.slice(71..152).repr, Repr::Two(_)));
        assert!(matches!(three.slice(150..152).repr, Repr::One(_)));
        assert_eq!(three.slice(69..151), [&[1u8][..], &[2; 80], &[3]].concat());
        assert!(matches!(two.slice(60..75).repr, Repr::Two(_)));
        assert!(matches!(two.slice(60..70).repr, Repr::One(_)));
        let mut queue: crate::ByteQueue = [a, b, c].into_iter().collect();
        assert!(matches!(queue.split_to(10).repr, Repr::One(_)));
        let frame = queue.split_to(142);
        assert!(matches!(frame.repr, Repr::Three(_)));
        assert_eq!(frame, [&[1u8; 60][..], &[2; 80], &[3; 2]].concat());
        assert_eq!(queue, [3u8; 3][..]);
        assert!(
            size_of::<ByteString>() <= 3 * size_of::<Bytes>() + size_of::<usize>(),
            "{} bytes",
            size_of::<ByteString>()
        );
    }

    #[test]
    fn hint_follows_the_last_resolved_fragment() {
        let s: ByteString = ["ab", "cd", "ef", "gh"]
            .into_iter()
            .map(|t: &'static str| Bytes::from_static(t.as_bytes()))
            .collect();
        let Repr::Many(r) = &s.repr else {
            panic!("four fragments must be Many")
        };
        assert_eq!(s.get(7), Some(b'h'));
        assert_eq!(r.hint.load(Ordering::Relaxed), 3);
        assert_eq!(s.get(2), Some(b'c'));
        assert_eq!(r.hint.load(Ordering::Relaxed), 1);
        assert_eq!(s.get(8), None);
        assert_eq!(r.hint.load(Ordering::Relaxed), 1);
    }
}
