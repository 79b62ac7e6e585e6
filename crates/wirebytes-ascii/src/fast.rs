//! The fast paths, in safe code written so that LLVM turns the hot loops into vector code.
//!
//! - `&str`: ASCII runs are found and copied 32 bytes at a time (then 8, then 1); the bytes
//!   between runs are decoded straight from UTF-8 into the low byte of their UTF-16 unit(s),
//!   without building the UTF-16 form, and the next ASCII byte sends us back to the bulk copy.
//! - `&[u16]`: a fixed-width truncating loop (pack the low bytes of 32 units), which compiles to
//!   `pand` + `packuswb` (SSE2) or the target's equivalent.
//! - `utf16_len`: one counting pass over the UTF-8 bytes with byte-sized accumulators.
//!
//! Every function here is compared against [`crate::reference`] by the tests and the sweep.

/// Bytes checked and copied per step of the ASCII bulk loop.
const CHUNK: usize = 32;
/// UTF-16 units truncated per step of the UTF-16 loop.
const UNITS: usize = 32;
/// The high bit of every byte of a word: set in a byte iff that byte is not ASCII.
const HIGH_BITS: u64 = 0x8080_8080_8080_8080;

/// True when all 32 bytes are ASCII: OR the four words together, test the high bits.
#[inline(always)]
fn is_ascii_chunk(chunk: &[u8; CHUNK]) -> bool {
    let (words, _) = chunk.as_chunks::<8>();
    let mut acc = 0u64;
    for word in words {
        acc |= u64::from_ne_bytes(*word);
    }
    acc & HIGH_BITS == 0
}

/// Copies the longest ASCII prefix of `src` into the start of `dst` and returns its length.
/// Bytes of `dst` past that prefix are not written. `src` and `dst` have the same length.
#[inline]
fn copy_ascii_prefix(src: &[u8], dst: &mut [u8]) -> usize {
    let mut done = 0;

    // 32 bytes at a time while the whole chunk is ASCII: one vector load, test and store.
    let (src_chunks, _) = src.as_chunks::<CHUNK>();
    let (dst_chunks, _) = dst.as_chunks_mut::<CHUNK>();
    for (s, d) in src_chunks.iter().zip(dst_chunks) {
        if !is_ascii_chunk(s) {
            break;
        }
        *d = *s;
        done += CHUNK;
    }

    // Then 8 at a time; the first non-ASCII byte of a word is found from its high bits.
    let (src, dst) = (&src[done..], &mut dst[done..]);
    let (src_words, _) = src.as_chunks::<8>();
    let (dst_words, _) = dst.as_chunks_mut::<8>();
    for (s, d) in src_words.iter().zip(dst_words.iter_mut()) {
        let high = u64::from_le_bytes(*s) & HIGH_BITS;
        if high != 0 {
            // Little-endian view: the lowest set bit belongs to the first non-ASCII byte.
            let ascii = (high.trailing_zeros() / 8) as usize;
            for (d, s) in d.iter_mut().zip(s).take(ascii) {
                *d = *s;
            }
            return done + ascii;
        }
        *d = *s;
        done += 8;
    }

    // The last few bytes one by one.
    let tail_from = src.len() - src.len() % 8;
    for (s, d) in src[tail_from..].iter().zip(&mut dst[tail_from..]) {
        if !s.is_ascii() {
            break;
        }
        *d = *s;
        done += 1;
    }
    done
}

/// The fast `copy_low_bytes`: see the crate root for the contract.
pub(crate) fn copy_low_bytes(src: &str, dst: &mut [u8]) -> usize {
    let src = src.as_bytes();
    let mut read = 0;
    let mut written = 0;
    loop {
        // Bulk: the ASCII run at `read`, as far as both buffers go.
        let s = src.get(read..).unwrap_or_default();
        let d = dst.get_mut(written..).unwrap_or_default();
        let n = s.len().min(d.len());
        let run = copy_ascii_prefix(&s[..n], &mut d[..n]);
        read += run;
        written += run;

        // Then decode non-ASCII chars from UTF-8 until the next ASCII byte. A UTF-8 lead byte
        // carries the top bits of the code point; the low 8 bits of a UTF-16 unit come from
        // the last two bytes of its sequence (2 bits + 6 bits).
        loop {
            let Some(out) = dst.get_mut(written) else {
                return written;
            };
            match *src.get(read..).unwrap_or_default() {
                // Two bytes, U+0080..U+07FF: one unit.
                [b0 @ 0xC0..=0xDF, b1, ..] => {
                    // The lead byte's two lowest bits are bits 7..6 of the unit.
                    *out = ((b0 & 0x03) << 6) | (b1 & 0x3F);
                    read += 2;
                    written += 1;
                }
                // Three bytes, U+0800..U+FFFF: one unit.
                [0xE0..=0xEF, b1, b2, ..] => {
                    *out = ((b1 & 0x03) << 6) | (b2 & 0x3F);
                    read += 3;
                    written += 1;
                }
                // Four bytes, U+10000..U+10FFFF: a surrogate pair, two units. The high
                // surrogate is 0xD800 + ((c - 0x10000) >> 10): its low byte is bits 17..10 of
                // c - 0x10000. The low surrogate is 0xDC00 + (c & 0x3FF): its low byte is c's.
                [b0 @ 0xF0..=0xF7, b1, b2, b3, ..] => {
                    let c = (u32::from(b0 & 0x07) << 18)
                        | (u32::from(b1 & 0x3F) << 12)
                        | (u32::from(b2 & 0x3F) << 6)
                        | u32::from(b3 & 0x3F);
                    *out = (c.wrapping_sub(0x1_0000) >> 10) as u8;
                    written += 1;
                    // The pair may be cut by the end of `dst`: then only its first unit fits.
                    if let Some(out) = dst.get_mut(written) {
                        *out = ((b2 & 0x03) << 6) | (b3 & 0x3F);
                        written += 1;
                    }
                    read += 4;
                }
                // ASCII again: back to the bulk copy.
                [0x00..=0x7F, ..] => break,
                // The end of `src` (a `str` holds no other byte sequence).
                _ => return written,
            }
        }
    }
}

/// The fast `copy_low_bytes_utf16`: see the crate root for the contract.
pub(crate) fn copy_low_bytes_utf16(src: &[u16], dst: &mut [u8]) -> usize {
    let n = src.len().min(dst.len());
    let (src, dst) = (&src[..n], &mut dst[..n]);
    let (src_chunks, src_tail) = src.as_chunks::<UNITS>();
    let (dst_chunks, dst_tail) = dst.as_chunks_mut::<UNITS>();
    for (s, d) in src_chunks.iter().zip(dst_chunks) {
        for (d, s) in d.iter_mut().zip(s) {
            *d = *s as u8;
        }
    }
    for (d, s) in dst_tail.iter_mut().zip(src_tail) {
        *d = *s as u8;
    }
    n
}

/// Counts, over `bytes`, the bytes that start a char plus the lead bytes of 4-byte
/// sequences: the UTF-16 length. At most 127 bytes, so that the per-byte sums fit in a `u8`.
#[inline(always)]
fn units_in(bytes: &[u8]) -> u8 {
    let mut units = 0u8;
    for &b in bytes {
        // Every byte that is not a continuation byte (0x80..=0xBF) starts a char: one unit;
        // a lead byte 0xF0.. starts a supplementary char: one unit more.
        units += u8::from((b as i8) >= -0x40) + u8::from(b >= 0xF0);
    }
    units
}

/// The fast `utf16_len`: see the crate root for the contract.
pub(crate) fn utf16_len(src: &str) -> usize {
    const BLOCK: usize = 64;
    let (blocks, tail) = src.as_bytes().as_chunks::<BLOCK>();
    let mut total = 0usize;
    for block in blocks {
        total += usize::from(units_in(block));
    }
    total + usize::from(units_in(tail))
}
