//! [`IntoReader`]: an owning [`bytes::Buf`] and [`std::io::Read`] cursor over a [`ByteString`].

use std::io::{self, IoSlice};

use bytes::{Buf, Bytes, BytesMut};

use crate::string::ByteString;

impl ByteString {
    /// An owning reader over the whole string (`'static` and `Send`, for a reader that must
    /// outlive the string or move to another thread), implementing [`bytes::Buf`] and
    /// [`std::io::Read`]. O(1), no allocation; each read costs a little more than with
    /// [`reader`](Self::reader).
    ///
    /// # Examples
    ///
    /// ```
    /// use bytes::Buf;
    /// use wirebytes_rope::ByteString;
    ///
    /// let s = ByteString::from_static(b"\x01\x02").concat(&ByteString::from_static(b"\x03\x04"));
    /// let handle = std::thread::spawn(move || s.into_reader().get_u32());
    /// assert_eq!(handle.join().unwrap(), 0x0102_0304);
    /// ```
    #[must_use]
    pub fn into_reader(self) -> IntoReader {
        IntoReader::new(self)
    }
}

/// An owning cursor over a [`ByteString`] (`'static`, `Send`), implementing [`Buf`] and
/// [`io::Read`]: see [`ByteString::into_reader`]. Slower per read than the borrowing
/// [`Reader`](crate::Reader), which keeps the rest of the current fragment as a plain slice.
///
/// [`chunk`](Buf::chunk) is the rest of the current fragment, so `get_u32_le` and friends
/// read straight from it when the value lies in one fragment and gather it through
/// [`Buf::copy_to_slice`] when it straddles two. [`remaining`](Buf::remaining) is O(1);
/// [`copy_to_bytes`](Buf::copy_to_bytes) shares the fragment instead of copying when the
/// bytes lie in one fragment, and [`split_to`](IntoReader::split_to) never copies.
///
/// # Examples
///
/// ```
/// use bytes::{Buf, Bytes};
/// use wirebytes_rope::ByteString;
///
/// let s: ByteString = [&b"\x00\x01\x02"[..], b"\x03\x04\x05\x06\x07"]
///     .into_iter()
///     .map(Bytes::from_static)
///     .collect();
/// let mut r = s.into_reader();
/// assert_eq!(r.get_u16(), 0x0001);
/// assert_eq!(r.get_u32(), 0x0203_0405); // straddles the two fragments
/// assert_eq!(r.chunk(), b"\x06\x07");
/// assert_eq!(r.remaining(), 2);
/// ```
#[derive(Debug, Clone)]
pub struct IntoReader {
    string: ByteString,
    /// The fragment read next (`fragment_count()` at the end).
    index: usize,
    /// The offset in that fragment (always below its length unless at the end).
    pos: usize,
    remaining: usize,
}

impl IntoReader {
    pub(crate) fn new(string: ByteString) -> IntoReader {
        let remaining = string.len();
        IntoReader {
            string,
            index: 0,
            pos: 0,
            remaining,
        }
    }

    /// The next `len` bytes as a [`ByteString`] sharing the fragments (no byte is copied),
    /// advancing past them.
    ///
    /// # Panics
    ///
    /// When `len > self.remaining()`.
    ///
    /// # Examples
    ///
    /// ```
    /// use bytes::Buf;
    /// use wirebytes_rope::ByteString;
    ///
    /// let mut r = ByteString::from_static(b"\x03abcdef").into_reader();
    /// let n = r.get_u8() as usize;
    /// assert_eq!(r.split_to(n), "abc");
    /// assert_eq!(r.remaining(), 3);
    /// ```
    #[track_caller]
    #[must_use = "to drop the bytes, `Buf::advance` does it without making a ByteString"]
    pub fn split_to(&mut self, len: usize) -> ByteString {
        assert!(
            len <= self.remaining,
            "IntoReader::split_to: {len} bytes requested, {} remaining",
            self.remaining
        );
        let start = self.string.len() - self.remaining;
        let out = self.string.slice_unchecked(start, start + len);
        self.advance(len);
        out
    }

    /// What is left to read, as a [`ByteString`] sharing the fragments.
    ///
    /// # Examples
    ///
    /// ```
    /// use bytes::Buf;
    /// use wirebytes_rope::ByteString;
    ///
    /// let mut r = ByteString::from_static(b"abc").into_reader();
    /// r.advance(1);
    /// assert_eq!(r.rest(), "bc");
    /// ```
    #[must_use]
    pub fn rest(&self) -> ByteString {
        let len = self.string.len();
        self.string.slice_unchecked(len - self.remaining, len)
    }

    /// The fragment at `index`, or an empty slice past the end.
    #[inline]
    fn fragment(&self, index: usize) -> &Bytes {
        static EMPTY: Bytes = Bytes::new();
        self.string.fragment(index).unwrap_or(&EMPTY)
    }
}

impl IntoReader {
    /// The next `N` bytes when they lie inside the current fragment with at least one byte
    /// after them (so the position stays in the same fragment), advancing past them.
    #[inline(always)]
    fn take_within<const N: usize>(&mut self) -> Option<[u8; N]> {
        let end = self.pos + N;
        let frag = self.fragment(self.index);
        if end < frag.len() {
            let value: [u8; N] = frag[self.pos..end].try_into().ok()?;
            self.pos = end;
            self.remaining -= N;
            Some(value)
        } else {
            None
        }
    }

    /// The next `N` bytes, gathered across fragments (panics as `Buf` does when fewer remain).
    #[inline(never)]
    fn take_across<const N: usize>(&mut self) -> [u8; N] {
        crate::counters::add(crate::counters::Path::TakeAcross, 1);
        let mut value = [0; N];
        self.copy_to_slice(&mut value);
        value
    }
}

use crate::reader::getters;

impl Buf for IntoReader {
    getters!();

    #[inline]
    fn remaining(&self) -> usize {
        self.remaining
    }

    #[inline]
    fn chunk(&self) -> &[u8] {
        self.fragment(self.index)
            .get(self.pos..)
            .unwrap_or_default()
    }

    #[inline]
    fn advance(&mut self, cnt: usize) {
        assert!(
            cnt <= self.remaining,
            "IntoReader::advance: cannot advance by {cnt}, {} remaining",
            self.remaining
        );
        self.remaining -= cnt;
        let mut pos = self.pos + cnt;
        let mut len = self.fragment(self.index).len();
        if pos < len {
            self.pos = pos;
            return;
        }
        if self.remaining == 0 {
            self.index = self.string.fragment_count();
            self.pos = 0;
            return;
        }
        // Some later fragment holds a remaining byte, and no fragment of a rope is empty.
        while pos >= len {
            pos -= len;
            self.index += 1;
            len = self.fragment(self.index).len();
        }
        self.pos = pos;
    }

    fn chunks_vectored<'a>(&'a self, dst: &mut [IoSlice<'a>]) -> usize {
        if self.remaining == 0 {
            return 0;
        }
        let mut n = 0;
        let mut index = self.index;
        let mut pos = self.pos;
        while n < dst.len() {
            let frag = self.fragment(index);
            if frag.is_empty() {
                break;
            }
            dst[n] = IoSlice::new(&frag[pos..]);
            n += 1;
            index += 1;
            pos = 0;
        }
        n
    }

    fn copy_to_bytes(&mut self, len: usize) -> Bytes {
        assert!(
            len <= self.remaining,
            "IntoReader::copy_to_bytes: {len} bytes requested, {} remaining",
            self.remaining
        );
        let frag = self.fragment(self.index);
        let out = if self.pos + len <= frag.len() {
            frag.slice(self.pos..self.pos + len)
        } else {
            let mut out = BytesMut::with_capacity(len);
            let start = self.string.len() - self.remaining;
            for c in self.string.slice_unchecked(start, start + len).chunks() {
                out.extend_from_slice(c);
            }
            out.freeze()
        };
        self.advance(len);
        out
    }
}

impl io::BufRead for IntoReader {
    /// The rest of the current fragment (empty only at the end): no copy.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::io::BufRead;
    /// use wirebytes_rope::ByteString;
    ///
    /// let s = ByteString::from_static(b"one\ntw").concat(&ByteString::from_static(b"o\n"));
    /// let lines: Vec<String> = s.into_reader().lines().map(Result::unwrap).collect();
    /// assert_eq!(lines, ["one", "two"]);
    /// ```
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        Ok(Buf::chunk(&*self))
    }

    /// Consumes `amt` bytes, at most the remaining ones.
    fn consume(&mut self, amt: usize) {
        self.advance(amt.min(self.remaining));
    }
}

impl io::Seek for IntoReader {
    /// Moves to a byte offset in the string: O(log n) in the fragments.
    ///
    /// # Errors
    ///
    /// [`io::ErrorKind::InvalidInput`] for an offset before the start or past the end (the
    /// position is then unchanged).
    ///
    /// # Examples
    ///
    /// ```
    /// use std::io::{Read, Seek, SeekFrom};
    /// use wirebytes_rope::ByteString;
    ///
    /// let s = ByteString::from_static(b"abc").concat(&ByteString::from_static(b"def"));
    /// let mut r = s.into_reader();
    /// assert_eq!(r.seek(SeekFrom::End(-4)).unwrap(), 2);
    /// let mut buf = [0; 3];
    /// r.read_exact(&mut buf).unwrap();
    /// assert_eq!(&buf, b"cde");
    /// assert!(r.seek(SeekFrom::Current(-6)).is_err());
    /// assert_eq!(r.stream_position().unwrap(), 5);
    /// ```
    fn seek(&mut self, to: io::SeekFrom) -> io::Result<u64> {
        let len = self.string.len();
        let at = crate::reader::seek_target(to, len, len - self.remaining)?;
        let (index, pos) = if at == len {
            (self.string.fragment_count(), 0)
        } else {
            self.string.locate(at)
        };
        self.index = index;
        self.pos = pos;
        self.remaining = len - at;
        Ok(at as u64)
    }
}

impl io::Read for IntoReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = buf.len().min(self.remaining);
        self.copy_to_slice(&mut buf[..n]);
        Ok(n)
    }
}
