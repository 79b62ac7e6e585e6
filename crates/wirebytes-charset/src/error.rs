//! The errors of the strict functions: a char the charset cannot represent, and where.

use std::fmt;

use encoding_rs::Encoding;

use crate::Charset;

/// The error of [`Charset::try_encode`]: a char the charset cannot represent, and where it is.
///
/// # Examples
///
/// ```
/// use wirebytes_charset::Charset;
///
/// let err = Charset::from(encoding_rs::KOI8_R).try_encode("naïve €").unwrap_err();
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
    pub(crate) fn at(text: &str, offset: usize, charset: Charset) -> Unmappable {
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
    /// let err = wirebytes_charset::Charset::from(encoding_rs::BIG5).try_encode("x😀").unwrap_err();
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
    /// let err = wirebytes_charset::Charset::from(encoding_rs::ISO_8859_5).try_encode("ab€").unwrap_err();
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
    /// use wirebytes_charset::Charset;
    ///
    /// let err = Charset::ISO_8859_1.try_encode("€").unwrap_err();
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
    /// let err = wirebytes_charset::Charset::from(encoding_rs::ISO_8859_5).try_encode("€").unwrap_err();
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

/// The error of [`Charset::try_encode_from_utf16`]: an unpaired surrogate, or a char the charset cannot
/// represent, and its index in the UTF-16 input.
///
/// # Examples
///
/// ```
/// use wirebytes_charset::Charset;
///
/// let err = Charset::UTF_16.try_encode_from_utf16(&[0x61, 0xD800, 0x62]).unwrap_err();
/// assert_eq!((err.offset(), err.code_point(), err.ch()), (1, 0xD800, None));
/// assert_eq!(err.to_string(), "unpaired surrogate U+D800 at unit 1 cannot be encoded in UTF-16");
///
/// let err = Charset::ISO_8859_1.try_encode_from_utf16(&[0x61, 0x20AC]).unwrap_err();
/// assert_eq!((err.offset(), err.ch()), (1, Some('€')));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct UnmappableUtf16 {
    code_point: u32,
    offset: usize,
    charset: Charset,
}

impl UnmappableUtf16 {
    pub(crate) fn at(units: &[u16], offset: usize, charset: Charset) -> UnmappableUtf16 {
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
    /// let err = wirebytes_charset::Charset::from(encoding_rs::BIG5).try_encode_from_utf16(&[0xD83D, 0xDE00]).unwrap_err();
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
    /// let err = wirebytes_charset::Charset::from(encoding_rs::UTF_8).try_encode_from_utf16(&[0xDC00]).unwrap_err();
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
    /// let err = wirebytes_charset::Charset::from(encoding_rs::KOI8_R).try_encode_from_utf16(&[0x41, 0x20AC]).unwrap_err();
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
    /// use wirebytes_charset::Charset;
    ///
    /// let err = Charset::US_ASCII.try_encode_from_utf16(&[0xE9]).unwrap_err();
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
