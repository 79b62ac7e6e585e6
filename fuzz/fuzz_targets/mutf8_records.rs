//! wirebytes-mutf8's record readers over an arbitrary byte stream, record after record,
//! against a model built on `reference`: `read_utf` / `read_utf16` (every kernel level) and
//! `read_long_utf` from an `io::Read` that delivers short reads, `Interrupted` and one
//! injected failure; `get_utf` / `get_utf16` (every kernel level) and `get_long_utf` from a
//! `Buf` of many chunks, with and without `chunks_vectored`. Each result, error kind and
//! inner error, and how many bytes each call consumed, is the model's.
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
    /// Whether the `Buf` shows all its chunks through `chunks_vectored`.
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
    vectored: bool,
    limit: u64,
    decode: impl Fn(&[u8]) -> Result<T, DecodeError>,
) -> (Outcome<T>, usize) {
    let remaining = data.len() - pos;
    if remaining < N {
        return (Outcome::Incomplete(N as u64), pos);
    }
    // A length field the buffer shows only by consuming it is consumed.
    let after_field = if first_chunk >= N || vectored {
        pos
    } else {
        pos + N
    };
    let len = field::<N>(data, pos);
    if len > limit {
        return (Outcome::TooLong, after_field);
    }
    if len > (remaining - N) as u64 {
        return (Outcome::Incomplete(N as u64 + len), after_field);
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
        let (want, want_pos) =
            buf_model::<T, N>(data, pos, first_chunk, input.vectored, limit, &decode);
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
    }
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
