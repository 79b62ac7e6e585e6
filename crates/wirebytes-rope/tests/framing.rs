//! `FrameReader` and `ByteQueue::read_buf_from` (feature `tokio`) against tokio-util's
//! `LengthDelimitedCodec` and `AnyDelimiterCodec` (and a plain split for delimiters of several
//! bytes): the same frames out of the same bytes, whatever the reads, with random settings;
//! frames over the maximum, input cut short and a failing reader; what stays allocated.
#![cfg(feature = "tokio")]

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};

use bytes::Bytes;
use futures_util::{Stream, StreamExt};
use rstest::rstest;
use tokio::io::{AsyncRead, ReadBuf};
use tokio_util::codec::{AnyDelimiterCodec, FramedRead, LengthDelimitedCodec};
use wirebytes_rope::{
    ByteQueue, ByteString, Delimited, FrameReader, FrameTooLong, LengthDelimited,
};
use wirebytes_testkit::Rng;

/// An `AsyncRead` that hands out `pieces` one per read (cut to the room offered), then does
/// as `end` says; every other read is `Pending` first when `stalls`.
struct Pieces {
    pieces: Vec<Vec<u8>>,
    at: usize,
    offset: usize,
    stalls: bool,
    stalled: bool,
    end: End,
}

/// What a [`Pieces`] reader does after its pieces.
#[derive(Clone, Copy)]
enum End {
    /// Ends the stream.
    Eof,
    /// Fails: the peer went away.
    Fail,
    /// Has nothing more for now, and never wakes the task: a peer that stopped sending but
    /// keeps the connection.
    Pending,
}

impl Pieces {
    fn new(pieces: Vec<Vec<u8>>) -> Pieces {
        Pieces {
            pieces,
            at: 0,
            offset: 0,
            stalls: false,
            stalled: false,
            end: End::Eof,
        }
    }

    /// `wire` in pieces of 1 to `max` bytes.
    fn random(rng: &mut Rng, wire: &[u8], max: usize) -> Pieces {
        let mut pieces = Vec::new();
        let mut at = 0;
        while at < wire.len() {
            let n = (1 + rng.below(max)).min(wire.len() - at);
            pieces.push(wire[at..at + n].to_vec());
            at += n;
        }
        let mut reader = Pieces::new(pieces);
        reader.stalls = rng.one_in(2);
        reader
    }
}

impl AsyncRead for Pieces {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        if self.stalls && !self.stalled {
            self.stalled = true;
            cx.waker().wake_by_ref();
            return Poll::Pending;
        }
        self.stalled = false;
        let Some(piece) = self.pieces.get(self.at) else {
            return match self.end {
                End::Eof => Poll::Ready(Ok(())),
                End::Fail => Poll::Ready(Err(io::Error::other("the peer went away"))),
                End::Pending => Poll::Pending,
            };
        };
        let n = (piece.len() - self.offset).min(buf.remaining());
        buf.put_slice(&piece[self.offset..self.offset + n]);
        let (at, offset) = (self.at, self.offset + n);
        if offset == self.pieces[at].len() {
            self.at += 1;
            self.offset = 0;
        } else {
            self.offset = offset;
        }
        Poll::Ready(Ok(()))
    }
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a runtime")
}

/// Every item of a stream, errors as their kinds.
async fn all<S, T, E>(stream: S) -> Vec<Result<Vec<u8>, String>>
where
    S: futures_util::Stream<Item = Result<T, E>>,
    T: AsRef<[u8]> + 'static,
    E: std::fmt::Debug,
{
    stream
        .map(|item| {
            item.map(|frame| frame.as_ref().to_vec())
                .map_err(|err| format!("{err:?}"))
        })
        .collect()
        .await
}

impl AsRef<[u8]> for Frame {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

/// A `ByteString` frame made contiguous for the comparison.
struct Frame(Vec<u8>);

/// Random settings of a length field, and frames written with them.
#[test]
fn length_delimited_frames_are_tokio_utils() {
    let mut rng = Rng::new(0xF4A3E);
    let rt = runtime();
    for round in 0..300 {
        let field_len = 1 + rng.below(8);
        let offset = rng.below(3);
        let big_endian = rng.one_in(2);
        let adjustment = rng.below(9) as isize - 4;
        let keep_header = rng.one_in(4);
        let field_max = if field_len >= 8 {
            u64::MAX
        } else {
            (1u64 << (8 * field_len)) - 1
        };
        // Payloads the field can announce (`len - adjustment` in the field's range).
        let mut wire = Vec::new();
        for _ in 0..rng.below(30) {
            let bound = if rng.one_in(8) { 3000 } else { 40 };
            let len = rng.below(bound);
            // The frame is `len` bytes after the header, or the header and them: the field
            // says that length less the adjustment.
            let frame_len = if keep_header {
                offset + field_len + len
            } else {
                len
            };
            let value = frame_len as i64 - adjustment as i64;
            if value < 0 || value as u64 > field_max {
                continue;
            }
            let header = rng.bytes(offset);
            wire.extend(header);
            let bytes = (value as u64).to_be_bytes();
            let mut field = bytes[8 - field_len..].to_vec();
            if !big_endian {
                field.reverse();
            }
            wire.extend(field);
            let payload = rng.bytes(len);
            wire.extend(payload);
        }
        let max_piece = [1, 5, 64, 1500, 20_000][round % 5];

        let mut ours = LengthDelimited::new()
            .length_field_len(field_len)
            .length_field_offset(offset)
            .length_adjustment(adjustment);
        let mut theirs = LengthDelimitedCodec::builder();
        theirs
            .length_field_length(field_len)
            .length_field_offset(offset)
            .length_adjustment(adjustment);
        if !big_endian {
            ours = ours.little_endian();
            theirs.little_endian();
        }
        if keep_header {
            ours = ours.num_skip(0);
            theirs.num_skip(0);
        }
        let pieces = Pieces::random(&mut rng, &wire, max_piece);
        let mut reader = FrameReader::length_delimited(pieces, ours);
        reader.queue_mut().set_read_chunk(1 + rng.below(4096));
        let got = rt.block_on(all(
            reader.map(|f| f.map(|s| Frame(s.to_vec())).map_err(|e| e.kind()))
        ));
        let pieces = Pieces::random(&mut rng, &wire, max_piece);
        let theirs = FramedRead::new(pieces, theirs.new_codec()).map(|f| f.map_err(|e| e.kind()));
        let want = rt.block_on(all(theirs));
        assert!(want.iter().all(Result::is_ok), "round {round}: {want:?}");
        assert_eq!(got, want, "round {round}: {ours:?}");
    }
}

/// A one-byte delimiter against `AnyDelimiterCodec`, a longer one against a plain split.
#[test]
fn delimited_frames_are_tokio_utils_or_a_split() {
    let mut rng = Rng::new(0xDE11);
    let rt = runtime();
    for round in 0..300 {
        let delimiter: &[u8] = [&b"\n"[..], b"\r\n", b"--boundary--", b"\x00"][round % 4];
        let mut wire = Vec::new();
        let mut want = Vec::new();
        for _ in 0..rng.below(30) {
            let bound = if rng.one_in(8) { 3000 } else { 40 };
            let len = rng.below(bound);
            // Frames of bytes other than the delimiter's first.
            let frame: Vec<u8> = rng
                .bytes(len)
                .into_iter()
                .map(|b| if b == delimiter[0] { b'.' } else { b })
                .collect();
            wire.extend(&frame);
            wire.extend(delimiter);
            want.push(Ok(frame));
        }
        if rng.one_in(2) {
            // A last frame without a delimiter.
            let frame = vec![b'z'; 1 + rng.below(50)];
            wire.extend(&frame);
            want.push(Ok(frame));
        }
        let max_piece = [1, 5, 64, 1500, 20_000][round % 5];
        let pieces = Pieces::random(&mut rng, &wire, max_piece);
        let reader = FrameReader::delimited(pieces, Delimited::bytes(delimiter));
        let got = rt.block_on(all(reader.map(|f| f.map(|s| Frame(s.to_vec())))));
        assert_eq!(got, want, "round {round}");
        if delimiter.len() == 1 {
            let codec = AnyDelimiterCodec::new(delimiter.to_vec(), Vec::new());
            let pieces = Pieces::random(&mut rng, &wire, max_piece);
            let theirs = rt.block_on(all(FramedRead::new(pieces, codec)));
            assert_eq!(got, theirs, "round {round}");
        }
    }
}

/// The error inside a frame reader's `io::Error`.
fn too_long(err: &io::Error) -> FrameTooLong {
    *err.get_ref()
        .and_then(|e| e.downcast_ref::<FrameTooLong>())
        .expect("a FrameTooLong inside")
}

#[rstest]
#[case::at_the_maximum(100, true)]
#[case::over_it(101, false)]
fn a_length_over_the_maximum_ends_the_stream(#[case] len: u32, #[case] fits: bool) {
    let mut wire = len.to_be_bytes().to_vec();
    wire.extend(vec![7u8; len as usize]);
    wire.extend(b"\x00\x00\x00\x01z");
    let reader = FrameReader::length_delimited(
        Pieces::new(vec![wire]),
        LengthDelimited::new().max_frame_len(100),
    );
    let items: Vec<_> = runtime().block_on(reader.collect());
    if fits {
        assert_eq!(items.len(), 2);
        assert_eq!(items[1].as_ref().unwrap(), "z");
    } else {
        assert_eq!(items.len(), 1, "the stream ends at the error");
        let err = items[0].as_ref().unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidData);
        assert_eq!((too_long(err).length(), too_long(err).limit()), (101, 100));
    }
}

#[test]
fn a_negative_adjusted_length_is_an_error() {
    let reader = FrameReader::length_delimited(
        Pieces::new(vec![b"\x00\x02ab".to_vec()]),
        LengthDelimited::new()
            .length_field_len(2)
            .length_adjustment(-3),
    );
    let items: Vec<_> = runtime().block_on(reader.collect());
    let err = items[0].as_ref().unwrap_err();
    assert_eq!(err.kind(), io::ErrorKind::InvalidData);
    assert!(err.to_string().contains("negative"), "{err}");
}

#[rstest]
#[case::no_delimiter_in_time(b"aaaaaaaaaaa\n", b"\n", 10, 1)]
#[case::at_the_maximum(b"aaaaaaaaaa\nb", b"\n", 10, 0)]
#[case::last_frame_too_long(b"a\nbbbbbbbbbbb", b"\n", 10, 2)]
#[case::two_bytes_at_the_maximum(b"aaaaaaaaaa\r\nb", b"\r\n", 10, 0)]
#[case::two_bytes_over_it(b"aaaaaaaaaaa\r\nb", b"\r\n", 10, 1)]
#[case::no_maximum(b"aaaaaaaaaaaaaaaa\r\nb", b"\r\n", usize::MAX, 0)]
fn a_delimited_frame_over_the_maximum(
    #[case] wire: &[u8],
    #[case] delimiter: &[u8],
    #[case] max: usize,
    #[case] error_at: usize,
) {
    for piece in [1, 3, 64] {
        let reader = FrameReader::delimited(
            Pieces::new(wire.chunks(piece).map(<[u8]>::to_vec).collect()),
            Delimited::bytes(delimiter).max_frame_len(max),
        );
        let items: Vec<_> = runtime().block_on(reader.collect());
        if error_at == 0 {
            assert!(items.iter().all(Result::is_ok), "{items:?}");
            assert_eq!(items.len(), 2, "{items:?}");
        } else {
            assert_eq!(items.len(), error_at, "{items:?}");
            let err = items[error_at - 1].as_ref().unwrap_err();
            assert_eq!(too_long(err).limit(), max);
            assert!(too_long(err).length() > max as u64);
        }
    }
}

#[test]
fn input_cut_inside_a_length_delimited_frame() {
    let reader = FrameReader::length_delimited(
        Pieces::new(vec![b"\x00\x00\x00\x01a\x00\x00\x00\x05ab".to_vec()]),
        LengthDelimited::new(),
    );
    let items: Vec<_> = runtime().block_on(reader.collect());
    assert_eq!(items.len(), 2);
    assert_eq!(items[0].as_ref().unwrap(), "a");
    assert_eq!(
        items[1].as_ref().unwrap_err().kind(),
        io::ErrorKind::UnexpectedEof
    );
}

#[test]
fn a_failing_reader_ends_the_stream_with_its_error() {
    let mut pieces = Pieces::new(vec![b"one\ntw".to_vec()]);
    pieces.end = End::Fail;
    let mut reader = FrameReader::delimited(pieces, Delimited::byte(b'\n'));
    let rt = runtime();
    assert_eq!(rt.block_on(reader.next()).unwrap().unwrap(), "one");
    let err = rt.block_on(reader.next()).unwrap().unwrap_err();
    assert_eq!(err.to_string(), "the peer went away");
    assert!(rt.block_on(reader.next()).is_none());
    let (_, queue) = reader.into_parts();
    assert_eq!(queue, b"tw"[..], "what was read stays");
}

/// Each read is one fragment; reads land in the room the last one left while it is at
/// least an eighth of the chunk, so a buffer holds several reads.
#[test]
fn reads_become_fragments_of_shared_buffers() {
    let rt = runtime();
    let mut reader = Pieces::new((0..40).map(|i| vec![i as u8; 100]).collect());
    let mut queue = ByteQueue::new();
    queue.set_read_chunk(1024);
    let mut reads = 0;
    while rt.block_on(queue.read_buf_from(&mut reader)).unwrap() > 0 {
        reads += 1;
    }
    assert_eq!(reads, 40);
    assert_eq!(queue.fragment_count(), 40);
    assert_eq!(queue.len(), 4000);
    let fragments: Vec<Bytes> = queue.fragments().cloned().collect();
    for (i, fragment) in fragments.iter().enumerate() {
        assert_eq!(fragment, &vec![i as u8; 100][..]);
    }
    // Ten reads of 100 bytes fit a 1024-byte buffer before less than 128 bytes are left:
    // each fragment after the first of a buffer starts where the one before ended.
    let adjacent = fragments
        .windows(2)
        .filter(|w| w[0].as_ptr().wrapping_add(100) == w[1].as_ptr())
        .count();
    assert_eq!(adjacent, 40 - 5, "five buffers of eight reads");
}

/// A length-delimited frame larger than the read chunk comes in reads as large as the
/// bytes it still misses: once its length is known, a read is offered room for all of it
/// (up to 1 MiB), so a 200,000-byte frame is two fragments, not thirteen of 16 KiB. A length
/// field that claims more than has come reserves no more than 1 MiB ahead.
#[test]
fn a_large_frame_comes_in_reads_as_large_as_it_needs() {
    use wirebytes_testkit::alloc::largest_allocation;

    let mut rng = Rng::new(31);
    let mut wire = Vec::new();
    for len in [200_000u32, 10, 3_000_000, 5] {
        wire.extend(len.to_be_bytes());
        wire.extend(rng.bytes(len as usize));
    }
    let framing = LengthDelimited::new().max_frame_len(4_000_000);
    let mut reader = FrameReader::length_delimited(&wire[..], framing);
    let mut cx = Context::from_waker(Waker::noop());
    let mut frames = Vec::new();
    while let Poll::Ready(Some(frame)) = Pin::new(&mut reader).poll_next(&mut cx) {
        frames.push(frame.unwrap());
    }
    let lens: Vec<usize> = frames.iter().map(ByteString::len).collect();
    assert_eq!(lens, [200_000, 10, 3_000_000, 5]);
    // The first read takes 16 KiB; the second the rest of the frame and more.
    assert_eq!(frames[0].fragment_count(), 2);
    // 3,000,000 bytes in reads of at most about 1 MiB.
    assert!(
        (3..=5).contains(&frames[2].fragment_count()),
        "{}",
        frames[2].fragment_count()
    );
    let mut joined = Vec::new();
    for frame in &frames {
        joined.extend((frame.len() as u32).to_be_bytes());
        joined.extend(frame.to_vec());
    }
    assert_eq!(joined, wire);

    // A first read of 1,000 bytes leaves room for 15 KiB more: the rest of the frame is
    // offered room for all of it all the same.
    let mut reader = FrameReader::length_delimited(
        Pieces::new(vec![wire[..1000].to_vec(), wire[1000..300_000].to_vec()]),
        LengthDelimited::new(),
    );
    let frame = match Pin::new(&mut reader).poll_next(&mut cx) {
        Poll::Ready(Some(Ok(frame))) => frame,
        other => panic!("{other:?}"),
    };
    assert_eq!(frame, wire[4..200_004]);
    assert_eq!(frame.fragment_count(), 2);

    // A header claiming 100,000,000 bytes, and 20 of them.
    let mut wire = 100_000_000u32.to_be_bytes().to_vec();
    wire.extend([7; 20]);
    let framing = LengthDelimited::new().max_frame_len(200_000_000);
    let mut reader = FrameReader::length_delimited(&wire[..], framing);
    let largest = largest_allocation(|| {
        let end = Pin::new(&mut reader).poll_next(&mut cx);
        assert!(
            matches!(&end, Poll::Ready(Some(Err(e))) if e.kind() == io::ErrorKind::UnexpectedEof),
            "{end:?}"
        );
    });
    assert!(
        largest <= 2 * 1024 * 1024,
        "{largest} bytes reserved at once"
    );
}

/// A stream of small frames allocates per read buffer, not per frame.
#[test]
fn frames_allocate_nothing_of_their_own() {
    use wirebytes_testkit::alloc::allocations;

    let mut wire = Vec::new();
    for i in 0..2000u32 {
        wire.extend(10u32.to_be_bytes());
        wire.extend(i.to_le_bytes());
        wire.extend(b"payl");
        wire.push(b'!');
        wire.push(b'?');
    }
    // 28,000 bytes in reads of at most 16 KiB: two buffers.
    let mut reader = FrameReader::length_delimited(&wire[..], LengthDelimited::new());
    let mut cx = Context::from_waker(Waker::noop());
    let mut frames = 0;
    let allocated = allocations(|| {
        while let Poll::Ready(Some(frame)) = Pin::new(&mut reader).poll_next(&mut cx) {
            let frame: ByteString = frame.unwrap();
            assert_eq!(frame.len(), 10);
            frames += 1;
        }
    });
    assert_eq!(frames, 2000);
    assert!(allocated <= 8, "{allocated} allocations for 2000 frames");
}

#[cfg(test)]
#[global_allocator]
static GLOBAL: wirebytes_testkit::alloc::CountingAlloc = wirebytes_testkit::alloc::CountingAlloc;

/// `make_contiguous` borrows the first fragment when it holds the bytes, and otherwise joins
/// them once into one fragment, the bytes after them left shared.
#[test]
fn make_contiguous_joins_only_what_it_must() {
    let mut queue: ByteQueue = [&b"ab"[..], b"cd", b"efgh"]
        .into_iter()
        .map(Bytes::from_static)
        .collect();
    assert_eq!(queue.make_contiguous(2), Some(&b"ab"[..]));
    assert_eq!(queue.fragment_count(), 3);
    assert_eq!(queue.make_contiguous(5), Some(&b"abcde"[..]));
    assert_eq!(queue.fragment_count(), 2);
    assert_eq!(queue.fragments().nth(1).unwrap(), &b"fgh"[..]);
    assert_eq!(queue.make_contiguous(3), Some(&b"abc"[..]));
    assert_eq!(queue.make_contiguous(9), None);
    assert_eq!(queue.make_contiguous(0), Some(&b""[..]));
    assert_eq!(queue, b"abcdefgh"[..]);
    assert_eq!(ByteQueue::new().make_contiguous(0), Some(&b""[..]));
    assert_eq!(queue.make_contiguous(8), Some(&b"abcdefgh"[..]));
    assert_eq!(queue.fragment_count(), 1);
}

/// Bytes without a delimiter are too long as soon as no delimiter can end a frame of the
/// maximum: with `\r\n` and at most 10 bytes, 11 bytes with no `\r\n` are (a delimiter
/// starting at the 11th would end a frame of 10, so 10 bytes wait), without waiting for more
/// input.
#[rstest]
#[case::one_byte(b"\n", 10, 10)]
#[case::two_bytes(b"\r\n", 10, 11)]
#[case::three_bytes(b"END", 10, 12)]
fn bytes_without_a_delimiter_are_too_long_without_waiting(
    #[case] delimiter: &[u8],
    #[case] max: usize,
    #[case] waits: usize,
) {
    assert_eq!(Delimited::bytes(delimiter).delimiter(), delimiter);
    let mut cx = Context::from_waker(Waker::noop());
    for (len, over) in [(waits, false), (waits + 1, true)] {
        let source = Pieces {
            end: End::Pending,
            ..Pieces::new(vec![vec![b'a'; len]])
        };
        let mut reader =
            FrameReader::delimited(source, Delimited::bytes(delimiter).max_frame_len(max));
        let polled = Pin::new(&mut reader).poll_next(&mut cx);
        match polled {
            Poll::Ready(Some(Err(err))) if over => assert_eq!(too_long(&err).limit(), max),
            Poll::Pending if !over => {}
            other => panic!("{len} bytes, {delimiter:?}: {other:?}"),
        }
    }
}
