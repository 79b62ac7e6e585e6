//! The error types: [`DecodeError`] for bodies the JDK would not decode, [`LengthError`] for
//! lengths that do not fit the record's length field or the caller's limit.

use core::fmt;

/// What is wrong with a modified UTF-8 body; see [`DecodeError::kind`].
///
/// # Examples
///
/// ```
/// use wirebytes_mutf8::{decode, DecodeErrorKind};
///
/// assert_eq!(decode(b"\x80").unwrap_err().kind(), DecodeErrorKind::Malformed);
/// assert_eq!(decode(b"\xe2\x82").unwrap_err().kind(), DecodeErrorKind::Truncated);
/// assert_eq!(decode(b"\xed\xa0\x80").unwrap_err().kind(), DecodeErrorKind::UnpairedSurrogate);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DecodeErrorKind {
    /// A byte that cannot start a sequence (`80`..`BF`, `F0`..`FF`), or a 2- or 3-byte
    /// sequence with a byte that is not a continuation byte (`10xxxxxx`). The JDK throws
    /// `UTFDataFormatException("malformed input around byte N")`.
    Malformed,
    /// The last sequence runs past the end of the body. The JDK throws
    /// `UTFDataFormatException("malformed input: partial character at end")`; it checks this
    /// before it looks at the continuation bytes, so `E2 41` at the end is truncated too.
    Truncated,
    /// The JDK accepts the body, but it holds a surrogate that is not part of a high-low pair,
    /// which a Rust `str` cannot hold. Only [`decode`](crate::decode()) (and the readers that
    /// return a `String`) report it; [`decode_utf16`](crate::decode_utf16) returns the lone
    /// surrogate and [`decode_lossy`](crate::decode_lossy) replaces it with U+FFFD.
    UnpairedSurrogate,
}

/// A modified UTF-8 body that cannot be decoded: where, and why.
///
/// [`valid_up_to`](DecodeError::valid_up_to) follows `core::str::Utf8Error`: it is the index
/// of the first byte of the offending sequence. The JDK reports a different index in its
/// message, which [`jdk_position`](DecodeError::jdk_position) gives back:
///
/// | kind | `valid_up_to()` | JDK message | `jdk_position()` |
/// |---|---|---|---|
/// | bad lead byte at `i` | `i` | `malformed input around byte i` | `Some(i)` |
/// | bad continuation after a lead at `i` | `i` | `malformed input around byte i + 2` | `Some(i + 2)` |
/// | sequence at `i` runs past the end | `i` | `malformed input: partial character at end` | `None` |
/// | lone surrogate at `i` (JDK accepts) | `i` | (none) | `None` |
///
/// Indices count from the start of the body (after the length field of a record), as the
/// JDK's do.
///
/// When [`kind`](DecodeError::kind) is `Malformed` or `Truncated`, this is exactly the error
/// the JDK's `readUTF` throws for the same body (its first error), and the bytes before
/// `valid_up_to` are accepted by the JDK (they may still hold lone surrogates). When it is
/// `UnpairedSurrogate`, the JDK accepts the whole body and the bytes before `valid_up_to`
/// decode to a `str`.
///
/// # Examples
///
/// ```
/// use wirebytes_mutf8::{decode, DecodeErrorKind};
///
/// // `C2 41`: the continuation byte is missing. The JDK says "around byte 4".
/// let err = decode(b"ab\xc2\x41c").unwrap_err();
/// assert_eq!(err.valid_up_to(), 2);
/// assert_eq!(err.jdk_position(), Some(4));
/// assert_eq!(err.to_string(), "malformed modified UTF-8 sequence at byte 2 (the JDK: malformed input around byte 4)");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DecodeError {
    valid_up_to: usize,
    jdk_position: usize,
    kind: DecodeErrorKind,
}

impl DecodeError {
    /// A bad lead byte at `at`.
    pub(crate) const fn bad_lead(at: usize) -> Self {
        DecodeError {
            valid_up_to: at,
            jdk_position: at,
            kind: DecodeErrorKind::Malformed,
        }
    }

    /// A 2- or 3-byte sequence starting at `at` with a bad continuation byte.
    pub(crate) const fn bad_continuation(at: usize) -> Self {
        DecodeError {
            valid_up_to: at,
            jdk_position: at + 2,
            kind: DecodeErrorKind::Malformed,
        }
    }

    /// A sequence starting at `at` that runs past the end.
    pub(crate) const fn truncated(at: usize) -> Self {
        DecodeError {
            valid_up_to: at,
            jdk_position: at,
            kind: DecodeErrorKind::Truncated,
        }
    }

    /// A lone surrogate encoded at `at`.
    pub(crate) const fn unpaired_surrogate(at: usize) -> Self {
        DecodeError {
            valid_up_to: at,
            jdk_position: at,
            kind: DecodeErrorKind::UnpairedSurrogate,
        }
    }

    /// The index of the first byte of the offending sequence (`core::str::Utf8Error`'s
    /// convention).
    ///
    /// # Examples
    ///
    /// ```
    /// let err = wirebytes_mutf8::decode(b"abc\xff").unwrap_err();
    /// assert_eq!(err.valid_up_to(), 3);
    /// ```
    #[must_use]
    pub const fn valid_up_to(&self) -> usize {
        self.valid_up_to
    }

    /// What is wrong.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_mutf8::{decode, DecodeErrorKind};
    ///
    /// assert_eq!(decode(b"abc\xc0").unwrap_err().kind(), DecodeErrorKind::Truncated);
    /// ```
    #[must_use]
    pub const fn kind(&self) -> DecodeErrorKind {
        self.kind
    }

    /// The `N` of the JDK's message "malformed input around byte N" for a `Malformed` body:
    /// the lead's index for a bad lead byte, the lead's index + 2 for a bad continuation byte
    /// (in a 3-byte sequence, whichever of the two is bad). `None` for the other kinds, whose
    /// JDK messages (if any) carry no index.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_mutf8::decode;
    ///
    /// assert_eq!(decode(b"abc\xff").unwrap_err().jdk_position(), Some(3));
    /// assert_eq!(decode(b"abc\xe2\x41\x82").unwrap_err().jdk_position(), Some(5));
    /// assert_eq!(decode(b"abc\xe2\x82").unwrap_err().jdk_position(), None);
    /// ```
    #[must_use]
    pub const fn jdk_position(&self) -> Option<usize> {
        match self.kind {
            DecodeErrorKind::Malformed => Some(self.jdk_position),
            DecodeErrorKind::Truncated | DecodeErrorKind::UnpairedSurrogate => None,
        }
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            DecodeErrorKind::Malformed => write!(
                f,
                "malformed modified UTF-8 sequence at byte {} \
                 (the JDK: malformed input around byte {})",
                self.valid_up_to, self.jdk_position
            ),
            DecodeErrorKind::Truncated => write!(
                f,
                "incomplete modified UTF-8 sequence at byte {} \
                 (the JDK: malformed input: partial character at end)",
                self.valid_up_to
            ),
            DecodeErrorKind::UnpairedSurrogate => write!(
                f,
                "unpaired surrogate at byte {}: not representable in a str",
                self.valid_up_to
            ),
        }
    }
}

impl core::error::Error for DecodeError {}

/// A body length that does not fit: over 65535 bytes for `writeUTF`'s 2-byte length field,
/// or over the limit the caller set for reading a long string.
///
/// # Examples
///
/// ```
/// # #[cfg(feature = "std")] {
/// let text = "€".repeat(30_000); // 90,000 bytes of modified UTF-8
/// let mut out = Vec::new();
/// let err = wirebytes_mutf8::write_utf(&mut out, &text).unwrap_err();
/// assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput);
/// assert!(out.is_empty());
/// let inner = err.get_ref().unwrap().downcast_ref::<wirebytes_mutf8::LengthError>().unwrap();
/// assert_eq!((inner.length(), inner.limit()), (90_000, 65_535));
/// # }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LengthError {
    len: u64,
    max: u64,
}

impl LengthError {
    #[cfg(any(feature = "std", feature = "bytes"))]
    pub(crate) const fn new(len: u64, max: u64) -> Self {
        LengthError { len, max }
    }

    /// The body length that was refused, in bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// # #[cfg(feature = "std")] {
    /// let err = wirebytes_mutf8::read_long_utf(&mut &[0, 0, 0, 0, 0, 0, 1, 0][..], 100).unwrap_err();
    /// let inner = err.get_ref().unwrap().downcast_ref::<wirebytes_mutf8::LengthError>().unwrap();
    /// assert_eq!(inner.length(), 256);
    /// # }
    /// ```
    #[must_use]
    pub const fn length(&self) -> u64 {
        self.len
    }

    /// The largest length that was allowed.
    ///
    /// # Examples
    ///
    /// ```
    /// # #[cfg(feature = "std")] {
    /// let err = wirebytes_mutf8::read_long_utf(&mut &[0, 0, 0, 0, 0, 0, 1, 0][..], 100).unwrap_err();
    /// let inner = err.get_ref().unwrap().downcast_ref::<wirebytes_mutf8::LengthError>().unwrap();
    /// assert_eq!(inner.limit(), 100);
    /// # }
    /// ```
    #[must_use]
    pub const fn limit(&self) -> u64 {
        self.max
    }
}

impl fmt::Display for LengthError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "modified UTF-8 body of {} bytes exceeds the limit of {} bytes",
            self.len, self.max
        )
    }
}

impl core::error::Error for LengthError {}
