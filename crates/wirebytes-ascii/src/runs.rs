//! Long runs of chars of one UTF-8 length, in blocks of 16 chars (8 for 4-byte chars):
//! plain loops over fixed-size arrays that the compiler turns into vector code on any target
//! (SSE2, NEON, ...), used by the portable path where no SIMD kernel of [`crate::arch`] runs.
//!
//! A block is taken only when every byte of it belongs to the run: `src` is the UTF-8 of a
//! `str` and starts at a char boundary, so when every byte is a continuation byte or a lead
//! of an `n`-byte char and the block ends at a char boundary, it is whole `n`-byte chars. Each function returns the bytes of
//! `src` it read (a multiple of the block), having written one output byte per UTF-16 unit,
//! and nothing past it.

use crate::chunks::SplitChunks;
use crate::counters::{self, Path};
use crate::out::Out;
use crate::swar::{low_byte_of, surrogate_pairs_low_bytes, two_byte_low_bytes};

/// Whether `block` holds only whole chars of `N` bytes, given that it starts at a char
/// boundary: every byte is a continuation byte or a lead of an `N`-byte char, and the byte
/// after it (`after`) starts a char. The bytes are tested in one pass the compiler
/// vectorises, not at a stride.
#[inline(always)]
fn whole_chars<const LEN: usize>(block: &[u8; LEN], after: u8, lead_mask: u8, lead: u8) -> bool {
    let odd = block.iter().fold(0u8, |odd, &b| {
        odd | u8::from(b & 0xC0 != 0x80 && b & lead_mask != lead)
    });
    odd == 0 && after & 0xC0 != 0x80
}

/// A run of 2-byte chars (U+0080..U+07FF: Cyrillic, Greek, Hebrew, Arabic...), 16 per step.
#[inline]
pub(crate) fn two_byte_run(src: &[u8], out: &mut Out<'_>) -> usize {
    let mut read = 0;
    while let (Some(block), Some(&after)) = (
        src.get(read..).and_then(<[u8]>::first_chunk::<32>),
        src.get(read + 32),
    ) {
        if !whole_chars(block, after, 0xE0, 0xC0) || out.room() < 16 {
            break;
        }
        for word in block.split_chunks::<8>().0 {
            out.store(
                two_byte_low_bytes(u64::from_le_bytes(*word)).to_le_bytes(),
                4,
            );
        }
        read += 32;
    }
    counters::add(Path::TwoByteRuns, read);
    read
}

/// A run of 3-byte chars (U+0800..U+FFFF: CJK, Indic scripts...), 16 per step.
#[inline]
pub(crate) fn three_byte_run(src: &[u8], out: &mut Out<'_>) -> usize {
    let mut read = 0;
    while let (Some(block), Some(&after)) = (
        src.get(read..).and_then(<[u8]>::first_chunk::<48>),
        src.get(read + 48),
    ) {
        if !whole_chars(block, after, 0xF0, 0xE0) || out.room() < 16 {
            break;
        }
        let mut bytes = [0u8; 16];
        for (byte, char) in bytes.iter_mut().zip(block.split_chunks::<3>().0) {
            *byte = low_byte_of(char[1], char[2]);
        }
        out.store(bytes, 16);
        read += 48;
    }
    counters::add(Path::ThreeByteRuns, read);
    read
}

/// A run of 4-byte chars (U+10000..U+10FFFF: emoji, historic scripts), 8 per step: two
/// units, a surrogate pair, each.
#[inline]
pub(crate) fn four_byte_run(src: &[u8], out: &mut Out<'_>) -> usize {
    let mut read = 0;
    while let (Some(block), Some(&after)) = (
        src.get(read..).and_then(<[u8]>::first_chunk::<32>),
        src.get(read + 32),
    ) {
        if !whole_chars(block, after, 0xF8, 0xF0) || out.room() < 16 {
            break;
        }
        for word in block.split_chunks::<8>().0 {
            out.store(
                surrogate_pairs_low_bytes(u64::from_le_bytes(*word)).to_le_bytes(),
                4,
            );
        }
        read += 32;
    }
    counters::add(Path::FourByteRuns, read);
    read
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference;
    use std::format;
    use std::string::String;

    /// Each run function on `text` from its start: what it wrote is the reference's copy of
    /// the chars it read, and it stopped at a block that is not all of its length.
    fn check(run: fn(&[u8], &mut Out<'_>) -> usize, text: &str, expect_read: usize) {
        let mut got = [0u8; 256];
        let mut out = Out::new(&mut got);
        let read = run(text.as_bytes(), &mut out);
        assert_eq!(read, expect_read, "{text:?}");
        let mut want = [0u8; 256];
        let n = reference::copy_low_bytes(&text[..read], &mut want);
        assert_eq!(out.written(), &want[..n], "{text:?}");
    }

    #[test]
    fn runs_stop_at_the_first_block_with_another_char() {
        let cyrillic: String = ('\u{400}'..='\u{44F}').collect(); // 80 chars
        check(two_byte_run, &cyrillic, 64 * 2);
        let mut broken = cyrillic.clone();
        broken.insert(2 * 20, ' ');
        check(two_byte_run, &broken, 32);
        let cjk: String = ('\u{4E00}'..'\u{4E28}').collect(); // 40 chars
        check(three_byte_run, &cjk, 32 * 3);
        check(three_byte_run, &format!("\u{E9}{cjk}"), 0);
        let emoji: String = ('\u{1F600}'..'\u{1F614}').collect(); // 20 chars
        check(four_byte_run, &emoji, 16 * 4);
        check(
            four_byte_run,
            &format!("{}a{}", &emoji[..28], &emoji[28..]),
            0,
        );
    }
}
