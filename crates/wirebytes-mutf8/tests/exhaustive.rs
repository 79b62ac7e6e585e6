//! Every 1-, 2- and 3-byte body, at every offset of the 8-byte fast path, through the fast
//! decoders (at every kernel level this CPU has) and the reference; every supplementary char
//! and every surrogate pair.

use std::borrow::Cow;

use wirebytes_mutf8::{decode, decode_to_utf16, encode, encode_from_utf16, levels, reference};

/// The fast decoders agree with the reference on `bytes`, at every kernel level this CPU has.
fn check(bytes: &[u8], lossy: bool) {
    check_at(levels::all(), bytes, lossy);
}

/// [`check`] at the levels in `levels`.
fn check_at(levels: impl Iterator<Item = levels::Level>, bytes: &[u8], lossy: bool) {
    let want16 = reference::decode_to_utf16(bytes);
    let want = reference::decode(bytes);
    for level in levels {
        let name = level.name();
        assert_eq!(
            level.decode_to_utf16(bytes),
            want16,
            "decode_to_utf16, {name}: {bytes:02x?}"
        );
        assert_eq!(
            level.decode(bytes).map(Cow::into_owned),
            want,
            "decode, {name}: {bytes:02x?}"
        );
        if lossy {
            assert_eq!(
                level.decode_lossy(bytes),
                reference::decode_lossy(bytes),
                "decode_lossy, {name}: {bytes:02x?}"
            );
        }
    }
}

/// `seq` behind `pad` ASCII bytes, with and without ASCII after it, for every `pad` in 0..=16:
/// the sequence starts at every offset of an 8-byte word, at the end of the body or not.
fn check_padded(seq: &[u8], lossy: bool) {
    let mut buf = Vec::with_capacity(40);
    for pad in 0..=16 {
        buf.clear();
        buf.extend((0..pad).map(|k| b'a' + k as u8));
        buf.extend_from_slice(seq);
        check(&buf, lossy);
        buf.extend_from_slice(b"xyz0123456789");
        check(&buf, lossy);
    }
}

#[test]
fn every_one_and_two_byte_body_at_every_offset() {
    for b0 in (0..=255u8).step_by(wirebytes_testkit::scale_miri(1, 1, 69)) {
        check_padded(&[b0], true);
        for b1 in (0..=255u8).step_by(wirebytes_testkit::scale_miri(1, 5, 111)) {
            check_padded(&[b0, b1], true);
        }
    }
}

/// All 2^24 three-byte bodies, as they are and straddling a word boundary; at the portable
/// level and at the one the public functions use (too short for the block kernels, these
/// bodies differ between levels only in how `decode` decides to borrow).
fn every_three_byte_body(lead: std::ops::RangeInclusive<u8>) {
    let ends = [levels::all().next(), levels::all().last()];
    let ends = || ends.into_iter().flatten();
    let mut straddle = *b"abcdefg___hij";
    for b0 in lead {
        for b1 in (0..=255u8).step_by(wirebytes_testkit::scale_miri(1, 3, 111)) {
            for b2 in (0..=255u8).step_by(wirebytes_testkit::scale_miri(1, 3, 111)) {
                let seq = [b0, b1, b2];
                check_at(ends(), &seq, false);
                straddle[7..10].copy_from_slice(&seq);
                check_at(ends(), &straddle, false);
            }
        }
    }
}

// Split in four so the test harness runs them in parallel.
#[test]
fn every_three_byte_body_leads_00_3f() {
    every_three_byte_body(0x00..=0x3F);
}

#[test]
fn every_three_byte_body_leads_40_7f() {
    every_three_byte_body(0x40..=0x7F);
}

#[test]
fn every_three_byte_body_leads_80_bf() {
    every_three_byte_body(0x80..=0xBF);
}

#[test]
fn every_three_byte_body_leads_c0_ff() {
    every_three_byte_body(0xC0..=0xFF);
}

/// Three-byte bodies with every lead and second byte and a telling third byte, at every
/// offset and through `decode_lossy` too.
#[test]
fn three_byte_bodies_at_every_offset() {
    for b0 in (0..=255u8).step_by(wirebytes_testkit::scale_miri(1, 3, 111)) {
        for b1 in (0..=255u8).step_by(wirebytes_testkit::scale_miri(1, 5, 111)) {
            for b2 in [0x00, 0x41, 0x7F, 0x80, 0xBF, 0xC0, 0xE0, 0xED, 0xFF] {
                check_padded(&[b0, b1, b2], true);
            }
        }
    }
}

#[test]
fn every_supplementary_char_and_surrogate_pair() {
    for scalar in (0x10000..=0x10FFFF).step_by(wirebytes_testkit::scale_miri(1, 16, 120027)) {
        let c = char::from_u32(scalar).unwrap();
        let mut utf8 = [0u8; 4];
        let text = c.encode_utf8(&mut utf8);
        let mutf8 = encode(text);
        assert_eq!(mutf8, reference::encode(text), "{scalar:x}");
        let mut padded = b"0123456".to_vec();
        padded.extend_from_slice(&mutf8);
        assert_eq!(
            decode(&padded).unwrap(),
            format!("0123456{c}"),
            "{scalar:x}"
        );
        // The bytes themselves: the JDK rejects them at the F0..F4 lead.
        assert_eq!(decode(text.as_bytes()).unwrap_err().jdk_position(), Some(0));
    }
    // Every high surrogate before every low one, and the reverse, as chars.
    for high in (0xD800..=0xDBFF).step_by(wirebytes_testkit::scale_miri(3, 3, 633)) {
        for low in (0xDC00..=0xDFFF).step_by(wirebytes_testkit::scale_miri(5, 5, 771)) {
            let pair = encode_from_utf16(&[high, low]);
            assert_eq!(pair, reference::encode_from_utf16(&[high, low]));
            check(&pair, true);
            let reversed = encode_from_utf16(&[low, high]);
            check(&reversed, true);
        }
    }
}

#[test]
fn every_char_encodes_as_the_reference() {
    for unit in (0..=0xFFFF_u16).step_by(wirebytes_testkit::scale_miri(1, 1, 2991)) {
        let units = [b'a'.into(), unit, b'z'.into()];
        let bytes = encode_from_utf16(&units);
        assert_eq!(bytes, reference::encode_from_utf16(&units), "{unit:04x}");
        assert_eq!(decode_to_utf16(&bytes), Ok(units.to_vec()), "{unit:04x}");
        if let Some(c) = char::from_u32(unit.into()) {
            let text = format!("a{c}z");
            assert_eq!(encode(&text), bytes, "{unit:04x}");
            assert_eq!(wirebytes_mutf8::encoded_len(&text), bytes.len());
        }
    }
}

/// Every 2-byte lead with every second byte, at each place in a run of four 2-byte
/// sequences (which `decode_to_utf16` decodes four at a time), at every offset.
#[test]
fn every_two_byte_sequence_inside_runs_of_them() {
    let others: [[u8; 2]; 3] = [[0xD0, 0xA1], [0xC0, 0x80], [0xDF, 0xBF]];
    for lead in (0xC0..=0xDFu8).step_by(wirebytes_testkit::scale_miri(1, 1, 21)) {
        for b1 in (0..=255u8).step_by(wirebytes_testkit::scale_miri(1, 3, 111)) {
            for place in 0..4 {
                let mut run = Vec::with_capacity(8);
                let mut k = 0;
                for slot in 0..4 {
                    if slot == place {
                        run.extend_from_slice(&[lead, b1]);
                    } else {
                        run.extend_from_slice(&others[k]);
                        k += 1;
                    }
                }
                run.extend_from_slice(&[0xD1, 0x8F, 0xCE, 0xA9]);
                check_padded(&run, place == 0);
            }
        }
    }
}

/// Long ASCII before the first other sequence, around the 4 KiB chunks in which `decode`
/// scans ASCII, with what follows: valid UTF-8, `C0 80`, a pair, a lone surrogate, a 4-byte
/// sequence, a bad byte, a cut sequence.
// The lengths around 4 and 8 KiB are the point, and too slow to interpret.
#[cfg_attr(miri, ignore = "kilobytes of text per case: too slow under Miri")]
#[test]
fn long_ascii_then_every_kind_of_sequence() {
    let tails: [&[u8]; 10] = [
        b"",
        b"\xc3\xa9t\xc3\xa9",
        b"\xe2\x82\xac and more",
        b"\xc0\x80",
        b"\xed\xa0\xbd\xed\xb8\x80",
        b"\xed\xa0\xbd!",
        b"\xf0\x9f\x98\x80",
        b"\xc3\xa9\xf0\x9f\x98\x80\xc0\x80",
        b"\xff",
        b"\xe2\x82",
    ];
    for prefix in [63, 64, 4095, 4096, 4097, 8191, 8192, 12_300] {
        for tail in tails {
            for behind in [&b""[..], b"\xc3\xa9", b"\xc0\x80", b"x"] {
                let mut bytes = vec![b'a'; prefix];
                bytes.extend_from_slice(tail);
                bytes.extend_from_slice(behind);
                check(&bytes, true);
                #[cfg(feature = "std")]
                {
                    let owned = decode(&bytes).map(Cow::into_owned);
                    let mut record = (bytes.len() as u16).to_be_bytes().to_vec();
                    record.extend_from_slice(&bytes);
                    let read = wirebytes_mutf8::read_utf(&mut record.as_slice()).map_err(|e| {
                        *e.get_ref()
                            .and_then(|e| e.downcast_ref::<wirebytes_mutf8::DecodeError>())
                            .expect("a DecodeError")
                    });
                    assert_eq!(read, owned, "prefix {prefix}, tail {tail:02x?}");
                }
            }
        }
    }
}

/// Long text of 2- and 3-byte chars, of lengths around 8 and 16 KiB ending at every offset
/// of a char, then every kind of sequence.
// The lengths around 8 and 16 KiB are the point, and too slow to interpret.
#[cfg_attr(miri, ignore = "kilobytes of text per case: too slow under Miri")]
#[test]
fn long_multibyte_text_then_every_kind_of_sequence() {
    let tails: [&[u8]; 8] = [
        b"",
        b"\xc0\x80",
        b"\xed\xa0\xbd\xed\xb8\x80",
        b"\xed\xa0\xbd!",
        b"\xf0\x9f\x98\x80",
        b"\xff",
        b"\x80\x80\x80\x80",
        b"\xe2\x82",
    ];
    for script in ["\u{436}", "\u{20AC}", "\u{436}\u{20AC} "] {
        for len in (8188..8197).chain(16_380..16_389) {
            let mut text = script.repeat(len / script.len() + 1).into_bytes();
            // Cut at a char boundary at or before `len`, so that every place of a char
            // meets the chunk's end.
            let mut cut = len;
            while text[cut] & 0xC0 == 0x80 {
                cut -= 1;
            }
            text.truncate(cut);
            for tail in tails {
                let mut bytes = text.clone();
                bytes.extend_from_slice(tail);
                bytes.extend_from_slice("\u{436}x".as_bytes());
                check(&bytes, tail.is_empty());
            }
        }
    }
}

/// Every kind of sequence at every offset of the 32- and 64-byte blocks (byte 31 or 63
/// included, where a sequence's continuation bytes fall into the next block), behind a first
/// non-ASCII char (which sends `decode_to_utf16` to its block decoders) and fill of each width.
#[test]
fn every_kind_of_sequence_at_every_offset_of_the_blocks() {
    let sequences: [&[u8]; 16] = [
        b"\xc3\xa9",
        b"\xc0\x80",
        b"\xc1\x81",
        b"\xe2\x82\xac",
        b"\xe0\x80\x80",
        b"\xef\xbf\xbf",
        b"\xed\xa0\xbd\xed\xb8\x80",
        b"\xed\xb0\x80",
        b"\xf0\x9f\x98\x80",
        b"\xff",
        b"\x80",
        b"\xc3",
        b"\xc3\x41",
        b"\xe2\x82",
        b"\xe2\x41\x82",
        b"\xe2\x82\x41",
    ];
    for fill in ["a", "\u{436}", "\u{4E2D}", "\u{436}a"] {
        for first in ["\u{E9}", "\u{4E2D}"] {
            for offset in (0..80).step_by(wirebytes_testkit::scale_miri(1, 1, 39)) {
                let mut bytes = first.as_bytes().to_vec();
                while bytes.len() < offset {
                    bytes.extend_from_slice(fill.as_bytes());
                }
                for sequence in sequences {
                    let mut body = bytes.clone();
                    body.extend_from_slice(sequence);
                    check(&body, true);
                    body.extend_from_slice(&bytes);
                    body.extend_from_slice(&bytes);
                    check(&body, true);
                }
            }
        }
    }
}
