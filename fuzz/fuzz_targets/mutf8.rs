//! wirebytes-mutf8's decoders at every kernel level against `reference` (the JDK's loops)
//! on the payload as a body: `decode` (and whether it borrows), `decode_lossy`,
//! `decode_to_utf16`, `decode_to_utf16_vec`, `validate`, `decode_to_string`, `decode_class_file`,
//! `cesu8::decode`, `decode_cstr`; and the encoders on the payload as text and as UTF-16
//! units: `encode`, `encode_to_vec`, `encoded_len`, `encode_from_utf16`, `encode_cstring`,
//! `cesu8::encode`, `cesu8::encode_from_utf16`, with the round trips back.
#![no_main]

use std::borrow::Cow;

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use wirebytes_fuzz::{same, text, units};
use wirebytes_mutf8::{cesu8, levels, reference};

#[derive(Arbitrary, Debug)]
struct Input<'a> {
    /// How many bytes of the body to skip, so that it starts at every offset of a block.
    skip: u8,
    /// The body, the text (as lossy UTF-8) and the UTF-16 units (two bytes each).
    payload: &'a [u8],
}

fn decoders(bytes: &[u8]) {
    let want16 = reference::decode_to_utf16(bytes);
    let want = reference::decode(bytes);
    let want_class = reference::class_file_decode(bytes);
    let want_cesu = reference::cesu8_decode(bytes);
    let want_lossy = reference::decode_lossy(bytes);
    // Borrowed exactly when the bytes already are the text: UTF-8 without a 4-byte sequence.
    let borrows = std::str::from_utf8(bytes).is_ok() && bytes.iter().all(|&b| b < 0xF0);

    for level in levels::all() {
        let name = level.name();
        let got = level.decode(bytes);
        same(
            &format!("decode {name}"),
            &bytes,
            want.as_deref(),
            got.as_deref(),
        );
        same(
            &format!("decode borrows {name}"),
            &bytes,
            borrows,
            matches!(got, Ok(Cow::Borrowed(_))),
        );
        same(
            &format!("validate {name}"),
            &bytes,
            want16.as_ref().map(drop).map_err(|e| *e),
            level.validate(bytes),
        );
        same(
            &format!("decode_to_utf16 {name}"),
            &bytes,
            &want16,
            &level.decode_to_utf16(bytes),
        );
        same(
            &format!("decode_lossy {name}"),
            &bytes,
            want_lossy.as_str(),
            &level.decode_lossy(bytes),
        );
        same(
            &format!("decode_class_file {name}"),
            &bytes,
            want_class.as_deref(),
            level.class_file_decode(bytes).as_deref(),
        );
        same(
            &format!("cesu8::decode {name}"),
            &bytes,
            want_cesu.as_deref(),
            level.cesu8_decode(bytes).as_deref(),
        );

        // Appended after what is there; on error, what was there unchanged.
        let mut dst = String::from("\u{e9}");
        let result = level.decode_to_string(bytes, &mut dst);
        let expected = match &want {
            Ok(text) => format!("\u{e9}{text}"),
            Err(_) => "\u{e9}".to_owned(),
        };
        same(
            &format!("decode_to_string {name}"),
            &bytes,
            (want.as_ref().map(drop).map_err(|e| *e), expected.as_str()),
            (result, dst.as_str()),
        );
        let mut dst16 = vec![0xD800u16];
        let result = level.decode_to_utf16_vec(bytes, &mut dst16);
        let mut expected16 = vec![0xD800u16];
        if let Ok(units) = &want16 {
            expected16.extend_from_slice(units);
        }
        same(
            &format!("decode_to_utf16_vec {name}"),
            &bytes,
            (want16.as_ref().map(drop).map_err(|e| *e), &expected16),
            (result, &dst16),
        );
    }

    if !bytes.contains(&0) {
        let cstring = std::ffi::CString::new(bytes).expect("no NUL");
        same(
            "decode_cstr",
            &bytes,
            want.as_deref(),
            wirebytes_mutf8::decode_cstr(&cstring).as_deref(),
        );
    }
}

fn encoders(text: &str, units: &[u16]) {
    let want = reference::encode(text);
    same(
        "encode",
        &text,
        &want[..],
        &wirebytes_mutf8::encode(text)[..],
    );
    same(
        "encoded_len",
        &text,
        want.len(),
        wirebytes_mutf8::encoded_len(text),
    );
    let mut dst = b"x".to_vec();
    wirebytes_mutf8::encode_to_vec(text, &mut dst);
    same("encode_to_vec", &text, &want[..], &dst[1..]);
    same(
        "decode(encode)",
        &text,
        Ok(text),
        wirebytes_mutf8::decode(&want).as_deref(),
    );
    let cstring = wirebytes_mutf8::encode_cstring(text);
    same("encode_cstring", &text, &want[..], cstring.as_bytes());
    same(
        "encode_from_utf16",
        &units,
        reference::encode_from_utf16(units),
        wirebytes_mutf8::encode_from_utf16(units),
    );
    same(
        "decode_to_utf16(encode_from_utf16)",
        &units,
        Ok(units.to_vec()),
        wirebytes_mutf8::decode_to_utf16(&wirebytes_mutf8::encode_from_utf16(units)),
    );

    let utf16: Vec<u16> = text.encode_utf16().collect();
    let want_cesu = reference::cesu8_encode_from_utf16(&utf16);
    same(
        "cesu8::encode",
        &text,
        &want_cesu[..],
        &cesu8::encode(text)[..],
    );
    same(
        "cesu8::encode_from_utf16",
        &units,
        reference::cesu8_encode_from_utf16(units),
        cesu8::encode_from_utf16(units),
    );
    same(
        "cesu8::decode(cesu8::encode)",
        &text,
        Ok(text),
        cesu8::decode(&want_cesu).as_deref(),
    );
}

fuzz_target!(|input: Input<'_>| {
    let skip = usize::from(input.skip % 64).min(input.payload.len());
    let bytes = &input.payload[skip..];
    decoders(bytes);
    encoders(&text(bytes), &units(bytes));
});
