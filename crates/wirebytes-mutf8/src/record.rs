//! Records out of a byte slice, zero-copy: [`take_utf`] and [`take_long_utf`]; and the
//! length fields that every record reader reads.

use alloc::borrow::Cow;

use crate::arch::Kernels;
use crate::decode::decode_with;
use crate::{DecodeError, GetUtfError, LengthError, MAX_UTF_LEN};

/// The largest body of a `readUTF` record, as a limit.
pub(crate) const UTF_LIMIT: u64 = MAX_UTF_LEN as u64;

/// The value of a big-endian length field.
#[inline]
pub(crate) fn field_value(field: &[u8]) -> u64 {
    field.iter().fold(0, |acc, &b| acc << 8 | u64::from(b))
}

/// The length of a record whose body is `len` bytes behind an `N`-byte length field
/// (saturating: a long form's length may be `u64::MAX`).
#[inline]
pub(crate) const fn record_len<const N: usize>(len: u64) -> u64 {
    (N as u64).saturating_add(len)
}

/// Reads the record whose `N`-byte length field starts `bytes`, allowing bodies up to `limit`
/// bytes, and decodes its body with `decode`; moves `bytes` past the record only when that
/// succeeds.
fn take_record<'a, T, const N: usize>(
    bytes: &mut &'a [u8],
    limit: u64,
    decode: impl FnOnce(&'a [u8]) -> Result<T, DecodeError>,
) -> Result<T, GetUtfError> {
    let input: &'a [u8] = bytes;
    let Some((field, rest)) = input.split_first_chunk::<N>() else {
        return Err(GetUtfError::Incomplete { needed: N as u64 });
    };
    let len = field_value(field);
    if len > limit {
        return Err(GetUtfError::TooLong(LengthError::new(len, limit)));
    }
    let Some(body) = usize::try_from(len).ok().and_then(|len| rest.get(..len)) else {
        return Err(GetUtfError::Incomplete {
            needed: record_len::<N>(len),
        });
    };
    let value = decode(body).map_err(GetUtfError::Invalid)?;
    *bytes = &rest[body.len()..];
    Ok(value)
}

/// Reads one `readUTF` record (a big-endian `u16` length, then the body) from the front of
/// `bytes`, decoded as [`decode`](crate::decode()) does and borrowed from `bytes` when the
/// body already is its text; moves `bytes` past the record. For parsers over a byte slice:
/// class-file constant pools, NBT, `DataOutput` dumps.
///
/// `bytes` moves only when the record is read: on any error it is left where it was, at the
/// record's length field (the error's positions index the body, 2 bytes further).
///
/// # Errors
///
/// - [`GetUtfError::Incomplete`] when `bytes` ends inside the record, with the record's
///   length: read again when more bytes have arrived;
/// - [`GetUtfError::Invalid`] for a body the JDK rejects or with a lone surrogate.
///
/// # Examples
///
/// ```
/// use std::borrow::Cow;
/// use wirebytes_mutf8::{take_utf, GetUtfError};
///
/// let mut input: &[u8] = b"\x00\x04Code\x00\x03a\xc0\x80\x00\x09";
/// assert!(matches!(take_utf(&mut input), Ok(Cow::Borrowed("Code"))));
/// assert_eq!(take_utf(&mut input).unwrap(), "a\0");
/// assert_eq!(take_utf(&mut input), Err(GetUtfError::Incomplete { needed: 11 }));
/// assert_eq!(input, b"\x00\x09"); // left for when the rest arrives
/// ```
#[must_use = "the record's text, or why it could not be read"]
pub fn take_utf<'a>(bytes: &mut &'a [u8]) -> Result<Cow<'a, str>, GetUtfError> {
    take_utf_with(bytes, Kernels::detect())
}

/// [`take_utf`] with `kernels`.
pub(crate) fn take_utf_with<'a>(
    bytes: &mut &'a [u8],
    kernels: Kernels,
) -> Result<Cow<'a, str>, GetUtfError> {
    take_record::<_, 2>(bytes, UTF_LIMIT, |body| decode_with(body, kernels))
}

/// Reads one long string record (a big-endian 8-byte length, then the body, as
/// [`write_long_utf`](crate::write_long_utf) writes it) from the front of `bytes`, allowing
/// bodies up to `limit` bytes, decoded as [`take_utf`] decodes, borrowed when it can be;
/// moves `bytes` past the record.
///
/// # Errors
///
/// [`GetUtfError::TooLong`] when the length is above `limit`, otherwise as [`take_utf`]. On
/// any error `bytes` is left where it was.
///
/// # Examples
///
/// ```
/// use wirebytes_mutf8::{take_long_utf, GetUtfError};
///
/// let mut input: &[u8] = b"\x00\x00\x00\x00\x00\x00\x00\x02hi";
/// assert_eq!(take_long_utf(&mut input, 100).unwrap(), "hi");
/// assert!(input.is_empty());
///
/// let mut input: &[u8] = b"\x00\x00\x00\x00\x00\x00\x01\x00";
/// assert!(matches!(take_long_utf(&mut input, 100), Err(GetUtfError::TooLong(_))));
/// ```
#[must_use = "the record's text, or why it could not be read"]
pub fn take_long_utf<'a>(bytes: &mut &'a [u8], limit: u64) -> Result<Cow<'a, str>, GetUtfError> {
    take_long_utf_with(bytes, limit, Kernels::detect())
}

/// [`take_long_utf`] with `kernels`.
pub(crate) fn take_long_utf_with<'a>(
    bytes: &mut &'a [u8],
    limit: u64,
    kernels: Kernels,
) -> Result<Cow<'a, str>, GetUtfError> {
    take_record::<_, 8>(bytes, limit, |body| decode_with(body, kernels))
}
