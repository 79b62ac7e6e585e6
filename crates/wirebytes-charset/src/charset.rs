//! [`Charset`]: what to encode into, by the JDK's name or by a WHATWG label; its name, BOM
//! and encoding_rs encoding. The encode functions are its methods (`crate::encode`).

use std::fmt;
use std::str::FromStr;

use encoding_rs::Encoding;

use crate::encodings::{self, ALL};
use crate::java_names::JAVA_NAMES;

/// A charset to encode into: any encoding_rs [`Encoding`] (the WHATWG Encoding Standard's
/// encodings), or one of the JDK's own charsets that encoding_rs does not have
/// ([`ISO_8859_1`](Self::ISO_8859_1), [`US_ASCII`](Self::US_ASCII), [`UTF_16`](Self::UTF_16),
/// [`UTF_32`](Self::UTF_32), [`UTF_32BE`](Self::UTF_32BE), [`UTF_32LE`](Self::UTF_32LE)).
///
/// Found by the JDK's names ([`for_java_name`](Self::for_java_name), also
/// [`FromStr`]), by WHATWG labels ([`for_label`](Self::for_label),
/// [`for_content_type`](Self::for_content_type)), or made from an encoding_rs
/// `&'static Encoding` with `From`. The encode functions are its methods:
/// [`encode`](Self::encode) and its forms.
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
    Encoding(&'static Encoding),
    Jdk(JdkOnly),
}

/// The JDK's charsets that encoding_rs lacks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum JdkOnly {
    Iso8859_1,
    UsAscii,
    Utf16,
    Utf32,
    Utf32Be,
    Utf32Le,
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
    pub const US_ASCII: Charset = Charset(Inner::Jdk(JdkOnly::UsAscii));
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
    pub const ISO_8859_1: Charset = Charset(Inner::Jdk(JdkOnly::Iso8859_1));
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
    pub const UTF_16: Charset = Charset(Inner::Jdk(JdkOnly::Utf16));
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
    pub const UTF_32: Charset = Charset(Inner::Jdk(JdkOnly::Utf32));
    /// The JDK's "UTF-32BE": big-endian UTF-32 (the same bytes as [`UTF_32`](Self::UTF_32)).
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_charset::{Charset, Replacement};
    ///
    /// assert_eq!(Charset::UTF_32BE.encode("a", Replacement::Jdk), b"\0\0\0a");
    /// ```
    pub const UTF_32BE: Charset = Charset(Inner::Jdk(JdkOnly::Utf32Be));
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
    pub const UTF_32LE: Charset = Charset(Inner::Jdk(JdkOnly::Utf32Le));

    /// The charset of an encoding_rs encoding (what `From` does, in a `const`).
    pub(crate) const fn from_encoding(encoding: &'static Encoding) -> Charset {
        Charset(Inner::Encoding(encoding))
    }

    /// The charset the JDK's `Charset.forName(name)` gives, if this crate supports it: the
    /// JDK's canonical names and every alias its `aliases()` lists, ASCII case-insensitive
    /// (no whitespace is trimmed, as in the JDK). `None` for a name the JDK does not know or
    /// a charset this crate lacks (e.g. `windows-31j`, `x-IBM930`); never a guess.
    ///
    /// A JDK charset that has an encoding_rs counterpart of the same name resolves to that
    /// encoding (`Shift_JIS`, `Big5`, `windows-1252`, `x-MacRoman` → macintosh, ...), which
    /// encodes by encoding_rs's (WHATWG) table: for some chars that table differs from the
    /// JDK's (see the [crate docs](crate#what-is-written)).
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_charset::Charset;
    ///
    /// assert_eq!(Charset::for_java_name("cp819"), Some(Charset::ISO_8859_1));
    /// assert_eq!(Charset::for_java_name("ISO8859_1"), Some(Charset::ISO_8859_1));
    /// assert_eq!(Charset::for_java_name("UnicodeBig"), Some(Charset::UTF_16));
    /// assert_eq!(Charset::for_java_name("sjis"), Some(encoding_rs::SHIFT_JIS.into()));
    /// assert_eq!(Charset::for_java_name("no-such-charset"), None);
    /// assert_eq!(Charset::for_java_name(" utf-8"), None);
    /// ```
    #[must_use]
    pub fn for_java_name(name: &str) -> Option<Charset> {
        JAVA_NAMES.iter().find_map(|entry| {
            let hit = entry.canonical.eq_ignore_ascii_case(name)
                || entry.aliases.iter().any(|a| a.eq_ignore_ascii_case(name));
            hit.then_some(entry.charset)
        })
    }

    /// Every charset [`for_java_name`](Self::for_java_name) knows, once each, in the order
    /// of the JDK's canonical names' table.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_charset::Charset;
    ///
    /// assert!(Charset::java_charsets().any(|c| c == Charset::UTF_32LE));
    /// assert!(Charset::java_charsets().all(|c| Charset::for_java_name(c.name()) == Some(c)));
    /// ```
    pub fn java_charsets() -> impl ExactSizeIterator<Item = Charset> + Clone {
        JAVA_NAMES.iter().map(|entry| entry.charset)
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

    /// The JDK's canonical name of the charset (`Charset.name()`), or encoding_rs's name for
    /// an encoding the JDK does not have (ISO-8859-8-I, ISO-8859-10, ISO-8859-14,
    /// x-user-defined, replacement).
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_charset::Charset;
    ///
    /// assert_eq!(Charset::UTF_32LE.name(), "UTF-32LE");
    /// assert_eq!(Charset::from(encoding_rs::WINDOWS_874).name(), "x-windows-874");
    /// assert_eq!(Charset::from(encoding_rs::X_USER_DEFINED).name(), "x-user-defined");
    /// ```
    #[must_use]
    pub fn name(self) -> &'static str {
        match JAVA_NAMES.iter().find(|entry| entry.charset == self) {
            Some(entry) => entry.canonical,
            None => match self.0 {
                Inner::Encoding(encoding) => encoding.name(),
                // Every JDK-only charset has an entry (a test checks it).
                Inner::Jdk(_) => "",
            },
        }
    }

    /// The encoding_rs encoding, or `None` for the JDK-only charsets.
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

    pub(crate) fn jdk_only(self) -> Option<JdkOnly> {
        match self.0 {
            Inner::Encoding(_) => None,
            Inner::Jdk(jdk) => Some(jdk),
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
