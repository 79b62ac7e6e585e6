//! The plain scalar implementations: the oracle the fast paths are tested against.
//!
//! Each function here has the same signature and the same contract as the function of the
//! same name at the crate root, written as directly as Java's definition reads: walk the
//! UTF-16 code units, keep the low 8 bits of each. They are always compiled so that tests,
//! the `cargo xtask verify` sweep and anyone in doubt can compare against them; they are not
//! meant to be fast.
//!
//! # Examples
//!
//! ```
//! let text = "Grüße \u{010D}\u{1F600}";
//! let mut fast = [0u8; 16];
//! let mut slow = [0u8; 16];
//! assert_eq!(
//!     wirebytes_ascii::copy_low_bytes(text, &mut fast),
//!     wirebytes_ascii::reference::copy_low_bytes(text, &mut slow),
//! );
//! assert_eq!(fast, slow);
//! ```

#[cfg(feature = "alloc")]
use alloc::vec::Vec;

/// The low 8 bits of one UTF-16 code unit: the truncation Java's
/// `String.getBytes(int, int, byte[], int)` performs.
///
/// # Examples
///
/// ```
/// assert_eq!(wirebytes_ascii::reference::low_byte(0x010D), 0x0D);
/// assert_eq!(wirebytes_ascii::reference::low_byte(0xD83D), 0x3D);
/// ```
#[inline]
#[must_use]
pub const fn low_byte(unit: u16) -> u8 {
    // Truncation is the contract: the high byte is dropped, never replaced.
    unit as u8
}

/// Copies the low byte of each UTF-16 code unit of `src` into `dst`, one unit at a time;
/// returns how many bytes were written: `min(low_bytes_len(src), dst.len())`.
///
/// # Examples
///
/// ```
/// let mut dst = [0u8; 3];
/// assert_eq!(wirebytes_ascii::reference::copy_low_bytes("a\u{1F600}", &mut dst), 3);
/// assert_eq!(dst, [b'a', 0x3D, 0x00]);
/// ```
pub fn copy_low_bytes(src: &str, dst: &mut [u8]) -> usize {
    let mut written = 0;
    for (d, unit) in dst.iter_mut().zip(src.encode_utf16()) {
        *d = low_byte(unit);
        written += 1;
    }
    written
}

/// Copies the low byte of each code unit of `src` into `dst`, one unit at a time; returns
/// how many bytes were written: `min(src.len(), dst.len())`.
///
/// # Examples
///
/// ```
/// let mut dst = [0u8; 2];
/// let src = [0xD800, 0x0141, 0x41];
/// assert_eq!(wirebytes_ascii::reference::copy_low_bytes_from_utf16(&src, &mut dst), 2);
/// assert_eq!(dst, [0x00, 0x41]);
/// ```
pub fn copy_low_bytes_from_utf16(src: &[u16], dst: &mut [u8]) -> usize {
    let mut written = 0;
    for (d, &unit) in dst.iter_mut().zip(src) {
        *d = low_byte(unit);
        written += 1;
    }
    written
}

/// The low bytes of every UTF-16 code unit of `src`, collected one at a time.
///
/// # Examples
///
/// ```
/// assert_eq!(wirebytes_ascii::reference::low_bytes("\u{FF0A}x"), [0x0A, b'x']);
/// ```
#[cfg(feature = "alloc")]
#[must_use]
pub fn low_bytes(src: &str) -> Vec<u8> {
    src.encode_utf16().map(low_byte).collect()
}

/// The low bytes of every code unit of `src`, collected one at a time.
///
/// # Examples
///
/// ```
/// assert_eq!(wirebytes_ascii::reference::low_bytes_from_utf16(&[0xDC00, 0x4E2D]), [0x00, 0x2D]);
/// ```
#[cfg(feature = "alloc")]
#[must_use]
pub fn low_bytes_from_utf16(src: &[u16]) -> Vec<u8> {
    src.iter().copied().map(low_byte).collect()
}

/// The number of UTF-16 code units of `src`, counted by encoding it.
///
/// # Examples
///
/// ```
/// assert_eq!(wirebytes_ascii::reference::low_bytes_len("é\u{1F600}"), 3);
/// ```
#[must_use]
pub fn low_bytes_len(src: &str) -> usize {
    src.encode_utf16().count()
}

/// The index of the first CR or LF byte in `rendered`, found one byte at a time.
///
/// # Examples
///
/// ```
/// assert_eq!(wirebytes_ascii::reference::find_line_break(b"a: b\r\n"), Some(4));
/// ```
#[must_use]
pub fn find_line_break(rendered: &[u8]) -> Option<usize> {
    rendered.iter().position(|&b| b == b'\r' || b == b'\n')
}

/// Appends the low byte of each UTF-16 code unit of `src` to `dst`, one unit at a time.
///
/// # Examples
///
/// ```
/// let mut dst = b"X: ".to_vec();
/// wirebytes_ascii::reference::low_bytes_to_vec("\u{E9}\u{1F600}", &mut dst);
/// assert_eq!(dst, [b'X', b':', b' ', 0xE9, 0x3D, 0x00]);
/// ```
#[cfg(feature = "alloc")]
pub fn low_bytes_to_vec(src: &str, dst: &mut Vec<u8>) {
    dst.extend(src.encode_utf16().map(low_byte));
}

/// Appends the low byte of each code unit of `src` to `dst`, one unit at a time.
///
/// # Examples
///
/// ```
/// let mut dst = b"X: ".to_vec();
/// wirebytes_ascii::reference::low_bytes_from_utf16_to_vec(&[0xD83D, 0x0141], &mut dst);
/// assert_eq!(dst, [b'X', b':', b' ', 0x3D, 0x41]);
/// ```
#[cfg(feature = "alloc")]
pub fn low_bytes_from_utf16_to_vec(src: &[u16], dst: &mut Vec<u8>) {
    for &unit in src {
        dst.push(low_byte(unit));
    }
}

/// Puts the low byte of each UTF-16 code unit of `src` into `dst`, one unit at a time, after
/// checking that they all fit.
///
/// # Panics
///
/// When `dst` has room for fewer bytes than `src` has UTF-16 units, before anything is
/// written.
///
/// # Examples
///
/// ```
/// let mut dst = bytes::BytesMut::new();
/// wirebytes_ascii::reference::low_bytes_to_buf("\u{FF0A}", &mut dst);
/// assert_eq!(&dst[..], b"\n");
/// ```
#[cfg(feature = "bytes")]
pub fn low_bytes_to_buf<B: bytes::BufMut + ?Sized>(src: &str, dst: &mut B) {
    let units = low_bytes_len(src);
    assert!(dst.remaining_mut() >= units, "no room for {units} bytes");
    for unit in src.encode_utf16() {
        dst.put_u8(low_byte(unit));
    }
}

/// Whether `http::HeaderValue::from_bytes` accepts `byte` in a header value: HTAB,
/// `0x20..=0x7E` and `0x80..=0xFF`; not the other controls (CR, LF and NUL among them) nor
/// DEL.
///
/// # Examples
///
/// ```
/// use wirebytes_ascii::reference::is_header_byte;
///
/// assert!(is_header_byte(b'\t') && is_header_byte(b'a') && is_header_byte(0xE9));
/// assert!(!is_header_byte(b'\r') && !is_header_byte(0x00) && !is_header_byte(0x7F));
/// ```
#[must_use]
pub const fn is_header_byte(byte: u8) -> bool {
    byte == b'\t' || (byte >= 0x20 && byte != 0x7F)
}

/// The index of the first byte of `rendered` that is not a [header byte](is_header_byte),
/// found one byte at a time.
///
/// # Examples
///
/// ```
/// assert_eq!(wirebytes_ascii::reference::find_invalid_header_byte(b"a\tb\x7F"), Some(3));
/// ```
#[must_use]
pub fn find_invalid_header_byte(rendered: &[u8]) -> Option<usize> {
    rendered.iter().position(|&b| !is_header_byte(b))
}

/// Renders `src` into a new vector, checks it, and appends it to `dst` only when every byte
/// is a [header byte](is_header_byte).
///
/// # Errors
///
/// The first byte that is not, with its offset in the rendered bytes; `dst` is unchanged.
///
/// # Examples
///
/// ```
/// let mut dst = Vec::new();
/// let err = wirebytes_ascii::reference::render_header_value("a\u{010D}", &mut dst);
/// assert_eq!(err.map_err(|e| (e.offset(), e.byte())), Err((1, 0x0D)));
/// assert!(dst.is_empty());
/// ```
#[cfg(feature = "alloc")]
pub fn render_header_value(src: &str, dst: &mut Vec<u8>) -> Result<(), crate::InvalidHeaderByte> {
    let rendered: Vec<u8> = src.encode_utf16().map(low_byte).collect();
    if let Some(offset) = find_invalid_header_byte(&rendered) {
        return Err(crate::InvalidHeaderByte::new(offset, rendered[offset]));
    }
    dst.extend_from_slice(&rendered);
    Ok(())
}

/// Whether `byte` may be in a header name: RFC 9110's `tchar`, read as "a visible ASCII char
/// that is not a delimiter" (`"(),/:;<=>?@[\]{}`).
///
/// # Examples
///
/// ```
/// use wirebytes_ascii::reference::is_token_byte;
///
/// assert!(is_token_byte(b'a') && is_token_byte(b'-') && is_token_byte(b'~'));
/// assert!(!is_token_byte(b':') && !is_token_byte(b' ') && !is_token_byte(0xE9));
/// ```
#[must_use]
pub const fn is_token_byte(byte: u8) -> bool {
    if !byte.is_ascii_graphic() {
        return false;
    }
    let delimiters = b"\"(),/:;<=>?@[\\]{}";
    let mut i = 0;
    while i < delimiters.len() {
        if delimiters[i] == byte {
            return false;
        }
        i += 1;
    }
    true
}

/// The index of the first byte of `name` that is not a [token byte](is_token_byte), found one
/// byte at a time; `Some(0)` for an empty name.
///
/// # Examples
///
/// ```
/// use wirebytes_ascii::reference::find_invalid_header_name_byte;
///
/// assert_eq!(find_invalid_header_name_byte(b"Content-Type"), None);
/// assert_eq!(find_invalid_header_name_byte(b"Content Type"), Some(7));
/// assert_eq!(find_invalid_header_name_byte(b""), Some(0));
/// ```
#[must_use]
pub fn find_invalid_header_name_byte(name: &[u8]) -> Option<usize> {
    if name.is_empty() {
        return Some(0);
    }
    name.iter().position(|&b| !is_token_byte(b))
}

/// Renders `name: value\r\n` into a new vector, each part checked, and appends it to `dst`
/// when both are right.
///
/// # Errors
///
/// As the crate root's `render_header`; `dst` is unchanged.
///
/// # Examples
///
/// ```
/// let mut dst = Vec::new();
/// wirebytes_ascii::reference::render_header("Host", "example.com", &mut dst).unwrap();
/// assert_eq!(dst, b"Host: example.com\r\n");
/// ```
#[cfg(feature = "alloc")]
pub fn render_header(
    name: &str,
    value: &str,
    dst: &mut Vec<u8>,
) -> Result<(), crate::InvalidHeader> {
    if let Some(offset) = find_invalid_header_name_byte(name.as_bytes()) {
        let byte = if name.is_empty() {
            b':'
        } else {
            name.as_bytes()[offset]
        };
        return Err(crate::InvalidHeader::Name { offset, byte });
    }
    let mut line = name.as_bytes().to_vec();
    line.extend_from_slice(b": ");
    render_header_value(value, &mut line)?;
    line.extend_from_slice(b"\r\n");
    dst.extend_from_slice(&line);
    Ok(())
}

/// Renders `HTTP/1.1 code reason\r\n` into a new vector, checked, and appends it to `dst`
/// when the code and the reason are right.
///
/// # Errors
///
/// As the crate root's `render_status_line`; `dst` is unchanged.
///
/// # Examples
///
/// ```
/// let mut dst = Vec::new();
/// wirebytes_ascii::reference::render_status_line(404, "Not Found", &mut dst).unwrap();
/// assert_eq!(dst, b"HTTP/1.1 404 Not Found\r\n");
/// ```
#[cfg(feature = "alloc")]
pub fn render_status_line(
    code: u16,
    reason: &str,
    dst: &mut Vec<u8>,
) -> Result<(), crate::InvalidHeader> {
    if !(100..=999).contains(&code) {
        return Err(crate::InvalidHeader::Status(code));
    }
    let mut line = alloc::format!("HTTP/1.1 {code} ").into_bytes();
    render_header_value(reason, &mut line)?;
    line.extend_from_slice(b"\r\n");
    dst.extend_from_slice(&line);
    Ok(())
}
