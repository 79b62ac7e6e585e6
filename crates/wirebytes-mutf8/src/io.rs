//! Records over `std::io`: `readUTF`/`writeUTF`'s 2-byte length form, and the 8-byte length
//! form of `ObjectOutputStream`'s long strings.

use std::io::{self, Read, Write};
use std::string::String;
use std::vec::Vec;

use crate::arch::Kernels;
use crate::decode::decode_vec;
use crate::encode::{Mutf8, str_len, to_slice, units_len, units_to_slice};
use crate::record::UTF_LIMIT;
use crate::utf16::decode_to_utf16_with;
use crate::{LengthError, encode, encode_from_utf16};

/// Reads one `DataInput.readUTF` record: a big-endian `u16` body length, then the body,
/// decoded as [`decode`](crate::decode()) does.
///
/// The body's buffer grows with the bytes that arrive (4 KiB first, then doubling up to the
/// length): a length field larger than what the stream holds allocates no more than twice
/// what was there, never the full length.
///
/// # Errors
///
/// What a failed read has consumed from the stream:
///
/// - [`io::ErrorKind::UnexpectedEof`] when the stream ends inside the record: everything the
///   stream held (as `read_exact` does);
/// - [`io::ErrorKind::InvalidData`] when the body is not what the JDK accepts or holds a lone
///   surrogate: the error wraps the [`DecodeError`](crate::DecodeError) (reach it with
///   `get_ref()` and `downcast_ref`); the whole record has been consumed, so the next
///   record can be read;
/// - any error of the reader but [`io::ErrorKind::Interrupted`] (which is retried, as
///   `read_exact` does): what the reader had delivered until then, and nothing after.
///
/// # Examples
///
/// ```
/// use wirebytes_mutf8::{read_utf, DecodeError};
///
/// let mut stream: &[u8] = b"\x00\x05a\xc0\x80bc\x00\x02\xc2";
/// assert_eq!(read_utf(&mut stream)?, "a\0bc");
/// let err = read_utf(&mut stream).unwrap_err();
/// assert_eq!(err.kind(), std::io::ErrorKind::UnexpectedEof);
///
/// let err = read_utf(&mut &b"\x00\x02\xc2\x41"[..]).unwrap_err();
/// assert_eq!(err.kind(), std::io::ErrorKind::InvalidData);
/// let inner = err.get_ref().and_then(|e| e.downcast_ref::<DecodeError>()).unwrap();
/// assert_eq!(inner.jdk_position(), Some(2));
/// # Ok::<(), std::io::Error>(())
/// ```
#[must_use = "the record's text, or why it could not be read"]
pub fn read_utf<R: Read + ?Sized>(reader: &mut R) -> io::Result<String> {
    read_utf_with(reader, Kernels::detect())
}

/// [`read_utf`] with `kernels`.
pub(crate) fn read_utf_with<R: Read + ?Sized>(
    reader: &mut R,
    kernels: Kernels,
) -> io::Result<String> {
    let mut len = [0u8; 2];
    reader.read_exact(&mut len)?;
    read_body(reader, usize::from(u16::from_be_bytes(len)), kernels)
}

/// Reads `len` body bytes and decodes them.
fn read_body<R: Read + ?Sized>(reader: &mut R, len: usize, kernels: Kernels) -> io::Result<String> {
    let body = read_bytes(reader, len)?;
    decode_vec(body, kernels).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
}

/// Reads exactly `len` bytes into a buffer that grows as they arrive: 4 KiB first, then
/// doubling, so that a length field larger than the stream costs at most twice the bytes
/// that were there.
fn read_bytes<R: Read + ?Sized>(reader: &mut R, len: usize) -> io::Result<Vec<u8>> {
    const FIRST: usize = 4096;
    let mut body = Vec::new();
    while body.len() < len {
        let filled = body.len();
        let target = len.min(FIRST.max(2 * filled));
        body.try_reserve_exact(target - filled)
            .map_err(|e| io::Error::new(io::ErrorKind::OutOfMemory, e))?;
        body.resize(target, 0);
        reader.read_exact(&mut body[filled..])?;
    }
    Ok(body)
}

/// Reads one `DataInput.readUTF` record (a big-endian `u16` body length, then the body) into
/// the UTF-16 chars the JDK returns, as [`decode_to_utf16`](crate::decode_to_utf16) decodes them:
/// lone surrogates included, so every record the JDK accepts is read.
///
/// The body's buffer grows as for [`read_utf`].
///
/// # Errors
///
/// As [`read_utf`], and with the same bytes consumed: `UnexpectedEof` for a short stream,
/// `InvalidData` wrapping the [`DecodeError`](crate::DecodeError) for a body the JDK rejects
/// (never [`UnpairedSurrogate`](crate::DecodeErrorKind::UnpairedSurrogate)).
///
/// # Examples
///
/// ```
/// // A lone high surrogate: the JDK reads it, so does this.
/// let mut stream: &[u8] = b"\x00\x04\xed\xa0\x80!";
/// assert_eq!(wirebytes_mutf8::read_utf16(&mut stream)?, [0xd800, 0x21]);
/// # Ok::<(), std::io::Error>(())
/// ```
#[must_use = "the record's chars, or why they could not be read"]
pub fn read_utf16<R: Read + ?Sized>(reader: &mut R) -> io::Result<Vec<u16>> {
    read_utf16_with(reader, Kernels::detect())
}

/// [`read_utf16`] with `kernels`.
pub(crate) fn read_utf16_with<R: Read + ?Sized>(
    reader: &mut R,
    kernels: Kernels,
) -> io::Result<Vec<u16>> {
    let mut len = [0u8; 2];
    reader.read_exact(&mut len)?;
    let body = read_bytes(reader, usize::from(u16::from_be_bytes(len)))?;
    decode_to_utf16_with(&body, kernels).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
}

/// The most bytes a record is written from in one `write_all`.
const SMALL: usize = 520;

/// The error of a body over `writeUTF`'s 65535 bytes.
fn too_long(len: usize) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        LengthError::new(len as u64, UTF_LIMIT),
    )
}

/// Writes one `DataOutput.writeUTF` record: a big-endian `u16` body length, then the body,
/// as [`encode()`] builds it.
///
/// Short records (a body of up to 518 bytes) are encoded behind their length field on the
/// stack and go to the writer in one `write_all`; longer ones in two (length, then body);
/// wrap an unbuffered writer in a `BufWriter`.
///
/// [`encode()`]: crate::encode()
///
/// # Errors
///
/// - [`io::ErrorKind::InvalidInput`] when the body would be over 65535 bytes (the JDK's
///   `UTFDataFormatException`): nothing is written; the error wraps a [`LengthError`];
/// - any error of the writer.
///
/// # Examples
///
/// ```
/// let mut out = Vec::new();
/// wirebytes_mutf8::write_utf(&mut out, "a\0b")?;
/// assert_eq!(out, b"\x00\x04a\xc0\x80b");
/// # Ok::<(), std::io::Error>(())
/// ```
#[must_use = "the write may have failed"]
pub fn write_utf<W: Write + ?Sized>(writer: &mut W, text: &str) -> io::Result<()> {
    let mut small = [0u8; SMALL];
    if text.len() <= SMALL - 2 {
        if let Some(n) = to_slice::<Mutf8>(text, &mut small[2..]) {
            return write_small(writer, &mut small, n);
        }
    }
    let len = str_len::<Mutf8>(text.as_bytes());
    let Ok(len16) = u16::try_from(len) else {
        return Err(too_long(len));
    };
    writer.write_all(&len16.to_be_bytes())?;
    writer.write_all(&encode(text))
}

/// Writes one `DataOutput.writeUTF` record of UTF-16 chars: a big-endian `u16` body length,
/// then the body as [`encode_from_utf16`] builds it; what `writeUTF` writes for a Java
/// `String` of these chars, lone surrogates included.
///
/// Short records go to the writer in one `write_all`, longer ones in two, as for
/// [`write_utf`].
///
/// # Errors
///
/// As [`write_utf`]: [`io::ErrorKind::InvalidInput`] wrapping a [`LengthError`] when the
/// body would be over 65535 bytes (nothing is written), or any error of the writer.
///
/// # Examples
///
/// ```
/// let mut out = Vec::new();
/// wirebytes_mutf8::write_utf16(&mut out, &[0x61, 0, 0xdc00])?;
/// assert_eq!(out, b"\x00\x06a\xc0\x80\xed\xb0\x80");
/// assert_eq!(wirebytes_mutf8::read_utf16(&mut out.as_slice())?, [0x61, 0, 0xdc00]);
/// # Ok::<(), std::io::Error>(())
/// ```
#[must_use = "the write may have failed"]
pub fn write_utf16<W: Write + ?Sized>(writer: &mut W, src: &[u16]) -> io::Result<()> {
    let mut small = [0u8; SMALL];
    if src.len() <= SMALL - 2 {
        if let Some(n) = units_to_slice::<Mutf8>(src, &mut small[2..]) {
            return write_small(writer, &mut small, n);
        }
    }
    let len = units_len::<Mutf8>(src);
    let Ok(len16) = u16::try_from(len) else {
        return Err(too_long(len));
    };
    writer.write_all(&len16.to_be_bytes())?;
    writer.write_all(&encode_from_utf16(src))
}

/// Writes the record whose body of `n` bytes (at most `SMALL - 2`) is in `small[2..]`, behind
/// its length field, in one `write_all`.
fn write_small<W: Write + ?Sized>(
    writer: &mut W,
    small: &mut [u8; SMALL],
    n: usize,
) -> io::Result<()> {
    // `n <= SMALL - 2`, far below 65536.
    small[..2].copy_from_slice(&(n as u16).to_be_bytes());
    writer.write_all(&small[..2 + n])
}

/// Reads one long string record: a big-endian 8-byte body length (what `ObjectOutputStream`
/// writes after `TC_LONGSTRING` for a string whose body exceeds 65535 bytes), then the body,
/// decoded as [`decode`](crate::decode()) does.
///
/// The length comes from the stream, so it is checked against `limit` before anything is
/// allocated: at most `limit` bytes are ever allocated for the body, and, as for
/// [`read_utf`], no more than twice the bytes the stream held.
///
/// The JDK reads a negative length (above `i64::MAX` here) as an empty string; this refuses
/// it, as any length above `limit`.
///
/// # Errors
///
/// - [`io::ErrorKind::InvalidData`] wrapping a [`LengthError`] when the length is above
///   `limit` (only the length field has been consumed);
/// - as for [`read_utf`]: `UnexpectedEof` on a short stream, `InvalidData` wrapping a
///   [`DecodeError`](crate::DecodeError) for a bad body, any error of the reader but
///   `Interrupted` (which is retried);
/// - [`io::ErrorKind::OutOfMemory`] when the allocator refuses the body's buffer, or, before
///   any body byte is read, when the length is above `usize::MAX` (a 32-bit target), wrapping
///   a [`LengthError`] whose limit is `usize::MAX`.
///
/// # Examples
///
/// ```
/// let mut stream: &[u8] = b"\x00\x00\x00\x00\x00\x00\x00\x02hi";
/// assert_eq!(wirebytes_mutf8::read_long_utf(&mut stream, 1 << 20)?, "hi");
///
/// let huge: &[u8] = b"\x00\x00\x7f\xff\xff\xff\xff\xff";
/// let err = wirebytes_mutf8::read_long_utf(&mut &huge[..], 1 << 20).unwrap_err();
/// assert_eq!(err.kind(), std::io::ErrorKind::InvalidData);
/// # Ok::<(), std::io::Error>(())
/// ```
#[must_use = "the record's text, or why it could not be read"]
pub fn read_long_utf<R: Read + ?Sized>(reader: &mut R, limit: u64) -> io::Result<String> {
    read_long_utf_with(reader, limit, Kernels::detect())
}

/// [`read_long_utf`] with `kernels`.
pub(crate) fn read_long_utf_with<R: Read + ?Sized>(
    reader: &mut R,
    limit: u64,
    kernels: Kernels,
) -> io::Result<String> {
    let mut len = [0u8; 8];
    reader.read_exact(&mut len)?;
    let len = u64::from_be_bytes(len);
    if len > limit {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            LengthError::new(len, limit),
        ));
    }
    let len = usize::try_from(len).map_err(|_| {
        io::Error::new(
            io::ErrorKind::OutOfMemory,
            LengthError::new(len, usize::MAX as u64),
        )
    })?;
    read_body(reader, len, kernels)
}

/// Writes one long string record: a big-endian 8-byte body length, then the body, as
/// [`encode()`] builds it. This is what `ObjectOutputStream` writes after `TC_LONGSTRING`;
/// it writes this form only for bodies over 65535 bytes (and `TC_STRING` with a
/// [`write_utf`] record otherwise), but reads either length for any body.
///
/// # Errors
///
/// Any error of the writer.
///
/// # Examples
///
/// ```
/// let mut out = Vec::new();
/// wirebytes_mutf8::write_long_utf(&mut out, "hi")?;
/// assert_eq!(out, b"\x00\x00\x00\x00\x00\x00\x00\x02hi");
/// # Ok::<(), std::io::Error>(())
/// ```
#[must_use = "the write may have failed"]
pub fn write_long_utf<W: Write + ?Sized>(writer: &mut W, text: &str) -> io::Result<()> {
    let mut small = [0u8; SMALL];
    if text.len() <= SMALL - 8 {
        if let Some(n) = to_slice::<Mutf8>(text, &mut small[8..]) {
            small[..8].copy_from_slice(&(n as u64).to_be_bytes());
            return writer.write_all(&small[..8 + n]);
        }
    }
    let body = encode(text);
    writer.write_all(&(body.len() as u64).to_be_bytes())?;
    writer.write_all(&body)
}
