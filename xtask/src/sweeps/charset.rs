//! The `charset` sweep: wirebytes-charset against its streaming reference, against
//! encoding_rs's `Encoding::encode` and, when `java` is on PATH, against the JDK's
//! `String.getBytes(Charset)`.
//!
//! Every encoding of `Charset::whatwg_charsets()` (all 40 of encoding_rs) x both replacements x
//! every kernel level this CPU has (`wirebytes_charset::levels`: "portable", then "ssse3",
//! "avx2" and "avx512" where the CPU has them) x `&str` and `&[u16]` input x an adversarial corpus: script samples (ASCII, Latin-1,
//! Cyrillic, Greek, Hebrew, Arabic, Thai, CJK, emoji), the awkward chars (BOM, U+FFFD, NUL,
//! ESC, C1 controls, x-user-defined's U+F780..U+F7FF, ¥ and ‾ of ISO-2022-JP's Roman state),
//! each at the start, middle and end of ASCII of every length around the vector and block
//! widths, runs that cross the 64-byte block boundary at every offset, random text, and for
//! UTF-16 input unpaired surrogates anywhere plus random `u16` soup.
//!
//! The JDK-only charsets (ISO-8859-1, US-ASCII, UTF-16, UTF-32,
//! UTF-32BE, UTF-32LE) go through the same corpus against the reference, and against the JDK
//! itself on the corpus plus random UTF-16 with lone surrogates, pairs and empty strings;
//! `encoded_len` and `encode_to_vec` against `encode` for every charset; the streaming
//! `Encoder` over splits of the input (every position for short inputs, random ones for long
//! ones; `&[u16]` splits may cut a surrogate pair); and the Java-name table of
//! `Charset::for_java_name` against every charset and alias of the JDK.

use wirebytes_charset::levels::java_names;
use wirebytes_charset::levels::{self, Level};
use wirebytes_charset::{Charset, CoderResult, Encoder, Encoding, Replacement, reference};

/// Every WHATWG encoding, in the crate's list (`Charset::whatwg_charsets`, all 40 of
/// encoding_rs; the crate's tests check the list is complete).
fn all() -> Vec<&'static Encoding> {
    Charset::whatwg_charsets()
        .filter_map(Charset::encoding)
        .collect()
}

/// Whether `charset` (of the JDK's) is of the Unicode family.
fn is_unicode(charset: Charset) -> bool {
    let name = charset.name();
    name.starts_with("UTF")
        || name.starts_with("x-UTF")
        || name.starts_with("X-UTF")
        || name == "CESU-8"
}

/// The JDK's charsets the engine-wide checks run: the Unicode family that encoding_rs does
/// not share, single-byte charsets of every shape (ASCII its own byte or not, close to
/// Latin-1 or not, one-way mappings, the JDK's EBCDIC and Mac symbol sets) and multi-byte
/// charsets of every form (one or two bytes, EUC-JP's three, EUC-TW's four, GB18030's ranges
/// and arithmetic, pairs written together, chars of plane 2, double-byte only, ASCII not its
/// own byte). Every one of the JDK's charsets goes through the per-char checks and the JDK
/// parity.
fn jdk_sample(ctx: &Ctx) -> Vec<Charset> {
    // With --quick, the first four of each list.
    const SINGLE_BYTE: [&str; 12] = [
        "ISO-8859-1",
        "windows-1252",
        "IBM037",
        "x-MacSymbol",
        "US-ASCII",
        "windows-1251",
        "IBM1047",
        "IBM437",
        "IBM864",
        "JIS_X0201",
        "x-MacRoman",
        "KOI8-U",
    ];
    // One of each form (the stateful ones also go through `stateful_switching`, every one of
    // them, and every multi-byte charset through `jdk_multi_byte_every_char`).
    const MULTI_BYTE: [&str; 8] = [
        "x-SJIS_0213",
        "GB18030",
        "ISO-2022-JP-2",
        "x-IBM939",
        "EUC-JP",
        "x-IBM834",
        "x-EUC-TW",
        "ISO-2022-KR",
    ];
    Charset::java_charsets()
        .filter(|&c| c.encoding().is_none() && is_unicode(c))
        .chain(
            SINGLE_BYTE[..ctx.scale(SINGLE_BYTE.len(), 4)]
                .iter()
                .chain(&MULTI_BYTE[..ctx.scale(MULTI_BYTE.len(), 4)])
                .filter_map(|name| Charset::for_java_name(name)),
        )
        .collect()
}

/// Every single-byte charset: the WHATWG ones, then the JDK's.
fn single_byte_charsets() -> Vec<Charset> {
    all()
        .into_iter()
        .filter(|e| e.is_single_byte())
        .map(Charset::from)
        .chain(
            Charset::java_charsets()
                .filter(|&c| !c.is_java() || !is_unicode(c))
                .filter(|c| c.encoding().is_none() && !is_multi_byte(*c)),
        )
        .collect()
}

/// Whether `charset` (of the JDK's, not of the Unicode family) writes more than one byte for
/// some char.
fn is_multi_byte(charset: Charset) -> bool {
    charset.max_encoded_len(1, Replacement::Jdk) > 1
}

/// The first 64 bytes of `text`, or fewer, to a char boundary: a case's label.
fn head(text: &str) -> &str {
    let mut n = text.len().min(64);
    while !text.is_char_boundary(n) {
        n -= 1;
    }
    &text[..n]
}

/// The JDK's multi-byte charsets, with GB18030's 2005 mapping after them.
fn multi_byte_charsets() -> Vec<Charset> {
    Charset::java_charsets()
        .filter(|&c| !is_unicode(c) && is_multi_byte(c))
        .chain(Charset::for_java_name("gb18030-2000"))
        .collect()
}

/// Every JDK multi-byte charset, every level, both replacements: every char of the BMP and
/// of plane 2 in a row (after zero to three ASCII bytes, so that every char sits at every
/// offset of the kernel's steps), every supplementary char in a row (every 7th with
/// --quick), as `&str` and as UTF-16, against the reference (a hash map of every char's bytes
/// from a walk over the charset's blocks).
fn jdk_multi_byte_every_char(ctx: &mut Ctx, levels: &[Level]) {
    let charsets = multi_byte_charsets();
    let step = ctx.scale(1, 7);
    let bmp: String = (0..=0xFFFFu32).filter_map(char::from_u32).collect();
    let plane2: String = (0x2_0000..=0x2_FFFFu32)
        .filter_map(char::from_u32)
        .collect();
    let supplementary: String = (0x1_0000..=0x10_FFFFu32)
        .step_by(step)
        .filter_map(char::from_u32)
        .collect();
    let shifts = ctx.scale(4, 2);
    let texts: Vec<String> = (0..shifts)
        .map(|shift| format!("{}{bmp}", ascii(shift)))
        .chain([plane2, supplementary])
        .collect();
    let planned = (charsets.len() * REPLACEMENTS.len() * texts.len() * (levels.len() + 1)) as u64;
    let mut check = ctx.check(
        "JDK multi-byte: every char in a row (BMP, plane 2, supplementary) = reference, every level, &str and UTF-16",
        planned,
    );
    for &charset in &charsets {
        for replacement in REPLACEMENTS {
            for text in &texts {
                let expected = (reference::encode(charset, text, replacement), true);
                for level in levels {
                    let label = format!("{} {charset} {replacement:?}", level.name());
                    let actual = shape(level.encode(charset, text, replacement));
                    check.case_in(&label, head(text), expected.clone(), actual);
                }
                let units: Vec<u16> = text.encode_utf16().collect();
                let actual = shape(charset.encode_from_utf16(&units, replacement));
                let label = format!("{charset} {replacement:?} UTF-16");
                check.case_in(&label, head(text), expected, actual);
            }
        }
    }
}

use crate::verify::{Check, Ctx, Hex, Java};
use wirebytes_testkit::Rng;
use wirebytes_testkit::text::{EDGE_CHARS, SCRIPTS, random_text, random_units};

const REPLACEMENTS: [Replacement; 2] = [Replacement::Jdk, Replacement::Whatwg];

/// Single chars that are awkward for some encoding: the edge chars, and a letter of each
/// script sample.
fn specials() -> Vec<String> {
    EDGE_CHARS
        .iter()
        .copied()
        .chain(
            SCRIPTS
                .iter()
                .filter_map(|(_, sample)| sample.chars().find(|c| !c.is_ascii())),
        )
        .map(String::from)
        .collect()
}

/// ASCII lengths around every vector width, the 64-byte block of the single-byte encoder and
/// the KiB of the AVX2 ASCII check.
const LENGTHS: &[usize] = &[
    0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 47, 48, 49, 62, 63, 64, 65, 66, 127, 128,
    129, 255, 256, 257, 1023, 1024, 1025, 2047, 2048, 3073,
];

fn ascii(len: usize) -> String {
    (0..len)
        .map(|i| char::from(b'a' + (i % 26) as u8))
        .collect()
}

/// The `&str` corpus.
fn str_corpus(ctx: &Ctx, rng: &mut Rng) -> Vec<String> {
    let mut corpus: Vec<String> = vec![String::new()];
    let specials = specials();
    corpus.extend(SCRIPTS.iter().map(|(_, sample)| sample.to_string()));
    corpus.extend(specials.iter().cloned());
    corpus.push(SCRIPTS.iter().map(|(_, sample)| *sample).collect());
    // Under --quick, every other length.
    for &len in LENGTHS.iter().step_by(ctx.scale(1, 2)) {
        let base = ascii(len);
        corpus.push(base.clone());
        let mut positions = vec![
            0,
            1,
            len / 2,
            len.saturating_sub(1),
            len,
            62,
            63,
            64,
            65,
            127,
            128,
        ];
        positions.retain(|&p| p <= len);
        positions.sort_unstable();
        positions.dedup();
        for special in &specials {
            for &at in &positions {
                let mut text = base.clone();
                text.insert_str(at, special);
                corpus.push(text);
            }
        }
    }
    // Runs of two-, three- and four-byte chars that start at every offset before and across
    // the 64-byte block boundary (and a second one).
    for run in [
        "Жизнь",
        "é",
        "€",
        "あい",
        "😀",
        "ÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿ",
        "Ω\u{F780}",
    ] {
        for offset in 0..=132 {
            corpus.push(format!(
                "{}{}{}",
                ascii(offset),
                run.repeat(3),
                ascii(offset % 7)
            ));
        }
    }
    for _ in 0..ctx.scale(3000, 300) {
        corpus.push(random_text(rng, 12));
    }
    corpus
}

/// The `&[u16]` corpus: the `&str` corpus as UTF-16, unpaired surrogates put in, raw soup.
fn units_corpus(ctx: &Ctx, rng: &mut Rng, texts: &[String]) -> Vec<Vec<u16>> {
    let mut corpus: Vec<Vec<u16>> = Vec::new();
    let lone: [u16; 6] = [0xD800, 0xDBFF, 0xD83D, 0xDC00, 0xDE00, 0xDFFF];
    for text in texts {
        let units: Vec<u16> = text.encode_utf16().collect();
        corpus.push(units.clone());
        if rng.one_in(3) {
            let mut broken = units;
            for _ in 0..1 + rng.below(3) {
                let at = rng.below(broken.len() + 1);
                broken.insert(at, *rng.pick(&lone));
            }
            corpus.push(broken);
        }
    }
    for &len in &LENGTHS[..20] {
        for &surrogate in &lone {
            for at in [0, len / 2, len] {
                let mut units: Vec<u16> = ascii(len).encode_utf16().collect();
                units.insert(at, surrogate);
                corpus.push(units);
            }
        }
    }
    corpus.push(vec![0xD83D, 0xD83D, 0xDE00, 0xDE00]);
    corpus.push(vec![0xDE00, 0xD83D]);
    for _ in 0..ctx.scale(2000, 200) {
        let len = rng.below(100);
        corpus.push(
            (0..len)
                .map(|_| match rng.below(4) {
                    0 => 0xD800 + rng.below(0x800) as u16,
                    1 => rng.below(0x80) as u16,
                    _ => rng.next_u64() as u16,
                })
                .collect(),
        );
    }
    corpus
}

fn is_utf16(encoding: &'static Encoding) -> bool {
    encoding == encoding_rs::UTF_16LE || encoding == encoding_rs::UTF_16BE
}

/// Bytes and whether the `Vec` is exact-size: what each case compares.
fn shape(bytes: Vec<u8>) -> (Vec<u8>, bool) {
    let exact = bytes.capacity() == bytes.len();
    (bytes, exact)
}

pub(crate) fn run(ctx: &mut Ctx) {
    let mut rng = Rng::new(0x00C4_A85E_7000);
    let texts = str_corpus(ctx, &mut rng);
    let units = units_corpus(ctx, &mut rng, &texts);
    // Every kernel level this CPU has, "portable" first: each one against the reference.
    let levels: Vec<Level> = levels::all().collect();
    let n_levels = levels.len() as u64;
    let pairs = (all().len() * REPLACEMENTS.len()) as u64 * n_levels;
    // "<level> <charset> <replacement>" for each level, as a case's label.
    let labels = |name: &str, replacement: Replacement| -> Vec<String> {
        levels
            .iter()
            .map(|level| format!("{} {name} {replacement:?}", level.name()))
            .collect()
    };

    {
        let mut check = ctx.check(
            "encode = reference, exact size (&str), every level",
            pairs * texts.len() as u64,
        );
        for &encoding in &all() {
            for replacement in REPLACEMENTS {
                let labels = labels(encoding.name(), replacement);
                for text in &texts {
                    let expected = (
                        reference::encode(Charset::from(encoding), text, replacement),
                        true,
                    );
                    for (level, label) in levels.iter().zip(&labels) {
                        check.case_in(
                            label,
                            text.as_str(),
                            expected.clone(),
                            shape(level.encode(Charset::from(encoding), text, replacement)),
                        );
                    }
                }
            }
        }
    }
    {
        let mut check = ctx.check(
            "encode_from_utf16 = reference, exact size (&[u16]), every level",
            pairs * units.len() as u64,
        );
        for &encoding in &all() {
            for replacement in REPLACEMENTS {
                let labels = labels(encoding.name(), replacement);
                for u in &units {
                    let expected = (
                        reference::encode_from_utf16(Charset::from(encoding), u, replacement),
                        true,
                    );
                    for (level, label) in levels.iter().zip(&labels) {
                        check.case_in(
                            label,
                            u.as_slice(),
                            expected.clone(),
                            shape(level.encode_from_utf16(Charset::from(encoding), u, replacement)),
                        );
                    }
                }
            }
        }
    }
    {
        let mut check = ctx.check(
            "encode_string = encode at the same level, exact size",
            pairs * texts.len() as u64,
        );
        for &encoding in &all() {
            for replacement in REPLACEMENTS {
                let labels = labels(encoding.name(), replacement);
                for text in &texts {
                    for (level, label) in levels.iter().zip(&labels) {
                        let expected = (
                            level.encode(Charset::from(encoding), text, replacement),
                            true,
                        );
                        let actual = shape(level.encode_string(
                            Charset::from(encoding),
                            text.clone(),
                            replacement,
                        ));
                        check.case_in(label, text.as_str(), expected, actual);
                    }
                }
            }
        }
    }
    {
        // Where the crate promises WHATWG bytes: every encoding but UTF-16LE/BE (written as
        // UTF-16 here, as UTF-8 by `Encoding::encode`).
        let planned = 38 * (texts.len() + units.len()) as u64 * n_levels;
        let mut check = ctx.check(
            "Whatwg = Encoding::encode (38 encodings, &str and &[u16]), every level",
            planned,
        );
        for &encoding in all().iter().filter(|e| !is_utf16(e)) {
            let labels = labels(encoding.name(), Replacement::Whatwg);
            for text in &texts {
                let (web, _, _) = encoding.encode(text);
                for (level, label) in levels.iter().zip(&labels) {
                    check.case_in(
                        label,
                        text.as_str(),
                        &web[..],
                        &level.encode(Charset::from(encoding), text, Replacement::Whatwg)[..],
                    );
                }
            }
            for u in &units {
                let lossy = String::from_utf16_lossy(u);
                let (web, _, _) = encoding.encode(&lossy);
                for (level, label) in levels.iter().zip(&labels) {
                    check.case_in(
                        label,
                        u.as_slice(),
                        &web[..],
                        &level.encode_from_utf16(Charset::from(encoding), u, Replacement::Whatwg)[..],
                    );
                }
            }
        }
    }
    {
        let mut check = ctx.check(
            "try_encode: Ok = encode at the same level, Err = first unmappable",
            all().len() as u64 * texts.len() as u64 * n_levels,
        );
        for &encoding in &all() {
            for text in &texts {
                for level in &levels {
                    match level.try_encode(Charset::from(encoding), text) {
                        Ok(bytes) => {
                            // Nothing unmappable: both replacements write the same bytes.
                            let jdk = level.encode(Charset::from(encoding), text, Replacement::Jdk);
                            let web =
                                level.encode(Charset::from(encoding), text, Replacement::Whatwg);
                            let exact = bytes.capacity() == bytes.len();
                            check.case_in(
                                &format!("{} {}", level.name(), encoding.name()),
                                text.as_str(),
                                (jdk, true),
                                (bytes.clone(), exact && bytes == web),
                            );
                        }
                        Err(err) => {
                            let at = err.offset();
                            let ok = text.is_char_boundary(at)
                                && text[at..].starts_with(err.ch())
                                && !encoding.encode(&text[..at]).2
                                && encoding.encode(&text[at..at + err.ch().len_utf8()]).2;
                            if ok {
                                check.pass();
                            } else {
                                check.fail(
                                    text.as_str(),
                                    format!(
                                        "{} {}: {err} is not the first unmappable char",
                                        level.name(),
                                        encoding.name()
                                    ),
                                );
                            }
                        }
                    }
                }
            }
        }
    }
    {
        // Every UTF-16 code unit alone, and after a lead char, through every single-byte
        // charset: the fast paths (every level) against the reference (which looks each char
        // up in encoding_rs's decoder or in the JDK's data directly).
        let step = ctx.scale(1, 7);
        let singles = single_byte_charsets();
        // Per encoding, replacement and level: two `&[u16]` inputs per unit, two `&str` ones
        // per unit that is a char, eight rows.
        let units = (0..=0xFFFFu32).step_by(step);
        let chars = units
            .clone()
            .filter(|&c| char::from_u32(c).is_some())
            .count();
        let planned = (singles.len() * 2 * (2 * units.count() + 2 * chars + 8)) as u64 * n_levels;
        let mut check = ctx.check(
            "single-byte (WHATWG and JDK): every u16 and char alone, after é, all in a row, every level",
            planned,
        );
        for &charset in &singles {
            for replacement in REPLACEMENTS {
                let labels = labels(charset.name(), replacement);
                for u in (0..=0xFFFFu16).step_by(step) {
                    for input in [&[u][..], &[0xE9, u, 0x41][..]] {
                        let expected = (
                            reference::encode_from_utf16(charset, input, replacement),
                            true,
                        );
                        for (level, label) in levels.iter().zip(&labels) {
                            check.case_in(
                                label,
                                input,
                                expected.clone(),
                                shape(level.encode_from_utf16(charset, input, replacement)),
                            );
                        }
                    }
                    // The same as `&str` (the block encoder sees "éXA" with a two-byte X).
                    if let Some(c) = char::from_u32(u32::from(u)) {
                        for text in [c.to_string(), format!("é{c}A")] {
                            let expected = (reference::encode(charset, &text, replacement), true);
                            for (level, label) in levels.iter().zip(&labels) {
                                let actual = shape(level.encode(charset, &text, replacement));
                                check.case_in(label, text.as_str(), expected.clone(), actual);
                            }
                        }
                    }
                }
                // Every BMP char in a row, after zero to seven ASCII bytes, so that every char
                // sits at every offset of the 64-byte blocks.
                let all: String = (0..=0xFFFFu32)
                    .step_by(step)
                    .filter_map(char::from_u32)
                    .collect();
                for shift in 0..8 {
                    let text = format!("{}{all}", ascii(shift));
                    let expected = (reference::encode(charset, &text, replacement), true);
                    for (level, label) in levels.iter().zip(&labels) {
                        let actual = shape(level.encode(charset, &text, replacement));
                        check.case_in(label, text.as_str(), expected.clone(), actual);
                    }
                }
            }
        }
    }
    cjk_every_char(ctx);
    jdk_multi_byte_every_char(ctx, &levels);
    jdk_only(ctx, &levels, &texts, &units);
    buffers(ctx, &levels, &texts, &units);
    encoder_splits(ctx, &mut rng, &texts, &units);
    stateful_switching(ctx, &mut rng, &levels);
    java_name_table(ctx);
    jdk_tables(ctx);
    jdk_parity(ctx, &mut rng, &texts, &units);
}

/// The CJK encodings, whose stateless members encode through tables built from encoding_rs:
/// every char (every BMP char, every supplementary char; under --quick every 7th
/// supplementary one) alone, with both replacements, against `Encoding::encode` (WHATWG) and
/// the reference (JDK), and all BMP chars in a row.
fn cjk_every_char(ctx: &mut Ctx) {
    let cjk = [
        encoding_rs::SHIFT_JIS,
        encoding_rs::EUC_JP,
        encoding_rs::ISO_2022_JP,
        encoding_rs::EUC_KR,
        encoding_rs::BIG5,
        encoding_rs::GBK,
        encoding_rs::GB18030,
    ];
    let step = ctx.scale(1, 7);
    let chars: Vec<char> = (0..0x1_0000u32)
        .chain((0x1_0000..=0x10_FFFF).step_by(step))
        .filter_map(char::from_u32)
        .collect();
    let mut check = ctx.check(
        "CJK: every char alone = Encoding::encode (Whatwg) and reference (Jdk); all BMP in a row",
        (cjk.len() * (2 * chars.len() + 2)) as u64,
    );
    for encoding in cjk {
        let name = encoding.name();
        let mut buf = [0u8; 4];
        for &c in &chars {
            let one: &str = c.encode_utf8(&mut buf);
            let (web, _, _) = encoding.encode(one);
            let ours = Charset::from(encoding).encode(one, Replacement::Whatwg);
            check.case_in(name, one, &web[..], &ours[..]);
            let jdk = reference::encode(Charset::from(encoding), one, Replacement::Jdk);
            let ours = Charset::from(encoding).encode(one, Replacement::Jdk);
            check.case_in(name, one, jdk, ours);
        }
        let bmp: String = chars
            .iter()
            .take_while(|&&c| u32::from(c) < 0x1_0000)
            .collect();
        let (web, _, _) = encoding.encode(&bmp);
        let ours = Charset::from(encoding).encode(&bmp, Replacement::Whatwg);
        check.case_in(name, "every BMP char", &web[..], &ours[..]);
        let jdk = reference::encode(Charset::from(encoding), &bmp, Replacement::Jdk);
        let ours = Charset::from(encoding).encode(&bmp, Replacement::Jdk);
        check.case_in(name, "every BMP char", jdk, ours);
    }
}

/// The charsets of the engine-wide checks: the 40 encodings of encoding_rs, then the JDK's
/// sample.
fn charsets(ctx: &Ctx) -> Vec<Charset> {
    all()
        .iter()
        .map(|&e| Charset::from(e))
        .chain(jdk_sample(ctx))
        .collect()
}

/// The JDK-only charsets against the reference: `encode` and `try_encode` (`&str`) at every
/// level, `encode_from_utf16` and `try_encode_from_utf16` (`&[u16]`).
fn jdk_only(ctx: &mut Ctx, levels: &[Level], texts: &[String], units: &[Vec<u16>]) {
    let sample = jdk_sample(ctx);
    let planned = (sample.len() * REPLACEMENTS.len()) as u64
        * (texts.len() as u64 * levels.len() as u64 + units.len() as u64)
        + (sample.len() * (texts.len() + units.len())) as u64;
    let mut check = ctx.check(
        "JDK charsets (a sample of every shape): encode = reference, exact size, every level; try_encode",
        planned,
    );
    for charset in sample {
        for replacement in REPLACEMENTS {
            for text in texts {
                let expected = (reference::encode(charset, text, replacement), true);
                for level in levels {
                    let label = format!("{} {charset} {replacement:?}", level.name());
                    let actual = shape(level.encode(charset, text, replacement));
                    check.case_in(&label, text.as_str(), expected.clone(), actual);
                }
            }
            for u in units {
                let expected = (reference::encode_from_utf16(charset, u, replacement), true);
                let actual = shape(charset.encode_from_utf16(u, replacement));
                let label = format!("{charset} {replacement:?}");
                check.case_in(&label, u.as_slice(), expected, actual);
            }
        }
        // try_encode: Ok is the bytes of both replacements; Err is the first char the
        // reference replaces.
        for text in texts {
            let jdk = reference::encode(charset, text, Replacement::Jdk);
            let web = reference::encode(charset, text, Replacement::Whatwg);
            let first_bad = text.char_indices().find(|&(_, c)| {
                let one = c.to_string();
                reference::encode(charset, &one, Replacement::Jdk)
                    != reference::encode(charset, &one, Replacement::Whatwg)
            });
            let expected = match first_bad {
                None => Ok(jdk.clone()),
                Some((at, c)) => Err((at, c)),
            };
            let actual = charset
                .try_encode(text)
                .map_err(|err| (err.offset(), err.ch()));
            let consistent = expected.is_err() || jdk == web;
            check.case_in(
                &charset.to_string(),
                text.as_str(),
                (expected, true),
                (actual, consistent),
            );
        }
        for u in units {
            let jdk = reference::encode_from_utf16(charset, u, Replacement::Jdk);
            let first_bad = first_unencodable(u, charset);
            let expected = match first_bad {
                None => Ok(jdk),
                Some(at) => Err(at),
            };
            let actual = charset.try_encode_from_utf16(u).map_err(|err| err.offset());
            check.case_in(&charset.to_string(), u.as_slice(), expected, actual);
        }
    }
}

/// The index of the first unpaired surrogate, or of the first char whose two replacements
/// differ in the reference (a char the charset cannot encode), in `units`.
fn first_unencodable(units: &[u16], charset: Charset) -> Option<usize> {
    let mut at = 0;
    for item in char::decode_utf16(units.iter().copied()) {
        match item {
            Err(_) => return Some(at),
            Ok(c) => {
                let one = c.to_string();
                if reference::encode(charset, &one, Replacement::Jdk)
                    != reference::encode(charset, &one, Replacement::Whatwg)
                {
                    return Some(at);
                }
                at += c.len_utf16();
            }
        }
    }
    None
}

/// `encoded_len`, `encode_to_vec` (after bytes already in the `Vec`) and `encode_to_slice`
/// (into exactly the room it needs, into one byte less, into `max_encoded_len`) against
/// `encode`, for every charset, replacement and level; the same forms for UTF-16 input.
fn buffers(ctx: &mut Ctx, levels: &[Level], texts: &[String], units: &[Vec<u16>]) {
    let charsets = charsets(ctx);
    // With --quick, `encode_to_slice` at the level the public functions use only (the unit
    // tests try it at every level).
    let slice_levels = if ctx.quick() { 1 } else { levels.len() };
    // The UTF-16 forms have no kernel: with --quick, every fourth input.
    let units_every = ctx.scale(1, 4);
    let planned = (charsets.len() * REPLACEMENTS.len())
        * (texts.len() * (levels.len() * 2 + slice_levels * 2 + 1)
            + units.len().div_ceil(units_every) * 5);
    let mut check = ctx.check(
        "encoded_len, encode_to_vec, encode_to_slice (exact, short; max) = encode, every charset and level",
        planned as u64,
    );
    /// `Some(n)` and the bytes, or `None`.
    fn slice(room: usize, f: impl FnOnce(&mut [u8]) -> Option<usize>) -> Option<Vec<u8>> {
        let mut dst = vec![0u8; room];
        let n = f(&mut dst)?;
        dst.truncate(n);
        Some(dst)
    }
    for &charset in &charsets {
        for replacement in REPLACEMENTS {
            for text in texts {
                let expected = reference::encode(charset, text, replacement);
                let max = charset.max_encoded_len(text.len(), replacement);
                let into_max = slice(max, |dst| charset.encode_to_slice(text, replacement, dst));
                check.case_in(
                    &charset.to_string(),
                    text.as_str(),
                    Some(&expected),
                    into_max.as_ref(),
                );
                for (k, level) in levels.iter().enumerate() {
                    let label = format!("{} {charset} {replacement:?}", level.name());
                    let len = level.encoded_len(charset, text, replacement);
                    check.case_in(&label, text.as_str(), expected.len(), len);
                    let mut out = b"head".to_vec();
                    level.encode_to_vec(charset, text, replacement, &mut out);
                    let mut want = b"head".to_vec();
                    want.extend_from_slice(&expected);
                    check.case_in(&label, text.as_str(), want, out);
                    if levels.len() - k > slice_levels {
                        continue;
                    }
                    let to_slice = |room| {
                        slice(room, |dst| {
                            level.encode_to_slice(charset, text, replacement, dst)
                        })
                    };
                    let want = Some(expected.clone());
                    check.case_in(&label, text.as_str(), &want, &to_slice(expected.len()));
                    let short = expected.len().checked_sub(1).map(to_slice);
                    check.case_in(&label, text.as_str(), None, short.flatten());
                }
            }
            for u in units.iter().step_by(units_every) {
                let label = format!("{charset} {replacement:?}");
                let expected = reference::encode_from_utf16(charset, u, replacement);
                let len = charset.encoded_len_from_utf16(u, replacement);
                check.case_in(&label, u.as_slice(), expected.len(), len);
                let mut out = b"head".to_vec();
                charset.encode_from_utf16_to_vec(u, replacement, &mut out);
                let mut want = b"head".to_vec();
                want.extend_from_slice(&expected);
                check.case_in(&label, u.as_slice(), want, out);
                let to_slice = |room| {
                    slice(room, |dst| {
                        charset.encode_from_utf16_to_slice(u, replacement, dst)
                    })
                };
                let max = charset.max_encoded_len_from_utf16(u.len(), replacement);
                let want = Some(expected.clone());
                check.case_in(&label, u.as_slice(), &want, &to_slice(expected.len()));
                check.case_in(&label, u.as_slice(), &want, &to_slice(max));
                let short = expected.len().checked_sub(1).map(to_slice);
                check.case_in(&label, u.as_slice(), None, short.flatten());
            }
        }
    }
}

/// Where to split an input of `len` pieces: every position when `len <= every`, else
/// `random` sorted positions (two or three chunks, an empty one now and then).
fn splits(rng: &mut Rng, len: usize, every: usize, random: usize) -> Vec<Vec<usize>> {
    if len <= every {
        return (0..=len).map(|at| vec![at]).collect();
    }
    (0..random)
        .map(|_| {
            let mut cuts: Vec<usize> = (0..1 + rng.below(2)).map(|_| rng.below(len + 1)).collect();
            cuts.sort_unstable();
            cuts
        })
        .collect()
}

/// The streaming `Encoder` over splits of every input, for every charset and replacement:
/// the chunks' output put together = `encode` (`encode_from_utf16`) of the whole.
fn encoder_splits(ctx: &mut Ctx, rng: &mut Rng, texts: &[String], units: &[Vec<u16>]) {
    let every = ctx.scale(32, 16);
    let random = ctx.scale(8, 3);
    let charsets = charsets(ctx);
    let text_splits: Vec<(Vec<usize>, Vec<Vec<usize>>)> = texts
        .iter()
        .map(|text| {
            let bounds: Vec<usize> = (0..=text.len())
                .filter(|&i| text.is_char_boundary(i))
                .collect();
            let cuts = splits(rng, bounds.len() - 1, every, random);
            (bounds, cuts)
        })
        .collect();
    let unit_splits: Vec<Vec<Vec<usize>>> = units
        .iter()
        .map(|u| splits(rng, u.len(), every, random))
        .collect();
    let per_charset = text_splits.iter().map(|(_, c)| c.len()).sum::<usize>()
        + unit_splits.iter().map(Vec::len).sum::<usize>();
    // Every `sliced`-th split (counted over all inputs) also goes into slices, of 5, 13 and
    // 29 bytes in turn.
    let sliced = ctx.scale(8, 32);
    let mut splits_seen = 0usize;
    let planned = (charsets.len() * REPLACEMENTS.len() * per_charset) as u64;
    let mut check = ctx.check(
        "Encoder: chunks at every position (short inputs) or random ones = encode, every charset, into a Vec and into 5- to 29-byte slices",
        planned + planned / sliced as u64,
    );
    let room = |n: usize| [5, 13, 29][n / sliced % 3];
    for &charset in &charsets {
        for replacement in REPLACEMENTS {
            let label = format!("{charset} {replacement:?}");
            for (text, (bounds, cuts)) in texts.iter().zip(&text_splits) {
                let expected = reference::encode(charset, text, replacement);
                for cut in cuts {
                    let chunks: Vec<&str> = std::iter::once(0)
                        .chain(cut.iter().map(|&at| bounds[at]))
                        .zip(cut.iter().map(|&at| bounds[at]).chain([text.len()]))
                        .map(|(from, to)| &text[from..to])
                        .collect();
                    let mut encoder = charset.new_encoder(replacement);
                    let mut out = Vec::new();
                    for (k, chunk) in chunks.iter().enumerate() {
                        encoder.encode_to_vec(chunk, k + 1 == chunks.len(), &mut out);
                    }
                    let label = format!("{label} cuts {cut:?}");
                    check.case_in(&label, text.as_str(), &expected, &out);
                    splits_seen += 1;
                    if splits_seen.is_multiple_of(sliced) {
                        let out = drive(
                            &mut encoder,
                            &chunks,
                            room(splits_seen),
                            |e, chunk, dst, last| e.encode_to_slice(chunk, dst, last),
                        );
                        check.case_in(&label, text.as_str(), &expected, &out);
                    }
                }
            }
            for (u, cuts) in units.iter().zip(&unit_splits) {
                let expected = reference::encode_from_utf16(charset, u, replacement);
                for cut in cuts {
                    let chunks: Vec<&[u16]> = std::iter::once(0)
                        .chain(cut.iter().copied())
                        .zip(cut.iter().copied().chain([u.len()]))
                        .map(|(from, to)| &u[from..to])
                        .collect();
                    let mut encoder = charset.new_encoder(replacement);
                    let mut out = Vec::new();
                    for (k, chunk) in chunks.iter().enumerate() {
                        encoder.encode_from_utf16_to_vec(chunk, k + 1 == chunks.len(), &mut out);
                    }
                    let label = format!("{label} cuts {cut:?}");
                    check.case_in(&label, u.as_slice(), &expected, &out);
                    splits_seen += 1;
                    if splits_seen.is_multiple_of(sliced) {
                        let out = drive(
                            &mut encoder,
                            &chunks,
                            room(splits_seen),
                            |e, chunk, dst, last| e.encode_from_utf16_to_slice(chunk, dst, last),
                        );
                        check.case_in(&label, u.as_slice(), &expected, &out);
                    }
                }
            }
        }
    }
}

/// UTF-16 units to draw random text for a stateful charset from: chars of every set of the
/// ISO-2022-JP family (ASCII, JIS X 0201 Roman and katakana, JIS X 0208, JIS X 0212, the
/// Windows extensions), of ISO-2022-KR/CN (KS X 1001, GB 2312, CNS 11643 planes 1-3), of the
/// EBCDIC DBCS pages, line ends, ESC, SO and SI as chars, U+FF1F (the JDK's replacement in
/// ISO-2022-JP), chars none of them writes, both halves of a pair and a lone surrogate.
const STATEFUL_POOL: [u16; 27] = [
    0x61, 0x0A, 0x0D, 0x1B, 0x0E, 0x0F, 0xA5, 0x203E, 0xFF71, 0xFF72, 0x3042, 0x65E5, 0xE9, 0x4E02,
    0x2460, 0xFF1F, 0xAC00, 0x4E2D, 0x4E42, 0x3421, 0x3000, 0x20AC, 0x0E01, 0xD83D, 0xDE00, 0xD800,
    0x7E,
];

/// Whether `charset` is stateful: its bytes for a char depend on the chars before it (what
/// the end of a text may add shows in the worst case of an empty text).
fn is_stateful(charset: Charset) -> bool {
    !is_unicode(charset) && charset.max_encoded_len(0, Replacement::Jdk) > 0
}

/// Random text of the stateful charsets' sets: `encode` and `encode_from_utf16` at every
/// level, `encoded_len`, and the `Encoder` with the text cut at every position (and fed a
/// char or unit at a time) = the reference, for every stateful charset (the JDK's and
/// WHATWG's ISO-2022-JP) and both replacements.
fn stateful_switching(ctx: &mut Ctx, rng: &mut Rng, levels: &[Level]) {
    let charsets: Vec<Charset> = Charset::java_charsets()
        .chain(all().into_iter().map(Charset::from))
        .filter(|&c| is_stateful(c))
        .collect();
    let texts = ctx.scale(400, 60);
    let per_text = 2 * levels.len() + 2 * 18;
    let mut check = ctx.check(
        &format!(
            "stateful charsets ({}): random switching text = reference at every level, encoded_len, the Encoder cut at every position",
            charsets.len()
        ),
        (charsets.len() * REPLACEMENTS.len() * texts * per_text) as u64,
    );
    for &charset in &charsets {
        for replacement in REPLACEMENTS {
            let label = format!("{charset} {replacement:?}");
            for _ in 0..texts {
                let len = rng.below(16);
                let units: Vec<u16> = (0..len).map(|_| *rng.pick(&STATEFUL_POOL)).collect();
                let text = String::from_utf16_lossy(&units);
                let expected = reference::encode(charset, &text, replacement);
                let expected_units = reference::encode_from_utf16(charset, &units, replacement);
                for level in levels {
                    let label = format!("{label} {}", level.name());
                    check.case_in(
                        &label,
                        text.as_str(),
                        &expected,
                        &level.encode(charset, &text, replacement),
                    );
                    check.case_in(
                        &label,
                        units.as_slice(),
                        &expected_units,
                        &level.encode_from_utf16(charset, &units, replacement),
                    );
                }
                check.case_in(
                    &label,
                    text.as_str(),
                    expected.len(),
                    charset.encoded_len(&text, replacement),
                );
                // The text cut in two at every char boundary, and fed a char at a time.
                let bounds: Vec<usize> = (0..=text.len())
                    .filter(|&i| text.is_char_boundary(i))
                    .collect();
                for &at in &bounds {
                    let mut encoder = charset.new_encoder(replacement);
                    let mut out = Vec::new();
                    encoder.encode_to_vec(&text[..at], false, &mut out);
                    encoder.encode_to_vec(&text[at..], true, &mut out);
                    check.case_in(
                        &format!("{label} cut at {at}"),
                        text.as_str(),
                        &expected,
                        &out,
                    );
                }
                let mut encoder = charset.new_encoder(replacement);
                let mut out = Vec::new();
                for pair in bounds.windows(2) {
                    encoder.encode_to_vec(&text[pair[0]..pair[1]], false, &mut out);
                }
                encoder.encode_to_vec("", true, &mut out);
                check.case_in(
                    &format!("{label} a char at a time"),
                    text.as_str(),
                    &expected,
                    &out,
                );
                for at in 0..=units.len() {
                    let mut encoder = charset.new_encoder(replacement);
                    let mut out = Vec::new();
                    encoder.encode_from_utf16_to_vec(&units[..at], false, &mut out);
                    encoder.encode_from_utf16_to_vec(&units[at..], true, &mut out);
                    check.case_in(
                        &format!("{label} cut at {at}"),
                        units.as_slice(),
                        &expected_units,
                        &out,
                    );
                }
                let mut encoder = charset.new_encoder(replacement);
                let mut out = Vec::new();
                for unit in &units {
                    encoder.encode_from_utf16_to_vec(std::slice::from_ref(unit), false, &mut out);
                }
                encoder.encode_from_utf16_to_vec(&[], true, &mut out);
                check.case_in(
                    &format!("{label} a unit at a time"),
                    units.as_slice(),
                    &expected_units,
                    &out,
                );
            }
        }
    }
}

/// `chunks` through `encoder` into slices of `room` bytes, as encoding_rs's callers drive it: after
/// `OutputFull`, the rest of the chunk again into a new slice. Stops (with what it has) if a
/// call makes no progress.
fn drive<T>(
    encoder: &mut Encoder,
    chunks: &[&T],
    room: usize,
    mut to_slice: impl FnMut(&mut Encoder, &T, &mut [u8], bool) -> (CoderResult, usize, usize, bool),
) -> Vec<u8>
where
    T: ?Sized + std::ops::Index<std::ops::RangeFrom<usize>, Output = T>,
{
    let mut out = Vec::new();
    let mut dst = vec![0u8; room];
    for (k, &chunk) in chunks.iter().enumerate() {
        let mut rest = chunk;
        for _ in 0..1_000_000 {
            let (result, read, written, _) =
                to_slice(encoder, rest, &mut dst, k + 1 == chunks.len());
            out.extend_from_slice(&dst[..written.min(dst.len())]);
            rest = &rest[read..];
            if result == CoderResult::InputEmpty {
                break;
            }
        }
    }
    out
}

/// `Charset::for_java_name` against the JDK's `Charset.availableCharsets()` and `aliases()`:
/// every name of a JDK charset the table has resolves to it; every other JDK name resolves to
/// nothing; the table lists exactly the JDK's canonical name and aliases.
fn java_name_table(ctx: &mut Ctx) {
    const CHECK: &str = "Charset::for_java_name = the JDK's Charset.forName and aliases()";
    let Some(java) = ctx.java() else {
        ctx.skip(CHECK, "java not on PATH");
        return;
    };
    let output = java.run("CharsetNames.java", &[], &[]);
    let table: Vec<_> = java_names().collect();
    let output = match output.map(String::from_utf8) {
        Ok(Ok(text)) => text,
        Ok(Err(err)) => {
            ctx.check(CHECK, 1)
                .fail("", format!("java wrote no UTF-8: {err}"));
            return;
        }
        Err(err) => {
            ctx.check(CHECK, 1).fail("", format!("java failed: {err}"));
            return;
        }
    };
    let jdk: Vec<(&str, Vec<&str>)> = output
        .lines()
        .filter_map(|line| {
            let (name, aliases) = line.split_once('\t')?;
            let aliases = aliases.split(',').filter(|a| !a.is_empty()).collect();
            Some((name, aliases))
        })
        .collect();
    let names = jdk.iter().map(|(_, a)| 1 + a.len()).sum::<usize>();
    let canonical = table
        .iter()
        .enumerate()
        .filter(|(index, (_, name, _))| !table[..*index].iter().any(|(_, n, _)| n == name))
        .count();
    let mut check = ctx.check(CHECK, (names + canonical) as u64);
    for (canonical, aliases) in &jdk {
        let ours = table.iter().find(|(_, name, _)| name == canonical);
        for name in std::iter::once(canonical).chain(aliases) {
            check.case_in(
                canonical,
                *name,
                ours.and_then(|(charset, _, _)| *charset),
                Charset::for_java_name(name),
            );
        }
    }
    // The table's GB18030 with the 2005 mapping (what the JDK gives under
    // `-Djdk.charset.GB18030=2000`) comes after the default one and has its own alias: the
    // first entry of each name is the JDK's charset.
    for (index, (charset, canonical, aliases)) in table.iter().enumerate() {
        if table[..index].iter().any(|(_, name, _)| name == canonical) {
            continue;
        }
        let theirs = jdk.iter().find(|(name, _)| name == canonical);
        let mut ours: Vec<&str> = aliases.to_vec();
        ours.sort_unstable();
        let theirs = theirs.map(|(_, a)| {
            let mut a = a.clone();
            a.sort_unstable();
            a
        });
        check.case_in(&format!("{charset:?}"), *canonical, theirs, Some(ours));
    }
}

/// The committed JDK tables against a fresh dump of the running JDK: the same data (the
/// JDK's version, named in the file's header, may differ).
fn jdk_tables(ctx: &mut Ctx) {
    const CHECK: &str = "the committed JDK tables (src/jdk/generated.rs, multi_byte.bin) = a fresh dump of the running JDK";
    let Some(java) = ctx.java() else {
        ctx.skip(CHECK, "java not on PATH");
        return;
    };
    let path = crate::jdk_tables::generated_path(ctx.root());
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    let blob_path = crate::jdk_tables::blob_path(ctx.root());
    let committed_blob = std::fs::read(&blob_path).unwrap_or_default();
    let mut check = ctx.check(CHECK, 1);
    /// The file without the lines that name the JDK's version.
    fn data(source: &str) -> Vec<&str> {
        source
            .lines()
            .filter(|line| {
                !line.contains("cargo xtask jdk-tables` from") && !line.contains("JDK_VERSION")
            })
            .collect()
    }
    match crate::jdk_tables::generate(&java) {
        Ok((fresh, blob)) if data(&fresh) == data(&committed) && blob == committed_blob => {
            check.pass()
        }
        Ok((fresh, blob)) if data(&fresh) == data(&committed) => {
            let first = blob
                .iter()
                .zip(&committed_blob)
                .position(|(a, b)| a != b)
                .unwrap_or(blob.len().min(committed_blob.len()));
            check.fail(
                "",
                format!(
                    "the JDK's multi-byte blocks differ from {} (run `cargo xtask jdk-tables`): from byte {first} ({} bytes in the file, {} in the JDK's)",
                    blob_path.display(),
                    committed_blob.len(),
                    blob.len()
                ),
            );
        }
        Ok((fresh, _)) => {
            let (fresh, committed) = (data(&fresh), data(&committed));
            let first = fresh
                .iter()
                .zip(&committed)
                .position(|(a, b)| a != b)
                .unwrap_or(fresh.len().min(committed.len()));
            check.fail(
                "",
                format!(
                    "the JDK's data differs from {} (run `cargo xtask jdk-tables`): line {} is {:?} in the file, {:?} in the JDK's",
                    path.display(),
                    first + 1,
                    committed.get(first).copied().unwrap_or(""),
                    fresh.get(first).copied().unwrap_or("")
                ),
            );
        }
        Err(err) => check.fail("", format!("the dump failed: {err}")),
    }
}

/// One record for `CharsetEncode.java`.
fn record(stdin: &mut Vec<u8>, charset: Charset, units: &[u16]) {
    let name = charset.name().as_bytes();
    stdin.extend_from_slice(&(name.len() as u16).to_be_bytes());
    stdin.extend_from_slice(name);
    stdin.extend_from_slice(&(units.len() as u32).to_be_bytes());
    for unit in units {
        stdin.extend_from_slice(&unit.to_be_bytes());
    }
}

fn jdk_parity(ctx: &mut Ctx, rng: &mut Rng, texts: &[String], units: &[Vec<u16>]) {
    if ctx.java().is_none() {
        ctx.skip("Jdk = the JDK's String.getBytes", "java not on PATH");
        return;
    }
    // Every charset of the JDK's this crate writes: every BMP char in one string (in a
    // stateless charset each alone; a stateful one switches sets all along), every
    // supplementary code point in one (every 16th with --quick), every
    // surrogate alone (each followed by `a`), empty input, the corpus (every 2nd text; every
    // 8th with --quick) and random UTF-16 of lone surrogates, pairs and any unit.
    let bmp: Vec<u16> = (0..=0xFFFFu32)
        .filter_map(char::from_u32)
        .map(|c| c as u16)
        .collect();
    let supplementary: Vec<u16> = (0x1_0000..=0x10_FFFFu32)
        .step_by(ctx.scale(1, 16))
        .filter_map(char::from_u32)
        .flat_map(|c| {
            let mut buf = [0u16; 2];
            c.encode_utf16(&mut buf);
            buf
        })
        .collect();
    let lone: Vec<u16> = (0xD800..=0xDFFFu16).flat_map(|u| [u, 0x61]).collect();
    let every = ctx.scale(2, 8);
    let java_charsets: Vec<Charset> = Charset::java_charsets()
        .chain(Charset::for_java_name("gb18030-2000"))
        .collect();
    let gb18030_2000 = Charset::for_java_name("gb18030-2000");
    let (random, pooled, bmp_step) = (ctx.scale(300, 30), ctx.scale(3000, 300), ctx.scale(4, 64));
    // The cases of one charset.
    let mut cases_of = |charset: Charset| -> Vec<(Charset, Vec<u16>)> {
        let mut cases: Vec<(Charset, Vec<u16>)> = vec![
            (charset, bmp.clone()),
            (charset, supplementary.clone()),
            (charset, lone.clone()),
            (charset, Vec::new()),
        ];
        for text in texts.iter().step_by(every) {
            cases.push((charset, text.encode_utf16().collect()));
        }
        for u in units.iter().step_by(every) {
            cases.push((charset, u.clone()));
        }
        for _ in 0..random {
            cases.push((charset, random_units(rng, 40)));
        }
        // The charsets with pairs written together: random text of their pairs' chars,
        // other chars they map, chars they do not, and lone surrogates.
        if let Some(pool) = pair_pool(charset) {
            for _ in 0..pooled {
                let len = rng.below(12);
                cases.push((charset, (0..len).map(|_| *rng.pick(&pool)).collect()));
            }
        }
        // The stateful charsets: every 4th BMP char and every 1024th supplementary code
        // point alone (every 64th BMP char with --quick; in one string a char's bytes depend
        // on the chars before; the JDK makes a new encoder for each, which is slow for
        // these), and random text that switches between their sets many times.
        if is_stateful(charset) {
            for c in (0..=0x10_FFFFu32).step_by(bmp_step) {
                if c >= 0x1_0000 && c % 1024 != 0 {
                    continue;
                }
                if let Some(c) = char::from_u32(c) {
                    let mut buf = [0u16; 2];
                    cases.push((charset, c.encode_utf16(&mut buf).to_vec()));
                }
            }
            for _ in 0..pooled {
                let len = rng.below(24);
                cases.push((
                    charset,
                    (0..len).map(|_| *rng.pick(&STATEFUL_POOL)).collect(),
                ));
            }
        }
        cases
    };
    // A dozen charsets to a JVM run: the cases of all of them at once are gigabytes.
    let mut ours: Vec<(Charset, Vec<u16>)> = Vec::new();
    let mut gb18030_2000_cases = Vec::new();
    let name = format!(
        "Jdk = the JDK's String.getBytes (every one of the JDK's charsets written: {})",
        java_charsets.len()
    );
    let Some(java) = ctx.java() else {
        return;
    };
    {
        let mut check = ctx.check(&name, 0);
        for group in java_charsets.chunks(12) {
            for &charset in group {
                let cases = cases_of(charset);
                if Some(charset) == gb18030_2000 {
                    gb18030_2000_cases = cases;
                } else {
                    ours.extend(cases);
                }
            }
            compare_batch(&mut check, &java, &[], &ours);
            ours.clear();
        }
    }
    compare_with_jvm(
        ctx,
        &["-Djdk.charset.GB18030=2000"],
        "Jdk = the JDK's String.getBytes, GB18030 with -Djdk.charset.GB18030=2000",
        &gb18030_2000_cases,
    );

    // The CJK encodings' tables differ from the JDK's in many places, but their replacement
    // (`?`; U+FF1F in ISO-2022-JP; the JDK's raw `21 29` for an unpaired surrogate there) can
    // be compared on text made of chars both map, plus chars neither maps and lone surrogates.
    let mut cases: Vec<(Charset, Vec<u16>)> = Vec::new();
    for (encoding, pool) in CJK_POOLS {
        let pool: Vec<char> = pool.chars().collect();
        for _ in 0..ctx.scale(1500, 200) {
            let len = rng.below(40);
            let mut u: Vec<u16> = Vec::new();
            for _ in 0..len {
                if rng.one_in(12) {
                    u.push(0xD800 + rng.below(0x800) as u16);
                } else {
                    let mut buf = [0u16; 2];
                    u.extend_from_slice(rng.pick(&pool).encode_utf16(&mut buf));
                }
            }
            cases.push((encoding.into(), u));
        }
    }
    compare_with_jdk(
        ctx,
        "Jdk replacement = the JDK's in the CJK charsets (shared chars)",
        &cases,
    );
}

/// For a charset that writes some pairs of chars together (the JIS X 0213 charsets), the
/// UTF-16 units to draw random text from: both chars of every pair (U+309A, U+02E5, U+0300,
/// ...), kana, kanji, ASCII, a char it cannot write and a lone surrogate.
fn pair_pool(charset: Charset) -> Option<Vec<u16>> {
    let name = charset.name();
    if !name.ends_with("_0213") {
        return None;
    }
    Some(vec![
        0x304B, 0x309A, 0x30AB, 0x31F7, 0x02E9, 0x02E5, 0x00E6, 0x0300, 0x0301, 0x0254, 0x0259,
        0x025A, 0x028C, 0x3042, 0x65E5, 0x0061, 0x0E01, 0xD800, 0x309B, 0x3099,
    ])
}

/// Per CJK encoding: ASCII, chars its WHATWG and JDK tables both map the same way, and chars
/// neither maps. Left out: U+00E9 for EUC-JP (the JDK maps it through JIS X 0212), and U+00A5
/// for ISO-2022-JP (both enter the Roman state for it, but the JDK then leaves Roman for any
/// ASCII char, where WHATWG stays until `\` or `~`: found by this sweep).
const CJK_POOLS: [(&Encoding, &str); 7] = [
    (
        &encoding_rs::SHIFT_JIS_INIT,
        "abcXYZ019 .,;!?()<>=\"'あいうアイウ日本語東京漢字。、？é😀ก",
    ),
    (
        &encoding_rs::EUC_JP_INIT,
        "abcXYZ019 .,;!?()<>=\"'あいうアイウ日本語東京漢字。、？😀ก",
    ),
    (
        &encoding_rs::ISO_2022_JP_INIT,
        "abcXYZ019 .,;!?()<>=\"'あいうアイウ日本語東京漢字。、？é😀ก",
    ),
    (
        &encoding_rs::EUC_KR_INIT,
        "abcXYZ019 .,;!?()<>=\"'가나다라한국어é😀ก",
    ),
    (
        &encoding_rs::BIG5_INIT,
        "abcXYZ019 .,;!?()<>=\"'繁體中文字測試é😀ก",
    ),
    (
        &encoding_rs::GBK_INIT,
        "abcXYZ019 .,;!?()<>=\"'简体中文字测试é😀ก",
    ),
    (
        &encoding_rs::GB18030_INIT,
        "abcXYZ019 .,;!?()<>=\"'简体中文字测试é😀ก",
    ),
];

/// Runs `cases` through `CharsetEncode.java` and compares with `encode_from_utf16(.., Jdk)`.
fn compare_with_jdk(ctx: &mut Ctx, name: &str, cases: &[(Charset, Vec<u16>)]) {
    compare_with_jvm(ctx, &[], name, cases);
}

/// [`compare_with_jdk`] on a JVM started with `jvm` options.
fn compare_with_jvm(ctx: &mut Ctx, jvm: &[&str], name: &str, cases: &[(Charset, Vec<u16>)]) {
    let Some(java) = ctx.java() else {
        return;
    };
    let mut check = ctx.check(name, cases.len() as u64);
    compare_batch(&mut check, &java, jvm, cases);
}

/// One JVM run over `cases`, each case's bytes against ours, into `check`.
fn compare_batch(check: &mut Check<'_>, java: &Java, jvm: &[&str], cases: &[(Charset, Vec<u16>)]) {
    let mut stdin = Vec::new();
    for &(charset, ref units) in cases {
        record(&mut stdin, charset, units);
    }
    let result = java.run_with(jvm, "CharsetEncode.java", &[], &stdin);
    drop(stdin);
    let output = match result {
        Ok(output) => output,
        Err(err) => {
            check.fail(&[0u8; 0][..], format!("java failed: {err}"));
            return;
        }
    };
    let mut rest = output.as_slice();
    for &(encoding, ref units) in cases {
        let ours = encoding.encode_from_utf16(units, Replacement::Jdk);
        let Some((len, tail)) = rest.split_first_chunk::<4>() else {
            check.fail(units.as_slice(), "java's output ended early".to_owned());
            return;
        };
        let len = u32::from_be_bytes(*len) as usize;
        if tail.len() < len {
            check.fail(units.as_slice(), "java's output ended early".to_owned());
            return;
        }
        let (jdk, tail) = tail.split_at(len);
        rest = tail;
        if jdk == ours.as_slice() {
            check.pass();
        } else if units.len() == jdk.len() && units.len() == ours.len() {
            // One byte per char: name every char where they part.
            let chars: Vec<String> = units
                .iter()
                .zip(jdk.iter().zip(&ours))
                .filter(|(_, (a, b))| a != b)
                .map(|(u, (a, b))| format!("U+{u:04X} jdk {a:02X} ours {b:02X}"))
                .collect();
            check.fail(
                units.as_slice(),
                format!(
                    "{}: {} chars differ: {}",
                    encoding.name(),
                    chars.len(),
                    chars.join(", ")
                ),
            );
        } else {
            let at = jdk.iter().zip(&ours).take_while(|(a, b)| a == b).count();
            let from = at.saturating_sub(8);
            let window = |b: &[u8]| b[from.min(b.len())..(at + 8).min(b.len())].hex();
            check.fail(
                units.as_slice(),
                format!(
                    "{}: bytes differ from byte {at}\n  jdk:  {}\n  ours: {}",
                    encoding.name(),
                    window(jdk),
                    window(&ours)
                ),
            );
        }
    }
    if !rest.is_empty() {
        check.fail(
            &[0u8; 0][..],
            format!("java wrote {} bytes too many", rest.len()),
        );
    }
}
