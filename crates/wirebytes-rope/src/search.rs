//! The searches of a [`ByteString`] (`find`, `find_from`, `find_byte`, `rfind`, `contains`,
//! `starts_with`, `ends_with`), matches across fragment boundaries included; and the
//! gathering search that [`ByteQueue`](crate::ByteQueue) shares.

use memchr::memmem::{Finder, FinderRev};

use crate::repr::Repr;
use crate::string::ByteString;

/// Fragments at least this long (and at least as long as the needle) are searched where they
/// lie; shorter ones are gathered into a buffer and searched together (one `memmem` call per
/// fragment of a few dozen bytes costs more than copying it).
const IN_PLACE: usize = 1024;
/// The gathering buffer, on the stack for needles up to `STACK_NEEDLE` bytes.
const GATHER: usize = 8 * 1024;
/// Longer needles gather into a heap buffer of four times their length.
const STACK_NEEDLE: usize = GATHER / 4;

impl ByteString {
    /// The offset of the first occurrence of `needle`, including occurrences that straddle
    /// fragment boundaries; `Some(0)` for an empty needle.
    ///
    /// Long fragments are searched in place with [`memchr::memmem`]; runs of short fragments
    /// are gathered into a stack buffer and searched together; the `needle.len() - 1` bytes
    /// before each boundary are searched again with the bytes after it, so no match is lost.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_rope::ByteString;
    ///
    /// let s = ByteString::from(b"Content-Le".to_vec()).concat(&ByteString::from(b"ngth: 5".to_vec()));
    /// assert_eq!(s.find(b"Length"), Some(8));
    /// assert_eq!(s.find(b"length"), None);
    /// ```
    #[must_use]
    pub fn find(&self, needle: &[u8]) -> Option<usize> {
        let m = needle.len();
        if m == 0 {
            return Some(0);
        }
        if m > self.len() {
            return None;
        }
        match &self.repr {
            Repr::One(b) => memchr::memmem::find(b, needle),
            _ => find_in_chunks(self.chunks(), needle),
        }
    }

    /// The offset of the first occurrence of `needle` that starts at `from` or later, as
    /// [`find`](Self::find) searches. As with `str`, an empty needle is found at `from` when
    /// `from <= len()`; nothing is found when `from > len()`.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_rope::ByteString;
    ///
    /// let s = ByteString::from(b"a\r\nb\r".to_vec()).concat(&ByteString::from(b"\nc".to_vec()));
    /// assert_eq!(s.find_from(b"\r\n", 0), Some(1));
    /// assert_eq!(s.find_from(b"\r\n", 2), Some(4)); // across the boundary
    /// assert_eq!(s.find_from(b"", 7), Some(7));
    /// assert_eq!(s.find_from(b"", 8), None);
    /// ```
    #[must_use]
    pub fn find_from(&self, needle: &[u8], from: usize) -> Option<usize> {
        let len = self.len();
        if from > len {
            return None;
        }
        let m = needle.len();
        if m == 0 {
            return Some(from);
        }
        if m > len - from {
            return None;
        }
        match &self.repr {
            Repr::One(b) => memchr::memmem::find(&b[from..], needle).map(|p| p + from),
            _ => find_in_chunks(self.chunks_from(from), needle).map(|p| p + from),
        }
    }

    /// The offset of the first `byte` ([`memchr`] on each fragment).
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_rope::ByteString;
    ///
    /// let s = ByteString::from(b"key".to_vec()).concat(&ByteString::from(b"=value".to_vec()));
    /// assert_eq!(s.find_byte(b'='), Some(3));
    /// assert_eq!(s.find_byte(b'&'), None);
    /// ```
    #[must_use]
    pub fn find_byte(&self, byte: u8) -> Option<usize> {
        let mut start = 0;
        for c in self.chunks() {
            if let Some(p) = memchr::memchr(byte, c) {
                return Some(start + p);
            }
            start += c.len();
        }
        None
    }

    /// The offset of the last occurrence of `needle`, including occurrences that straddle
    /// fragment boundaries; `Some(len())` for an empty needle, as with `str`.
    ///
    /// A one-fragment string is searched in place; otherwise blocks of 8 KiB (or four
    /// needle lengths) are gathered from the back, each with the `needle.len() - 1` bytes
    /// after it, and searched with [`memchr::memmem`]: linear in the length, whatever the
    /// fragments.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_rope::ByteString;
    ///
    /// let s = ByteString::from(b"a=1&b".to_vec()).concat(&ByteString::from(b"=2".to_vec()));
    /// assert_eq!(s.rfind(b"="), Some(5));
    /// assert_eq!(s.rfind(b"b=2"), Some(4));
    /// assert_eq!(s.rfind(b""), Some(7));
    /// assert_eq!(s.rfind(b"=3"), None);
    /// ```
    #[must_use]
    pub fn rfind(&self, needle: &[u8]) -> Option<usize> {
        let m = needle.len();
        let len = self.len();
        if m == 0 {
            return Some(len);
        }
        if m > len {
            return None;
        }
        if let Repr::One(b) = &self.repr {
            return memchr::memmem::rfind(b, needle);
        }
        // Blocks of `window` bytes from the back, each copied with the `m - 1` bytes after
        // it (every match that starts in the block lies within) and searched from the back:
        // the first match found is the last one. Linear in `len` whatever the fragments.
        let finder = FinderRev::new(needle);
        let window = GATHER.max(4 * m);
        let mut buf = Vec::with_capacity(window + m - 1);
        let mut end = len;
        while end > 0 {
            let from = end.saturating_sub(window);
            let to = (end + m - 1).min(len);
            buf.clear();
            for c in self.chunks_from(from) {
                let take = (to - from - buf.len()).min(c.len());
                if take == 0 {
                    break;
                }
                buf.extend_from_slice(&c[..take]);
            }
            if let Some(p) = finder.rfind(&buf) {
                return Some(from + p);
            }
            end = from;
        }
        None
    }

    /// Whether `needle` occurs anywhere, across fragment boundaries too.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_rope::ByteString;
    ///
    /// let s = ByteString::from(b"chunk".to_vec()).concat(&ByteString::from(b"ed".to_vec()));
    /// assert!(s.contains(b"ked"));
    /// assert!(!s.contains(b"kes"));
    /// ```
    #[must_use]
    pub fn contains(&self, needle: &[u8]) -> bool {
        self.find(needle).is_some()
    }

    /// Whether the string begins with `prefix` (compared a fragment at a time).
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_rope::ByteString;
    ///
    /// let s = ByteString::from(b"HT".to_vec()).concat(&ByteString::from(b"TP/1.1".to_vec()));
    /// assert!(s.starts_with(b"HTTP/"));
    /// assert!(!s.starts_with(b"HTTPS"));
    /// ```
    #[must_use]
    pub fn starts_with(&self, prefix: &[u8]) -> bool {
        if prefix.len() > self.len() {
            return false;
        }
        let mut rest = prefix;
        for c in self.chunks() {
            if rest.is_empty() {
                break;
            }
            let n = c.len().min(rest.len());
            if c[..n] != rest[..n] {
                return false;
            }
            rest = &rest[n..];
        }
        true
    }

    /// Whether the string ends with `suffix` (compared a fragment at a time).
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_rope::ByteString;
    ///
    /// let s = ByteString::from(b"body\r".to_vec()).concat(&ByteString::from(b"\n".to_vec()));
    /// assert!(s.ends_with(b"\r\n"));
    /// ```
    #[must_use]
    pub fn ends_with(&self, suffix: &[u8]) -> bool {
        if suffix.len() > self.len() {
            return false;
        }
        let mut rest = suffix;
        for c in self.chunks().rev() {
            if rest.is_empty() {
                break;
            }
            let n = c.len().min(rest.len());
            if c[c.len() - n..] != rest[rest.len() - n..] {
                return false;
            }
            rest = &rest[..rest.len() - n];
        }
        true
    }
}

/// The offset of the first occurrence of `needle` (at least one byte) in the concatenation of
/// `chunks`, matches across chunk boundaries included.
pub(crate) fn find_in_chunks<'a>(
    chunks: impl Iterator<Item = &'a [u8]>,
    needle: &[u8],
) -> Option<usize> {
    let m = needle.len();
    debug_assert!(m >= 1);
    if m <= STACK_NEEDLE {
        find_gathered(chunks, &Finder::new(needle), &mut [0u8; GATHER])
    } else {
        find_gathered(chunks, &Finder::new(needle), &mut vec![0u8; 4 * m])
    }
}

/// `find` for a needle of at least one byte, gathering short chunks into `buf` (of at
/// least `2 * needle.len()` bytes).
///
/// Invariant: every start offset below `base` has been ruled out, and `buf[..filled]` holds
/// the bytes from `base` on that are not searched yet (at most `m - 1` of them carried over
/// from the previous search, then the gathered ones).
fn find_gathered<'a>(
    chunks: impl Iterator<Item = &'a [u8]>,
    finder: &Finder<'_>,
    buf: &mut [u8],
) -> Option<usize> {
    let m = finder.needle().len();
    let gather = buf.len();
    debug_assert!(m >= 1 && gather >= 2 * m);
    let in_place = IN_PLACE.max(m);
    let mut filled = 0;
    let mut base = 0;
    let mut start = 0; // offset of the current fragment
    for frag in chunks {
        if frag.len() >= in_place {
            let head = m - 1; // < in_place <= frag.len()
            if filled + head > gather {
                // No room for the head: search what is pending, keep its last m - 1 bytes.
                if let Some(p) = finder.find(&buf[..filled]) {
                    return Some(base + p);
                }
                let carry = (m - 1).min(filled);
                buf.copy_within(filled - carry..filled, 0);
                base += filled - carry;
                filled = carry;
            }
            if filled > 0 {
                // The pending bytes plus the first m - 1 of this fragment: every match that
                // starts in the pending bytes lies within.
                buf[filled..filled + head].copy_from_slice(&frag[..head]);
                if let Some(p) = finder.find(&buf[..filled + head]) {
                    return Some(base + p);
                }
            }
            if let Some(p) = finder.find(frag) {
                return Some(start + p);
            }
            let carry = (m - 1).min(frag.len());
            buf[..carry].copy_from_slice(&frag[frag.len() - carry..]);
            filled = carry;
            base = start + frag.len() - carry;
        } else {
            let mut data = frag;
            while !data.is_empty() {
                let take = (gather - filled).min(data.len());
                copy_small(&mut buf[filled..filled + take], &data[..take]);
                filled += take;
                data = &data[take..];
                if filled == gather {
                    if let Some(p) = finder.find(buf) {
                        return Some(base + p);
                    }
                    let carry = m - 1;
                    buf.copy_within(gather - carry.., 0);
                    base += gather - carry;
                    filled = carry;
                }
            }
        }
        start += frag.len();
    }
    finder.find(&buf[..filled]).map(|p| base + p)
}

/// `dst.copy_from_slice(src)`, with sizes up to 64 bytes done as two overlapping fixed-size
/// copies instead of a `memcpy` call (most fragments a search gathers are that short).
#[inline(always)]
pub(crate) fn copy_small(dst: &mut [u8], src: &[u8]) {
    let n = src.len();
    debug_assert_eq!(n, dst.len());
    /// The first and the last `N` bytes (overlapping when `n < 2 * N`).
    #[inline(always)]
    fn pair<const N: usize>(dst: &mut [u8], src: &[u8]) {
        let n = src.len();
        dst[..N].copy_from_slice(&src[..N]);
        dst[n - N..].copy_from_slice(&src[n - N..]);
    }
    match n {
        65.. => dst.copy_from_slice(src),
        32.. => pair::<32>(dst, src),
        16.. => pair::<16>(dst, src),
        8.. => pair::<8>(dst, src),
        4.. => pair::<4>(dst, src),
        1.. => {
            dst[0] = src[0];
            dst[n / 2] = src[n / 2];
            dst[n - 1] = src[n - 1];
        }
        0 => {}
    }
}
