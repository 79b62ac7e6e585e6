//! Records over `bytes::Buf` / `BufMut` (the `bytes` feature): the same records as
//! [`read_utf`](crate::read_utf) and friends, read straight out of a buffer that may be made
//! of many chunks.

use alloc::string::String;
use core::fmt;

use bytes::{Buf, BufMut};

use crate::arch::Kernels;
use crate::decode::{decode_vec, decode_with};
use crate::{DecodeError, LengthError, encode, encoded_len};

/// Why [`get_utf`] or [`get_long_utf`] could not read a record.
///
/// # Examples
///
/// ```
/// use wirebytes_mutf8::{get_utf, GetUtfError};
///
/// let mut buf: &[u8] = b"\x00\x05abc";
/// assert_eq!(get_utf(&mut buf), Err(GetUtfError::Incomplete { needed: 7 }));
/// assert_eq!(buf.len(), 5); // nothing consumed: read again when more bytes arrived
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GetUtfError {
    /// The buffer ends inside the record, which is `needed` bytes long (length field
    /// included; for a length field that is itself incomplete, its own size).
    ///
    /// Nothing has been consumed when the length field lay in the buffer's first chunk,
    /// which always holds for contiguous buffers such as `&[u8]` and `BytesMut`; a length
    /// field split across two chunks has been consumed.
    Incomplete {
        /// The record's full length in bytes.
        needed: u64,
    },
    /// The long form's length is above the caller's limit; consumed as for `Incomplete`.
    TooLong(LengthError),
    /// The body is not what the JDK accepts, or holds a lone surrogate; the whole record has
    /// been consumed.
    Invalid(DecodeError),
}

impl fmt::Display for GetUtfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GetUtfError::Incomplete { needed } => {
                write!(f, "incomplete modified UTF-8 record: {needed} bytes needed")
            }
            GetUtfError::TooLong(err) => err.fmt(f),
            GetUtfError::Invalid(err) => err.fmt(f),
        }
    }
}

impl core::error::Error for GetUtfError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            GetUtfError::Incomplete { .. } => None,
            GetUtfError::TooLong(err) => Some(err),
            GetUtfError::Invalid(err) => Some(err),
        }
    }
}

/// Reads a big-endian length field of `N` bytes: without consuming it when it lies in the
/// first chunk (the `bool` says whether it was consumed).
fn length_field<B: Buf + ?Sized, const N: usize>(buf: &mut B) -> Result<(u64, bool), GetUtfError> {
    if buf.remaining() < N {
        return Err(GetUtfError::Incomplete { needed: N as u64 });
    }
    let mut field = [0u8; N];
    let consumed = match buf.chunk().get(..N) {
        Some(bytes) => {
            field.copy_from_slice(bytes);
            false
        }
        None => {
            buf.copy_to_slice(&mut field);
            true
        }
    };
    Ok((
        field.iter().fold(0u64, |acc, &b| acc << 8 | u64::from(b)),
        consumed,
    ))
}

/// Reads the record whose `N`-byte length field is next in `buf`, allowing bodies up to
/// `limit` bytes.
fn get_record<B: Buf + ?Sized, const N: usize>(
    buf: &mut B,
    limit: u64,
    kernels: Kernels,
) -> Result<String, GetUtfError> {
    let (len, consumed) = length_field::<B, N>(buf)?;
    if len > limit {
        return Err(GetUtfError::TooLong(LengthError::new(len, limit)));
    }
    let field = if consumed { 0 } else { N };
    // `len <= limit` and `remaining()` is a `usize`: the sum and the casts cannot overflow
    // once the remaining bytes are known to cover them.
    let available = (buf.remaining() - field) as u64;
    if len > available {
        return Err(GetUtfError::Incomplete {
            needed: N as u64 + len,
        });
    }
    let len = len as usize;
    buf.advance(field);
    let text = if buf.chunk().len() >= len {
        // The body lies in one chunk: decode it in place.
        let text = decode_with(&buf.chunk()[..len], kernels).map(alloc::borrow::Cow::into_owned);
        buf.advance(len);
        text
    } else {
        let mut body = alloc::vec![0; len];
        buf.copy_to_slice(&mut body);
        decode_vec(body, kernels)
    };
    text.map_err(GetUtfError::Invalid)
}

/// Reads one `readUTF` record (a big-endian `u16` length, then the body) out of a buffer,
/// decoded as [`decode`](crate::decode()) does; the body may span any number of chunks.
///
/// # Errors
///
/// [`GetUtfError::Incomplete`] when the buffer ends inside the record (nothing consumed, see
/// there); [`GetUtfError::Invalid`] for a body the JDK rejects or with a lone surrogate (the
/// record consumed).
///
/// # Examples
///
/// ```
/// use bytes::Buf;
///
/// // One record split over two chunks.
/// let mut buf = (&b"\x00\x04a\xc0"[..]).chain(&b"\x80b, the next record"[..]);
/// assert_eq!(wirebytes_mutf8::get_utf(&mut buf).unwrap(), "a\0b");
/// assert_eq!(buf.remaining(), 17);
/// ```
pub fn get_utf<B: Buf + ?Sized>(buf: &mut B) -> Result<String, GetUtfError> {
    get_utf_with(buf, Kernels::detect())
}

/// [`get_utf`] with `kernels`.
pub(crate) fn get_utf_with<B: Buf + ?Sized>(
    buf: &mut B,
    kernels: Kernels,
) -> Result<String, GetUtfError> {
    get_record::<B, 2>(buf, 0xFFFF, kernels)
}

/// Reads one long string record (a big-endian 8-byte length, then the body, as
/// [`write_long_utf`](crate::write_long_utf) writes it), allocating at most `limit` bytes.
///
/// # Errors
///
/// [`GetUtfError::TooLong`] when the length is above `limit`, otherwise as [`get_utf`].
///
/// # Examples
///
/// ```
/// use wirebytes_mutf8::{get_long_utf, GetUtfError};
///
/// let mut buf: &[u8] = b"\x00\x00\x00\x00\x00\x00\x00\x02hi";
/// assert_eq!(get_long_utf(&mut buf, 100).unwrap(), "hi");
///
/// let mut buf: &[u8] = b"\xff\xff\xff\xff\xff\xff\xff\xff";
/// assert!(matches!(get_long_utf(&mut buf, 100), Err(GetUtfError::TooLong(_))));
/// ```
pub fn get_long_utf<B: Buf + ?Sized>(buf: &mut B, limit: u64) -> Result<String, GetUtfError> {
    get_record::<B, 8>(buf, limit, Kernels::detect())
}

/// Writes one `writeUTF` record (a big-endian `u16` length, then the body as [`encode()`]
/// builds it) into a buffer.
///
/// # Errors
///
/// A [`LengthError`] when the body would be over 65535 bytes; nothing is written.
///
/// # Panics
///
/// When the buffer cannot take `2 + encoded_len(text)` more bytes, as
/// [`BufMut::put_slice`] does.
///
/// # Examples
///
/// ```
/// let mut buf = Vec::new();
/// wirebytes_mutf8::put_utf(&mut buf, "a\0").unwrap();
/// assert_eq!(buf, b"\x00\x03a\xc0\x80");
/// ```
pub fn put_utf<B: BufMut + ?Sized>(buf: &mut B, text: &str) -> Result<(), LengthError> {
    let len = encoded_len(text);
    let len16 =
        u16::try_from(len).map_err(|_| LengthError::new(len as u64, crate::MAX_UTF_LEN as u64))?;
    buf.put_u16(len16);
    buf.put_slice(&encode(text));
    Ok(())
}

/// Writes one long string record (a big-endian 8-byte length, then the body as [`encode()`]
/// builds it) into a buffer.
///
/// # Panics
///
/// When the buffer cannot take `8 + encoded_len(text)` more bytes, as
/// [`BufMut::put_slice`] does.
///
/// # Examples
///
/// ```
/// let mut buf = Vec::new();
/// wirebytes_mutf8::put_long_utf(&mut buf, "hi");
/// assert_eq!(buf, b"\x00\x00\x00\x00\x00\x00\x00\x02hi");
/// ```
pub fn put_long_utf<B: BufMut + ?Sized>(buf: &mut B, text: &str) {
    let body = encode(text);
    buf.put_u64(body.len() as u64);
    buf.put_slice(&body);
}
