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

/// Copies `src` into `dst` (same length, at most 16 bytes) when it is all ASCII, with two
/// overlapping fixed-size loads and stores instead of a loop or a `memcpy` call; returns
/// `false`, having written nothing, when it is not.
#[inline(always)]
fn copy_short_ascii(src: &[u8], dst: &mut [u8]) -> bool {
    /// The first and the last `N` bytes of `src` (overlapping when `src.len() < 2 * N`).
    #[inline(always)]
    fn ends<const N: usize>(src: &[u8]) -> Option<(&[u8; N], &[u8; N])> {
        let first = src.first_chunk::<N>()?;
        let last = src.last_chunk::<N>()?;
        Some((first, last))
    }
    #[inline(always)]
    fn store<const N: usize>(dst: &mut [u8], first: &[u8; N], last: &[u8; N]) {
        if let Some(d) = dst.first_chunk_mut::<N>() {
            *d = *first;
        }
        if let Some(d) = dst.last_chunk_mut::<N>() {
            *d = *last;
        }
    }
    if let Some((first, last)) = ends::<8>(src) {
        let high = (u64::from_ne_bytes(*first) | u64::from_ne_bytes(*last)) & HIGH_BITS;
        if high != 0 {
            return false;
        }
        store(dst, first, last);
    } else if let Some((first, last)) = ends::<4>(src) {
        let high = (u32::from_ne_bytes(*first) | u32::from_ne_bytes(*last)) & 0x8080_8080;
        if high != 0 {
            return false;
        }
        store(dst, first, last);
    } else {
        if !src.is_ascii() {
            return false;
        }
        for (d, s) in dst.iter_mut().zip(src) {
            *d = *s;
        }
    }
    true
}

/// The low byte of the UTF-16 unit of a 2- or 3-byte UTF-8 sequence, from its last two bytes:
/// bits 7..6 are the low two bits of the byte before the last, bits 5..0 those of the last.
#[inline(always)]
fn low_byte_of(before_last: u8, last: u8) -> u8 {
    ((before_last & 0x03) << 6) | (last & 0x3F)
}

/// The low byte of the high surrogate of a 4-byte UTF-8 sequence `b0 b1 b2 b3` (code point
/// c): the surrogate is 0xD800 + ((c - 0x10000) >> 10), so its low byte is bits 17..10 of
/// c - 0x10000, which come from b1 (bits 17..12 of c) and b2 (bits 11..10), minus 0x40 for
/// the 0x10000 (bit 16 of c is bit 6 of that byte). b0 only holds bits above 17.
#[inline(always)]
fn high_surrogate_low_byte(b1: u8, b2: u8) -> u8 {
    (((b1 & 0x3F) << 2) | ((b2 >> 4) & 0x03)).wrapping_sub(0x40)
}

/// The fast `copy_low_bytes`: see the crate root for the contract.
pub(crate) fn copy_low_bytes(src: &str, dst: &mut [u8]) -> usize {
    let src = src.as_bytes();
    let n = src.len().min(dst.len());
    // Short ASCII strings (header names, tokens): no loop at all.
    if n <= 16 && copy_short_ascii(&src[..n], &mut dst[..n]) {
        return n;
    }

    // Most input is ASCII from the start: the bulk copy.
    let mut read = copy_ascii_prefix(&src[..n], &mut dst[..n]);
    let mut written = read;

    // The mixed kernel, while at least 24 bytes of `src` remain (so at least 8 more units,
    // since no char takes more than 3 UTF-8 bytes per UTF-16 unit) and `dst` has room for 8:
    // an 8-byte word of `src` is stored to `dst` as it is, before looking at it. Its ASCII
    // bytes are then in place; whatever follows the first non-ASCII byte is overwritten by
    // the output that comes next, which is sure to reach past the word. No byte is ever left
    // written past the final count.
    'words: while src.len() - read >= 24 {
        let (Some(word), Some(out)) = (
            src.get(read..).and_then(<[u8]>::first_chunk::<8>),
            dst.get_mut(written..)
                .and_then(<[u8]>::first_chunk_mut::<8>),
        ) else {
            break;
        };
        *out = *word;
        let high = u64::from_le_bytes(*word) & HIGH_BITS;
        if high == 0 {
            // A whole ASCII word: maybe a long run, continue in bulk.
            read += 8;
            written += 8;
            let s = &src[read..];
            let d = dst.get_mut(written..).unwrap_or_default();
            let m = s.len().min(d.len());
            let run = copy_ascii_prefix(&s[..m], &mut d[..m]);
            read += run;
            written += run;
            continue;
        }
        // Little-endian view: the lowest set bit belongs to the first non-ASCII byte.
        let ascii = (high.trailing_zeros() / 8) as usize;
        read += ascii;
        written += ascii;
        // Non-ASCII chars one after another (runs of CJK, emoji...) until the next ASCII byte.
        loop {
            let (Some(&[b0, b1, b2, b3]), Some(out)) = (
                src.get(read..).and_then(<[u8]>::first_chunk::<4>),
                dst.get_mut(written..)
                    .and_then(<[u8]>::first_chunk_mut::<2>),
            ) else {
                break 'words;
            };
            if b0 < 0x80 {
                continue 'words;
            } else if b0 < 0xE0 {
                // Two bytes, U+0080..U+07FF (0x80..0xBF never starts a char of a `str`).
                out[0] = low_byte_of(b0, b1);
                read += 2;
                written += 1;
            } else if b0 < 0xF0 {
                // Three bytes, U+0800..U+FFFF.
                out[0] = low_byte_of(b1, b2);
                read += 3;
                written += 1;
            } else {
                // Four bytes, U+10000..U+10FFFF: a surrogate pair, two units.
                *out = [high_surrogate_low_byte(b1, b2), low_byte_of(b2, b3)];
                read += 4;
                written += 2;
            }
        }
    }

    copy_tail(src, dst, read, written)
}

/// The end of `copy_low_bytes`, from `read` and `written` (at a char boundary) on, with a
/// bounds check for every byte: near the end of `src` or `dst`, where a surrogate pair can
/// be cut and the word-at-a-time kernel cannot run.
fn copy_tail(src: &[u8], dst: &mut [u8], mut read: usize, mut written: usize) -> usize {
    loop {
        // Bulk: the ASCII run at `read`, as far as both buffers go.
        let s = src.get(read..).unwrap_or_default();
        let d = dst.get_mut(written..).unwrap_or_default();
        let n = s.len().min(d.len());
        let run = copy_ascii_prefix(&s[..n], &mut d[..n]);
        read += run;
        written += run;

        // Then decode non-ASCII chars until the next ASCII byte.
        loop {
            let Some(out) = dst.get_mut(written) else {
                return written;
            };
            match *src.get(read..).unwrap_or_default() {
                [b0 @ 0xC0..=0xDF, b1, ..] => {
                    *out = low_byte_of(b0, b1);
                    read += 2;
                    written += 1;
                }
                [0xE0..=0xEF, b1, b2, ..] => {
                    *out = low_byte_of(b1, b2);
                    read += 3;
                    written += 1;
                }
                [0xF0..=0xF7, b1, b2, b3, ..] => {
                    *out = high_surrogate_low_byte(b1, b2);
                    written += 1;
                    // The pair may be cut by the end of `dst`: then only its first unit fits.
                    if let Some(out) = dst.get_mut(written) {
                        *out = low_byte_of(b2, b3);
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
