//! Input an attacker picks, at the API's edge: UTF-16 made of surrogates (lone, reversed,
//! doubled, in every place), an `Encoder` fed thousands of empty chunks (between the halves
//! of a pair too), and a `BufMut` that offers one byte of room at a time. Every charset (a
//! sample under Miri), both replacements, against the reference.

mod common;

use common::{REPLACEMENTS, charsets, check_str, check_units};
use wirebytes_charset::reference;

/// The testkit's surrogate soup; at the reduced scale of emulated targets every fourth input
/// (the whole soup took minutes per target there), under Miri a few (each goes through every
/// check of `check_units`, for every charset).
fn surrogate_soup() -> Vec<Vec<u16>> {
    let soup = wirebytes_testkit::text::surrogate_soup();
    let n = soup.len();
    soup.into_iter()
        .step_by(wirebytes_testkit::scale_miri(1, 4, n / 3))
        .collect()
}

#[test]
fn surrogates_everywhere_in_utf16_input() {
    for units in surrogate_soup() {
        check_units(&units);
        // And as text, each lone half replaced by U+FFFD.
        check_str(&String::from_utf16_lossy(&units));
    }
}

#[test]
fn thousands_of_empty_chunks_between_and_inside_pairs() {
    // Thousands at full scale; hundreds at the reduced scale of emulated targets, where
    // the thousands took minutes per target.
    let empties = wirebytes_testkit::scale_miri(3000, 300, 40);
    let units: Vec<u16> = "a\u{1F600}\u{E9}\u{4E2D}".encode_utf16().collect();
    let text = "a\u{1F600}\u{E9}\u{4E2D}";
    for charset in charsets() {
        for replacement in REPLACEMENTS {
            let want16 = reference::encode_from_utf16(charset, &units, replacement);
            let mut encoder = charset.new_encoder(replacement);
            let mut out = Vec::new();
            for unit in &units {
                for _ in 0..empties {
                    encoder.encode_from_utf16_to_vec(&[], false, &mut out);
                }
                encoder.encode_from_utf16_to_vec(std::slice::from_ref(unit), false, &mut out);
            }
            encoder.encode_from_utf16_to_vec(&[], true, &mut out);
            assert_eq!(out, want16, "{} {replacement:?}", charset.name());

            let want = reference::encode(charset, text, replacement);
            let mut encoder = charset.new_encoder(replacement);
            let mut out = Vec::new();
            for (i, c) in text.char_indices() {
                for _ in 0..empties {
                    encoder.encode_to_vec("", false, &mut out);
                }
                encoder.encode_to_vec(&text[i..i + c.len_utf8()], false, &mut out);
            }
            encoder.encode_to_vec("", true, &mut out);
            assert_eq!(out, want, "{} {replacement:?}", charset.name());
            assert_eq!(charset.encode(text, replacement), want);
            assert_eq!(charset.encode_from_utf16(&units, replacement), want16);
        }
    }
}

#[cfg(feature = "bytes")]
#[test]
fn encode_to_buf_into_one_byte_of_room_at_a_time() {
    use wirebytes_testkit::buf::OneByteRoom;

    let text = "Gr\u{FC}\u{DF}e \u{1F600} \u{4E2D}\u{6587} \u{430}\u{431} and ASCII";
    for charset in charsets() {
        for replacement in REPLACEMENTS {
            let mut dst = OneByteRoom::with(b"head:");
            charset.encode_to_buf(text, replacement, &mut dst);
            let mut want = b"head:".to_vec();
            want.extend(reference::encode(charset, text, replacement));
            assert_eq!(dst.bytes(), want, "{} {replacement:?}", charset.name());
        }
    }
}

/// A high surrogate that ends a UTF-16 chunk waits for the next chunk: a `&str` chunk after
/// it, which cannot complete it, has it replaced before its own chars; an empty `&str` chunk
/// before the end leaves it waiting, and a low surrogate in the next UTF-16 chunk completes
/// it.
#[test]
fn a_pending_high_surrogate_meets_str_chunks() {
    for charset in charsets() {
        for replacement in REPLACEMENTS {
            let what = format!("{} {replacement:?}", charset.name());
            let mut encoder = charset.new_encoder(replacement);
            let mut out = Vec::new();
            encoder.encode_from_utf16_to_vec(&[0xD83D], false, &mut out);
            encoder.encode_to_vec("ab", false, &mut out);
            encoder.encode_to_vec("", true, &mut out);
            let want = reference::encode_from_utf16(charset, &[0xD83D, 0x61, 0x62], replacement);
            assert_eq!(out, want, "{what}: then a str");

            let mut encoder = charset.new_encoder(replacement);
            let mut out = Vec::new();
            encoder.encode_from_utf16_to_vec(&[0x61, 0xD83D], false, &mut out);
            encoder.encode_to_vec("", false, &mut out);
            encoder.encode_from_utf16_to_vec(&[0xDE00], true, &mut out);
            let want = reference::encode_from_utf16(charset, &[0x61, 0xD83D, 0xDE00], replacement);
            assert_eq!(out, want, "{what}: an empty str between the halves");
        }
    }
}
