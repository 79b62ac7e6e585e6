//! Decoding into UTF-16 chars: [`decode_utf16`], the JDK's chars exactly, lone surrogates
//! included.

use alloc::vec::Vec;

use crate::DecodeError;
use crate::arch::{Kernels, SpareVec, ascii_prefix};
use crate::scan::word;
use crate::sequence::sequence;

/// The ASCII block.
const BLOCK: usize = 32;

/// In each 16-bit lane of a word: a lead `110xxxxx` then a continuation byte `10xxxxxx`.
const TWO_BYTE_MASK: u64 = 0xC0E0_C0E0_C0E0_C0E0;
const TWO_BYTE_PAIRS: u64 = 0x80C0_80C0_80C0_80C0;

/// Decodes a modified UTF-8 body into the UTF-16 chars the JDK's `readUTF` returns, lone
/// surrogates included.
///
/// ASCII runs are widened 32 bytes at a time. From the first other sequence on, with
/// AVX-512 (VBMI2) or AVX2 (detected at run time under `std`), text goes 32 bytes at a time
/// to the end or to an error (with AVX-512, first a decoder made for ASCII and 2-byte
/// sequences only, then one for any sequences the JDK accepts). With SSSE3 only, text of ASCII
/// and 2-byte sequences goes 16 bytes at a time. Other sequences, the last bytes and errors go
/// one sequence at a time (four 2-byte sequences at once when a word holds them).
///
/// # Errors
///
/// Where the JDK throws: [`DecodeErrorKind::Malformed`](crate::DecodeErrorKind::Malformed) at
/// the JDK's position, or [`Truncated`](crate::DecodeErrorKind::Truncated). Never
/// `UnpairedSurrogate`.
///
/// # Examples
///
/// ```
/// use wirebytes_mutf8::decode_utf16;
///
/// assert_eq!(decode_utf16(b"a\xc0\x80\xed\xb0\x80"), Ok(vec![0x61, 0x0000, 0xdc00]));
/// assert_eq!(decode_utf16(b"ab\xe2\x41\x82").unwrap_err().jdk_position(), Some(4));
/// ```
pub fn decode_utf16(bytes: &[u8]) -> Result<Vec<u16>, DecodeError> {
    decode_utf16_with(bytes, Kernels::detect())
}

/// [`decode_utf16`] with `kernels`.
pub(crate) fn decode_utf16_with(bytes: &[u8], kernels: Kernels) -> Result<Vec<u16>, DecodeError> {
    let n = bytes.len();
    // One char per byte at most: the chars fit in `n`, and a block of chars can be stored
    // whenever a block of bytes as long is read. Not zero-filled (that cost 0.5-0.9 µs of
    // 4.5-10 here).
    let mut out = SpareVec::with_capacity(n);
    let mut i = 0;
    while i < n {
        // ASCII, 32 bytes at a time: each block is widened and stored whole, and the cursor
        // moves past its ASCII bytes.
        while let Some(block) = bytes.get(i..i + BLOCK) {
            let block: &[u8; BLOCK] = block.try_into().expect("BLOCK bytes");
            let mut wide = [0u16; BLOCK];
            for (w, &b) in wide.iter_mut().zip(block) {
                *w = u16::from(b);
            }
            let k = out.store_keeping(wide, || ascii_prefix(block));
            i += k;
            if k < BLOCK {
                break;
            }
        }
        // Then other sequences, and lone ASCII bytes between them (the spaces between words
        // of a 2-byte script), up to the next ASCII pair that starts a block.
        while i < n {
            let c = bytes[i];
            if c < 0x80 {
                if i + BLOCK <= n && bytes[i + 1] < 0x80 {
                    break;
                }
                out.push(u16::from(c));
                i += 1;
                continue;
            }
            let next = kernels.utf16_text(bytes, i, &mut out);
            if next != i {
                i = next;
                continue;
            }
            if i + 8 <= n {
                let w = word(bytes, i);
                if w & TWO_BYTE_MASK == TWO_BYTE_PAIRS {
                    // Four 2-byte sequences (Cyrillic, Greek, accented Latin...) at once, in
                    // the 16-bit lanes of the word.
                    let units =
                        ((w & 0x001F_001F_001F_001F) << 6) | ((w >> 8) & 0x003F_003F_003F_003F);
                    let units = [
                        units as u16,
                        (units >> 16) as u16,
                        (units >> 32) as u16,
                        (units >> 48) as u16,
                    ];
                    out.store(units, 4);
                    i += 8;
                    continue;
                }
            }
            let (v, len) = sequence(bytes, i)?;
            out.push(v as u16);
            i += len;
        }
    }
    Ok(out.into_vec())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference;

    #[test]
    fn every_level_decodes_as_the_reference() {
        for bytes in crate::testing::bodies() {
            let want = reference::decode_utf16(&bytes);
            for (name, kernels) in Kernels::levels() {
                assert_eq!(
                    decode_utf16_with(&bytes, kernels),
                    want,
                    "{name} {bytes:02x?}"
                );
            }
        }
    }
}
