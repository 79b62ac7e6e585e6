//! Java's low-8-bit string copy, `String.getBytes(int, int, byte[], int)`, bit for bit and at
//! memcpy speed: every UTF-16 code unit of a string becomes its low 8 bits. Into a slice, a
//! new `Vec`, the end of a `Vec` or any `bytes::BufMut`; and, for header values, checked in
//! the same pass for the control bytes that truncation can smuggle in.
//!
//! ```
//! use wirebytes_ascii::{copy_low_bytes, render_header_value};
//!
//! let mut line = [0u8; 64];
//! let n = copy_low_bytes("Content-Type: text/plain", &mut line);
//! assert_eq!(&line[..n], b"Content-Type: text/plain");
//!
//! // A header value from untrusted text: rendered and checked in one pass, appended only if
//! // every rendered byte may be in a header value.
//! let mut headers = b"X-Name: ".to_vec();
//! render_header_value("Fran\u{E7}ois", &mut headers)?;
//! assert_eq!(headers, b"X-Name: Fran\xE7ois");
//!
//! // U+010D (č) renders as 0x0D, a carriage return, exactly as the JDK renders it: the value
//! // is refused, with the offset and the byte, and nothing is appended.
//! let err = render_header_value("Ond\u{010D}ej\u{010A}Set-Cookie: x", &mut headers).unwrap_err();
//! assert_eq!((err.offset(), err.byte()), (3, b'\r'));
//! assert_eq!(headers, b"X-Name: Fran\xE7ois");
//! # Ok::<(), wirebytes_ascii::InvalidHeaderByte>(())
//! ```
//!
//! # Why truncation, and not `?`
//!
//! This is not a charset encoder: an encoder would replace what ISO-8859-1 cannot hold with
//! `?`. The JDK's `String.getBytes(int srcBegin, int srcEnd, byte[] dst, int dstBegin)`
//! (deprecated, still what HTTP servers and clients use to render headers) keeps the low 8 bits
//! of each `char` and drops the rest, and so do the bytes those systems put on the wire. To
//! produce the same bytes, or to check what they would produce, the truncation must be exact:
//!
//! - U+010D `č` becomes `0x0D` (CR) and U+FF0A `＊` becomes `0x0A` (LF): a header value that
//!   looks harmless as text renders as a line break, and U+0100..U+011F as NUL and the other
//!   controls. This is the heart of header injection, and the reason a guard must scan the
//!   *rendered* bytes ([`find_invalid_header_byte`], [`find_line_break`]), never the chars;
//!   [`render_header_value`] renders and checks at once.
//! - A char above U+FFFF is two UTF-16 units, a surrogate pair, and becomes two bytes: U+1F600
//!   (😀, `D83D DE00`) becomes `3D 00`.
//! - An unpaired surrogate is a unit like any other ([`copy_low_bytes_from_utf16`]): `D800` →
//!   `00`.
//!
//! For ASCII text (by far the common case for headers) the result is the text's own bytes.
//!
//! # Lengths and partial copies
//!
//! Lengths count UTF-16 code units, as Java's `String.length()` does ([`low_bytes_len`]). The
//! `copy_*` functions copy the portion that fits, `min(units, dst.len())` bytes, and return
//! that count; they never panic and never write past it. When the end of `dst` cuts a
//! surrogate pair, only the first unit's low byte is written, as Java's
//! `getBytes(0, end, dst, 0)` would with `end` between the two units.
//!
//! # Writing into the caller's buffer
//!
//! The suffix of a name says where the bytes go, and `_from_utf16` that the source is a
//! `&[u16]` rather than a `&str`:
//!
//! | into | from `&str` | from `&[u16]` |
//! |---|---|---|
//! | the portion of a slice that fits | [`copy_low_bytes`] | [`copy_low_bytes_from_utf16`] |
//! | a new exact-size `Vec` | [`low_bytes`] | [`low_bytes_from_utf16`] |
//! | the end of a `Vec` | [`low_bytes_to_vec`] | [`low_bytes_from_utf16_to_vec`] |
//! | any `bytes::BufMut` (feature `bytes`) | [`low_bytes_to_buf`] | |
//! | (the length only) | [`low_bytes_len`] | `src.len()` |
//!
//! The `_to_vec` forms append in the `Vec`'s spare capacity: one reservation, no zero-fill.
//! [`low_bytes_to_buf`] writes into a `BytesMut` or any other `BufMut` chunk by chunk, a
//! surrogate pair cut by a chunk's end finished in the next. [`render_header_value`] appends
//! like [`low_bytes_to_vec`], or appends nothing and says which byte is not allowed.
//!
//! # HTTP/1 lines
//!
//! [`render_header`] and [`render_status_line`] append whole lines (`name: value\r\n`,
//! `HTTP/1.1 200 OK\r\n`), every part checked: the name is an RFC 9110 token
//! ([`find_invalid_header_name_byte`]), the value and the reason phrase are rendered and
//! checked as [`render_header_value`] does, the code is three digits. On an error nothing is
//! appended, and [`InvalidHeader`] says which part was wrong and where.
//!
//! ```
//! use wirebytes_ascii::{InvalidHeader, render_header, render_status_line};
//!
//! let mut head = Vec::new();
//! render_status_line(404, "Not Found", &mut head)?;
//! render_header("Content-Length", "0", &mut head)?;
//! assert_eq!(head, b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n");
//!
//! let err = render_header("Set-Cookie", "id=1\u{010D}\u{010A}X: y", &mut head).unwrap_err();
//! assert!(matches!(err, InvalidHeader::Value(e) if e.offset() == 4 && e.byte() == b'\r'));
//! # Ok::<(), InvalidHeader>(())
//! ```
//!
//! # Speed
//!
//! The chars of a `&str` are decoded straight from UTF-8 to the low byte of each unit, with
//! no UTF-16 form in between. On x86-64 CPUs with AVX2 (chosen at run time, see the `std`
//! feature), an ASCII run is checked and copied 64 bytes at a time in one pass, at about the
//! speed of a plain `memcpy` (for header values, the check is the header rule, in the same
//! pass). With AVX-512 (VBMI2), any other text goes 64 bytes per step. With SSSE3 only, text
//! of ASCII and 2-byte chars (Latin, Greek, Cyrillic...) goes 16 bytes per step, runs of CJK
//! 16 chars per step and runs of emoji 8.
//!
//! The portable code beside them (what aarch64 and every other target run) is safe code
//! written for the compiler's vectoriser: an ASCII block is checked and stored 64 bytes at a
//! time; other text goes in 32-byte windows, each byte's output value and whether it ends a
//! char computed for the whole window at once, and the output bytes packed without a branch,
//! so text that changes script every few chars costs no mispredicted branches; runs of CJK and
//! of emoji go 16 and 8 chars per step. `&[u16]` input goes through a truncating loop that the
//! compiler vectorises. A plain scalar implementation of every function lives beside the
//! kernels (not part of the API); tests and `cargo xtask verify` check every kernel level
//! against it, against the http crate's header rule and against the JDK.
//!
//! # Crate features
//!
//! - `std` (default): the SIMD kernels are chosen at run time, by what the CPU has. Without
//!   it, a kernel runs only where its instructions are enabled at compile time (for example
//!   `-C target-cpu=native`); the results are the same either way.
//! - `alloc` (default, implied by `std`): [`low_bytes`], [`low_bytes_from_utf16`],
//!   [`low_bytes_to_vec`], [`low_bytes_from_utf16_to_vec`], [`render_header_value`],
//!   [`render_header`] and [`render_status_line`], which write a `Vec<u8>`.
//! - `bytes`: [`low_bytes_to_buf`], into any [`bytes::BufMut`].
//! - `http` (implies `std`): `header_value`, an `http::HeaderValue` rendered and checked once.
//!
//! Features only add functions: none changes what another function returns or writes.
//! Without `alloc` the crate allocates nothing; it is `no_std` either way. `unsafe` is denied
//! everywhere but in three private modules: `arch`, the calls into the `#[target_feature]`
//! kernels, once the CPU is known to have the features, and their vector loads and stores,
//! each on a fixed-size array; `out`, the writer all copies go through, which writes into
//! memory that may be uninitialised (a `Vec`'s spare capacity, a `BufMut` chunk) and hands
//! over only the bytes it wrote; and `chunks`, which views a slice as fixed-size arrays.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![no_std]
#![deny(unsafe_code)]
// The `_with` forms that take a kernel level and the kernels' level list serve the hidden
// `levels` door alone: without `__internal` nothing calls them.
#![cfg_attr(
    not(feature = "__internal"),
    allow(dead_code, reason = "what only the hidden `levels` door calls")
)]

#[cfg(any(test, feature = "std"))]
extern crate std;

#[cfg(feature = "alloc")]
extern crate alloc;

#[cfg(feature = "alloc")]
use alloc::vec::Vec;

pub use header::InvalidHeaderByte;
#[cfg(feature = "http")]
pub use http::header_value;
pub use http1::InvalidHeader;

#[allow(
    unsafe_code,
    reason = "the SIMD kernels: calls into #[target_feature] functions, vector loads and stores"
)]
mod arch;
#[allow(
    unsafe_code,
    reason = "slices viewed as arrays of a fixed length, from a pointer cast"
)]
mod chunks;
mod copy;
mod counters;
mod counting;
mod header;
#[cfg(feature = "http")]
#[allow(
    unsafe_code,
    reason = "a header value made from bytes checked here, without the check again"
)]
mod http;
mod http1;
mod len;
#[cfg(feature = "__internal")]
#[doc(hidden)]
pub mod levels;
#[allow(
    unsafe_code,
    reason = "the writer every copy goes through, into memory that may be uninitialised"
)]
mod out;
#[cfg(feature = "__internal")]
#[doc(hidden)]
pub mod reference;
mod runs;
mod short;
mod swar;
mod utf16;
mod window;

/// The README's example, run as a doctest.
#[cfg(all(doctest, feature = "alloc"))]
#[doc = include_str!("../README.md")]
struct ReadmeDoctest;

/// Copies the low 8 bits of each UTF-16 code unit of `src` into `dst`, as far as `dst` goes,
/// and returns the number of bytes written: `min(low_bytes_len(src), dst.len())`.
///
/// This is Java's `src.getBytes(0, n, dst, 0)` with `n` the returned count. A char above
/// U+FFFF is two units (its surrogates) and writes two bytes, or one if `dst` ends between
/// them. Bytes of `dst` past the returned count are left as they were. ASCII runs are copied
/// in bulk; the rest is decoded directly from UTF-8.
///
/// See the [crate documentation](crate#why-truncation-and-not-) for why the bytes are
/// truncated and never replaced with `?`.
///
/// # Examples
///
/// ```
/// use wirebytes_ascii::copy_low_bytes;
///
/// let mut dst = [0u8; 8];
/// let n = copy_low_bytes("caf\u{E9} \u{010D}\u{1F600}", &mut dst);
/// assert_eq!(&dst[..n], [b'c', b'a', b'f', 0xE9, b' ', 0x0D, 0x3D, 0x00]);
///
/// // The portion that fits: here the surrogate pair of U+1F600 is cut after its first unit.
/// let mut short = [0u8; 7];
/// assert_eq!(copy_low_bytes("caf\u{E9} \u{010D}\u{1F600}", &mut short), 7);
/// assert_eq!(short[6], 0x3D);
/// ```
#[inline]
#[must_use = "the count is how many bytes of `dst` were written"]
pub fn copy_low_bytes(src: &str, dst: &mut [u8]) -> usize {
    copy::copy_low_bytes_with(src, dst, arch::Kernels::detect)
}

/// Copies the low 8 bits of each code unit of `src` into `dst`, as far as `dst` goes, and
/// returns the number of bytes written: `min(src.len(), dst.len())`.
///
/// Any `u16` is accepted, unpaired surrogates included: this is Java's
/// `String.getBytes(int, int, byte[], int)` on the string's `char`s. Bytes of `dst` past the
/// returned count are left as they were.
///
/// # Examples
///
/// ```
/// use wirebytes_ascii::copy_low_bytes_from_utf16;
///
/// // "A", a lone high surrogate, U+FF0A (renders as LF), "z"
/// let units = [0x0041, 0xD800, 0xFF0A, 0x007A];
/// let mut dst = [0u8; 4];
/// assert_eq!(copy_low_bytes_from_utf16(&units, &mut dst), 4);
/// assert_eq!(dst, [b'A', 0x00, b'\n', b'z']);
///
/// let mut short = [0u8; 2];
/// assert_eq!(copy_low_bytes_from_utf16(&units, &mut short), 2);
/// assert_eq!(short, [b'A', 0x00]);
/// ```
#[inline]
#[must_use = "the count is how many bytes of `dst` were written"]
pub fn copy_low_bytes_from_utf16(src: &[u16], dst: &mut [u8]) -> usize {
    utf16::copy_low_bytes_from_utf16(src, dst)
}

/// The low 8 bits of every UTF-16 code unit of `src`, in a new vector of exactly
/// [`low_bytes_len`]`(src)` bytes.
///
/// The vector comes from one allocation, and its capacity equals its length: it can be kept
/// as a rendered header without wasting memory. For ASCII text it is a copy of `src`'s bytes.
///
/// # Examples
///
/// ```
/// let bytes = wirebytes_ascii::low_bytes("X-Star: \u{FF0A}");
/// assert_eq!(bytes, b"X-Star: \n");
/// assert_eq!(bytes.capacity(), bytes.len());
/// ```
#[cfg(feature = "alloc")]
#[must_use]
pub fn low_bytes(src: &str) -> Vec<u8> {
    copy::low_bytes(src, arch::Kernels::detect())
}

/// The low 8 bits of every code unit of `src`, in a new vector of exactly `src.len()` bytes
/// (one allocation, capacity equal to length).
///
/// # Examples
///
/// ```
/// let bytes = wirebytes_ascii::low_bytes_from_utf16(&[0x0048, 0x0069, 0xDE00]);
/// assert_eq!(bytes, [b'H', b'i', 0x00]);
/// assert_eq!(bytes.capacity(), 3);
/// ```
#[cfg(feature = "alloc")]
#[must_use]
pub fn low_bytes_from_utf16(src: &[u16]) -> Vec<u8> {
    // An exact-size iterator: `collect` allocates `src.len()` bytes once and fills them
    // without zeroing first, in a loop the compiler vectorises like
    // `copy_low_bytes_from_utf16`.
    src.iter().map(|&unit| unit as u8).collect()
}

/// The number of UTF-16 code units in `src`: what Java's `String.length()` returns for the
/// same text, and the number of bytes [`low_bytes`] produces.
///
/// Counted from the UTF-8 bytes without decoding and without allocating: every byte that
/// starts a char counts one, and a 4-byte sequence (a char above U+FFFF, a surrogate pair)
/// one more.
///
/// # Examples
///
/// ```
/// use wirebytes_ascii::low_bytes_len;
///
/// assert_eq!(low_bytes_len("abc"), 3);
/// assert_eq!(low_bytes_len("\u{E9}\u{4E2D}"), 2); // 5 UTF-8 bytes, 2 units
/// assert_eq!(low_bytes_len("\u{1F600}"), 2); // 4 UTF-8 bytes, a surrogate pair
/// ```
#[inline]
#[must_use]
pub fn low_bytes_len(src: &str) -> usize {
    len::low_bytes_len_with(src, arch::Kernels::detect)
}

/// Appends the low 8 bits of every UTF-16 code unit of `src` to `dst`:
/// [`low_bytes_len`]`(src)` bytes, the same as [`low_bytes`] would return.
///
/// `dst` is written in its spare capacity, never zero-filled first, after at most one
/// reservation: none when the spare capacity already holds `src.len()` bytes (which is at
/// least the number of units), else `Vec::reserve` of exactly the number of units. A header
/// line can be rendered straight into the buffer that goes on the wire. To reject values
/// that would smuggle control bytes, use [`render_header_value`] instead.
///
/// # Examples
///
/// ```
/// use wirebytes_ascii::low_bytes_to_vec;
///
/// let mut request = b"GET / HTTP/1.1\r\nHost: ".to_vec();
/// low_bytes_to_vec("b\u{FC}cher.example", &mut request);
/// request.extend_from_slice(b"\r\n");
/// assert_eq!(request, b"GET / HTTP/1.1\r\nHost: b\xFCcher.example\r\n");
/// ```
#[cfg(feature = "alloc")]
#[inline]
pub fn low_bytes_to_vec(src: &str, dst: &mut Vec<u8>) {
    copy::low_bytes_to_vec(src, dst, arch::Kernels::detect);
}

/// Appends the low 8 bits of every code unit of `src` to `dst`: `src.len()` bytes, the same
/// as [`low_bytes_from_utf16`] would return.
///
/// `dst` is written in its spare capacity, never zero-filled first, after at most one
/// reservation (`Vec::reserve` of `src.len()`, none when the spare capacity holds it).
///
/// # Examples
///
/// ```
/// use wirebytes_ascii::low_bytes_from_utf16_to_vec;
///
/// let mut dst = b"X-Id: ".to_vec();
/// // "Ab", a lone low surrogate, U+010D (renders as CR)
/// low_bytes_from_utf16_to_vec(&[0x0041, 0x0062, 0xDC00, 0x010D], &mut dst);
/// assert_eq!(dst, b"X-Id: Ab\x00\r");
/// ```
#[cfg(feature = "alloc")]
#[inline]
pub fn low_bytes_from_utf16_to_vec(src: &[u16], dst: &mut Vec<u8>) {
    utf16::low_bytes_from_utf16_to_vec(src, dst);
}

/// Writes the low 8 bits of every UTF-16 code unit of `src` into `dst`, chunk by chunk as the
/// `BufMut` offers them ([`BufMut::chunk_mut`](bytes::BufMut::chunk_mut)), with no copy in
/// between: [`low_bytes_len`]`(src)` bytes, the same as [`low_bytes`] would return. A
/// surrogate pair cut by the end of a chunk is finished at the start of the next.
///
/// # Panics
///
/// When `dst` has room ([`remaining_mut`](bytes::BufMut::remaining_mut)) for fewer bytes than
/// `src` has UTF-16 units, before anything is written, as `BufMut::put_slice` does. A
/// `BytesMut` or a `Vec<u8>` grows and always has room.
///
/// # Examples
///
/// ```
/// use bytes::{BufMut, BytesMut};
///
/// let mut buf = BytesMut::with_capacity(64);
/// buf.put_slice(b"X-Name: ");
/// wirebytes_ascii::low_bytes_to_buf("Ond\u{159}ej", &mut buf);
/// assert_eq!(&buf[..], b"X-Name: Ond\x59ej");
/// ```
#[cfg(feature = "bytes")]
#[inline]
pub fn low_bytes_to_buf<B: bytes::BufMut + ?Sized>(src: &str, dst: &mut B) {
    copy::low_bytes_to_buf(src, dst, arch::Kernels::detect);
}

/// The index of the first CR (`0x0D`) or LF (`0x0A`) byte in `rendered`, if any.
///
/// Run it on the bytes that go on the wire, after [`copy_low_bytes`] or [`low_bytes`]: chars
/// such as U+010D or U+FF0A are not line breaks as text but become one once rendered, so a
/// check on the `str` would miss them.
///
/// # Examples
///
/// ```
/// use wirebytes_ascii::{find_line_break, low_bytes};
///
/// let value = "harmless\u{FF0A}Set-Cookie: x=1";
/// assert_eq!(value.find(['\r', '\n']), None); // the text has no line break...
/// assert_eq!(find_line_break(&low_bytes(value)), Some(8)); // ...the rendered bytes do
/// ```
#[inline]
#[must_use]
pub fn find_line_break(rendered: &[u8]) -> Option<usize> {
    memchr::memchr2(b'\r', b'\n', rendered)
}

/// Whether `http::HeaderValue::from_bytes` accepts `byte` in a header value: HTAB,
/// `0x20..=0x7E` and `0x80..=0xFF`. The other control bytes (CR, LF and NUL among them) and
/// DEL (`0x7F`) are not header bytes.
///
/// # Examples
///
/// ```
/// use wirebytes_ascii::{is_header_byte, low_bytes};
///
/// assert!(is_header_byte(b'\t') && is_header_byte(b'~') && is_header_byte(0xE9));
/// assert!(!is_header_byte(b'\r') && !is_header_byte(0x00) && !is_header_byte(0x7F));
/// // U+010D renders as CR.
/// assert!(!low_bytes("\u{010D}").iter().all(|&b| is_header_byte(b)));
/// ```
#[inline]
#[must_use]
pub const fn is_header_byte(byte: u8) -> bool {
    header::is_header_byte(byte)
}

/// The index of the first byte of `rendered` that `http::HeaderValue::from_bytes` rejects,
/// if any: the first that is not an [`is_header_byte`], a control byte other than HTAB (CR,
/// LF, NUL and the rest of `0x00..=0x1F`) or DEL (`0x7F`). Every other byte, `0x80..=0xFF`
/// included, may be in a header value.
///
/// Run it on rendered bytes: U+010D renders as CR, U+0100 as NUL, U+0101..U+011F as other
/// controls, so a check of the `str` misses them. [`render_header_value`] renders and checks
/// in one go.
///
/// # Examples
///
/// ```
/// use wirebytes_ascii::{find_invalid_header_byte, low_bytes};
///
/// assert_eq!(find_invalid_header_byte(b"text/html;\tq=0.9 \xE9"), None);
/// assert_eq!(find_invalid_header_byte(&low_bytes("a\u{0100}b")), Some(1)); // NUL
/// assert_eq!(find_invalid_header_byte(b"abc\x7F"), Some(3)); // DEL
/// ```
#[inline]
#[must_use]
pub fn find_invalid_header_byte(rendered: &[u8]) -> Option<usize> {
    // The kernel pays for asking the CPU only past 32 bytes.
    if rendered.len() < 32 {
        return header::find_invalid_header_byte(rendered, arch::Kernels::NONE);
    }
    header::find_invalid_header_byte(rendered, arch::Kernels::detect())
}

/// Renders `src` as [`low_bytes_to_vec`] does and appends it to `dst` only if every rendered
/// byte may be in a header value (see [`is_header_byte`]): the way to put a header value from
/// untrusted text on the wire.
///
/// Rendering and checking are one pass: ASCII text is checked in the same blocks it is copied
/// in, and other text right after it is rendered, in cache. `dst` is reserved as
/// [`low_bytes_to_vec`] reserves it.
///
/// # Errors
///
/// [`InvalidHeaderByte`], with the offset in the rendered bytes and the byte, for the first
/// byte that may not be in a header value. `dst` then holds what it held before (its length
/// and bytes; its capacity may have grown).
///
/// # Examples
///
/// ```
/// use wirebytes_ascii::render_header_value;
///
/// let mut headers = b"X-Name: ".to_vec();
/// render_header_value("Fran\u{E7}ois", &mut headers)?;
/// assert_eq!(headers, b"X-Name: Fran\xE7ois");
///
/// // U+010D renders as CR: refused, and nothing is appended.
/// let err = render_header_value("x\u{010D}\u{010A}Set-Cookie: a=b", &mut headers).unwrap_err();
/// assert_eq!((err.offset(), err.byte()), (1, b'\r'));
/// assert_eq!(headers, b"X-Name: Fran\xE7ois");
/// # Ok::<(), wirebytes_ascii::InvalidHeaderByte>(())
/// ```
#[cfg(feature = "alloc")]
#[inline]
#[must_use = "on an error nothing was appended: the value must not go on the wire"]
pub fn render_header_value(src: &str, dst: &mut Vec<u8>) -> Result<(), InvalidHeaderByte> {
    header::render_header_value(src, dst, arch::Kernels::detect)
}

/// The index of the first byte of `name` that may not be in a header name, if any: a header
/// name is an RFC 9110 token, one or more of `!#$%&'*+-.^_`|~`, digits and letters. An empty
/// name gives `Some(0)`.
///
/// Every token byte is ASCII, so checking the `str`'s own bytes is enough: a name is never
/// rendered through its low bytes (U+0141 would become `A`).
///
/// # Examples
///
/// ```
/// use wirebytes_ascii::find_invalid_header_name_byte;
///
/// assert_eq!(find_invalid_header_name_byte(b"X-Request-Id"), None);
/// assert_eq!(find_invalid_header_name_byte(b"X-Request Id"), Some(9));
/// assert_eq!(find_invalid_header_name_byte(b"Host:"), Some(4));
/// assert_eq!(find_invalid_header_name_byte(b""), Some(0));
/// ```
#[inline]
#[must_use]
pub fn find_invalid_header_name_byte(name: &[u8]) -> Option<usize> {
    http1::find_invalid_header_name_byte(name)
}

/// Appends the header line `name: value\r\n` to `dst`, with the value rendered as
/// [`render_header_value`] renders it, when `name` is a token (see
/// [`find_invalid_header_name_byte`]) and every rendered byte of `value` a header byte.
///
/// The value goes as it is: whitespace around it is the caller's to trim. `dst` grows by one
/// reservation of at most `name.len() + value.len() + 4` bytes (the UTF-8 lengths; the line
/// is at most that long).
///
/// # Errors
///
/// [`InvalidHeader::Name`] for the first byte of `name` that is not a token byte (offset 0
/// and `:` for an empty name), [`InvalidHeader::Value`] for the first rendered byte of
/// `value` that is not a header byte, with its offset in the value. `dst` then holds what it
/// held before (its capacity may have grown).
///
/// # Examples
///
/// ```
/// use wirebytes_ascii::{InvalidHeader, render_header};
///
/// let mut head = Vec::new();
/// render_header("Content-Type", "text/plain; charset=ISO-8859-1", &mut head)?;
/// render_header("X-Author", "Fran\u{E7}ois", &mut head)?;
/// assert_eq!(
///     head,
///     b"Content-Type: text/plain; charset=ISO-8859-1\r\nX-Author: Fran\xE7ois\r\n"
/// );
///
/// // U+010D renders as CR: a header split in two. Refused, and nothing is appended.
/// let err = render_header("X-Note", "a\u{010D}\u{010A}Set-Cookie: s=1", &mut head).unwrap_err();
/// assert!(matches!(err, InvalidHeader::Value(e) if e.offset() == 1));
/// assert!(head.ends_with(b"X-Author: Fran\xE7ois\r\n"));
/// # Ok::<(), InvalidHeader>(())
/// ```
#[cfg(feature = "alloc")]
#[inline]
#[must_use = "on an error nothing was appended: the line must not go on the wire"]
pub fn render_header(name: &str, value: &str, dst: &mut Vec<u8>) -> Result<(), InvalidHeader> {
    http1::render_header(name, value, dst)
}

/// Appends the HTTP/1.1 status line `HTTP/1.1 code reason\r\n` to `dst`, with the reason
/// phrase rendered and checked as a header value (RFC 9112: HTAB, space, visible ASCII and
/// `0x80..=0xFF`). An empty reason keeps its space: `HTTP/1.1 204 \r\n`.
///
/// `dst` grows by one reservation of at most `reason.len() + 15` bytes.
///
/// # Errors
///
/// [`InvalidHeader::Status`] for a code outside `100..=999`, [`InvalidHeader::Value`] for
/// the first rendered byte of `reason` that may not be in it, with its offset in the reason.
/// `dst` then holds what it held before (its capacity may have grown).
///
/// # Examples
///
/// ```
/// use wirebytes_ascii::{InvalidHeader, render_status_line};
///
/// let mut head = Vec::new();
/// render_status_line(200, "OK", &mut head)?;
/// assert_eq!(head, b"HTTP/1.1 200 OK\r\n");
///
/// assert_eq!(render_status_line(1000, "", &mut head), Err(InvalidHeader::Status(1000)));
/// assert_eq!(head, b"HTTP/1.1 200 OK\r\n");
/// # Ok::<(), InvalidHeader>(())
/// ```
#[cfg(feature = "alloc")]
#[inline]
#[must_use = "on an error nothing was appended: the line must not go on the wire"]
pub fn render_status_line(code: u16, reason: &str, dst: &mut Vec<u8>) -> Result<(), InvalidHeader> {
    http1::render_status_line(code, reason, dst)
}
