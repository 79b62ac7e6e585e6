//! HTTP/1 lines: the header-name check (RFC 9110 tokens), header lines and status lines,
//! rendered and checked in one call, and the error that says which part was wrong and where.
//!
//! A header name is checked on the bytes of the `str` as they are: every token byte is ASCII,
//! so the check refuses any other char rather than its low byte (U+0141 would render as `A`,
//! a token byte, and change the name). Header values and reason phrases go through
//! [`render_header_value`](crate::render_header_value): low bytes, every one a header byte.

use core::fmt;

use crate::header::InvalidHeaderByte;
#[cfg(feature = "alloc")]
use alloc::vec::Vec;

/// Whether `byte` is an RFC 9110 `tchar`, as a table of the 256 bytes made at compile time
/// from [`crate::reference::is_token_byte`]'s rule.
const TOKEN: [bool; 256] = {
    let mut table = [false; 256];
    let mut byte = 0;
    while byte < 256 {
        table[byte] = is_token_byte_by_rule(byte as u8);
        byte += 1;
    }
    table
};

/// RFC 9110's `tchar`: `!#$%&'*+-.^_`|~`, digits and letters.
pub(crate) const fn is_token_byte_by_rule(byte: u8) -> bool {
    matches!(
        byte,
        b'!' | b'#'
            | b'$'
            | b'%'
            | b'&'
            | b'\''
            | b'*'
            | b'+'
            | b'-'
            | b'.'
            | b'^'
            | b'_'
            | b'`'
            | b'|'
            | b'~'
            | b'0'..=b'9'
            | b'a'..=b'z'
            | b'A'..=b'Z'
    )
}

/// Whether `byte` may be in a header name: an RFC 9110 `tchar`.
#[inline]
pub(crate) const fn is_token_byte(byte: u8) -> bool {
    TOKEN[byte as usize]
}

/// The fast `find_invalid_header_name_byte`: see the crate root for the contract.
#[inline]
pub(crate) fn find_invalid_header_name_byte(name: &[u8]) -> Option<usize> {
    if name.is_empty() {
        return Some(0);
    }
    name.iter().position(|&b| !is_token_byte(b))
}

/// The `InvalidHeader::Name` error of `name`, if it is not a token.
fn check_name(name: &str) -> Result<(), InvalidHeader> {
    match find_invalid_header_name_byte(name.as_bytes()) {
        None => Ok(()),
        Some(offset) => Err(InvalidHeader::Name {
            offset,
            // An empty name: the `:` that would open the line is where a token byte must be.
            byte: name.as_bytes().get(offset).copied().unwrap_or(b':'),
        }),
    }
}

/// The fast `render_header`: see the crate root for the contract.
#[cfg(feature = "alloc")]
pub(crate) fn render_header(
    name: &str,
    value: &str,
    dst: &mut Vec<u8>,
) -> Result<(), InvalidHeader> {
    check_name(name)?;
    let start = dst.len();
    // The value renders to at most its UTF-8 length: one reservation for the whole line.
    dst.reserve(name.len() + value.len() + 4);
    dst.extend_from_slice(name.as_bytes());
    dst.extend_from_slice(b": ");
    end_line(value, start, dst)
}

/// The fast `render_status_line`: see the crate root for the contract.
#[cfg(feature = "alloc")]
pub(crate) fn render_status_line(
    code: u16,
    reason: &str,
    dst: &mut Vec<u8>,
) -> Result<(), InvalidHeader> {
    if !(100..=999).contains(&code) {
        return Err(InvalidHeader::Status(code));
    }
    let start = dst.len();
    dst.reserve(b"HTTP/1.1 200 \r\n".len() + reason.len());
    let digit = |n: u16| b'0' + (n % 10) as u8;
    dst.extend_from_slice(b"HTTP/1.1 ");
    dst.extend_from_slice(&[digit(code / 100), digit(code / 10), digit(code), b' ']);
    end_line(reason, start, dst)
}

/// Renders and checks `value` at the end of `dst`, then the line's CRLF; on an error, `dst`
/// is cut back to `start`, where the line began.
#[cfg(feature = "alloc")]
fn end_line(value: &str, start: usize, dst: &mut Vec<u8>) -> Result<(), InvalidHeader> {
    match crate::render_header_value(value, dst) {
        Ok(()) => {
            dst.extend_from_slice(b"\r\n");
            Ok(())
        }
        Err(err) => {
            dst.truncate(start);
            Err(InvalidHeader::Value(err))
        }
    }
}

/// What made [`render_header`](crate::render_header) or
/// [`render_status_line`](crate::render_status_line) refuse a line, and where.
///
/// # Examples
///
/// ```
/// use wirebytes_ascii::{InvalidHeader, render_header, render_status_line};
///
/// let mut dst = Vec::new();
/// let err = render_header("X Name", "v", &mut dst).unwrap_err();
/// assert_eq!(err, InvalidHeader::Name { offset: 1, byte: b' ' });
/// assert_eq!(err.to_string(), "byte 0x20 at offset 1 is not allowed in a header name");
///
/// let err = render_status_line(200, "OK\u{010A}", &mut dst).unwrap_err();
/// assert!(matches!(err, InvalidHeader::Value(e) if e.offset() == 2 && e.byte() == b'\n'));
///
/// assert_eq!(render_status_line(42, "", &mut dst), Err(InvalidHeader::Status(42)));
/// assert!(dst.is_empty());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum InvalidHeader {
    /// The header name is not an RFC 9110 token: `byte` at `offset` (in the name's UTF-8
    /// bytes; every byte before it is ASCII, so it is also the char's index) is not a
    /// `tchar`. An empty name is refused at offset 0 with the byte `:`, which would stand
    /// where the name's first byte must.
    Name {
        /// The offset of the byte in the name.
        offset: usize,
        /// The byte: a UTF-8 byte of the name.
        byte: u8,
    },
    /// The header value, or the status line's reason phrase, renders to a byte that may not
    /// be in it; the offset is in the rendered value (the UTF-16 unit's index).
    Value(InvalidHeaderByte),
    /// The status code is not three digits (`100..=999`).
    Status(u16),
}

impl From<InvalidHeaderByte> for InvalidHeader {
    fn from(err: InvalidHeaderByte) -> Self {
        InvalidHeader::Value(err)
    }
}

impl fmt::Display for InvalidHeader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InvalidHeader::Name { offset, byte } => write!(
                f,
                "byte 0x{byte:02X} at offset {offset} is not allowed in a header name"
            ),
            InvalidHeader::Value(err) => fmt::Display::fmt(err, f),
            InvalidHeader::Status(code) => {
                write!(f, "status code {code} is not three digits (100..=999)")
            }
        }
    }
}

impl core::error::Error for InvalidHeader {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            InvalidHeader::Value(err) => Some(err),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{is_token_byte, is_token_byte_by_rule};
    use crate::reference;

    /// The table is the reference's rule, for every byte.
    #[test]
    fn the_table_is_the_reference_for_every_byte() {
        let mut tokens = 0;
        for byte in 0..=255u8 {
            assert_eq!(
                is_token_byte(byte),
                reference::is_token_byte(byte),
                "{byte:#04x}"
            );
            assert_eq!(is_token_byte_by_rule(byte), is_token_byte(byte));
            tokens += usize::from(is_token_byte(byte));
        }
        // 26 + 26 letters, 10 digits, 15 marks.
        assert_eq!(tokens, 77);
    }
}
