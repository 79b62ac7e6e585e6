//! Header-value safety: which rendered bytes `http::HeaderValue::from_bytes` accepts, the
//! search for the first it does not, and the rendering that checks as it copies.
//!
//! A header value may hold HTAB, `0x20..=0x7E` and `0x80..=0xFF`. The checks below run over
//! fixed-size blocks with a plain per-byte predicate folded into one flag, which the compiler
//! turns into vector code on any target; the first invalid byte is then located inside the
//! one block that has it.
//!
//! Rendering checks in the same pass as it copies where the text is plain (ASCII header
//! bytes, copied as they are): [`crate::copy`] runs with the [`HeaderText`] rule, so the
//! block that is checked is the block that is stored. Past the first other char, the rendered
//! bytes of the rest are checked right after they are written, while they are in cache.

use core::fmt;

#[cfg(feature = "alloc")]
use crate::arch::{Kernels, Out};
#[cfg(feature = "alloc")]
use crate::copy::{Plain, copy_plain_prefix, copy_str};

/// The rule of [`crate::find_invalid_header_byte`]: HTAB, `0x20..=0x7E` and `0x80..=0xFF`.
#[inline(always)]
pub(crate) fn is_header_byte(byte: u8) -> bool {
    byte == b'\t' || (byte >= 0x20 && byte != 0x7F)
}

/// An ASCII byte that a header value may hold as it is: HTAB and `0x20..=0x7E`.
#[cfg(feature = "alloc")]
#[inline(always)]
fn is_plain_header_byte(byte: u8) -> bool {
    byte == b'\t' || byte.wrapping_sub(0x20) < 0x5F
}

/// Whether every byte of `block` is a header byte, in one vectorised pass.
#[inline(always)]
fn all_header_bytes<const N: usize>(block: &[u8; N]) -> bool {
    block
        .iter()
        .fold(0u8, |bad, &b| bad | u8::from(!is_header_byte(b)))
        == 0
}

#[cfg(feature = "alloc")]
/// The [`Plain`] rule of header rendering: bytes that are ASCII and header bytes.
pub(crate) struct HeaderText;

#[cfg(feature = "alloc")]
impl Plain for HeaderText {
    #[inline(always)]
    fn block<const N: usize>(block: &[u8; N]) -> bool {
        block
            .iter()
            .fold(0u8, |bad, &b| bad | u8::from(!is_plain_header_byte(b)))
            == 0
    }

    #[inline(always)]
    fn byte(byte: u8) -> bool {
        is_plain_header_byte(byte)
    }

    #[inline(always)]
    fn copy_blocks(kernels: Kernels, src: &[u8], out: &mut Out<'_>) -> usize {
        kernels.copy_header_blocks(src, out)
    }
}

/// The fast `find_invalid_header_byte`: see the crate root for the contract.
pub(crate) fn find_invalid_header_byte(rendered: &[u8]) -> Option<usize> {
    const BLOCK: usize = 64;
    let (blocks, tail) = rendered.as_chunks::<BLOCK>();
    for (i, block) in blocks.iter().enumerate() {
        if !all_header_bytes(block) {
            return block
                .iter()
                .position(|&b| !is_header_byte(b))
                .map(|at| i * BLOCK + at);
        }
    }
    let done = rendered.len() - tail.len();
    tail.iter()
        .position(|&b| !is_header_byte(b))
        .map(|at| done + at)
}

#[cfg(feature = "alloc")]
/// Renders `src` (the UTF-8 of a `str`) into `out` and checks it: the ASCII header bytes are
/// checked as they are copied; from the first other byte on, the rest is rendered and then
/// checked while in cache. `out` must have room for every unit of `src`. On error, what was
/// written is the caller's to drop.
#[inline]
pub(crate) fn render_header_value(
    src: &[u8],
    out: &mut Out<'_>,
    kernels: impl Fn() -> Kernels + Copy,
) -> Result<(), InvalidHeaderByte> {
    let plain = copy_plain_prefix::<HeaderText>(src, out, kernels);
    let Some(&next) = src.get(plain) else {
        return Ok(());
    };
    if next < 0x80 {
        // An ASCII byte that is not a header byte; the plain bytes before it are one unit
        // each, so its offset is theirs.
        return Err(InvalidHeaderByte::new(plain, next));
    }
    let before = out.len();
    copy_str(&src[plain..], out, kernels);
    let rest = &out.written()[before..];
    match find_invalid_header_byte(rest) {
        None => Ok(()),
        Some(at) => Err(InvalidHeaderByte::new(plain + at, rest[at])),
    }
}

/// A rendered header value holds a byte that `http::HeaderValue::from_bytes` rejects: a
/// control byte other than HTAB (CR, LF, NUL...) or DEL. Returned by
/// [`render_header_value`](crate::render_header_value).
///
/// # Examples
///
/// ```
/// let mut dst = Vec::new();
/// let err = wirebytes_ascii::render_header_value("ok\u{FF0A}Set-Cookie: a=b", &mut dst)
///     .unwrap_err();
/// assert_eq!((err.offset(), err.byte()), (2, b'\n'));
/// assert_eq!(err.to_string(), "byte 0x0A at offset 2 is not allowed in a header value");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct InvalidHeaderByte {
    offset: usize,
    byte: u8,
}

impl InvalidHeaderByte {
    /// The error for `byte` at `offset`.
    #[cfg(feature = "alloc")]
    pub(crate) fn new(offset: usize, byte: u8) -> Self {
        InvalidHeaderByte { offset, byte }
    }

    /// The offset of the byte in the rendered bytes (the UTF-16 unit's index in `src`).
    #[must_use]
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The rendered byte: the low 8 bits of the unit at [`offset`](Self::offset).
    #[must_use]
    pub fn byte(&self) -> u8 {
        self.byte
    }
}

impl fmt::Display for InvalidHeaderByte {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "byte 0x{:02X} at offset {} is not allowed in a header value",
            self.byte, self.offset
        )
    }
}

impl core::error::Error for InvalidHeaderByte {}
