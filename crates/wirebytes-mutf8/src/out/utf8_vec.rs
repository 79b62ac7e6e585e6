//! [`Utf8Vec`]: a `String` built front to back, without zero-fill, that only ever holds UTF-8.

use alloc::string::String;

use super::SpareVec;
use super::spare_vec::WritingKernel;
use crate::swar::{ascii_len, ascii_prefix};

/// The bytes of a `String` being built: every method keeps only whole UTF-8 sequences, so
/// what it holds is UTF-8 whatever the arguments, and [`Utf8Vec::into_string`] needs no check.
#[derive(Debug)]
pub(crate) struct Utf8Vec {
    /// The kept bytes, UTF-8.
    bytes: SpareVec<u8>,
}

impl Utf8Vec {
    /// An empty string with room for `capacity` bytes.
    pub(crate) fn with_capacity(capacity: usize) -> Self {
        Utf8Vec {
            bytes: SpareVec::with_capacity(capacity),
        }
    }

    /// A writer that keeps `text` and appends after it, with room for `additional` more
    /// bytes.
    pub(crate) fn appending_to(text: String, additional: usize) -> Self {
        Utf8Vec {
            bytes: SpareVec::appending_to(text.into_bytes(), additional),
        }
    }

    /// Appends `text`.
    #[inline(always)]
    pub(crate) fn push_str(&mut self, text: &str) {
        self.bytes.extend_from_slice(text.as_bytes());
    }

    /// Appends `c`. (Its UTF-8 form, written here rather than with `char::encode_utf8`, so
    /// that where the caller's branches tell the compiler the char's range, only that
    /// length's code is left.)
    #[inline(always)]
    pub(crate) fn push_char(&mut self, c: char) {
        let v = u32::from(c);
        if v < 0x80 {
            self.bytes.push(v as u8);
        } else if v < 0x800 {
            self.bytes
                .store([0xC0 | (v >> 6) as u8, 0x80 | (v & 0x3F) as u8], 2);
        } else if v < 0x10000 {
            // Four bytes stored (one store), three kept.
            self.bytes.store(
                [
                    0xE0 | (v >> 12) as u8,
                    0x80 | ((v >> 6) & 0x3F) as u8,
                    0x80 | (v & 0x3F) as u8,
                    0,
                ],
                3,
            );
        } else {
            self.bytes.store(
                [
                    0xF0 | (v >> 18) as u8,
                    0x80 | ((v >> 12) & 0x3F) as u8,
                    0x80 | ((v >> 6) & 0x3F) as u8,
                    0x80 | (v & 0x3F) as u8,
                ],
                4,
            );
        }
    }

    /// Appends `seq` if it is a 2-byte UTF-8 sequence (a lead `C2..DF`, a continuation byte),
    /// else U+FFFD. (The test is written as [`crate::sequence`] decodes, so that after the
    /// JDK's checks and the caller's `v >= 0x80` the compiler drops it.)
    #[inline(always)]
    pub(crate) fn push_seq2(&mut self, seq: [u8; 2]) {
        let [c, c2] = seq;
        let v = (u32::from(c & 0x1F) << 6) | u32::from(c2 & 0x3F);
        if c & 0xE0 == 0xC0 && c2 & 0xC0 == 0x80 && v >= 0x80 {
            self.bytes.store(seq, 2);
        } else {
            self.push_char(char::REPLACEMENT_CHARACTER);
        }
    }

    /// Appends the char of a high and a low surrogate, from their low 10 bits (so always a
    /// char of the planes above the first).
    #[inline(always)]
    pub(crate) fn push_pair(&mut self, high: u32, low: u32) {
        let s = 0x10000 + ((high & 0x3FF) << 10) + (low & 0x3FF);
        self.bytes.store(
            [
                0xF0 | (s >> 18) as u8,
                0x80 | ((s >> 12) & 0x3F) as u8,
                0x80 | ((s >> 6) & 0x3F) as u8,
                0x80 | (s & 0x3F) as u8,
            ],
            4,
        );
    }

    /// Stores the 32 bytes of `block` and keeps its ASCII prefix (the bytes before the first
    /// that is not ASCII); returns that prefix's length.
    #[inline(always)]
    pub(crate) fn store_ascii(&mut self, block: &[u8; 32]) -> usize {
        self.bytes.store_keeping(*block, || ascii_prefix(block))
    }

    /// Stores the 8 bytes of `word` and keeps its ASCII prefix (the bytes before the first
    /// that is not ASCII); returns that prefix's length.
    #[inline(always)]
    pub(crate) fn store_ascii8(&mut self, word: &[u8; 8]) -> usize {
        self.bytes
            .store_keeping(*word, || ascii_len(u64::from_le_bytes(*word)))
    }

    /// The text.
    pub(crate) fn into_string(self) -> String {
        let bytes = self.bytes.into_vec();
        debug_assert!(core::str::from_utf8(&bytes).is_ok(), "not UTF-8");
        // SAFETY: every method keeps only whole UTF-8 sequences: `push_str` a `str`'s bytes,
        // `push_char` and `push_pair` a char's UTF-8 form, `push_seq2` the sequences it
        // checked, `store_ascii` and `store_ascii8` ASCII bytes (the bytes before the first
        // with its high bit set),
        // `with_kernel` by its caller's guarantee.
        unsafe { String::from_utf8_unchecked(bytes) }
    }

    /// [`SpareVec::with_kernel`] on the bytes.
    ///
    /// # Safety
    ///
    /// As for [`SpareVec::with_kernel`]; and the bytes that `kernel` keeps (from the `o` it is
    /// given to the `o` it returns) are whole UTF-8 sequences.
    #[cfg_attr(
        not(wirebytes_x86_kernels),
        expect(dead_code, reason = "only the x86 kernels write through it")
    )]
    #[inline(always)]
    pub(crate) unsafe fn with_kernel(
        &mut self,
        bytes: &[u8],
        i: usize,
        kernel: WritingKernel<u8>,
    ) -> usize {
        // SAFETY: the caller's guarantee.
        unsafe { self.bytes.with_kernel(bytes, i, kernel) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_chars_strings_and_ascii_prefixes_whole() {
        let mut out = Utf8Vec::with_capacity(8);
        out.push_str("a\u{e9}");
        for c in [
            '\0',
            '\u{7f}',
            '\u{80}',
            '\u{7ff}',
            '\u{800}',
            '\u{ffff}',
            '\u{10000}',
        ] {
            out.push_char(c);
        }
        let mut block = *b"0123456789abcdef0123456789abcdef";
        assert_eq!(out.store_ascii(&block), 32);
        block[5] = 0xC3;
        assert_eq!(out.store_ascii(&block), 5);
        block[0] = 0x80;
        assert_eq!(out.store_ascii(&block), 0);
        assert_eq!(out.store_ascii8(b"01234567"), 8);
        assert_eq!(out.store_ascii8(b"012\xc3\xa9567"), 3);
        assert_eq!(out.store_ascii8(b"\xff1234567"), 0);
        out.push_seq2([0xC3, 0xA9]);
        out.push_seq2([0xC1, 0x81]);
        out.push_pair(0xD83D, 0xDE00);
        out.push_pair(u32::MAX, u32::MAX);
        let text = out.into_string();
        assert_eq!(
            text,
            "a\u{e9}\0\u{7f}\u{80}\u{7ff}\u{800}\u{ffff}\u{10000}\
             0123456789abcdef0123456789abcdef01234\
             01234567012\
             \u{e9}\u{FFFD}\u{1F600}\u{10FFFF}"
        );
    }
}
