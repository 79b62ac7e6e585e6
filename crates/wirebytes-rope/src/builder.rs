//! [`ByteStringBuilder`]: builds a [`ByteString`] from writes and shared fragments.

use bytes::buf::UninitSlice;
use bytes::{BufMut, Bytes, BytesMut};

use crate::string::ByteString;

/// Appended [`Bytes`] shorter than this are copied into the pending buffer rather than kept
/// as fragments of their own.
const TINY: usize = 64;

/// Builds a [`ByteString`]: small writes (through [`BufMut`] or
/// [`extend_from_slice`](Self::extend_from_slice)) are gathered into one buffer, appended
/// [`Bytes`] of 64 bytes or more are kept as fragments without copying.
///
/// # Examples
///
/// ```
/// use bytes::{BufMut, Bytes};
/// use wirebytes_rope::ByteStringBuilder;
///
/// let body = Bytes::from(vec![b'x'; 1000]);
/// let mut b = ByteStringBuilder::new();
/// b.put_u32_le(body.len() as u32); // small writes are gathered
/// b.put_u8(7);
/// b.push(body.clone()); // kept as it is, not copied
/// let s = b.build();
/// assert_eq!(s.len(), 1005);
/// assert_eq!(s.fragment_count(), 2);
/// assert_eq!(s.slice(5..), body);
/// ```
#[derive(Debug, Clone, Default)]
pub struct ByteStringBuilder {
    done: Vec<Bytes>,
    done_len: usize,
    pending: BytesMut,
}

impl ByteStringBuilder {
    /// An empty builder. Does not allocate.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_rope::ByteStringBuilder;
    ///
    /// assert!(ByteStringBuilder::new().build().is_empty());
    /// ```
    #[must_use]
    pub fn new() -> Self {
        ByteStringBuilder::default()
    }

    /// An empty builder whose write buffer holds `capacity` bytes before it grows.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_rope::ByteStringBuilder;
    ///
    /// let mut b = ByteStringBuilder::with_capacity(64);
    /// b.extend_from_slice(b"abc");
    /// assert_eq!(b.build(), "abc");
    /// ```
    #[must_use]
    pub fn with_capacity(capacity: usize) -> Self {
        ByteStringBuilder {
            pending: BytesMut::with_capacity(capacity),
            ..ByteStringBuilder::default()
        }
    }

    /// The number of bytes written so far.
    ///
    /// # Examples
    ///
    /// ```
    /// use bytes::Bytes;
    /// use wirebytes_rope::ByteStringBuilder;
    ///
    /// let mut b = ByteStringBuilder::new();
    /// b.extend_from_slice(b"ab");
    /// b.push(Bytes::from(vec![0; 100]));
    /// assert_eq!(b.len(), 102);
    /// ```
    #[must_use]
    pub fn len(&self) -> usize {
        self.done_len + self.pending.len()
    }

    /// True when nothing was written yet.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_rope::ByteStringBuilder;
    ///
    /// assert!(ByteStringBuilder::new().is_empty());
    /// ```
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Copies `src` into the write buffer.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_rope::ByteStringBuilder;
    ///
    /// let mut b = ByteStringBuilder::new();
    /// b.extend_from_slice(b"ab");
    /// b.extend_from_slice(b"cd");
    /// let s = b.build();
    /// assert_eq!(s, "abcd");
    /// assert_eq!(s.fragment_count(), 1);
    /// ```
    pub fn extend_from_slice(&mut self, src: &[u8]) {
        self.pending.extend_from_slice(src);
    }

    /// Appends a shared fragment: kept without copying when it holds 64 bytes or more, else
    /// copied into the write buffer.
    ///
    /// # Examples
    ///
    /// ```
    /// use bytes::Bytes;
    /// use wirebytes_rope::ByteStringBuilder;
    ///
    /// let mut b = ByteStringBuilder::new();
    /// b.push(Bytes::from_static(b"tiny, copied "));
    /// b.push(Bytes::from(vec![b'!'; 64]));
    /// assert_eq!(b.build().fragment_count(), 2);
    /// ```
    pub fn push(&mut self, bytes: Bytes) {
        if bytes.len() < TINY {
            self.pending.extend_from_slice(&bytes);
            return;
        }
        self.flush();
        self.done_len += bytes.len();
        self.done.push(bytes);
    }

    /// Appends every fragment of `string` as [`push`](Self::push) does.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_rope::{ByteString, ByteStringBuilder};
    ///
    /// let mut b = ByteStringBuilder::new();
    /// b.append(&ByteString::from_static(b"ab"));
    /// b.append(&ByteString::from_static(b"cd"));
    /// assert_eq!(b.build(), "abcd");
    /// ```
    pub fn append(&mut self, string: &ByteString) {
        for b in string.fragments() {
            self.push(b.clone());
        }
    }

    /// Moves the write buffer's bytes into a fragment of their own (keeping its spare
    /// capacity for the next writes).
    fn flush(&mut self) {
        if !self.pending.is_empty() {
            let written = self.pending.split().freeze();
            self.done_len += written.len();
            self.done.push(written);
        }
    }

    /// The string built.
    ///
    /// # Examples
    ///
    /// ```
    /// use bytes::BufMut;
    /// use wirebytes_rope::ByteStringBuilder;
    ///
    /// let mut b = ByteStringBuilder::new();
    /// b.put_u16(0x4142);
    /// assert_eq!(b.build(), "AB");
    /// ```
    #[must_use]
    pub fn build(mut self) -> ByteString {
        self.flush();
        self.done.into_iter().collect()
    }
}

impl Extend<Bytes> for ByteStringBuilder {
    /// Appends each fragment as [`ByteStringBuilder::push`] does.
    fn extend<I: IntoIterator<Item = Bytes>>(&mut self, iter: I) {
        for b in iter {
            self.push(b);
        }
    }
}

#[allow(
    unsafe_code,
    reason = "BufMut is an unsafe trait: implementing it needs `unsafe impl`"
)]
// SAFETY: every method forwards to `BytesMut`'s own `BufMut` implementation, which upholds
// the trait's contract; the builder never touches the buffer's bytes or length itself except
// through `BytesMut`'s safe API (`split`, `extend_from_slice`).
unsafe impl BufMut for ByteStringBuilder {
    /// What may still be written: the built string's length is a `usize`, so `usize::MAX`
    /// less every byte the builder holds (its fragments included). The write buffer grows as
    /// needed, so [`chunk_mut`](BufMut::chunk_mut) is never empty.
    #[inline]
    fn remaining_mut(&self) -> usize {
        usize::MAX - self.len()
    }

    #[inline]
    unsafe fn advance_mut(&mut self, cnt: usize) {
        // SAFETY: the caller guarantees, as `BufMut::advance_mut` requires, that the next
        // `cnt` bytes of `chunk_mut()` (which is `self.pending.chunk_mut()`) are initialised.
        unsafe { self.pending.advance_mut(cnt) }
    }

    #[inline]
    fn chunk_mut(&mut self) -> &mut UninitSlice {
        self.pending.chunk_mut()
    }

    #[inline]
    fn put_slice(&mut self, src: &[u8]) {
        self.pending.extend_from_slice(src);
    }

    #[inline]
    fn put_bytes(&mut self, val: u8, cnt: usize) {
        self.pending.put_bytes(val, cnt);
    }
}
