//! Conversions of a [`ByteString`]: from `Bytes`, vectors, strings and static slices (none
//! of them copies), into one contiguous `Bytes`, `Vec<u8>` or `str`, and from fragments
//! collected by an iterator.

use std::borrow::Cow;

use bytes::{Bytes, BytesMut};

use crate::repr::{Parts, Repr};
use crate::string::ByteString;

impl ByteString {
    /// One contiguous [`Bytes`] with the content: no copy when the string is one fragment,
    /// else one allocation of exactly `len()` bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_rope::ByteString;
    ///
    /// let s = ByteString::from(vec![1u8; 70]).concat(&ByteString::from(vec![2u8; 70]));
    /// let flat = s.compact();
    /// assert_eq!(flat.len(), 140);
    /// assert_eq!(s, flat);
    /// ```
    #[must_use]
    pub fn compact(&self) -> Bytes {
        match &self.repr {
            Repr::One(b) => b.clone(),
            _ => {
                let mut out = BytesMut::with_capacity(self.len());
                for c in self.chunks() {
                    out.extend_from_slice(c);
                }
                out.freeze()
            }
        }
    }

    /// The content copied into a `Vec<u8>` of exactly `len()` bytes, leaving the string as
    /// it is (`Vec::from` takes the string and avoids the copy where it can).
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_rope::ByteString;
    ///
    /// let s = ByteString::from_static(b"ab").concat(&ByteString::from_static(b"c"));
    /// assert_eq!(s.to_vec(), b"abc");
    /// ```
    #[must_use]
    pub fn to_vec(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.len());
        for c in self.chunks() {
            out.extend_from_slice(c);
        }
        out
    }

    /// The content as `str`: borrowed when the string is one fragment, else one copy of
    /// exactly `len()` bytes.
    ///
    /// # Errors
    ///
    /// When the content is not UTF-8; the error's
    /// [`valid_up_to`](std::str::Utf8Error::valid_up_to) counts from the start of the string,
    /// whatever the fragments.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::borrow::Cow;
    /// use wirebytes_rope::ByteString;
    ///
    /// assert!(matches!(ByteString::from("één").to_str(), Ok(Cow::Borrowed("één"))));
    /// let split = ByteString::from(vec![b'a', 0xc3]).concat(&ByteString::from(vec![0xa9]));
    /// assert_eq!(split.to_str().unwrap(), "aé"); // a character across the boundary
    /// let bad = ByteString::from(b"ok".to_vec()).concat(&ByteString::from(vec![0xff]));
    /// assert_eq!(bad.to_str().unwrap_err().valid_up_to(), 2);
    /// ```
    #[must_use = "the conversion changes nothing; its result is the text"]
    pub fn to_str(&self) -> Result<Cow<'_, str>, std::str::Utf8Error> {
        match &self.repr {
            Repr::One(b) => std::str::from_utf8(b).map(Cow::Borrowed),
            _ => String::from_utf8(self.to_vec())
                .map(Cow::Owned)
                .map_err(|e| e.utf8_error()),
        }
    }
}

impl From<Bytes> for ByteString {
    /// A one-fragment string: no copy, no allocation.
    ///
    /// # Examples
    ///
    /// ```
    /// use bytes::Bytes;
    /// use wirebytes_rope::ByteString;
    ///
    /// assert_eq!(ByteString::from(Bytes::from_static(b"hi")), "hi");
    /// ```
    fn from(bytes: Bytes) -> Self {
        ByteString {
            repr: Repr::One(bytes),
        }
    }
}

impl From<BytesMut> for ByteString {
    /// A one-fragment string of the frozen buffer: no copy.
    ///
    /// # Examples
    ///
    /// ```
    /// use bytes::BytesMut;
    /// use wirebytes_rope::ByteString;
    ///
    /// assert_eq!(ByteString::from(BytesMut::from(&b"hi"[..])), "hi");
    /// ```
    fn from(bytes: BytesMut) -> Self {
        ByteString::from(bytes.freeze())
    }
}

impl From<Vec<u8>> for ByteString {
    /// A one-fragment string owning the vector: no copy.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_rope::ByteString;
    ///
    /// assert_eq!(ByteString::from(vec![104, 105]), "hi");
    /// ```
    fn from(bytes: Vec<u8>) -> Self {
        ByteString::from(Bytes::from(bytes))
    }
}

impl From<String> for ByteString {
    /// A one-fragment string of the UTF-8 bytes: no copy.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_rope::ByteString;
    ///
    /// assert_eq!(ByteString::from("hi".to_string()), "hi");
    /// ```
    fn from(text: String) -> Self {
        ByteString::from(Bytes::from(text))
    }
}

impl From<&'static [u8]> for ByteString {
    /// A one-fragment string of static bytes: no copy, no allocation.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_rope::ByteString;
    ///
    /// assert_eq!(ByteString::from(&b"hi"[..]), "hi");
    /// ```
    fn from(bytes: &'static [u8]) -> Self {
        ByteString::from_static(bytes)
    }
}

impl From<&'static str> for ByteString {
    /// A one-fragment string of static UTF-8 bytes: no copy, no allocation.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_rope::ByteString;
    ///
    /// assert_eq!(ByteString::from("hi"), "hi");
    /// ```
    fn from(text: &'static str) -> Self {
        ByteString::from_static(text.as_bytes())
    }
}

impl From<ByteString> for Bytes {
    /// The content as one [`Bytes`]: see [`ByteString::compact`].
    ///
    /// # Examples
    ///
    /// ```
    /// use bytes::Bytes;
    /// use wirebytes_rope::ByteString;
    ///
    /// let s = ByteString::from(vec![1u8; 70]).concat(&ByteString::from(vec![2u8; 70]));
    /// assert_eq!(Bytes::from(s).len(), 140);
    /// ```
    fn from(s: ByteString) -> Self {
        match s.repr {
            Repr::One(b) => b,
            _ => s.compact(),
        }
    }
}

impl From<ByteString> for Vec<u8> {
    /// The content as a `Vec<u8>`. No copy when the string is one fragment that owns its
    /// buffer alone and that `Bytes` can hand back as a `Vec` (one made from a `Vec<u8>`,
    /// `String` or `BytesMut`, not shared with another `Bytes`): the vector is that buffer,
    /// with its capacity. Otherwise one copy into a vector of exactly `len()` bytes, as
    /// [`ByteString::to_vec`] makes.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_rope::ByteString;
    ///
    /// let body = b"a body read into a Vec".to_vec();
    /// let at = body.as_ptr();
    /// let back = Vec::from(ByteString::from(body));
    /// assert_eq!(back.as_ptr(), at); // the same buffer, no copy
    ///
    /// let two = ByteString::from_static(b"ab").concat(&ByteString::from_static(b"cd"));
    /// assert_eq!(Vec::from(two), b"abcd"); // one copy
    /// ```
    fn from(s: ByteString) -> Self {
        match s.repr {
            Repr::One(b) => Vec::from(b),
            _ => s.to_vec(),
        }
    }
}

impl FromIterator<Bytes> for ByteString {
    /// A string of these fragments, in order, each kept as it is (empty ones are dropped).
    ///
    /// # Examples
    ///
    /// ```
    /// use bytes::Bytes;
    /// use wirebytes_rope::ByteString;
    ///
    /// let s: ByteString = ["a", "", "bc"].into_iter().map(|t: &'static str| Bytes::from_static(t.as_bytes())).collect();
    /// assert_eq!(s, "abc");
    /// assert_eq!(s.fragment_count(), 2);
    /// ```
    fn from_iter<I: IntoIterator<Item = Bytes>>(iter: I) -> Self {
        let iter = iter.into_iter();
        let mut parts = Parts::with_capacity(iter.size_hint().0);
        for b in iter {
            parts.push(b);
        }
        parts.finish()
    }
}

impl FromIterator<ByteString> for ByteString {
    /// The concatenation of these strings, fragments kept as they are.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_rope::ByteString;
    ///
    /// let s: ByteString = ["ab", "cd"].into_iter().map(ByteString::from).collect();
    /// assert_eq!(s, "abcd");
    /// ```
    fn from_iter<I: IntoIterator<Item = ByteString>>(iter: I) -> Self {
        let mut parts = Vec::new();
        for s in iter {
            parts.extend(s.fragments().cloned());
        }
        ByteString::from_parts(parts)
    }
}
