//! [`Charset`]: what to encode into, by the JDK's name or by a WHATWG label; its name, BOM
//! and encoding_rs encoding. The encode functions are its methods (`crate::encode`).

use std::fmt;
use std::str::FromStr;

use encoding_rs::Encoding;

use crate::encodings::{self, ALL};
use crate::jdk::{self, CHARSETS, JdkKind};

/// A charset to encode into, from one of two families that are never mixed up:
///
/// - **the JDK's charsets**, with the JDK's own mappings (their bytes are what Java's
///   `String.getBytes(charset)` writes): found by the JDK's names and aliases
///   ([`for_java_name`](Self::for_java_name), also [`FromStr`]), listed by
///   [`java_charsets`](Self::java_charsets); the `StandardCharsets` are constants;
/// - **the WHATWG encodings**, with encoding_rs's mappings (their bytes are what
///   `Encoding::encode` writes): made from an encoding_rs `&'static Encoding` with `From`,
///   found by WHATWG labels ([`for_label`](Self::for_label),
///   [`for_content_type`](Self::for_content_type)), listed by
///   [`whatwg_charsets`](Self::whatwg_charsets).
///
/// UTF-8, UTF-16BE and UTF-16LE write the same bytes in both and are one value each. The
/// encode functions are its methods: [`encode`](Self::encode) and its forms.
///
/// # Examples
///
/// ```
/// use wirebytes_charset::{Charset, Replacement};
///
/// // The JDK's ISO-8859-1 is true Latin-1, where the WHATWG label "iso-8859-1" means
/// // windows-1252.
/// assert_eq!(Charset::ISO_8859_1.encode("€é", Replacement::Jdk), b"?\xE9");
/// let web = Charset::for_label(b"iso-8859-1").unwrap();
/// assert_eq!(web.name(), "windows-1252");
/// assert_eq!(web.encode("€é", Replacement::Jdk), b"\x80\xE9");
///
/// let latin1: Charset = "latin1".parse().unwrap();
/// assert_eq!(latin1, Charset::ISO_8859_1);
/// assert_eq!(latin1.to_string(), "ISO-8859-1");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Charset(Inner);

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Inner {
    /// A WHATWG encoding, with encoding_rs's tables (UTF-8 and UTF-16BE/LE are the JDK's too).
    Encoding(&'static Encoding),
    /// A JDK charset, with the JDK's tables: its index in [`jdk::CHARSETS`]. Only charsets
    /// this crate writes get one.
    Jdk(u16),
}

impl Charset {
    /// The JDK's US-ASCII (`StandardCharsets.US_ASCII`): U+0000..=U+007F, every other char a
    /// replacement.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_charset::{Charset, Replacement};
    ///
    /// assert_eq!(Charset::US_ASCII.encode("né", Replacement::Jdk), b"n?");
    /// assert_eq!(Charset::US_ASCII.encode("né", Replacement::Whatwg), b"n&#233;");
    /// ```
    pub const US_ASCII: Charset = Charset(Inner::Jdk(jdk::US_ASCII));
    /// The JDK's ISO-8859-1 (`StandardCharsets.ISO_8859_1`): true Latin-1, U+0000..=U+00FF
    /// as one byte each (the C1 controls included), every other char a replacement.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_charset::{Charset, Replacement};
    ///
    /// assert_eq!(Charset::ISO_8859_1.encode("\u{85}ÿ€😀", Replacement::Jdk), b"\x85\xFF??");
    /// ```
    pub const ISO_8859_1: Charset = Charset(Inner::Jdk(jdk::ISO_8859_1));
    /// UTF-8 (`StandardCharsets.UTF_8`, and encoding_rs's `UTF_8`).
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_charset::{Charset, Replacement};
    ///
    /// assert_eq!(Charset::UTF_8.encode("é", Replacement::Jdk), "é".as_bytes());
    /// assert_eq!(Charset::UTF_8, Charset::from(encoding_rs::UTF_8));
    /// ```
    pub const UTF_8: Charset = Charset(Inner::Encoding(&encoding_rs::UTF_8_INIT));
    /// Big-endian UTF-16 without a BOM (`StandardCharsets.UTF_16BE`, and encoding_rs's
    /// `UTF_16BE`, which this crate writes as UTF-16).
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_charset::{Charset, Replacement};
    ///
    /// assert_eq!(Charset::UTF_16BE.encode("hé", Replacement::Jdk), b"\0h\0\xE9");
    /// ```
    pub const UTF_16BE: Charset = Charset(Inner::Encoding(&encoding_rs::UTF_16BE_INIT));
    /// Little-endian UTF-16 without a BOM (`StandardCharsets.UTF_16LE`, and encoding_rs's
    /// `UTF_16LE`).
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_charset::{Charset, Replacement};
    ///
    /// assert_eq!(Charset::UTF_16LE.encode("hé", Replacement::Jdk), b"h\0\xE9\0");
    /// ```
    pub const UTF_16LE: Charset = Charset(Inner::Encoding(&encoding_rs::UTF_16LE_INIT));
    /// The JDK's "UTF-16" (`StandardCharsets.UTF_16`): the byte order mark `FE FF`, then
    /// big-endian UTF-16. Empty input gives empty output (no BOM); an unpaired surrogate is
    /// U+FFFD.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_charset::{Charset, Replacement};
    ///
    /// assert_eq!(Charset::UTF_16.encode("hi", Replacement::Jdk), b"\xFE\xFF\0h\0i");
    /// assert_eq!(Charset::UTF_16.encode("", Replacement::Jdk), b"");
    /// assert_eq!(Charset::UTF_16.encode_from_utf16(&[0xD800], Replacement::Jdk), b"\xFE\xFF\xFF\xFD");
    /// ```
    pub const UTF_16: Charset = Charset(Inner::Jdk(jdk::UTF_16));
    /// The JDK's "UTF-32": big-endian, without a byte order mark. An unpaired surrogate is
    /// U+FFFD.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_charset::{Charset, Replacement};
    ///
    /// assert_eq!(Charset::UTF_32.encode("a😀", Replacement::Jdk), b"\0\0\0a\0\x01\xF6\x00");
    /// ```
    pub const UTF_32: Charset = Charset(Inner::Jdk(jdk::UTF_32));
    /// The JDK's "UTF-32BE": big-endian UTF-32 (the same bytes as [`UTF_32`](Self::UTF_32)).
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_charset::{Charset, Replacement};
    ///
    /// assert_eq!(Charset::UTF_32BE.encode("a", Replacement::Jdk), b"\0\0\0a");
    /// ```
    pub const UTF_32BE: Charset = Charset(Inner::Jdk(jdk::UTF_32BE));
    /// The JDK's "UTF-32LE": little-endian UTF-32. An unpaired surrogate is U+FFFD, `FD FF 00
    /// 00`.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_charset::{Charset, Replacement};
    ///
    /// let units = [0x61, 0xDC00];
    /// assert_eq!(Charset::UTF_32LE.encode_from_utf16(&units, Replacement::Jdk), b"a\0\0\0\xFD\xFF\0\0");
    /// ```
    pub const UTF_32LE: Charset = Charset(Inner::Jdk(jdk::UTF_32LE));

    /// The charset the JDK's `Charset.forName(name)` gives, with the JDK's own mapping: its
    /// bytes are what `String.getBytes(charset)` writes. By the JDK's canonical names and
    /// every alias its `aliases()` lists, ASCII case-insensitive (no whitespace is trimmed, as
    /// in the JDK). Every one of the 171 charsets JDK 17 can encode is there, the stateful
    /// ones too (the ISO-2022 family, the EBCDIC DBCS code pages with shift-out and shift-in
    /// such as x-IBM930), with the JDK's escape sequences, shifts and replacements. `None` for
    /// a name the JDK does not know and, without the feature `jdk-multi-byte`, for the JDK's
    /// multi-byte charsets (Shift_JIS, Big5, EUC-JP, GBK, GB18030, x-IBM943, ISO-2022-JP,
    /// ...): never a WHATWG stand-in.
    ///
    /// The JDK's ISO-2022-KR and ISO-2022-CN end a text where it is (shifted out, if the last
    /// char was), as the JDK does; ISO-2022-JP returns to ASCII and the EBCDIC pages shift in.
    ///
    /// GB18030 is the JDK's default mapping, GB18030-2022 (the JDK's own default since the
    /// 2022 standard came into force; its alias `gb18030-2022`). The 2005 mapping, which the
    /// JDK gives under `-Djdk.charset.GB18030=2000`, is the name `gb18030-2000`: a different
    /// value, whose [`name`](Self::name) is also "GB18030".
    ///
    /// A JDK charset and the WHATWG encoding of the same name are different values (the
    /// JDK's windows-1252 writes U+0081 as `81`, encoding_rs's cannot); UTF-8, UTF-16BE and
    /// UTF-16LE, which write the same bytes in both, are one value each.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_charset::{Charset, Replacement};
    ///
    /// assert_eq!(Charset::for_java_name("cp819"), Some(Charset::ISO_8859_1));
    /// assert_eq!(Charset::for_java_name("UnicodeBig"), Some(Charset::UTF_16));
    /// assert_eq!(Charset::for_java_name("utf8"), Some(Charset::UTF_8));
    /// let ebcdic = Charset::for_java_name("cp037").unwrap();
    /// assert_eq!(ebcdic.name(), "IBM037");
    /// assert_eq!(ebcdic.encode("Hi!", Replacement::Jdk), b"\xC8\x89\x5A");
    /// let jdk_1252 = Charset::for_java_name("windows-1252").unwrap();
    /// assert_ne!(jdk_1252, Charset::from(encoding_rs::WINDOWS_1252));
    /// # #[cfg(feature = "jdk-multi-byte")] {
    /// let sjis = Charset::for_java_name("SJIS").unwrap(); // with the feature `jdk-multi-byte`
    /// assert_eq!(sjis.name(), "Shift_JIS");
    /// assert_eq!(sjis.encode("\u{2014}", Replacement::Jdk), b"\x81\x5C"); // WHATWG: none
    /// let jis = Charset::for_java_name("ISO-2022-JP").unwrap(); // stateful
    /// assert_eq!(jis.encode("a\u{3042}", Replacement::Jdk), b"a\x1B$B\x24\x22\x1B(B");
    /// # }
    /// assert_eq!(Charset::for_java_name("no-such-charset"), None);
    /// assert_eq!(Charset::for_java_name(" utf-8"), None);
    /// ```
    #[must_use]
    pub fn for_java_name(name: &str) -> Option<Charset> {
        Charset::from_jdk_index(jdk::index_of(name)?)
    }

    /// The charset of the JDK charset at `index` in [`jdk::CHARSETS`], if this crate writes
    /// it; UTF-8, UTF-16BE and UTF-16LE as the values they share with encoding_rs.
    fn from_jdk_index(index: u16) -> Option<Charset> {
        match CHARSETS.get(usize::from(index))?.kind {
            JdkKind::MultiByte(_) if !cfg!(feature = "jdk-multi-byte") => None,
            JdkKind::Utf8 => Some(Charset::UTF_8),
            JdkKind::Utf16 {
                big_endian: true,
                bom: false,
            } => Some(Charset::UTF_16BE),
            JdkKind::Utf16 {
                big_endian: false,
                bom: false,
            } => Some(Charset::UTF_16LE),
            _ => Some(Charset(Inner::Jdk(index))),
        }
    }

    /// Every charset [`for_java_name`](Self::for_java_name) gives, once each, in the order of
    /// the JDK's canonical names: all 171 the JDK can encode (without the feature
    /// `jdk-multi-byte`, the 115 of the Unicode family and the single-byte ones).
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_charset::Charset;
    ///
    /// assert!(Charset::java_charsets().any(|c| c == Charset::UTF_32LE));
    /// assert!(Charset::java_charsets().any(|c| c.name() == "IBM037"));
    /// assert!(Charset::java_charsets().all(|c| Charset::for_java_name(c.name()) == Some(c)));
    /// ```
    pub fn java_charsets() -> impl Iterator<Item = Charset> + Clone {
        (0..jdk::AVAILABLE)
            .filter_map(|index| Charset::from_jdk_index(u16::try_from(index).unwrap_or(u16::MAX)))
    }

    /// The charset a WHATWG label names, by the Encoding Standard's label table (ASCII
    /// case-insensitive, surrounding whitespace ignored): encoding_rs's
    /// [`Encoding::for_label`]. `None` for an unknown label.
    ///
    /// **WHATWG labels are not the JDK's (or IANA's) charset names.** `iso-8859-1`, `latin1`,
    /// `l1`, `us-ascii`, `ascii` and `cp1252` all mean **windows-1252** here (so U+20AC € is
    /// the byte 0x80, and the C1 controls are not all available); `utf-16` means UTF-16LE;
    /// labels such as `iso-2022-kr` and `hz-gb-2312` mean the `replacement` encoding (which
    /// this crate writes as UTF-8, like encoding_rs's `output_encoding`). For the JDK's
    /// meaning of a name, use [`for_java_name`](Self::for_java_name).
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_charset::Charset;
    ///
    /// assert_eq!(Charset::for_label(b" Latin1 "), Some(encoding_rs::WINDOWS_1252.into()));
    /// assert_eq!(Charset::for_label(b"US-ASCII"), Some(encoding_rs::WINDOWS_1252.into()));
    /// assert_eq!(Charset::for_label(b"shift_jis"), Some(encoding_rs::SHIFT_JIS.into()));
    /// assert_eq!(Charset::for_label(b"no-such-charset"), None);
    /// ```
    #[must_use]
    pub fn for_label(label: &[u8]) -> Option<Charset> {
        Encoding::for_label(label).map(Charset::from)
    }

    /// The charset named by the `charset` parameter of a `Content-Type` header value, e.g.
    /// `text/plain; charset="ISO-8859-2"`, as WHATWG label ([`for_label`](Self::for_label));
    /// `None` when there is no `charset` parameter or its label is unknown. The parameter
    /// name is case-insensitive, the value may be a token or a quoted string (with `\`
    /// escapes); the first `charset` parameter counts.
    ///
    /// **`charset=iso-8859-1` and `charset=us-ascii` give windows-1252**, as in browsers,
    /// not the JDK's ISO-8859-1 or US-ASCII.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_charset::Charset;
    ///
    /// let charset = Charset::for_content_type(b"text/html; charset=\"KOI8-R\"");
    /// assert_eq!(charset, Some(encoding_rs::KOI8_R.into()));
    /// let web = Charset::for_content_type(b"text/plain;CHARSET=iso-8859-1");
    /// assert_eq!(web, Some(encoding_rs::WINDOWS_1252.into()));
    /// assert_eq!(Charset::for_content_type(b"application/json"), None);
    /// ```
    #[must_use]
    pub fn for_content_type(value: &[u8]) -> Option<Charset> {
        let label = encodings::charset_parameter(value)?;
        Charset::for_label(&label)
    }

    /// Every WHATWG encoding (encoding_rs's 40), once each: every label resolves to one of
    /// them.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_charset::Charset;
    ///
    /// assert_eq!(Charset::whatwg_charsets().len(), 40);
    /// assert!(Charset::whatwg_charsets().all(|c| c.encoding().is_some()));
    /// ```
    pub fn whatwg_charsets() -> impl ExactSizeIterator<Item = Charset> + Clone {
        ALL.iter().map(|&encoding| Charset::from(encoding))
    }

    /// The charset's name: the JDK's canonical name (`Charset.name()`) for a JDK charset,
    /// encoding_rs's (the WHATWG Encoding Standard's) for a WHATWG encoding.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_charset::Charset;
    ///
    /// assert_eq!(Charset::UTF_32LE.name(), "UTF-32LE");
    /// assert_eq!(Charset::for_java_name("cp874").unwrap().name(), "x-IBM874");
    /// assert_eq!(Charset::from(encoding_rs::WINDOWS_874).name(), "windows-874");
    /// assert_eq!(Charset::UTF_8.name(), "UTF-8");
    /// ```
    #[must_use]
    pub fn name(self) -> &'static str {
        match self.0 {
            Inner::Encoding(encoding) => encoding.name(),
            Inner::Jdk(index) => CHARSETS
                .get(usize::from(index))
                .map_or("", |charset| charset.name),
        }
    }

    /// Whether this is a JDK charset, written with the JDK's tables (UTF-8, UTF-16BE and
    /// UTF-16LE are both).
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_charset::Charset;
    ///
    /// assert!(Charset::for_java_name("windows-1252").unwrap().is_java());
    /// assert!(!Charset::from(encoding_rs::WINDOWS_1252).is_java());
    /// assert!(Charset::UTF_8.is_java());
    /// ```
    #[must_use]
    pub fn is_java(self) -> bool {
        match self.0 {
            Inner::Jdk(_) => true,
            Inner::Encoding(_) => {
                self == Charset::UTF_8 || self == Charset::UTF_16BE || self == Charset::UTF_16LE
            }
        }
    }

    /// The encoding_rs encoding of a WHATWG charset (UTF-8 and UTF-16BE/LE included); `None`
    /// for the JDK's own.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_charset::Charset;
    ///
    /// assert_eq!(Charset::from(encoding_rs::KOI8_R).encoding(), Some(encoding_rs::KOI8_R));
    /// assert_eq!(Charset::ISO_8859_1.encoding(), None);
    /// ```
    #[must_use]
    pub fn encoding(self) -> Option<&'static Encoding> {
        match self.0 {
            Inner::Encoding(encoding) => Some(encoding),
            Inner::Jdk(_) => None,
        }
    }

    /// The byte order mark of the charset's output: `EF BB BF` for UTF-8, `FF FE` for
    /// UTF-16LE, `FE FF` for UTF-16BE, nothing for every other charset (legacy encodings
    /// have none; the JDK's UTF-16 writes its own in any case, and its UTF-32 charsets have
    /// none). What [`encode_with_bom`](Self::encode_with_bom) writes first.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_charset::Charset;
    ///
    /// assert_eq!(Charset::UTF_16LE.bom(), b"\xFF\xFE");
    /// assert_eq!(Charset::from(encoding_rs::WINDOWS_1252).bom(), b"");
    /// ```
    #[must_use]
    pub fn bom(self) -> &'static [u8] {
        if self == Charset::UTF_8 {
            b"\xEF\xBB\xBF"
        } else if self == Charset::UTF_16LE {
            b"\xFF\xFE"
        } else if self == Charset::UTF_16BE {
            b"\xFE\xFF"
        } else {
            b""
        }
    }

    /// The JDK's description of a JDK charset (`None` for a WHATWG encoding).
    pub(crate) fn jdk(self) -> Option<&'static jdk::JdkCharset> {
        match self.0 {
            Inner::Jdk(index) => CHARSETS.get(usize::from(index)),
            Inner::Encoding(_) => None,
        }
    }
}

impl From<&'static Encoding> for Charset {
    fn from(encoding: &'static Encoding) -> Self {
        Charset(Inner::Encoding(encoding))
    }
}

impl PartialEq<&'static Encoding> for Charset {
    fn eq(&self, other: &&'static Encoding) -> bool {
        self.encoding() == Some(*other)
    }
}

impl PartialEq<Charset> for &'static Encoding {
    fn eq(&self, other: &Charset) -> bool {
        other == self
    }
}

impl fmt::Debug for Charset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Charset({})", self.name())
    }
}

/// The JDK's canonical name ([`Charset::name`]).
impl fmt::Display for Charset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// By the JDK's names and aliases, as [`Charset::for_java_name`].
///
/// # Examples
///
/// ```
/// use wirebytes_charset::{Charset, UnknownCharset};
///
/// assert_eq!("UTF-32LE".parse(), Ok(Charset::UTF_32LE));
/// assert_eq!("nope".parse::<Charset>(), Err(UnknownCharset));
/// ```
impl FromStr for Charset {
    type Err = UnknownCharset;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        Charset::for_java_name(name).ok_or(UnknownCharset)
    }
}

/// The error of parsing a [`Charset`] from a name the JDK does not know, or for a charset
/// this crate does not have.
///
/// # Examples
///
/// ```
/// use wirebytes_charset::Charset;
///
/// let err = "x-no-such".parse::<Charset>().unwrap_err();
/// assert_eq!(err.to_string(), "unknown charset name");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct UnknownCharset;

impl fmt::Display for UnknownCharset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unknown charset name")
    }
}

impl std::error::Error for UnknownCharset {}
