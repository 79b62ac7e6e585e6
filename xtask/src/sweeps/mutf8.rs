//! The `mutf8` sweep: wirebytes-mutf8's fast paths against its scalar reference (the JDK's
//! loops transcribed) over every 1-, 2- and 3-byte body at every offset of the 8-byte fast
//! path and over random byte soup; and, when `java` is on PATH, against the JDK itself:
//! `DataInputStream.readUTF` on generated bodies, `DataOutputStream.writeUTF` and
//! `ObjectOutputStream.writeObject` on generated strings. The strict relatives the same way:
//! `decode_class_file` against its reference over every 1-, 2- and 3-byte body and byte
//! soup, and against the JVM's class-file parser itself (`ClassFileUtf8.java` defines a
//! class holding each body in its constant pool); `cesu8` against its reference and the JDK's
//! "CESU-8" charset. Every output form of the encoders (`_to_vec`, `_to_slice` at the exact
//! length and one short, the lengths and the bound) on random strings and UTF-16, and the
//! records through `std::io` and out of slices (`take_utf`).

use std::borrow::Cow;

use wirebytes_mutf8::{
    DecodeErrorKind, cesu8, class_file, decode, decode_class_file, decode_lossy, decode_to_string,
    decode_to_utf16, encode, encode_from_utf16, encode_from_utf16_to_slice,
    encode_from_utf16_to_vec, encode_to_slice, encode_to_vec, encoded_len, encoded_len_from_utf16,
    levels, max_encoded_len, read_utf, read_utf16, reference, take_utf, validate, write_long_utf,
    write_utf, write_utf16,
};

use crate::verify::{Check, Ctx};
use wirebytes_testkit::{Rng, mutf8};

/// A random body: pieces (now and then a rejected one), raw bytes biased to ASCII, a mix of
/// the two, 2-byte text or text of every width.
fn soup(rng: &mut Rng, max_pieces: usize) -> Vec<u8> {
    match rng.below(5) {
        4 => {
            let mut out = mutf8::body(rng, mutf8::WIDE_TEXT, max_pieces, 40);
            if rng.one_in(4) && !out.is_empty() {
                // Now and then one byte gone bad.
                let at = rng.below(out.len());
                out[at] = rng.next_u64() as u8;
            }
            out
        }
        3 => mutf8::body(rng, mutf8::TWO_BYTE_TEXT, max_pieces, 30),
        style => {
            let mut out = Vec::new();
            for _ in 0..rng.below(max_pieces + 1) {
                let raw = match style {
                    0 => false,
                    1 => true,
                    _ => rng.one_in(2),
                };
                if raw {
                    let b = if rng.one_in(4) {
                        rng.next_u64() as u8
                    } else {
                        0x20 + rng.below(0x5F) as u8
                    };
                    out.push(b);
                } else {
                    out.extend_from_slice(mutf8::piece(rng, mutf8::ACCEPTED, 4));
                }
            }
            out
        }
    }
}

/// A random string of UTF-16 chars: ASCII, NUL, 2- and 3-byte chars, surrogate pairs and
/// lone surrogates.
fn random_units(rng: &mut Rng, max_len: usize) -> Vec<u16> {
    let len = rng.below(max_len + 1);
    let mut out = Vec::with_capacity(len + 1);
    while out.len() < len {
        match rng.below(10) {
            0..=4 => out.push(0x20 + rng.below(0x5F) as u16),
            5 => out.push(0),
            6 => out.push(0x80 + rng.below(0x780) as u16),
            7 => out.push(0x800 + rng.below(0xF800) as u16),
            8 => {
                let c = 0x10000 + rng.below(0x100000) as u32;
                let mut pair = [0u16; 2];
                out.extend_from_slice(char::from_u32(c).expect("scalar").encode_utf16(&mut pair));
            }
            _ => out.push(0xD800 + rng.below(0x800) as u16),
        }
    }
    out
}

/// A `_to_slice` form against `want`: into a slice of exactly `want.len()` bytes, the bytes;
/// into one a byte shorter, `None`; never a byte written past the slice.
fn compare_slice_form<I: crate::verify::Hex + ?Sized>(
    check: &mut Check<'_>,
    label: &str,
    input: &I,
    want: &[u8],
    f: impl Fn(&mut [u8]) -> Option<usize>,
) {
    const SENTINEL: u8 = 0xA5;
    let mut buf = vec![SENTINEL; want.len() + 1];
    let got = f(&mut buf[..want.len()]).map(|n| buf[..n].to_vec());
    check.case_in(
        label,
        input,
        (Some(want.to_vec()), SENTINEL),
        (got, buf[want.len()]),
    );
    if let Some(short) = want.len().checked_sub(1) {
        let mut buf = vec![SENTINEL; want.len()];
        let got = f(&mut buf[..short]);
        check.case_in(
            &format!("{label}, one byte short"),
            input,
            (None, SENTINEL),
            (got, buf[short]),
        );
    }
}

/// The UTF-16 forms of `writeUTF`'s encoder on `units` against the reference: the `Vec`,
/// appended after what it held, the slice, the length.
fn compare_utf16_forms(check: &mut Check<'_>, units: &[u16]) {
    let want = reference::encode_from_utf16(units);
    let mut appended = vec![0xAA];
    encode_from_utf16_to_vec(units, &mut appended);
    check.case_in(
        "encode_from_utf16_to_vec",
        units,
        [&[0xAA][..], &want].concat(),
        appended,
    );
    compare_slice_form(check, "encode_from_utf16_to_slice", units, &want, |dst| {
        encode_from_utf16_to_slice(units, dst)
    });
    check.case_in(
        "encoded_len_from_utf16",
        units,
        want.len(),
        encoded_len_from_utf16(units),
    );
    let want = reference::cesu8_encode_from_utf16(units);
    let mut appended = vec![0xAA];
    cesu8::encode_from_utf16_to_vec(units, &mut appended);
    check.case_in(
        "cesu8::encode_from_utf16_to_vec",
        units,
        [&[0xAA][..], &want].concat(),
        appended,
    );
    compare_slice_form(
        check,
        "cesu8::encode_from_utf16_to_slice",
        units,
        &want,
        |dst| cesu8::encode_from_utf16_to_slice(units, dst),
    );
    check.case_in(
        "cesu8::encoded_len_from_utf16",
        units,
        want.len(),
        cesu8::encoded_len_from_utf16(units),
    );
}

/// The text forms of `writeUTF`'s and CESU-8's encoders on `text` against the reference:
/// the `Vec`, the slice (and one of the bound's length), the length.
fn compare_text_forms(check: &mut Check<'_>, text: &str) {
    let want = reference::encode(text);
    compare_slice_form(check, "encode_to_slice", text, &want, |dst| {
        encode_to_slice(text, dst)
    });
    let mut bound = vec![0; max_encoded_len(text.len())];
    check.case_in(
        "encode_to_slice, max_encoded_len",
        text,
        Some(want.len()),
        encode_to_slice(text, &mut bound),
    );
    let want = reference::cesu8_encode(text);
    let mut appended = vec![0xAA];
    cesu8::encode_to_vec(text, &mut appended);
    check.case_in(
        "cesu8::encode_to_vec",
        text,
        [&[0xAA][..], &want].concat(),
        appended,
    );
    compare_slice_form(check, "cesu8::encode_to_slice", text, &want, |dst| {
        cesu8::encode_to_slice(text, dst)
    });
    check.case_in(
        "cesu8::encoded_len",
        text,
        want.len(),
        cesu8::encoded_len(text),
    );
    let mut bound = vec![0; cesu8::max_encoded_len(text.len())];
    check.case_in(
        "cesu8::encode_to_slice, max_encoded_len",
        text,
        Some(want.len()),
        cesu8::encode_to_slice(text, &mut bound),
    );
}

/// The fast decoders against the reference on one body; one case per decoder.
fn compare_decoders(check: &mut Check<'_>, bytes: &[u8]) {
    check.case_in(
        "decode_to_utf16",
        bytes,
        reference::decode_to_utf16(bytes),
        decode_to_utf16(bytes),
    );
    check.case_in(
        "decode",
        bytes,
        reference::decode(bytes),
        decode(bytes).map(Cow::into_owned),
    );
    // Borrowed exactly when the bytes already are the text: UTF-8 without a 4-byte sequence.
    check.case_in(
        "decode borrows",
        bytes,
        std::str::from_utf8(bytes).is_ok() && bytes.iter().all(|&b| b < 0xF0),
        matches!(decode(bytes), Ok(Cow::Borrowed(_))),
    );
    check.case_in(
        "decode_lossy",
        bytes,
        reference::decode_lossy(bytes),
        decode_lossy(bytes).into_owned(),
    );
    check.case_in(
        "validate",
        bytes,
        reference::decode_to_utf16(bytes).map(drop),
        validate(bytes),
    );
    // Appended after text; on error, the text as it was.
    let mut dst = String::from("\u{e9}");
    let result = decode_to_string(bytes, &mut dst);
    let want = reference::decode(bytes).map(|text| format!("\u{e9}{text}"));
    check.case_in(
        "decode_to_string",
        bytes,
        (
            want.as_ref().map(drop).map_err(|e| *e),
            want.clone().unwrap_or_else(|_| "\u{e9}".to_owned()),
        ),
        (result, dst),
    );
}

/// Every kernel level this CPU has (the public functions take only the last) against the
/// reference on one body, through `wirebytes_mutf8::levels`: `decode_to_utf16` (and
/// `decode_to_utf16_vec`), `decode` (and whether it borrows), `validate`, `decode_to_string`,
/// `decode_lossy`, and `take_utf` of the body as a record.
fn compare_levels(check: &mut Check<'_>, bytes: &[u8]) {
    let want16 = reference::decode_to_utf16(bytes);
    let want = reference::decode(bytes);
    let plain = std::str::from_utf8(bytes).is_ok() && bytes.iter().all(|&b| b < 0xF0);
    let lossy = want.is_err().then(|| reference::decode_lossy(bytes));
    for level in levels::all() {
        let name = level.name();
        check.case_in(
            &format!("decode_to_utf16, {name}"),
            bytes,
            &want16,
            &level.decode_to_utf16(bytes),
        );
        let got = level.decode(bytes);
        let borrowed = matches!(got, Ok(Cow::Borrowed(_)));
        check.case_in(
            &format!("decode, {name}"),
            bytes,
            (&want, plain),
            (&got.map(Cow::into_owned), borrowed),
        );
        check.case_in(
            &format!("validate, {name}"),
            bytes,
            want16.as_ref().map(drop).map_err(|e| *e),
            level.validate(bytes),
        );
        let mut dst = String::new();
        let result = level.decode_to_string(bytes, &mut dst);
        check.case_in(
            &format!("decode_to_string, {name}"),
            bytes,
            want.clone().unwrap_or_default(),
            dst,
        );
        check.case_in(
            &format!("decode_to_string result, {name}"),
            bytes,
            want.as_ref().map(drop).map_err(|e| *e),
            result,
        );
        let mut dst16 = vec![0xD800];
        let result = level.decode_to_utf16_vec(bytes, &mut dst16);
        let mut expected16 = vec![0xD800];
        expected16.extend(want16.as_deref().unwrap_or_default());
        check.case_in(
            &format!("decode_to_utf16_vec, {name}"),
            bytes,
            (want16.as_ref().map(drop).map_err(|e| *e), &expected16),
            (result, &dst16),
        );
        // The body as a record out of a slice: the slice moves past it only when it is read.
        if let Ok(len) = u16::try_from(bytes.len()) {
            let wire = [&len.to_be_bytes()[..], bytes, b"next"].concat();
            let mut input = wire.as_slice();
            let got = level.take_utf(&mut input).map(Cow::into_owned);
            let left = if got.is_ok() { 4 } else { wire.len() };
            check.case_in(
                &format!("take_utf, {name}"),
                bytes,
                (
                    want.clone().map_err(wirebytes_mutf8::GetUtfError::Invalid),
                    left,
                ),
                (got, input.len()),
            );
        }
        // Where `decode` fails, the lossy rewrite runs: compared then (else it is `decode`).
        if let Some(lossy) = &lossy {
            check.case_in(
                &format!("decode_lossy, {name}"),
                bytes,
                lossy,
                &level.decode_lossy(bytes).into_owned(),
            );
        }
    }
}

pub(crate) fn run(ctx: &mut Ctx) {
    exhaustive(ctx);
    block_edges(ctx);
    random_soup(ctx);
    rewrite_blocks(ctx);
    encoders(ctx);
    records(ctx);
    strict_exhaustive(ctx);
    strict_soup(ctx);
    match ctx.java() {
        Some(java) => {
            jdk_parity(ctx, &java);
            cesu8_parity(ctx, &java);
            class_file_parity(ctx, &java);
        }
        None => {
            ctx.skip("jdk readUTF/writeUTF parity", "java not on PATH");
            ctx.skip("jdk CESU-8 parity", "java not on PATH");
            ctx.skip("jvm class-file CONSTANT_Utf8 parity", "java not on PATH");
        }
    }
}

/// `class_file` and `cesu8` (`decode`, `validate`, `decode_to_utf16`) against their
/// references on one body, `decode` and `validate` at every kernel level when `every_level`
/// is set.
fn compare_strict(check: &mut Check<'_>, bytes: &[u8], every_level: bool) {
    let class = reference::class_file_decode(bytes);
    let cesu = reference::cesu8_decode(bytes);
    let class16 = reference::class_file_decode_to_utf16(bytes);
    let cesu16 = reference::cesu8_decode_to_utf16(bytes);
    check.case_in(
        "class_file::decode_to_utf16",
        bytes,
        &class16,
        &class_file::decode_to_utf16(bytes),
    );
    check.case_in(
        "cesu8::decode_to_utf16",
        bytes,
        &cesu16,
        &cesu8::decode_to_utf16(bytes),
    );
    check.case_in(
        "class_file::validate",
        bytes,
        class16.as_ref().map(drop).map_err(|e| *e),
        class_file::validate(bytes),
    );
    check.case_in(
        "cesu8::validate",
        bytes,
        cesu16.as_ref().map(drop).map_err(|e| *e),
        cesu8::validate(bytes),
    );
    check.case_in(
        "decode_class_file",
        bytes,
        &class,
        &decode_class_file(bytes).map(Cow::into_owned),
    );
    check.case_in(
        "cesu8::decode",
        bytes,
        &cesu,
        &cesu8::decode(bytes).map(Cow::into_owned),
    );
    if every_level {
        for level in levels::all() {
            let name = level.name();
            check.case_in(
                &format!("decode_class_file, {name}"),
                bytes,
                &class,
                &level.class_file_decode(bytes).map(Cow::into_owned),
            );
            check.case_in(
                &format!("class_file::validate, {name}"),
                bytes,
                class16.as_ref().map(drop).map_err(|e| *e),
                level.class_file_validate(bytes),
            );
            check.case_in(
                &format!("cesu8::validate, {name}"),
                bytes,
                cesu16.as_ref().map(drop).map_err(|e| *e),
                level.cesu8_validate(bytes),
            );
            check.case_in(
                &format!("cesu8::decode, {name}"),
                bytes,
                &cesu,
                &level.cesu8_decode(bytes).map(Cow::into_owned),
            );
        }
    }
}

/// The strict decoders against their references: every 1- and 2-byte body behind 0..=16
/// ASCII bytes, with and without text after, at every kernel level; every 3-byte body
/// (under `--quick`, at two offsets).
fn strict_exhaustive(ctx: &mut Ctx) {
    let placements: Vec<(usize, bool)> = (0..=16)
        .flat_map(|pad| [(pad, false), (pad, true)])
        .collect();
    let mut check = ctx.check(
        "class file, CESU-8 = reference: every 1- and 2-byte body, 0..16 bytes in",
        (256 + 65536) * placements.len() as u64 * 10,
    );
    let mut body = Vec::with_capacity(40);
    for b0 in 0..=255u8 {
        for b1 in (0..=256u16).map(|b| u8::try_from(b).ok()) {
            for &(pad, suffix) in &placements {
                body.clear();
                body.extend((0..pad).map(|k| b'a' + k as u8));
                body.push(b0);
                body.extend(b1);
                if suffix {
                    body.extend_from_slice(b"xyz\xc3\xa9 0123456789");
                }
                compare_strict(&mut check, &body, true);
            }
        }
    }
    drop(check);

    let placements: Vec<(usize, bool)> = if ctx.quick() {
        vec![(0, false), (5, true)]
    } else {
        (0..=16)
            .step_by(4)
            .flat_map(|pad| [(pad, false), (pad, true)])
            .collect()
    };
    let mut check = ctx.check(
        "class file, CESU-8 = reference: every 3-byte body",
        (1 << 24) * placements.len() as u64 * 2,
    );
    for seq in 0..1u32 << 24 {
        let seq = seq.to_be_bytes();
        for &(pad, suffix) in &placements {
            body.clear();
            body.extend((0..pad).map(|k| b'a' + k as u8));
            body.extend_from_slice(&seq[1..]);
            if suffix {
                body.extend_from_slice(b"xyz");
            }
            compare_strict(&mut check, &body, false);
        }
    }
}

/// The strict decoders on random byte soup (now and then with a raw `00`) at every kernel
/// level; `cesu8::encode` and `encode_from_utf16` on random strings.
fn strict_soup(ctx: &mut Ctx) {
    let n = ctx.scale(200_000, 20_000);
    let mut check = ctx.check("class file, CESU-8 = reference: random byte soup", 0);
    let mut rng = Rng::new(0x7374_7269_6374_7375);
    for k in 0..n {
        let mut body = soup(&mut rng, if k % 100 == 0 { 2000 } else { 60 });
        if k % 7 == 0 && !body.is_empty() {
            let at = rng.below(body.len());
            body[at] = 0;
        }
        compare_strict(&mut check, &body, true);
    }
    drop(check);

    let mut check = ctx.check("cesu8::encode = reference: random strings", 0);
    for k in 0..n {
        let units = random_units(&mut rng, if k % 100 == 0 { 3000 } else { 80 });
        let want = reference::cesu8_encode_from_utf16(&units);
        check.case_in(
            "encode_from_utf16",
            &units[..],
            &want,
            &cesu8::encode_from_utf16(&units),
        );
        compare_utf16_forms(&mut check, &units);
        if let Ok(text) = String::from_utf16(&units) {
            check.case_in("encode", &units[..], &want[..], &*cesu8::encode(&text));
            compare_text_forms(&mut check, &text);
            check.case_in(
                "decode back",
                &units[..],
                Ok(text.clone()),
                cesu8::decode(&want).map(Cow::into_owned),
            );
        }
    }
}

/// What the JDK's CESU-8 decoder did with one body: its chars, or the position where it
/// reported malformed input.
fn cesu8_outcome_of_reply(out: &mut &[u8]) -> Option<Result<Vec<u16>, usize>> {
    match parse_read_reply(out)? {
        ReadOutcome::Chars(chars) => Some(Ok(chars)),
        ReadOutcome::Other(message) => message
            .strip_prefix("malformed at ")
            .and_then(|p| p.parse().ok())
            .map(Err),
        _ => None,
    }
}

/// The JDK's "CESU-8" charset against `cesu8`: its decoder (malformed input reported) on
/// `readUTF`'s bodies, and `String.getBytes("CESU-8")` on `writeUTF`'s strings.
fn cesu8_parity(ctx: &mut Ctx, java: &crate::verify::Java) {
    let bodies = jdk_bodies(ctx);
    let strings = jdk_strings(ctx);
    let mut request = Vec::new();
    for body in &bodies {
        request.push(b'c');
        request.extend((body.len() as u32).to_be_bytes());
        request.extend_from_slice(body);
    }
    for units in &strings {
        request.push(b'C');
        request.extend((units.len() as u32).to_be_bytes());
        request.extend(units.iter().flat_map(|u| u.to_be_bytes()));
    }
    let reply_bytes = match java.run("Mutf8Parity.java", &[], &request) {
        Ok(out) => out,
        Err(err) => {
            let mut check = ctx.check("jdk CESU-8 parity", 1);
            check.fail("", format!("the JDK program failed: {err}"));
            return;
        }
    };
    let mut out = reply_bytes.as_slice();
    let mut check = ctx.check(
        "jdk CESU-8 decoder = cesu8::decode",
        bodies.len() as u64 * 2,
    );
    for body in &bodies {
        let Some(jdk) = cesu8_outcome_of_reply(&mut out) else {
            check.fail(body.as_slice(), "the JDK's reply is cut short".to_owned());
            return;
        };
        let reference = reference::cesu8_decode_to_utf16(body).map_err(|e| e.valid_up_to());
        check.case_in("reference", body.as_slice(), &jdk, &reference);
        // A str where the chars pair up; UnpairedSurrogate where they do not.
        let expected = match &jdk {
            Ok(chars) => String::from_utf16(chars).map_err(|_| "unpaired".to_owned()),
            Err(at) => Err(format!("malformed at {at}")),
        };
        let ours = match cesu8::decode(body) {
            Ok(text) => Ok(text.into_owned()),
            Err(err) if err.kind() == DecodeErrorKind::UnpairedSurrogate => {
                Err("unpaired".to_owned())
            }
            Err(err) => Err(format!("malformed at {}", err.valid_up_to())),
        };
        check.case_in("cesu8::decode", body.as_slice(), expected, ours);
    }
    drop(check);

    let mut check = ctx.check(
        "jdk getBytes(CESU-8) = cesu8::encode_from_utf16, encode",
        strings.len() as u64 * 2,
    );
    for units in &strings {
        let Some(jdk) = parse_write_reply(&mut out) else {
            check.fail(&units[..], "the JDK's reply is cut short".to_owned());
            return;
        };
        check.case_in(
            "encode_from_utf16",
            &units[..],
            &jdk,
            &Ok(cesu8::encode_from_utf16(units)),
        );
        match String::from_utf16(units) {
            Ok(text) => {
                check.case_in(
                    "encode",
                    &units[..],
                    &jdk,
                    &Ok(cesu8::encode(&text).into_owned()),
                );
            }
            Err(_) => check.pass(),
        }
    }
    if !out.is_empty() {
        check.fail("", format!("{} bytes of unexpected JDK output", out.len()));
    }
}

/// The JVM itself against `decode_class_file`: each candidate in the constant pool of a
/// class defined by a class loader (`ClassFileUtf8.java`); `ClassFormatError` means
/// rejected. Every 1- and 2-byte body for class-file versions 48 and 61; every 3-byte body
/// (under `--quick`, those with a lead of `C0` and up and a telling second byte) and random
/// soup for version 61.
fn class_file_parity(ctx: &mut Ctx, java: &crate::verify::Java) {
    let mut short: Vec<Vec<u8>> = vec![Vec::new()];
    for b0 in 0..=255u8 {
        short.push(vec![b0]);
        for b1 in 0..=255u8 {
            short.push(vec![b0, b1]);
        }
    }
    let mut long = Vec::new();
    let seconds: Vec<u8> = if ctx.quick() {
        vec![
            0x00, 0x01, 0x41, 0x7F, 0x80, 0x81, 0x9F, 0xA0, 0xAF, 0xB0, 0xBF, 0xC0, 0xED, 0xFF,
        ]
    } else {
        (0..=255).collect()
    };
    let firsts = if ctx.quick() {
        0xC0..=0xFFu8
    } else {
        0..=0xFFu8
    };
    for b0 in firsts {
        for &b1 in &seconds {
            for b2 in 0..=255u8 {
                long.push(vec![b0, b1, b2]);
            }
        }
    }
    let mut rng = Rng::new(0x636c_6173_736a_766d);
    for k in 0..ctx.scale(100_000, 10_000) {
        let mut body = soup(&mut rng, if k % 100 == 0 { 2000 } else { 40 });
        if k % 7 == 0 && !body.is_empty() {
            let at = rng.below(body.len());
            body[at] = 0;
        }
        body.truncate(0xFFFF);
        long.push(body);
    }
    for (version, candidates) in [("48", &short), ("61", &short), ("61", &long)] {
        let mut request = Vec::new();
        for body in candidates.iter() {
            request.extend((body.len() as u32).to_be_bytes());
            request.extend_from_slice(body);
        }
        let name = format!(
            "jvm CONSTANT_Utf8 (class file {version}) = decode_class_file: {} bodies",
            candidates.len()
        );
        let out = match java.run("ClassFileUtf8.java", &[version], &request) {
            Ok(out) => out,
            Err(err) => {
                let mut check = ctx.check(&name, 1);
                check.fail("", format!("the JVM program failed: {err}"));
                return;
            }
        };
        let mut check = ctx.check(&name, candidates.len() as u64 * 2);
        let mut out = out.as_slice();
        for body in candidates.iter() {
            let jvm = match out.split_first() {
                Some((b'A', rest)) => {
                    out = rest;
                    Ok(true)
                }
                Some((b'R', rest)) => {
                    out = rest;
                    Ok(false)
                }
                Some((b'X', _)) => match reply(&mut out) {
                    Some((_, message)) => Err(String::from_utf8_lossy(message).into_owned()),
                    None => Err("a cut reply".to_owned()),
                },
                _ => {
                    check.fail(body.as_slice(), "the JVM's reply is cut short".to_owned());
                    return;
                }
            };
            let accepted = |r: Result<(), DecodeErrorKind>| match r {
                Ok(()) => true,
                Err(kind) => kind == DecodeErrorKind::UnpairedSurrogate,
            };
            let by_reference = accepted(
                reference::class_file_decode_to_utf16(body)
                    .map(drop)
                    .map_err(|e| e.kind()),
            );
            let ours = accepted(decode_class_file(body).map(drop).map_err(|e| e.kind()));
            check.case_in("reference", body.as_slice(), &jvm, &Ok(by_reference));
            check.case_in("decode_class_file", body.as_slice(), &jvm, &Ok(ours));
        }
        if !out.is_empty() {
            check.fail("", format!("{} bytes of unexpected JVM output", out.len()));
        }
    }
}

/// Every 1- and 2-byte body behind 0..=16 ASCII bytes, with and without ASCII after; every
/// 3-byte body the same way (under `--quick`, at four offsets).
fn exhaustive(ctx: &mut Ctx) {
    let placements: Vec<(usize, bool)> = (0..=16)
        .flat_map(|pad| [(pad, false), (pad, true)])
        .collect();
    let mut check = ctx.check(
        "fast = reference: every 1- and 2-byte body, 0..16 bytes in",
        (256 + 65536) * placements.len() as u64 * 4,
    );
    let mut body = Vec::with_capacity(40);
    for b0 in 0..=255u8 {
        for b1 in (0..=256u16).map(|b| u8::try_from(b).ok()) {
            for &(pad, suffix) in &placements {
                body.clear();
                body.extend((0..pad).map(|k| b'a' + k as u8));
                body.push(b0);
                body.extend(b1);
                if suffix {
                    body.extend_from_slice(b"xyz0123456789");
                }
                compare_decoders(&mut check, &body);
            }
        }
    }
    drop(check);

    let placements: Vec<(usize, bool)> = if ctx.quick() {
        vec![(0, false), (5, true), (7, false), (9, true)]
    } else {
        (0..=16)
            .flat_map(|pad| [(pad, false), (pad, true)])
            .collect()
    };
    let name = if ctx.quick() {
        "fast = reference: every 3-byte body, 4 offsets"
    } else {
        "fast = reference: every 3-byte body, 0..16 bytes in"
    };
    let mut check = ctx.check(name, (1 << 24) * placements.len() as u64 * 2);
    for seq in 0..1u32 << 24 {
        let seq = seq.to_be_bytes();
        for &(pad, suffix) in &placements {
            body.clear();
            body.extend((0..pad).map(|k| b'a' + k as u8));
            body.extend_from_slice(&seq[1..]);
            if suffix {
                body.extend_from_slice(b"xyz");
            }
            // decode_lossy is covered by the 1-2 byte check and the soup; here the two
            // strict decoders keep the full run within minutes.
            check.case_in(
                "decode_to_utf16",
                body.as_slice(),
                reference::decode_to_utf16(&body),
                decode_to_utf16(&body),
            );
            check.case_in(
                "decode",
                body.as_slice(),
                reference::decode(&body),
                decode(&body).map(Cow::into_owned),
            );
        }
    }
}

/// Every 1- and 2-byte body where blocks meet (the 32-byte blocks of `decode_to_utf16`, the
/// 64-byte ones of `decode`), behind a first non-ASCII char and text of one width, then a
/// run of ASCII (which `decode` skips, checking only that no sequence was left open) and
/// the text again; under `--quick`, at two of the offsets. Every kernel level the CPU has is
/// compared (up to sixteen cases per body).
fn block_edges(ctx: &mut Ctx) {
    let offsets: &[usize] = if ctx.quick() {
        &[30, 62]
    } else {
        &[30, 62, 94, 126]
    };
    let fills = ["a", "\u{4E2D}"];
    let mut check = ctx.check(
        "fast = reference: every 1- and 2-byte body where blocks meet",
        (256 + 65536) * (offsets.len() * fills.len()) as u64 * 16,
    );
    let mut body = Vec::with_capacity(160);
    for fill in fills {
        for &offset in offsets {
            let mut head = "\u{E9}".as_bytes().to_vec();
            while head.len() < offset {
                head.extend_from_slice(fill.as_bytes());
            }
            head.truncate(offset.max(2));
            // Cut inside a char of the fill: keep whole chars only.
            while std::str::from_utf8(&head).is_err() {
                head.pop();
            }
            for b0 in 0..=255u8 {
                for b1 in (0..=256u16).map(|b| u8::try_from(b).ok()) {
                    body.clear();
                    body.extend_from_slice(&head);
                    body.push(b0);
                    body.extend(b1);
                    // 63 bytes of ASCII put the next head's lead in the last byte of a
                    // block of ASCII (of 32 and of 64 bytes: the offsets are 30 and 62
                    // modulo 32).
                    body.extend_from_slice(&[b'x'; 63]);
                    body.extend_from_slice(&head);
                    compare_decoders(&mut check, &body);
                    compare_levels(&mut check, &body);
                }
            }
        }
    }
}

/// Random byte soup, short and long; one body in 50 behind 4 to 9 KiB of ASCII (decode
/// scans ASCII in 4 KiB chunks before it looks further). Every kernel level the CPU has is
/// compared.
fn random_soup(ctx: &mut Ctx) {
    let n = ctx.scale(300_000, 30_000);
    let mut check = ctx.check("fast = reference: random byte soup", n as u64 * 16);
    let mut rng = Rng::new(0x6d75_7466_3873_6f75);
    for k in 0..n {
        let max_pieces = if k % 100 == 0 { 2000 } else { 60 };
        let mut body = soup(&mut rng, max_pieces);
        if k % 50 == 1 {
            let ascii = 4000 + rng.below(5000);
            body.splice(0..0, (0..ascii).map(|i| b'a' + (i % 26) as u8));
        }
        compare_decoders(&mut check, &body);
        compare_levels(&mut check, &body);
    }
}

/// Bodies that `decode` rewrites, made for its 64-byte AVX-512 blocks: ASCII runs of any
/// length between `C0 80` and the other overlong 2-byte forms, 2- and 3-byte text and pairs
/// of every plane, so that each falls at every place in a block and runs into the next; one
/// body in three with one thing the blocks leave to the scalar loop (a 3-byte overlong, a
/// lone or reversed surrogate, a stray continuation byte, a 4-byte sequence, a cut
/// sequence). Every kernel level the CPU has is compared.
fn rewrite_blocks(ctx: &mut Ctx) {
    let n = ctx.scale(200_000, 20_000);
    let mut check = ctx.check(
        "fast = reference: bodies for decode's rewrite blocks",
        n as u64 * 12,
    );
    let mut rng = Rng::new(0x7265_7772_6974_6573);
    for k in 0..n {
        let mut body = Vec::new();
        let pieces = rng.below(if k % 50 == 0 { 400 } else { 40 });
        let bad_at = if k % 3 == 0 {
            rng.below(pieces + 1)
        } else {
            usize::MAX
        };
        let run = if k % 2 == 0 { 90 } else { 12 };
        for piece in 0..pieces {
            for _ in 0..rng.below(run) {
                body.push(b' ' + rng.below(95) as u8);
            }
            if piece == bad_at {
                let bad = if rng.one_in(2) {
                    rng.pick(mutf8::IRREGULAR)
                } else {
                    rng.pick(mutf8::REJECTED)
                };
                body.extend_from_slice(bad);
                continue;
            }
            match rng.below(8) {
                0 | 1 => body.extend_from_slice(b"\xc0\x80"),
                2 => {
                    body.extend_from_slice(&[0xC0 | rng.below(2) as u8, 0x80 | rng.below(64) as u8])
                }
                3 => {
                    let c = char::from_u32(0x80 + rng.below(0x780) as u32).expect("2-byte char");
                    body.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
                }
                4 => {
                    let c = char::from_u32(0x800 + rng.below(0xF800) as u32).unwrap_or('\u{FFFF}');
                    body.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
                }
                _ => {
                    let c = char::from_u32(0x10000 + rng.below(0x100000) as u32).expect("char");
                    let mut units = [0u16; 2];
                    for unit in c.encode_utf16(&mut units) {
                        let u = u32::from(*unit);
                        body.extend_from_slice(&[
                            0xE0 | (u >> 12) as u8,
                            0x80 | ((u >> 6) & 0x3F) as u8,
                            0x80 | (u & 0x3F) as u8,
                        ]);
                    }
                }
            }
        }
        for _ in 0..rng.below(80) {
            body.push(b'a' + rng.below(26) as u8);
        }
        compare_levels(&mut check, &body);
    }
}

/// `encode`, `encoded_len`, `encode_from_utf16` against the reference, and decoding back.
fn encoders(ctx: &mut Ctx) {
    let mut check = ctx.check(
        "every supplementary char: encode, decode, 4-byte form",
        0x100000 * 4,
    );
    let mut utf8 = [0u8; 4];
    for scalar in 0x10000..=0x10FFFF {
        let c = char::from_u32(scalar).expect("scalar value");
        let text = c.encode_utf8(&mut utf8);
        let pair = encode(text);
        check.case_in("encode", &*text, reference::encode(text), pair.to_vec());
        check.case_in(
            "decode",
            &*pair,
            reference::decode(&pair),
            decode(&pair).map(Cow::into_owned),
        );
        let raw = text.as_bytes();
        check.case_in(
            "4-byte UTF-8",
            raw,
            reference::decode(raw),
            decode(raw).map(Cow::into_owned),
        );
        check.case_in(
            "4-byte UTF-8",
            raw,
            reference::decode_lossy(raw),
            decode_lossy(raw).into_owned(),
        );
    }
    drop(check);

    let mut check = ctx.check(
        "encode_from_utf16 = reference: every char between ASCII",
        65536 * 2,
    );
    for unit in 0..=0xFFFF_u16 {
        let units = [u16::from(b'a'), unit, u16::from(b'z')];
        let bytes = encode_from_utf16(&units);
        check.case(
            &units[..],
            reference::encode_from_utf16(&units),
            bytes.clone(),
        );
        check.case_in(
            "decode_to_utf16 back",
            &units[..],
            Ok(units.to_vec()),
            decode_to_utf16(&bytes),
        );
    }
    drop(check);

    let n = ctx.scale(200_000, 20_000);
    let mut check = ctx.check(
        "encode = reference, round trips: random strings",
        n as u64 * 5,
    );
    let mut rng = Rng::new(0x6d75_7466_3865_6e63);
    for k in 0..n {
        let max_len = if k % 100 == 0 { 3000 } else { 80 };
        let units = random_units(&mut rng, max_len);
        let expected = reference::encode_from_utf16(&units);
        check.case_in(
            "encode_from_utf16",
            &units[..],
            &expected,
            &encode_from_utf16(&units),
        );
        check.case_in(
            "decode_to_utf16 back",
            &units[..],
            Ok(units.clone()),
            decode_to_utf16(&expected),
        );
        let text: String = char::decode_utf16(units.iter().copied())
            .map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
            .collect();
        let bytes = encode(&text);
        check.case_in(
            "encode",
            text.as_str(),
            reference::encode(&text),
            bytes.to_vec(),
        );
        let mut appended = vec![0xAA];
        encode_to_vec(&text, &mut appended);
        check.case_in(
            "encode_to_vec",
            text.as_str(),
            [&[0xAA][..], &reference::encode(&text)].concat(),
            appended,
        );
        check.case_in(
            "encoded_len",
            text.as_str(),
            reference::encoded_len(&text),
            encoded_len(&text),
        );
        compare_text_forms(&mut check, &text);
        compare_utf16_forms(&mut check, &units);
        check.case_in(
            "decode back",
            text.as_str(),
            Ok(text.clone()),
            decode(&bytes).map(Cow::into_owned),
        );
    }
}

/// `write_utf` then `read_utf`, and every truncation of the record; `read_utf` of records of
/// byte soup at every kernel level.
fn records(ctx: &mut Ctx) {
    let n = ctx.scale(20_000, 2_000);
    let mut check = ctx.check("write_utf/read_utf: round trips and truncations", 0);
    let mut rng = Rng::new(0x6d75_7466_3872_6563);
    for _ in 0..n {
        let units = random_units(&mut rng, 40);
        let text: String = char::decode_utf16(units.iter().copied())
            .map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
            .collect();
        let mut wire = Vec::new();
        if let Err(err) = write_utf(&mut wire, &text) {
            check.fail(text.as_str(), format!("write_utf failed: {err}"));
            continue;
        }
        let mut expected = (reference::encoded_len(&text) as u16)
            .to_be_bytes()
            .to_vec();
        expected.extend(reference::encode(&text));
        check.case_in("record bytes", text.as_str(), &expected, &wire);
        check.case_in(
            "read back",
            text.as_str(),
            Some(text.clone()),
            read_utf(&mut wire.as_slice()).ok(),
        );
        check.case_in(
            "read_utf16 back",
            text.as_str(),
            Some(text.encode_utf16().collect::<Vec<u16>>()),
            read_utf16(&mut wire.as_slice()).ok(),
        );
        for cut in 0..wire.len() {
            let kind = read_utf(&mut &wire[..cut]).map_err(|e| e.kind());
            check.case_in(
                "truncated",
                &wire[..cut],
                Err(std::io::ErrorKind::UnexpectedEof),
                kind.map(drop),
            );
            // Out of a slice: incomplete, nothing consumed.
            let mut input = &wire[..cut];
            let incomplete = take_utf(&mut input).map(drop).map_err(std::io::Error::from);
            check.case_in(
                "take_utf truncated",
                &wire[..cut],
                (Err(std::io::ErrorKind::UnexpectedEof), cut),
                (incomplete.map_err(|e| e.kind()), input.len()),
            );
        }
        let mut input = wire.as_slice();
        check.case_in(
            "take_utf back",
            text.as_str(),
            (Some(text.as_str()), 0),
            (take_utf(&mut input).ok().as_deref(), input.len()),
        );
        // Any UTF-16, lone surrogates too, as `writeUTF` writes a Java `String`.
        let mut wire16 = Vec::new();
        let written = write_utf16(&mut wire16, &units).map_err(|e| e.kind());
        let body = reference::encode_from_utf16(&units);
        let mut expected = (body.len() as u16).to_be_bytes().to_vec();
        expected.extend(&body);
        check.case_in(
            "write_utf16 record bytes",
            &units[..],
            (Ok(()), &expected),
            (written, &wire16),
        );
        check.case_in(
            "write_utf16 then read_utf16",
            &units[..],
            Some(&units),
            read_utf16(&mut wire16.as_slice()).ok().as_ref(),
        );
    }
    drop(check);

    // Records of byte soup (`read_utf` decodes the body it owns in place), at every kernel
    // level, against the reference.
    let n = ctx.scale(50_000, 5_000);
    let mut check = ctx.check("read_utf = reference: records of byte soup", 0);
    for k in 0..n {
        let body = soup(&mut rng, if k % 100 == 0 { 2000 } else { 60 });
        let Ok(len) = u16::try_from(body.len()) else {
            continue;
        };
        let mut wire = len.to_be_bytes().to_vec();
        wire.extend_from_slice(&body);
        let want = reference::decode(&body).map_err(|_| std::io::ErrorKind::InvalidData);
        for level in levels::all() {
            check.case_in(
                &format!("read_utf, {}", level.name()),
                body.as_slice(),
                &want,
                &level.read_utf(&mut wire.as_slice()).map_err(|e| e.kind()),
            );
        }
    }
}

/// What `readUTF` did with one body, as the JDK reports it or as we predict it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum ReadOutcome {
    Chars(Vec<u16>),
    /// "malformed input around byte N"
    Malformed(usize),
    /// "malformed input: partial character at end"
    Partial,
    /// Any other exception: never expected.
    Other(String),
}

impl ReadOutcome {
    fn from_jdk_message(message: &str) -> Self {
        const AROUND: &str = "UTFDataFormatException: malformed input around byte ";
        if let Some(n) = message.strip_prefix(AROUND).and_then(|n| n.parse().ok()) {
            ReadOutcome::Malformed(n)
        } else if message == "UTFDataFormatException: malformed input: partial character at end" {
            ReadOutcome::Partial
        } else {
            ReadOutcome::Other(message.to_owned())
        }
    }

    fn ours(bytes: &[u8]) -> Self {
        match decode_to_utf16(bytes) {
            Ok(chars) => ReadOutcome::Chars(chars),
            Err(err) => match (err.kind(), err.jdk_position()) {
                (DecodeErrorKind::Malformed, Some(n)) => ReadOutcome::Malformed(n),
                (DecodeErrorKind::Truncated, None) => ReadOutcome::Partial,
                _ => ReadOutcome::Other(format!("{err:?}")),
            },
        }
    }
}

/// What the JDK wrote for one string, or its exception message.
type WriteOutcome = Result<Vec<u8>, String>;

/// One reply of `Mutf8Parity.java`: the tag and the payload.
fn reply<'a>(out: &mut &'a [u8]) -> Option<(u8, &'a [u8])> {
    let (&tag, rest) = out.split_first()?;
    let n = u32::from_be_bytes(rest.get(..4)?.try_into().ok()?) as usize;
    let payload = rest.get(4..4 + n)?;
    *out = &rest[4 + n..];
    Some((tag, payload))
}

/// The bodies sent to `readUTF`.
fn jdk_bodies(ctx: &Ctx) -> Vec<Vec<u8>> {
    let mut bodies = Vec::new();
    for b0 in 0..=255u8 {
        bodies.push(vec![b0]);
        bodies.push(vec![b'a', b'b', b0]);
        for b1 in 0..=255u8 {
            bodies.push(vec![b0, b1]);
        }
    }
    // Every lead that is not ASCII, every second byte, a telling third byte; some behind a
    // prefix that crosses the JDK's 8-byte fast path.
    for b0 in 0x80..=0xFFu8 {
        for b1 in 0..=255u8 {
            for b2 in [0x00, 0x41, 0x80, 0xBF, 0xC0, 0xED] {
                bodies.push(vec![b0, b1, b2]);
            }
            bodies.push(vec![
                b'0', b'1', b'2', b'3', b'4', b'5', b'6', b'7', b'8', b0, b1, 0x80,
            ]);
        }
    }
    // Surrogates: lone, paired, reversed, and cut short.
    for (a, b) in [
        (0xA0, 0xB0),
        (0xB0, 0xA0),
        (0xAF, 0xBF),
        (0xA0, 0xA0),
        (0xB0, 0xB0),
    ] {
        for c in [0x80, 0xBF] {
            let pair = [0xED, a, c, 0xED, b, c];
            bodies.push(pair.to_vec());
            for cut in 1..6 {
                bodies.push(pair[..cut].to_vec());
            }
        }
    }
    let mut rng = Rng::new(0x6d75_7466_386a_646b);
    for k in 0..ctx.scale(60_000, 10_000) {
        let mut body = soup(&mut rng, if k % 100 == 0 { 3000 } else { 40 });
        body.truncate(0xFFFF);
        bodies.push(body);
    }
    bodies
}

/// The strings sent to `writeUTF` and `writeObject`.
fn jdk_strings(ctx: &Ctx) -> Vec<Vec<u16>> {
    let mut strings: Vec<Vec<u16>> = (0..=0xFFFF_u16).map(|u| vec![0x41, u, 0x42]).collect();
    let mut rng = Rng::new(0x6d75_7466_386a_6477);
    for _ in 0..ctx.scale(20_000, 3_000) {
        strings.push(random_units(&mut rng, 60));
    }
    // Around writeUTF's 65535-byte limit, and over it (where ObjectOutputStream switches to
    // the long form).
    strings.push(vec![0x20AC; 21_845]);
    strings.push(vec![0x20AC; 21_846]);
    strings.push(vec![0; 32_767]);
    strings.push(vec![0; 32_768]);
    strings.push([0x41].repeat(65_535));
    strings.push([0xD83D, 0xDE00].repeat(11_000));
    strings
}

fn jdk_parity(ctx: &mut Ctx, java: &crate::verify::Java) {
    let bodies = jdk_bodies(ctx);
    let strings = jdk_strings(ctx);
    let mut request = Vec::new();
    for body in &bodies {
        request.push(b'D');
        request.extend((body.len() as u32).to_be_bytes());
        request.extend_from_slice(body);
    }
    for op in [b'E', b'L'] {
        for units in &strings {
            request.push(op);
            request.extend((units.len() as u32).to_be_bytes());
            request.extend(units.iter().flat_map(|u| u.to_be_bytes()));
        }
    }
    let reply_bytes = match java.run("Mutf8Parity.java", &[], &request) {
        Ok(out) => out,
        Err(err) => {
            let mut check = ctx.check("jdk readUTF/writeUTF parity", 1);
            check.fail("", format!("the JDK program failed: {err}"));
            return;
        }
    };
    let mut out = reply_bytes.as_slice();

    let mut check = ctx.check(
        "jdk readUTF = decode_to_utf16, decode",
        bodies.len() as u64 * 2,
    );
    for body in &bodies {
        let jdk = match parse_read_reply(&mut out) {
            Some(jdk) => jdk,
            None => {
                check.fail(body.as_slice(), "the JDK's reply is cut short".to_owned());
                return;
            }
        };
        check.case_in("readUTF", body.as_slice(), &jdk, &ReadOutcome::ours(body));
        // decode (a str) says the same where it can: the JDK's chars, the JDK's error, or
        // UnpairedSurrogate when the chars hold a lone surrogate.
        let expected_str = match &jdk {
            ReadOutcome::Chars(chars) => {
                String::from_utf16(chars).map_err(|_| "unpaired".to_owned())
            }
            other => Err(format!("{other:?}")),
        };
        let ours_str = match decode(body) {
            Ok(text) => Ok(text.into_owned()),
            Err(err) if err.kind() == DecodeErrorKind::UnpairedSurrogate => {
                Err("unpaired".to_owned())
            }
            Err(_) => Err(format!("{:?}", ReadOutcome::ours(body))),
        };
        check.case_in("decode", body.as_slice(), expected_str, ours_str);
    }
    drop(check);

    let mut check = ctx.check(
        "jdk writeUTF = encode_from_utf16, write_utf, write_utf16",
        strings.len() as u64 * 3,
    );
    let mut replies = Vec::with_capacity(strings.len());
    for units in &strings {
        let Some(jdk) = parse_write_reply(&mut out) else {
            check.fail(&units[..], "the JDK's reply is cut short".to_owned());
            return;
        };
        replies.push(jdk);
    }
    for (units, jdk) in strings.iter().zip(&replies) {
        let body = encode_from_utf16(units);
        let ours: WriteOutcome = if body.len() > 0xFFFF {
            Err("too long".to_owned())
        } else {
            Ok(body)
        };
        let jdk_norm = jdk.clone().map_err(|m| {
            if m.contains("too long") {
                "too long".to_owned()
            } else {
                m
            }
        });
        check.case_in("writeUTF", &units[..], &jdk_norm, &ours);
        // write_utf16 on the same chars, lone surrogates included: the body after the length.
        let mut wire = Vec::new();
        let ours = match write_utf16(&mut wire, units) {
            Ok(()) => Ok(wire[2..].to_vec()),
            Err(err) if err.kind() == std::io::ErrorKind::InvalidInput => {
                Err("too long".to_owned())
            }
            Err(err) => Err(err.to_string()),
        };
        check.case_in("write_utf16", &units[..], &jdk_norm, &ours);
        // write_utf on the same text (where it is a valid string): the length field and body.
        if let Ok(text) = String::from_utf16(units) {
            let mut wire = Vec::new();
            let ours = match write_utf(&mut wire, &text) {
                Ok(()) => Ok(wire[2..].to_vec()),
                Err(err) if err.kind() == std::io::ErrorKind::InvalidInput => {
                    Err("too long".to_owned())
                }
                Err(err) => Err(err.to_string()),
            };
            check.case_in("write_utf", &units[..], &jdk_norm, &ours);
        } else {
            check.pass();
        }
    }
    drop(check);

    let mut check = ctx.check(
        "jdk writeObject(String) body = write_long_utf",
        strings.len() as u64,
    );
    for units in &strings {
        let Some(jdk) = parse_write_reply(&mut out) else {
            check.fail(&units[..], "the JDK's reply is cut short".to_owned());
            return;
        };
        let body = encode_from_utf16(units);
        check.case_in("writeObject", &units[..], jdk, Ok(body.clone()));
        if let Ok(text) = String::from_utf16(units) {
            let mut wire = Vec::new();
            let written = write_long_utf(&mut wire, &text).map(|()| wire[8..].to_vec());
            check.case_in(
                "write_long_utf",
                &units[..],
                Ok(body),
                written.map_err(|e| e.to_string()),
            );
        }
    }
    if !out.is_empty() {
        check.fail("", format!("{} bytes of unexpected JDK output", out.len()));
    }
}

fn parse_read_reply(out: &mut &[u8]) -> Option<ReadOutcome> {
    let (&tag, rest) = out.split_first()?;
    let n = u32::from_be_bytes(rest.get(..4)?.try_into().ok()?) as usize;
    let rest = &rest[4..];
    match tag {
        b'O' => {
            let chars = rest.get(..2 * n)?;
            *out = &rest[2 * n..];
            Some(ReadOutcome::Chars(
                chars
                    .chunks_exact(2)
                    .map(|c| u16::from_be_bytes([c[0], c[1]]))
                    .collect(),
            ))
        }
        b'X' => {
            let message = rest.get(..n)?;
            *out = &rest[n..];
            Some(ReadOutcome::from_jdk_message(&String::from_utf8_lossy(
                message,
            )))
        }
        _ => None,
    }
}

fn parse_write_reply(out: &mut &[u8]) -> Option<WriteOutcome> {
    let (tag, payload) = reply(out)?;
    match tag {
        b'O' => Some(Ok(payload.to_vec())),
        b'X' => Some(Err(String::from_utf8_lossy(payload).into_owned())),
        _ => None,
    }
}
