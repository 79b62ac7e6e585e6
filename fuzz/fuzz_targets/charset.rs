//! wirebytes-charset at every kernel level against `reference`, for one charset of
//! `Charset::whatwg_charsets()` or the JDK's others and both replacements: `encode`,
//! `encode_to_vec` (after bytes already there), `encode_to_slice` (into a slice of an
//! arbitrary length: `None` exactly when it is too short), `encoded_len`, `encode_string`,
//! `encode_with_bom`, the UTF-16 forms, `try_encode` / `try_encode_from_utf16` (Ok is the
//! bytes of both replacements, Err the first char they differ on), and the streaming
//! `Encoder` over an arbitrary split of `&str` and UTF-16 input, into `Vec`s and into slices
//! of an arbitrary size.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use wirebytes_charset::{Charset, CoderResult, Encoder, Replacement, levels, reference};
use wirebytes_fuzz::{chunk_lengths, same, text, units};

#[derive(Arbitrary, Debug)]
struct Input<'a> {
    /// An index into the WHATWG charsets followed by the JDK's others.
    charset: u8,
    /// The length of the slices the `_to_slice` forms write into.
    room: u16,
    /// Where the streaming encoder's chunks end (a cycle of lengths).
    cuts: [u8; 3],
    /// The text (as lossy UTF-8) and the UTF-16 units (two bytes each).
    payload: &'a [u8],
}

const REPLACEMENTS: [Replacement; 2] = [Replacement::Jdk, Replacement::Whatwg];

/// Whether the reference writes `c` without replacing it.
fn mappable(c: char, charset: Charset) -> bool {
    let one = c.to_string();
    reference::encode(charset, &one, Replacement::Jdk)
        == reference::encode(charset, &one, Replacement::Whatwg)
}

/// The unit offset of the first unpaired surrogate or unmappable char of `units`.
fn first_unencodable(units: &[u16], charset: Charset) -> Option<usize> {
    let mut at = 0;
    for item in char::decode_utf16(units.iter().copied()) {
        match item {
            Ok(c) if mappable(c, charset) => at += c.len_utf16(),
            _ => return Some(at),
        }
    }
    None
}

fuzz_target!(|input: Input<'_>| {
    let charsets: Vec<Charset> = Charset::whatwg_charsets()
        .chain(Charset::java_charsets().filter(|c| c.encoding().is_none()))
        .collect();
    let charset = charsets[usize::from(input.charset) % charsets.len()];
    let room = usize::from(input.room);
    let text = text(input.payload);
    let units = units(input.payload);
    let context = (charset, &text);
    let context16 = (charset, &units);

    for replacement in REPLACEMENTS {
        let want = reference::encode(charset, &text, replacement);
        let want16 = reference::encode_from_utf16(charset, &units, replacement);
        let label = format!("{charset} {replacement:?}");
        same(
            &format!("encode_utf16 {label}"),
            &context16,
            &want16,
            &charset.encode_from_utf16(&units, replacement),
        );
        let mut with_bom = charset.bom().to_vec();
        // The JDK's UTF-16 writes its own mark (and none for empty input): no second one.
        with_bom.extend_from_slice(&want);
        same(
            &format!("encode_with_bom {label}"),
            &context,
            &with_bom,
            &charset.encode_with_bom(&text, replacement),
        );
        for level in levels::all() {
            let label = format!("{} {label}", level.name());
            let out = level.encode(charset, &text, replacement);
            same(&format!("encode {label}"), &context, &want, &out);
            same(
                &format!("encode is exact-size {label}"),
                &context,
                out.len(),
                out.capacity(),
            );
            same(
                &format!("encoded_len {label}"),
                &context,
                want.len(),
                level.encoded_len(charset, &text, replacement),
            );
            let mut appended = b"prefix".to_vec();
            level.encode_to_vec(charset, &text, replacement, &mut appended);
            same(
                &format!("encode_to_vec {label}"),
                &context,
                &want[..],
                &appended[6..],
            );
            same(
                &format!("encode_to_vec keeps {label}"),
                &context,
                &b"prefix"[..],
                &appended[..6],
            );
            let mut slice = vec![0u8; room];
            let written = level.encode_to_slice(charset, &text, replacement, &mut slice);
            same(
                &format!("encode_to_slice into {room} bytes {label}"),
                &context,
                (want.len() <= room).then_some(&want[..]),
                written.map(|n| &slice[..n]),
            );
            same(
                &format!("encode_string {label}"),
                &context,
                &want,
                &level.encode_string(charset, text.clone(), replacement),
            );
            same(
                &format!("encode_with_bom {label}"),
                &context,
                &with_bom,
                &level.encode_with_bom(charset, &text, replacement),
            );
        }

        // The streaming encoder over the split the cuts give, `&str` (at char boundaries)
        // and UTF-16 (anywhere, inside surrogate pairs too), into `Vec`s and into slices.
        let chunks = str_chunks(&text, &input.cuts);
        let mut encoder = charset.new_encoder(replacement);
        let mut out = Vec::new();
        for (k, chunk) in chunks.iter().enumerate() {
            encoder.encode_to_vec(chunk, k + 1 == chunks.len(), &mut out);
        }
        same(
            &format!("Encoder::encode_to_vec {label}"),
            &context,
            &want,
            &out,
        );
        let sliced = drive(&mut encoder, &chunks, room, |encoder, chunk, dst, last| {
            encoder.encode_to_slice(chunk, dst, last)
        });
        same(
            &format!("Encoder::encode_to_slice into {room}-byte slices {label}"),
            &context,
            Some(&want),
            sliced.as_ref(),
        );
        let unit_chunks: Vec<&[u16]> = unit_chunks(&units, &input.cuts);
        let sliced = drive(
            &mut encoder,
            &unit_chunks,
            room,
            |encoder, chunk, dst, last| encoder.encode_from_utf16_to_slice(chunk, dst, last),
        );
        same(
            &format!("Encoder::encode_from_utf16_to_slice into {room}-byte slices {label}"),
            &context16,
            Some(&want16),
            sliced.as_ref(),
        );
        let mut slice = vec![0u8; room];
        let written = charset.encode_from_utf16_to_slice(&units, replacement, &mut slice);
        same(
            &format!("encode_from_utf16_to_slice into {room} bytes {label}"),
            &context16,
            (want16.len() <= room).then_some(&want16[..]),
            written.map(|n| &slice[..n]),
        );
        same(
            &format!("encoded_len_from_utf16 {label}"),
            &context16,
            want16.len(),
            charset.encoded_len_from_utf16(&units, replacement),
        );

        for level in levels::all() {
            let label = format!("{} {label}", level.name());
            let out = level.encode_from_utf16(charset, &units, replacement);
            same(
                &format!("encode_from_utf16 {label}"),
                &context16,
                &want16,
                &out,
            );
            same(
                &format!("encode_from_utf16 is exact-size {label}"),
                &context16,
                out.len(),
                out.capacity(),
            );
            let mut slice = vec![0u8; room];
            let written =
                level.encode_from_utf16_to_slice(charset, &units, replacement, &mut slice);
            same(
                &format!("encode_from_utf16_to_slice into {room} bytes {label}"),
                &context16,
                (want16.len() <= room).then_some(&want16[..]),
                written.map(|n| &slice[..n]),
            );
        }
        for level in levels::all() {
            let mut encoder = level.new_encoder(charset, replacement);
            let mut out = Vec::new();
            let mut from = 0;
            for len in chunk_lengths(units.len(), &input.cuts) {
                encoder.encode_from_utf16_to_vec(&units[from..from + len], false, &mut out);
                from += len;
            }
            encoder.encode_from_utf16_to_vec(&[], true, &mut out);
            same(
                &format!("Encoder::encode_from_utf16_to_vec {} {label}", level.name()),
                &context16,
                &want16,
                &out,
            );
        }
    }

    // try_encode: Ok is what both replacements write; Err names the first char they differ
    // on, which only the reference decides.
    let jdk = reference::encode(charset, &text, Replacement::Jdk);
    let first_bad = text.char_indices().find(|&(_, c)| !mappable(c, charset));
    let stateless = charset.encoding() != Some(encoding_rs::ISO_2022_JP);
    for level in levels::all() {
        let label = format!("try_encode {} {charset}", level.name());
        match level.try_encode(charset, &text) {
            Ok(bytes) => {
                same(&label, &context, &jdk, &bytes);
                same(
                    &label,
                    &context,
                    &jdk,
                    &reference::encode(charset, &text, Replacement::Whatwg),
                );
            }
            Err(err) => {
                let at = err.offset();
                let found = (at, err.ch());
                assert!(
                    text.is_char_boundary(at) && text[at..].starts_with(err.ch()),
                    "{label}: {err} is not a char of {context:?}"
                );
                assert!(!mappable(err.ch(), charset), "{label}: {err} is mappable");
                let before = &text[..at];
                same(
                    &format!("{label}: the text before the error is mappable"),
                    &context,
                    reference::encode(charset, before, Replacement::Jdk),
                    reference::encode(charset, before, Replacement::Whatwg),
                );
                if stateless {
                    same(&label, &context, first_bad, Some(found));
                }
            }
        }
    }
    if stateless {
        let want = match first_unencodable(&units, charset) {
            None => Ok(reference::encode_from_utf16(
                charset,
                &units,
                Replacement::Jdk,
            )),
            Some(at) => Err(at),
        };
        same(
            &format!("try_encode_utf16 {charset}"),
            &context16,
            want,
            charset
                .try_encode_from_utf16(&units)
                .map_err(|err| err.offset()),
        );
    }
});

/// `text` cut where the cycle of `cuts` says (moved forward to char boundaries).
fn str_chunks<'a>(text: &'a str, cuts: &[u8; 3]) -> Vec<&'a str> {
    let mut chunks = Vec::new();
    let mut from = 0;
    for len in chunk_lengths(text.len(), cuts) {
        let mut to = (from + len).min(text.len());
        while !text.is_char_boundary(to) {
            to += 1;
        }
        if to > from {
            chunks.push(&text[from..to]);
            from = to;
        }
    }
    chunks.push(&text[from..]);
    chunks
}

/// `units` cut where the cycle of `cuts` says (inside surrogate pairs too).
fn unit_chunks<'a>(units: &'a [u16], cuts: &[u8; 3]) -> Vec<&'a [u16]> {
    let mut chunks = Vec::new();
    let mut from = 0;
    for len in chunk_lengths(units.len(), cuts) {
        chunks.push(&units[from..from + len]);
        from += len;
    }
    chunks.push(&units[from..]);
    chunks
}

/// `chunks` through `encoder` (the last with `last`) into slices of `room` bytes, as
/// encoding_rs's callers drive it: after `OutputFull`, the rest of the chunk into a new
/// slice. `None` when a call makes no progress with room to spare, or reads past its chunk.
fn drive<T: ?Sized + Len>(
    encoder: &mut Encoder,
    chunks: &[&T],
    room: usize,
    mut to_slice: impl FnMut(&mut Encoder, &T, &mut [u8], bool) -> (CoderResult, usize, usize, bool),
) -> Option<Vec<u8>> {
    let room = room.max(1);
    let mut out = Vec::new();
    let mut dst = vec![0u8; room];
    for (k, &chunk) in chunks.iter().enumerate() {
        let mut rest = chunk;
        let mut idle = 0;
        loop {
            let (result, read, written, _) =
                to_slice(encoder, rest, &mut dst, k + 1 == chunks.len());
            out.extend_from_slice(dst.get(..written)?);
            rest = rest.tail(read)?;
            if result == CoderResult::InputEmpty {
                break;
            }
            idle = if read == 0 && written == 0 {
                idle + 1
            } else {
                0
            };
            if idle > 1 {
                return None;
            }
        }
    }
    Some(out)
}

/// What [`drive`] needs of a chunk.
trait Len {
    fn tail(&self, from: usize) -> Option<&Self>;
}

impl Len for str {
    fn tail(&self, from: usize) -> Option<&Self> {
        self.get(from..)
    }
}

impl Len for [u16] {
    fn tail(&self, from: usize) -> Option<&Self> {
        self.get(from..)
    }
}
