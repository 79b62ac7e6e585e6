//! Helpers shared by the integration tests: every fast path, at every kernel level this CPU
//! has (through `levels`), against the reference; every output form (`_to_vec`, `_to_slice`,
//! `_to_buf`, `_len`, `max_`) and the streaming `Encoder` (into `Vec`s and into slices of
//! every size) against `encode`.

use wirebytes_charset::{Charset, CoderResult, Encoder, Replacement, levels, reference};
use wirebytes_testkit::Rng;

pub(crate) const REPLACEMENTS: [Replacement; 2] = [Replacement::Jdk, Replacement::Whatwg];

pub(crate) fn is_utf16(charset: Charset) -> bool {
    charset == Charset::UTF_16LE || charset == Charset::UTF_16BE
}

/// The JDK's single-byte charsets the checks run besides the Unicode family: one of each
/// shape (close to Latin-1, one-way mappings, EBCDIC, ASCII not its own byte, a symbol set).
/// `the_jdk_charsets_agree_with_the_reference` runs every one of them.
pub(crate) const JDK_SINGLE_BYTE: [&str; 7] = [
    "ISO-8859-1",
    "US-ASCII",
    "windows-1252",
    "IBM037",
    "IBM864",
    "JIS_X0201",
    "x-MacSymbol",
];

/// The charsets of the checks: the 40 WHATWG encodings, then the JDK's Unicode family and
/// [`JDK_SINGLE_BYTE`]. Under Miri, every twelfth of those without a CJK table (building one
/// asks encoding_rs about every BMP char, minutes when interpreted): UTF-8, UTF-16,
/// single-byte and JDK ones.
pub(crate) fn charsets() -> Vec<Charset> {
    let jdk = Charset::java_charsets().filter(|c| {
        c.encoding().is_none()
            && (JDK_SINGLE_BYTE.contains(&c.name())
                || c.name().contains("UTF")
                || c.name() == "CESU-8")
    });
    Charset::whatwg_charsets()
        .chain(jdk)
        .filter(|&c| {
            !cfg!(miri)
                || c.encoding()
                    .is_none_or(|e| e.is_single_byte() || e == encoding_rs::UTF_8 || is_utf16(c))
        })
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

/// A `_to_slice` form against `want`: `Some(len)` with the bytes into a slice of exactly
/// `want.len()` bytes, into one 9 bytes longer and into one of `max` (the `max_*_len`
/// bound, where a writer may take the worst case as its room), the bytes past the output
/// untouched; `None` into every shorter slice (every length when `every`, else a few),
/// never a byte written past the slice (a sentinel follows it).
pub(crate) fn check_slice(
    what: &str,
    want: &[u8],
    every: bool,
    max: usize,
    mut f: impl FnMut(&mut [u8]) -> Option<usize>,
) {
    const SENTINEL: u8 = 0xEE;
    let mut rooms = vec![want.len(), want.len() + 9, max];
    rooms.sort_unstable();
    rooms.dedup();
    for room in rooms {
        let mut buf = vec![SENTINEL; room + 4];
        assert_eq!(f(&mut buf[..room]), Some(want.len()), "{what}: room {room}");
        assert_eq!(&buf[..want.len()], want, "{what}: room {room}");
        assert!(
            buf[want.len()..].iter().all(|&b| b == SENTINEL),
            "{what}: written past the output"
        );
    }
    let shorter: Vec<usize> = if every {
        (0..want.len()).collect()
    } else {
        [0, want.len() / 2, want.len().saturating_sub(1)]
            .into_iter()
            .filter(|&k| k < want.len())
            .collect()
    };
    for room in shorter {
        let mut buf = vec![SENTINEL; room + 4];
        assert_eq!(
            f(&mut buf[..room]),
            None,
            "{what}: room {room} < {}",
            want.len()
        );
        assert!(
            buf[room..].iter().all(|&b| b == SENTINEL),
            "{what}: room {room}: written past the slice"
        );
    }
}

/// The input of an `Encoder` drive: a `&str` or UTF-16 chunk.
pub(crate) trait Input {
    fn units(&self) -> usize;
    fn split(&self, at: usize) -> (&Self, &Self);
    fn to_slice(
        &self,
        encoder: &mut Encoder,
        dst: &mut [u8],
        last: bool,
    ) -> (CoderResult, usize, usize, bool);
    fn max_buffer_length(&self, encoder: &Encoder) -> Option<usize>;
}

impl Input for str {
    fn units(&self) -> usize {
        self.len()
    }
    fn split(&self, at: usize) -> (&Self, &Self) {
        self.split_at(at)
    }
    fn to_slice(
        &self,
        encoder: &mut Encoder,
        dst: &mut [u8],
        last: bool,
    ) -> (CoderResult, usize, usize, bool) {
        encoder.encode_to_slice(self, dst, last)
    }
    fn max_buffer_length(&self, encoder: &Encoder) -> Option<usize> {
        encoder.max_buffer_length(self.len())
    }
}

impl Input for [u16] {
    fn units(&self) -> usize {
        self.len()
    }
    fn split(&self, at: usize) -> (&Self, &Self) {
        self.split_at(at)
    }
    fn to_slice(
        &self,
        encoder: &mut Encoder,
        dst: &mut [u8],
        last: bool,
    ) -> (CoderResult, usize, usize, bool) {
        encoder.encode_from_utf16_to_slice(self, dst, last)
    }
    fn max_buffer_length(&self, encoder: &Encoder) -> Option<usize> {
        encoder.max_buffer_length_from_utf16(self.len())
    }
}

/// Drives `encoder` over `chunks` (the last with `last = true`) into slices of `room` bytes,
/// as encoding_rs's callers do: after `OutputFull`, the rest of the chunk again into a new
/// slice. Checks each call's counts and returns the bytes and whether any call reported a
/// replacement.
pub(crate) fn drive<I: Input + ?Sized>(
    encoder: &mut Encoder,
    chunks: &[&I],
    room: usize,
) -> (Vec<u8>, bool) {
    let mut out = Vec::new();
    let mut replaced = false;
    let mut buf = vec![0u8; room];
    for (k, &chunk) in chunks.iter().enumerate() {
        let last = k + 1 == chunks.len();
        let mut rest = chunk;
        let mut calls = 0;
        loop {
            let (result, read, written, had) = rest.to_slice(encoder, &mut buf, last);
            assert!(
                read <= rest.units() && written <= room,
                "counts out of range"
            );
            out.extend_from_slice(&buf[..written]);
            replaced |= had;
            rest = rest.split(read).1;
            calls += 1;
            assert!(calls < 100_000, "no progress");
            match result {
                CoderResult::InputEmpty => {
                    assert_eq!(rest.units(), 0, "InputEmpty with input left");
                    break;
                }
                CoderResult::OutputFull => {
                    assert!(room > 0 || read == 0, "read with no room");
                    if room == 0 {
                        // No room can ever take anything: the drive is over.
                        return (out, replaced);
                    }
                }
            }
        }
    }
    (out, replaced)
}

/// `text` through every charset and replacement: fast == reference, exact size, and WHATWG
/// == `Encoding::encode` where the crate promises it, at every level; `try_encode`,
/// `encode_string`, `encoded_len`, `max_encoded_len`, `encode_to_vec`, `encode_to_slice`
/// (every too-short slice), `encode_to_buf` and the `Encoder` over splits of `text` (into
/// `Vec`s and into slices of several sizes) agree with `encode`. Also the UTF-16 forms on the
/// same text.
pub(crate) fn check_str(text: &str) {
    let units: Vec<u16> = text.encode_utf16().collect();
    let boundaries: Vec<usize> = (0..=text.len())
        .filter(|&i| text.is_char_boundary(i))
        .collect();
    let splits = split_points(boundaries.len() - 1, text.len() as u64 * 31);
    for charset in charsets() {
        let name = charset.name();
        let strict = charset.try_encode(text);
        for level in levels::all() {
            assert_eq!(
                level.try_encode(charset, text),
                strict,
                "try_encode {} {name} {text:?}",
                level.name(),
            );
        }
        if let Ok(bytes) = &strict {
            assert_eq!(bytes.capacity(), bytes.len(), "try_encode {name}");
        }
        for replacement in REPLACEMENTS {
            let fast = charset.encode(text, replacement);
            let slow = reference::encode(charset, text, replacement);
            assert_eq!(fast, slow, "{name} {replacement:?} {text:?}");
            assert_eq!(fast.capacity(), fast.len(), "{name} {replacement:?}");
            if let Ok(bytes) = &strict {
                assert_eq!(
                    bytes, &fast,
                    "try_encode Ok {name} {replacement:?} {text:?}"
                );
            }
            assert_eq!(charset.encoded_len(text, replacement), fast.len(), "{name}");
            assert!(
                charset.max_encoded_len(text.len(), replacement) >= fast.len(),
                "max_encoded_len {name} {replacement:?} {text:?}"
            );
            check_slice(
                &format!("encode_to_slice {name} {replacement:?}"),
                &slow,
                true,
                charset.max_encoded_len(text.len(), replacement),
                |dst| charset.encode_to_slice(text, replacement, dst),
            );
            for level in levels::all() {
                let lname = level.name();
                let at_level = level.encode(charset, text, replacement);
                assert_eq!(at_level, slow, "{lname} {name} {replacement:?} {text:?}");
                assert_eq!(at_level.capacity(), at_level.len(), "{lname}");
                let owned = level.encode_string(charset, text.to_owned(), replacement);
                assert_eq!(owned, slow, "encode_string {lname} {name}");
                assert_eq!(owned.capacity(), owned.len(), "{lname}");
                assert_eq!(
                    level.encoded_len(charset, text, replacement),
                    slow.len(),
                    "encoded_len {lname} {name} {replacement:?} {text:?}"
                );
                let mut appended = b"head".to_vec();
                level.encode_to_vec(charset, text, replacement, &mut appended);
                assert_eq!(&appended[..4], b"head", "{lname} {name}");
                assert_eq!(
                    &appended[4..],
                    &slow[..],
                    "encode_to_vec {lname} {name} {text:?}"
                );
                check_slice(
                    &format!("encode_to_slice {lname} {name} {replacement:?}"),
                    &slow,
                    false,
                    charset.max_encoded_len(text.len(), replacement),
                    |dst| level.encode_to_slice(charset, text, replacement, dst),
                );
            }
            #[cfg(feature = "bytes")]
            {
                let mut buf = bytes::BytesMut::from(&b"head"[..]);
                charset.encode_to_buf(text, replacement, &mut buf);
                assert_eq!(&buf[4..], &slow[..], "encode_to_buf {name} {text:?}");
                let mut one_by_one = wirebytes_testkit::buf::OneByteRoom::with(b"head");
                charset.encode_to_buf(text, replacement, &mut one_by_one);
                assert_eq!(
                    &one_by_one.bytes()[4..],
                    &slow[..],
                    "encode_to_buf, one-byte chunks {name} {text:?}"
                );
            }
            // The streaming encoder over one and two splits of the text.
            for &at in &splits {
                let (a, b) = text.split_at(boundaries[at]);
                let mut out = Vec::new();
                let mut encoder = charset.new_encoder(replacement);
                encoder.encode_to_vec(a, false, &mut out);
                encoder.encode_to_vec(b, true, &mut out);
                assert_eq!(out, slow, "Encoder {name} {replacement:?} {a:?} | {b:?}");
                // Reused after `last`, in four chunks with empty ones.
                let mut again = Vec::new();
                encoder.encode_to_vec(a, false, &mut again);
                encoder.encode_to_vec("", false, &mut again);
                encoder.encode_to_vec(b, false, &mut again);
                encoder.encode_to_vec("", true, &mut again);
                assert_eq!(
                    again, slow,
                    "reused Encoder {name} {replacement:?} {a:?} | {b:?}"
                );
                // Into 3-byte slices.
                let (sliced, replaced) = drive(&mut encoder, &[a, b], 3);
                assert_eq!(
                    sliced, slow,
                    "Encoder slices {name} {replacement:?} {a:?} | {b:?}"
                );
                assert_eq!(
                    replaced,
                    strict.is_err(),
                    "replaced {name} {replacement:?} {text:?}"
                );
            }
            check_encoder_slices(charset, replacement, text, &slow, strict.is_err());
            let from_units = charset.encode_from_utf16(&units, replacement);
            assert_eq!(from_units, fast, "utf16 {name} {replacement:?} {text:?}");
            assert_eq!(from_units.capacity(), from_units.len());
            let web_encoding = charset
                .encoding()
                .filter(|_| replacement == Replacement::Whatwg && !is_utf16(charset));
            if let Some(encoding) = web_encoding {
                let (web, _, _) = encoding.encode(text);
                assert_eq!(&fast[..], &web[..], "Encoding::encode {name} {text:?}");
            }
        }
    }
}

/// The whole input through a fresh `Encoder` into slices of several sizes (one byte, a few,
/// the announced `max_buffer_length`, which must take it in one call).
pub(crate) fn check_encoder_slices<I: Input + ?Sized>(
    charset: Charset,
    replacement: Replacement,
    input: &I,
    want: &[u8],
    replaced: bool,
) {
    let name = charset.name();
    for room in [1, 2, 7, 64] {
        let mut encoder = charset.new_encoder(replacement);
        let (out, had) = drive(&mut encoder, &[input], room);
        assert_eq!(
            out, want,
            "Encoder into {room}-byte slices {name} {replacement:?}"
        );
        assert_eq!(
            had, replaced,
            "replaced, {room}-byte slices {name} {replacement:?}"
        );
    }
    let mut encoder = charset.new_encoder(replacement);
    let max = input
        .max_buffer_length(&encoder)
        .expect("a test input's bound fits in usize");
    let mut dst = vec![0u8; max];
    let (result, read, written, had) = input.to_slice(&mut encoder, &mut dst, true);
    assert_eq!(
        (result, read, &dst[..written], had),
        (CoderResult::InputEmpty, input.units(), want, replaced),
        "Encoder into max_buffer_length {max} {name} {replacement:?}"
    );
    // A slice with no room reads nothing.
    let mut encoder = charset.new_encoder(replacement);
    if input.units() > 0 {
        let (result, read, written, _) = input.to_slice(&mut encoder, &mut [], true);
        assert_eq!(
            (result, read, written),
            (CoderResult::OutputFull, 0, 0),
            "{name}"
        );
    }
}

/// UTF-16 `units` (unpaired surrogates allowed) through every charset and replacement:
/// against the reference, `try_encode_from_utf16`, every output form, and the `Encoder` over
/// splits of `units` (which may cut a surrogate pair).
pub(crate) fn check_units(units: &[u16]) {
    let lossy = String::from_utf16_lossy(units);
    let splits = split_points(units.len(), units.len() as u64 * 17);
    for charset in charsets() {
        let name = charset.name();
        let strict = charset.try_encode_from_utf16(units);
        match &strict {
            Ok(bytes) => {
                assert_eq!(bytes.capacity(), bytes.len());
                for replacement in REPLACEMENTS {
                    let expected = charset.encode_from_utf16(units, replacement);
                    assert_eq!(
                        bytes, &expected,
                        "try_encode_from_utf16 {name} {units:04x?}"
                    );
                }
            }
            Err(err) => {
                // Everything before the offset encodes; what is at it does not.
                let at = err.offset();
                assert!(
                    charset.try_encode_from_utf16(&units[..at]).is_ok(),
                    "{name} {err}"
                );
                let one = &units[at..(at + 2).min(units.len())];
                let first = char::decode_utf16(one.iter().copied()).next();
                match first {
                    Some(Ok(c)) => {
                        assert_eq!(err.ch(), Some(c), "{name}");
                        assert!(charset.try_encode(&c.to_string()).is_err(), "{name} {err}");
                    }
                    _ => assert_eq!(err.ch(), None, "{name} {err}"),
                }
            }
        }
        for replacement in REPLACEMENTS {
            let fast = charset.encode_from_utf16(units, replacement);
            let slow = reference::encode_from_utf16(charset, units, replacement);
            assert_eq!(fast, slow, "{name} {replacement:?} {units:04x?}");
            assert_eq!(fast.capacity(), fast.len(), "{name} {replacement:?}");
            assert_eq!(
                charset.encoded_len_from_utf16(units, replacement),
                slow.len(),
                "encoded_len_from_utf16 {name} {replacement:?} {units:04x?}"
            );
            assert!(
                charset.max_encoded_len_from_utf16(units.len(), replacement) >= slow.len(),
                "max_encoded_len_from_utf16 {name} {replacement:?} {units:04x?}"
            );
            let mut appended = b"head".to_vec();
            charset.encode_from_utf16_to_vec(units, replacement, &mut appended);
            assert_eq!(&appended[4..], &slow[..], "encode_from_utf16_to_vec {name}");
            check_slice(
                &format!("encode_from_utf16_to_slice {name} {replacement:?}"),
                &slow,
                true,
                charset.max_encoded_len_from_utf16(units.len(), replacement),
                |dst| charset.encode_from_utf16_to_slice(units, replacement, dst),
            );
            #[cfg(feature = "bytes")]
            {
                let mut one_by_one = wirebytes_testkit::buf::OneByteRoom::with(b"head");
                charset.encode_from_utf16_to_buf(units, replacement, &mut one_by_one);
                assert_eq!(
                    &one_by_one.bytes()[4..],
                    &slow[..],
                    "encode_from_utf16_to_buf {name} {units:04x?}"
                );
            }
            if replacement == Replacement::Whatwg {
                // WHATWG: an unpaired surrogate is U+FFFD, then encoded like any char.
                assert_eq!(fast, charset.encode(&lossy, replacement), "{name}");
            }
            for &at in &splits {
                let (a, b) = units.split_at(at);
                let mut out = Vec::new();
                let mut encoder = charset.new_encoder(replacement);
                encoder.encode_from_utf16_to_vec(a, false, &mut out);
                encoder.encode_from_utf16_to_vec(b, true, &mut out);
                assert_eq!(
                    out, slow,
                    "Encoder {name} {replacement:?} {a:04x?} | {b:04x?}"
                );
                // With an empty chunk between (a pair split by it stays a pair).
                let mut again = Vec::new();
                encoder.encode_from_utf16_to_vec(a, false, &mut again);
                encoder.encode_from_utf16_to_vec(&[], false, &mut again);
                encoder.encode_from_utf16_to_vec(b, true, &mut again);
                assert_eq!(
                    again, slow,
                    "Encoder {name} {replacement:?} {a:04x?} | | {b:04x?}"
                );
                let (sliced, replaced) = drive(&mut encoder, &[a, b], 3);
                assert_eq!(
                    sliced, slow,
                    "Encoder slices {name} {replacement:?} {a:04x?} | {b:04x?}"
                );
                assert_eq!(
                    replaced,
                    strict.is_err(),
                    "replaced {name} {replacement:?} {units:04x?}"
                );
            }
            check_encoder_slices(charset, replacement, units, &slow, strict.is_err());
            // One unit at a time.
            let mut out = Vec::new();
            let mut encoder = charset.new_encoder(replacement);
            for unit in units {
                encoder.encode_from_utf16_to_vec(std::slice::from_ref(unit), false, &mut out);
            }
            encoder.encode_from_utf16_to_vec(&[], true, &mut out);
            assert_eq!(
                out, slow,
                "Encoder unit by unit {name} {replacement:?} {units:04x?}"
            );
        }
    }
}
