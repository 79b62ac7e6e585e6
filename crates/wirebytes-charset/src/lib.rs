//! Encodes a text body into any encoding_rs [`Encoding`], or one of the JDK's own charsets,
//! as an exact-size `Vec<u8>` or into the caller's buffer, with the JDK's or the WHATWG
//! replacement policy, byte-identical to a slow streaming reference and faster than
//! encoding_rs itself.
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
//! # Charsets
//!
//! Every function takes `impl Into<`[`Charset`]`>`: an encoding_rs `&'static Encoding`, or
//! one of the JDK's charsets that encoding_rs lacks ([`Charset::ISO_8859_1`] (true Latin-1,
//! where encoding_rs's `iso-8859-1` label means windows-1252), [`Charset::US_ASCII`],
//! [`Charset::UTF_16`] (BOM `FE FF`, then big-endian), [`Charset::UTF_32`],
//! [`Charset::UTF_32BE`], [`Charset::UTF_32LE`]). [`Charset::for_java_name`] resolves the
//! JDK's names and aliases (`Charset.forName`), [`Charset::name`] gives the JDK's canonical
//! name.
//!
//! ```
//! use wirebytes_charset::{Charset, Replacement, encode, encode_utf16};
//!
//! let latin1 = Charset::for_java_name("ISO8859_1").unwrap();
//! assert_eq!(encode("café €", latin1, Replacement::Jdk), b"caf\xE9 ?");
//! let utf16 = Charset::for_java_name("UnicodeBig").unwrap();
//! assert_eq!(encode_utf16(&[0x68, 0xD800], utf16, Replacement::Jdk), b"\xFE\xFF\0h\xFF\xFD");
//! assert_eq!(encode("", utf16, Replacement::Jdk), b""); // no BOM for an empty string
//! ```
//!
//! # Into the caller's buffers
//!
//! [`encoded_len`] counts without allocating; [`encode_to_vec`] appends with one reservation
//! and no zero-fill; [`encode_to_buf`] puts into any `bytes::BufMut` (feature `bytes`); the
//! streaming [`Encoder`] ([`Charset::new_encoder`]) takes the text chunk by chunk (`&str` or
//! UTF-16, a chunk may end inside a surrogate pair) and writes, over any split, the bytes of
//! [`encode`] of the whole.
//!
//! ```
//! use wirebytes_charset::{Charset, Replacement, encode, encode_to_vec, encoded_len};
//!
//! let sjis = Charset::from(encoding_rs::SHIFT_JIS);
//! let mut request = b"POST / HTTP/1.1\r\n\r\n".to_vec();
//! let len = encoded_len("日本語 ok", sjis, Replacement::Jdk);
//! encode_to_vec("日本語 ok", sjis, Replacement::Jdk, &mut request);
//! assert_eq!(len, 9);
//! assert!(request.ends_with(b"\x93\xFA\x96\x7B\x8C\xEA ok"));
//!
//! let mut encoder = sjis.new_encoder(Replacement::Jdk);
//! let mut body = Vec::new();
//! encoder.encode_chunk("日本", false, &mut body);
//! encoder.encode_chunk("語 ok", true, &mut body);
//! assert_eq!(body, encode("日本語 ok", sjis, Replacement::Jdk));
//! ```
//!
//! # What is written
//!
//! Every function returns the same bytes as the crate's reference, the slow path that feeds one char
//! at a time through an encoding_rs encoder; the fast paths differ only in speed and in the
//! shape of the allocation. Characters are mapped by encoding_rs's tables (the WHATWG
//! Encoding Standard's); [`Replacement`] says what to write where they cannot be:
//!
//! - [`Replacement::Jdk`]: what Java's `String.getBytes(charset)` writes: `?` for an
//!   unmappable char (one `?` for a supplementary char) and for an unpaired surrogate;
//!   U+FFFD for the UTF-16 and UTF-32 targets (`FF FD`, `00 00 FF FD`, in the charset's byte
//!   order). For the JDK-only charsets this is the JDK's output exactly (checked against a
//!   JDK 17 by the `charset` sweep). In **ISO-2022-JP** the JDK's replacement is U+FF1F
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
//! size comes from a cheap count (UTF-8, UTF-16, UTF-32, single-byte with the JDK policy or
//! without unmappable chars), or the bytes are written into a per-thread scratch buffer that
//! is reused from call to call and then copied once (the CJK encodings). The single-byte
//! encodings and the stateless CJK encodings encode through tables built from encoding_rs on
//! first use (50-74 KiB per CJK encoding; nothing for an encoding never used). With
//! [`Replacement::Whatwg`], a single-byte target that meets an unmappable char grows the
//! output once to its exact final size.
//!
//! # Crate features
//!
//! - `bytes`: [`encode_to_buf`], into any `bytes::BufMut`. Off by default.
//! - `fast-legacy-encode`: turns on encoding_rs's `fast-legacy-encode` (larger encode tables
//!   for the CJK encodings, used here for ISO-2022-JP and the chars without an entry in this
//!   crate's own tables, at the cost of binary size). Off by default.
#![cfg_attr(docsrs, feature(doc_cfg))]
// `unsafe` is denied except in `arch`, the SIMD kernels.
#![deny(unsafe_code)]
// The `_with` forms that take a kernel level and the kernels' level list serve the hidden
// `levels` door alone: without `__internal` nothing calls them.
#![cfg_attr(
    not(feature = "__internal"),
    allow(dead_code, reason = "what only the hidden `levels` door calls")
)]

use std::fmt;

pub use encoding_rs::Encoding;

#[allow(
    unsafe_code,
    reason = "calls into `#[target_feature]` kernels once the CPU is known to have them"
)]
mod arch;
mod ascii_prefix;
mod charset;
mod cjk;
mod encoder;
mod encodings;
mod latin1;
#[cfg(feature = "__internal")]
#[doc(hidden)]
pub mod levels;
mod multi_byte;
#[cfg(feature = "__internal")]
#[doc(hidden)]
pub mod reference;
mod single_byte;
mod unicode;
mod us_ascii;

pub use charset::Charset;
pub use encoder::Encoder;
pub use encodings::{ALL, bom, for_content_type, for_label};

/// The README's example runs as a doctest too.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

use arch::Kernels;
use ascii_prefix::ascii_prefix;
use encodings::Kind;
use single_byte::count_chars;

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

/// The error of [`try_encode`]: a char the charset cannot represent, and where it is.
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Unmappable {
    ch: char,
    offset: usize,
    charset: Charset,
}

impl Unmappable {
    fn at(text: &str, offset: usize, charset: Charset) -> Unmappable {
        Unmappable {
            ch: text
                .get(offset..)
                .and_then(|rest| rest.chars().next())
                .unwrap_or('\u{FFFD}'),
            offset,
            charset,
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
    #[must_use]
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
    #[must_use]
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The charset that cannot represent it.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_charset::{Charset, try_encode};
    ///
    /// let err = try_encode("€", Charset::ISO_8859_1).unwrap_err();
    /// assert_eq!(err.charset(), Charset::ISO_8859_1);
    /// ```
    #[must_use]
    pub fn charset(&self) -> Charset {
        self.charset
    }

    /// The encoding_rs encoding that cannot represent it (`None` for a JDK-only charset).
    ///
    /// # Examples
    ///
    /// ```
    /// let err = wirebytes_charset::try_encode("€", encoding_rs::ISO_8859_5).unwrap_err();
    /// assert_eq!(err.encoding(), Some(encoding_rs::ISO_8859_5));
    /// ```
    #[must_use]
    pub fn encoding(&self) -> Option<&'static Encoding> {
        self.charset.encoding()
    }
}

impl fmt::Display for Unmappable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "U+{:04X} at byte {} cannot be encoded in {}",
            u32::from(self.ch),
            self.offset,
            display_name(self.charset)
        )
    }
}

impl std::error::Error for Unmappable {}

/// The name an error message gives a charset: encoding_rs's for its encodings, the JDK's for
/// the others.
fn display_name(charset: Charset) -> &'static str {
    charset.encoding().map_or(charset.name(), Encoding::name)
}

/// The error of [`try_encode_utf16`]: an unpaired surrogate, or a char the charset cannot
/// represent, and its index in the UTF-16 input.
///
/// # Examples
///
/// ```
/// use wirebytes_charset::{Charset, try_encode_utf16};
///
/// let err = try_encode_utf16(&[0x61, 0xD800, 0x62], Charset::UTF_16).unwrap_err();
/// assert_eq!((err.offset(), err.code_point(), err.ch()), (1, 0xD800, None));
/// assert_eq!(err.to_string(), "unpaired surrogate U+D800 at unit 1 cannot be encoded in UTF-16");
///
/// let err = try_encode_utf16(&[0x61, 0x20AC], Charset::ISO_8859_1).unwrap_err();
/// assert_eq!((err.offset(), err.ch()), (1, Some('€')));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct UnmappableUtf16 {
    code_point: u32,
    offset: usize,
    charset: Charset,
}

impl UnmappableUtf16 {
    fn at(units: &[u16], offset: usize, charset: Charset) -> UnmappableUtf16 {
        let code_point =
            char::decode_utf16(units.get(offset..).unwrap_or_default().iter().copied())
                .next()
                .map_or(0xFFFD, |item| {
                    item.map_or_else(|lone| u32::from(lone.unpaired_surrogate()), u32::from)
                });
        UnmappableUtf16 {
            code_point,
            offset,
            charset,
        }
    }

    /// The scalar value of the char, or the unpaired surrogate's code unit.
    ///
    /// # Examples
    ///
    /// ```
    /// let err = wirebytes_charset::try_encode_utf16(&[0xD83D, 0xDE00], encoding_rs::BIG5).unwrap_err();
    /// assert_eq!(err.code_point(), 0x1F600);
    /// ```
    #[must_use]
    pub fn code_point(&self) -> u32 {
        self.code_point
    }

    /// The char that cannot be encoded; `None` for an unpaired surrogate.
    ///
    /// # Examples
    ///
    /// ```
    /// let err = wirebytes_charset::try_encode_utf16(&[0xDC00], encoding_rs::UTF_8).unwrap_err();
    /// assert_eq!(err.ch(), None);
    /// ```
    #[must_use]
    pub fn ch(&self) -> Option<char> {
        char::from_u32(self.code_point)
    }

    /// The index, in UTF-16 units, of the char (its first unit) or of the unpaired
    /// surrogate.
    ///
    /// # Examples
    ///
    /// ```
    /// let err = wirebytes_charset::try_encode_utf16(&[0x41, 0x20AC], encoding_rs::KOI8_R).unwrap_err();
    /// assert_eq!(err.offset(), 1);
    /// ```
    #[must_use]
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The charset that cannot represent it.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_charset::{Charset, try_encode_utf16};
    ///
    /// let err = try_encode_utf16(&[0xE9], Charset::US_ASCII).unwrap_err();
    /// assert_eq!(err.charset(), Charset::US_ASCII);
    /// ```
    #[must_use]
    pub fn charset(&self) -> Charset {
        self.charset
    }
}

impl fmt::Display for UnmappableUtf16 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = if self.ch().is_some() {
            ""
        } else {
            "unpaired surrogate "
        };
        write!(
            f,
            "{what}U+{:04X} at unit {} cannot be encoded in {}",
            self.code_point,
            self.offset,
            display_name(self.charset)
        )
    }
}

impl std::error::Error for UnmappableUtf16 {}

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

/// Writes `&#N;` for the scalar value `c` at the start of `dst`; returns its length.
pub(crate) fn write_ncr(dst: &mut [u8; 12], c: u32) -> usize {
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
    let len = digits.len() - i;
    dst[..2].copy_from_slice(b"&#");
    dst[2..2 + len].copy_from_slice(&digits[i..]);
    dst[2 + len] = b';';
    len + 3
}

/// Appends `&#N;` for the scalar value `c`.
pub(crate) fn push_ncr(out: &mut Vec<u8>, c: u32) {
    let mut ncr = [0u8; 12];
    let n = write_ncr(&mut ncr, c);
    out.extend_from_slice(&ncr[..n]);
}

/// The BOM written before `text` (UTF-16 input: `non_empty`): the encoding's own with
/// `with_bom`, and the JDK's UTF-16 BOM before non-empty output.
fn prefix(charset: Charset, kind: Kind, with_bom: bool, non_empty: bool) -> &'static [u8] {
    match kind {
        Kind::Utf16 { bom: true, .. } if non_empty => b"\xFE\xFF",
        _ if with_bom => bom(charset),
        _ => b"",
    }
}

/// The engine behind every `&str` function: appends `text` (after the BOM when `with_bom`)
/// to `out`, reserving the exact size once (twice for a single-byte target under WHATWG that
/// meets an unmappable char). `Err` (only under [`Policy::Strict`]) is the byte offset of the
/// first unmappable char; then nothing is appended.
fn encode_into(
    text: &str,
    charset: Charset,
    with_bom: bool,
    policy: Policy,
    kernels: Kernels,
    out: &mut Vec<u8>,
) -> Result<(), usize> {
    let kind = encodings::kind(charset);
    let prefix = prefix(charset, kind, with_bom, !text.is_empty());
    let start = out.len();
    let result = match kind {
        Kind::Utf8 => {
            out.reserve_exact(prefix.len() + text.len());
            out.extend_from_slice(prefix);
            out.extend_from_slice(text.as_bytes());
            Ok(())
        }
        Kind::Utf16 { big_endian, .. } => {
            let units = unicode::utf16_units(text);
            out.reserve_exact(prefix.len() + 2 * units);
            out.extend_from_slice(prefix);
            unicode::str_to_utf16(text, units, big_endian, out, kernels);
            Ok(())
        }
        Kind::Utf32 { big_endian } => {
            unicode::str_to_utf32(text, big_endian, out, kernels);
            Ok(())
        }
        Kind::SingleByte(i) => {
            let bytes = text.as_bytes();
            let from = ascii_prefix(kind, text, kernels);
            if from == bytes.len() {
                out.reserve_exact(bytes.len());
                out.extend_from_slice(bytes);
                return Ok(());
            }
            out.reserve_exact(from + count_chars(&bytes[from..]));
            out.extend_from_slice(&bytes[..from]);
            single_byte::encode_str(single_byte::table(i), text, from, policy, out, kernels)
        }
        Kind::MultiByte(_) | Kind::Iso2022Jp => {
            let from = ascii_prefix(kind, text, kernels);
            if from == text.len() {
                out.reserve_exact(text.len());
                out.extend_from_slice(text.as_bytes());
                return Ok(());
            }
            multi_byte::encode_str(multi_byte_encoding(kind), text, from, policy, out, kernels)
        }
    };
    if result.is_err() {
        out.truncate(start);
    }
    result
}

/// The encoding_rs encoding of a multi-byte kind.
fn multi_byte_encoding(kind: Kind) -> &'static Encoding {
    match kind {
        Kind::MultiByte(encoding) => encoding,
        _ => encoding_rs::ISO_2022_JP,
    }
}

/// The engine behind every `&[u16]` function, as [`encode_into`]; `Err` is the index of the
/// first unmappable char or unpaired surrogate. No kernel is on its path.
fn encode_units_into(
    units: &[u16],
    charset: Charset,
    with_bom: bool,
    policy: Policy,
    out: &mut Vec<u8>,
) -> Result<(), usize> {
    let kind = encodings::kind(charset);
    let prefix = prefix(charset, kind, with_bom, !units.is_empty());
    let start = out.len();
    let result = match kind {
        Kind::Utf8 => unicode::utf16_to_utf8(prefix, units, policy, out),
        Kind::Utf16 { big_endian, .. } => {
            unicode::utf16_to_utf16(prefix, units, big_endian, policy, out)
        }
        Kind::Utf32 { big_endian } => unicode::utf16_to_utf32(units, big_endian, policy, out),
        Kind::SingleByte(i) => single_byte::encode_utf16(single_byte::table(i), units, policy, out),
        Kind::MultiByte(_) | Kind::Iso2022Jp => {
            multi_byte::encode_utf16(multi_byte_encoding(kind), units, policy, out)
        }
    };
    if result.is_err() {
        out.truncate(start);
    }
    result
}

/// The exact number of bytes [`encode_into`] appends, without allocating.
fn len_of(text: &str, charset: Charset, policy: Policy, kernels: Kernels) -> usize {
    let kind = encodings::kind(charset);
    let prefix = prefix(charset, kind, false, !text.is_empty());
    prefix.len()
        + match kind {
            Kind::Utf8 => text.len(),
            Kind::Utf16 { .. } => 2 * unicode::utf16_units(text),
            Kind::Utf32 { .. } => 4 * count_chars(text.as_bytes()),
            Kind::SingleByte(i) => {
                let from = ascii_prefix(kind, text, kernels);
                from + single_byte::len_str(single_byte::table(i), &text[from..], policy)
            }
            Kind::MultiByte(_) | Kind::Iso2022Jp => {
                let from = ascii_prefix(kind, text, kernels);
                if from == text.len() {
                    from
                } else {
                    multi_byte::len_str(multi_byte_encoding(kind), text, from, policy, kernels)
                }
            }
        }
}

/// Infallible policies never produce `Err`; this keeps the public functions panic-free.
fn infallible(result: Result<(), usize>) {
    debug_assert!(
        result.is_ok(),
        "only Policy::Strict reports unmappable chars"
    );
}

/// A new exact-size `Vec` from the engine.
fn to_vec(fill: impl FnOnce(&mut Vec<u8>) -> Result<(), usize>) -> Result<Vec<u8>, usize> {
    let mut out = Vec::new();
    fill(&mut out).map(|()| out)
}

/// Encodes `text` into `charset`, writing `replacement` where a char cannot be encoded.
///
/// The result has `capacity() == len()`. See the [crate docs](crate) for what is written
/// for each charset.
///
/// # Examples
///
/// ```
/// use wirebytes_charset::{Charset, Replacement, encode};
///
/// assert_eq!(encode("Grüße", encoding_rs::WINDOWS_1252, Replacement::Jdk), b"Gr\xFC\xDFe");
/// assert_eq!(encode("日本", encoding_rs::SHIFT_JIS, Replacement::Jdk), b"\x93\xFA\x96\x7B");
/// assert_eq!(encode("hi", encoding_rs::UTF_16BE, Replacement::Jdk), b"\0h\0i");
/// assert_eq!(encode("é", encoding_rs::EUC_KR, Replacement::Jdk), b"?");
/// assert_eq!(encode("é", encoding_rs::EUC_KR, Replacement::Whatwg), b"&#233;");
/// assert_eq!(encode("é€", Charset::ISO_8859_1, Replacement::Jdk), b"\xE9?");
/// ```
#[inline]
pub fn encode(text: &str, charset: impl Into<Charset>, replacement: Replacement) -> Vec<u8> {
    let mut out = Vec::new();
    encode_to_vec(text, charset, replacement, &mut out);
    out
}

/// Appends the bytes [`encode`] returns to `dst`, with one reservation of their exact size
/// (two for a single-byte encoding under [`Replacement::Whatwg`] that meets an unmappable
/// char) and no zero-fill.
///
/// # Examples
///
/// ```
/// use wirebytes_charset::{Charset, Replacement, encode_to_vec};
///
/// let mut request = b"POST /x HTTP/1.1\r\n\r\n".to_vec();
/// encode_to_vec("café €", Charset::ISO_8859_1, Replacement::Jdk, &mut request);
/// assert!(request.ends_with(b"\r\n\r\ncaf\xE9 ?"));
/// ```
#[inline]
pub fn encode_to_vec(
    text: &str,
    charset: impl Into<Charset>,
    replacement: Replacement,
    dst: &mut Vec<u8>,
) {
    let kernels = Kernels::detect();
    infallible(encode_into(
        text,
        charset.into(),
        false,
        replacement.into(),
        kernels,
        dst,
    ));
}

/// The length of what [`encode`] returns, computed without allocating.
///
/// # Examples
///
/// ```
/// use wirebytes_charset::{Charset, Replacement, encode, encoded_len};
///
/// assert_eq!(encoded_len("héllo 😀", Charset::UTF_16, Replacement::Jdk), 2 + 2 * 8);
/// assert_eq!(encoded_len("日本 😀", encoding_rs::EUC_JP, Replacement::Whatwg), 14);
/// assert_eq!(encode("日本 😀", encoding_rs::EUC_JP, Replacement::Whatwg).len(), 14);
/// ```
#[inline]
pub fn encoded_len(text: &str, charset: impl Into<Charset>, replacement: Replacement) -> usize {
    len_of(text, charset.into(), replacement.into(), Kernels::detect())
}

/// Appends the bytes [`encode`] returns to `dst`, any [`bytes::BufMut`] (a `BytesMut`, a
/// `Vec<u8>`, a `&mut [u8]`...). The bytes are encoded into a per-thread buffer first, then
/// put in one `put_slice`.
///
/// # Panics
///
/// If `dst.remaining_mut()` is less than the encoded length (a fixed-size `dst` too short):
/// checked before anything is written.
///
/// # Examples
///
/// ```
/// use bytes::BytesMut;
/// use wirebytes_charset::{Charset, Replacement, encode_to_buf};
///
/// let mut buf = BytesMut::from(&b"body: "[..]);
/// encode_to_buf("Grüße", Charset::US_ASCII, Replacement::Jdk, &mut buf);
/// assert_eq!(&buf[..], b"body: Gr??e");
/// ```
#[cfg(feature = "bytes")]
pub fn encode_to_buf<B: bytes::BufMut + ?Sized>(
    text: &str,
    charset: impl Into<Charset>,
    replacement: Replacement,
    dst: &mut B,
) {
    let charset = charset.into();
    let kernels = Kernels::detect();
    put_via_scratch(dst, |scratch| {
        infallible(encode_into(
            text,
            charset,
            false,
            replacement.into(),
            kernels,
            scratch,
        ));
    });
}

/// Runs `fill` on this thread's buffer for [`encode_to_buf`], then puts what it wrote into
/// `dst`.
#[cfg(feature = "bytes")]
fn put_via_scratch<B: bytes::BufMut + ?Sized>(dst: &mut B, fill: impl FnOnce(&mut Vec<u8>)) {
    use std::cell::Cell;
    thread_local! {
        static PUT: Cell<Vec<u8>> = const { Cell::new(Vec::new()) };
    }
    let mut scratch = PUT.try_with(Cell::take).unwrap_or_default();
    scratch.clear();
    fill(&mut scratch);
    assert!(
        dst.remaining_mut() >= scratch.len(),
        "encode_to_buf: {} bytes do not fit in the {} bytes left in the buffer",
        scratch.len(),
        dst.remaining_mut()
    );
    dst.put_slice(&scratch);
    if scratch.capacity() <= 1 << 20 {
        let _ = PUT.try_with(|cell| cell.set(scratch));
    }
}

/// Like [`encode`], with the charset's [`bom`] in front (UTF-8, UTF-16LE and UTF-16BE have
/// one; the JDK's UTF-16 writes its own in any case; for every other charset this is
/// [`encode`]). Still one exact-size allocation.
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
    charset: impl Into<Charset>,
    replacement: Replacement,
) -> Vec<u8> {
    let mut out = Vec::new();
    infallible(encode_into(
        text,
        charset.into(),
        true,
        replacement.into(),
        Kernels::detect(),
        &mut out,
    ));
    out
}

/// Encodes UTF-16 `units` (which may hold unpaired surrogates, like a Java `String`) into
/// `charset`, writing `replacement` for unmappable chars and unpaired surrogates.
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
    charset: impl Into<Charset>,
    replacement: Replacement,
) -> Vec<u8> {
    let mut out = Vec::new();
    infallible(encode_units_into(
        units,
        charset.into(),
        false,
        replacement.into(),
        &mut out,
    ));
    out
}

/// Like [`encode_utf16`], with the charset's [`bom`] in front.
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
    charset: impl Into<Charset>,
    replacement: Replacement,
) -> Vec<u8> {
    let mut out = Vec::new();
    infallible(encode_units_into(
        units,
        charset.into(),
        true,
        replacement.into(),
        &mut out,
    ));
    out
}

/// Like [`encode`], taking the `String` by value: when the encoded bytes are the string's own
/// bytes (a UTF-8 target, or all-ASCII text to an ASCII-compatible target) its buffer is
/// handed back without copying (shrunk to fit if it had spare capacity, so that
/// `capacity() == len()` still holds).
///
/// # Examples
///
/// ```
/// use wirebytes_charset::{Charset, Replacement, encode_string};
///
/// let text = String::from("{\"ok\":true}");
/// let ptr = text.as_ptr();
/// let body = encode_string(text, Charset::US_ASCII, Replacement::Jdk);
/// assert_eq!(body, b"{\"ok\":true}");
/// assert_eq!(body.as_ptr(), ptr); // the same buffer
/// ```
#[inline]
pub fn encode_string(
    text: String,
    charset: impl Into<Charset>,
    replacement: Replacement,
) -> Vec<u8> {
    encode_owned(text, charset.into(), replacement, Kernels::detect())
}

/// The engine behind [`encode_string`].
fn encode_owned(
    text: String,
    charset: Charset,
    replacement: Replacement,
    kernels: Kernels,
) -> Vec<u8> {
    let kind = encodings::kind(charset);
    let same = match kind {
        Kind::Utf8 => true,
        Kind::Utf16 { .. } | Kind::Utf32 { .. } => false,
        _ => ascii_prefix(kind, &text, kernels) == text.len(),
    };
    if same {
        let mut bytes = text.into_bytes();
        bytes.shrink_to_fit();
        bytes
    } else {
        let mut out = Vec::new();
        infallible(encode_into(
            &text,
            charset,
            false,
            replacement.into(),
            kernels,
            &mut out,
        ));
        out
    }
}

/// Encodes `text` into `charset`, or reports the first char it cannot represent.
///
/// # Errors
///
/// [`Unmappable`] with the char and its byte offset in `text`; nothing partial is returned.
/// UTF-8, UTF-16 and UTF-32 targets and `replacement` (written as UTF-8) never fail; neither
/// does gb18030.
///
/// # Examples
///
/// ```
/// use wirebytes_charset::{Charset, try_encode};
///
/// assert_eq!(try_encode("Ünïcödé", encoding_rs::WINDOWS_1252).unwrap(), b"\xDCn\xEFc\xF6d\xE9");
/// let err = try_encode("ok ✓", encoding_rs::WINDOWS_1252).unwrap_err();
/// assert_eq!((err.ch(), err.offset()), ('✓', 3));
/// assert_eq!(try_encode("né", Charset::US_ASCII).unwrap_err().offset(), 1);
/// ```
#[inline]
pub fn try_encode(text: &str, charset: impl Into<Charset>) -> Result<Vec<u8>, Unmappable> {
    encode_strict(text, charset.into(), Kernels::detect())
}

/// The engine behind [`try_encode`].
fn encode_strict(text: &str, charset: Charset, kernels: Kernels) -> Result<Vec<u8>, Unmappable> {
    to_vec(|out| encode_into(text, charset, false, Policy::Strict, kernels, out))
        .map_err(|offset| Unmappable::at(text, offset, charset))
}

/// Encodes UTF-16 `units` into `charset`, or reports the first unpaired surrogate or char it
/// cannot represent.
///
/// # Errors
///
/// [`UnmappableUtf16`] with the code point (or the unpaired surrogate) and its index in
/// `units`; nothing partial is returned. Every charset fails on an unpaired surrogate.
///
/// # Examples
///
/// ```
/// use wirebytes_charset::try_encode_utf16;
///
/// let units: Vec<u16> = "Grüße".encode_utf16().collect();
/// assert_eq!(try_encode_utf16(&units, encoding_rs::WINDOWS_1252).unwrap(), b"Gr\xFC\xDFe");
/// assert_eq!(try_encode_utf16(&[0x41, 0xDC00], encoding_rs::UTF_8).unwrap_err().offset(), 1);
/// ```
pub fn try_encode_utf16(
    units: &[u16],
    charset: impl Into<Charset>,
) -> Result<Vec<u8>, UnmappableUtf16> {
    let charset = charset.into();
    to_vec(|out| encode_units_into(units, charset, false, Policy::Strict, out))
        .map_err(|offset| UnmappableUtf16::at(units, offset, charset))
}
