//! Long runs of chars of one UTF-8 length, in blocks of 16 chars (8 for 4-byte chars):
//! plain loops over fixed-size arrays that the compiler turns into vector code on any target
//! (SSE2, NEON, ...), used by the portable path where no SIMD kernel of [`crate::arch`] runs.
//!
//! A block is taken only when every byte of it belongs to the run: `src` is the UTF-8 of a
//! `str` and starts at a char boundary, so once the lead bytes are where a run of `n`-byte
//! chars puts them, the continuation bytes follow them. Each function returns the bytes of
//! `src` it read (a multiple of the block), having written one output byte per UTF-16 unit,
//! and nothing past it.

use crate::arch::Out;

/// A run of 2-byte chars (U+0080..U+07FF: Cyrillic, Greek, Hebrew, Arabic...), 16 per step.
#[inline]
pub(crate) fn two_byte_run(src: &[u8], out: &mut Out<'_>) -> usize {
    let mut read = 0;
    while let Some(block) = src.get(read..).and_then(<[u8]>::first_chunk::<32>) {
        let mut leads_ok = true;
        let mut bytes = [0u8; 16];
        for (byte, pair) in bytes.iter_mut().zip(block.as_chunks::<2>().0) {
            let [lead, continuation] = *pair;
            leads_ok &= lead & 0xE0 == 0xC0;
            *byte = crate::swar::low_byte_of(lead, continuation);
        }
        if !leads_ok || !out.store(bytes, 16) {
            break;
        }
        read += 32;
    }
    read
}

/// A run of 3-byte chars (U+0800..U+FFFF: CJK, Indic scripts...), 16 per step.
#[inline]
pub(crate) fn three_byte_run(src: &[u8], out: &mut Out<'_>) -> usize {
    let mut read = 0;
    while let Some(block) = src.get(read..).and_then(<[u8]>::first_chunk::<48>) {
        let mut leads_ok = true;
        let mut bytes = [0u8; 16];
        for (byte, char) in bytes.iter_mut().zip(block.as_chunks::<3>().0) {
            let [lead, c1, c2] = *char;
            leads_ok &= lead & 0xF0 == 0xE0;
            *byte = crate::swar::low_byte_of(c1, c2);
        }
        if !leads_ok || !out.store(bytes, 16) {
            break;
        }
        read += 48;
    }
    read
}

/// A run of 4-byte chars (U+10000..U+10FFFF: emoji, historic scripts), 8 per step: two
/// units, a surrogate pair, each.
#[inline]
pub(crate) fn four_byte_run(src: &[u8], out: &mut Out<'_>) -> usize {
    let mut read = 0;
    while let Some(block) = src.get(read..).and_then(<[u8]>::first_chunk::<32>) {
        let mut leads_ok = true;
        let mut bytes = [0u8; 16];
        for (pair, char) in bytes
            .as_chunks_mut::<2>()
            .0
            .iter_mut()
            .zip(block.as_chunks::<4>().0)
        {
            let [lead, c1, c2, c3] = *char;
            leads_ok &= lead & 0xF8 == 0xF0;
            *pair = [
                crate::swar::high_surrogate_low_byte(c1, c2),
                crate::swar::low_byte_of(c2, c3),
            ];
        }
        if !leads_ok || !out.store(bytes, 16) {
            break;
        }
        read += 32;
    }
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
        check(two_byte_run, &cyrillic, 80 * 2);
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
