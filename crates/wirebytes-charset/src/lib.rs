//! Encodes a text body into any charset the JDK can encode with one byte per char or of the
//! Unicode family, with the JDK's own tables (the bytes `String.getBytes(charset)` writes), or
//! into any WHATWG encoding (encoding_rs's): as an exact-size `Vec<u8>` or straight into the
//! caller's buffer, with the JDK's or the WHATWG replacement, byte-identical to a slow
//! streaming reference and faster than encoding_rs itself.
//!
//! ```
//! use wirebytes_charset::{Charset, Replacement};
//!
//! let charset = Charset::for_content_type(b"text/plain; charset=windows-1251").unwrap();
//! let body = charset.encode("Привет, мир! 😀", Replacement::Jdk);
//! assert_eq!(body, b"\xCF\xF0\xE8\xE2\xE5\xF2, \xEC\xE8\xF0! ?");
//! assert_eq!(body.capacity(), body.len()); // the retained body is exact-size
//!
//! let web = charset.encode("Привет 😀", Replacement::Whatwg);
//! assert_eq!(web, b"\xCF\xF0\xE8\xE2\xE5\xF2 &#128512;");
//!
//! // A mainframe's EBCDIC, by the JDK's name, with the JDK's table.
//! let ebcdic = Charset::for_java_name("Cp1047").unwrap();
//! assert_eq!(ebcdic.encode("[Hi!]", Replacement::Jdk), b"\xAD\xC8\x89\x5A\xBD");
//! ```
//!
//! # Charsets: two families, never mixed up
//!
//! - **The JDK's charsets**, by the JDK's names and aliases ([`Charset::for_java_name`],
//!   `Charset.forName`; listed by [`Charset::java_charsets`]): every charset JDK 17 can
//!   encode with one byte per char (104: ISO-8859-*, windows-125x, the DOS and Mac code pages,
//!   EBCDIC, KOI8, TIS-620, JIS_X0201, ...) and the 11 of the Unicode family (UTF-8, UTF-16 and
//!   UTF-32 with and without a BOM, CESU-8), each with the JDK's own mapping, dumped from the
//!   JDK: the bytes equal `String.getBytes(charset)` for every input. With the feature
//!   `jdk-multi-byte` (on by default) also the JDK's 56 multi-byte charsets: Shift_JIS,
//!   windows-31j, EUC-JP, Big5, GBK, GB18030 (the 2022 mapping; `gb18030-2000` for the
//!   2005 one), EUC-KR, the IBM DBCS pages, and the stateful ISO-2022 family and EBCDIC DBCS
//!   pages with the JDK's escapes, shifts and replacements. Without the feature
//!   `for_java_name` gives `None` for those, never a WHATWG stand-in.
//!   `StandardCharsets` are constants ([`Charset::ISO_8859_1`], true Latin-1;
//!   [`Charset::US_ASCII`]; [`Charset::UTF_16`], BOM `FE FF` then big-endian; the UTF-32
//!   ones).
//! - **The WHATWG encodings** (encoding_rs's 40), by an encoding_rs `&'static Encoding`
//!   (`Charset::from`) or a WHATWG label ([`Charset::for_label`],
//!   [`Charset::for_content_type`]; listed by [`Charset::whatwg_charsets`]), with the WHATWG
//!   Encoding Standard's tables: the bytes equal `Encoding::encode`'s.
//!
//! Where the two tables differ (the JDK's windows-1252 has no U+0081, its KOI8-U no Ў, ...)
//! the two are different values; UTF-8, UTF-16BE and UTF-16LE write the same bytes in both
//! and are one value each. [`Charset::name`] is the JDK's canonical name for the one, the
//! WHATWG name for the other; [`Charset::is_java`] tells them apart.
//!
//! ```
//! use wirebytes_charset::{Charset, Replacement};
//!
//! let latin1 = Charset::for_java_name("ISO8859_1").unwrap();
//! assert_eq!(latin1.encode("café €", Replacement::Jdk), b"caf\xE9 ?");
//! let utf16 = Charset::for_java_name("UnicodeBig").unwrap();
//! assert_eq!(utf16.encode_from_utf16(&[0x68, 0xD800], Replacement::Jdk), b"\xFE\xFF\0h\xFF\xFD");
//! assert_eq!(utf16.encode("", Replacement::Jdk), b""); // no BOM for an empty string
//!
//! let jdk = Charset::for_java_name("windows-1252").unwrap();
//! let web = Charset::for_label(b"windows-1252").unwrap();
//! assert_eq!(jdk.encode("\u{81}€", Replacement::Jdk), b"?\x80");
//! assert_eq!(web.encode("\u{81}€", Replacement::Jdk), b"\x81\x80");
//! ```
//!
//! # Where the output goes
//!
//! The encode functions are [`Charset`]'s methods; the suffix says where the bytes go, as in
//! every wirebytes crate:
//!
//! | form | `&str` input | UTF-16 input (`&[u16]`) |
//! |---|---|---|
//! | a new exact-size `Vec` | [`encode`](Charset::encode) | [`encode_from_utf16`](Charset::encode_from_utf16) |
//! | appended to a `Vec` (one reservation, no zero-fill) | [`encode_to_vec`](Charset::encode_to_vec) | [`encode_from_utf16_to_vec`](Charset::encode_from_utf16_to_vec) |
//! | into a `&mut [u8]` (`None` if it does not fit) | [`encode_to_slice`](Charset::encode_to_slice) | [`encode_from_utf16_to_slice`](Charset::encode_from_utf16_to_slice) |
//! | into a `bytes::BufMut` (feature `bytes`) | `encode_to_buf` | `encode_from_utf16_to_buf` |
//! | the exact length, no allocation | [`encoded_len`](Charset::encoded_len) | [`encoded_len_from_utf16`](Charset::encoded_len_from_utf16) |
//! | the most it can be | [`max_encoded_len`](Charset::max_encoded_len) | [`max_encoded_len_from_utf16`](Charset::max_encoded_len_from_utf16) |
//! | strict: an error for an unmappable char | [`try_encode`](Charset::try_encode) | [`try_encode_from_utf16`](Charset::try_encode_from_utf16) |
//!
//! The streaming [`Encoder`] ([`Charset::new_encoder`]) takes the text chunk by chunk (`&str`
//! or UTF-16; a chunk may end inside a surrogate pair) and writes, over any split, the bytes
//! of [`encode`](Charset::encode) of the whole: appended to a `Vec`, or into slices in
//! encoding_rs's form (`(CoderResult, read, written, replaced)`). An [`EncodingWriter`]
//! ([`Charset::new_writer`]) puts one in front of any [`std::io::Write`]: text in through
//! [`std::fmt::Write`], the charset's bytes out.
//!
//! ```
//! use wirebytes_charset::{Charset, Replacement};
//!
//! let sjis = Charset::from(encoding_rs::SHIFT_JIS);
//! let mut request = b"POST / HTTP/1.1\r\n\r\n".to_vec();
//! let len = sjis.encoded_len("日本語 ok", Replacement::Jdk);
//! sjis.encode_to_vec("日本語 ok", Replacement::Jdk, &mut request);
//! assert_eq!(len, 9);
//! assert!(request.ends_with(b"\x93\xFA\x96\x7B\x8C\xEA ok"));
//!
//! let mut frame = [0u8; 16];
//! let n = sjis.encode_to_slice("日本語", Replacement::Jdk, &mut frame).unwrap();
//! assert_eq!(&frame[..n], b"\x93\xFA\x96\x7B\x8C\xEA");
//! assert_eq!(sjis.encode_to_slice("日本語", Replacement::Jdk, &mut frame[..5]), None);
//!
//! let mut encoder = sjis.new_encoder(Replacement::Jdk);
//! let mut body = Vec::new();
//! encoder.encode_to_vec("日本", false, &mut body);
//! encoder.encode_to_vec("語 ok", true, &mut body);
//! assert_eq!(body, sjis.encode("日本語 ok", Replacement::Jdk));
//! ```
//!
//! # What is written
//!
//! Every function returns the same bytes as the crate's reference, the slow path that feeds
//! one char at a time through an encoding_rs encoder or looks it up in the JDK's data; the
//! fast paths differ only in speed and in the shape of the allocation. [`Replacement`] says
//! what to write where a char cannot be encoded:
//!
//! - [`Replacement::Jdk`]: what Java's `String.getBytes(charset)` writes: the charset's
//!   replacement bytes (`?`, `3F`, in every single-byte charset of the JDK, EBCDIC ones
//!   included) for an unmappable char (one for a supplementary char) and for an unpaired
//!   surrogate; U+FFFD for the UTF-16 and UTF-32 targets (`FF FD`, `00 00 FF FD`, in the
//!   charset's byte order). For the JDK's charsets this is the JDK's output exactly (checked
//!   against a JDK 17 by the `charset` sweep, every char of every charset). For a WHATWG
//!   encoding it is the JDK's policy on the WHATWG table; in **ISO-2022-JP** the JDK's
//!   replacement is U+FF1F FULLWIDTH QUESTION MARK (JIS X 0208 `21 29`, entered with `ESC $
//!   B` unless already in JIS X 0208), and for an unpaired surrogate the JDK writes the two
//!   bytes `21 29` in whatever state it is in (`!)` in the ASCII state): this crate writes
//!   exactly that too.
//! - [`Replacement::Whatwg`]: what encoding_rs and browsers write: an unpaired surrogate is
//!   U+FFFD, an unmappable char is the decimal character reference `&#N;`. The bytes equal
//!   [`Encoding::encode`]'s for every WHATWG encoding **except UTF-16LE and UTF-16BE**, which
//!   are written as UTF-16, what a body in those encodings needs (without a BOM; see
//!   [`Charset::encode_with_bom`]), where `Encoding::encode` writes UTF-8 (the output
//!   encoding). The `replacement` encoding is written as UTF-8, like `output_encoding()`, so
//!   it agrees with `Encoding::encode`.
//! - ISO-2022-JP output always ends in the ASCII state.
//!
//! # Allocation and size
//!
//! The `Vec` that [`encode`](Charset::encode) returns has `capacity() == len()` and is
//! allocated once, at its final size: the size comes from a cheap count (UTF-8, UTF-16,
//! UTF-32, CESU-8, single-byte with the JDK policy or without unmappable chars), or the bytes
//! are written into a per-thread scratch buffer that is reused from call to call and then
//! copied once (the CJK encodings). With [`Replacement::Whatwg`], a single-byte target that
//! meets an unmappable char grows the output once to its exact final size. The `_to_slice`
//! and `_to_buf` forms count nothing first: they write as they go.
//!
//! The single-byte charsets and the stateless CJK encodings encode through tables built on
//! first use: about 20 KiB per single-byte charset, 50-74 KiB per CJK encoding; nothing for a
//! charset never used. The JDK's data the single-byte tables are built from (each charset's
//! 256 bytes and one-way mappings, and the names and aliases of all 171 charsets) is about
//! 80 KiB of read-only data, generated from a JDK 17 by `cargo xtask jdk-tables` (no build
//! step needs Java). The JDK's multi-byte charsets read their codes where they lie, in
//! 1,100,848 bytes of blocks shared by all of them (at most 126 KiB for one charset), with
//! nothing built, decompressed or allocated; the packaged crate is about 0.9 MiB.
//!
//! # Crate features
//!
//! - `jdk-multi-byte`: the JDK's multi-byte charsets and their 1.05 MiB of tables. On by
//!   default.
//! - `bytes`: `encode_to_buf` and `encode_from_utf16_to_buf`, into any `bytes::BufMut`.
//!   Off by default.
//! - `fast-legacy-encode`: turns on encoding_rs's `fast-legacy-encode` (larger encode tables
//!   for the CJK encodings, used here for ISO-2022-JP and the chars without an entry in this
//!   crate's own tables, at the cost of binary size). Off by default.
#![cfg_attr(docsrs, feature(doc_cfg))]
// `unsafe` is denied except in `arch` (the SIMD kernels), `chunks` and `sink` (a `Vec`'s
// spare capacity written in place).
#![deny(unsafe_code)]
// The `_with` forms that take a kernel level and the kernels' level list serve the hidden
// `levels` door alone: without `__internal` nothing calls them.
#![cfg_attr(
    not(feature = "__internal"),
    allow(dead_code, reason = "what only the hidden `levels` door calls")
)]

#[allow(
    unsafe_code,
    reason = "calls into `#[target_feature]` kernels once the CPU is known to have them"
)]
mod arch;
mod ascii_prefix;
mod byte_map;
mod charset;
#[cfg(wirebytes_x86_kernels)]
#[allow(
    unsafe_code,
    reason = "slices viewed as arrays of a fixed length, from a pointer cast"
)]
mod chunks;
mod cjk;
mod counters;
mod counting;
mod encode;
mod encoder;
mod encodings;
mod engine;
mod error;
mod from_utf16;
mod jdk;
mod jdk_multi_byte;
mod latin1;
#[cfg(feature = "__internal")]
#[doc(hidden)]
pub mod levels;
mod multi_byte;
mod ncr;
#[cfg(feature = "__internal")]
#[doc(hidden)]
pub mod reference;
mod single_byte;
#[allow(
    unsafe_code,
    reason = "a `Vec`'s spare capacity written without zeroing it first, then its length set"
)]
mod sink;
mod swar;
mod unicode;
mod us_ascii;
mod writer;

pub use charset::{Charset, UnknownCharset};
pub use encoder::Encoder;
pub use encoding_rs::{CoderResult, Encoding};
pub use error::{Unmappable, UnmappableUtf16};
pub use writer::EncodingWriter;

/// The README's example runs as a doctest too.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

/// What to write for a char the target encoding cannot represent, and for an unpaired
/// surrogate in UTF-16 input.
///
/// # Examples
///
/// ```
/// use wirebytes_charset::{Charset, Replacement};
///
/// let latin2 = Charset::from(encoding_rs::ISO_8859_2);
/// assert_eq!(latin2.encode("a€", Replacement::Jdk), b"a?");
/// assert_eq!(latin2.encode("a€", Replacement::Whatwg), b"a&#8364;");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
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
    /// Stop: [`Charset::try_encode`].
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
