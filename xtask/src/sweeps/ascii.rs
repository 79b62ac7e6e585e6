//! The `ascii` sweep: wirebytes-ascii's fast paths against its scalar reference over every
//! `u16` value, every `char`, every length 0..=130 at every alignment 0..=15 of source and
//! destination, random text and random UTF-16 soup; the appending forms (`low_bytes_to_vec`,
//! `low_bytes_to_buf`, `low_bytes_from_utf16_to_vec`) and `render_header_value`, at every
//! kernel level where they have one; the header-byte rule (`is_header_byte`,
//! `find_invalid_header_byte`) against the http crate's `HeaderValue::from_bytes` over every
//! byte and random rendered text, `header_value` against `HeaderValue::from_bytes`, header
//! names against `HeaderName::from_bytes` and header and status lines against the reference;
//! and, when `java` is on PATH, against the JDK's
//! `String.getBytes(int, int, byte[], int)` itself: whole strings (appended too), prefixes (a
//! shorter destination) and middles (`srcBegin > 0`), lone surrogates included.

use wirebytes_ascii::{
    copy_low_bytes, copy_low_bytes_from_utf16, find_invalid_header_byte, find_line_break,
    is_header_byte, low_bytes, low_bytes_from_utf16, low_bytes_from_utf16_to_vec, low_bytes_len,
    low_bytes_to_vec, reference, render_header_value,
};

use bytes::BufMut;

use crate::verify::{Ctx, Java};
use wirebytes_testkit::Rng;
use wirebytes_testkit::text::{EDGE_CHARS, KINDS, random_text, random_units};

/// What the code under test leaves in a destination buffer: the count it returned and every
/// byte of the buffer, so that a byte written past the count shows as a difference.
type Outcome = (usize, Vec<u8>);

/// A byte no case writes on purpose: bytes of a buffer left alone keep it.
const UNTOUCHED: u8 = 0xA5;

/// Runs `copy` on `dst_len` bytes starting `dst_align` bytes into a prefilled buffer.
fn outcome(dst_align: usize, dst_len: usize, copy: impl FnOnce(&mut [u8]) -> usize) -> Outcome {
    let mut buf = vec![UNTOUCHED; dst_align + dst_len + 8];
    let n = copy(&mut buf[dst_align..dst_align + dst_len]);
    (n, buf)
}

/// Every `char`, U+0000..=U+10FFFF without the surrogate gap.
fn all_chars() -> impl Iterator<Item = char> {
    (0..=0x10_FFFF).filter_map(char::from_u32)
}

pub(crate) fn run(ctx: &mut Ctx) {
    every_u16(ctx);
    every_char(ctx);
    all_chars_in_one(ctx);
    lengths_and_alignments(ctx);
    two_chars_at_every_distance(ctx);
    random_strings(ctx);
    random_soup(ctx);
    line_breaks(ctx);
    appended(ctx);
    header_rule(ctx);
    header_values(ctx);
    header_lines(ctx);
    match ctx.java() {
        Some(java) => jdk_parity(ctx, &java),
        None => ctx.skip(
            "jdk getBytes(int,int,byte[],int) parity",
            "java not on PATH",
        ),
    }
}

/// All 65,536 `u16` values alone, inside ASCII at every position of a 32-unit vector step,
/// and all of them in one buffer at 32 offsets into a destination one byte short.
fn every_u16(ctx: &mut Ctx) {
    let mut check = ctx.check(
        "every u16: copy_low_bytes_from_utf16 = reference",
        65_536 * 3 + 32,
    );
    for unit in 0..=u16::MAX {
        let src = [unit];
        check.case_in(
            "alone",
            &src[..],
            outcome(0, 1, |d| reference::copy_low_bytes_from_utf16(&src, d)),
            outcome(0, 1, |d| copy_low_bytes_from_utf16(&src, d)),
        );
        let mut ctx_units = [u16::from(b'a'); 70];
        ctx_units[usize::from(unit) % 64] = unit;
        check.case_in(
            "in ASCII",
            &ctx_units[..],
            outcome(3, 70, |d| {
                reference::copy_low_bytes_from_utf16(&ctx_units, d)
            }),
            outcome(3, 70, |d| copy_low_bytes_from_utf16(&ctx_units, d)),
        );
        check.case_in(
            "low_bytes_from_utf16",
            &src[..],
            reference::low_bytes_from_utf16(&src),
            low_bytes_from_utf16(&src),
        );
    }
    let all: Vec<u16> = (0..=u16::MAX).collect();
    for offset in 0..32 {
        let src = &all[offset..];
        let len = src.len() - 1;
        check.case_in(
            &format!("all units from {offset}"),
            "(all 65,536 units)",
            outcome(offset, len, |d| {
                reference::copy_low_bytes_from_utf16(src, d)
            }),
            outcome(offset, len, |d| copy_low_bytes_from_utf16(src, d)),
        );
    }
}

/// Every `char` alone into destinations of every length up to one past it, and between ASCII
/// runs (after a 32-byte chunk and a word) into destinations that end inside, at and after it.
fn every_char(ctx: &mut Ctx) {
    let mut check = ctx.check(
        "every char: copy_low_bytes, low_bytes_len = reference",
        1_112_064 * 3,
    );
    let mut buf = [0u8; 4];
    let prefix = "0123456789abcdefghijklmnopqrstuvwxyz0123";
    for c in all_chars() {
        let s: &str = c.encode_utf8(&mut buf);
        let units = c.len_utf16();
        let mut same = low_bytes_len(s) == reference::low_bytes_len(s);
        for dst_len in 0..=units + 1 {
            same &= outcome(0, dst_len, |d| reference::copy_low_bytes(s, d))
                == outcome(0, dst_len, |d| copy_low_bytes(s, d));
        }
        if same {
            check.pass();
        } else {
            check.fail(
                s,
                "alone: copy_low_bytes or low_bytes_len differs".to_owned(),
            );
        }

        // Twice in a row, then after one ASCII byte, with 32 bytes after: the word-at-a-time
        // kernel runs (it needs 24 bytes ahead) as well as the careful tail.
        let text = format!("{prefix}{c}{c}-{c}{prefix}");
        let units = low_bytes_len(&text);
        let mut same = units == reference::low_bytes_len(&text);
        let one = c.len_utf16();
        let cuts = [
            40,
            40 + one - 1,
            40 + one,
            40 + 2 * one,
            40 + 3 * one + 1,
            units,
        ];
        for dst_len in cuts.into_iter().chain([units - 1, units + 3]) {
            same &= outcome(1, dst_len, |d| reference::copy_low_bytes(&text, d))
                == outcome(1, dst_len, |d| copy_low_bytes(&text, d));
        }
        if same {
            check.pass();
        } else {
            check.fail(
                &text,
                "between ASCII runs: copy_low_bytes differs".to_owned(),
            );
        }
        check.case_in(
            "low_bytes",
            &text,
            reference::low_bytes(&text),
            low_bytes(&text),
        );
    }
}

/// All chars in one string, in order, and from 16 byte offsets.
fn all_chars_in_one(ctx: &mut Ctx) {
    let text: String = all_chars().collect();
    let mut check = ctx.check("all chars in one string: low_bytes, copy_low_bytes", 17);
    check.case_in(
        "low_bytes",
        "(all chars)",
        reference::low_bytes(&text),
        low_bytes(&text),
    );
    let units = reference::low_bytes_len(&text);
    for offset in 0..16 {
        let padded = format!("{}{text}", "_".repeat(offset));
        let src = &padded[offset..];
        check.case_in(
            &format!("at offset {offset}, one byte short"),
            "(all chars)",
            outcome(offset, units - 1, |d| reference::copy_low_bytes(src, d)),
            outcome(offset, units - 1, |d| copy_low_bytes(src, d)),
        );
    }
}

/// Every length 0..=130 at every alignment 0..=15 of source and destination, for ASCII, mixed
/// text and UTF-16 soup, into destinations shorter than, as long as and longer than the input.
fn lengths_and_alignments(ctx: &mut Ctx) {
    let mut check = ctx.check(
        "lengths 0..=130 x alignments 16 x 16 (low_bytes_len at each level)",
        131 * 256 * 3,
    );
    let kinds = KINDS;
    let mixed: String = kinds.iter().cycle().take(200).copied().collect();
    let mut rng = Rng::new(0xA5C1_0001);
    let soup: Vec<u16> = (0..16 + 130)
        .map(|_| match rng.below(4) {
            0 => 0xD800 + rng.below(0x800) as u16,
            1 => rng.next_u64() as u16,
            _ => 0x20 + rng.below(0x5F) as u16,
        })
        .collect();
    for len in 0..=130 {
        let ascii: String = (0..len)
            .map(|i| char::from(b'a' + (i % 26) as u8))
            .collect();
        let mixed: String = mixed.chars().take(len).collect();
        for src_align in 0..16 {
            for dst_align in 0..16 {
                for text in [&ascii, &mixed] {
                    let padded = format!("{}{text}", "_".repeat(src_align));
                    let src = &padded[src_align..];
                    let units = reference::low_bytes_len(src);
                    let mut same = low_bytes_len(src) == units
                        && wirebytes_ascii::levels::all().all(|l| l.low_bytes_len(src) == units);
                    for dst_len in [0, units / 2, units.saturating_sub(1), units, units + 9] {
                        same &= outcome(dst_align, dst_len, |d| reference::copy_low_bytes(src, d))
                            == outcome(dst_align, dst_len, |d| copy_low_bytes(src, d));
                    }
                    if same {
                        check.pass();
                    } else {
                        check.fail(
                            src,
                            format!("{len} chars at {src_align}/{dst_align}: differs"),
                        );
                    }
                }
                let src = &soup[src_align..src_align + len];
                let mut same = true;
                for dst_len in [0, len / 2, len.saturating_sub(1), len, len + 9] {
                    same &=
                        outcome(dst_align, dst_len, |d| {
                            reference::copy_low_bytes_from_utf16(src, d)
                        }) == outcome(dst_align, dst_len, |d| copy_low_bytes_from_utf16(src, d));
                }
                if same {
                    check.pass();
                } else {
                    check.fail(
                        src,
                        format!("{len} units at {src_align}/{dst_align}: differs"),
                    );
                }
            }
        }
    }
}

/// Two non-ASCII chars with 0..=17 ASCII bytes between them, behind 0..=8 ASCII bytes: the
/// word-at-a-time kernel starts at the first, so the second lands at every position of the
/// words that follow, for every pair of edge chars.
fn two_chars_at_every_distance(ctx: &mut Ctx) {
    let mut kinds: Vec<char> = EDGE_CHARS
        .iter()
        .copied()
        .filter(|c| !c.is_ascii())
        .collect();
    kinds.extend(['\u{E9}', '\u{4E2D}', '\u{1F389}']);
    let planned = 9 * kinds.len() * kinds.len() * 18;
    let mut check = ctx.check("two chars at every distance", planned as u64);
    for lead in 0..9 {
        for &first in &kinds {
            for gap in 0..=17 {
                for &second in &kinds {
                    let text = format!(
                        "{}{first}{}{second}{}",
                        "L".repeat(lead),
                        "g".repeat(gap),
                        "t".repeat(30)
                    );
                    let units = reference::low_bytes_len(&text);
                    let mut same = low_bytes_len(&text) == units;
                    for dst_len in [units / 2, units - 31, units - 1, units, units + 5] {
                        same &= outcome(gap % 16, dst_len, |d| reference::copy_low_bytes(&text, d))
                            == outcome(gap % 16, dst_len, |d| copy_low_bytes(&text, d));
                    }
                    if same {
                        check.pass();
                    } else {
                        check.fail(&text, "copy_low_bytes or low_bytes_len differs".to_owned());
                    }
                }
            }
        }
    }
}

/// Random text into destinations of random length (half of them cut inside the text).
fn random_strings(ctx: &mut Ctx) {
    let count = ctx.scale(2_000_000, 60_000);
    // low_bytes_len, copy_low_bytes, low_bytes, low_bytes_from_utf16, and at each level
    // copy_low_bytes, low_bytes and low_bytes_len.
    let per_string = 4 + 3 * wirebytes_ascii::levels::all().count() as u64;
    let mut check = ctx.check(
        "random strings: copy_low_bytes (each kernel level), low_bytes, low_bytes_len",
        count as u64 * per_string,
    );
    let mut rng = Rng::new(0xA5C1_0002);
    for _ in 0..count {
        let text = random_text(&mut rng, 12);
        let units = reference::low_bytes_len(&text);
        check.case_in("low_bytes_len", &text, units, low_bytes_len(&text));
        let dst_len = if rng.one_in(2) {
            rng.below(units + 1)
        } else {
            units + rng.below(40)
        };
        let dst_align = rng.below(16);
        let expected = outcome(dst_align, dst_len, |d| reference::copy_low_bytes(&text, d));
        check.case_in(
            &format!("copy_low_bytes into {dst_len} at {dst_align}"),
            &text,
            &expected,
            &outcome(dst_align, dst_len, |d| copy_low_bytes(&text, d)),
        );
        // Every kernel level this CPU has: what CPUs with fewer kernels run.
        for level in wirebytes_ascii::levels::all() {
            check.case_in(
                &format!(
                    "copy_low_bytes at level {} into {dst_len} at {dst_align}",
                    level.name()
                ),
                &text,
                &expected,
                &outcome(dst_align, dst_len, |d| level.copy_low_bytes(&text, d)),
            );
        }
        let want = reference::low_bytes(&text);
        for level in wirebytes_ascii::levels::all() {
            let ours = level.low_bytes(&text);
            check.case_in(
                &format!("low_bytes at level {} (bytes, capacity)", level.name()),
                &text,
                (&want, units),
                (&ours, ours.capacity()),
            );
            check.case_in(
                &format!("low_bytes_len at level {}", level.name()),
                &text,
                units,
                level.low_bytes_len(&text),
            );
        }
        let ours = low_bytes(&text);
        check.case_in(
            "low_bytes (bytes, capacity)",
            &text,
            (want, units),
            (ours.clone(), ours.capacity()),
        );
        let utf16: Vec<u16> = text.encode_utf16().collect();
        check.case_in(
            "low_bytes_from_utf16 = low_bytes",
            &text,
            ours,
            low_bytes_from_utf16(&utf16),
        );
    }
}

/// Random UTF-16 soup, lone surrogates included, from random offsets into random lengths.
fn random_soup(ctx: &mut Ctx) {
    let count = ctx.scale(2_000_000, 60_000);
    let mut check = ctx.check(
        "random u16 soup: copy_low_bytes_from_utf16, low_bytes_from_utf16(_to_vec)",
        count as u64 * 3,
    );
    let mut rng = Rng::new(0xA5C1_0003);
    for _ in 0..count {
        let units = random_units(&mut rng, 300);
        let src = &units[rng.below(units.len() + 1).min(16)..];
        let dst_len = if rng.one_in(2) {
            rng.below(src.len() + 1)
        } else {
            src.len() + rng.below(40)
        };
        let dst_align = rng.below(16);
        check.case_in(
            &format!("copy_low_bytes_from_utf16 into {dst_len} at {dst_align}"),
            src,
            outcome(dst_align, dst_len, |d| {
                reference::copy_low_bytes_from_utf16(src, d)
            }),
            outcome(dst_align, dst_len, |d| copy_low_bytes_from_utf16(src, d)),
        );
        let ours = low_bytes_from_utf16(src);
        check.case_in(
            "low_bytes_from_utf16 (bytes, capacity)",
            src,
            (reference::low_bytes_from_utf16(src), src.len()),
            (ours.clone(), ours.capacity()),
        );
        let mut expected = PREFIX.to_vec();
        reference::low_bytes_from_utf16_to_vec(src, &mut expected);
        let mut dst = Vec::with_capacity(PREFIX.len() + rng.below(2 * src.len() + 1));
        dst.extend_from_slice(PREFIX);
        low_bytes_from_utf16_to_vec(src, &mut dst);
        check.case_in(
            "low_bytes_from_utf16_to_vec after a prefix",
            src,
            &expected,
            &dst,
        );
    }
}

/// `find_line_break` on rendered bytes: random bytes with sparse CR and LF, every length.
fn line_breaks(ctx: &mut Ctx) {
    let count = ctx.scale(200_000, 20_000);
    let mut check = ctx.check("find_line_break = reference", count as u64);
    let mut rng = Rng::new(0xA5C1_0004);
    for _ in 0..count {
        let len = rng.below(200);
        let mut bytes = vec![0u8; len];
        rng.fill(&mut bytes);
        for b in &mut bytes {
            if *b == b'\r' || *b == b'\n' {
                *b = b'x';
            }
        }
        if len > 0 && !rng.one_in(4) {
            let at = rng.below(len);
            bytes[at] = *rng.pick(b"\r\n");
        }
        check.case(
            &bytes,
            reference::find_line_break(&bytes),
            find_line_break(&bytes),
        );
    }
}

/// A prefix already in the buffer that the appending forms write to.
const PREFIX: &[u8] = b"X-Name: ";

/// `low_bytes_to_vec` at every level (into a vector with and without spare capacity) and
/// `low_bytes_to_buf` at every level into a `BytesMut` and into three chained slices cut at
/// random places, against the reference's appended bytes.
fn appended(ctx: &mut Ctx) {
    let count = ctx.scale(500_000, 30_000);
    let levels = wirebytes_ascii::levels::all().count() as u64;
    let mut check = ctx.check(
        "random strings: low_bytes_to_vec, low_bytes_to_buf (each level, with and without room)",
        count as u64 * (4 * levels + 1),
    );
    let mut rng = Rng::new(0xA5C1_0006);
    for _ in 0..count {
        let text = random_text(&mut rng, 12);
        let mut expected = PREFIX.to_vec();
        reference::low_bytes_to_vec(&text, &mut expected);
        for level in wirebytes_ascii::levels::all() {
            for room in [0, text.len() + rng.below(64)] {
                let mut dst = Vec::with_capacity(PREFIX.len() + room);
                dst.extend_from_slice(PREFIX);
                level.low_bytes_to_vec(&text, &mut dst);
                check.case_in(
                    &format!("low_bytes_to_vec at level {}, {room} spare", level.name()),
                    &text,
                    &expected,
                    &dst,
                );
            }
        }
        let mut buf = bytes::BytesMut::from(PREFIX);
        wirebytes_ascii::low_bytes_to_buf(&text, &mut buf);
        check.case_in(
            "low_bytes_to_buf into BytesMut",
            &text,
            &expected[..],
            &buf[..],
        );
        let want = &expected[PREFIX.len()..];
        for level in wirebytes_ascii::levels::all() {
            let mut buf = bytes::BytesMut::from(PREFIX);
            level.low_bytes_to_buf(&text, &mut buf);
            check.case_in(
                &format!("low_bytes_to_buf at level {} into BytesMut", level.name()),
                &text,
                &expected[..],
                &buf[..],
            );
            // Exactly the room, in three chunks: a chunk's end may cut a surrogate pair.
            let mut cells = vec![UNTOUCHED; want.len() + 1];
            let (first, second) = {
                let a = rng.below(want.len() + 1);
                let b = rng.below(want.len() + 1);
                (a.min(b), a.max(b))
            };
            {
                let (room, _) = cells.split_at_mut(want.len());
                let (a, rest) = room.split_at_mut(first);
                let (b, c) = rest.split_at_mut(second - first);
                let mut chain = a.chain_mut(b).chain_mut(c);
                level.low_bytes_to_buf(&text, &mut chain);
            }
            let mut want_cells = want.to_vec();
            want_cells.push(UNTOUCHED);
            check.case_in(
                &format!(
                    "low_bytes_to_buf at level {} into chunks cut at {first} and {second}",
                    level.name()
                ),
                &text,
                &want_cells,
                &cells,
            );
        }
    }
}

/// Whether the http crate accepts `rendered` as a header value.
fn http_accepts(rendered: &[u8]) -> bool {
    http::HeaderValue::from_bytes(rendered).is_ok()
}

/// The header-byte rule against the http crate: every byte alone, and every byte at every
/// position of a 130-byte value (each vector width and tail of `find_invalid_header_byte`),
/// through the public function and at every kernel level.
fn header_rule(ctx: &mut Ctx) {
    let levels: Vec<_> = wirebytes_ascii::levels::all().collect();
    let mut check = ctx.check(
        "every byte: is_header_byte, find_invalid_header_byte = http HeaderValue::from_bytes",
        2 * 256 + 256 * 130 * (1 + levels.len() as u64),
    );
    for byte in 0..=255u8 {
        let ours = find_invalid_header_byte(&[byte]).is_none();
        check.case(&[byte][..], http_accepts(&[byte]), ours);
        check.case_in(
            "is_header_byte",
            &[byte][..],
            http_accepts(&[byte]),
            is_header_byte(byte),
        );
    }
    for byte in 0..=255u8 {
        for at in 0..130 {
            let mut rendered = vec![b'v'; 130];
            rendered[at] = byte;
            let expected = if http_accepts(&rendered) {
                None
            } else {
                Some(at)
            };
            check.case(&rendered, expected, find_invalid_header_byte(&rendered));
            for level in &levels {
                let found = level.find_invalid_header_byte(&rendered);
                check.case_in(level.name(), &rendered, expected, found);
            }
        }
    }
}

/// `render_header_value` at every level on random text with sparse chars that render as
/// controls: the result and the buffer equal the reference's, and the http crate agrees on
/// whether the rendered value is valid.
fn header_values(ctx: &mut Ctx) {
    const SMUGGLERS: [char; 8] = [
        '\u{010D}', '\u{010A}', '\u{0100}', '\u{011F}', '\u{017F}', '\u{FF0A}', '\r', '\u{7F}',
    ];
    let count = ctx.scale(500_000, 30_000);
    let levels = wirebytes_ascii::levels::all().count() as u64;
    let mut check = ctx.check(
        "random header values: render_header_value (each level) = reference, http agrees, header_value",
        count as u64 * (levels + 3),
    );
    let mut rng = Rng::new(0xA5C1_0007);
    for _ in 0..count {
        let mut text = random_text(&mut rng, 10);
        if rng.one_in(2) {
            let at = text.char_indices().nth(rng.below(text.chars().count() + 1));
            let at = at.map_or(text.len(), |(at, _)| at);
            text.insert(at, *rng.pick(&SMUGGLERS));
        }
        let mut expected = PREFIX.to_vec();
        let expected_result = reference::render_header_value(&text, &mut expected);
        for level in wirebytes_ascii::levels::all() {
            let mut dst = PREFIX.to_vec();
            let result = level.render_header_value(&text, &mut dst);
            check.case_in(
                &format!("render_header_value at level {}", level.name()),
                &text,
                (&expected_result, &expected),
                (&result, &dst),
            );
        }
        let mut dst = PREFIX.to_vec();
        let result = render_header_value(&text, &mut dst);
        check.case_in(
            "render_header_value",
            &text,
            (&expected_result, &expected),
            (&result, &dst),
        );
        check.case_in(
            "render_header_value is Ok = http accepts low_bytes",
            &text,
            http_accepts(&low_bytes(&text)),
            result.is_ok(),
        );
        check.case_in(
            "header_value = http HeaderValue::from_bytes(low_bytes)",
            &text,
            http::HeaderValue::from_bytes(&low_bytes(&text)).ok(),
            wirebytes_ascii::header_value(&text).ok(),
        );
    }
}

/// Header names and lines: every byte at every position of a 40-byte token name against the
/// reference and the http crate's `HeaderName::from_bytes`, then header and status lines of
/// random names, values and codes against the reference (result and buffer).
fn header_lines(ctx: &mut Ctx) {
    let count = ctx.scale(200_000, 20_000);
    let mut check = ctx.check(
        "header names (= reference, http HeaderName), header and status lines = reference",
        256 * 40 * 2 + count as u64 * 2,
    );
    for byte in 0..=255u8 {
        for at in 0..40 {
            let mut name = vec![b'n'; 40];
            name[at] = byte;
            let found = wirebytes_ascii::find_invalid_header_name_byte(&name);
            check.case_in(
                "find_invalid_header_name_byte = reference",
                &name,
                reference::find_invalid_header_name_byte(&name),
                found,
            );
            check.case_in(
                "find_invalid_header_name_byte is None = http accepts",
                &name,
                http::HeaderName::from_bytes(&name).is_ok(),
                found.is_none(),
            );
        }
    }
    const NAMES: [&str; 8] = [
        "Host",
        "",
        "X-\u{141}",
        "Content Type",
        "a:b",
        "!#$%&'*+-.^_`|~",
        "X\r",
        "ETag",
    ];
    let mut rng = Rng::new(0xA5C1_0009);
    for _ in 0..count {
        let name = if rng.one_in(2) {
            (*rng.pick(&NAMES)).to_owned()
        } else {
            random_text(&mut rng, 2)
        };
        let value = random_text(&mut rng, 6);
        let mut expected = PREFIX.to_vec();
        let expected_result = reference::render_header(&name, &value, &mut expected);
        let mut dst = PREFIX.to_vec();
        let result = wirebytes_ascii::render_header(&name, &value, &mut dst);
        check.case_in(
            "render_header",
            format!("{name}\u{0}{value}").as_str(),
            (&expected_result, &expected),
            (&result, &dst),
        );
        let code = u16::try_from(rng.below(1100)).unwrap_or(0);
        let mut expected = PREFIX.to_vec();
        let expected_result = reference::render_status_line(code, &value, &mut expected);
        let mut dst = PREFIX.to_vec();
        let result = wirebytes_ascii::render_status_line(code, &value, &mut dst);
        check.case_in(
            "render_status_line",
            format!("{code} {value}").as_str(),
            (&expected_result, &expected),
            (&result, &dst),
        );
    }
}

/// One string sent to the JDK, with the ranges asked for.
struct JdkCase {
    units: Vec<u16>,
    /// The same chars as a `str`, when they are valid UTF-16 (no lone surrogate).
    text: Option<String>,
    /// `(srcBegin, srcEnd)` pairs: the whole string, prefixes, middles.
    ranges: Vec<(usize, usize)>,
}

fn jdk_cases(ctx: &Ctx) -> Vec<JdkCase> {
    let mut rng = Rng::new(0xA5C1_0005);
    let mut strings: Vec<Vec<u16>> = Vec::new();
    // Every u16 value in one string; every char above U+FFFF (as pairs) in another.
    strings.push((0..=u16::MAX).collect());
    strings.push(
        (0x1_0000..=0x10_FFFF)
            .filter_map(char::from_u32)
            .collect::<String>()
            .encode_utf16()
            .collect(),
    );
    for c in EDGE_CHARS {
        strings.push(c.to_string().encode_utf16().collect());
    }
    strings.push(Vec::new());
    for _ in 0..ctx.scale(40_000, 3_000) {
        strings.push(random_units(&mut rng, 200));
        strings.push(random_text(&mut rng, 8).encode_utf16().collect());
    }
    strings
        .into_iter()
        .map(|units| {
            let n = units.len();
            let mut ranges = vec![(0, n)];
            for _ in 0..3 {
                // A prefix: what a shorter destination gets (may cut a surrogate pair).
                ranges.push((0, rng.below(n + 1)));
                // A middle: getBytes(srcBegin > 0, ...).
                let begin = rng.below(n + 1);
                ranges.push((begin, begin + rng.below(n - begin + 1)));
            }
            let text = String::from_utf16(&units).ok();
            JdkCase {
                units,
                text,
                ranges,
            }
        })
        .collect()
}

/// Reads a big-endian `u32` from the front of `reply`.
fn take_u32(reply: &mut &[u8]) -> Option<usize> {
    let (head, rest) = reply.split_first_chunk::<4>()?;
    *reply = rest;
    Some(u32::from_be_bytes(*head) as usize)
}

fn take_bytes<'a>(reply: &mut &'a [u8], n: usize) -> Option<&'a [u8]> {
    let (head, rest) = reply.split_at_checked(n)?;
    *reply = rest;
    Some(head)
}

fn jdk_parity(ctx: &mut Ctx, java: &Java) {
    let cases = jdk_cases(ctx);
    let mut request = Vec::new();
    for case in &cases {
        request.extend((case.units.len() as u32).to_be_bytes());
        request.extend(case.units.iter().flat_map(|u| u.to_be_bytes()));
        request.extend((case.ranges.len() as u32).to_be_bytes());
        for &(begin, end) in &case.ranges {
            request.extend((begin as u32).to_be_bytes());
            request.extend((end as u32).to_be_bytes());
        }
    }
    let planned: usize = cases.iter().map(|c| 1 + c.ranges.len()).sum();
    let reply = match java.run("AsciiLowBytes.java", &[], &request) {
        Ok(out) => out,
        Err(err) => {
            let mut check = ctx.check("jdk getBytes(int,int,byte[],int) parity", 1);
            check.fail("", format!("the JDK program failed: {err}"));
            return;
        }
    };
    let mut reply = reply.as_slice();
    let mut check = ctx.check(
        "jdk getBytes(int,int,byte[],int) parity: copy, low_bytes, low_bytes_to_vec",
        planned as u64,
    );
    for case in &cases {
        let units = case.units.as_slice();
        let Some(length) = take_u32(&mut reply) else {
            check.fail(units, "the JDK's reply is cut short".to_owned());
            return;
        };
        // String.length() = the number of units = low_bytes_len of the same text.
        let ours_len = case.text.as_deref().map_or(units.len(), low_bytes_len);
        check.case_in("String.length() = low_bytes_len", units, length, ours_len);
        for &(begin, end) in &case.ranges {
            let Some(jdk) = take_u32(&mut reply).and_then(|m| take_bytes(&mut reply, m)) else {
                check.fail(units, "the JDK's reply is cut short".to_owned());
                return;
            };
            let label = format!("getBytes({begin}, {end})");
            let m = end - begin;
            let expected = (m, jdk.to_vec());
            // The range of units into an exact destination.
            let mut ok = expected == fill(m, |d| copy_low_bytes_from_utf16(&units[begin..], d));
            if begin == 0 {
                // A prefix is what a destination of `end` bytes gets from the whole input.
                ok &= expected == fill(m, |d| copy_low_bytes_from_utf16(units, d));
                if let Some(text) = &case.text {
                    ok &= expected == fill(m, |d| copy_low_bytes(text, d));
                    for level in wirebytes_ascii::levels::all() {
                        ok &= expected == fill(m, |d| level.copy_low_bytes(text, d));
                    }
                    if end == units.len() {
                        ok &= expected.1 == low_bytes(text);
                        // Appended after what a buffer holds, at every level.
                        let mut want = PREFIX.to_vec();
                        want.extend_from_slice(&expected.1);
                        let mut dst = PREFIX.to_vec();
                        low_bytes_to_vec(text, &mut dst);
                        ok &= dst == want;
                        for level in wirebytes_ascii::levels::all() {
                            let mut dst = PREFIX.to_vec();
                            level.low_bytes_to_vec(text, &mut dst);
                            ok &= dst == want;
                        }
                    }
                }
                if end == units.len() {
                    ok &= expected.1 == low_bytes_from_utf16(units);
                    let mut want = PREFIX.to_vec();
                    want.extend_from_slice(&expected.1);
                    let mut dst = PREFIX.to_vec();
                    low_bytes_from_utf16_to_vec(units, &mut dst);
                    ok &= dst == want;
                }
            }
            if ok {
                check.pass();
            } else {
                let ours = fill(m, |d| copy_low_bytes_from_utf16(&units[begin..], d));
                let text_ours = case
                    .text
                    .as_deref()
                    .map(|t| fill(m, |d| copy_low_bytes(t, d)));
                check.fail(
                    units,
                    format!(
                        "{label}: JDK {:02x?}\n  copy_low_bytes_from_utf16 {:02x?}\n  copy_low_bytes {:02x?}",
                        expected.1, ours.1, text_ours
                    ),
                );
            }
        }
    }
    if !reply.is_empty() {
        check.fail(
            "",
            format!("{} bytes left over in the JDK's reply", reply.len()),
        );
    }
}

/// Runs `copy` on an `m`-byte destination; returns the count and the bytes.
fn fill(m: usize, copy: impl FnOnce(&mut [u8]) -> usize) -> Outcome {
    let mut dst = vec![UNTOUCHED; m];
    let n = copy(&mut dst);
    (n, dst)
}
