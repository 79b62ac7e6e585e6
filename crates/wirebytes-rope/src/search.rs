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
/// The window that searches across the boundary between two long fragments, for needles up
/// to half its length.
const WINDOW: usize = 64;

impl ByteString {
    /// The offset of the first occurrence of `needle`, including occurrences that straddle
    /// fragment boundaries; `Some(0)` for an empty needle.
    ///
    /// Long fragments are searched in place (a needle of up to 8 bytes by its first byte with
    /// [`memchr`](memchr::memchr) while that finds few false candidates, any needle with
    /// [`memchr::memmem`]); runs of short fragments are gathered into a stack buffer and
    /// searched together; the `needle.len() - 1` bytes before each boundary are searched
    /// again with the bytes after it, so no match is lost.
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
            Repr::One(b) => LazyFinder::new(needle).find_in_slice(b),
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
            Repr::One(b) => LazyFinder::new(needle)
                .find_in_slice(&b[from..])
                .map(|p| p + from),
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
///
/// The first chunk is searched where it lies, as `memchr::memmem::find` searches a slice (a
/// decoder looking for its delimiter usually finds it there); only when it holds no match
/// are the rest gathered, the last `needle.len() - 1` bytes of the first chunk with them.
pub(crate) fn find_in_chunks<'a>(
    mut chunks: impl Iterator<Item = &'a [u8]>,
    needle: &[u8],
) -> Option<usize> {
    let m = needle.len();
    debug_assert!(m >= 1);
    let first = chunks.next()?;
    let mut finder = LazyFinder::new(needle);
    if first.len() >= m {
        if let Some(p) = finder.find_in_slice(first) {
            return Some(p);
        }
    }
    find_after_first(first, chunks, finder)
}

/// The candidates a short needle's search checks by its first byte before it hands the
/// rest of the slice to `memmem`.
const SHORT_CANDIDATES: usize = 4;

/// A needle and its `memmem` searcher, built at its first use and then kept for every
/// fragment of the search.
struct LazyFinder<'n> {
    needle: &'n [u8],
    finder: Option<Finder<'n>>,
}

impl<'n> LazyFinder<'n> {
    fn new(needle: &'n [u8]) -> Self {
        LazyFinder {
            needle,
            finder: None,
        }
    }

    /// The searcher, built on the first call.
    fn get(&mut self) -> &Finder<'n> {
        let needle = self.needle;
        self.finder.get_or_insert_with(|| {
            crate::counters::add(crate::counters::Path::FinderBuilds, 1);
            Finder::new(needle)
        })
    }

    /// The first occurrence of the needle (at least one byte) in `hay`.
    ///
    /// A needle of up to 8 bytes is looked for by its first byte with [`memchr`] (what a
    /// delimiter such as `\r\n` is found by fastest: no searcher is built), each candidate
    /// compared in full; after `SHORT_CANDIDATES` candidates that are not a match, the rest
    /// goes to the `memmem` searcher, which is linear whatever the bytes.
    #[inline]
    fn find_in_slice(&mut self, hay: &[u8]) -> Option<usize> {
        let needle = self.needle;
        let mut at = 0;
        if needle.len() <= 8 {
            for _ in 0..SHORT_CANDIDATES {
                let i = at + memchr::memchr(needle[0], &hay[at..])?;
                if hay[i..].starts_with(needle) {
                    return Some(i);
                }
                at = i + 1;
            }
            crate::counters::add(crate::counters::Path::FindShortToMemmem, 1);
        }
        let rest = &hay[at..];
        let found = if rest.len() < 64 && self.finder.is_none() {
            // `memmem::find` searches a short slice without building a searcher.
            memchr::memmem::find(rest, needle)
        } else {
            self.get().find(rest)
        };
        found.map(|p| at + p)
    }
}

/// [`find_in_chunks`] once the first chunk is known to hold no match that starts and ends
/// in it: a call of its own, so that a match in the first chunk pays for none of this.
///
/// Chunks of at least `IN_PLACE` bytes are searched where they lie, as the first one, and
/// each boundary through a window of the `needle.len() - 1` bytes on either side (a
/// decoder's reads are that long); from the first shorter chunk on, the rest is gathered.
#[inline(never)]
fn find_after_first<'a>(
    first: &'a [u8],
    mut chunks: impl Iterator<Item = &'a [u8]>,
    mut finder: LazyFinder<'_>,
) -> Option<usize> {
    crate::counters::add(crate::counters::Path::FindAfterFirst, 1);
    let needle = finder.needle;
    let m = needle.len();
    // `prev` is searched (or shorter than the needle) and starts at offset `start`: only a
    // match that begins in its last `m - 1` bytes can be left.
    let mut prev = first;
    let mut start = 0;
    let mut next = chunks.next();
    if m <= WINDOW / 2 {
        let mut window = [0u8; WINDOW];
        while let Some(frag) = next.filter(|f| f.len() >= IN_PLACE) {
            crate::counters::add(crate::counters::Path::FindInPlaceFragments, 1);
            let carry = (m - 1).min(prev.len());
            window[..carry].copy_from_slice(&prev[prev.len() - carry..]);
            window[carry..carry + m - 1].copy_from_slice(&frag[..m - 1]);
            start += prev.len();
            if let Some(p) = memchr::memmem::find(&window[..carry + m - 1], needle) {
                return Some(start - carry + p);
            }
            if let Some(p) = finder.find_in_slice(frag) {
                return Some(start + p);
            }
            prev = frag;
            next = chunks.next();
        }
    }
    let finder = finder.get();
    let found = if m <= STACK_NEEDLE {
        find_gathered(prev, next, chunks, finder, &mut [0u8; GATHER])
    } else {
        crate::counters::add(crate::counters::Path::FindHeapGathers, 1);
        find_gathered(prev, next, chunks, finder, &mut vec![0u8; 4 * m])
    };
    found.map(|p| start + p)
}

/// `find` for a needle of at least one byte after `first` (searched already, or shorter
/// than the needle), over `next` and then `chunks`, gathering short chunks into `buf` (of
/// at least `2 * needle.len()` bytes); offsets from the start of `first`.
fn find_gathered<'a>(
    first: &[u8],
    next: Option<&[u8]>,
    chunks: impl Iterator<Item = &'a [u8]>,
    finder: &Finder<'_>,
    buf: &mut [u8],
) -> Option<usize> {
    let mut gathered = Gathered::new(first, finder, buf);
    if let Some(frag) = next {
        if let Some(p) = gathered.push(frag) {
            return Some(p);
        }
    }
    for frag in chunks {
        if let Some(p) = gathered.push(frag) {
            return Some(p);
        }
    }
    gathered.finish()
}

/// The state of a gathering search.
///
/// Invariant: every start offset below `base` has been ruled out, and `buf[..filled]` holds
/// the bytes from `base` on that are not searched yet (at most `m - 1` of them carried over
/// from the previous search, then the gathered ones).
struct Gathered<'f, 'n, 'b> {
    finder: &'f Finder<'n>,
    buf: &'b mut [u8],
    filled: usize,
    base: usize,
    /// The offset of the next fragment.
    start: usize,
}

impl<'f, 'n, 'b> Gathered<'f, 'n, 'b> {
    /// The search after `first`, every match inside which is ruled out (or which is shorter
    /// than the needle): only its last `m - 1` bytes (or all of it) may still begin one.
    fn new(first: &[u8], finder: &'f Finder<'n>, buf: &'b mut [u8]) -> Self {
        let m = finder.needle().len();
        debug_assert!(m >= 1 && buf.len() >= 2 * m);
        let filled = (m - 1).min(first.len());
        buf[..filled].copy_from_slice(&first[first.len() - filled..]);
        Gathered {
            finder,
            buf,
            filled,
            base: first.len() - filled,
            start: first.len(),
        }
    }

    /// Takes the next fragment: the offset of the first match when one is found.
    #[inline(always)]
    fn push(&mut self, frag: &[u8]) -> Option<usize> {
        let m = self.finder.needle().len();
        let gather = self.buf.len();
        if frag.len() >= IN_PLACE.max(m) {
            let head = m - 1; // < frag.len()
            if self.filled + head > gather {
                // No room for the head: search what is pending, keep its last m - 1 bytes.
                if let Some(p) = self.finder.find(&self.buf[..self.filled]) {
                    return Some(self.base + p);
                }
                let carry = (m - 1).min(self.filled);
                self.buf.copy_within(self.filled - carry..self.filled, 0);
                self.base += self.filled - carry;
                self.filled = carry;
            }
            if self.filled > 0 {
                // The pending bytes plus the first m - 1 of this fragment: every match that
                // starts in the pending bytes lies within.
                self.buf[self.filled..self.filled + head].copy_from_slice(&frag[..head]);
                if let Some(p) = self.finder.find(&self.buf[..self.filled + head]) {
                    return Some(self.base + p);
                }
            }
            if let Some(p) = self.finder.find(frag) {
                return Some(self.start + p);
            }
            let carry = (m - 1).min(frag.len());
            self.buf[..carry].copy_from_slice(&frag[frag.len() - carry..]);
            self.filled = carry;
            self.base = self.start + frag.len() - carry;
        } else {
            let mut data = frag;
            while !data.is_empty() {
                let take = (gather - self.filled).min(data.len());
                copy_small(
                    &mut self.buf[self.filled..self.filled + take],
                    &data[..take],
                );
                self.filled += take;
                data = &data[take..];
                if self.filled == gather {
                    if let Some(p) = self.finder.find(self.buf) {
                        return Some(self.base + p);
                    }
                    let carry = m - 1;
                    self.buf.copy_within(gather - carry.., 0);
                    self.base += gather - carry;
                    self.filled = carry;
                }
            }
        }
        self.start += frag.len();
        None
    }

    /// The search of what is left pending once every fragment is in.
    fn finish(self) -> Option<usize> {
        let base = self.base;
        self.finder.find(&self.buf[..self.filled]).map(|p| base + p)
    }
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
