//! The fast `copy_low_bytes`: the `&str` driver, in safe code written so that LLVM turns the
//! hot loops into vector code, calling the SIMD kernels of [`Kernels`] where the CPU has
//! them (each of which returns having done nothing when it does not: the portable code here
//! then runs).
//!
//! An ASCII run is found 64 bytes at a time (the standard library's vectorised `is_ascii`),
//! then 8, then 1, and copied with one `copy_from_slice`. Short ASCII strings (up to 16 bytes)
//! take two overlapping fixed-size loads and stores. Past the first non-ASCII byte a
//! word-at-a-time loop takes over: each 8-byte word is stored as it is (its ASCII bytes are
//! then in place), a word with one or two 2-byte chars is packed in registers (8 bytes in, 7 or
//! 6 out), and other chars are decoded straight from UTF-8 into the low byte of their UTF-16
//! unit(s) without building the UTF-16 form, four at a time where four chars of the same UTF-8
//! length follow each other ([`crate::swar`]). Near the end of either buffer a careful tail
//! with a bounds check per char takes over (it is the one that may cut a surrogate pair).
//!
//! Every function here is compared against [`crate::reference`] by the tests below (at every
//! kernel level the CPU has) and by the sweep.

use crate::arch::Kernels;
use crate::swar::{
    CHUNK, FOUR_BYTE_BITS, FOUR_BYTE_MASK, HIGH_BITS, HIGH_BITS_WIDE, THREE_BYTE_BITS,
    THREE_BYTE_MASK, TWO_BYTE_BITS, TWO_BYTE_MASK, ascii_prefix_len, high_surrogate_low_byte,
    low_byte_of, squeeze_two_byte_chars, surrogate_pairs_low_bytes, three_byte_low_bytes,
    two_byte_low_bytes,
};

/// Copies the longest ASCII prefix of `src` into the start of `dst` and returns its length.
/// Bytes of `dst` past it are not written. `dst` is at least as long as `src`.
///
/// With AVX2, whole 64-byte blocks are checked and copied in one pass first; the rest of the
/// run (or all of it, without AVX2) is found first and copied after with one bulk copy.
#[inline]
fn copy_ascii_prefix(src: &[u8], dst: &mut [u8], kernels: Kernels) -> usize {
    let blocks = if src.len() >= CHUNK {
        kernels.copy_ascii_blocks(src, dst).unwrap_or(0)
    } else {
        0
    };
    if blocks == src.len() {
        return blocks;
    }
    let len = blocks + ascii_prefix_len(&src[blocks..]);
    dst[blocks..len].copy_from_slice(&src[blocks..len]);
    len
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

/// The fast `copy_low_bytes`: see the crate root for the contract. Inlined into the caller
/// for the sake of short ASCII strings (header names, tokens), which need no loop and no
/// call at all; the rest goes to `copy_long`.
#[inline]
pub(crate) fn copy_low_bytes(src: &str, dst: &mut [u8]) -> usize {
    copy_low_bytes_with(src, dst, Kernels::detect)
}

/// `copy_low_bytes` with the kernels `kernels` gives, asked for only past the short ASCII
/// case (so that a header name costs no atomic load): the public function passes
/// [`Kernels::detect`], and [`crate::levels`] each level this CPU has.
#[inline]
pub(crate) fn copy_low_bytes_with(
    src: &str,
    dst: &mut [u8],
    kernels: impl FnOnce() -> Kernels,
) -> usize {
    let bytes = src.as_bytes();
    let n = bytes.len().min(dst.len());
    if n <= 16 && copy_short_ascii(&bytes[..n], &mut dst[..n]) {
        return n;
    }
    copy_long(bytes, dst, kernels())
}

/// The fast `low_bytes`, with the kernels `kernels` gives: one exact-size allocation.
#[cfg(feature = "alloc")]
pub(crate) fn low_bytes(src: &str, kernels: Kernels) -> alloc::vec::Vec<u8> {
    if src.is_ascii() {
        // ASCII text is its own low bytes: one exact-size copy.
        return src.as_bytes().to_vec();
    }
    let len = crate::utf16::utf16_len(src);
    let mut out = alloc::vec![0u8; len];
    let written = copy_long(src.as_bytes(), &mut out, kernels);
    debug_assert_eq!(written, len);
    out
}

/// `copy_low_bytes` past the short ASCII case. `src` is the UTF-8 of a `str`.
fn copy_long(src: &[u8], dst: &mut [u8], kernels: Kernels) -> usize {
    let n = src.len().min(dst.len());
    // Most input is ASCII from the start: the bulk copy.
    let mut read = copy_ascii_prefix(&src[..n], &mut dst[..n], kernels);
    if read == n {
        // All ASCII as far as `dst` goes: the common case for headers.
        return n;
    }
    let mut written = read;

    // The mixed kernel, while at least 24 bytes of `src` remain (so at least 8 more units,
    // since no char takes more than 3 UTF-8 bytes per UTF-16 unit) and `dst` has room for 8:
    // an 8-byte word of `src` is stored to `dst` as it is, before looking at it. Its ASCII
    // bytes are then in place; whatever follows the first non-ASCII byte is overwritten by
    // the output that comes next, which is sure to reach past the word. No byte is ever left
    // written past the final count.
    while src.len() - read >= 24 {
        let (Some(word), Some(out)) = (
            src.get(read..).and_then(<[u8]>::first_chunk::<8>),
            dst.get_mut(written..)
                .and_then(<[u8]>::first_chunk_mut::<8>),
        ) else {
            break;
        };
        *out = *word;
        let w = u64::from_le_bytes(*word);
        let high = w & HIGH_BITS;
        if high == 0 {
            read += 8;
            written += 8;
            // Two more ASCII words: a long run, continue in bulk.
            let next = src[read..]
                .first_chunk::<16>()
                .map(|n| u128::from_le_bytes(*n));
            if next.is_some_and(|n| n & HIGH_BITS_WIDE == 0) {
                let s = &src[read..];
                let d = dst.get_mut(written..).unwrap_or_default();
                let m = s.len().min(d.len());
                let run = copy_ascii_prefix(&s[..m], d, kernels);
                read += run;
                written += run;
            }
            continue;
        }
        // Text in a Latin, Greek or Cyrillic script: ASCII with one or two 2-byte chars
        // (U+0080..U+07FF) in the word. Every byte gets its output value at once, then the
        // lead bytes are squeezed out, without a branch per byte: 8 bytes in, 8 minus the
        // leads out.
        let leads = w & (w << 1) & HIGH_BITS; // bytes 0xC0..=0xFF
        let long_leads = leads & (w << 2); // bytes 0xE0..=0xFF: 3- and 4-byte sequences
        // (Reading exactly 8 bytes keeps the next load's address free of this word's data:
        // a word that ends on a lead byte goes the slower way.)
        // (`x & (x - 1)` drops the lowest set bit: no `popcnt` on baseline x86-64.)
        // With AVX-512, a kernel takes any text without 4-byte chars, 64 bytes per step.
        let (r, m) = kernels.utf8_blocks(&src[read..], dst.get_mut(written..).unwrap_or_default());
        if r != 0 {
            read += r;
            written += m;
            continue;
        }
        if long_leads == 0 {
            // ASCII and 2-byte chars only so far: the SSSE3 kernel, if the CPU has it, takes
            // 16 bytes per step while that lasts.
            let (r, m) =
                kernels.two_byte_blocks(&src[read..], dst.get_mut(written..).unwrap_or_default());
            if r != 0 {
                read += r;
                written += m;
                continue;
            }
        }
        let second = leads & leads.wrapping_sub(1);
        if second & second.wrapping_sub(1) == 0
            && long_leads == 0
            && (high ^ leads) & 0x80 == 0
            && leads >> 63 == 0
        {
            // (`out` again: the borrow above ended for the kernel call's sake.)
            if let Some(out) = dst
                .get_mut(written..)
                .and_then(<[u8]>::first_chunk_mut::<8>)
            {
                *out = squeeze_two_byte_chars(w, high, leads, second).to_le_bytes();
            }
            read += 8;
            written += 7 - usize::from(second != 0);
            continue;
        }
        // Otherwise: the ASCII bytes of the word are in place; decode from the first other.
        let ascii = (high.trailing_zeros() / 8) as usize;
        read += ascii;
        written += ascii;
        // Non-ASCII chars one after another until the next ASCII byte.
        let (r, w) = decode_run(
            &src[read..],
            dst.get_mut(written..).unwrap_or_default(),
            kernels,
        );
        read += r;
        written += w;
        // Back to the word loop: an ASCII byte is next, or too little is left and the
        // loop's condition sends us to the careful tail.
    }

    copy_tail(src, dst, read, written, kernels)
}

/// Decodes non-ASCII chars from the start of `src` (a char boundary) into `dst` until an
/// ASCII byte, or until fewer than 16 bytes of `src` or 4 of `dst` are left; returns the
/// bytes read and written. Where four chars of the same UTF-8 length follow each other
/// (Cyrillic, CJK, emoji...), one masked compare of the 16-byte window proves it and they are
/// done together; otherwise one char at a time. With SSSE3, a run of at least four 3-byte
/// chars goes to a kernel that does sixteen per step (and leaves bytes past its count that
/// the next output overwrites, see `Kernels::three_byte_blocks`).
#[inline]
fn decode_run(src: &[u8], dst: &mut [u8], kernels: Kernels) -> (usize, usize) {
    let dst_len = dst.len();
    let mut rest = src;
    let mut out = dst;
    while let Some(window) = rest.first_chunk::<16>() {
        if out.len() < 4 {
            break;
        }
        // One load; the bytes are taken out of the register (little-endian: byte k is bits
        // 8k..8k+8), not loaded one by one.
        let wide = u128::from_le_bytes(*window);
        let word = wide as u64;
        let w = |k: u32| (wide >> (8 * k)) as u8;
        let b0 = w(0);
        let (used, made) = if b0 < 0x80 {
            break;
        } else if b0 < 0xE0 {
            // Two bytes, U+0080..U+07FF (0x80..0xBF never starts a char of a `str`).
            if word & TWO_BYTE_MASK == TWO_BYTE_BITS {
                out[..4].copy_from_slice(&two_byte_low_bytes(word).to_le_bytes());
                (8, 4)
            } else {
                out[0] = low_byte_of(w(0), w(1));
                (2, 1)
            }
        } else if b0 < 0xF0 {
            // Three bytes, U+0800..U+FFFF.
            if wide & THREE_BYTE_MASK == THREE_BYTE_BITS {
                // At least four in a row: a run worth the SSSE3 kernel, if the CPU has it.
                let (used, made) = kernels.three_byte_blocks(rest, out);
                if used != 0 {
                    rest = &rest[used..];
                    out = &mut core::mem::take(&mut out)[made..];
                    continue;
                }
                out[..4].copy_from_slice(&three_byte_low_bytes(wide).to_le_bytes());
                (12, 4)
            } else {
                out[0] = low_byte_of(w(1), w(2));
                (3, 1)
            }
        } else if word & FOUR_BYTE_MASK == FOUR_BYTE_BITS {
            // Two 4-byte chars (U+10000..U+10FFFF), four units: see `surrogate_pairs_low_bytes`.
            // A run of them goes to the SSSE3 kernel, if the CPU has it.
            let (used, made) = kernels.four_byte_blocks(rest, out);
            if used != 0 {
                rest = &rest[used..];
                out = &mut core::mem::take(&mut out)[made..];
                continue;
            }
            out[..4].copy_from_slice(&surrogate_pairs_low_bytes(word).to_le_bytes());
            (8, 4)
        } else {
            // One 4-byte char: a surrogate pair, two units.
            out[0] = high_surrogate_low_byte(w(1), w(2));
            out[1] = low_byte_of(w(2), w(3));
            (4, 2)
        };
        rest = &rest[used..];
        out = &mut core::mem::take(&mut out)[made..];
    }
    (src.len() - rest.len(), dst_len - out.len())
}

/// The end of `copy_low_bytes`, from `read` and `written` (at a char boundary) on, with a
/// bounds check for every byte: near the end of `src` or `dst`, where a surrogate pair can
/// be cut and the word-at-a-time kernel cannot run.
fn copy_tail(
    src: &[u8],
    dst: &mut [u8],
    mut read: usize,
    mut written: usize,
    kernels: Kernels,
) -> usize {
    loop {
        // Bulk: the ASCII run at `read`, as far as both buffers go.
        let s = src.get(read..).unwrap_or_default();
        let d = dst.get_mut(written..).unwrap_or_default();
        let n = s.len().min(d.len());
        let run = copy_ascii_prefix(&s[..n], &mut d[..n], kernels);
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

/// The fast path at every kernel level this CPU has (the portable code, and the SIMD kernels
/// when the CPU has them), against the reference, on inputs made to end runs and windows at
/// every place the kernels care about.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference;
    use std::string::String;
    use std::vec::Vec;
    use std::{format, vec};

    /// `copy_low_bytes` of `text` into a `dst` of each length in `dst_lens` (capped at four
    /// past the text's UTF-16 length), under each kernel choice: the count and every byte of
    /// `dst`, the untouched ones included, equal the reference's. A `dst` longer than the text
    /// shows any byte written past the count.
    fn same(text: &str, dst_lens: &[usize]) {
        let units = reference::utf16_len(text);
        for (level, kernels) in Kernels::levels() {
            for &len in dst_lens.iter().filter(|&&len| len <= units + 4) {
                let mut want = vec![0xA5u8; len];
                let mut got = vec![0xA5u8; len];
                let n_want = reference::copy_low_bytes(text, &mut want);
                let n_got = copy_low_bytes_with(text, &mut got, || kernels);
                assert_eq!(
                    (n_got, &got),
                    (n_want, &want),
                    "{level}, dst of {len}, text {text:?}"
                );
            }
        }
    }

    /// Eight 3-byte chars: 24 bytes that make only 8 units.
    const CJK_TAIL: &str = "\u{4E2D}\u{6587}\u{5B57}\u{7B26}\u{7F16}\u{7801}\u{6D4B}\u{8BD5}";

    /// 3-byte chars from both ends of their range and between, including the ones whose low
    /// byte is CR or LF.
    const THREE_BYTE: [char; 8] = [
        '\u{0800}', '\u{FFFF}', '\u{4E2D}', '\u{FF0A}', '\u{0D0D}', '\u{3002}', '\u{D7FF}',
        '\u{E000}',
    ];

    #[test]
    fn runs_of_three_byte_chars_with_one_other_char_anywhere() {
        for len in 0..=70 {
            let run: Vec<char> = (0..len).map(|i| THREE_BYTE[i % THREE_BYTE.len()]).collect();
            for prefix in ["", "a", "ab", "abc", "abcdefgh"] {
                let plain = format!("{prefix}{}xy", run.iter().collect::<String>());
                let units = reference::utf16_len(&plain);
                same(&plain, &[units, units - 1, units / 2, 15, 16, 17, 24]);
                for at in 0..len {
                    for other in ['x', '\u{E9}', '\u{07FF}', '\u{1F600}'] {
                        let mut chars = run.clone();
                        chars[at] = other;
                        let text = format!("{prefix}{}xy", chars.iter().collect::<String>());
                        let units = reference::utf16_len(&text);
                        same(&text, &[units, units + 4, units - 1, prefix.len() + at + 1]);
                    }
                }
            }
        }
    }

    #[test]
    fn text_of_ascii_and_two_byte_chars_with_one_other_char_anywhere() {
        // Runs of 2-byte chars of every length from 1 to 5 between ASCII of every length from
        // 0 to 3, so that windows of 16 bytes end on leads and on continuation bytes alike.
        let pattern = "\u{E9}a\u{0100}\u{07FF}bc\u{0430}\u{0431}\u{0432}d\u{00FF}\u{0080}\u{05D0}\u{010D}\u{FF}ef\u{0D0A}g";
        let chars: Vec<char> = pattern.chars().cycle().take(130).collect();
        for (len, suffix) in (0..=130)
            .step_by(3)
            .flat_map(|len| [(len, ""), (len, CJK_TAIL), (len, "\u{4E2D}\u{4E2D}\u{E9}")])
        {
            for prefix in ["", "x", "xy", "xyz", "wxyz", "vwxyz", "uvwxyz", "tuvwxyz"] {
                let base: String = chars[..len].iter().collect();
                let plain = format!("{prefix}{base}{suffix}");
                let units = reference::utf16_len(&plain);
                same(
                    &plain,
                    &[units, units + 4, units.saturating_sub(1), units / 2, 16, 17],
                );
                for at in 0..len {
                    for other in ['\u{4E2D}', '\u{1F600}', 'q'] {
                        let mut edited = chars[..len].to_vec();
                        edited[at] = other;
                        let text = format!("{prefix}{}{suffix}", edited.iter().collect::<String>());
                        let units = reference::utf16_len(&text);
                        same(&text, &[units, units + 4, prefix.len() + at + 1]);
                    }
                }
            }
        }
    }

    #[test]
    fn runs_of_four_byte_chars_with_one_other_char_anywhere() {
        const FOUR_BYTE: [char; 6] = [
            '\u{10000}',
            '\u{10FFFF}',
            '\u{1F600}',
            '\u{1F40D}',
            '\u{2000A}',
            '\u{E010D}',
        ];
        // A tail of 3-byte chars makes the fewest units per byte: the bytes a kernel leaves
        // past its count must still be overwritten.
        for (len, suffix) in (0..=40).flat_map(|len| [(len, "xy"), (len, CJK_TAIL)]) {
            let run: Vec<char> = (0..len).map(|i| FOUR_BYTE[i % FOUR_BYTE.len()]).collect();
            for prefix in ["", "a", "abc", "abcdefgh"] {
                let plain = format!("{prefix}{}{suffix}", run.iter().collect::<String>());
                let units = reference::utf16_len(&plain);
                same(
                    &plain,
                    &[units, units + 4, units - 1, units / 2, 15, 16, 17],
                );
                for at in 0..len {
                    for other in ['x', '\u{E9}', '\u{4E2D}'] {
                        let mut chars = run.clone();
                        chars[at] = other;
                        let text = format!("{prefix}{}{suffix}", chars.iter().collect::<String>());
                        let units = reference::utf16_len(&text);
                        let cut = prefix.len() + 2 * at + 1;
                        same(&text, &[units, units + 4, units - 1, cut]);
                    }
                }
            }
        }
    }

    #[test]
    fn long_runs_of_multibyte_chars_at_every_offset() {
        // Leads with every pair of low bits, so that a char finished from the window before
        // shows it if the wrong byte before it is taken.
        const CHARS: [char; 13] = [
            '\u{80}',
            '\u{FF}',
            '\u{100}',
            '\u{2BF}',
            '\u{3C0}',
            '\u{5D0}',
            '\u{7FF}',
            '\u{430}',
            '\u{4E2D}',
            '\u{FF0A}',
            '\u{1F600}',
            '\u{10000}',
            '\u{10FFFF}',
        ];
        // The kernels start at the first non-ASCII char: the ASCII after it moves the run
        // against their windows.
        for offset in 0..=70 {
            for step in [1, 3, 7, 11] {
                let run: String = (0..150).map(|i| CHARS[(i * step) % CHARS.len()]).collect();
                let text = format!("\u{E9}{}{run}z", "a".repeat(offset));
                let units = reference::utf16_len(&text);
                same(&text, &[units, units + 4, units - 1, units - 40]);
            }
        }
    }

    #[test]
    fn ascii_blocks_with_one_other_char_anywhere() {
        for len in 0..=200 {
            let ascii: String = (0..len)
                .map(|i| char::from(b'!' + (i % 90) as u8))
                .collect();
            same(&ascii, &[len, len + 1, len / 2, 63, 64, 65, 128]);
            for at in 0..len {
                for other in ['\u{80}', '\u{4E2D}', '\u{1F600}'] {
                    let mut text = String::from(&ascii[..at]);
                    text.push(other);
                    text.push_str(&ascii[at + 1..]);
                    let units = reference::utf16_len(&text);
                    same(&text, &[units, units + 4, at, at + 1]);
                }
            }
        }
    }

    #[test]
    fn ascii_blocks_at_every_alignment() {
        let long: String = (0..600)
            .map(|i| char::from(b' ' + (i % 95) as u8))
            .collect();
        for start in 0..64 {
            for end in (start..=long.len()).step_by(7) {
                let text = &long[start..end];
                same(text, &[text.len(), text.len().saturating_sub(1), 64, 130]);
            }
        }
    }
}
