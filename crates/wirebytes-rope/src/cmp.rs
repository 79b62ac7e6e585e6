//! Content equality, ordering, hashing and `Debug` for [`ByteString`].

use core::cmp::Ordering;
use core::fmt;
use core::hash::{Hash, Hasher};

use bytes::Bytes;

use crate::arch::Kernels;
use crate::repr::Repr;
use crate::search::copy_small;
use crate::string::ByteString;

/// The block size of [`Hash`]: see `reference::hash_flat`.
pub(crate) const HASH_BLOCK: usize = 128;

/// Walks the two strings with independent cursors and calls `run` on each pair of equal-length
/// overlapping runs, in order, until it returns something other than `None`; `None` when
/// either string runs out first.
#[inline]
fn zip_runs<T>(
    a: &ByteString,
    b: &ByteString,
    mut run: impl FnMut(&[u8], &[u8]) -> Option<T>,
) -> Option<T> {
    let (mut ai, mut bi) = (a.chunks(), b.chunks());
    let (mut x, mut y): (&[u8], &[u8]) = (&[], &[]);
    loop {
        if x.is_empty() {
            x = ai.next()?;
            continue;
        }
        if y.is_empty() {
            y = bi.next()?;
            continue;
        }
        let n = x.len().min(y.len());
        let (xa, xb) = x.split_at(n);
        let (ya, yb) = y.split_at(n);
        if let Some(t) = run(xa, ya) {
            return Some(t);
        }
        x = xb;
        y = yb;
    }
}

impl PartialEq for ByteString {
    /// Content equality: one comparison per run where the two fragmentations overlap.
    fn eq(&self, other: &ByteString) -> bool {
        eq_with(self, other, Kernels::detect)
    }
}

/// [`PartialEq::eq`] with the kernels `kernels` gives (asked only when both strings have
/// the same length and are not one fragment each).
#[inline]
pub(crate) fn eq_with(a: &ByteString, b: &ByteString, kernels: impl FnOnce() -> Kernels) -> bool {
    if a.len() != b.len() {
        return false;
    }
    match (&a.repr, &b.repr) {
        (Repr::One(x), Repr::One(y)) => x == y,
        (Repr::Many(x), Repr::Many(y)) if std::sync::Arc::ptr_eq(x, y) => true,
        // The fragment lists themselves: no dispatch on the representation per fragment.
        (Repr::Many(x), Repr::Many(y)) => kernels().eq_chunks(
            x.fragments.iter().map(|f| &f.bytes[..]),
            y.fragments.iter().map(|f| &f.bytes[..]),
        ),
        _ => kernels().eq_chunks(a.chunks(), b.chunks()),
    }
}

/// Content equality of two sequences of non-empty chunks holding the same number of bytes,
/// with the kernel this CPU has: see [`Kernels::eq_chunks`].
#[inline]
pub(crate) fn eq_chunks<'a, 'b>(
    ai: impl Iterator<Item = &'a [u8]>,
    bi: impl Iterator<Item = &'b [u8]>,
) -> bool {
    Kernels::detect().eq_chunks(ai, bi)
}

/// Content equality of two sequences of non-empty chunks holding the same number of bytes:
/// two independent cursors, one slice comparison (`bcmp`) per overlapping run.
///
/// The run lengths of two unrelated fragmentations are as random as the fragment sizes, and
/// so is which side runs out first, so the loop keeps to one branch on that per run (when
/// the first side runs out, the second one runs out too only where both have a boundary at
/// the same offset). The slice comparison takes any length with few, well-predicted
/// branches; an inline dispatch on the run length (word compares for short runs) is faster
/// only when the branch predictor has learnt the one input it sees again and again, and
/// several times slower on a stream of different fragmentations. The AVX-512 kernel
/// compares short runs with masked loads instead, the same instructions for every length.
pub(crate) fn eq_chunks_portable<'a, 'b>(
    ai: impl Iterator<Item = &'a [u8]>,
    bi: impl Iterator<Item = &'b [u8]>,
) -> bool {
    eq_chunks_by(ai, bi, |x, y| x == y)
}

/// The walk of [`eq_chunks_portable`], each overlapping run compared by `run_eq` (two
/// slices of the same length): the portable code's slice comparison, or a kernel's.
#[inline(always)]
pub(crate) fn eq_chunks_by<'a, 'b>(
    mut ai: impl Iterator<Item = &'a [u8]>,
    mut bi: impl Iterator<Item = &'b [u8]>,
    mut run_eq: impl FnMut(&[u8], &[u8]) -> bool,
) -> bool {
    // Neither has an empty chunk, and both run out together.
    let (Some(mut x), Some(mut y)) = (ai.next(), bi.next()) else {
        return true;
    };
    loop {
        if x.len() <= y.len() {
            let (ya, yb) = y.split_at(x.len());
            if !run_eq(x, ya) {
                return false;
            }
            match ai.next() {
                Some(c) => x = c,
                None => return true,
            }
            y = yb;
            if y.is_empty() {
                match bi.next() {
                    Some(c) => y = c,
                    None => return true,
                }
            }
        } else {
            let (xa, xb) = x.split_at(y.len());
            if !run_eq(xa, y) {
                return false;
            }
            x = xb;
            match bi.next() {
                Some(c) => y = c,
                None => return true,
            }
        }
    }
}

impl Eq for ByteString {}

impl PartialOrd for ByteString {
    fn partial_cmp(&self, other: &ByteString) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for ByteString {
    /// Lexicographic order of the bytes, as for `[u8]`.
    fn cmp(&self, other: &ByteString) -> Ordering {
        zip_runs(self, other, |x, y| match x.cmp(y) {
            Ordering::Equal => None,
            unequal => Some(unequal),
        })
        .unwrap_or_else(|| self.len().cmp(&other.len()))
    }
}

impl Hash for ByteString {
    /// Writes the length (`write_usize`), then the content in 128-byte blocks, then the tail
    /// block if any: the same calls whatever the fragmentation, for every `Hasher`.
    /// The reference's `hash_flat` is the same sequence on a flat slice.
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_usize(self.len());
        let mut buf = [0u8; HASH_BLOCK];
        let mut filled = 0;
        for mut c in self.chunks() {
            if filled > 0 {
                let take = (HASH_BLOCK - filled).min(c.len());
                copy_small(&mut buf[filled..filled + take], &c[..take]);
                filled += take;
                c = &c[take..];
                if filled < HASH_BLOCK {
                    continue;
                }
                state.write(&buf);
            }
            let mut blocks = c.chunks_exact(HASH_BLOCK);
            for block in &mut blocks {
                state.write(block);
            }
            let tail = blocks.remainder();
            copy_small(&mut buf[..tail.len()], tail);
            filled = tail.len();
        }
        if filled > 0 {
            state.write(&buf[..filled]);
        }
    }
}

/// Whether the content equals `flat`, compared fragment by fragment.
fn eq_flat(s: &ByteString, mut flat: &[u8]) -> bool {
    if s.len() != flat.len() {
        return false;
    }
    for c in s.chunks() {
        let (head, rest) = flat.split_at(c.len());
        if c != head {
            return false;
        }
        flat = rest;
    }
    true
}

/// `PartialEq` both ways between `ByteString` and a type that derefs to a byte slice.
macro_rules! eq_with {
    ($($t:ty => |$v:ident| $bytes:expr;)*) => {$(
        impl PartialEq<$t> for ByteString {
            fn eq(&self, $v: &$t) -> bool {
                eq_flat(self, $bytes)
            }
        }

        impl PartialEq<ByteString> for $t {
            fn eq(&self, other: &ByteString) -> bool {
                let $v = self;
                eq_flat(other, $bytes)
            }
        }
    )*};
}

eq_with! {
    [u8] => |v| v;
    &[u8] => |v| v;
    Vec<u8> => |v| v;
    Bytes => |v| v;
    str => |v| v.as_bytes();
    &str => |v| v.as_bytes();
    String => |v| v.as_bytes();
}

impl<const N: usize> PartialEq<[u8; N]> for ByteString {
    fn eq(&self, other: &[u8; N]) -> bool {
        eq_flat(self, other)
    }
}

impl<const N: usize> PartialEq<ByteString> for [u8; N] {
    fn eq(&self, other: &ByteString) -> bool {
        eq_flat(other, self)
    }
}

impl<const N: usize> PartialEq<&[u8; N]> for ByteString {
    fn eq(&self, other: &&[u8; N]) -> bool {
        eq_flat(self, *other)
    }
}

impl<const N: usize> PartialEq<ByteString> for &[u8; N] {
    fn eq(&self, other: &ByteString) -> bool {
        eq_flat(other, *self)
    }
}

impl fmt::Debug for ByteString {
    /// Like `Bytes`: `b"..."` with `\n`, `\r`, `\t`, `\\`, `\"`, `\0` escaped, other ASCII
    /// printable bytes as they are, the rest as `\xNN`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt_escaped(self.chunks(), f)
    }
}

/// Writes the bytes of `chunks` as `b"..."`, escaped as `Bytes`' `Debug` does.
pub(crate) fn fmt_escaped<'a>(
    chunks: impl Iterator<Item = &'a [u8]>,
    f: &mut fmt::Formatter<'_>,
) -> fmt::Result {
    {
        f.write_str("b\"")?;
        for c in chunks {
            for &b in c {
                match b {
                    b'\n' => f.write_str("\\n")?,
                    b'\r' => f.write_str("\\r")?,
                    b'\t' => f.write_str("\\t")?,
                    b'\\' | b'"' => write!(f, "\\{}", b as char)?,
                    b'\0' => f.write_str("\\0")?,
                    0x20..0x7f => write!(f, "{}", b as char)?,
                    _ => write!(f, "\\x{b:02x}")?,
                }
            }
        }
        f.write_str("\"")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_matches_bytes() {
        let all: Vec<u8> = (0..=255u8).collect();
        let flat = Bytes::from(all.clone());
        let rope: ByteString = all.chunks(7).map(Bytes::copy_from_slice).collect();
        assert_eq!(format!("{rope:?}"), format!("{flat:?}"));
    }
}
