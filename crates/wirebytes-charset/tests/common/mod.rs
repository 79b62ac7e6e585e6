//! Helpers shared by the integration tests: every fast path, at every kernel level this CPU
//! has (through `levels`), against the reference; the buffer-filling functions and the
//! streaming `Encoder` against `encode`.

use wirebytes_charset::{
    ALL, Charset, Encoding, Replacement, encode, encode_utf16, encoded_len, levels, reference,
    try_encode, try_encode_utf16,
};
use wirebytes_testkit::Rng;

pub(crate) const REPLACEMENTS: [Replacement; 2] = [Replacement::Jdk, Replacement::Whatwg];

pub(crate) fn is_utf16(encoding: &'static Encoding) -> bool {
    encoding == encoding_rs::UTF_16LE || encoding == encoding_rs::UTF_16BE
}

/// Every charset: the 40 encodings of encoding_rs, then the JDK-only ones. Under Miri, every
/// fourth of those without a CJK table (building one asks encoding_rs about every BMP char,
/// minutes when interpreted): UTF-8, UTF-16, single-byte and JDK-only ones.
pub(crate) fn charsets() -> Vec<Charset> {
    ALL.iter()
        .filter(|&&e| !cfg!(miri) || e.is_single_byte() || e == encoding_rs::UTF_8 || is_utf16(e))
        .map(|&e| Charset::from(e))
        .chain(Charset::JDK_ONLY)
        .step_by(wirebytes_testkit::scale_miri(1, 1, 12))
        .collect()
}

/// Where `check_*` splits an input of `len` pieces for the `Encoder`: every position up to
/// 24 pieces, else 24 positions drawn from a generator seeded by the input.
fn split_points(len: usize, seed: u64) -> Vec<usize> {
    let count = wirebytes_testkit::scale_miri(24, 24, 3);
    if len <= count {
        return (0..=len).collect();
    }
    let mut rng = Rng::new(seed ^ len as u64);
    (0..count).map(|_| rng.below(len + 1)).collect()
}

/// `text` through every charset and replacement: fast == reference, exact size, and WHATWG ==
/// `Encoding::encode` where the crate promises it, at every level; `try_encode`,
/// `encode_string`, `encoded_len`, `encode_to_vec`, `encode_to_buf` and the `Encoder` over
/// splits of `text` agree with `encode`. Also `encode_utf16` on the same text.
pub(crate) fn check_str(text: &str) {
    let units: Vec<u16> = text.encode_utf16().collect();
    let boundaries: Vec<usize> = (0..=text.len())
        .filter(|&i| text.is_char_boundary(i))
        .collect();
    let splits = split_points(boundaries.len() - 1, text.len() as u64 * 31);
    for charset in charsets() {
        let name = charset.name();
        let strict = try_encode(text, charset);
        for level in levels::all() {
            assert_eq!(
                level.try_encode(text, charset),
                strict,
                "try_encode {} {name} {text:?}",
                level.name(),
            );
        }
        if let Ok(bytes) = &strict {
            assert_eq!(bytes.capacity(), bytes.len(), "try_encode {name}");
        }
        for replacement in REPLACEMENTS {
            let fast = encode(text, charset, replacement);
            let slow = reference::encode(text, charset, replacement);
            assert_eq!(fast, slow, "{name} {replacement:?} {text:?}");
            assert_eq!(fast.capacity(), fast.len(), "{name} {replacement:?}");
            if let Ok(bytes) = &strict {
                assert_eq!(
                    bytes, &fast,
                    "try_encode Ok {name} {replacement:?} {text:?}"
                );
            }
            assert_eq!(
                encoded_len(text, charset, replacement),
                fast.len(),
                "{name}"
            );
            for level in levels::all() {
                let lname = level.name();
                let at_level = level.encode(text, charset, replacement);
                assert_eq!(at_level, slow, "{lname} {name} {replacement:?} {text:?}");
                assert_eq!(at_level.capacity(), at_level.len(), "{lname}");
                let owned = level.encode_string(text.to_owned(), charset, replacement);
                assert_eq!(owned, slow, "encode_string {lname} {name}");
                assert_eq!(owned.capacity(), owned.len(), "{lname}");
                assert_eq!(
                    level.encoded_len(text, charset, replacement),
                    slow.len(),
                    "encoded_len {lname} {name} {replacement:?} {text:?}"
                );
                let mut appended = b"head".to_vec();
                level.encode_to_vec(text, charset, replacement, &mut appended);
                assert_eq!(&appended[..4], b"head", "{lname} {name}");
                assert_eq!(
                    &appended[4..],
                    &slow[..],
                    "encode_to_vec {lname} {name} {text:?}"
                );
            }
            #[cfg(feature = "bytes")]
            {
                let mut buf = bytes::BytesMut::from(&b"head"[..]);
                wirebytes_charset::encode_to_buf(text, charset, replacement, &mut buf);
                assert_eq!(&buf[4..], &slow[..], "encode_to_buf {name} {text:?}");
            }
            // The streaming encoder over one and two splits of the text.
            for &at in &splits {
                let (a, b) = text.split_at(boundaries[at]);
                let mut out = Vec::new();
                let mut encoder = charset.new_encoder(replacement);
                encoder.encode_chunk(a, false, &mut out);
                encoder.encode_chunk(b, true, &mut out);
                assert_eq!(out, slow, "Encoder {name} {replacement:?} {a:?} | {b:?}");
                // Reused after `last`, in three chunks with an empty one.
                let mut again = Vec::new();
                encoder.encode_chunk(a, false, &mut again);
                encoder.encode_chunk("", false, &mut again);
                encoder.encode_chunk(b, false, &mut again);
                encoder.encode_chunk("", true, &mut again);
                assert_eq!(
                    again, slow,
                    "reused Encoder {name} {replacement:?} {a:?} | {b:?}"
                );
            }
            let from_units = encode_utf16(&units, charset, replacement);
            assert_eq!(from_units, fast, "utf16 {name} {replacement:?} {text:?}");
            assert_eq!(from_units.capacity(), from_units.len());
            let web_encoding = charset
                .encoding()
                .filter(|&encoding| replacement == Replacement::Whatwg && !is_utf16(encoding));
            if let Some(encoding) = web_encoding {
                let (web, _, _) = encoding.encode(text);
                assert_eq!(&fast[..], &web[..], "Encoding::encode {name} {text:?}");
            }
        }
    }
}

/// UTF-16 `units` (unpaired surrogates allowed) through every charset and replacement:
/// against the reference, `try_encode_utf16`, and the `Encoder` over splits of `units` (which
/// may cut a surrogate pair).
pub(crate) fn check_units(units: &[u16]) {
    let lossy = String::from_utf16_lossy(units);
    let splits = split_points(units.len(), units.len() as u64 * 17);
    for charset in charsets() {
        let name = charset.name();
        let strict = try_encode_utf16(units, charset);
        match &strict {
            Ok(bytes) => {
                assert_eq!(bytes.capacity(), bytes.len());
                for replacement in REPLACEMENTS {
                    let expected = encode_utf16(units, charset, replacement);
                    assert_eq!(bytes, &expected, "try_encode_utf16 {name} {units:04x?}");
                }
            }
            Err(err) => {
                // Everything before the offset encodes; what is at it does not.
                let at = err.offset();
                assert!(
                    try_encode_utf16(&units[..at], charset).is_ok(),
                    "{name} {err}"
                );
                let one = &units[at..(at + 2).min(units.len())];
                let first = char::decode_utf16(one.iter().copied()).next();
                match first {
                    Some(Ok(c)) => {
                        assert_eq!(err.ch(), Some(c), "{name}");
                        assert!(try_encode(&c.to_string(), charset).is_err(), "{name} {err}");
                    }
                    _ => assert_eq!(err.ch(), None, "{name} {err}"),
                }
            }
        }
        for replacement in REPLACEMENTS {
            let fast = encode_utf16(units, charset, replacement);
            let slow = reference::encode_utf16(units, charset, replacement);
            assert_eq!(fast, slow, "{name} {replacement:?} {units:04x?}");
            for level in levels::all() {
                assert_eq!(
                    level.encode_utf16(units, charset, replacement),
                    slow,
                    "{} {name} {replacement:?} {units:04x?}",
                    level.name(),
                );
            }
            assert_eq!(fast.capacity(), fast.len(), "{name} {replacement:?}");
            if replacement == Replacement::Whatwg {
                // WHATWG: an unpaired surrogate is U+FFFD, then encoded like any char.
                assert_eq!(fast, encode(&lossy, charset, replacement), "{name}");
            }
            for &at in &splits {
                let (a, b) = units.split_at(at);
                let mut out = Vec::new();
                let mut encoder = charset.new_encoder(replacement);
                encoder.encode_utf16_chunk(a, false, &mut out);
                encoder.encode_utf16_chunk(b, true, &mut out);
                assert_eq!(
                    out, slow,
                    "Encoder {name} {replacement:?} {a:04x?} | {b:04x?}"
                );
                // With an empty chunk between (a pair split by it stays a pair).
                let mut again = Vec::new();
                encoder.encode_utf16_chunk(a, false, &mut again);
                encoder.encode_utf16_chunk(&[], false, &mut again);
                encoder.encode_utf16_chunk(b, true, &mut again);
                assert_eq!(
                    again, slow,
                    "Encoder {name} {replacement:?} {a:04x?} | | {b:04x?}"
                );
            }
            // One unit at a time.
            let mut out = Vec::new();
            let mut encoder = charset.new_encoder(replacement);
            for unit in units {
                encoder.encode_utf16_chunk(std::slice::from_ref(unit), false, &mut out);
            }
            encoder.encode_utf16_chunk(&[], true, &mut out);
            assert_eq!(
                out, slow,
                "Encoder unit by unit {name} {replacement:?} {units:04x?}"
            );
        }
    }
}
