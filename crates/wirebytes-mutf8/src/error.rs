//! The error types: [`DecodeError`] for bodies the JDK would not decode, [`LengthError`] for
//! lengths that do not fit the record's length field or the caller's limit, [`GetUtfError`]
//! for records read out of a buffer or a slice.

use core::fmt;

use crate::sequence::subpart_len;

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
    /// `UTFDataFormatException("malformed input around byte N")`. Under the class-file and
    /// CESU-8 rules, also what those rules add (a raw `00`, an overlong form).
    Malformed,
    /// The last sequence runs past the end of the body. The JDK throws
    /// `UTFDataFormatException("malformed input: partial character at end")`; it checks this
    /// before it looks at the continuation bytes, so `E2 41` at the end is truncated too.
    Truncated,
    /// The JDK accepts the body, but it holds a surrogate that is not part of a high-low pair,
    /// which a Rust `str` cannot hold. Only [`decode`](crate::decode()) (and the others that
    /// return a `str` or `String`) report it; [`decode_to_utf16`](crate::decode_to_utf16)
    /// returns the lone surrogate and [`decode_lossy`](crate::decode_lossy) replaces it with
    /// U+FFFD.
    UnpairedSurrogate,
}

/// A modified UTF-8 body that cannot be decoded: where, and why.
///
/// [`valid_up_to`](DecodeError::valid_up_to) and [`error_len`](DecodeError::error_len)
/// follow `core::str::Utf8Error`: the index of the first byte of the offending sequence, and
/// its length (`None` when the input ends inside it). The JDK reports a different index in
/// its message, which [`jdk_position`](DecodeError::jdk_position) gives back:
///
/// | kind | `valid_up_to()` | `error_len()` | JDK message | `jdk_position()` |
/// |---|---|---|---|---|
/// | bad lead byte at `i` | `i` | `Some(1)` | `malformed input around byte i` | `Some(i)` |
/// | bad continuation after a lead at `i` | `i` | `Some(1)` or `Some(2)` | `malformed input around byte i + 2` | `Some(i + 2)` |
/// | sequence at `i` runs past the end | `i` | `None` | `malformed input: partial character at end` | `None` |
/// | lone surrogate at `i` (JDK accepts) | `i` | `Some(3)` | (none) | `None` |
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
    /// The length of the offending sequence (0 for `Truncated`).
    len: u8,
}

impl DecodeError {
    /// A bad lead byte at `at` (a byte that starts no sequence under the rule).
    pub(crate) const fn bad_lead(at: usize) -> Self {
        DecodeError {
            valid_up_to: at,
            jdk_position: at,
            kind: DecodeErrorKind::Malformed,
            len: 1,
        }
    }

    /// `readUTF`'s rule: a 2- or 3-byte sequence starting at `bytes[at]` with a bad
    /// continuation byte; the JDK names the lead's index + 2.
    pub(crate) fn bad_continuation(bytes: &[u8], at: usize) -> Self {
        DecodeError {
            valid_up_to: at,
            jdk_position: at + 2,
            kind: DecodeErrorKind::Malformed,
            len: subpart_len(bytes, at),
        }
    }

    /// The class-file and CESU-8 rules: the sequence starting at `bytes[at]` is rejected;
    /// the error names its start.
    pub(crate) fn rejected(bytes: &[u8], at: usize) -> Self {
        DecodeError {
            valid_up_to: at,
            jdk_position: at,
            kind: DecodeErrorKind::Malformed,
            len: subpart_len(bytes, at),
        }
    }

    /// A sequence starting at `at` that runs past the end.
    pub(crate) const fn truncated(at: usize) -> Self {
        DecodeError {
            valid_up_to: at,
            jdk_position: at,
            kind: DecodeErrorKind::Truncated,
            len: 0,
        }
    }

    /// A lone surrogate encoded at `at` (3 bytes).
    pub(crate) const fn unpaired_surrogate(at: usize) -> Self {
        DecodeError {
            valid_up_to: at,
            jdk_position: at,
            kind: DecodeErrorKind::UnpairedSurrogate,
            len: 3,
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

    /// The length of the offending sequence that starts at
    /// [`valid_up_to`](DecodeError::valid_up_to), as `core::str::Utf8Error::error_len` gives
    /// it: `None` when the input ends inside that sequence
    /// ([`Truncated`](DecodeErrorKind::Truncated): more input may complete it), else the
    /// number of bytes to skip to go on after it.
    ///
    /// That is 3 for a lone surrogate; for a `Malformed` sequence, its lead and the
    /// continuation bytes that follow it, up to the length the lead announces (1 for a byte
    /// that starts no sequence). [`decode_lossy`](crate::decode_lossy) replaces exactly these
    /// bytes with one U+FFFD each time.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_mutf8::decode;
    ///
    /// assert_eq!(decode(b"ab\xff").unwrap_err().error_len(), Some(1));
    /// assert_eq!(decode(b"ab\xe2\x82\x41").unwrap_err().error_len(), Some(2));
    /// assert_eq!(decode(b"ab\xed\xa0\x80").unwrap_err().error_len(), Some(3)); // lone surrogate
    /// assert_eq!(decode(b"ab\xe2\x82").unwrap_err().error_len(), None); // cut by the end
    /// ```
    #[must_use]
    pub const fn error_len(&self) -> Option<usize> {
        match self.kind {
            DecodeErrorKind::Truncated => None,
            DecodeErrorKind::Malformed | DecodeErrorKind::UnpairedSurrogate => {
                Some(self.len as usize)
            }
        }
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

/// Why a record could not be read out of a buffer ([`get_utf`](crate::get_utf) and its
/// siblings, feature `bytes`) or a slice ([`take_utf`](crate::take_utf),
/// [`take_long_utf`](crate::take_long_utf)).
///
/// With the `std` feature it converts into an [`std::io::Error`] as the `std::io` readers
/// report the same failures: `Incomplete` as `UnexpectedEof`, `TooLong` and `Invalid` as
/// `InvalidData` with the [`LengthError`] or [`DecodeError`] inside.
///
/// # Examples
///
/// ```
/// use wirebytes_mutf8::{take_utf, GetUtfError};
///
/// let mut input: &[u8] = b"\x00\x05abc";
/// assert_eq!(take_utf(&mut input), Err(GetUtfError::Incomplete { needed: 7 }));
/// assert_eq!(input.len(), 5); // nothing consumed: read again when more bytes arrived
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum GetUtfError {
    /// The input ends inside the record, which is `needed` bytes long (length field
    /// included; for a length field that is itself incomplete, its own size). Nothing has
    /// been consumed and nothing allocated: read again when more bytes have arrived.
    ///
    /// The one exception is a buffer that shows its bytes a chunk at a time with the length
    /// field split between two chunks: see [`get_utf`](crate::get_utf).
    Incomplete {
        /// The record's full length in bytes.
        needed: u64,
    },
    /// The long form's length is above the caller's limit; nothing consumed, as for
    /// `Incomplete`.
    TooLong(LengthError),
    /// The body is not what the JDK accepts, or holds a lone surrogate where the result is a
    /// `str`. Out of a buffer, the whole record has been consumed (so that the next one can be
    /// read); out of a slice, nothing.
    Invalid(DecodeError),
}

impl fmt::Display for GetUtfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GetUtfError::Incomplete { needed } => {
                write!(f, "incomplete modified UTF-8 record: {needed} bytes needed")
            }
            GetUtfError::TooLong(err) => err.fmt(f),
            GetUtfError::Invalid(err) => err.fmt(f),
        }
    }
}

impl core::error::Error for GetUtfError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            GetUtfError::Incomplete { .. } => None,
            GetUtfError::TooLong(err) => Some(err),
            GetUtfError::Invalid(err) => Some(err),
        }
    }
}

/// As [`read_utf`](crate::read_utf) reports the same failures: an input that ends inside the
/// record is [`UnexpectedEof`](std::io::ErrorKind::UnexpectedEof) (with the `GetUtfError`
/// inside, for its `needed`), a length above the limit and a body the JDK rejects are
/// [`InvalidData`](std::io::ErrorKind::InvalidData) with the [`LengthError`] or the
/// [`DecodeError`] inside (reach it with `get_ref()` and `downcast_ref`).
///
/// # Examples
///
/// ```
/// use std::io::ErrorKind;
/// use wirebytes_mutf8::{take_utf, DecodeError};
///
/// let err = std::io::Error::from(take_utf(&mut &b"\x00\x02\xc2\x41"[..]).unwrap_err());
/// assert_eq!(err.kind(), ErrorKind::InvalidData);
/// let inner = err.get_ref().and_then(|e| e.downcast_ref::<DecodeError>()).unwrap();
/// assert_eq!(inner.jdk_position(), Some(2));
///
/// let err = std::io::Error::from(take_utf(&mut &b"\x00\x09abc"[..]).unwrap_err());
/// assert_eq!(err.kind(), ErrorKind::UnexpectedEof);
/// ```
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
impl From<GetUtfError> for std::io::Error {
    fn from(err: GetUtfError) -> std::io::Error {
        use std::io::{Error, ErrorKind};
        match err {
            GetUtfError::Incomplete { .. } => Error::new(ErrorKind::UnexpectedEof, err),
            GetUtfError::TooLong(inner) => Error::new(ErrorKind::InvalidData, inner),
            GetUtfError::Invalid(inner) => Error::new(ErrorKind::InvalidData, inner),
        }
    }
}
