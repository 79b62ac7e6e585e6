//! The iterators over a [`ByteString`] and a [`ByteQueue`](crate::ByteQueue): [`Fragments`]
//! (the shared `Bytes`), [`Chunks`] (the same as byte slices) and [`Iter`] (the bytes).

use core::iter::FusedIterator;
use std::collections::vec_deque;

use bytes::Bytes;

use crate::repr::{Fragment, Repr};
use crate::string::ByteString;

impl ByteString {
    /// The fragments as byte slices, in order: none for the empty string, else none empty.
    /// Their concatenation is the string.
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
    #[must_use]
    pub fn chunks(&self) -> Chunks<'_> {
        Chunks {
            inner: self.fragments(),
        }
    }

    /// The fragments as shared [`Bytes`], in order (none for the empty string, else none
    /// empty): clone one to keep or send it without copying its bytes.
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
    #[must_use]
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

    /// The bytes one by one, from either end: the same bytes as `&ByteString`'s
    /// [`IntoIterator`]. Each step reads the current fragment as a slice; prefer
    /// [`chunks`](Self::chunks) for bulk work.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_rope::ByteString;
    ///
    /// let s = ByteString::from_static(b"ab").concat(&ByteString::from_static(b"c"));
    /// assert_eq!(s.iter().collect::<Vec<u8>>(), b"abc");
    /// assert_eq!(s.iter().rev().collect::<Vec<u8>>(), b"cba");
    /// assert_eq!(s.iter().len(), 3);
    /// let mut sum = 0u32;
    /// for byte in &s {
    ///     sum += u32::from(byte);
    /// }
    /// assert_eq!(sum, u32::from(b'a') + u32::from(b'b') + u32::from(b'c'));
    /// ```
    #[must_use]
    pub fn iter(&self) -> Iter<'_> {
        Iter::new(self.chunks(), self.len())
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
}

/// The fragments of a [`ByteString`] or a [`ByteQueue`](crate::ByteQueue) as shared
/// [`Bytes`], in order: see [`ByteString::fragments`] and
/// [`ByteQueue::fragments`](crate::ByteQueue::fragments).
///
/// # Examples
///
/// ```
/// use bytes::Bytes;
/// use wirebytes_rope::{ByteString, Fragments};
///
/// let s: ByteString = [Bytes::from_static(b"ab"), Bytes::from_static(b"c")].into_iter().collect();
/// let mut fragments: Fragments<'_> = s.fragments();
/// assert_eq!(fragments.len(), 2);
/// assert_eq!(fragments.next_back(), Some(&Bytes::from_static(b"c")));
/// ```
#[derive(Debug, Clone)]
pub struct Fragments<'a> {
    inner: FragmentsInner<'a>,
}

#[derive(Debug, Clone)]
enum FragmentsInner<'a> {
    /// A string of up to three fragments.
    Flat(core::slice::Iter<'a, Bytes>),
    /// A string of four or more.
    Many(core::slice::Iter<'a, Fragment>),
    /// A queue's fragments.
    Queue(vec_deque::Iter<'a, Bytes>),
}

impl<'a> Fragments<'a> {
    /// The fragments of a queue.
    pub(crate) fn queue(fragments: vec_deque::Iter<'a, Bytes>) -> Fragments<'a> {
        Fragments {
            inner: FragmentsInner::Queue(fragments),
        }
    }
}

impl<'a> Iterator for Fragments<'a> {
    type Item = &'a Bytes;

    #[inline]
    fn next(&mut self) -> Option<&'a Bytes> {
        match &mut self.inner {
            FragmentsInner::Flat(it) => it.next(),
            FragmentsInner::Many(it) => it.next().map(|f| &f.bytes),
            FragmentsInner::Queue(it) => it.next(),
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
            FragmentsInner::Queue(it) => it.next_back(),
        }
    }
}

impl ExactSizeIterator for Fragments<'_> {
    fn len(&self) -> usize {
        match &self.inner {
            FragmentsInner::Flat(it) => it.len(),
            FragmentsInner::Many(it) => it.len(),
            FragmentsInner::Queue(it) => it.len(),
        }
    }
}

impl FusedIterator for Fragments<'_> {}

/// The fragments of a [`ByteString`] or a [`ByteQueue`](crate::ByteQueue) as byte slices,
/// in order, none of them empty: see [`ByteString::chunks`] and
/// [`ByteQueue::chunks`](crate::ByteQueue::chunks).
///
/// # Examples
///
/// ```
/// use std::io::IoSlice;
/// use wirebytes_rope::{ByteString, Chunks};
///
/// let s = ByteString::from_static(b"head").concat(&ByteString::from_static(b"body"));
/// let chunks: Chunks<'_> = s.chunks();
/// let slices: Vec<IoSlice<'_>> = chunks.map(IoSlice::new).collect(); // for a vectored write
/// assert_eq!(slices.len(), 2);
/// ```
#[derive(Debug, Clone)]
pub struct Chunks<'a> {
    inner: Fragments<'a>,
}

impl<'a> Chunks<'a> {
    /// The chunks of these fragments.
    pub(crate) fn new(inner: Fragments<'a>) -> Chunks<'a> {
        Chunks { inner }
    }
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

impl FusedIterator for Chunks<'_> {}

/// The bytes of a [`ByteString`], one by one, from either end: see [`ByteString::iter`]
/// and `&ByteString`'s [`IntoIterator`].
///
/// It holds the unread part of the fragment at each end as a slice iterator, so a step
/// inside a fragment costs what it costs on a `&[u8]`; `fold` (and so `for_each`, `sum`,
/// `collect` into a `Vec`) runs a slice loop per fragment.
///
/// # Examples
///
/// ```
/// use wirebytes_rope::{ByteString, Iter};
///
/// let s = ByteString::from_static(b"abc").concat(&ByteString::from_static(b"def"));
/// let mut bytes: Iter<'_> = s.iter();
/// assert_eq!((bytes.next(), bytes.next_back()), (Some(b'a'), Some(b'f')));
/// assert_eq!(bytes.len(), 4);
/// assert_eq!(bytes.collect::<Vec<u8>>(), b"bcde");
/// ```
#[derive(Debug, Clone)]
pub struct Iter<'a> {
    /// The unread rest of the fragment at the front.
    front: core::slice::Iter<'a, u8>,
    /// The fragments between the two ends, none started.
    chunks: Chunks<'a>,
    /// The unread part of the fragment at the back.
    back: core::slice::Iter<'a, u8>,
    /// The bytes not yet read from either end.
    len: usize,
}

impl<'a> Iter<'a> {
    /// The bytes of `chunks`, `len` of them in all.
    fn new(chunks: Chunks<'a>, len: usize) -> Iter<'a> {
        Iter {
            front: [].iter(),
            chunks,
            back: [].iter(),
            len,
        }
    }
}

impl Iterator for Iter<'_> {
    type Item = u8;

    #[inline]
    fn next(&mut self) -> Option<u8> {
        loop {
            if let Some(&b) = self.front.next() {
                self.len -= 1;
                return Some(b);
            }
            match self.chunks.next() {
                Some(c) => self.front = c.iter(),
                None => {
                    let &b = self.back.next()?;
                    self.len -= 1;
                    return Some(b);
                }
            }
        }
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.len, Some(self.len))
    }

    #[inline]
    fn count(self) -> usize {
        self.len
    }

    fn fold<B, F: FnMut(B, u8) -> B>(self, init: B, mut f: F) -> B {
        let mut acc = self.front.copied().fold(init, &mut f);
        for c in self.chunks {
            acc = c.iter().copied().fold(acc, &mut f);
        }
        self.back.copied().fold(acc, f)
    }
}

impl DoubleEndedIterator for Iter<'_> {
    #[inline]
    fn next_back(&mut self) -> Option<u8> {
        loop {
            if let Some(&b) = self.back.next_back() {
                self.len -= 1;
                return Some(b);
            }
            match self.chunks.next_back() {
                Some(c) => self.back = c.iter(),
                None => {
                    let &b = self.front.next_back()?;
                    self.len -= 1;
                    return Some(b);
                }
            }
        }
    }

    fn rfold<B, F: FnMut(B, u8) -> B>(self, init: B, mut f: F) -> B {
        let mut acc = self.back.copied().rfold(init, &mut f);
        for c in self.chunks.rev() {
            acc = c.iter().copied().rfold(acc, &mut f);
        }
        self.front.copied().rfold(acc, f)
    }
}

impl ExactSizeIterator for Iter<'_> {
    #[inline]
    fn len(&self) -> usize {
        self.len
    }
}

impl FusedIterator for Iter<'_> {}

impl<'a> IntoIterator for &'a ByteString {
    type Item = u8;
    type IntoIter = Iter<'a>;

    /// The bytes one by one, as `&Bytes` gives them: see [`ByteString::iter`] (and
    /// [`ByteString::chunks`] for the fragments).
    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}
