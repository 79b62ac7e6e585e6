//! wirebytes-charset at every kernel level against `reference`, for one charset of `ALL` or
//! `Charset::JDK_ONLY` and both replacements: `encode`, `encode_to_vec` (after bytes already
//! there), `encoded_len`, `encode_string`, `encode_with_bom`, `encode_utf16`,
//! `try_encode` / `try_encode_utf16` (Ok is the bytes of both replacements, Err the first char
//! they differ on), and the streaming `Encoder` over an arbitrary split of `&str` and UTF-16
//! input.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use wirebytes_charset::{ALL, Charset, Replacement, bom, levels, reference};
use wirebytes_fuzz::{chunk_lengths, same, text, units};

#[derive(Arbitrary, Debug)]
struct Input<'a> {
    /// An index into `ALL` followed by `Charset::JDK_ONLY`.
    charset: u8,
    /// Where the streaming encoder's chunks end (a cycle of lengths).
    cuts: [u8; 3],
    /// The text (as lossy UTF-8) and the UTF-16 units (two bytes each).
    payload: &'a [u8],
}

const REPLACEMENTS: [Replacement; 2] = [Replacement::Jdk, Replacement::Whatwg];

/// Whether the reference writes `c` without replacing it.
fn mappable(c: char, charset: Charset) -> bool {
    let one = c.to_string();
    reference::encode(&one, charset, Replacement::Jdk)
        == reference::encode(&one, charset, Replacement::Whatwg)
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
    let n = ALL.len() + Charset::JDK_ONLY.len();
    let index = usize::from(input.charset) % n;
    let charset = match ALL.get(index) {
        Some(&encoding) => Charset::from(encoding),
        None => Charset::JDK_ONLY[index - ALL.len()],
    };
    let text = text(input.payload);
    let units = units(input.payload);
    let context = (charset, &text);
    let context16 = (charset, &units);

    for replacement in REPLACEMENTS {
        let want = reference::encode(&text, charset, replacement);
        let want16 = reference::encode_utf16(&units, charset, replacement);
        let label = format!("{charset} {replacement:?}");
        same(
            &format!("encode_utf16 {label}"),
            &context16,
            &want16,
            &wirebytes_charset::encode_utf16(&units, charset, replacement),
        );
        let mut with_bom = bom(charset).to_vec();
        // The JDK's UTF-16 writes its own mark (and none for empty input): no second one.
        with_bom.extend_from_slice(&want);
        same(
            &format!("encode_with_bom {label}"),
            &context,
            &with_bom,
            &wirebytes_charset::encode_with_bom(&text, charset, replacement),
        );
        for level in levels::all() {
            let label = format!("{} {label}", level.name());
            let out = level.encode(&text, charset, replacement);
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
                level.encoded_len(&text, charset, replacement),
            );
            let mut appended = b"prefix".to_vec();
            level.encode_to_vec(&text, charset, replacement, &mut appended);
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
            same(
                &format!("encode_string {label}"),
                &context,
                &want,
                &level.encode_string(text.clone(), charset, replacement),
            );
            same(
                &format!("encode_with_bom {label}"),
                &context,
                &with_bom,
                &level.encode_with_bom(&text, charset, replacement),
            );
        }

        // The streaming encoder over the split the cuts give, `&str` (at char boundaries)
        // and UTF-16 (anywhere, inside surrogate pairs too).
        let mut encoder = charset.new_encoder(replacement);
        let mut out = Vec::new();
        let mut from = 0;
        for len in chunk_lengths(text.len(), &input.cuts) {
            let mut to = (from + len).min(text.len());
            while !text.is_char_boundary(to) {
                to += 1;
            }
            if to > from {
                encoder.encode_chunk(&text[from..to], false, &mut out);
                from = to;
            }
        }
        encoder.encode_chunk(&text[from..], true, &mut out);
        same(
            &format!("Encoder::encode_chunk {label}"),
            &context,
            &want,
            &out,
        );

        for level in levels::all() {
            let mut encoder = level.new_encoder(charset, replacement);
            let mut out = Vec::new();
            let mut from = 0;
            for len in chunk_lengths(units.len(), &input.cuts) {
                encoder.encode_utf16_chunk(&units[from..from + len], false, &mut out);
                from += len;
            }
            encoder.encode_utf16_chunk(&[], true, &mut out);
            same(
                &format!("Encoder::encode_utf16_chunk {} {label}", level.name()),
                &context16,
                &want16,
                &out,
            );
        }
    }

    // try_encode: Ok is what both replacements write; Err names the first char they differ
    // on, which only the reference decides.
    let jdk = reference::encode(&text, charset, Replacement::Jdk);
    let first_bad = text.char_indices().find(|&(_, c)| !mappable(c, charset));
    let stateless = charset.encoding() != Some(encoding_rs::ISO_2022_JP);
    for level in levels::all() {
        let label = format!("try_encode {} {charset}", level.name());
        match level.try_encode(&text, charset) {
            Ok(bytes) => {
                same(&label, &context, &jdk, &bytes);
                same(
                    &label,
                    &context,
                    &jdk,
                    &reference::encode(&text, charset, Replacement::Whatwg),
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
                    reference::encode(before, charset, Replacement::Jdk),
                    reference::encode(before, charset, Replacement::Whatwg),
                );
                if stateless {
                    same(&label, &context, first_bad, Some(found));
                }
            }
        }
    }
    if stateless {
        let want = match first_unencodable(&units, charset) {
            None => Ok(reference::encode_utf16(&units, charset, Replacement::Jdk)),
            Some(at) => Err(at),
        };
        same(
            &format!("try_encode_utf16 {charset}"),
            &context16,
            want,
            wirebytes_charset::try_encode_utf16(&units, charset).map_err(|err| err.offset()),
        );
    }
});
