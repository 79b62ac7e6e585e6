//! Records over `bytes::Buf` / `BufMut` (the `bytes` feature): the same records as
//! [`read_utf`](crate::read_utf) and friends, read straight out of a buffer that may be made
//! of many chunks, and written straight into its chunks.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

use bytes::{Buf, BufMut};

use crate::arch::Kernels;
use crate::decode::{decode_vec, decode_with};
use crate::encode::{Mutf8, assert_room, put_str, put_units, str_len, units_len};
use crate::record::{UTF_LIMIT, field_value, record_len};
use crate::utf16::decode_to_utf16_with;
use crate::{DecodeError, GetUtfError, LengthError};

/// Reads the record whose `N`-byte length field is next in `buf`, allowing bodies up to
/// `limit` bytes, and decodes its body with `in_place` (the body lies in one chunk) or
/// `owned` (it was copied out of several).
///
/// The length field is read where it lies in the first chunk, without consuming it. A field
/// split between the first chunk and the next can be read only by consuming it: the `Buf`
/// trait shows nothing past the first chunk without `advance` (`chunks_vectored` exists only
/// with `bytes`' `std` feature, and this reads the same with and without it).
fn get_record<B: Buf + ?Sized, T, const N: usize>(
    buf: &mut B,
    limit: u64,
    in_place: impl FnOnce(&[u8]) -> Result<T, DecodeError>,
    owned: impl FnOnce(Vec<u8>) -> Result<T, DecodeError>,
) -> Result<T, GetUtfError> {
    let remaining = buf.remaining();
    if remaining < N {
        return Err(GetUtfError::Incomplete { needed: N as u64 });
    }
    // How much of the field is still to be consumed once the record is known to be there.
    let (len, field_left) = match buf.chunk().get(..N) {
        Some(field) => (field_value(field), N),
        None => {
            let mut field = [0u8; N];
            buf.copy_to_slice(&mut field);
            (field_value(&field), 0)
        }
    };
    if len > limit {
        return Err(GetUtfError::TooLong(LengthError::new(len, limit)));
    }
    // Nothing is allocated before the remaining bytes are known to cover the body: a length
    // field far above what arrived costs nothing.
    if len > (remaining - N) as u64 {
        return Err(GetUtfError::Incomplete {
            needed: record_len::<N>(len),
        });
    }
    // At most `remaining - N`, a `usize`.
    let len = len as usize;
    buf.advance(field_left);
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
/// A record that has not wholly arrived is left in the buffer: the length field is read
/// without consuming it wherever it lies in the buffer's first chunk, which is always for the
/// contiguous buffers (`&[u8]`, `Bytes`, `BytesMut`). A buffer that shows its bytes a chunk
/// at a time (`Chain`, `VecDeque<u8>` across its wrap, a rope) hides the second byte of a
/// length field split between two chunks; such a field is consumed to be read, also when the
/// record then turns out `Incomplete` (the buffer has then lost it: read whole records out of
/// such buffers, or see that a field is not split). The same holds with and without the `std`
/// feature.
///
/// # Errors
///
/// - [`GetUtfError::Incomplete`] when the buffer ends inside the record: nothing consumed
///   (but a split length field, see above), nothing allocated;
/// - [`GetUtfError::Invalid`] for a body the JDK rejects or with a lone surrogate: the whole
///   record consumed.
///
/// # Examples
///
/// ```
/// use bytes::Buf;
/// use wirebytes_mutf8::{get_utf, GetUtfError};
///
/// // One record split over two chunks.
/// let mut buf = (&b"\x00\x04a\xc0"[..]).chain(&b"\x80b, the next record"[..]);
/// assert_eq!(get_utf(&mut buf).unwrap(), "a\0b");
/// assert_eq!(buf.remaining(), 17);
///
/// let mut buf: &[u8] = b"\x00\x05abc";
/// assert_eq!(get_utf(&mut buf), Err(GetUtfError::Incomplete { needed: 7 }));
/// assert_eq!(buf.len(), 5); // nothing consumed: read again when more bytes arrived
/// ```
#[must_use = "the record's text, or why it could not be read"]
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
        UTF_LIMIT,
        |body| decode_with(body, kernels).map(Cow::into_owned),
        |body| decode_vec(body, kernels),
    )
}

/// Reads one `readUTF` record (a big-endian `u16` length, then the body) out of a buffer,
/// decoded as [`decode_to_utf16`](crate::decode_to_utf16) does: the JDK's chars, lone
/// surrogates included, for every record the JDK's `readUTF` accepts.
///
/// What is consumed is as for [`get_utf`].
///
/// # Errors
///
/// - [`GetUtfError::Incomplete`] when the buffer ends inside the record: nothing consumed
///   (but a split length field, see [`get_utf`]), nothing allocated;
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
#[must_use = "the record's chars, or why they could not be read"]
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
        UTF_LIMIT,
        |body| decode_to_utf16_with(body, kernels),
        |body| decode_to_utf16_with(&body, kernels),
    )
}

/// Reads one long string record (a big-endian 8-byte length, then the body, as
/// [`write_long_utf`](crate::write_long_utf) writes it), allocating at most `limit` bytes.
///
/// What is consumed is as for [`get_utf`].
///
/// # Errors
///
/// [`GetUtfError::TooLong`] when the length is above `limit` (nothing consumed, but a split
/// length field), otherwise as [`get_utf`]. A length above what the buffer holds is
/// `Incomplete` before anything is allocated, whatever the limit.
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
#[must_use = "the record's text, or why it could not be read"]
pub fn get_long_utf<B: Buf + ?Sized>(buf: &mut B, limit: u64) -> Result<String, GetUtfError> {
    get_long_utf_with(buf, limit, Kernels::detect())
}

/// [`get_long_utf`] with `kernels`.
pub(crate) fn get_long_utf_with<B: Buf + ?Sized>(
    buf: &mut B,
    limit: u64,
    kernels: Kernels,
) -> Result<String, GetUtfError> {
    get_record::<B, _, 8>(
        buf,
        limit,
        |body| decode_with(body, kernels).map(Cow::into_owned),
        |body| decode_vec(body, kernels),
    )
}

/// The `u16` length field of a `writeUTF` record of `len` body bytes, or the error that
/// refuses it.
fn utf_length(len: usize) -> Result<u16, LengthError> {
    u16::try_from(len).map_err(|_| LengthError::new(len as u64, UTF_LIMIT))
}

/// Writes one `writeUTF` record (a big-endian `u16` length, then the body as [`encode()`]
/// builds it) into a buffer, the body straight into the buffer's chunks (as
/// [`encode_to_buf`](crate::encode_to_buf) writes).
///
/// [`encode()`]: crate::encode()
///
/// # Errors
///
/// A [`LengthError`] when the body would be over 65535 bytes; nothing is written.
///
/// # Panics
///
/// When the buffer cannot take `2 + encoded_len(text)` more bytes, before anything is
/// written, as [`BufMut::put_slice`] does.
///
/// # Examples
///
/// ```
/// let mut buf = Vec::new();
/// wirebytes_mutf8::put_utf(&mut buf, "a\0").unwrap();
/// assert_eq!(buf, b"\x00\x03a\xc0\x80");
/// ```
#[must_use = "the record is not written when the text is too long"]
pub fn put_utf<B: BufMut + ?Sized>(buf: &mut B, text: &str) -> Result<(), LengthError> {
    let bytes = text.as_bytes();
    let len = str_len::<Mutf8>(bytes);
    let len16 = utf_length(len)?;
    assert_room(buf, 2 + len);
    buf.put_u16(len16);
    put_str::<Mutf8, B>(bytes, len, buf);
    Ok(())
}

/// Writes one `writeUTF` record of UTF-16 chars (a big-endian `u16` length, then the body as
/// [`encode_from_utf16`](crate::encode_from_utf16) builds it) into a buffer, the body
/// straight into the buffer's chunks: what `DataOutput.writeUTF` writes for a Java `String`
/// of these chars, lone surrogates included.
///
/// # Errors
///
/// A [`LengthError`] when the body would be over 65535 bytes; nothing is written.
///
/// # Panics
///
/// When the buffer cannot take `2 + encoded_len_from_utf16(src)` more bytes, before anything
/// is written, as [`BufMut::put_slice`] does.
///
/// # Examples
///
/// ```
/// let mut buf = Vec::new();
/// wirebytes_mutf8::put_utf16(&mut buf, &[0x61, 0, 0xd800]).unwrap();
/// assert_eq!(buf, b"\x00\x06a\xc0\x80\xed\xa0\x80");
/// assert_eq!(wirebytes_mutf8::get_utf16(&mut buf.as_slice()), Ok(vec![0x61, 0, 0xd800]));
/// ```
#[must_use = "the record is not written when the text is too long"]
pub fn put_utf16<B: BufMut + ?Sized>(buf: &mut B, src: &[u16]) -> Result<(), LengthError> {
    let len = units_len::<Mutf8>(src);
    let len16 = utf_length(len)?;
    assert_room(buf, 2 + len);
    buf.put_u16(len16);
    put_units::<Mutf8, B>(src, len, buf);
    Ok(())
}

/// Writes one long string record (a big-endian 8-byte length, then the body as [`encode()`]
/// builds it) into a buffer, the body straight into the buffer's chunks.
///
/// [`encode()`]: crate::encode()
///
/// # Panics
///
/// When the buffer cannot take `8 + encoded_len(text)` more bytes, before anything is
/// written, as [`BufMut::put_slice`] does.
///
/// # Examples
///
/// ```
/// let mut buf = Vec::new();
/// wirebytes_mutf8::put_long_utf(&mut buf, "hi");
/// assert_eq!(buf, b"\x00\x00\x00\x00\x00\x00\x00\x02hi");
/// ```
pub fn put_long_utf<B: BufMut + ?Sized>(buf: &mut B, text: &str) {
    let bytes = text.as_bytes();
    let len = str_len::<Mutf8>(bytes);
    assert_room(buf, len.saturating_add(8));
    buf.put_u64(len as u64);
    put_str::<Mutf8, B>(bytes, len, buf);
}
