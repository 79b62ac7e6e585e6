//! Encodes a text body into any encoding_rs [`Encoding`] as an exact-size `Vec<u8>`, with the
//! JDK's or the WHATWG replacement policy, byte-identical to a slow streaming reference and
//! faster than encoding_rs itself.
//!
//! ```
//! use wirebytes_charset::{Replacement, encode, for_content_type};
//!
//! let encoding = for_content_type("text/plain; charset=windows-1251").unwrap();
//! let body = encode("Привет, мир! 😀", encoding, Replacement::Jdk);
//! assert_eq!(body, b"\xCF\xF0\xE8\xE2\xE5\xF2, \xEC\xE8\xF0! ?");
//! assert_eq!(body.capacity(), body.len()); // the retained body is exact-size
//!
//! let web = encode("Привет 😀", encoding, Replacement::Whatwg);
//! assert_eq!(web, b"\xCF\xF0\xE8\xE2\xE5\xF2 &#128512;");
//! ```
//!
//! # What is written
//!
//! Every function returns the same bytes as [`reference`](mod@reference), the slow path that feeds one char
//! at a time through an encoding_rs encoder; the fast paths differ only in speed and in the
//! shape of the allocation. Characters are mapped by encoding_rs's tables (the WHATWG
//! Encoding Standard's); [`Replacement`] says what to write where they cannot be:
//!
//! - [`Replacement::Jdk`]: what Java's `String.getBytes(charset)` writes: `?` for an
//!   unmappable char (one `?` for a supplementary char) and for an unpaired surrogate;
//!   U+FFFD for the UTF-16 targets. In **ISO-2022-JP** the JDK's replacement is U+FF1F
//!   FULLWIDTH QUESTION MARK (JIS X 0208 `21 29`, entered with `ESC $ B` unless already in
//!   JIS X 0208), and for an unpaired surrogate the JDK writes the two bytes `21 29` in
//!   whatever state it is in (`!)` in the ASCII state): this crate writes exactly that too
//!   (checked against a JDK 17 by the `charset` sweep).
//! - [`Replacement::Whatwg`]: what encoding_rs and browsers write: an unpaired surrogate is
//!   U+FFFD, an unmappable char is the decimal character reference `&#N;`. The bytes equal
//!   [`Encoding::encode`]'s for every encoding **except UTF-16LE and UTF-16BE**, which are
//!   written as UTF-16, what a body in those encodings needs (without a BOM; see
//!   [`encode_with_bom`]), where `Encoding::encode` writes UTF-8 (the output encoding). The
//!   `replacement` encoding is written as UTF-8, like `output_encoding()`, so it agrees with
//!   `Encoding::encode`.
//! - ISO-2022-JP output always ends in the ASCII state.
//!
//! The JDK's tables are not WHATWG's: `Replacement::Jdk` reproduces the JDK's bytes only
//! where the two agree (UTF-8, UTF-16BE/LE, and e.g. windows-1251, windows-1252 outside
//! U+0080..U+009F, ISO-8859-2, KOI8-R; the `charset` sweep of `cargo xtask verify` checks
//! these against a JDK).
//!
//! # Allocation
//!
//! The returned `Vec` has `capacity() == len()` and is allocated once, at its final size: the
//! size comes from a cheap count (UTF-8, UTF-16, single-byte with the JDK policy or without
//! unmappable chars), or the bytes are written into a per-thread scratch buffer that is
//! reused from call to call and then copied once (the CJK encodings). With
//! [`Replacement::Whatwg`], a single-byte target that meets an unmappable char grows the
//! output once to its exact final size.
//!
//! # Crate features
//!
//! - `fast-legacy-encode`: turns on encoding_rs's `fast-legacy-encode` (larger encode tables
//!   for the CJK encodings: faster Shift_JIS, EUC-JP, EUC-KR, Big5, GBK, gb18030 and
//!   ISO-2022-JP encoding, at the cost of binary size). Off by default.
// `unsafe` is denied except in `arch`, the SIMD kernels.
#![deny(unsafe_code)]

use std::fmt;

pub use encoding_rs::Encoding;

#[allow(
    unsafe_code,
    reason = "calls into `#[target_feature]` kernels once the CPU is known to have them"
)]
mod arch;
mod ascii_prefix;
mod encodings;
mod latin1;
#[doc(hidden)]
pub mod levels;
mod multi_byte;
pub mod reference;
mod single_byte;
mod unicode;

pub use encodings::{ALL, bom, for_content_type, for_label};

/// The README's example runs as a doctest too.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

use arch::Kernels;
use ascii_prefix::ascii_prefix;
use encodings::Kind;

/// What to write for a char the target encoding cannot represent, and for an unpaired
/// surrogate in UTF-16 input.
///
/// # Examples
///
/// ```
/// use wirebytes_charset::{Replacement, encode};
///
/// let latin2 = encoding_rs::ISO_8859_2;
/// assert_eq!(encode("a€", latin2, Replacement::Jdk), b"a?");
/// assert_eq!(encode("a€", latin2, Replacement::Whatwg), b"a&#8364;");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Replacement {
    /// Java's `String.getBytes(charset)`: `?` (U+FF1F in ISO-2022-JP) for an unmappable
    /// char, `?` for an unpaired surrogate, U+FFFD for the UTF-16 targets.
    Jdk,
    /// encoding_rs's and browsers' behaviour: `&#N;` for an unmappable char, U+FFFD for an
    /// unpaired surrogate.
    Whatwg,
}

/// How a fast path treats an unmappable char.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Policy {
    Jdk,
    Whatwg,
    /// Stop: [`try_encode`].
    Strict,
}

impl From<Replacement> for Policy {
    fn from(replacement: Replacement) -> Self {
        match replacement {
            Replacement::Jdk => Policy::Jdk,
            Replacement::Whatwg => Policy::Whatwg,
        }
    }
}

/// The error of [`try_encode`]: a char the encoding cannot represent, and where it is.
///
/// # Examples
///
/// ```
/// use wirebytes_charset::try_encode;
///
/// let err = try_encode("naïve €", encoding_rs::KOI8_R).unwrap_err();
/// assert_eq!(err.ch(), 'ï');
/// assert_eq!(err.offset(), 2);
/// assert_eq!(err.to_string(), "U+00EF at byte 2 cannot be encoded in KOI8-R");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unmappable {
    ch: char,
    offset: usize,
    encoding: &'static Encoding,
}

impl Unmappable {
    fn at(text: &str, offset: usize, encoding: &'static Encoding) -> Unmappable {
        Unmappable {
            ch: text[offset..].chars().next().unwrap_or('\u{FFFD}'),
            offset,
            encoding,
        }
    }

    /// The char that cannot be encoded (as it is in the input: ISO-2022-JP's ESC, SO and SI
    /// are reported as themselves).
    ///
    /// # Examples
    ///
    /// ```
    /// let err = wirebytes_charset::try_encode("x😀", encoding_rs::BIG5).unwrap_err();
    /// assert_eq!(err.ch(), '😀');
    /// ```
    pub fn ch(&self) -> char {
        self.ch
    }

    /// The byte index of that char in the input `&str`.
    ///
    /// # Examples
    ///
    /// ```
    /// let err = wirebytes_charset::try_encode("ab€", encoding_rs::ISO_8859_5).unwrap_err();
    /// assert_eq!(err.offset(), 2);
    /// ```
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The encoding that cannot represent it.
    ///
    /// # Examples
    ///
    /// ```
    /// let err = wirebytes_charset::try_encode("€", encoding_rs::ISO_8859_5).unwrap_err();
    /// assert_eq!(err.encoding(), encoding_rs::ISO_8859_5);
    /// ```
    pub fn encoding(&self) -> &'static Encoding {
        self.encoding
    }
}

impl fmt::Display for Unmappable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "U+{:04X} at byte {} cannot be encoded in {}",
            u32::from(self.ch),
            self.offset,
            self.encoding.name()
        )
    }
}

impl std::error::Error for Unmappable {}

/// Length of `&#N;` for `c`.
pub(crate) fn ncr_len(c: char) -> usize {
    let n = u32::from(c);
    3 + match n {
        0..=9 => 1,
        10..=99 => 2,
        100..=999 => 3,
        1_000..=9_999 => 4,
        10_000..=99_999 => 5,
        100_000..=999_999 => 6,
        _ => 7,
    }
}

/// Appends `&#N;` for the scalar value `c`.
pub(crate) fn push_ncr(out: &mut Vec<u8>, c: u32) {
    let mut digits = [0u8; 10];
    let mut i = digits.len();
    let mut n = c;
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(b"&#");
    out.extend_from_slice(&digits[i..]);
    out.push(b';');
}

/// `prefix` then `bytes`, exact-size.
fn concat(prefix: &[u8], bytes: &[u8]) -> Vec<u8> {
    if prefix.is_empty() {
        return bytes.to_vec();
    }
    let mut out = Vec::with_capacity(prefix.len() + bytes.len());
    out.extend_from_slice(prefix);
    out.extend_from_slice(bytes);
    out
}

/// The engine behind [`encode`], [`encode_with_bom`] and [`try_encode`]: `Err` is the byte
/// offset of the first unmappable char, under [`Policy::Strict`] only.
fn encode_str(
    prefix: &[u8],
    text: &str,
    encoding: &'static Encoding,
    policy: Policy,
    kernels: Kernels,
) -> Result<Vec<u8>, usize> {
    let kind = encodings::kind(encoding);
    match kind {
        Kind::Utf8 => Ok(concat(prefix, text.as_bytes())),
        Kind::Utf16 { big_endian } => Ok(unicode::str_to_utf16(prefix, text, big_endian)),
        Kind::SingleByte(i) => {
            let bytes = text.as_bytes();
            let from = ascii_prefix(kind, text, kernels);
            if from == bytes.len() {
                return Ok(concat(prefix, bytes));
            }
            let chars = single_byte::count_chars(&bytes[from..]);
            let mut out = Vec::with_capacity(prefix.len() + from + chars);
            out.extend_from_slice(prefix);
            out.extend_from_slice(&bytes[..from]);
            let table = single_byte::table(i);
            single_byte::encode_str(table, text, from, policy, &mut out, kernels)?;
            Ok(out)
        }
        Kind::MultiByte | Kind::Iso2022Jp => {
            let from = ascii_prefix(kind, text, kernels);
            if from == text.len() {
                return Ok(concat(prefix, text.as_bytes()));
            }
            multi_byte::encode_str(encoding, text, from, policy, prefix)
        }
    }
}

/// Infallible policies never produce `Err`; this keeps the public functions panic-free.
fn infallible(result: Result<Vec<u8>, usize>) -> Vec<u8> {
    debug_assert!(
        result.is_ok(),
        "only Policy::Strict reports unmappable chars"
    );
    result.unwrap_or_default()
}

/// Encodes `text` into `encoding`, writing `replacement` where a char cannot be encoded.
///
/// The result has `capacity() == len()`. See the [crate docs](crate) for what is written
/// for each encoding.
///
/// # Examples
///
/// ```
/// use wirebytes_charset::{Replacement, encode};
///
/// assert_eq!(encode("Grüße", encoding_rs::WINDOWS_1252, Replacement::Jdk), b"Gr\xFC\xDFe");
/// assert_eq!(encode("日本", encoding_rs::SHIFT_JIS, Replacement::Jdk), b"\x93\xFA\x96\x7B");
/// assert_eq!(encode("hi", encoding_rs::UTF_16BE, Replacement::Jdk), b"\0h\0i");
/// assert_eq!(encode("é", encoding_rs::EUC_KR, Replacement::Jdk), b"?");
/// assert_eq!(encode("é", encoding_rs::EUC_KR, Replacement::Whatwg), b"&#233;");
/// ```
#[inline]
pub fn encode(text: &str, encoding: &'static Encoding, replacement: Replacement) -> Vec<u8> {
    let kernels = Kernels::detect();
    infallible(encode_str(b"", text, encoding, replacement.into(), kernels))
}

/// Like [`encode`], with the encoding's [`bom`] in front (UTF-8, UTF-16LE and UTF-16BE have
/// one; for every other encoding this is [`encode`]). Still one exact-size allocation.
///
/// # Examples
///
/// ```
/// use wirebytes_charset::{Replacement, encode_with_bom};
///
/// let body = encode_with_bom("hi", encoding_rs::UTF_16LE, Replacement::Jdk);
/// assert_eq!(body, b"\xFF\xFEh\0i\0");
/// assert_eq!(body.capacity(), body.len());
/// ```
#[inline]
pub fn encode_with_bom(
    text: &str,
    encoding: &'static Encoding,
    replacement: Replacement,
) -> Vec<u8> {
    infallible(encode_str(
        bom(encoding),
        text,
        encoding,
        replacement.into(),
        Kernels::detect(),
    ))
}

/// Encodes UTF-16 `units` (which may hold unpaired surrogates, like a Java `String`) into
/// `encoding`, writing `replacement` for unmappable chars and unpaired surrogates.
///
/// The result has `capacity() == len()`.
///
/// # Examples
///
/// ```
/// use wirebytes_charset::{Replacement, encode_utf16};
///
/// let units = [0x48, 0xD83D, 0x49]; // "H", a lone high surrogate, "I"
/// assert_eq!(encode_utf16(&units, encoding_rs::WINDOWS_1252, Replacement::Jdk), b"H?I");
/// assert_eq!(encode_utf16(&units, encoding_rs::WINDOWS_1252, Replacement::Whatwg), b"H&#65533;I");
/// assert_eq!(encode_utf16(&units, encoding_rs::UTF_16LE, Replacement::Jdk), b"H\0\xFD\xFFI\0");
/// ```
pub fn encode_utf16(
    units: &[u16],
    encoding: &'static Encoding,
    replacement: Replacement,
) -> Vec<u8> {
    encode_units(b"", units, encoding, replacement.into())
}

/// Like [`encode_utf16`], with the encoding's [`bom`] in front.
///
/// # Examples
///
/// ```
/// use wirebytes_charset::{Replacement, encode_utf16_with_bom};
///
/// let body = encode_utf16_with_bom(&[0x68], encoding_rs::UTF_16BE, Replacement::Jdk);
/// assert_eq!(body, b"\xFE\xFF\0h");
/// ```
pub fn encode_utf16_with_bom(
    units: &[u16],
    encoding: &'static Encoding,
    replacement: Replacement,
) -> Vec<u8> {
    encode_units(bom(encoding), units, encoding, replacement.into())
}

/// The engine behind [`encode_utf16`] and [`encode_utf16_with_bom`]. No kernel is on its
/// path.
fn encode_units(
    prefix: &[u8],
    units: &[u16],
    encoding: &'static Encoding,
    policy: Policy,
) -> Vec<u8> {
    match encodings::kind(encoding) {
        Kind::Utf8 => unicode::utf16_to_utf8(prefix, units, policy),
        Kind::Utf16 { big_endian } => unicode::utf16_to_utf16(prefix, units, big_endian),
        Kind::SingleByte(i) => single_byte::encode_utf16(single_byte::table(i), units, policy),
        Kind::MultiByte | Kind::Iso2022Jp => multi_byte::encode_utf16(encoding, units, policy),
    }
}

/// Like [`encode`], taking the `String` by value: when the encoded bytes are the string's own
/// bytes (a UTF-8 target, or all-ASCII text to an ASCII-compatible target) its buffer is
/// handed back without copying (shrunk to fit if it had spare capacity, so that
/// `capacity() == len()` still holds).
///
/// # Examples
///
/// ```
/// use wirebytes_charset::{Replacement, encode_string};
///
/// let text = String::from("{\"ok\":true}");
/// let ptr = text.as_ptr();
/// let body = encode_string(text, encoding_rs::WINDOWS_1252, Replacement::Jdk);
/// assert_eq!(body, b"{\"ok\":true}");
/// assert_eq!(body.as_ptr(), ptr); // the same buffer
/// ```
#[inline]
pub fn encode_string(
    text: String,
    encoding: &'static Encoding,
    replacement: Replacement,
) -> Vec<u8> {
    encode_owned(text, encoding, replacement, Kernels::detect())
}

/// The engine behind [`encode_string`].
fn encode_owned(
    text: String,
    encoding: &'static Encoding,
    replacement: Replacement,
    kernels: Kernels,
) -> Vec<u8> {
    let kind = encodings::kind(encoding);
    let same = match kind {
        Kind::Utf8 => true,
        Kind::Utf16 { .. } => false,
        _ => ascii_prefix(kind, &text, kernels) == text.len(),
    };
    if same {
        let mut bytes = text.into_bytes();
        bytes.shrink_to_fit();
        bytes
    } else {
        infallible(encode_str(
            b"",
            &text,
            encoding,
            replacement.into(),
            kernels,
        ))
    }
}

/// Encodes `text` into `encoding`, or reports the first char it cannot represent.
///
/// # Errors
///
/// [`Unmappable`] with the char and its byte offset in `text`; nothing partial is returned.
/// UTF-8, UTF-16LE/BE and `replacement` (written as UTF-8) never fail; neither does gb18030.
///
/// # Examples
///
/// ```
/// use wirebytes_charset::try_encode;
///
/// assert_eq!(try_encode("Ünïcödé", encoding_rs::WINDOWS_1252).unwrap(), b"\xDCn\xEFc\xF6d\xE9");
/// let err = try_encode("ok ✓", encoding_rs::WINDOWS_1252).unwrap_err();
/// assert_eq!((err.ch(), err.offset()), ('✓', 3));
/// ```
#[inline]
pub fn try_encode(text: &str, encoding: &'static Encoding) -> Result<Vec<u8>, Unmappable> {
    encode_strict(text, encoding, Kernels::detect())
}

/// The engine behind [`try_encode`].
fn encode_strict(
    text: &str,
    encoding: &'static Encoding,
    kernels: Kernels,
) -> Result<Vec<u8>, Unmappable> {
    encode_str(b"", text, encoding, Policy::Strict, kernels)
        .map_err(|offset| Unmappable::at(text, offset, encoding))
}
