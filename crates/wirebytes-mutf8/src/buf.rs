//! Records over `bytes::Buf` / `BufMut` (the `bytes` feature): the same records as
//! [`read_utf`](crate::read_utf) and friends, read straight out of a buffer that may be made
//! of many chunks.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use bytes::{Buf, BufMut};

use crate::arch::Kernels;
use crate::decode::{decode_vec, decode_with};
use crate::utf16::decode_utf16_with;
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
#[non_exhaustive]
pub enum GetUtfError {
    /// The buffer ends inside the record, which is `needed` bytes long (length field
    /// included; for a length field that is itself incomplete, its own size). Nothing has
    /// been consumed and nothing allocated: read again when more bytes have arrived.
    ///
    /// This holds whenever the length field can be read without consuming it: when it lies
    /// in the buffer's first chunk (always, for contiguous buffers such as `&[u8]`, `Bytes`
    /// and `BytesMut`), or, with the `std` feature, in the chunks that
    /// [`Buf::chunks_vectored`] shows (`Chain`, `VecDeque<u8>`, and any buffer that
    /// implements it). Only a length field split across chunks that the buffer shows one at
    /// a time has been consumed.
    Incomplete {
        /// The record's full length in bytes.
        needed: u64,
    },
    /// The long form's length is above the caller's limit; nothing consumed, as for
    /// `Incomplete`.
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

/// The big-endian length field of `N` bytes at the front of `buf`, read without consuming
/// anything: out of the first chunk, or (with `std`) out of the chunks that
/// [`Buf::chunks_vectored`] shows. `None` when the buffer holds fewer than `N` bytes or shows
/// them only by consuming them.
fn peek_length<B: Buf + ?Sized, const N: usize>(buf: &B) -> Option<u64> {
    let fold = |bytes: &[u8]| bytes.iter().fold(0u64, |acc, &b| acc << 8 | u64::from(b));
    if let Some(field) = buf.chunk().get(..N) {
        return Some(fold(field));
    }
    #[cfg(feature = "std")]
    {
        // A few more slices than bytes, for buffers that show empty chunks too.
        let mut slices = [std::io::IoSlice::new(&[]); 16];
        let shown = buf.chunks_vectored(&mut slices);
        let mut field = [0u8; N];
        let mut filled = 0;
        for slice in &slices[..shown] {
            let take = slice.len().min(N - filled);
            field[filled..filled + take].copy_from_slice(&slice[..take]);
            filled += take;
        }
        if filled == N {
            return Some(fold(&field));
        }
    }
    None
}

/// Reads the record whose `N`-byte length field is next in `buf`, allowing bodies up to
/// `limit` bytes, and decodes its body with `in_place` (the body lies in one chunk) or
/// `owned` (it was copied out of several).
fn get_record<B: Buf + ?Sized, T, const N: usize>(
    buf: &mut B,
    limit: u64,
    in_place: impl FnOnce(&[u8]) -> Result<T, DecodeError>,
    owned: impl FnOnce(Vec<u8>) -> Result<T, DecodeError>,
) -> Result<T, GetUtfError> {
    if buf.remaining() < N {
        return Err(GetUtfError::Incomplete { needed: N as u64 });
    }
    let (len, field) = match peek_length::<B, N>(buf) {
        Some(len) => (len, N),
        None => {
            // A length field that only consuming it can reach.
            let mut field = [0u8; N];
            buf.copy_to_slice(&mut field);
            (
                field.iter().fold(0u64, |acc, &b| acc << 8 | u64::from(b)),
                0,
            )
        }
    };
    if len > limit {
        return Err(GetUtfError::TooLong(LengthError::new(len, limit)));
    }
    // `len <= limit` and `remaining()` is a `usize`: the casts cannot overflow once the
    // remaining bytes are known to cover the body. Nothing is allocated before that.
    let available = (buf.remaining() - field) as u64;
    if len > available {
        return Err(GetUtfError::Incomplete {
            needed: N as u64 + len,
        });
    }
    let len = len as usize;
    buf.advance(field);
    let decoded = if buf.chunk().len() >= len {
        let decoded = in_place(&buf.chunk()[..len]);
        buf.advance(len);
        decoded
    } else {
        let mut body = alloc::vec![0; len];
        buf.copy_to_slice(&mut body);
        owned(body)
    };
    decoded.map_err(GetUtfError::Invalid)
}

/// Reads one `readUTF` record (a big-endian `u16` length, then the body) out of a buffer,
/// decoded as [`decode`](crate::decode()) does; the body may span any number of chunks.
///
/// # Errors
///
/// - [`GetUtfError::Incomplete`] when the buffer ends inside the record: nothing consumed
///   (see there for the one exception), nothing allocated;
/// - [`GetUtfError::Invalid`] for a body the JDK rejects or with a lone surrogate: the whole
///   record consumed.
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
    get_record::<B, _, 2>(
        buf,
        0xFFFF,
        |body| decode_with(body, kernels).map(Cow::into_owned),
        |body| decode_vec(body, kernels),
    )
}

/// Reads one `readUTF` record (a big-endian `u16` length, then the body) out of a buffer,
/// decoded as [`decode_utf16`](crate::decode_utf16) does: the JDK's chars, lone surrogates
/// included, for every record the JDK's `readUTF` accepts.
///
/// # Errors
///
/// - [`GetUtfError::Incomplete`] when the buffer ends inside the record: nothing consumed
///   (see there for the one exception), nothing allocated;
/// - [`GetUtfError::Invalid`] for a body the JDK rejects (never
///   [`UnpairedSurrogate`](crate::DecodeErrorKind::UnpairedSurrogate)): the whole record
///   consumed.
///
/// # Examples
///
/// ```
/// use wirebytes_mutf8::{get_utf16, GetUtfError};
///
/// // A lone surrogate, which `get_utf` cannot return in a `String`.
/// let mut buf: &[u8] = b"\x00\x04a\xed\xa0\x80\x00\x09";
/// assert_eq!(get_utf16(&mut buf), Ok(vec![0x61, 0xd800]));
/// assert_eq!(get_utf16(&mut buf), Err(GetUtfError::Incomplete { needed: 11 }));
/// assert_eq!(buf, b"\x00\x09"); // left for when the rest arrives
/// ```
pub fn get_utf16<B: Buf + ?Sized>(buf: &mut B) -> Result<Vec<u16>, GetUtfError> {
    get_utf16_with(buf, Kernels::detect())
}

/// [`get_utf16`] with `kernels`.
pub(crate) fn get_utf16_with<B: Buf + ?Sized>(
    buf: &mut B,
    kernels: Kernels,
) -> Result<Vec<u16>, GetUtfError> {
    get_record::<B, _, 2>(
        buf,
        0xFFFF,
        |body| decode_utf16_with(body, kernels),
        |body| decode_utf16_with(&body, kernels),
    )
}

/// Reads one long string record (a big-endian 8-byte length, then the body, as
/// [`write_long_utf`](crate::write_long_utf) writes it), allocating at most `limit` bytes.
///
/// # Errors
///
/// [`GetUtfError::TooLong`] when the length is above `limit` (nothing consumed), otherwise
/// as [`get_utf`]. A length above what the buffer holds is `Incomplete` before anything is
/// allocated, whatever the limit.
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
    let kernels = Kernels::detect();
    get_record::<B, _, 8>(
        buf,
        limit,
        |body| decode_with(body, kernels).map(Cow::into_owned),
        |body| decode_vec(body, kernels),
    )
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
