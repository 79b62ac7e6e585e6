//! [`FrameReader`]: a `Stream` of [`ByteString`] frames out of a tokio `AsyncRead` (feature
//! `tokio`), by a length field ([`LengthDelimited`]) or by a delimiter ([`Delimited`]).

use std::fmt;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll, ready};

use bytes::{Buf, Bytes};
use futures_core::Stream;
use tokio::io::AsyncRead;

use crate::queue::ByteQueue;
use crate::string::ByteString;

/// The largest frame either framing takes unless told otherwise: 8 MiB, as tokio-util's
/// codecs.
const DEFAULT_MAX_FRAME_LEN: usize = 8 * 1024 * 1024;

/// Framing by a length field, with the settings and the meaning of tokio-util's
/// `LengthDelimitedCodec` builder: a header of `length_field_offset` bytes and a length field
/// of `length_field_len` bytes (1 to 8, big-endian unless told otherwise); the field's value
/// (at most `max_frame_len`) plus `length_adjustment` is the frame's length `n`; `num_skip`
/// bytes (by default the header) are dropped, and the `n` bytes after them are the frame.
/// With `num_skip(0)` and an adjustment of the header's length, the frame is the header and
/// the payload.
///
/// # Examples
///
/// ```
/// use wirebytes_rope::LengthDelimited;
///
/// // A 2-byte little-endian length that counts itself too, dropped from the frame.
/// let framing = LengthDelimited::new()
///     .length_field_len(2)
///     .little_endian()
///     .length_adjustment(-2)
///     .max_frame_len(64 * 1024);
/// assert_eq!(framing.header_len(), 2);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LengthDelimited {
    field_offset: usize,
    field_len: usize,
    big_endian: bool,
    adjustment: isize,
    num_skip: Option<usize>,
    max_frame_len: usize,
}

impl LengthDelimited {
    /// A 4-byte big-endian length at offset 0, counting the bytes after it, dropped from the
    /// frame; frames of at most 8 MiB.
    #[must_use]
    pub const fn new() -> LengthDelimited {
        LengthDelimited {
            field_offset: 0,
            field_len: 4,
            big_endian: true,
            adjustment: 0,
            num_skip: None,
            max_frame_len: DEFAULT_MAX_FRAME_LEN,
        }
    }

    /// The length field's size in bytes, 1 to 8.
    ///
    /// # Panics
    ///
    /// When `len` is 0 or above 8, as tokio-util's builder does.
    #[must_use]
    #[track_caller]
    pub const fn length_field_len(mut self, len: usize) -> LengthDelimited {
        assert!(len >= 1 && len <= 8, "a length field is 1 to 8 bytes long");
        self.field_len = len;
        self
    }

    /// The length field is little-endian.
    #[must_use]
    pub const fn little_endian(mut self) -> LengthDelimited {
        self.big_endian = false;
        self
    }

    /// The length field is big-endian (the default).
    #[must_use]
    pub const fn big_endian(mut self) -> LengthDelimited {
        self.big_endian = true;
        self
    }

    /// The number of bytes before the length field.
    #[must_use]
    pub const fn length_field_offset(mut self, offset: usize) -> LengthDelimited {
        self.field_offset = offset;
        self
    }

    /// Added to the field's value to give the frame's length: e.g. `-4` where a 4-byte field
    /// counts itself, or the header's length where the frame keeps the header
    /// ([`num_skip(0)`](Self::num_skip)).
    #[must_use]
    pub const fn length_adjustment(mut self, adjustment: isize) -> LengthDelimited {
        self.adjustment = adjustment;
        self
    }

    /// The number of bytes dropped before each frame (by default the offset and the field:
    /// the frame is the payload).
    #[must_use]
    pub const fn num_skip(mut self, num_skip: usize) -> LengthDelimited {
        self.num_skip = Some(num_skip);
        self
    }

    /// The largest value of the length field taken (before the adjustment, as tokio-util
    /// checks it); a larger one is an error.
    #[must_use]
    pub const fn max_frame_len(mut self, max: usize) -> LengthDelimited {
        self.max_frame_len = max;
        self
    }

    /// The bytes before a frame's payload: the offset and the length field.
    #[must_use]
    pub const fn header_len(&self) -> usize {
        self.field_offset + self.field_len
    }

    /// The next frame of `queue`, if it has wholly arrived; if not, `missing` is set to the
    /// bytes still to come when the length field has arrived (0 when it has not).
    fn next_frame(
        &self,
        queue: &mut ByteQueue,
        missing: &mut usize,
    ) -> io::Result<Option<ByteString>> {
        *missing = 0;
        let Some(value) = field_value(queue, self.field_offset, self.field_len, self.big_endian)
        else {
            return Ok(None);
        };
        let too_long = |negative| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                FrameTooLong {
                    len: value,
                    limit: self.max_frame_len,
                    negative,
                },
            )
        };
        if value > self.max_frame_len as u64 {
            return Err(too_long(false));
        }
        // At most `max_frame_len`, a `usize`.
        let value = value as usize;
        let len = if self.adjustment < 0 {
            value.checked_sub(self.adjustment.unsigned_abs())
        } else {
            value.checked_add(self.adjustment.unsigned_abs())
        }
        .ok_or_else(|| too_long(self.adjustment < 0))?;
        let skip = self.num_skip.unwrap_or(self.header_len());
        let total = skip.checked_add(len).ok_or_else(|| too_long(false))?;
        if queue.len() < total {
            *missing = total - queue.len();
            return Ok(None);
        }
        queue.advance(skip);
        Ok(Some(queue.split_to(len)))
    }
}

impl Default for LengthDelimited {
    fn default() -> LengthDelimited {
        LengthDelimited::new()
    }
}

/// The value of the `len`-byte field at `offset` of `queue`, if it has arrived.
fn field_value(queue: &ByteQueue, offset: usize, len: usize, big_endian: bool) -> Option<u64> {
    let mut view = queue.view(offset.checked_add(len)?)?;
    view.advance(offset);
    Some(if big_endian {
        view.get_uint(len)
    } else {
        view.get_uint_le(len)
    })
}

/// [`field_value`] byte by byte, the plain reference the tests hold it to.
#[cfg(test)]
fn field_value_bytes(
    queue: &ByteQueue,
    offset: usize,
    len: usize,
    big_endian: bool,
) -> Option<u64> {
    if queue.len() < offset + len {
        return None;
    }
    let mut value = 0u64;
    for k in 0..len {
        let byte = u64::from(queue.get(offset + k)?);
        value = if big_endian {
            (value << 8) | byte
        } else {
            value | (byte << (8 * k))
        };
    }
    Some(value)
}

/// Framing by a delimiter (a byte or a byte string): a frame is the bytes before the next
/// delimiter, which is dropped. At the end of the input, bytes after the last delimiter are
/// the last frame, as tokio-util's `AnyDelimiterCodec` has them.
///
/// # Examples
///
/// ```
/// use wirebytes_rope::Delimited;
///
/// let lines = Delimited::bytes(b"\r\n").max_frame_len(8 * 1024);
/// assert_eq!(lines.delimiter(), b"\r\n");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Delimited {
    delimiter: Bytes,
    max_frame_len: usize,
}

impl Delimited {
    /// Frames ended by `byte`, of at most 8 MiB.
    #[must_use]
    pub fn byte(byte: u8) -> Delimited {
        Delimited::bytes(&[byte])
    }

    /// Frames ended by the byte string `delimiter`, of at most 8 MiB.
    ///
    /// # Panics
    ///
    /// When `delimiter` is empty.
    #[must_use]
    #[track_caller]
    pub fn bytes(delimiter: &[u8]) -> Delimited {
        assert!(!delimiter.is_empty(), "a delimiter is at least one byte");
        Delimited {
            delimiter: Bytes::copy_from_slice(delimiter),
            max_frame_len: DEFAULT_MAX_FRAME_LEN,
        }
    }

    /// The largest frame taken, in bytes without the delimiter: more bytes without a
    /// delimiter are an error.
    #[must_use]
    pub fn max_frame_len(mut self, max: usize) -> Delimited {
        self.max_frame_len = max;
        self
    }

    /// The delimiter.
    #[must_use]
    pub fn delimiter(&self) -> &[u8] {
        &self.delimiter
    }

    /// The next frame of `queue`, if its delimiter has arrived; `searched` is how far the
    /// queue was searched before (no delimiter starts before it), updated.
    fn next_frame(
        &self,
        queue: &mut ByteQueue,
        searched: &mut usize,
    ) -> io::Result<Option<ByteString>> {
        let found = if let [byte] = self.delimiter[..] {
            queue.find_byte_from(byte, *searched)
        } else {
            queue.find_from(&self.delimiter, *searched)
        };
        match found {
            Some(at) if at <= self.max_frame_len => {
                *searched = 0;
                let frame = queue.split_to(at);
                queue.advance(self.delimiter.len());
                Ok(Some(frame))
            }
            Some(at) => Err(self.too_long(at)),
            // A delimiter still to come starts after every byte but its length less one.
            None if queue.len().saturating_sub(self.delimiter.len() - 1) > self.max_frame_len => {
                Err(self.too_long(queue.len()))
            }
            None => {
                *searched = (queue.len() + 1).saturating_sub(self.delimiter.len());
                Ok(None)
            }
        }
    }

    fn too_long(&self, len: usize) -> io::Error {
        io::Error::new(
            io::ErrorKind::InvalidData,
            FrameTooLong {
                len: len as u64,
                limit: self.max_frame_len,
                negative: false,
            },
        )
    }
}

/// A frame over the maximum (or, for a length field, one whose adjusted length is negative or
/// overflows),
/// inside the [`io::Error`] of kind [`InvalidData`](io::ErrorKind::InvalidData) a
/// [`FrameReader`] returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FrameTooLong {
    len: u64,
    limit: usize,
    negative: bool,
}

impl FrameTooLong {
    /// The length field's value, or the bytes seen without a delimiter.
    #[must_use]
    pub fn length(&self) -> u64 {
        self.len
    }

    /// The largest frame allowed.
    #[must_use]
    pub fn limit(&self) -> usize {
        self.limit
    }
}

impl fmt::Display for FrameTooLong {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.negative {
            write!(
                f,
                "a frame's length field ({}) plus the adjustment is negative",
                self.len
            )
        } else {
            write!(
                f,
                "a frame length of at least {} is over the maximum of {} bytes",
                self.len, self.limit
            )
        }
    }
}

impl std::error::Error for FrameTooLong {}

/// How a [`FrameReader`] cuts frames.
#[derive(Debug, Clone)]
enum Framing {
    Length(LengthDelimited),
    Delimiter { framing: Delimited, searched: usize },
}

/// A `Stream` of [`ByteString`] frames read from a tokio `AsyncRead`: each read lands in a
/// [`ByteQueue`] as one fragment ([`ByteQueue::read_buf_from`], no zero-fill, no copy) and
/// each frame shares the reads it spans.
///
/// Reads are offered [`read_chunk`](ByteQueue::read_chunk) bytes of room, except where a
/// length-delimited frame whose length has arrived still misses more: then the room is all
/// the bytes it misses, up to 1 MiB, so that a large frame comes in a few large reads.
///
/// At the end of the input a length-delimited reader with a partial frame left returns an
/// [`UnexpectedEof`](io::ErrorKind::UnexpectedEof) error; a delimited reader returns the
/// bytes after the last delimiter as the last frame. After an error the stream ends.
///
/// # Examples
///
/// ```
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// use futures_util::StreamExt;
/// use wirebytes_rope::{ByteString, Delimited, FrameReader, LengthDelimited};
///
/// let socket: &[u8] = b"\x00\x00\x00\x05hello\x00\x00\x00\x00"; // any AsyncRead: a TcpStream
/// let frames: Vec<ByteString> = FrameReader::length_delimited(socket, LengthDelimited::new())
///     .map(|frame| frame.unwrap())
///     .collect()
///     .await;
/// assert_eq!(frames, ["hello", ""]);
///
/// let socket: &[u8] = b"GET / HTTP/1.1\r\nHost: a\r\n\r\n";
/// let mut lines = FrameReader::delimited(socket, Delimited::bytes(b"\r\n"));
/// assert_eq!(lines.next().await.unwrap()?, "GET / HTTP/1.1");
/// assert_eq!(lines.next().await.unwrap()?, "Host: a");
/// # Ok::<(), std::io::Error>(())
/// # }).unwrap();
/// ```
#[derive(Debug)]
pub struct FrameReader<R> {
    reader: R,
    queue: ByteQueue,
    framing: Framing,
    done: bool,
}

impl<R> FrameReader<R> {
    /// Frames of `reader` cut by a length field.
    #[must_use]
    pub fn length_delimited(reader: R, framing: LengthDelimited) -> FrameReader<R> {
        FrameReader::with_framing(reader, Framing::Length(framing))
    }

    /// Frames of `reader` cut at a delimiter.
    #[must_use]
    pub fn delimited(reader: R, framing: Delimited) -> FrameReader<R> {
        FrameReader::with_framing(
            reader,
            Framing::Delimiter {
                framing,
                searched: 0,
            },
        )
    }

    fn with_framing(reader: R, framing: Framing) -> FrameReader<R> {
        FrameReader {
            reader,
            queue: ByteQueue::new(),
            framing,
            done: false,
        }
    }

    /// The bytes read and not yet handed out as frames.
    #[must_use]
    pub fn queue(&self) -> &ByteQueue {
        &self.queue
    }

    /// The queue, to set its [`read_chunk`](ByteQueue::set_read_chunk) or take bytes
    /// another way.
    pub fn queue_mut(&mut self) -> &mut ByteQueue {
        &mut self.queue
    }

    /// The reader.
    #[must_use]
    pub fn get_ref(&self) -> &R {
        &self.reader
    }

    /// The reader.
    pub fn get_mut(&mut self) -> &mut R {
        &mut self.reader
    }

    /// The reader and the bytes read and not yet handed out.
    #[must_use]
    pub fn into_parts(self) -> (R, ByteQueue) {
        (self.reader, self.queue)
    }

    /// The next frame in the queue, if it has wholly arrived; if not, `missing` is how many
    /// bytes of it are known to be still to come.
    fn next_queued(&mut self, missing: &mut usize) -> io::Result<Option<ByteString>> {
        match &mut self.framing {
            Framing::Length(framing) => framing.next_frame(&mut self.queue, missing),
            Framing::Delimiter { framing, searched } => {
                framing.next_frame(&mut self.queue, searched)
            }
        }
    }

    /// At the end of the input: the delimited framing's last frame, or the error of a partial
    /// length-delimited one.
    fn at_end(&mut self) -> Option<io::Result<ByteString>> {
        if self.queue.is_empty() {
            return None;
        }
        match self.framing {
            Framing::Length(_) => Some(Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "the input ends inside a frame",
            ))),
            Framing::Delimiter { ref framing, .. } => {
                let len = self.queue.len();
                if len > framing.max_frame_len {
                    return Some(Err(framing.too_long(len)));
                }
                Some(Ok(self.queue.split_to(len)))
            }
        }
    }
}

impl<R: AsyncRead + Unpin> Stream for FrameReader<R> {
    type Item = io::Result<ByteString>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        if this.done {
            return Poll::Ready(None);
        }
        loop {
            let mut missing = 0;
            match this.next_queued(&mut missing) {
                Ok(Some(frame)) => return Poll::Ready(Some(Ok(frame))),
                Ok(None) => {}
                Err(err) => {
                    this.done = true;
                    return Poll::Ready(Some(Err(err)));
                }
            }
            let read = ready!(this.queue.poll_read_buf_wanting(
                Pin::new(&mut this.reader),
                cx,
                missing
            ));
            match read {
                Ok(0) => {
                    this.done = true;
                    return Poll::Ready(this.at_end());
                }
                Ok(_) => {}
                Err(err) => {
                    this.done = true;
                    return Poll::Ready(Some(Err(err)));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use bytes::Bytes;

    use super::{field_value, field_value_bytes};
    use crate::queue::ByteQueue;

    /// Every field length, offset and byte order, over fragments of every size.
    #[test]
    fn field_values_are_read_as_byte_by_byte() {
        let content: Vec<u8> = (0..24u8).map(|b| b.wrapping_mul(37) ^ 0x5A).collect();
        for cut in 1..=content.len() {
            let queue: ByteQueue = content.chunks(cut).map(Bytes::copy_from_slice).collect();
            for offset in 0..=16 {
                for len in 1..=8 {
                    for big_endian in [true, false] {
                        assert_eq!(
                            field_value(&queue, offset, len, big_endian),
                            field_value_bytes(&queue, offset, len, big_endian),
                            "cut {cut}, offset {offset}, len {len}, big-endian {big_endian}"
                        );
                    }
                }
            }
        }
        let short: ByteQueue = [Bytes::from_static(b"ab")].into_iter().collect();
        assert_eq!(field_value(&short, 1, 2, true), None);
    }
}
