//! tokio-util codecs for `readUTF`/`writeUTF` records (feature `tokio-util`): [`UtfCodec`]
//! frames them as `String`s, [`Utf16Codec`] as the JDK's chars, lone surrogates included.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;
use std::io;

use bytes::{Buf, BufMut, BytesMut};
use tokio_util::codec::{Decoder, Encoder};

use crate::arch::Kernels;
use crate::decode::decode_with;
use crate::encode::{Mutf8, put_str, put_units, str_len, units_len};
use crate::utf16::decode_to_utf16_with;
use crate::{DecodeError, GetUtfError, LengthError, MAX_UTF_LEN};

/// The body of the next record in `src` if it has wholly arrived (`Ok(None)` if not, with
/// room reserved for the rest), decoded with `decode` and then consumed.
///
/// A length above `max_len` is an [`io::ErrorKind::InvalidData`] error with the
/// [`LengthError`] inside, and nothing is consumed. A body `decode` rejects is an
/// `InvalidData` error with the [`DecodeError`] inside, and the record is consumed, so that a
/// caller that goes on reads the next one.
fn decode_record<T>(
    src: &mut BytesMut,
    max_len: usize,
    decode: impl FnOnce(&[u8]) -> Result<T, DecodeError>,
) -> io::Result<Option<T>> {
    let Some(&field) = src.first_chunk::<2>() else {
        src.reserve(2 - src.len());
        return Ok(None);
    };
    let len = usize::from(u16::from_be_bytes(field));
    if len > max_len {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            LengthError::new(len as u64, max_len as u64),
        ));
    }
    let Some(body) = src.get(2..2 + len) else {
        src.reserve(2 + len - src.len());
        return Ok(None);
    };
    let decoded = decode(body);
    src.advance(2 + len);
    decoded
        .map(Some)
        .map_err(|err| io::Error::new(io::ErrorKind::InvalidData, err))
}

/// `decode_eof` of both codecs: what `decode` gave at the end of the input, or the error of
/// the bytes left in `src` when it gave nothing.
fn at_end<T>(decoded: Option<T>, src: &BytesMut) -> io::Result<Option<T>> {
    match decoded {
        None if !src.is_empty() => Err(cut_short(src)),
        decoded => Ok(decoded),
    }
}

/// At the end of the input: the bytes left in `src` are a record cut short, reported as
/// [`read_utf`](crate::read_utf) reports it: [`io::ErrorKind::UnexpectedEof`] with a
/// [`GetUtfError::Incomplete`] inside.
fn cut_short(src: &BytesMut) -> io::Error {
    let needed = match src.first_chunk::<2>() {
        Some(&field) => 2 + u64::from(u16::from_be_bytes(field)),
        None => 2,
    };
    io::Error::new(
        io::ErrorKind::UnexpectedEof,
        GetUtfError::Incomplete { needed },
    )
}

/// A body length within `max_len`, as a length field; else the [`io::ErrorKind::InvalidInput`]
/// error [`write_utf`](crate::write_utf) reports for a body over 65535 bytes.
fn length_field(len: usize, max_len: usize) -> io::Result<u16> {
    u16::try_from(len)
        .ok()
        .filter(|_| len <= max_len)
        .ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                LengthError::new(len as u64, max_len as u64),
            )
        })
}

/// A tokio-util codec of `readUTF`/`writeUTF` records (a big-endian `u16` length, then the
/// body in modified UTF-8): a [`Decoder`] of `String`s as [`get_utf`](crate::get_utf) reads
/// them and an [`Encoder`] of anything `AsRef<str>` as [`put_utf`](crate::put_utf) writes it,
/// for `FramedRead`, `FramedWrite` and `Framed` over a socket to a JVM's
/// `DataInputStream`/`DataOutputStream`.
///
/// - A record is decoded when its last byte has arrived; until then the buffer keeps it and
///   gets room reserved for the rest.
/// - A body is at most [`max_len`](Self::max_len) bytes (65535, the length field's limit, by
///   default): a longer record read is an [`io::ErrorKind::InvalidData`] error and one to be
///   written an [`io::ErrorKind::InvalidInput`] error, both with the [`LengthError`] inside,
///   and nothing is written.
/// - A body the JDK rejects, or with a lone surrogate (which a `String` cannot hold: use
///   [`Utf16Codec`] for those), is an `InvalidData` error with the [`DecodeError`] inside. The
///   record is consumed, so a caller that calls [`Decoder::decode`] again reads the next one
///   (`FramedRead` ends the stream at the first error).
/// - Input that ends inside a record is an [`io::ErrorKind::UnexpectedEof`] error with a
///   [`GetUtfError::Incomplete`] inside, as [`read_utf`](crate::read_utf) reports it.
///
/// As with tokio-util's `LinesCodec`, the encoder takes any `AsRef<str>`, so a sink's `flush`
/// and `close`, which send no item, name one: `SinkExt::<&str>::flush(&mut sink)`.
///
/// # Examples
///
/// ```
/// use bytes::BytesMut;
/// use tokio_util::codec::{Decoder, Encoder};
/// use wirebytes_mutf8::UtfCodec;
///
/// let mut codec = UtfCodec::new();
/// let mut wire = BytesMut::new();
/// codec.encode("nul \0 and \u{1F600}", &mut wire)?;
/// assert_eq!(&wire[..], b"\x00\x11nul \xc0\x80 and \xed\xa0\xbd\xed\xb8\x80");
///
/// let mut arriving = wire.split_to(5);
/// assert_eq!(codec.decode(&mut arriving)?, None); // not all there yet
/// arriving.unsplit(wire);
/// assert_eq!(codec.decode(&mut arriving)?.as_deref(), Some("nul \0 and \u{1F600}"));
/// assert!(arriving.is_empty());
/// # Ok::<(), std::io::Error>(())
/// ```
///
/// With a maximum record length:
///
/// ```
/// use bytes::BytesMut;
/// use tokio_util::codec::Decoder;
/// use wirebytes_mutf8::{LengthError, UtfCodec};
///
/// let mut codec = UtfCodec::with_max_len(1024);
/// let mut wire = BytesMut::from(&b"\x10\x00"[..]); // a body of 4096 bytes announced
/// let err = codec.decode(&mut wire).unwrap_err();
/// assert_eq!(err.kind(), std::io::ErrorKind::InvalidData);
/// let inner = err.get_ref().and_then(|e| e.downcast_ref::<LengthError>()).unwrap();
/// assert_eq!((inner.length(), inner.limit()), (4096, 1024));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct UtfCodec {
    max_len: usize,
}

impl UtfCodec {
    /// A codec for records of up to 65535 bytes of body, all the length field can say.
    #[must_use]
    pub const fn new() -> UtfCodec {
        UtfCodec {
            max_len: MAX_UTF_LEN,
        }
    }

    /// A codec for records of up to `max_len` bytes of body (at most 65535, all the length
    /// field can say: a larger `max_len` means 65535).
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_mutf8::UtfCodec;
    ///
    /// assert_eq!(UtfCodec::with_max_len(100).max_len(), 100);
    /// assert_eq!(UtfCodec::with_max_len(1 << 20).max_len(), 65_535);
    /// ```
    #[must_use]
    pub const fn with_max_len(max_len: usize) -> UtfCodec {
        UtfCodec {
            max_len: if max_len < MAX_UTF_LEN {
                max_len
            } else {
                MAX_UTF_LEN
            },
        }
    }

    /// The largest body, in bytes, the codec reads or writes.
    #[must_use]
    pub const fn max_len(&self) -> usize {
        self.max_len
    }
}

impl Default for UtfCodec {
    fn default() -> UtfCodec {
        UtfCodec::new()
    }
}

impl Decoder for UtfCodec {
    type Item = String;
    type Error = io::Error;

    fn decode(&mut self, src: &mut BytesMut) -> io::Result<Option<String>> {
        let kernels = Kernels::detect();
        decode_record(src, self.max_len, |body| {
            decode_with(body, kernels).map(Cow::into_owned)
        })
    }

    fn decode_eof(&mut self, src: &mut BytesMut) -> io::Result<Option<String>> {
        let decoded = self.decode(src)?;
        at_end(decoded, src)
    }
}

impl<T: AsRef<str>> Encoder<T> for UtfCodec {
    type Error = io::Error;

    fn encode(&mut self, item: T, dst: &mut BytesMut) -> io::Result<()> {
        let bytes = item.as_ref().as_bytes();
        let len = str_len::<Mutf8>(bytes);
        let field = length_field(len, self.max_len)?;
        dst.reserve(2 + len);
        dst.put_u16(field);
        put_str::<Mutf8, BytesMut>(bytes, len, dst);
        Ok(())
    }
}

/// [`UtfCodec`] for the JDK's chars: a [`Decoder`] of `Vec<u16>` as
/// [`get_utf16`](crate::get_utf16) reads them (lone surrogates included: every record the
/// JDK's `readUTF` accepts) and an [`Encoder`] of anything `AsRef<[u16]>` as
/// [`put_utf16`](crate::put_utf16) writes it (what `writeUTF` writes for a Java `String` of
/// these chars). Lengths, errors and what is consumed are as for [`UtfCodec`].
///
/// # Examples
///
/// ```
/// use bytes::BytesMut;
/// use tokio_util::codec::{Decoder, Encoder};
/// use wirebytes_mutf8::Utf16Codec;
///
/// let mut codec = Utf16Codec::new();
/// let mut wire = BytesMut::new();
/// codec.encode(&[0x61, 0xD800][..], &mut wire)?; // a lone surrogate
/// assert_eq!(&wire[..], b"\x00\x04a\xed\xa0\x80");
/// assert_eq!(codec.decode(&mut wire)?, Some(vec![0x61, 0xD800]));
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Utf16Codec {
    max_len: usize,
}

impl Utf16Codec {
    /// A codec for records of up to 65535 bytes of body, all the length field can say.
    #[must_use]
    pub const fn new() -> Utf16Codec {
        Utf16Codec {
            max_len: MAX_UTF_LEN,
        }
    }

    /// A codec for records of up to `max_len` bytes of body (at most 65535: a larger
    /// `max_len` means 65535), as [`UtfCodec::with_max_len`].
    #[must_use]
    pub const fn with_max_len(max_len: usize) -> Utf16Codec {
        Utf16Codec {
            max_len: UtfCodec::with_max_len(max_len).max_len,
        }
    }

    /// The largest body, in bytes, the codec reads or writes.
    #[must_use]
    pub const fn max_len(&self) -> usize {
        self.max_len
    }
}

impl Default for Utf16Codec {
    fn default() -> Utf16Codec {
        Utf16Codec::new()
    }
}

impl Decoder for Utf16Codec {
    type Item = Vec<u16>;
    type Error = io::Error;

    fn decode(&mut self, src: &mut BytesMut) -> io::Result<Option<Vec<u16>>> {
        let kernels = Kernels::detect();
        decode_record(src, self.max_len, |body| {
            decode_to_utf16_with(body, kernels)
        })
    }

    fn decode_eof(&mut self, src: &mut BytesMut) -> io::Result<Option<Vec<u16>>> {
        let decoded = self.decode(src)?;
        at_end(decoded, src)
    }
}

impl<T: AsRef<[u16]>> Encoder<T> for Utf16Codec {
    type Error = io::Error;

    fn encode(&mut self, item: T, dst: &mut BytesMut) -> io::Result<()> {
        let units = item.as_ref();
        let len = units_len::<Mutf8>(units);
        let field = length_field(len, self.max_len)?;
        dst.reserve(2 + len);
        dst.put_u16(field);
        put_units::<Mutf8, BytesMut>(units, len, dst);
        Ok(())
    }
}
