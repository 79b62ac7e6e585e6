//! Reading from a tokio `AsyncRead` straight into a [`ByteQueue`] (feature `tokio`): each read
//! lands in uninitialised room of a reused buffer and becomes one fragment.

use std::future::poll_fn;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll, ready};

use bytes::BytesMut;
use tokio::io::AsyncRead;

use crate::queue::ByteQueue;

/// The room each read is offered by default: 16 KiB.
pub(crate) const DEFAULT_READ_CHUNK: usize = 16 * 1024;

/// The most room a read is offered for the missing bytes of one frame (a frame's length
/// field is the peer's word: it does not reserve more than this ahead of the bytes).
const MAX_WANT: usize = 1024 * 1024;

/// A queue's read buffer: the room left in the allocation the last reads landed in, and the
/// size of a new one.
#[derive(Debug)]
pub(crate) struct ReadBuffer {
    /// Empty between reads (what a read fills is split off as a fragment); its capacity is the
    /// room left.
    spare: Option<BytesMut>,
    chunk: usize,
}

impl ReadBuffer {
    pub(crate) const fn new() -> ReadBuffer {
        ReadBuffer {
            spare: None,
            chunk: DEFAULT_READ_CHUNK,
        }
    }
}

impl Default for ReadBuffer {
    fn default() -> ReadBuffer {
        ReadBuffer::new()
    }
}

impl Clone for ReadBuffer {
    /// The same chunk size; the room is the original's alone.
    fn clone(&self) -> ReadBuffer {
        ReadBuffer {
            spare: None,
            chunk: self.chunk,
        }
    }
}

impl ByteQueue {
    /// The room a read from an `AsyncRead` is offered when a new buffer is needed, in bytes
    /// (16 KiB unless [`set_read_chunk`](Self::set_read_chunk) said otherwise).
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_rope::ByteQueue;
    ///
    /// assert_eq!(ByteQueue::new().read_chunk(), 16 * 1024);
    /// ```
    #[cfg_attr(docsrs, doc(cfg(feature = "tokio")))]
    #[must_use]
    pub fn read_chunk(&self) -> usize {
        self.read.chunk
    }

    /// Sets the size of the buffers reads land in (at least 1; 0 means 1). Larger buffers
    /// make fewer, longer fragments; each buffer stays allocated while a frame or fragment
    /// that shares it is alive.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_rope::ByteQueue;
    ///
    /// let mut queue = ByteQueue::new();
    /// queue.set_read_chunk(64 * 1024);
    /// assert_eq!(queue.read_chunk(), 65_536);
    /// ```
    #[cfg_attr(docsrs, doc(cfg(feature = "tokio")))]
    pub fn set_read_chunk(&mut self, size: usize) {
        self.read.chunk = size.max(1);
    }

    /// Reads once from `reader` and appends what it read as one fragment; `Ok(0)` at the end
    /// of the input. The bytes land in uninitialised room (never zero-filled) of a buffer the
    /// queue keeps between reads: the room left after a read is offered to the next one,
    /// and a new buffer of [`read_chunk`](Self::read_chunk) bytes is taken when less than an
    /// eighth of that is left (or the old one is reused when every frame sharing it has been
    /// dropped).
    ///
    /// # Errors
    ///
    /// The reader's; the queue is then as it was.
    ///
    /// # Examples
    ///
    /// ```
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// use wirebytes_rope::ByteQueue;
    ///
    /// let mut socket: &[u8] = b"line one\nline two\n"; // any AsyncRead: a TcpStream
    /// let mut queue = ByteQueue::new();
    /// let mut lines = Vec::new();
    /// while queue.read_buf_from(&mut socket).await? > 0 {
    ///     while let Some(end) = queue.find_byte(b'\n') {
    ///         lines.push(queue.split_to(end + 1));
    ///     }
    /// }
    /// assert_eq!(lines, ["line one\n", "line two\n"]);
    /// # Ok::<(), std::io::Error>(())
    /// # }).unwrap();
    /// ```
    #[cfg_attr(docsrs, doc(cfg(feature = "tokio")))]
    pub async fn read_buf_from<R: AsyncRead + Unpin + ?Sized>(
        &mut self,
        reader: &mut R,
    ) -> io::Result<usize> {
        poll_fn(|cx| self.poll_read_buf_from(Pin::new(&mut *reader), cx)).await
    }

    /// [`read_buf_from`](Self::read_buf_from) as a poll, for `Stream` and `Future`
    /// implementations.
    ///
    /// # Errors
    ///
    /// The reader's; the queue is then as it was.
    #[cfg_attr(docsrs, doc(cfg(feature = "tokio")))]
    pub fn poll_read_buf_from<R: AsyncRead + ?Sized>(
        &mut self,
        reader: Pin<&mut R>,
        cx: &mut Context<'_>,
    ) -> Poll<io::Result<usize>> {
        self.poll_read_buf_wanting(reader, cx, 0)
    }

    /// [`poll_read_buf_from`](Self::poll_read_buf_from) for a reader that still misses
    /// `want` bytes of a frame whose length it knows: the room offered to the read is at
    /// least `want` (at most `MAX_WANT`), so that a large frame comes in a few large reads
    /// rather than in many of `read_chunk` bytes.
    pub(crate) fn poll_read_buf_wanting<R: AsyncRead + ?Sized>(
        &mut self,
        reader: Pin<&mut R>,
        cx: &mut Context<'_>,
        want: usize,
    ) -> Poll<io::Result<usize>> {
        let chunk = self.read.chunk;
        let want = want.min(MAX_WANT);
        let spare = self.read.spare.get_or_insert_with(BytesMut::new);
        let room = spare.capacity() - spare.len();
        if room < chunk.div_ceil(8) || room < want {
            spare.reserve(chunk.max(want));
        }
        let n = ready!(tokio_util::io::poll_read_buf(reader, cx, spare))?;
        if n > 0 {
            let read = spare.split().freeze();
            self.push(read);
        }
        Poll::Ready(Ok(n))
    }
}
