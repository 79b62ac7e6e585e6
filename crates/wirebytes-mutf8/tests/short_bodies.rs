//! Bodies of 0 to 65 bytes (one past the longest that `decode_to_string`, `decode_to_utf16_vec` and
//! `decode_to_utf16` append in one pass of overlapping loads), plain ASCII or with one other
//! piece at every position: at every kernel level this CPU has, against the reference, each
//! appended after what the buffer already held.

use rstest::rstest;
use wirebytes_mutf8::{levels, reference};

/// The longest body of the one-pass ASCII path, and one past it.
const SHORT: usize = 64;

/// `len` ASCII bytes that differ from their neighbours (a copy from the wrong offset shows).
fn ascii(len: usize) -> Vec<u8> {
    (0..len).map(|k| b' ' + (k * 7 % 95) as u8).collect()
}

/// The appending decoders and `decode_to_utf16` agree with the reference on `bytes`, at every
/// level; on error the buffers hold what they held.
fn check(bytes: &[u8]) {
    let want = reference::decode(bytes);
    let want16 = reference::decode_to_utf16(bytes);
    for level in levels::all() {
        let name = level.name();
        let head = "h\u{e9}ad \u{1F600} ";
        let mut text = String::from(head);
        let got = level.decode_to_string(bytes, &mut text);
        match &want {
            Ok(t) => {
                assert_eq!(got, Ok(()), "decode_to_string, {name}: {bytes:02x?}");
                assert_eq!(
                    text,
                    format!("{head}{t}"),
                    "decode_to_string, {name}: {bytes:02x?}"
                );
            }
            Err(err) => {
                assert_eq!(got, Err(*err), "decode_to_string, {name}: {bytes:02x?}");
                assert_eq!(text, head, "decode_to_string, {name}: {bytes:02x?}");
            }
        }
        let head16 = [0x68, 0xD800, 0x41];
        let mut chars = head16.to_vec();
        let got = level.decode_to_utf16_vec(bytes, &mut chars);
        match &want16 {
            Ok(c) => {
                assert_eq!(got, Ok(()), "decode_to_utf16_vec, {name}: {bytes:02x?}");
                assert_eq!(chars, [&head16[..], c].concat(), "{name}: {bytes:02x?}");
            }
            Err(err) => {
                assert_eq!(got, Err(*err), "decode_to_utf16_vec, {name}: {bytes:02x?}");
                assert_eq!(chars, head16, "decode_to_utf16_vec, {name}: {bytes:02x?}");
            }
        }
        assert_eq!(
            level.decode_to_utf16(bytes),
            want16,
            "decode_to_utf16, {name}: {bytes:02x?}"
        );
        // Into empty buffers too (the block decoders write only into a buffer that holds
        // nothing before the body), without room and with plenty.
        for room in [0, 100] {
            let mut chars = Vec::with_capacity(room);
            let got = level.decode_to_utf16_vec(bytes, &mut chars).map(|()| chars);
            assert_eq!(
                got, want16,
                "decode_to_utf16_vec, {name}, empty: {bytes:02x?}"
            );
            let mut text = String::with_capacity(room);
            let got = level.decode_to_string(bytes, &mut text).map(|()| text);
            assert_eq!(got, want, "decode_to_string, {name}, empty: {bytes:02x?}");
        }
    }
}

#[test]
fn ascii_bodies_of_every_length_around_the_short_path() {
    for len in 0..=2 * SHORT + 2 {
        check(&ascii(len));
        // Every byte value below 80, NUL and DEL included, at the ends.
        let mut bytes = ascii(len);
        if let Some(first) = bytes.first_mut() {
            *first = 0x00;
        }
        if let Some(last) = bytes.last_mut() {
            *last = 0x7F;
        }
        check(&bytes);
    }
}

/// `piece` at every position of every ASCII body of 0 to 65 bytes (then 0 to 65 bytes in
/// all, the piece included).
#[rstest]
#[case::stray_continuation(b"\x80")]
#[case::lead_ff(b"\xff")]
#[case::cut_lead(b"\xc3")]
#[case::two_byte(b"\xc3\xa9")]
#[case::c0_80(b"\xc0\x80")]
#[case::overlong(b"\xc1\x81")]
#[case::three_byte(b"\xe2\x82\xac")]
#[case::lone_surrogate(b"\xed\xa0\x80")]
#[case::pair(b"\xed\xa0\xbd\xed\xb8\x80")]
#[case::four_byte(b"\xf0\x9f\x98\x80")]
fn one_piece_at_every_position_of_short_bodies(#[case] piece: &[u8]) {
    for len in (0..=SHORT + 1).step_by(wirebytes_testkit::scale_miri(1, 1, 3)) {
        for at in (0..=len).step_by(wirebytes_testkit::scale_miri(1, 1, 5)) {
            let mut bytes = ascii(len);
            bytes.splice(at..at, piece.iter().copied());
            check(&bytes);
            if len >= piece.len() {
                // The same total length as the ASCII body.
                bytes.truncate(len);
                check(&bytes);
            }
        }
    }
}
