//! What proves bytes UTF-8: the ASCII tests, and [`Utf8Prefix`], a value that only these
//! checks (and the AVX2 check behind [`Kernels::utf8_check`](crate::arch::Kernels::utf8_check))
//! can make.

use crate::arch::SplitChunks;
use crate::swar::{HIGH_BITS, HIGH_BITS_128};

#[cfg(any(feature = "std", feature = "bytes"))]
use alloc::{string::String, vec::Vec};

/// `bytes` as a `str` when they are at most 32 ASCII bytes (field names, keys, identifiers,
/// class-file names), in at most two loads of one width: 16, 8, 4 bytes or single bytes,
/// overlapping in the middle.
#[inline(always)]
pub(crate) fn short_ascii(bytes: &[u8]) -> Option<&str> {
    let n = bytes.len();
    let high = if let (Some(head), Some(tail)) =
        (bytes.first_chunk::<16>(), bytes.last_chunk::<16>())
    {
        if n > 32 {
            return None;
        }
        (u128::from_ne_bytes(*head) | u128::from_ne_bytes(*tail)) & HIGH_BITS_128 != 0
    } else if let (Some(head), Some(tail)) = (bytes.first_chunk::<8>(), bytes.last_chunk::<8>()) {
        (u64::from_ne_bytes(*head) | u64::from_ne_bytes(*tail)) & HIGH_BITS != 0
    } else if let (Some(head), Some(tail)) = (bytes.first_chunk::<4>(), bytes.last_chunk::<4>()) {
        (u32::from_ne_bytes(*head) | u32::from_ne_bytes(*tail)) & HIGH_BITS as u32 != 0
    } else {
        // 0 to 3 bytes: the first, the middle and the last.
        n > 0 && (bytes[0] | bytes[n / 2] | bytes[n - 1]) & 0x80 != 0
    };
    if high {
        return None;
    }
    crate::counters::add(crate::counters::Path::ShortAscii, n);
    // SAFETY: the two loads cover every byte (a first and a last chunk of a width no larger
    // than `n`, and no smaller than half of it; or, below 4 bytes, each byte), and none has
    // its high bit set: ASCII, so UTF-8.
    Some(unsafe { core::str::from_utf8_unchecked(bytes) })
}

/// Whether every byte of `bytes` is ASCII: 64 bytes per step with a byte-wise OR into a
/// 64-byte accumulator (vector instructions of whatever width the target allows), then words,
/// then bytes.
#[inline]
fn is_ascii(bytes: &[u8]) -> bool {
    let (chunks, tail) = bytes.split_chunks::<64>();
    let mut acc = [0u8; 64];
    for chunk in chunks {
        for (a, &b) in acc.iter_mut().zip(chunk) {
            *a |= b;
        }
    }
    let (words, rest) = tail.split_chunks::<8>();
    let mut high = acc
        .split_chunks::<8>()
        .0
        .iter()
        .chain(words)
        .fold(0, |high, w| high | u64::from_ne_bytes(*w));
    for &b in rest {
        high |= u64::from(b);
    }
    high & HIGH_BITS == 0
}

/// A body and how many of its first bytes are proven UTF-8: made only by the checks in this
/// module and by [`Kernels::utf8_check`](crate::arch::Kernels::utf8_check), so that its
/// [`as_str`](Utf8Prefix::as_str) needs no second look.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Utf8Prefix<'a> {
    bytes: &'a [u8],
    /// `bytes[..valid]` is UTF-8.
    valid: usize,
}

impl<'a> Utf8Prefix<'a> {
    /// `bytes`, nothing proven yet.
    #[inline]
    pub(crate) fn new(bytes: &'a [u8]) -> Self {
        Utf8Prefix { bytes, valid: 0 }
    }

    /// `bytes` with `bytes[..valid]` proven.
    ///
    /// # Safety
    ///
    /// `valid <= bytes.len()` and `bytes[..valid]` is UTF-8.
    #[cfg_attr(
        not(wirebytes_x86_kernels),
        expect(dead_code, reason = "only the x86 check proves bytes this way")
    )]
    #[inline]
    pub(crate) unsafe fn new_unchecked(bytes: &'a [u8], valid: usize) -> Self {
        debug_assert!(core::str::from_utf8(&bytes[..valid]).is_ok());
        Utf8Prefix { bytes, valid }
    }

    /// Proves the next `len` bytes (or as many as there are) if they are ASCII; whether they
    /// were.
    #[inline]
    pub(crate) fn extend_ascii(&mut self, len: usize) -> bool {
        let end = self.valid.saturating_add(len).min(self.bytes.len());
        let ascii = is_ascii(&self.bytes[self.valid..end]);
        if ascii {
            self.valid = end;
        }
        ascii
    }

    /// Proves `next` if it is the bytes right after the proven ones (the same memory, as
    /// `simdutf8::basic::from_utf8(&bytes[self.len()..][..k])` gives them back); whether it
    /// was.
    #[inline]
    pub(crate) fn extend_str(&mut self, next: &'a str) -> bool {
        let after = &self.bytes[self.valid..];
        let adjacent = next.len() <= after.len() && core::ptr::eq(next.as_ptr(), after.as_ptr());
        if adjacent {
            self.valid += next.len();
        }
        adjacent
    }

    /// The whole body.
    #[inline(always)]
    pub(crate) fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// How many of its first bytes are proven.
    #[inline(always)]
    pub(crate) fn len(&self) -> usize {
        self.valid
    }

    /// Whether all of them are.
    #[inline(always)]
    pub(crate) fn is_whole(&self) -> bool {
        self.valid == self.bytes.len()
    }

    /// The proven bytes.
    #[inline(always)]
    pub(crate) fn as_str(&self) -> &'a str {
        // SAFETY: `bytes[..valid]` is UTF-8 (the field's invariant, which every constructor
        // and every `extend_*` keeps).
        unsafe { core::str::from_utf8_unchecked(&self.bytes[..self.valid]) }
    }
}

/// `bytes` as a `String`, without a copy, when `check` proves all of them; else what `rest`
/// makes of the proof it gave. (For the readers, which own the body.)
#[cfg(any(feature = "std", feature = "bytes"))]
pub(crate) fn string_from_vec<E>(
    bytes: Vec<u8>,
    check: impl for<'b> FnOnce(&'b [u8]) -> Utf8Prefix<'b>,
    rest: impl for<'b> FnOnce(Utf8Prefix<'b>) -> Result<String, E>,
) -> Result<String, E> {
    let prefix = check(&bytes);
    if prefix.is_whole() && core::ptr::eq(prefix.bytes, bytes.as_slice()) {
        // SAFETY: the proof is of these very bytes (same address and length, borrowed from
        // the `Vec` and unchanged since), all of them.
        return Ok(unsafe { String::from_utf8_unchecked(bytes) });
    }
    rest(prefix)
}

#[cfg(test)]
mod tests {
    use alloc::vec;

    use super::*;

    #[test]
    fn ascii_tests_agree_with_std_for_every_byte_at_every_position() {
        for len in (0..140).step_by(wirebytes_testkit::scale_miri(1, 1, 31)) {
            for at in (0..len).step_by(wirebytes_testkit::scale_miri(1, 1, 11)) {
                for b in [0x00, 0x41, 0x7F, 0x80, 0xC3, 0xFF] {
                    let mut bytes = vec![b'a'; len];
                    bytes[at] = b;
                    let ascii = b < 0x80;
                    assert_eq!(is_ascii(&bytes), ascii, "{b:02x} at {at} of {len}");
                    assert_eq!(
                        short_ascii(&bytes).is_some(),
                        ascii && len <= 32,
                        "{b:02x} at {at} of {len}"
                    );
                }
            }
        }
    }

    #[test]
    fn short_ascii_takes_the_empty_input_and_no_longer_one() {
        assert_eq!(short_ascii(b""), Some(""));
        assert_eq!(short_ascii(&[b'a'; 33]), None);
    }

    #[test]
    fn a_prefix_grows_only_by_what_is_proven() {
        let bytes = "abcdefgh\u{e9}xyz".as_bytes();
        let mut prefix = Utf8Prefix::new(bytes);
        assert!(prefix.extend_ascii(4));
        assert!(!prefix.extend_ascii(6));
        assert_eq!(prefix.as_str(), "abcd");
        // Not right after the prefix: refused.
        assert!(!prefix.extend_str("efgh"));
        assert!(!prefix.extend_str(core::str::from_utf8(&bytes[5..8]).unwrap()));
        assert!(prefix.extend_str(core::str::from_utf8(&bytes[4..10]).unwrap()));
        assert_eq!(prefix.as_str(), "abcdefgh\u{e9}");
        assert!(prefix.extend_ascii(100));
        assert!(prefix.is_whole());
        assert_eq!(prefix.as_str().as_bytes(), bytes);
    }

    #[cfg(any(feature = "std", feature = "bytes"))]
    #[test]
    fn a_vec_becomes_a_string_only_with_a_whole_proof_of_its_own_bytes() {
        fn whole(b: &[u8]) -> Utf8Prefix<'_> {
            let mut p = Utf8Prefix::new(b);
            p.extend_ascii(b.len());
            p
        }
        fn other(_: &[u8]) -> Utf8Prefix<'_> {
            whole(b"other")
        }
        let got = string_from_vec(b"ascii".to_vec(), whole, |_| Err(()));
        assert_eq!(got.as_deref(), Ok("ascii"));
        // A proof of other bytes does not count.
        let got = string_from_vec(b"\xff\xfe\xfd\xfc\xfb".to_vec(), other, |p| {
            Ok::<_, ()>(String::from(p.as_str()))
        });
        assert_eq!(got.as_deref(), Ok("other"));
        let got = string_from_vec(b"ab\xff".to_vec(), whole, |p| Err(p.len()));
        assert_eq!(got, Err(0));
    }
}
