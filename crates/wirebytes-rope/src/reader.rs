//! [`Reader`]: a borrowing [`bytes::Buf`] and [`std::io::Read`] cursor over a [`ByteString`].

use std::io::{self, IoSlice};

use bytes::{Buf, Bytes, BytesMut};

use crate::repr::Parts;
use crate::string::ByteString;

impl ByteString {
    /// A reader over the whole string, implementing [`bytes::Buf`] and [`std::io::Read`],
    /// borrowing the string. O(1), no allocation.
    ///
    /// # Examples
    ///
    /// ```
    /// use bytes::Buf;
    /// use wirebytes_rope::ByteString;
    ///
    /// let s = ByteString::from_static(b"\x01\x02").concat(&ByteString::from_static(b"\x03\x04"));
    /// let mut reader = s.reader();
    /// assert_eq!(reader.get_u32_le(), 0x0403_0201);
    /// assert_eq!(reader.remaining(), 0);
    /// ```
    #[must_use]
    pub fn reader(&self) -> Reader<'_> {
        Reader::new(self)
    }
}

/// A cursor over a borrowed [`ByteString`], implementing [`Buf`] and [`io::Read`]: see
/// [`ByteString::reader`] (and [`IntoReader`](crate::IntoReader) for an owning one).
///
/// It keeps the rest of the current fragment as a plain slice, so
/// [`chunk`](Buf::chunk) and [`advance`](Buf::advance) inside a fragment cost what they cost
/// on a `&[u8]`; `get_u32_le` and friends read straight from that slice when the value lies
/// in one fragment and gather it through [`Buf::copy_to_slice`] when it straddles two.
/// [`remaining`](Buf::remaining) is O(1); [`copy_to_bytes`](Buf::copy_to_bytes) shares the
/// fragment instead of copying when the bytes lie in one fragment, and
/// [`split_to`](Reader::split_to) never copies.
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
/// let mut r = s.reader();
/// assert_eq!(r.get_u16(), 0x0001);
/// assert_eq!(r.get_u32(), 0x0203_0405); // straddles the two fragments
/// assert_eq!(r.chunk(), b"\x06\x07");
/// assert_eq!(r.remaining(), 2);
/// ```
#[derive(Debug, Clone)]
pub struct Reader<'a> {
    string: &'a ByteString,
    /// The unread rest of fragment `index`: empty only when nothing remains.
    cur: &'a [u8],
    /// The fragment `cur` lies in (`fragment_count()` once everything is read).
    index: usize,
    /// The unread bytes after `cur` (in the fragments after `index`): a read inside the
    /// fragment moves `cur` alone.
    after: usize,
}

impl<'a> Reader<'a> {
    pub(crate) fn new(string: &'a ByteString) -> Reader<'a> {
        let cur = fragment(string, 0);
        Reader {
            string,
            cur,
            index: 0,
            after: string.len() - cur.len(),
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
    /// let s = ByteString::from_static(b"\x03abcdef");
    /// let mut r = s.reader();
    /// let n = r.get_u8() as usize;
    /// assert_eq!(r.split_to(n), "abc");
    /// assert_eq!(r.remaining(), 3);
    /// ```
    #[track_caller]
    #[must_use = "to drop the bytes, `Buf::advance` does it without making a ByteString"]
    pub fn split_to(&mut self, len: usize) -> ByteString {
        assert!(
            len <= self.remaining(),
            "Reader::split_to: {len} bytes requested, {} remaining",
            self.remaining()
        );
        let inside = if len < self.cur.len() {
            fragment_bytes(self.string, self.index)
        } else {
            None
        };
        if let Some(frag) = inside {
            // Inside the current fragment: a slice of its `Bytes`.
            let pos = frag.len() - self.cur.len();
            self.cur = &self.cur[len..];
            return ByteString::from(frag.slice(pos..pos + len));
        }
        let mut parts = Parts::with_capacity(4);
        self.walk(len, |frag, range| parts.push(frag.slice(range)));
        self.advance(len);
        parts.finish()
    }

    /// Calls `part` on each fragment (and the range of it) that the next `len` bytes cover,
    /// walking forward from the current fragment (no search).
    fn walk(&self, len: usize, mut part: impl FnMut(&'a Bytes, core::ops::Range<usize>)) {
        let mut left = len;
        let mut index = self.index;
        let mut pos = fragment_bytes(self.string, index).map_or(0, |f| f.len() - self.cur.len());
        while left > 0 {
            let Some(frag) = fragment_bytes(self.string, index) else {
                break; // unreachable: `len <= remaining`
            };
            let n = left.min(frag.len() - pos);
            part(frag, pos..pos + n);
            left -= n;
            index += 1;
            pos = 0;
        }
    }

    /// What is left to read, as a [`ByteString`] sharing the fragments.
    ///
    /// # Examples
    ///
    /// ```
    /// use bytes::Buf;
    /// use wirebytes_rope::ByteString;
    ///
    /// let s = ByteString::from_static(b"abc");
    /// let mut r = s.reader();
    /// r.advance(1);
    /// assert_eq!(r.rest(), "bc");
    /// ```
    #[must_use]
    pub fn rest(&self) -> ByteString {
        let len = self.string.len();
        self.string.slice_unchecked(len - self.remaining(), len)
    }

    /// The next `N` bytes when they lie inside the current fragment with at least one byte
    /// after them (so `cur` stays non-empty), advancing past them.
    #[inline(always)]
    fn take_within<const N: usize>(&mut self) -> Option<[u8; N]> {
        // One comparison, one load, one pointer bump: `after` does not change.
        if self.cur.len() > N {
            let (value, rest) = self.cur.split_at(N);
            self.cur = rest;
            value.try_into().ok()
        } else {
            None
        }
    }

    /// The next `N` bytes, gathered across fragments (panics as `Buf` does when fewer remain).
    #[inline(always)]
    fn take_across<const N: usize>(&mut self) -> [u8; N] {
        crate::counters::add(crate::counters::Path::TakeAcross, 1);
        let remaining = self.remaining();
        if remaining < N {
            return panic_short(self);
        }
        // The slow path takes and returns the cursor by value, so that the reader of a hot
        // loop never has to leave the registers.
        let (value, cur, index) = take_across(self.string, self.cur, self.index);
        self.cur = cur;
        self.index = index;
        self.after = remaining - N - cur.len();
        value
    }
}

/// Panics as `Buf`'s getters do when fewer than `N` bytes remain.
#[cold]
#[inline(never)]
fn panic_short<const N: usize>(r: &mut Reader<'_>) -> [u8; N] {
    let mut value = [0; N];
    r.copy_to_slice(&mut value); // panics: fewer than N bytes remain
    value
}

/// The next `N` bytes from `cur` (the rest of fragment `index`) and the fragments after it,
/// which hold at least `N` bytes together; returns them with the cursor after them.
#[inline(never)]
fn take_across<'a, const N: usize>(
    s: &'a ByteString,
    mut cur: &'a [u8],
    mut index: usize,
) -> ([u8; N], &'a [u8], usize) {
    let mut value = [0; N];
    for b in &mut value {
        // `cur` is non-empty while bytes remain, and N bytes remain.
        let Some((&first, rest)) = cur.split_first() else {
            break;
        };
        *b = first;
        cur = rest;
        if rest.is_empty() {
            index += 1;
            cur = fragment(s, index);
        }
    }
    (value, cur, index)
}

/// The cursor `cnt` bytes after `cur` (the rest of fragment `index`), `cnt >= cur.len()`, with
/// `remaining` bytes left after those.
#[inline(never)]
fn advance_across<'a>(
    s: &'a ByteString,
    cur: &'a [u8],
    mut index: usize,
    cnt: usize,
    remaining: usize,
) -> (&'a [u8], usize) {
    if remaining == 0 {
        return (&[], s.fragment_count());
    }
    // Some later fragment holds an unread byte, and no fragment of a rope is empty.
    let mut left = cnt - cur.len();
    loop {
        index += 1;
        let next = fragment(s, index);
        if left < next.len() {
            return (&next[left..], index);
        }
        left -= next.len();
    }
}

/// Fragment `index` of `s`, or an empty slice past the end.
#[inline]
fn fragment(s: &ByteString, index: usize) -> &[u8] {
    fragment_bytes(s, index).map_or(&[], |b| &b[..])
}

#[inline]
fn fragment_bytes(s: &ByteString, index: usize) -> Option<&Bytes> {
    s.fragment(index)
}

/// Overrides `Buf` getters with a fast path inside the current fragment: `getters!()` gives
/// every fixed-size integer getter, both readers use it.
macro_rules! getters {
    () => {
        getters! {
            get_u8 -> u8: from_be_bytes;
            get_u16 -> u16: from_be_bytes;
            get_u16_le -> u16: from_le_bytes;
            get_i16 -> i16: from_be_bytes;
            get_i16_le -> i16: from_le_bytes;
            get_u32 -> u32: from_be_bytes;
            get_u32_le -> u32: from_le_bytes;
            get_i32 -> i32: from_be_bytes;
            get_i32_le -> i32: from_le_bytes;
            get_u64 -> u64: from_be_bytes;
            get_u64_le -> u64: from_le_bytes;
            get_i64 -> i64: from_be_bytes;
            get_i64_le -> i64: from_le_bytes;
        }
    };
    ($($name:ident -> $t:ty: $conv:ident;)*) => {$(
        #[inline]
        fn $name(&mut self) -> $t {
            const N: usize = size_of::<$t>();
            match self.take_within::<N>() {
                Some(bytes) => <$t>::$conv(bytes),
                None => <$t>::$conv(self.take_across::<N>()),
            }
        }
    )*};
}
pub(crate) use getters;

impl Buf for Reader<'_> {
    getters!();

    #[inline]
    fn remaining(&self) -> usize {
        self.cur.len() + self.after
    }

    #[inline]
    fn chunk(&self) -> &[u8] {
        self.cur
    }

    #[inline]
    fn advance(&mut self, cnt: usize) {
        assert!(
            cnt <= self.remaining(),
            "Reader::advance: cannot advance by {cnt}, {} remaining",
            self.remaining()
        );
        if cnt < self.cur.len() {
            self.cur = &self.cur[cnt..];
        } else {
            let left = self.remaining() - cnt;
            (self.cur, self.index) = advance_across(self.string, self.cur, self.index, cnt, left);
            self.after = left - self.cur.len();
        }
    }

    fn chunks_vectored<'b>(&'b self, dst: &mut [IoSlice<'b>]) -> usize {
        if self.remaining() == 0 || dst.is_empty() {
            return 0;
        }
        dst[0] = IoSlice::new(self.cur);
        let mut n = 1;
        while n < dst.len() {
            let next = fragment(self.string, self.index + n);
            if next.is_empty() {
                break;
            }
            dst[n] = IoSlice::new(next);
            n += 1;
        }
        n
    }

    fn copy_to_bytes(&mut self, len: usize) -> Bytes {
        assert!(
            len <= self.remaining(),
            "Reader::copy_to_bytes: {len} bytes requested, {} remaining",
            self.remaining()
        );
        let out = match fragment_bytes(self.string, self.index) {
            Some(frag) if len <= self.cur.len() => {
                let pos = frag.len() - self.cur.len();
                frag.slice(pos..pos + len)
            }
            _ => {
                let mut out = BytesMut::with_capacity(len);
                self.walk(len, |frag, range| out.extend_from_slice(&frag[range]));
                out.freeze()
            }
        };
        self.advance(len);
        out
    }
}

impl io::BufRead for Reader<'_> {
    /// The rest of the current fragment (empty only at the end): no copy.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::io::BufRead;
    /// use wirebytes_rope::ByteString;
    ///
    /// let s = ByteString::from_static(b"a,b").concat(&ByteString::from_static(b"c,d"));
    /// let fields: Vec<Vec<u8>> = s.reader().split(b',').map(Result::unwrap).collect();
    /// assert_eq!(fields, [&b"a"[..], b"bc", b"d"]);
    /// ```
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        Ok(self.cur)
    }

    /// Consumes `amt` bytes, at most the remaining ones.
    fn consume(&mut self, amt: usize) {
        self.advance(amt.min(self.remaining()));
    }
}

impl io::Seek for Reader<'_> {
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
    /// use std::io::{Seek, SeekFrom};
    /// use bytes::Buf;
    /// use wirebytes_rope::ByteString;
    ///
    /// let s = ByteString::from_static(b"abc").concat(&ByteString::from_static(b"def"));
    /// let mut r = s.reader();
    /// r.seek(SeekFrom::Start(4)).unwrap();
    /// assert_eq!(r.chunk(), b"ef");
    /// assert!(r.seek(SeekFrom::Start(7)).is_err());
    /// ```
    fn seek(&mut self, to: io::SeekFrom) -> io::Result<u64> {
        let len = self.string.len();
        let at = seek_target(to, len, len - self.remaining())?;
        let (index, pos) = if at == len {
            (self.string.fragment_count(), 0)
        } else {
            self.string.locate(at)
        };
        self.index = index;
        self.cur = fragment(self.string, index).get(pos..).unwrap_or_default();
        self.after = len - at - self.cur.len();
        Ok(at as u64)
    }
}

/// The offset a seek to `to` lands on in a string of `len` bytes read up to `current`, or
/// an `InvalidInput` error when it lies before the start or past the end.
pub(crate) fn seek_target(to: io::SeekFrom, len: usize, current: usize) -> io::Result<usize> {
    let target = match to {
        io::SeekFrom::Start(n) => usize::try_from(n).ok(),
        io::SeekFrom::End(d) => offset(len, d),
        io::SeekFrom::Current(d) => offset(current, d),
    };
    target.filter(|&at| at <= len).ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("seek to {to:?} leaves the string of {len} bytes (at {current})"),
        )
    })
}

/// `base + delta`, if it is a `usize`.
fn offset(base: usize, delta: i64) -> Option<usize> {
    let delta = isize::try_from(delta).ok()?;
    base.checked_add_signed(delta)
}

impl io::Read for Reader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = buf.len().min(self.remaining());
        self.copy_to_slice(&mut buf[..n]);
        Ok(n)
    }
}
