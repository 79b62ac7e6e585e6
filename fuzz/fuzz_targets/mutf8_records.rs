//! wirebytes-mutf8's record readers over an arbitrary byte stream, record after record,
//! against a model built on `reference`: `read_utf` / `read_utf16` / `read_long_utf` (every
//! kernel level) from an `io::Read` that delivers short reads, `Interrupted` and one
//! injected failure; `get_utf` / `get_utf16` / `get_long_utf` (every kernel level) from a
//! `Buf` of many chunks, with and without `chunks_vectored` (which makes no difference);
//! `take_utf` / `take_long_utf` (every kernel level) out of the slice. Each result, error
//! kind and inner error, and how many bytes each call consumed, is the model's. And the
//! writers: the payload's UTF-16 units through `put_utf16` (into a buffer of narrow chunks)
//! and `write_utf16`, read back by `get_utf16` and `read_utf16`.
#![no_main]

use std::io;

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use wirebytes_fuzz::{Chunked, ShortReads, same};
use wirebytes_mutf8::{DecodeError, GetUtfError, LengthError, levels, reference};

#[derive(Arbitrary, Debug)]
struct Input<'a> {
    /// The chunk lengths of the `Buf` (a cycle).
    cuts: [u8; 4],
    /// Whether the `Buf` shows all its chunks through `chunks_vectored` (the readers read the
    /// same either way).
    vectored: bool,
    /// The `io::Read`'s calls (a cycle): short reads and `Interrupted`.
    schedule: [u8; 4],
    /// After how many bytes the `io::Read` fails once (never when above the stream's length).
    fail_at: u16,
    /// The limit of the long records.
    limit: u16,
    /// The stream.
    payload: &'a [u8],
}

/// How a read ends in the model.
#[derive(Debug, PartialEq)]
enum Outcome<T> {
    Ok(T),
    /// An `io::Error` of this kind with nothing inside that the model knows.
    Io(io::ErrorKind),
    /// `InvalidData` / `Invalid` wrapping this error.
    Invalid(DecodeError),
    /// `InvalidData` / `TooLong` wrapping a `LengthError`.
    TooLong,
    /// `GetUtfError::Incomplete`.
    Incomplete(u64),
}

impl<T> Outcome<T> {
    fn goes_on(&self) -> bool {
        matches!(self, Outcome::Ok(_) | Outcome::Invalid(_))
    }
}

fn from_io<T>(result: io::Result<T>) -> Outcome<T> {
    match result {
        Ok(value) => Outcome::Ok(value),
        Err(err) => {
            let kind = err.kind();
            let inner = err.get_ref();
            if let Some(decode) = inner.and_then(|e| e.downcast_ref::<DecodeError>()) {
                assert_eq!(kind, io::ErrorKind::InvalidData, "{err}");
                Outcome::Invalid(*decode)
            } else if inner.is_some_and(|e| e.is::<LengthError>())
                && kind == io::ErrorKind::InvalidData
            {
                Outcome::TooLong
            } else {
                Outcome::Io(kind)
            }
        }
    }
}

fn from_buf<T>(result: Result<T, GetUtfError>) -> Outcome<T> {
    match result {
        Ok(value) => Outcome::Ok(value),
        Err(GetUtfError::Incomplete { needed }) => Outcome::Incomplete(needed),
        Err(GetUtfError::TooLong(_)) => Outcome::TooLong,
        Err(GetUtfError::Invalid(err)) => Outcome::Invalid(err),
        // `GetUtfError` is non-exhaustive: a new kind needs a model here.
        Err(other) => panic!("a GetUtfError the model does not know: {other:?}"),
    }
}

/// The big-endian length field of `N` bytes at `data[pos..]`.
fn field<const N: usize>(data: &[u8], pos: usize) -> u64 {
    data[pos..pos + N]
        .iter()
        .fold(0u64, |acc, &b| acc << 8 | u64::from(b))
}

/// The model of one read of `want` bytes at `pos` from the `io::Read`: the position after
/// it, or the error and the position it leaves.
fn read_span(
    len: usize,
    pos: usize,
    want: usize,
    fail_at: usize,
) -> Result<usize, (io::ErrorKind, usize)> {
    let end = pos + want;
    if pos <= fail_at && fail_at < end && fail_at <= len {
        Err((io::ErrorKind::Other, fail_at))
    } else if end > len {
        Err((io::ErrorKind::UnexpectedEof, len))
    } else {
        Ok(end)
    }
}

/// The model of one record read from the `io::Read` at `pos`: the outcome and the position
/// after it.
fn io_model<T, const N: usize>(
    data: &[u8],
    pos: usize,
    fail_at: usize,
    limit: u64,
    decode: impl Fn(&[u8]) -> Result<T, DecodeError>,
) -> (Outcome<T>, usize) {
    let body = match read_span(data.len(), pos, N, fail_at) {
        Ok(body) => body,
        Err((kind, at)) => return (Outcome::Io(kind), at),
    };
    let len = field::<N>(data, pos);
    if len > limit {
        return (Outcome::TooLong, body);
    }
    match read_span(data.len(), body, len as usize, fail_at) {
        Ok(end) => match decode(&data[body..end]) {
            Ok(value) => (Outcome::Ok(value), end),
            Err(err) => (Outcome::Invalid(err), end),
        },
        Err((kind, at)) => (Outcome::Io(kind), at),
    }
}

/// The model of one record read from the `Buf` at `pos`: the outcome and the position after
/// it. `first_chunk` is the length of the chunk the buffer shows at `pos`.
fn buf_model<T, const N: usize>(
    data: &[u8],
    pos: usize,
    first_chunk: usize,
    limit: u64,
    decode: impl Fn(&[u8]) -> Result<T, DecodeError>,
) -> (Outcome<T>, usize) {
    let remaining = data.len() - pos;
    if remaining < N {
        return (Outcome::Incomplete(N as u64), pos);
    }
    // A length field split between the first chunk and the next is consumed to be read.
    let after_field = if first_chunk >= N { pos } else { pos + N };
    let len = field::<N>(data, pos);
    if len > limit {
        return (Outcome::TooLong, after_field);
    }
    if len > (remaining - N) as u64 {
        return (
            Outcome::Incomplete((N as u64).saturating_add(len)),
            after_field,
        );
    }
    let end = pos + N + len as usize;
    match decode(&data[pos + N..end]) {
        Ok(value) => (Outcome::Ok(value), end),
        Err(err) => (Outcome::Invalid(err), end),
    }
}

const RECORDS: usize = 64;

/// Reads records with `read` from a fresh `ShortReads` until one does not go on, each
/// against `io_model`.
fn io_records<T: PartialEq + std::fmt::Debug, const N: usize>(
    what: &str,
    input: &Input<'_>,
    limit: u64,
    read: impl Fn(&mut ShortReads<'_>) -> io::Result<T>,
    decode: impl Fn(&[u8]) -> Result<T, DecodeError>,
) {
    let data = input.payload;
    let fail_at = usize::from(input.fail_at);
    let mut reader = ShortReads::new(data, &input.schedule, Some(fail_at));
    let mut pos = 0;
    for record in 0..RECORDS {
        let (want, want_pos) = io_model::<T, N>(data, pos, fail_at, limit, &decode);
        let got = from_io(read(&mut reader));
        let context = (record, pos, input);
        same(what, &context, &want, &got);
        same(
            &format!("{what}: bytes consumed"),
            &context,
            want_pos,
            reader.delivered(),
        );
        pos = want_pos;
        if !want.goes_on() {
            break;
        }
    }
}

/// Reads records with `get` from a fresh `Chunked` until one does not go on, each against
/// `buf_model`.
fn buf_records<T: PartialEq + std::fmt::Debug, const N: usize>(
    what: &str,
    input: &Input<'_>,
    limit: u64,
    get: impl Fn(&mut Chunked<'_>) -> Result<T, GetUtfError>,
    decode: impl Fn(&[u8]) -> Result<T, DecodeError>,
) {
    let data = input.payload;
    let mut buf = Chunked::new(data, &input.cuts, input.vectored);
    let mut pos = 0;
    for record in 0..RECORDS {
        let first_chunk = buf.first_chunk_len();
        let (want, want_pos) = buf_model::<T, N>(data, pos, first_chunk, limit, &decode);
        let got = from_buf(get(&mut buf));
        let context = (record, pos, input);
        same(what, &context, &want, &got);
        same(
            &format!("{what}: bytes consumed"),
            &context,
            want_pos,
            buf.consumed(),
        );
        pos = want_pos;
        if !want.goes_on() {
            break;
        }
    }
}

/// The model of one record taken out of the slice at `pos`: the outcome and the position
/// after it (which moves only when the record is read).
fn slice_model<const N: usize>(data: &[u8], pos: usize, limit: u64) -> (Outcome<String>, usize) {
    let remaining = data.len() - pos;
    if remaining < N {
        return (Outcome::Incomplete(N as u64), pos);
    }
    let len = field::<N>(data, pos);
    if len > limit {
        return (Outcome::TooLong, pos);
    }
    if len > (remaining - N) as u64 {
        return (Outcome::Incomplete((N as u64).saturating_add(len)), pos);
    }
    let end = pos + N + len as usize;
    match reference::decode(&data[pos + N..end]) {
        Ok(text) => (Outcome::Ok(text), end),
        Err(err) => (Outcome::Invalid(err), pos),
    }
}

/// Takes records out of the payload with `take` until one is not read, each against
/// `slice_model`.
fn take_records<const N: usize>(
    what: &str,
    input: &Input<'_>,
    limit: u64,
    take: impl for<'a> Fn(&mut &'a [u8]) -> Result<std::borrow::Cow<'a, str>, GetUtfError>,
) {
    let data = input.payload;
    let mut rest = data;
    let mut pos = 0;
    for record in 0..RECORDS {
        let (want, want_pos) = slice_model::<N>(data, pos, limit);
        let got = from_buf(take(&mut rest).map(std::borrow::Cow::into_owned));
        let context = (record, pos, input);
        same(what, &context, &want, &got);
        same(
            &format!("{what}: bytes consumed"),
            &context,
            want_pos,
            data.len() - rest.len(),
        );
        pos = want_pos;
        if !matches!(want, Outcome::Ok(_)) {
            break;
        }
    }
}

/// A `BufMut` that offers `width` bytes of room at a time (at least 1), and grows.
struct NarrowRoom {
    bytes: Vec<u8>,
    room: Vec<std::mem::MaybeUninit<u8>>,
}

// SAFETY: `chunk_mut` is the room; `advance_mut` copies in the first `cnt` bytes of it, which
// the caller wrote; `remaining_mut` is what a `Vec` may still hold.
unsafe impl bytes::BufMut for NarrowRoom {
    fn remaining_mut(&self) -> usize {
        isize::MAX as usize - self.bytes.len()
    }

    unsafe fn advance_mut(&mut self, cnt: usize) {
        assert!(cnt <= self.room.len(), "advanced past the room offered");
        for byte in &self.room[..cnt] {
            // SAFETY: the caller wrote the first `cnt` bytes of the room before advancing.
            self.bytes.push(unsafe { byte.assume_init() });
        }
    }

    fn chunk_mut(&mut self) -> &mut bytes::buf::UninitSlice {
        bytes::buf::UninitSlice::uninit(&mut self.room)
    }
}

/// The payload's UTF-16 units written by `put_utf16` (into narrow chunks) and `write_utf16`:
/// the reference's record, or a `LengthError` and nothing written; read back by `get_utf16`
/// out of the chunked buffer and by `read_utf16`.
fn utf16_round_trip(input: &Input<'_>) {
    let units = wirebytes_fuzz::units(input.payload);
    let body = reference::encode_from_utf16(&units);
    let mut room = NarrowRoom {
        bytes: Vec::new(),
        room: vec![std::mem::MaybeUninit::uninit(); usize::from(input.cuts[0] % 9) + 1],
    };
    let put = wirebytes_mutf8::put_utf16(&mut room, &units);
    let mut written = Vec::new();
    let wrote = wirebytes_mutf8::write_utf16(&mut written, &units);
    match u16::try_from(body.len()) {
        Ok(len) => {
            let record = [&len.to_be_bytes()[..], &body].concat();
            same("put_utf16", &units, (Ok(()), &record), (put, &room.bytes));
            same("write_utf16", &units, &record, &written);
            assert!(wrote.is_ok());
            let mut buf = Chunked::new(&record, &input.cuts, input.vectored);
            same(
                "get_utf16 back",
                &units,
                Ok(&units),
                wirebytes_mutf8::get_utf16(&mut buf).as_ref(),
            );
            same(
                "read_utf16 back",
                &units,
                Some(&units),
                wirebytes_mutf8::read_utf16(&mut record.as_slice())
                    .ok()
                    .as_ref(),
            );
        }
        Err(_) => {
            same(
                "put_utf16 too long",
                &units,
                (true, 0),
                (put.is_err(), room.bytes.len()),
            );
            let kind = wrote.map_err(|e| e.kind());
            same(
                "write_utf16 too long",
                &units,
                (Err(io::ErrorKind::InvalidInput), 0),
                (kind, written.len()),
            );
        }
    }
}

fn decode(body: &[u8]) -> Result<String, DecodeError> {
    reference::decode(body)
}

fuzz_target!(|input: Input<'_>| {
    let short = u64::from(u16::MAX);
    let limit = u64::from(input.limit);
    for level in levels::all() {
        let name = level.name();
        io_records::<_, 2>(
            &format!("read_utf {name}"),
            &input,
            short,
            |r| level.read_utf(r),
            decode,
        );
        io_records::<_, 2>(
            &format!("read_utf16 {name}"),
            &input,
            short,
            |r| level.read_utf16(r),
            reference::decode_to_utf16,
        );
        buf_records::<_, 2>(
            &format!("get_utf {name}"),
            &input,
            short,
            |b| level.get_utf(b),
            decode,
        );
        buf_records::<_, 2>(
            &format!("get_utf16 {name}"),
            &input,
            short,
            |b| level.get_utf16(b),
            reference::decode_to_utf16,
        );
        io_records::<_, 8>(
            &format!("read_long_utf {name}"),
            &input,
            limit,
            |r| level.read_long_utf(r, limit),
            decode,
        );
        buf_records::<_, 8>(
            &format!("get_long_utf {name}"),
            &input,
            limit,
            |b| level.get_long_utf(b, limit),
            decode,
        );
        take_records::<2>(&format!("take_utf {name}"), &input, short, |s| {
            level.take_utf(s)
        });
        take_records::<8>(&format!("take_long_utf {name}"), &input, limit, |s| {
            level.take_long_utf(s, limit)
        });
    }
    take_records::<2>("take_utf", &input, short, wirebytes_mutf8::take_utf);
    take_records::<8>("take_long_utf", &input, limit, |s| {
        wirebytes_mutf8::take_long_utf(s, limit)
    });
    utf16_round_trip(&input);
    io_records::<_, 8>(
        "read_long_utf",
        &input,
        limit,
        |r| wirebytes_mutf8::read_long_utf(r, limit),
        decode,
    );
    buf_records::<_, 8>(
        "get_long_utf",
        &input,
        limit,
        |b| wirebytes_mutf8::get_long_utf(b, limit),
        decode,
    );
});
