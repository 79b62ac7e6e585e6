//! Small domains exhausted: all 65,536 `u16` values, every `char`, and every length 0..=130 at
//! every alignment 0..=15 of source and destination, each against the scalar reference.

use wirebytes_ascii::{
    copy_low_bytes, copy_low_bytes_from_utf16, low_bytes, low_bytes_from_utf16,
    low_bytes_from_utf16_to_vec, low_bytes_len, reference,
};

const UNTOUCHED: u8 = 0xA5;

/// Every `char`, U+0000..=U+10FFFF without the surrogate gap.
/// Every char (every 4099th under Miri).
fn all_chars() -> impl Iterator<Item = char> {
    (0..=0x10_FFFF)
        .step_by(wirebytes_testkit::scale_miri(1, 1, 12297))
        .filter_map(char::from_u32)
}

/// Runs fast and reference `copy_low_bytes` into `dst_len`-byte buffers and asserts that the
/// counts and the whole buffers (bytes past the count included) agree.
fn same_str(src: &str, dst_len: usize) {
    let mut fast = [UNTOUCHED; 96];
    let mut slow = [UNTOUCHED; 96];
    let n = copy_low_bytes(src, &mut fast[..dst_len]);
    let m = reference::copy_low_bytes(src, &mut slow[..dst_len]);
    assert_eq!((n, fast), (m, slow), "{src:?} into {dst_len} bytes");
}

#[test]
fn every_u16_alone_and_in_context() {
    for unit in (0..=u16::MAX).step_by(wirebytes_testkit::scale_miri(1, 1, 771)) {
        let want = unit as u8;
        let mut dst = [UNTOUCHED; 2];
        assert_eq!(copy_low_bytes_from_utf16(&[unit], &mut dst), 1);
        assert_eq!(dst, [want, UNTOUCHED], "unit {unit:04x}");
        assert_eq!(copy_low_bytes_from_utf16(&[unit], &mut []), 0);
        // Between ASCII units, at a position that a 32-unit vector step covers.
        let mut src = [u16::from(b'a'); 40];
        src[33] = unit;
        let mut fast = [0u8; 40];
        let mut slow = [0u8; 40];
        assert_eq!(copy_low_bytes_from_utf16(&src, &mut fast), 40);
        reference::copy_low_bytes_from_utf16(&src, &mut slow);
        assert_eq!(fast, slow, "unit {unit:04x} at 33");
    }
}

#[test]
fn all_u16_values_in_one_buffer() {
    let all: Vec<u16> = (0..=u16::MAX)
        .step_by(wirebytes_testkit::scale_miri(1, 1, 381))
        .collect();
    let expected: Vec<u8> = all.iter().map(|&u| u as u8).collect();
    assert_eq!(reference::low_bytes_from_utf16(&all), expected);
    assert_eq!(low_bytes_from_utf16(&all), expected);
    let mut appended = b"prefix".to_vec();
    low_bytes_from_utf16_to_vec(&all, &mut appended);
    assert!(appended[..6] == *b"prefix" && appended[6..] == expected);
    // And starting at every offset of a vector step, into a destination that is one short.
    for offset in (0..32).step_by(wirebytes_testkit::scale_miri(1, 1, 21)) {
        let src = &all[offset..];
        let mut fast = vec![UNTOUCHED; src.len()];
        let n = copy_low_bytes_from_utf16(src, &mut fast[..src.len() - 1]);
        assert_eq!(n, src.len() - 1);
        assert_eq!(fast[..n], expected[offset..offset + n]);
        assert_eq!(fast[n], UNTOUCHED);
    }
}

#[test]
fn every_char_alone_and_cut() {
    let mut buf = [0u8; 4];
    for c in all_chars() {
        let s = c.encode_utf8(&mut buf);
        let units = c.len_utf16();
        assert_eq!(low_bytes_len(s), units, "{c:?}");
        for dst_len in 0..=units + 1 {
            same_str(s, dst_len);
        }
    }
}

#[test]
fn every_char_between_ascii_runs() {
    // The char after a full 32-byte ASCII chunk and an 8-byte word, then ASCII again, with a
    // destination that ends inside, at and after it.
    // The char twice, then after one ASCII byte, with 40 bytes after: the word-at-a-time
    // kernel (which needs 24 bytes ahead) runs as well as the careful tail.
    let prefix = "0123456789abcdefghijklmnopqrstuvwxyz0123";
    for c in all_chars().step_by(wirebytes_testkit::scale(1, 16)) {
        let s = format!("{prefix}{c}{c}-{c}{prefix}");
        let units = low_bytes_len(&s);
        assert_eq!(units, reference::low_bytes_len(&s));
        let one = c.len_utf16();
        let cuts = [40, 40 + one - 1, 40 + one, 40 + 2 * one, 40 + 3 * one + 1];
        for dst_len in cuts.into_iter().chain([units - 1, units, units + 3]) {
            same_str(&s, dst_len);
        }
        assert_eq!(low_bytes(&s), reference::low_bytes(&s), "{c:?}");
    }
}

#[test]
fn all_chars_in_one_string() {
    let text: String = all_chars().collect();
    let expected = reference::low_bytes(&text);
    assert_eq!(low_bytes_len(&text), expected.len());
    let rendered = low_bytes(&text);
    assert_eq!(rendered.len(), expected.len());
    assert!(rendered == expected, "all chars in one string differ");
}

use wirebytes_testkit::text::KINDS;

/// `len` UTF-16 units of text: ASCII, with a non-ASCII char `kind` at unit `at` when given
/// (a pair counts two units, so the text may end one unit longer).
fn text_with(len: usize, at: Option<(usize, &str)>) -> String {
    let mut s = String::new();
    let mut units = 0;
    let mut i = 0u8;
    while units < len {
        match at {
            Some((pos, kind)) if pos == units => {
                s.push_str(kind);
                units += kind.encode_utf16().count();
            }
            _ => {
                s.push(char::from(b'a' + i % 26));
                i = i.wrapping_add(1);
                units += 1;
            }
        }
    }
    s
}

/// Compares fast and reference `copy_low_bytes` for `text` placed `src_align` bytes into a
/// larger string, into a destination `dst_align` bytes into a larger buffer, for destination
/// lengths shorter than, equal to and longer than the text. The whole buffers must agree.
fn aligned_str(text: &str, src_align: usize, dst_align: usize) {
    let padded = format!("{}{text}", "_".repeat(src_align));
    let src = &padded[src_align..];
    let units = low_bytes_len(src);
    assert_eq!(units, reference::low_bytes_len(src), "{text:?}");
    let mut fast = [UNTOUCHED; 256];
    let mut slow = [UNTOUCHED; 256];
    for dst_len in [
        0,
        units / 2,
        units.saturating_sub(1),
        units,
        units + 1,
        units + 9,
    ] {
        fast.fill(UNTOUCHED);
        slow.fill(UNTOUCHED);
        let n = copy_low_bytes(src, &mut fast[dst_align..dst_align + dst_len]);
        let m = reference::copy_low_bytes(src, &mut slow[dst_align..dst_align + dst_len]);
        assert_eq!(n, m, "{text:?} at {src_align}/{dst_align} into {dst_len}");
        assert!(
            fast == slow,
            "{text:?} at {src_align}/{dst_align} into {dst_len}"
        );
    }
}

#[test]
fn every_length_and_alignment_ascii_and_mixed() {
    let mixed: String = KINDS.iter().cycle().take(200).copied().collect();
    for len in (0..=130).step_by(wirebytes_testkit::scale_miri(1, 1, 87)) {
        let ascii = text_with(len, None);
        // Mixed text cut to `len` chars.
        let mixed: String = mixed.chars().take(len).collect();
        for src_align in (0..16).step_by(wirebytes_testkit::scale_miri(1, 1, 21)) {
            for dst_align in (0..16).step_by(wirebytes_testkit::scale_miri(1, 1, 15)) {
                aligned_str(&ascii, src_align, dst_align);
                aligned_str(&mixed, src_align, dst_align);
            }
        }
    }
}

#[test]
fn every_length_with_one_non_ascii_char_at_every_position() {
    // Every position of a non-ASCII char in every length, for each kind of char; alignments
    // are swept together (the pair (a, 15 - a)) to keep the run short.
    for len in (0..=130).step_by(wirebytes_testkit::scale_miri(1, 1, 69)) {
        for at in (0..len).step_by(wirebytes_testkit::scale_miri(1, 1, 33)) {
            for kind in KINDS {
                let text = text_with(len, Some((at, kind)));
                for align in [0, 3, 8, 13] {
                    aligned_str(&text, align, 15 - align);
                }
            }
        }
    }
}

#[test]
fn two_non_ascii_chars_at_every_distance() {
    // The word-at-a-time kernel starts at the first non-ASCII char; a second one lands at
    // every position of the following words, for every pair of kinds.
    for lead in (0..9).step_by(wirebytes_testkit::scale_miri(1, 1, 12)) {
        for first in KINDS {
            for gap in (0..=17).step_by(wirebytes_testkit::scale_miri(1, 1, 24)) {
                for second in KINDS {
                    let text = format!(
                        "{}{first}{}{second}{}",
                        "L".repeat(lead),
                        "g".repeat(gap),
                        "t".repeat(30)
                    );
                    aligned_str(&text, lead % 4, gap % 16);
                }
            }
        }
    }
}

#[test]
fn every_length_and_alignment_utf16() {
    // A soup of every kind of unit, lone surrogates included.
    let soup: Vec<u16> = (0..16 + 130)
        .map(|i: u32| match i % 7 {
            0 => 0xD800 + (i * 37) as u16 % 0x800,
            1..=3 => (i % 0x80) as u16,
            4 => 0xFF00 | (i as u16 & 0xFF),
            5 => (i * 2654) as u16,
            _ => 0x010D,
        })
        .collect();
    let ascii: Vec<u16> = (0..16 + 130).map(|i| u16::from(b'A') + i % 26).collect();
    let mut fast = [UNTOUCHED; 16 + 140];
    let mut slow = [UNTOUCHED; 16 + 140];
    for units in [&soup, &ascii] {
        for len in (0..=130).step_by(wirebytes_testkit::scale_miri(1, 1, 87)) {
            for src_align in (0..16).step_by(wirebytes_testkit::scale_miri(1, 1, 21)) {
                let src = &units[src_align..src_align + len];
                for dst_align in (0..16).step_by(wirebytes_testkit::scale_miri(1, 1, 15)) {
                    for dst_len in [0, len / 2, len.saturating_sub(1), len, len + 1, len + 9] {
                        fast.fill(UNTOUCHED);
                        slow.fill(UNTOUCHED);
                        let n = copy_low_bytes_from_utf16(
                            src,
                            &mut fast[dst_align..dst_align + dst_len],
                        );
                        let m = reference::copy_low_bytes_from_utf16(
                            src,
                            &mut slow[dst_align..dst_align + dst_len],
                        );
                        assert_eq!(n, m);
                        assert!(fast == slow, "{len} units at {src_align}/{dst_align}");
                    }
                }
            }
            let src = &units[..len];
            assert_eq!(
                low_bytes_from_utf16(src),
                reference::low_bytes_from_utf16(src)
            );
        }
    }
}
