//! `Serialize` and `Deserialize` for [`ByteString`] (feature `serde`): the content as one byte
//! string, as `bytes::Bytes` and `serde_bytes` do.

use std::fmt;

use serde::de::{Deserialize, Deserializer, Error, SeqAccess, Visitor};
use serde::ser::{Serialize, Serializer};

use crate::repr::Repr;
use crate::string::ByteString;

/// The content as one byte string (`serialize_bytes`): a one-fragment string as it is, a
/// string of several fragments copied into one buffer first. Formats with a byte-string type
/// (postcard, bincode, CBOR, MessagePack) write it as one; JSON writes an array of numbers.
///
/// # Examples
///
/// ```
/// use wirebytes_rope::ByteString;
///
/// let s = ByteString::from_static(b"ab").concat(&ByteString::from_static(b"c"));
/// assert_eq!(serde_json::to_string(&s)?, "[97,98,99]");
/// let back: ByteString = serde_json::from_str("[97,98,99]")?;
/// assert_eq!(back, s);
/// # Ok::<(), serde_json::Error>(())
/// ```
impl Serialize for ByteString {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match &self.repr {
            Repr::One(bytes) => serializer.serialize_bytes(bytes),
            _ => serializer.serialize_bytes(&self.to_vec()),
        }
    }
}

/// Takes what a format hands over as bytes (a byte buffer is taken without a copy), a
/// sequence of `u8`s (as JSON has them) or a string (its UTF-8 bytes), as `bytes::Bytes`
/// does.
impl<'de> Deserialize<'de> for ByteString {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<ByteString, D::Error> {
        deserializer.deserialize_byte_buf(ByteStringVisitor)
    }
}

/// Builds a [`ByteString`] out of whatever form of bytes the format has.
struct ByteStringVisitor;

impl<'de> Visitor<'de> for ByteStringVisitor {
    type Value = ByteString;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a byte string")
    }

    fn visit_bytes<E: Error>(self, bytes: &[u8]) -> Result<ByteString, E> {
        Ok(ByteString::copy_from_slice(bytes))
    }

    fn visit_byte_buf<E: Error>(self, bytes: Vec<u8>) -> Result<ByteString, E> {
        Ok(ByteString::from(bytes))
    }

    fn visit_str<E: Error>(self, text: &str) -> Result<ByteString, E> {
        Ok(ByteString::copy_from_slice(text.as_bytes()))
    }

    fn visit_string<E: Error>(self, text: String) -> Result<ByteString, E> {
        Ok(ByteString::from(text))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<ByteString, A::Error> {
        // A hint from the input is trusted only up to a bound: it may be hostile.
        let mut bytes = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(64 * 1024));
        while let Some(byte) = seq.next_element::<u8>()? {
            bytes.push(byte);
        }
        Ok(ByteString::from(bytes))
    }
}
