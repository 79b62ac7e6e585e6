//! Where the engines write: the caller's `Vec` (appended after one exact reservation), a
//! slice (written until it is full), any `bytes::BufMut` (chunk by chunk, no scratch copy),
//! or a counter. The engines are generic over [`Sink`], so each destination gets its own
//! compiled path and pays for nothing the others need.
//!
//! A `Vec` lends its spare capacity through [`Room`] without zeroing it first: a [`Room`]
//! keeps how much of its front has been written, and the `Vec` keeps no more than that.

use std::mem::MaybeUninit;

/// An output the engines append bytes to.
///
/// The method names are `Vec`'s, so an engine reads the same whatever it writes into.
pub(crate) trait Sink {
    /// Whether the engines should size the output exactly before writing (count it, or stage
    /// it in a scratch buffer and copy it once): a `Vec` then ends with `capacity() ==
    /// len()` when it started empty. Other sinks write straight away, with no counting pass.
    const EXACT: bool = false;
    /// Whether the engines must report each replacement through [`replaced`](Self::replaced)
    /// (the streaming encoder's "had replacements"). Kernels that write `?` themselves are
    /// then left out, so that every replacement goes through a path that reports it.
    const TRACKS: bool = false;
    /// Whether [`put_with`](Self::put_with) hands out the sink's own memory (a `Vec`, a
    /// slice), so that a whole output can be written in place at once; other sinks stage
    /// through a buffer and are better given a piece at a time.
    const IN_PLACE: bool = false;

    /// Bytes written so far.
    fn len(&self) -> usize;
    /// Room for `additional` more bytes: only a `Vec` does anything, and only the engines'
    /// exact paths call it (under [`EXACT`](Self::EXACT)).
    fn reserve_exact(&mut self, additional: usize);
    /// Appends `bytes`.
    fn extend_from_slice(&mut self, bytes: &[u8]);
    /// Appends one byte.
    fn push(&mut self, byte: u8);
    /// Drops what was written after the first `len` bytes: only the strict policy's error
    /// path calls it, and only on sinks that can take bytes back (a `Vec`, a slice, a
    /// counter).
    fn truncate(&mut self, len: usize);
    /// Calls `fill` with `max` bytes of [`Room`] at the end of the output and keeps the first
    /// `n` bytes it says it wrote (no more than the room's [written](Room::written) front).
    fn put_with(&mut self, max: usize, fill: impl FnOnce(&mut Room<'_>) -> usize);
    /// The bytes a [`put_with`](Self::put_with) can be given in place without growing the
    /// output: a `Vec`'s spare capacity, what is left of a slice; 0 for the other sinks.
    #[inline(always)]
    fn spare(&self) -> usize {
        0
    }
    /// Whether bytes were lost for lack of room (a slice that is too short): the engines may
    /// stop early, since the output will be thrown away.
    #[inline(always)]
    fn full(&self) -> bool {
        false
    }
    /// Records that a replacement was written (under [`TRACKS`](Self::TRACKS)).
    #[inline(always)]
    fn replaced(&mut self) {}
    /// Gives back the capacity past the output: only a `Vec` does anything.
    #[inline(always)]
    fn shrink_to_fit(&mut self) {}
}

impl Sink for Vec<u8> {
    const EXACT: bool = true;
    const IN_PLACE: bool = true;

    #[inline(always)]
    fn len(&self) -> usize {
        Vec::len(self)
    }

    #[inline(always)]
    fn reserve_exact(&mut self, additional: usize) {
        Vec::reserve_exact(self, additional);
    }

    #[inline(always)]
    fn extend_from_slice(&mut self, bytes: &[u8]) {
        Vec::extend_from_slice(self, bytes);
    }

    #[inline(always)]
    fn push(&mut self, byte: u8) {
        Vec::push(self, byte);
    }

    #[inline(always)]
    fn truncate(&mut self, len: usize) {
        Vec::truncate(self, len);
    }

    #[inline]
    fn put_with(&mut self, max: usize, fill: impl FnOnce(&mut Room<'_>) -> usize) {
        self.reserve(max);
        let start = Vec::len(self);
        let spare = self.spare_capacity_mut();
        let mut room = Room::uninit(&mut spare[..max]);
        let n = fill(&mut room).min(room.written());
        // SAFETY: `room` was the `max` bytes after the first `start`, within the capacity, and
        // its first `room.written()` bytes are initialised (`Room`'s invariant).
        unsafe { self.set_len(start + n) };
    }

    #[inline(always)]
    fn spare(&self) -> usize {
        self.capacity() - Vec::len(self)
    }

    #[inline]
    fn shrink_to_fit(&mut self) {
        Vec::shrink_to_fit(self);
    }
}

/// The caller's slice: written from the front until a write does not fit; from then on it
/// is [`full`](Sink::full) and takes nothing more.
#[derive(Debug)]
pub(crate) struct SliceSink<'a> {
    dst: &'a mut [u8],
    len: usize,
    full: bool,
}

impl<'a> SliceSink<'a> {
    pub(crate) fn new(dst: &'a mut [u8]) -> Self {
        SliceSink {
            dst,
            len: 0,
            full: false,
        }
    }

    /// The number of bytes written, if everything fitted.
    pub(crate) fn written(&self) -> Option<usize> {
        (!self.full).then_some(self.len)
    }
}

impl Sink for SliceSink<'_> {
    const IN_PLACE: bool = true;

    #[inline(always)]
    fn len(&self) -> usize {
        self.len
    }

    #[inline(always)]
    fn reserve_exact(&mut self, _: usize) {}

    #[inline]
    fn extend_from_slice(&mut self, bytes: &[u8]) {
        // `len <= dst.len()`, and neither length exceeds `isize::MAX`: no overflow.
        match self.dst.get_mut(self.len..self.len + bytes.len()) {
            Some(room) if !self.full => {
                room.copy_from_slice(bytes);
                self.len += bytes.len();
            }
            _ => self.full = true,
        }
    }

    #[inline]
    fn push(&mut self, byte: u8) {
        match self.dst.get_mut(self.len) {
            Some(room) if !self.full => {
                *room = byte;
                self.len += 1;
            }
            _ => self.full = true,
        }
    }

    #[inline]
    fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }

    #[inline]
    fn put_with(&mut self, max: usize, fill: impl FnOnce(&mut Room<'_>) -> usize) {
        match self.dst.get_mut(self.len..self.len + max) {
            Some(room) if !self.full => {
                let mut room = Room::new(room);
                let n = fill(&mut room).min(room.written());
                self.len += n;
            }
            _ => self.full = true,
        }
    }

    #[inline(always)]
    fn spare(&self) -> usize {
        if self.full {
            0
        } else {
            self.dst.len() - self.len
        }
    }

    #[inline(always)]
    fn full(&self) -> bool {
        self.full
    }
}

/// Counts the bytes instead of keeping them.
#[derive(Debug, Default)]
pub(crate) struct Counter(pub(crate) usize);

impl Sink for Counter {
    #[inline(always)]
    fn len(&self) -> usize {
        self.0
    }

    #[inline(always)]
    fn reserve_exact(&mut self, _: usize) {}

    #[inline(always)]
    fn extend_from_slice(&mut self, bytes: &[u8]) {
        self.0 += bytes.len();
    }

    #[inline(always)]
    fn push(&mut self, _: u8) {
        self.0 += 1;
    }

    #[inline(always)]
    fn truncate(&mut self, len: usize) {
        self.0 = self.0.min(len);
    }

    fn put_with(&mut self, max: usize, fill: impl FnOnce(&mut Room<'_>) -> usize) {
        put_with_through_stack(self, max, fill);
    }
}

/// Any `bytes::BufMut`: every write is a `put_slice`, straight into the buffer's chunks (a
/// write that spans two chunks is split by `put_slice` itself).
#[cfg(feature = "bytes")]
#[derive(Debug)]
pub(crate) struct BufSink<'a, B: bytes::BufMut + ?Sized> {
    dst: &'a mut B,
    written: usize,
}

#[cfg(feature = "bytes")]
impl<'a, B: bytes::BufMut + ?Sized> BufSink<'a, B> {
    /// A sink over `dst`, which the caller has checked has room for the whole output.
    pub(crate) fn new(dst: &'a mut B) -> Self {
        BufSink { dst, written: 0 }
    }
}

#[cfg(feature = "bytes")]
impl<B: bytes::BufMut + ?Sized> Sink for BufSink<'_, B> {
    #[inline(always)]
    fn len(&self) -> usize {
        self.written
    }

    #[inline(always)]
    fn reserve_exact(&mut self, _: usize) {}

    #[inline]
    fn extend_from_slice(&mut self, bytes: &[u8]) {
        self.dst.put_slice(bytes);
        self.written += bytes.len();
    }

    #[inline]
    fn push(&mut self, byte: u8) {
        self.dst.put_u8(byte);
        self.written += 1;
    }

    /// Bytes put into a `BufMut` cannot be taken back; the strict policy, the only caller,
    /// never writes into one.
    fn truncate(&mut self, _: usize) {}

    fn put_with(&mut self, max: usize, fill: impl FnOnce(&mut Room<'_>) -> usize) {
        put_with_through_stack(self, max, fill);
    }
}

/// [`Sink::put_with`] for a sink that cannot lend its own memory: `fill` writes into a stack
/// buffer (a heap one past 2 KiB), which is then appended.
fn put_with_through_stack<S: Sink + ?Sized>(
    sink: &mut S,
    max: usize,
    fill: impl FnOnce(&mut Room<'_>) -> usize,
) {
    const STACK: usize = 2048;
    if max <= STACK {
        let mut buf = [0u8; STACK];
        let mut room = Room::staging(&mut buf[..max]);
        let n = fill(&mut room).min(room.written());
        sink.extend_from_slice(&buf[..n]);
    } else {
        let mut buf = Vec::with_capacity(max);
        buf.put_with(max, fill);
        sink.extend_from_slice(&buf);
    }
}

/// Room for bytes at the end of an output, written from its front: a `Vec`'s spare capacity
/// (not initialised) or a slice. It keeps the length of the front it has seen written,
/// [`written`](Self::written): every write starts within it, so the front grows without
/// gaps, and a sink keeps no byte past it.
///
/// Invariant: the first `written` bytes of `buf` are initialised, and a `Room` made from
/// initialised bytes ([`new`](Self::new)) never writes an uninitialised one.
pub(crate) struct Room<'a> {
    buf: &'a mut [MaybeUninit<u8>],
    written: usize,
    /// Whether bytes past the written front may be written and left there: yes in a `Vec`'s
    /// spare capacity or a staging buffer, which no one reads past the output; no in the
    /// caller's slice, whose bytes past the output stay as they were (a kernel writes
    /// scratch bytes there only where the caller's next bytes write over them).
    scratch: bool,
}

impl<'a> Room<'a> {
    /// Room over bytes that may not be initialised; none counts as written.
    #[inline(always)]
    pub(crate) fn uninit(buf: &'a mut [MaybeUninit<u8>]) -> Self {
        Room {
            buf,
            written: 0,
            scratch: true,
        }
    }

    /// Room over initialised bytes (overwritten from the front) that the caller sees past
    /// the output too: no scratch writes there. None counts as written.
    #[inline(always)]
    pub(crate) fn new(buf: &'a mut [u8]) -> Self {
        let len = buf.len();
        // SAFETY: `MaybeUninit<u8>` has the layout of `u8`, and the slice is borrowed mutably
        // for `'a`. A `Room` writes only initialised bytes (its safe methods write `u8`s, and
        // `tail`'s callers promise the same), so the bytes stay initialised for the owner.
        let buf = unsafe { std::slice::from_raw_parts_mut(buf.as_mut_ptr().cast(), len) };
        Room {
            buf,
            written: 0,
            scratch: false,
        }
    }

    /// Room over initialised bytes of which only the output is kept (a staging buffer):
    /// scratch writes past the written front are allowed.
    #[inline(always)]
    pub(crate) fn staging(buf: &'a mut [u8]) -> Self {
        Room {
            scratch: true,
            ..Room::new(buf)
        }
    }

    /// Whether a kernel may write bytes past the written front and leave them there (see
    /// the field).
    #[inline(always)]
    pub(crate) fn scratch(&self) -> bool {
        self.scratch
    }

    /// The length of the front written so far.
    #[inline(always)]
    pub(crate) fn written(&self) -> usize {
        self.written
    }

    /// Records that `at..end` was written.
    #[inline(always)]
    fn wrote(&mut self, end: usize) {
        self.written = self.written.max(end);
    }

    /// Writes `bytes` at `at`: `false`, writing nothing, when they do not fit or `at` is past
    /// the written front.
    #[inline(always)]
    pub(crate) fn put<const N: usize>(&mut self, at: usize, bytes: [u8; N]) -> bool {
        if at > self.written {
            return false;
        }
        let Some(dst) = self.buf.get_mut(at..).and_then(<[_]>::first_chunk_mut::<N>) else {
            return false;
        };
        *dst = bytes.map(MaybeUninit::new);
        self.wrote(at + N);
        true
    }

    /// Writes `src.len()` items of `K` bytes each, `bytes(item)`, from `at` on: `false`,
    /// writing nothing, when they do not fit or `at` is past the written front. A loop the
    /// compiler vectorises for simple `bytes`.
    #[inline(always)]
    pub(crate) fn put_each<T: Copy, const K: usize>(
        &mut self,
        at: usize,
        src: &[T],
        bytes: impl Fn(T) -> [u8; K],
    ) -> bool {
        if at > self.written {
            return false;
        }
        let Some(dst) = self.buf.get_mut(at..at.saturating_add(K * src.len())) else {
            return false;
        };
        for (out, &item) in dst.chunks_exact_mut(K).zip(src) {
            if let Some(out) = out.first_chunk_mut::<K>() {
                *out = bytes(item).map(MaybeUninit::new);
            }
        }
        // `dst` is `K * src.len()` bytes long, and the loop wrote each of them.
        let end = at + dst.len();
        self.wrote(end);
        true
    }

    /// The room from `at` (within the written front) on, for a kernel: `None` when `at` is
    /// past the written front.
    ///
    /// # Safety
    ///
    /// The caller writes no uninitialised byte into it, and calls
    /// [`wrote_tail`](Self::wrote_tail) only for bytes it wrote.
    #[inline(always)]
    #[cfg_attr(
        not(wirebytes_x86_kernels),
        allow(dead_code, reason = "only the x86 kernels write through the tail")
    )]
    pub(crate) unsafe fn tail(&mut self, at: usize) -> Option<&mut [MaybeUninit<u8>]> {
        if at > self.written {
            return None;
        }
        self.buf.get_mut(at..)
    }

    /// Records that the `n` bytes from `at` on were written through [`tail`](Self::tail).
    ///
    /// # Safety
    ///
    /// Those bytes (within the room) were initialised.
    #[inline(always)]
    #[cfg_attr(
        not(wirebytes_x86_kernels),
        allow(dead_code, reason = "only the x86 kernels write through the tail")
    )]
    pub(crate) unsafe fn wrote_tail(&mut self, at: usize, n: usize) {
        debug_assert!(at <= self.written && at + n <= self.buf.len());
        self.wrote(at + n);
    }
}

/// Another sink, with every replacement recorded: the streaming encoder's slice output, which
/// reports whether it wrote one.
#[derive(Debug)]
pub(crate) struct Tracked<S> {
    pub(crate) inner: S,
    pub(crate) replaced: bool,
}

impl<S: Sink> Tracked<S> {
    pub(crate) fn new(inner: S) -> Self {
        Tracked {
            inner,
            replaced: false,
        }
    }
}

impl<S: Sink> Sink for Tracked<S> {
    const EXACT: bool = S::EXACT;
    const TRACKS: bool = true;
    const IN_PLACE: bool = S::IN_PLACE;

    #[inline(always)]
    fn len(&self) -> usize {
        self.inner.len()
    }

    #[inline(always)]
    fn reserve_exact(&mut self, additional: usize) {
        self.inner.reserve_exact(additional);
    }

    #[inline(always)]
    fn extend_from_slice(&mut self, bytes: &[u8]) {
        self.inner.extend_from_slice(bytes);
    }

    #[inline(always)]
    fn push(&mut self, byte: u8) {
        self.inner.push(byte);
    }

    #[inline(always)]
    fn truncate(&mut self, len: usize) {
        self.inner.truncate(len);
    }

    #[inline(always)]
    fn put_with(&mut self, max: usize, fill: impl FnOnce(&mut Room<'_>) -> usize) {
        self.inner.put_with(max, fill);
    }

    #[inline(always)]
    fn spare(&self) -> usize {
        self.inner.spare()
    }

    #[inline(always)]
    fn full(&self) -> bool {
        self.inner.full()
    }

    #[inline(always)]
    fn replaced(&mut self) {
        self.replaced = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A slice sink keeps what fits, then refuses everything, and says so.
    #[test]
    fn a_slice_sink_stops_at_its_end() {
        let mut buf = [0u8; 5];
        let mut sink = SliceSink::new(&mut buf[..4]);
        sink.extend_from_slice(b"ab");
        sink.push(b'c');
        assert_eq!(sink.written(), Some(3));
        sink.extend_from_slice(b"de");
        assert!(sink.full());
        sink.push(b'x'); // would fit, but the output is lost already
        assert_eq!(sink.written(), None);
        assert_eq!(buf, *b"abc\0\0");

        let mut buf = [0u8; 4];
        let mut sink = SliceSink::new(&mut buf);
        sink.put_with(3, |room| {
            assert!(room.put(0, *b"xy"));
            2
        });
        sink.put_with(3, |_| unreachable!("no room for 3 more"));
        assert_eq!((sink.len(), sink.full()), (2, true));
    }

    /// `put_with` keeps only what `fill` says it wrote, in every sink.
    #[test]
    fn put_with_keeps_what_was_written() {
        let fill = |room: &mut Room<'_>| {
            assert!(room.put(0, [b'q']));
            1
        };
        let mut vec = b"a".to_vec();
        vec.put_with(10, fill);
        assert_eq!(vec, b"aq");
        let mut counter = Counter::default();
        counter.put_with(3000, fill);
        counter.put_with(10, fill);
        assert_eq!(counter.0, 2);
        let mut tracked = Tracked::new(Vec::new());
        tracked.put_with(4, fill);
        tracked.replaced();
        assert_eq!((tracked.inner, tracked.replaced), (b"q".to_vec(), true));
    }

    /// A room takes writes that start within its written front and fit, keeps the front
    /// without gaps, and a `Vec` keeps no byte past it whatever `fill` says.
    #[test]
    fn a_room_keeps_its_written_front() {
        let mut vec = b"ab".to_vec();
        vec.put_with(12, |room| {
            assert!(!room.put(1, [1u8]), "past the front");
            assert!(room.put(0, [1u8, 2]));
            assert!(room.put(1, [3u8, 4, 5]), "within the front");
            assert_eq!(room.written(), 4);
            assert!(room.put_each(4, &[0x0102u16, 0x0304], u16::to_be_bytes));
            assert!(
                !room.put_each(8, &[7u16, 7, 7], u16::to_be_bytes),
                "past the end"
            );
            assert!(
                !room.put_each(9, &[7u16], u16::to_be_bytes),
                "past the front"
            );
            assert_eq!(room.written(), 8);
            100 // more than was written
        });
        assert_eq!(vec, [b'a', b'b', 1, 3, 4, 5, 1, 2, 3, 4]);
        vec.put_with(3, |room| {
            assert!(room.put(0, [9u8, 9, 9]));
            assert!(!room.put(3, [9u8]), "past the end");
            1 // fewer than were written
        });
        assert_eq!(vec[10..], [9]);

        let mut buf = [0xEEu8; 6];
        let mut sink = SliceSink::new(&mut buf);
        sink.put_with(5, |room| {
            assert!(room.put_each(0, &[0x41u16, 0x42], u16::to_le_bytes));
            7
        });
        assert_eq!(
            (sink.written(), buf),
            (Some(4), [0x41, 0, 0x42, 0, 0xEE, 0xEE])
        );
    }

    #[cfg(feature = "bytes")]
    #[test]
    fn a_buf_sink_puts_into_the_chunks() {
        let mut buf = bytes::BytesMut::new();
        let mut sink = BufSink::new(&mut buf);
        sink.extend_from_slice(b"ab");
        sink.push(b'c');
        sink.put_with(4, |room| {
            assert!(room.put(0, *b"de"));
            2
        });
        assert_eq!(sink.len(), 5);
        assert_eq!(&buf[..], b"abcde");
    }
}
