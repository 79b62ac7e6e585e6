//! Decoding into UTF-16 chars: [`decode_to_utf16`], the JDK's chars exactly, lone surrogates
//! included.

use alloc::vec::Vec;

use crate::DecodeError;
use crate::arch::Kernels;
use crate::counters::{self, Path};
use crate::out::{SpareVec, append_short_ascii};
use crate::sequence::sequence;
use crate::swar::{HIGH_BITS, ascii_prefix, word};

/// The ASCII block.
const BLOCK: usize = 32;

/// In each 16-bit lane of a word: a lead `110xxxxx` then a continuation byte `10xxxxxx`.
const TWO_BYTE_MASK: u64 = 0xC0E0_C0E0_C0E0_C0E0;
const TWO_BYTE_PAIRS: u64 = 0x80C0_80C0_80C0_80C0;

/// Decodes a modified UTF-8 body into the UTF-16 chars the JDK's `readUTF` returns, lone
/// surrogates included.
///
/// A body of at most 64 ASCII bytes is widened in one pass (16 bytes per load, stored as
/// loaded). Longer ASCII runs are widened 32 bytes at a time. From the first other sequence
/// on, with AVX-512 (VBMI2) or AVX2 (detected at run time under `std`), text goes 32 bytes
/// at a time to the end or to an error (with AVX-512, first a decoder made for ASCII and 2-byte
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
/// use wirebytes_mutf8::decode_to_utf16;
///
/// assert_eq!(decode_to_utf16(b"a\xc0\x80\xed\xb0\x80"), Ok(vec![0x61, 0x0000, 0xdc00]));
/// assert_eq!(decode_to_utf16(b"ab\xe2\x41\x82").unwrap_err().jdk_position(), Some(4));
/// ```
#[must_use = "the decoded chars, or where the body is malformed"]
#[inline]
pub fn decode_to_utf16(bytes: &[u8]) -> Result<Vec<u16>, DecodeError> {
    decode_to_utf16_with(bytes, Kernels::detect())
}

/// [`decode_to_utf16`] with `kernels`.
#[inline(always)]
pub(crate) fn decode_to_utf16_with(
    bytes: &[u8],
    kernels: Kernels,
) -> Result<Vec<u16>, DecodeError> {
    // One char per byte at most: the chars fit in `bytes.len()`, and a block of chars can be
    // stored whenever a block of bytes as long is read. Short ASCII (names, keys,
    // identifiers) is widened in one pass, before any machinery.
    let mut out = Vec::with_capacity(bytes.len());
    if append_short_ascii(bytes, &mut out) {
        return Ok(out);
    }
    decode_to_utf16_planned(bytes, out, kernels)
}

/// [`decode_to_utf16`] past its short ASCII, into `out` (empty, with room for `bytes.len()`
/// chars).
fn decode_to_utf16_planned(
    bytes: &[u8],
    out: Vec<u16>,
    kernels: Kernels,
) -> Result<Vec<u16>, DecodeError> {
    // Not zero-filled (that cost 0.5-0.9 µs of 4.5-10 here).
    let mut out = SpareVec::appending_to(out, 0);
    decode_to_utf16_onto(bytes, kernels, &mut out)?;
    Ok(out.into_vec())
}

/// Decodes like [`decode_to_utf16`], appending the chars to `dst`: a hot loop that reuses one
/// `Vec` allocates nothing once it has room (`bytes.len()` more chars at most).
///
/// # Errors
///
/// As [`decode_to_utf16`]. Then `dst` holds what it held before (its capacity may have grown).
///
/// # Examples
///
/// ```
/// use wirebytes_mutf8::decode_to_utf16_vec;
///
/// let mut chars = Vec::new();
/// decode_to_utf16_vec(b"a\xc0\x80", &mut chars)?;
/// decode_to_utf16_vec(b"\xed\xa0\x80", &mut chars)?;
/// assert_eq!(chars, [0x61, 0, 0xd800]);
/// assert!(decode_to_utf16_vec(b"\xff", &mut chars).is_err());
/// assert_eq!(chars, [0x61, 0, 0xd800]); // unchanged
/// # Ok::<(), wirebytes_mutf8::DecodeError>(())
/// ```
#[must_use = "the chars are not appended when the body is malformed"]
#[inline]
pub fn decode_to_utf16_vec(bytes: &[u8], dst: &mut Vec<u16>) -> Result<(), DecodeError> {
    decode_to_utf16_vec_with(bytes, dst, Kernels::detect())
}

/// [`decode_to_utf16_vec`] with `kernels`.
#[inline(always)]
pub(crate) fn decode_to_utf16_vec_with(
    bytes: &[u8],
    dst: &mut Vec<u16>,
    kernels: Kernels,
) -> Result<(), DecodeError> {
    // Short ASCII: widened straight into `dst` in one pass.
    if append_short_ascii(bytes, dst) {
        return Ok(());
    }
    decode_to_utf16_vec_planned(bytes, dst, kernels)
}

/// [`decode_to_utf16_vec`] past its short ASCII. (The block decoders write only
/// from the input's own position on: after chars already in `dst`, the loop here decodes
/// the chars they would have.)
fn decode_to_utf16_vec_planned(
    bytes: &[u8],
    dst: &mut Vec<u16>,
    kernels: Kernels,
) -> Result<(), DecodeError> {
    let start = dst.len();
    let mut out = SpareVec::appending_to(core::mem::take(dst), bytes.len());
    let result = decode_to_utf16_onto(bytes, kernels, &mut out);
    *dst = out.into_vec();
    if result.is_err() {
        dst.truncate(start);
    }
    result
}

/// The loop of [`decode_to_utf16`]: appends the chars of `bytes` to `out`.
fn decode_to_utf16_onto(
    bytes: &[u8],
    kernels: Kernels,
    out: &mut SpareVec<u16>,
) -> Result<(), DecodeError> {
    let n = bytes.len();
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
            counters::add(Path::Utf16AsciiBlocks, k);
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
                // Short of a block: eight ASCII bytes at a time where a word holds them.
                if i + 8 <= n {
                    let w = word(bytes, i);
                    if w & HIGH_BITS == 0 {
                        let units: [u16; 8] =
                            core::array::from_fn(|k| (w >> (8 * k)) as u16 & 0xFF);
                        out.store(units, 8);
                        counters::add(Path::Utf16AsciiWords, 8);
                        i += 8;
                        continue;
                    }
                }
                out.push(u16::from(c));
                i += 1;
                continue;
            }
            let next = kernels.utf16_text(bytes, i, out);
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
                    counters::add(Path::Utf16TwoByteWords, 8);
                    i += 8;
                    continue;
                }
            }
            let (v, len) = sequence(bytes, i)?;
            out.push(v as u16);
            i += len;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference;

    #[test]
    fn every_level_decodes_as_the_reference() {
        for bytes in crate::testing::bodies() {
            let want = reference::decode_to_utf16(&bytes);
            for (name, kernels) in Kernels::levels() {
                assert_eq!(
                    decode_to_utf16_with(&bytes, kernels),
                    want,
                    "{name} {bytes:02x?}"
                );
                // Appended after chars (the block decoders then leave it to the loop here), or
                // into an empty `Vec`; what was there is left alone on error.
                for head in [&[][..], &[0x68, 0xD800]] {
                    let mut dst = head.to_vec();
                    let got = decode_to_utf16_vec_with(&bytes, &mut dst, kernels);
                    assert_eq!(got, want.as_ref().map(drop).map_err(|e| *e), "{name} into");
                    let expected = match &want {
                        Ok(chars) => [head, chars].concat(),
                        Err(_) => head.to_vec(),
                    };
                    assert_eq!(dst, expected, "{name} into {bytes:02x?}");
                }
            }
        }
    }
}
