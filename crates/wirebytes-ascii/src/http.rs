//! Feature `http`: header values of the `http` crate, checked once.

use alloc::vec::Vec;

use crate::InvalidHeaderByte;

/// Renders `src` as [`render_header_value`](crate::render_header_value) does into a new
/// [`http::HeaderValue`], checked once: the bytes it accepts are exactly those
/// `HeaderValue::from_bytes` accepts, so the value is made without that check again.
///
/// # Errors
///
/// [`InvalidHeaderByte`] for the first rendered byte that may not be in a header value, with
/// its offset (the UTF-16 unit's index in `src`).
///
/// # Examples
///
/// ```
/// let value = wirebytes_ascii::header_value("Fran\u{E7}ois")?;
/// assert_eq!(value.as_bytes(), b"Fran\xE7ois");
/// assert_eq!(value, http::HeaderValue::from_bytes(b"Fran\xE7ois").unwrap());
///
/// // U+010A renders as LF.
/// let err = wirebytes_ascii::header_value("a\u{010A}b").unwrap_err();
/// assert_eq!((err.offset(), err.byte()), (1, b'\n'));
/// # Ok::<(), wirebytes_ascii::InvalidHeaderByte>(())
/// ```
pub fn header_value(src: &str) -> Result<http::HeaderValue, InvalidHeaderByte> {
    let mut rendered = Vec::new();
    crate::render_header_value(src, &mut rendered)?;
    // SAFETY: `from_maybe_shared_unchecked` requires bytes that `HeaderValue::from_bytes`
    // would accept: HTAB, 0x20..=0x7E and 0x80..=0xFF. `render_header_value` appended only
    // bytes for which `is_header_byte` holds, the same set (the tests compare the two for
    // every byte and for random values).
    Ok(unsafe { http::HeaderValue::from_maybe_shared_unchecked(bytes::Bytes::from(rendered)) })
}
