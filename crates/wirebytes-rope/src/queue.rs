//! [`ByteQueue`]: bytes appended at the back as they arrive, consumed from the front as frames.

use std::collections::VecDeque;
use std::fmt;
use std::io::{self, IoSlice};

use bytes::{Buf, Bytes, BytesMut};

use crate::iter::{Chunks, Fragments};
use crate::reader::getters;
use crate::repr::Parts;
use crate::search::find_in_chunks;
use crate::string::ByteString;

/// The buffer of a framing decoder: [`Bytes`] pushed at the back as they arrive, frames taken
/// from the front as [`ByteString`]s, and no byte ever copied on the way.
///
/// - [`push`](Self::push) is amortised O(1) and keeps the `Bytes` as a fragment (an empty
///   one is dropped);
/// - [`split_to`](Self::split_to) hands out the first `n` bytes as a `ByteString` sharing
///   the fragments;
/// - [`peek_u32_be`](Self::peek_u32_be) and friends, [`get`](Self::get), [`find`](Self::find)
///   and [`find_byte`](Self::find_byte) look without consuming, across fragment boundaries;
/// - [`Buf`] reads from the front: [`copy_to_bytes`](Buf::copy_to_bytes) shares the fragment
///   when the bytes lie in one, [`chunks_vectored`](Buf::chunks_vectored) gives the remaining
///   fragments in order for a vectored write.
///
/// A fragment is released the moment its last byte is consumed, so the queue pins no memory
/// for bytes already handed out: what stays allocated is the unconsumed bytes (and the rest
/// of the buffers they share) plus the frames still alive.
///
/// # Examples
///
/// A length-prefixed frame decoder over a socket read loop: each read becomes one fragment,
/// each frame a `ByteString` that shares the reads it spans. (With the `tokio` feature,
/// `read_buf_from` reads from an `AsyncRead` into room that is never zero-filled, and
/// `FrameReader` is this loop as a `Stream`.)
///
/// ```
/// use std::io::Read;
/// use bytes::{Buf, BytesMut};
/// use wirebytes_rope::{ByteQueue, ByteString};
///
/// /// Takes every complete frame (u32 big-endian length, then the payload) off the queue.
/// fn decode(queue: &mut ByteQueue, frames: &mut Vec<ByteString>) {
///     while let Some(len) = queue.peek_u32_be(0) {
///         let len = len as usize;
///         if queue.len() < 4 + len {
///             break; // wait for more bytes
///         }
///         queue.advance(4);
///         frames.push(queue.split_to(len));
///     }
/// }
///
/// // Any `Read` works the same: a `TcpStream`, here a slice that returns 5 bytes at a time.
/// let wire: &[u8] = b"\0\0\0\x05hello\0\0\0\0\0\0\0\x07, world";
/// let mut socket = wire.chunks(5).flat_map(|c| c.to_vec()).collect::<Vec<u8>>();
/// let mut socket = &socket[..];
/// let mut queue = ByteQueue::new();
/// let mut frames = Vec::new();
/// loop {
///     let mut buf = BytesMut::zeroed(5);
///     let n = socket.read(&mut buf).unwrap();
///     if n == 0 {
///         break;
///     }
///     buf.truncate(n);
///     queue.push(buf.freeze()); // no copy
///     decode(&mut queue, &mut frames);
/// }
/// assert_eq!(frames, [&b"hello"[..], b"", b", world"]);
/// assert!(queue.is_empty());
/// ```
#[derive(Clone, Default)]
pub struct ByteQueue {
    /// The unconsumed bytes, none of the fragments empty.
    chunks: VecDeque<Bytes>,
    len: usize,
    /// Where reads from an `AsyncRead` land before they become fragments.
    #[cfg(feature = "tokio")]
    pub(crate) read: crate::read::ReadBuffer,
}

impl ByteQueue {
    /// An empty queue. Does not allocate.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_rope::ByteQueue;
    ///
    /// assert!(ByteQueue::new().is_empty());
    /// ```
    #[must_use]
    pub const fn new() -> Self {
        ByteQueue {
            chunks: VecDeque::new(),
            len: 0,
            #[cfg(feature = "tokio")]
            read: crate::read::ReadBuffer::new(),
        }
    }

    /// An empty queue with room for `fragments` fragments before its list grows.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_rope::ByteQueue;
    ///
    /// let queue = ByteQueue::with_capacity(16);
    /// assert_eq!(queue.len(), 0);
    /// ```
    #[must_use]
    pub fn with_capacity(fragments: usize) -> Self {
        ByteQueue {
            chunks: VecDeque::with_capacity(fragments),
            len: 0,
            #[cfg(feature = "tokio")]
            read: crate::read::ReadBuffer::new(),
        }
    }

    /// Appends `bytes` as one fragment, without copying: amortised O(1). An empty `bytes` is
    /// dropped and changes nothing.
    ///
    /// # Examples
    ///
    /// ```
    /// use bytes::Bytes;
    /// use wirebytes_rope::ByteQueue;
    ///
    /// let mut queue = ByteQueue::new();
    /// queue.push(Bytes::from_static(b"ab"));
    /// queue.push(Bytes::new());
    /// queue.push(Bytes::from_static(b"c"));
    /// assert_eq!(queue, b"abc"[..]);
    /// assert_eq!(queue.fragment_count(), 2);
    /// ```
    #[inline]
    pub fn push(&mut self, bytes: Bytes) {
        if !bytes.is_empty() {
            self.len += bytes.len();
            self.chunks.push_back(bytes);
        }
    }

    /// The number of unconsumed bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use bytes::Bytes;
    /// use wirebytes_rope::ByteQueue;
    ///
    /// let mut queue = ByteQueue::new();
    /// queue.push(Bytes::from_static(b"abc"));
    /// assert_eq!(queue.len(), 3);
    /// ```
    #[inline]
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when no byte is left.
    ///
    /// # Examples
    ///
    /// ```
    /// use bytes::Bytes;
    /// use wirebytes_rope::ByteQueue;
    ///
    /// let mut queue = ByteQueue::new();
    /// assert!(queue.is_empty());
    /// queue.push(Bytes::from_static(b"x"));
    /// assert!(!queue.is_empty());
    /// ```
    #[inline]
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The number of fragments holding unconsumed bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use bytes::{Buf, Bytes};
    /// use wirebytes_rope::ByteQueue;
    ///
    /// let mut queue: ByteQueue = [Bytes::from_static(b"ab"), Bytes::from_static(b"cd")].into_iter().collect();
    /// assert_eq!(queue.fragment_count(), 2);
    /// queue.advance(2); // the first fragment is released
    /// assert_eq!(queue.fragment_count(), 1);
    /// ```
    #[must_use]
    pub fn fragment_count(&self) -> usize {
        self.chunks.len()
    }

    /// The unconsumed bytes as slices, fragment by fragment, in order (none of them empty):
    /// the same [`Chunks`] iterator as [`ByteString::chunks`].
    ///
    /// # Examples
    ///
    /// ```
    /// use bytes::{Buf, Bytes};
    /// use wirebytes_rope::{ByteQueue, Chunks};
    ///
    /// let mut queue: ByteQueue = [Bytes::from_static(b"ab"), Bytes::from_static(b"cd")].into_iter().collect();
    /// queue.advance(1);
    /// let chunks: Chunks<'_> = queue.chunks();
    /// assert_eq!(chunks.collect::<Vec<_>>(), [&b"b"[..], b"cd"]);
    /// ```
    #[must_use]
    pub fn chunks(&self) -> Chunks<'_> {
        Chunks::new(self.fragments())
    }

    /// The unconsumed bytes as shared [`Bytes`], fragment by fragment, in order (none of
    /// them empty): clone one to keep or send it without copying its bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use bytes::{Buf, Bytes};
    /// use wirebytes_rope::ByteQueue;
    ///
    /// let mut queue: ByteQueue = [Bytes::from_static(b"ab"), Bytes::from_static(b"cd")].into_iter().collect();
    /// queue.advance(1);
    /// let parts: Vec<Bytes> = queue.fragments().cloned().collect();
    /// assert_eq!(parts, [Bytes::from_static(b"b"), Bytes::from_static(b"cd")]);
    /// ```
    #[must_use]
    pub fn fragments(&self) -> Fragments<'_> {
        Fragments::queue(self.chunks.iter())
    }

    /// The fragments as slices, for the searches and comparisons inside the crate (one
    /// closure instead of the public iterators' dispatch on what they walk).
    #[inline]
    fn slices(&self) -> impl Iterator<Item = &[u8]> {
        self.chunks.iter().map(|b| &b[..])
    }

    /// The byte at `index` from the front, or `None` when `index >= len()`. O(fragments
    /// before it): meant for looking near the front, as a decoder does.
    ///
    /// # Examples
    ///
    /// ```
    /// use bytes::Bytes;
    /// use wirebytes_rope::ByteQueue;
    ///
    /// let queue: ByteQueue = [Bytes::from_static(b"ab"), Bytes::from_static(b"cd")].into_iter().collect();
    /// assert_eq!(queue.get(2), Some(b'c'));
    /// assert_eq!(queue.get(4), None);
    /// ```
    #[must_use]
    pub fn get(&self, mut index: usize) -> Option<u8> {
        for c in &self.chunks {
            if let Some(&b) = c.get(index) {
                return Some(b);
            }
            index -= c.len();
        }
        None
    }

    /// The `N` bytes from offset `at`, or `None` when they are not all there.
    #[inline]
    fn peek<const N: usize>(&self, at: usize) -> Option<[u8; N]> {
        let end = at.checked_add(N)?;
        if end > self.len {
            return None;
        }
        if let Some(bytes) = self.chunks.front().and_then(|front| front.get(at..end)) {
            return bytes.try_into().ok();
        }
        let mut value = [0; N];
        self.copy_at(at, &mut value);
        Some(value)
    }

    /// Copies the `dst.len()` bytes from offset `at` into `dst` (they must all be there).
    fn copy_at(&self, mut at: usize, mut dst: &mut [u8]) {
        debug_assert!(at + dst.len() <= self.len);
        for c in &self.chunks {
            if dst.is_empty() {
                break;
            }
            if at >= c.len() {
                at -= c.len();
                continue;
            }
            let n = (c.len() - at).min(dst.len());
            let (head, rest) = dst.split_at_mut(n);
            head.copy_from_slice(&c[at..at + n]);
            dst = rest;
            at = 0;
        }
    }

    /// The big-endian `u16` at offset `at`, without consuming; `None` when fewer than two
    /// bytes lie there. Read from the first fragment directly, or gathered across fragments.
    ///
    /// # Examples
    ///
    /// ```
    /// use bytes::Bytes;
    /// use wirebytes_rope::ByteQueue;
    ///
    /// let queue: ByteQueue = [Bytes::from_static(b"\x01"), Bytes::from_static(b"\x02\x03")].into_iter().collect();
    /// assert_eq!(queue.peek_u16_be(0), Some(0x0102));
    /// assert_eq!(queue.peek_u16_be(1), Some(0x0203));
    /// assert_eq!(queue.peek_u16_be(2), None);
    /// ```
    #[inline]
    #[must_use]
    pub fn peek_u16_be(&self, at: usize) -> Option<u16> {
        self.peek(at).map(u16::from_be_bytes)
    }

    /// The big-endian `u32` at offset `at`, without consuming; `None` when fewer than four
    /// bytes lie there.
    ///
    /// # Examples
    ///
    /// ```
    /// use bytes::Bytes;
    /// use wirebytes_rope::ByteQueue;
    ///
    /// let queue: ByteQueue = [Bytes::from_static(b"\0\0"), Bytes::from_static(b"\x01\x00")].into_iter().collect();
    /// assert_eq!(queue.peek_u32_be(0), Some(256));
    /// assert_eq!(queue.peek_u32_be(1), None);
    /// ```
    #[inline]
    #[must_use]
    pub fn peek_u32_be(&self, at: usize) -> Option<u32> {
        self.peek(at).map(u32::from_be_bytes)
    }

    /// The little-endian `u32` at offset `at`, without consuming; `None` when fewer than four
    /// bytes lie there.
    ///
    /// # Examples
    ///
    /// ```
    /// use bytes::Bytes;
    /// use wirebytes_rope::ByteQueue;
    ///
    /// let queue: ByteQueue = [Bytes::from_static(b"\x00\x01"), Bytes::from_static(b"\x00\x00")].into_iter().collect();
    /// assert_eq!(queue.peek_u32_le(0), Some(256));
    /// ```
    #[inline]
    #[must_use]
    pub fn peek_u32_le(&self, at: usize) -> Option<u32> {
        self.peek(at).map(u32::from_le_bytes)
    }

    /// The big-endian `u64` at offset `at`, without consuming; `None` when fewer than eight
    /// bytes lie there.
    ///
    /// # Examples
    ///
    /// ```
    /// use bytes::Bytes;
    /// use wirebytes_rope::ByteQueue;
    ///
    /// let queue: ByteQueue = [Bytes::from_static(b"\0\0\0"), Bytes::from_static(b"\0\0\0\0\x2a!")].into_iter().collect();
    /// assert_eq!(queue.peek_u64_be(0), Some(42));
    /// assert_eq!(queue.peek_u64_be(2), None);
    /// ```
    #[inline]
    #[must_use]
    pub fn peek_u64_be(&self, at: usize) -> Option<u64> {
        self.peek(at).map(u64::from_be_bytes)
    }

    /// The offset of the first occurrence of `needle` in the unconsumed bytes, matches that
    /// straddle fragments included; `Some(0)` for an empty needle. Searches as
    /// [`ByteString::find`] does.
    ///
    /// # Examples
    ///
    /// ```
    /// use bytes::Bytes;
    /// use wirebytes_rope::ByteQueue;
    ///
    /// let queue: ByteQueue = [Bytes::from_static(b"GET / HTTP/1.1\r"), Bytes::from_static(b"\nHost")].into_iter().collect();
    /// assert_eq!(queue.find(b"\r\n"), Some(14));
    /// assert_eq!(queue.find(b"\n\n"), None);
    /// ```
    #[must_use]
    pub fn find(&self, needle: &[u8]) -> Option<usize> {
        match needle.len() {
            0 => Some(0),
            m if m > self.len => None,
            1 => self.find_byte(needle[0]),
            _ => find_in_chunks(self.slices(), needle),
        }
    }

    /// The offset of the first `byte` in the unconsumed bytes ([`memchr`] on each fragment).
    ///
    /// # Examples
    ///
    /// ```
    /// use bytes::Bytes;
    /// use wirebytes_rope::ByteQueue;
    ///
    /// let queue: ByteQueue = [Bytes::from_static(b"line one"), Bytes::from_static(b"\nline two")].into_iter().collect();
    /// assert_eq!(queue.find_byte(b'\n'), Some(8));
    /// assert_eq!(queue.find_byte(b'\r'), None);
    /// ```
    #[must_use]
    #[inline]
    pub fn find_byte(&self, byte: u8) -> Option<usize> {
        crate::counters::add(crate::counters::Path::FindByte, 1);
        // A decoder usually finds its delimiter in the first fragment: one `memchr`, no walk.
        let first = self.chunks.front()?;
        match memchr::memchr(byte, first) {
            Some(p) => Some(p),
            None => self.find_byte_after_first(byte),
        }
    }

    /// The offset of the first occurrence of `needle` that starts at `from` or later, as
    /// [`find`](Self::find) searches, or as [`ByteString::find_from`] counts: an empty needle
    /// is found at `from` when `from <= len()`, and nothing when `from > len()`.
    ///
    /// A decoder waiting for a delimiter searches only what arrived since it last looked:
    /// from `len() - (needle.len() - 1)` of the queue it searched, saturating at 0.
    ///
    /// # Examples
    ///
    /// ```
    /// use bytes::Bytes;
    /// use wirebytes_rope::ByteQueue;
    ///
    /// let mut queue: ByteQueue = [Bytes::from_static(b"key: value\r")].into_iter().collect();
    /// assert_eq!(queue.find(b"\r\n"), None);
    /// let searched = queue.len() - 1; // the `\r` may start a match
    /// queue.push(Bytes::from_static(b"\nnext"));
    /// assert_eq!(queue.find_from(b"\r\n", searched), Some(10));
    /// assert_eq!(queue.find_from(b"", 16), Some(16));
    /// assert_eq!(queue.find_from(b"", 17), None);
    /// ```
    #[must_use]
    pub fn find_from(&self, needle: &[u8], from: usize) -> Option<usize> {
        if from > self.len {
            return None;
        }
        match needle.len() {
            0 => Some(from),
            m if m > self.len - from => None,
            1 => self.find_byte_from(needle[0], from),
            _ => find_in_chunks(self.chunks_from(from), needle).map(|p| from + p),
        }
    }

    /// The offset of the first `byte` at `from` or later ([`memchr`] on each fragment from
    /// the one holding byte `from`); `None` when there is none, or when `from >= len()`.
    ///
    /// # Examples
    ///
    /// A line decoder that does not search again what it searched before a read:
    ///
    /// ```
    /// use bytes::Bytes;
    /// use wirebytes_rope::{ByteQueue, ByteString};
    ///
    /// let mut queue = ByteQueue::new();
    /// let mut lines: Vec<ByteString> = Vec::new();
    /// let mut searched = 0;
    /// for read in [&b"GET / HTTP/1.1\r\nHo"[..], b"st: a", b"\r\n\r\n"] {
    ///     queue.push(Bytes::from_static(read));
    ///     while let Some(end) = queue.find_byte_from(b'\n', searched) {
    ///         lines.push(queue.split_to(end + 1));
    ///         searched = 0;
    ///     }
    ///     searched = queue.len();
    /// }
    /// assert_eq!(lines, ["GET / HTTP/1.1\r\n", "Host: a\r\n", "\r\n"]);
    /// ```
    #[must_use]
    #[inline]
    pub fn find_byte_from(&self, byte: u8, from: usize) -> Option<usize> {
        // As for `find_byte`: a delimiter is usually found in the first fragment.
        if let Some(rest) = self.chunks.front().and_then(|first| first.get(from..)) {
            if let Some(p) = memchr::memchr(byte, rest) {
                return Some(from + p);
            }
        }
        self.find_byte_from_walk(byte, from)
    }

    /// `find_byte_from` in the fragments after the first (searched already when it holds byte
    /// `from`), from the one holding byte `from`.
    #[inline(never)]
    fn find_byte_from_walk(&self, byte: u8, from: usize) -> Option<usize> {
        let mut start = 0;
        for (i, c) in self.chunks.iter().enumerate() {
            let end = start + c.len();
            if i > 0 && from < end {
                crate::counters::add(crate::counters::Path::FindByteWalkFragments, 1);
                let skip = from.saturating_sub(start);
                if let Some(p) = memchr::memchr(byte, &c[skip..]) {
                    return Some(start + skip + p);
                }
            }
            start = end;
        }
        None
    }

    /// The fragments from byte `from` on (`from <= len()`), the first one cut at `from`.
    fn chunks_from(&self, from: usize) -> impl Iterator<Item = &[u8]> {
        let mut start = 0;
        self.chunks.iter().filter_map(move |c| {
            let at = start;
            start += c.len();
            (from < start).then(|| &c[from.saturating_sub(at)..])
        })
    }

    /// `find_byte` in the fragments after the first (which has no `byte`).
    #[inline(never)]
    fn find_byte_after_first(&self, byte: u8) -> Option<usize> {
        let mut chunks = self.chunks.iter();
        let mut start = chunks.next().map_or(0, Bytes::len);
        for c in chunks {
            if let Some(p) = memchr::memchr(byte, c) {
                return Some(start + p);
            }
            start += c.len();
        }
        None
    }

    /// Takes the first `n` bytes off the queue as a [`ByteString`] sharing the fragments (no
    /// byte is copied). Fragments it consumes whole are moved into the result, not shared.
    ///
    /// # Panics
    ///
    /// When `n > len()`; see [`try_split_to`](Self::try_split_to) for the variant that
    /// returns `None` instead.
    ///
    /// # Examples
    ///
    /// ```
    /// use bytes::Bytes;
    /// use wirebytes_rope::ByteQueue;
    ///
    /// let mut queue: ByteQueue = [Bytes::from_static(b"hel"), Bytes::from_static(b"lo!")].into_iter().collect();
    /// let frame = queue.split_to(5);
    /// assert_eq!(frame, "hello");
    /// assert_eq!(queue, b"!"[..]);
    /// ```
    #[track_caller]
    #[must_use = "to drop the bytes, `Buf::advance` does it without making a ByteString"]
    #[inline]
    pub fn split_to(&mut self, n: usize) -> ByteString {
        // A frame inside the first fragment: one shared `Bytes`, handled here in the caller.
        if let Some(front) = self.chunks.front_mut() {
            if n < front.len() {
                self.len -= n;
                return ByteString::from(take_front(front, n));
            }
        }
        match self.split_to_fragment_end(n) {
            Some(s) => s,
            None => split_to_failed(n, self.len),
        }
    }

    /// Takes the first `n` bytes off the queue as [`split_to`](Self::split_to) does, or
    /// returns `None` (and changes nothing) when `n > len()`.
    ///
    /// # Examples
    ///
    /// ```
    /// use bytes::Bytes;
    /// use wirebytes_rope::ByteQueue;
    ///
    /// let mut queue: ByteQueue = [Bytes::from_static(b"abc")].into_iter().collect();
    /// assert!(queue.try_split_to(4).is_none());
    /// assert_eq!(queue.try_split_to(3).unwrap(), "abc");
    /// assert!(queue.is_empty());
    /// ```
    #[inline]
    #[must_use]
    pub fn try_split_to(&mut self, n: usize) -> Option<ByteString> {
        if let Some(front) = self.chunks.front_mut() {
            if n < front.len() {
                self.len -= n;
                return Some(ByteString::from(take_front(front, n)));
            }
        }
        self.split_to_fragment_end(n)
    }

    /// `try_split_to(n)` when the first fragment does not hold more than `n` bytes (or there
    /// is none): the fragments the frame covers whole are moved out of the queue, not
    /// shared, so a frame that ends at a fragment end costs no reference count.
    #[inline(never)]
    fn split_to_fragment_end(&mut self, n: usize) -> Option<ByteString> {
        if n > self.len {
            return None;
        }
        if n == 0 {
            return Some(ByteString::new());
        }
        self.len -= n;
        // Here `0 < n <= len`, and the first fragment holds at most `n` bytes: it goes whole.
        let first = self.chunks.pop_front().unwrap_or_default();
        let mut left = n - first.len();
        if left == 0 {
            return Some(ByteString::from(first));
        }
        // Most frames end in the next fragment.
        if let Some(second) = self.chunks.front_mut() {
            if left < second.len() {
                return Some(ByteString::two(first, take_front(second, left)));
            }
            if left == second.len() {
                let second = self.chunks.pop_front().unwrap_or_default();
                return Some(ByteString::two(first, second));
            }
        }
        let mut parts = Parts::with_capacity(4);
        parts.push(first);
        while left > 0 {
            let Some(front) = self.chunks.front_mut() else {
                break; // unreachable: `n <= len`
            };
            if front.len() <= left {
                left -= front.len();
                parts.push(self.chunks.pop_front().unwrap_or_default());
            } else {
                parts.push(front.split_to(left));
                left = 0;
            }
        }
        Some(parts.finish())
    }

    /// All the unconsumed bytes as a [`ByteString`] sharing the fragments, leaving the queue
    /// as it is.
    ///
    /// # Examples
    ///
    /// ```
    /// use bytes::Bytes;
    /// use wirebytes_rope::ByteQueue;
    ///
    /// let queue: ByteQueue = [Bytes::from_static(b"ab"), Bytes::from_static(b"c")].into_iter().collect();
    /// assert_eq!(queue.to_byte_string(), "abc");
    /// assert_eq!(queue.len(), 3);
    /// ```
    #[must_use]
    pub fn to_byte_string(&self) -> ByteString {
        self.chunks.iter().cloned().collect()
    }

    /// The first `n` unconsumed bytes as one slice, borrowed from the queue (no reference
    /// count), for a decoder that parses a frame in place and then consumes it with
    /// [`advance`](Buf::advance). `None` when fewer than `n` bytes are queued.
    ///
    /// When the first fragment holds the `n` bytes this is a view of it. Otherwise the
    /// fragments that hold them are copied once into one new fragment of exactly `n` bytes
    /// (the bytes after them stay shared where they were), so asking again costs nothing. A
    /// frame crosses fragments only where it crosses reads: in reads much longer than the
    /// frames, few do.
    ///
    /// # Examples
    ///
    /// ```
    /// use bytes::{Buf, Bytes};
    /// use wirebytes_rope::ByteQueue;
    ///
    /// let mut queue: ByteQueue =
    ///     [Bytes::from_static(b"\x00\x03ab"), Bytes::from_static(b"c\x00\x01z")].into_iter().collect();
    /// let mut sum = 0u32;
    /// while let Some(len) = queue.peek_u16_be(0) {
    ///     let Some(frame) = queue.make_contiguous(2 + usize::from(len)) else { break };
    ///     sum += frame[2..].iter().map(|&b| u32::from(b)).sum::<u32>(); // parsed in place
    ///     queue.advance(2 + usize::from(len));
    /// }
    /// assert_eq!(sum, u32::from(b'a') + u32::from(b'b') + u32::from(b'c') + u32::from(b'z'));
    /// assert!(queue.is_empty());
    /// ```
    #[must_use]
    #[inline]
    pub fn make_contiguous(&mut self, n: usize) -> Option<&[u8]> {
        if n > self.len {
            return None;
        }
        if self.chunks.front().is_some_and(|front| front.len() < n) {
            self.merge_front(n);
        }
        match self.chunks.front() {
            Some(front) => front.get(..n),
            None => Some(&[]),
        }
    }

    /// The first `n` unconsumed bytes as a borrowed [`View`] (a `Buf` over the fragments that
    /// hold them: no copy, no reference count), for a decoder that parses a frame in place
    /// and then consumes it with [`advance`](Buf::advance). `None` when fewer than `n` bytes
    /// are queued.
    ///
    /// # Examples
    ///
    /// ```
    /// use bytes::{Buf, Bytes};
    /// use wirebytes_rope::ByteQueue;
    ///
    /// // A frame of a u16 length, a u32 id and a body, split across two reads.
    /// let mut queue: ByteQueue =
    ///     [Bytes::from_static(b"\x00\x06\x00\x00"), Bytes::from_static(b"\x01\x02hi")].into_iter().collect();
    /// let len = usize::from(queue.peek_u16_be(0).unwrap());
    /// let mut frame = queue.view(2 + len).unwrap();
    /// frame.advance(2);
    /// assert_eq!(frame.get_u32(), 0x0102);
    /// assert_eq!(frame.chunk(), b"hi");
    /// queue.advance(2 + len); // the frame is consumed
    /// assert!(queue.is_empty());
    /// ```
    #[must_use]
    #[inline]
    pub fn view(&self, n: usize) -> Option<View<'_>> {
        if n > self.len {
            return None;
        }
        let mut rest = self.chunks.iter();
        let chunk = rest.next().map_or(&[][..], |b| &b[..]);
        Some(View {
            rest,
            chunk,
            remaining: n,
        })
    }

    /// Copies the first `n` bytes (`n <= len`, more than the first fragment holds) into one
    /// fragment at the front.
    #[inline(never)]
    fn merge_front(&mut self, n: usize) {
        crate::counters::add(crate::counters::Path::QueueMergedBytes, n);
        let mut merged = BytesMut::with_capacity(n);
        while merged.len() < n {
            let Some(front) = self.chunks.front_mut() else {
                break;
            };
            let want = n - merged.len();
            if front.len() <= want {
                merged.extend_from_slice(front);
                self.chunks.pop_front();
            } else {
                merged.extend_from_slice(&front[..want]);
                front.advance(want);
            }
        }
        self.chunks.push_front(merged.freeze());
    }

    /// Drops every unconsumed byte, releasing the fragments.
    ///
    /// # Examples
    ///
    /// ```
    /// use bytes::Bytes;
    /// use wirebytes_rope::ByteQueue;
    ///
    /// let mut queue: ByteQueue = [Bytes::from_static(b"ab")].into_iter().collect();
    /// queue.clear();
    /// assert!(queue.is_empty());
    /// ```
    pub fn clear(&mut self) {
        self.chunks.clear();
        self.len = 0;
    }

    /// The next `N` bytes when the first fragment holds them with at least one byte after
    /// them, consuming them.
    #[inline(always)]
    fn take_within<const N: usize>(&mut self) -> Option<[u8; N]> {
        let front = self.chunks.front_mut()?;
        if front.len() <= N {
            return None;
        }
        let value: [u8; N] = front[..N].try_into().ok()?;
        front.advance(N);
        self.len -= N;
        Some(value)
    }

    /// The next `N` bytes, gathered across fragments (panics as `Buf` does when fewer remain).
    #[inline(never)]
    fn take_across<const N: usize>(&mut self) -> [u8; N] {
        let mut value = [0; N];
        self.copy_to_slice(&mut value);
        value
    }
}

impl Buf for ByteQueue {
    getters!();

    #[inline]
    fn remaining(&self) -> usize {
        self.len
    }

    #[inline]
    fn chunk(&self) -> &[u8] {
        self.chunks.front().map_or(&[], |b| &b[..])
    }

    /// Consumes `cnt` bytes, releasing every fragment they finish.
    ///
    /// # Panics
    ///
    /// When `cnt > remaining()`.
    fn advance(&mut self, mut cnt: usize) {
        assert!(
            cnt <= self.len,
            "ByteQueue::advance: cannot advance by {cnt}, {} remaining",
            self.len
        );
        self.len -= cnt;
        while let Some(front) = self.chunks.front_mut() {
            if cnt < front.len() {
                front.advance(cnt);
                return;
            }
            cnt -= front.len();
            self.chunks.pop_front();
        }
    }

    /// The fragments in order, as many as `dst` has room for: together exactly the remaining
    /// bytes when `dst` is long enough, else a prefix of them.
    fn chunks_vectored<'a>(&'a self, dst: &mut [IoSlice<'a>]) -> usize {
        let mut n = 0;
        for (slot, c) in dst.iter_mut().zip(&self.chunks) {
            *slot = IoSlice::new(c);
            n += 1;
        }
        n
    }

    /// The next `len` bytes as one `Bytes`: a share of the first fragment (no copy) when it
    /// holds them all, else one copy of exactly `len` bytes.
    ///
    /// # Panics
    ///
    /// When `len > remaining()`.
    fn copy_to_bytes(&mut self, len: usize) -> Bytes {
        assert!(
            len <= self.len,
            "ByteQueue::copy_to_bytes: {len} bytes requested, {} remaining",
            self.len
        );
        match self.chunks.front_mut() {
            Some(front) if len < front.len() => {
                self.len -= len;
                take_front(front, len)
            }
            Some(front) if len == front.len() => {
                self.len -= len;
                self.chunks.pop_front().unwrap_or_default()
            }
            _ => {
                let mut out = BytesMut::with_capacity(len);
                let mut left = len;
                while left > 0 {
                    let c = self.chunk();
                    let n = c.len().min(left);
                    out.extend_from_slice(&c[..n]);
                    self.advance(n);
                    left -= n;
                }
                out.freeze()
            }
        }
    }
}

impl io::Read for ByteQueue {
    /// Copies bytes from the front into `buf`, consuming them: `Ok(0)` only when `buf` is
    /// empty or the queue is.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::io::Read;
    /// use bytes::Bytes;
    /// use wirebytes_rope::ByteQueue;
    ///
    /// let mut queue: ByteQueue = [Bytes::from_static(b"ab"), Bytes::from_static(b"cd")].into_iter().collect();
    /// let mut buf = [0; 3];
    /// assert_eq!(queue.read(&mut buf).unwrap(), 3);
    /// assert_eq!(&buf, b"abc");
    /// ```
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = buf.len().min(self.len);
        self.copy_to_slice(&mut buf[..n]);
        Ok(n)
    }
}

impl Extend<Bytes> for ByteQueue {
    /// Pushes each `Bytes` as [`ByteQueue::push`] does.
    ///
    /// # Examples
    ///
    /// ```
    /// use bytes::Bytes;
    /// use wirebytes_rope::ByteQueue;
    ///
    /// let mut queue = ByteQueue::new();
    /// queue.extend([Bytes::from_static(b"a"), Bytes::new(), Bytes::from_static(b"bc")]);
    /// assert_eq!(queue, b"abc"[..]);
    /// ```
    fn extend<I: IntoIterator<Item = Bytes>>(&mut self, iter: I) {
        for b in iter {
            self.push(b);
        }
    }
}

impl FromIterator<Bytes> for ByteQueue {
    /// A queue of these fragments, in order (empty ones are dropped).
    ///
    /// # Examples
    ///
    /// ```
    /// use bytes::Bytes;
    /// use wirebytes_rope::ByteQueue;
    ///
    /// let queue: ByteQueue = [Bytes::from_static(b"a"), Bytes::from_static(b"b")].into_iter().collect();
    /// assert_eq!(queue.len(), 2);
    /// ```
    fn from_iter<I: IntoIterator<Item = Bytes>>(iter: I) -> Self {
        let mut queue = ByteQueue::new();
        queue.extend(iter);
        queue
    }
}

impl From<ByteString> for ByteQueue {
    /// A queue holding the string's fragments (shared, not copied).
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_rope::{ByteQueue, ByteString};
    ///
    /// let queue = ByteQueue::from(ByteString::from_static(b"abc"));
    /// assert_eq!(queue, b"abc"[..]);
    /// ```
    fn from(s: ByteString) -> Self {
        s.fragments().cloned().collect()
    }
}

/// The first bytes of a [`ByteQueue`], borrowed ([`ByteQueue::view`]): a [`Buf`] over the
/// fragments that hold them, for parsing a frame in place. Reading it consumes nothing from
/// the queue.
#[derive(Debug, Clone)]
pub struct View<'a> {
    /// The fragments after the current one.
    rest: std::collections::vec_deque::Iter<'a, Bytes>,
    /// What is left of the current fragment (it may reach past the view's end).
    chunk: &'a [u8],
    remaining: usize,
}

impl View<'_> {
    /// The bytes left in the view.
    #[must_use]
    pub fn len(&self) -> usize {
        self.remaining
    }

    /// True when no byte is left in the view.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.remaining == 0
    }

    /// The bytes left in the view, copied into one `Vec`.
    ///
    /// # Examples
    ///
    /// ```
    /// use bytes::Bytes;
    /// use wirebytes_rope::ByteQueue;
    ///
    /// let queue: ByteQueue = [Bytes::from_static(b"ab"), Bytes::from_static(b"cd")].into_iter().collect();
    /// assert_eq!(queue.view(3).unwrap().to_vec(), b"abc");
    /// ```
    #[must_use]
    pub fn to_vec(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.remaining);
        let mut view = self.clone();
        while view.has_remaining() {
            let chunk = view.chunk();
            out.extend_from_slice(chunk);
            let n = chunk.len();
            view.advance(n);
        }
        out
    }
}

impl Buf for View<'_> {
    #[inline]
    fn remaining(&self) -> usize {
        self.remaining
    }

    #[inline]
    fn chunk(&self) -> &[u8] {
        &self.chunk[..self.chunk.len().min(self.remaining)]
    }

    /// # Panics
    ///
    /// When `cnt` is more than [`remaining`](Buf::remaining), as slices do.
    #[inline]
    fn advance(&mut self, mut cnt: usize) {
        assert!(
            cnt <= self.remaining,
            "advance past the end of the view: {cnt} > {}",
            self.remaining
        );
        self.remaining -= cnt;
        while cnt >= self.chunk.len() && cnt > 0 {
            cnt -= self.chunk.len();
            self.chunk = self.rest.next().map_or(&[][..], |b| &b[..]);
        }
        self.chunk = &self.chunk[cnt..];
    }
}

/// The first `n` bytes of `bytes` (`n < bytes.len()`) as a share of it, consuming them:
/// `Bytes::split_to` made of `slice` and `advance`, which inline where `split_to` is a call,
/// so the share can be built in the caller's frame. The same single reference count.
#[inline(always)]
fn take_front(bytes: &mut Bytes, n: usize) -> Bytes {
    let head = bytes.slice(..n);
    bytes.advance(n);
    head
}

/// The panic of [`ByteQueue::split_to`] past the end, out of line.
#[cold]
#[inline(never)]
#[track_caller]
fn split_to_failed(n: usize, len: usize) -> ! {
    panic!("ByteQueue::split_to: {n} bytes requested, {len} in the queue")
}

/// Whether the content of `chunks` (`len` bytes in all) equals `flat`.
fn eq_flat<'a>(chunks: impl Iterator<Item = &'a [u8]>, len: usize, mut flat: &[u8]) -> bool {
    if len != flat.len() {
        return false;
    }
    for c in chunks {
        let (head, rest) = flat.split_at(c.len());
        if c != head {
            return false;
        }
        flat = rest;
    }
    true
}

/// `PartialEq` both ways between `ByteQueue` and a type that derefs to a byte slice: the
/// unconsumed bytes against the slice.
macro_rules! eq_flat_both_ways {
    ($($t:ty),*) => {$(
        impl PartialEq<$t> for ByteQueue {
            /// Whether the unconsumed bytes equal `other`.
            fn eq(&self, other: &$t) -> bool {
                eq_flat(self.slices(), self.len, other)
            }
        }

        impl PartialEq<ByteQueue> for $t {
            /// Whether `self` equals the queue's unconsumed bytes.
            fn eq(&self, other: &ByteQueue) -> bool {
                eq_flat(other.slices(), other.len, self)
            }
        }
    )*};
}

eq_flat_both_ways!([u8], &[u8], Vec<u8>, Bytes);

impl PartialEq<ByteString> for ByteQueue {
    /// Whether the unconsumed bytes equal the string's content.
    fn eq(&self, other: &ByteString) -> bool {
        other.len() == self.len && crate::cmp::eq_chunks(self.slices(), other.chunks())
    }
}

impl PartialEq<ByteQueue> for ByteString {
    /// Whether the string's content equals the queue's unconsumed bytes.
    fn eq(&self, other: &ByteQueue) -> bool {
        other == self
    }
}

impl PartialEq for ByteQueue {
    /// Whether the unconsumed bytes are equal, whatever the fragments.
    fn eq(&self, other: &ByteQueue) -> bool {
        self.len == other.len && crate::cmp::eq_chunks(self.slices(), other.slices())
    }
}

impl Eq for ByteQueue {}

impl fmt::Debug for ByteQueue {
    /// `ByteQueue(b"...")`, the unconsumed bytes escaped as [`ByteString`]'s `Debug` does.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ByteQueue(")?;
        crate::cmp::fmt_escaped(self.slices(), f)?;
        f.write_str(")")
    }
}
