//! wirebytes-mutf8's decoders at every kernel level against `reference` (the JDK's loops)
//! on the payload as a body: `decode` (and whether it borrows), `decode_lossy`,
//! `decode_to_utf16`, `decode_to_utf16_vec`, `validate`, `decode_to_string`, `take_utf` of the
//! body as a record, `class_file::{decode, validate}`, `cesu8::{decode, validate}`, and
//! `class_file::decode_to_utf16`, `cesu8::decode_to_utf16`, `decode_cstr`; and the encoders of
//! both rules on the payload as text and as UTF-16 units: `encode`, `encode_to_vec`,
//! `encode_to_slice` (at the exact length, one byte short and a length drawn from the input,
//! a sentinel past the slice), `encode_to_buf`, `encoded_len`, `max_encoded_len`,
//! `encode_from_utf16` and its `_to_vec`, `_to_slice` and `encoded_len_from_utf16`,
//! `encode_cstring`, with the round trips back.
#![no_main]

use std::borrow::Cow;

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use wirebytes_fuzz::{same, text, units};
use wirebytes_mutf8::{GetUtfError, cesu8, class_file, levels, reference};

#[derive(Arbitrary, Debug)]
struct Input<'a> {
    /// How many bytes of the body to skip (its low 6 bits), so that it starts at every offset
    /// of a block; and the slice length the `_to_slice` forms are tried at.
    skip: u8,
    /// The body, the text (as lossy UTF-8) and the UTF-16 units (two bytes each).
    payload: &'a [u8],
}

fn decoders(bytes: &[u8]) {
    let want16 = reference::decode_to_utf16(bytes);
    let want = reference::decode(bytes);
    let want_class = reference::class_file_decode(bytes);
    let want_cesu = reference::cesu8_decode(bytes);
    let want_class16 = reference::class_file_decode_to_utf16(bytes);
    let want_cesu16 = reference::cesu8_decode_to_utf16(bytes);
    same(
        "class_file::decode_to_utf16",
        &bytes,
        &want_class16,
        &class_file::decode_to_utf16(bytes),
    );
    same(
        "cesu8::decode_to_utf16",
        &bytes,
        &want_cesu16,
        &cesu8::decode_to_utf16(bytes),
    );
    let record = u16::try_from(bytes.len())
        .ok()
        .map(|len| [&len.to_be_bytes()[..], bytes].concat());
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
        same(
            &format!("class_file::validate {name}"),
            &bytes,
            want_class16.as_ref().map(drop).map_err(|e| *e),
            level.class_file_validate(bytes),
        );
        same(
            &format!("cesu8::validate {name}"),
            &bytes,
            want_cesu16.as_ref().map(drop).map_err(|e| *e),
            level.cesu8_validate(bytes),
        );
        // The body as a record: read whole, or left where it was.
        if let Some(record) = &record {
            let mut input = record.as_slice();
            let got = level.take_utf(&mut input);
            let left = if got.is_ok() { 0 } else { record.len() };
            same(
                &format!("take_utf {name}"),
                &bytes,
                (want.as_deref().map_err(|e| GetUtfError::Invalid(*e)), left),
                (got.as_deref().map_err(|e| *e), input.len()),
            );
        }

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

/// A `BufMut` that offers `width` bytes of room at a time (at least 1), and grows: every
/// piece an encoder writes may be cut by a chunk's end.
struct NarrowRoom {
    bytes: Vec<u8>,
    room: Vec<std::mem::MaybeUninit<u8>>,
}

impl NarrowRoom {
    fn new(width: usize) -> Self {
        NarrowRoom {
            bytes: Vec::new(),
            room: vec![std::mem::MaybeUninit::uninit(); width.max(1)],
        }
    }
}

// SAFETY: `chunk_mut` is the room; `advance_mut` copies in the first `cnt` bytes of it, which
// the caller wrote; `remaining_mut` is what a `Vec` may still hold.
unsafe impl bytes::BufMut for NarrowRoom {
    fn remaining_mut(&self) -> usize {
        isize::MAX as usize - self.bytes.len()
    }

    unsafe fn advance_mut(&mut self, cnt: usize) {
        assert!(cnt <= self.room.len(), "advanced past the room offered");
        for byte in &self.room[..cnt] {
            // SAFETY: the caller wrote the first `cnt` bytes of the room before advancing.
            self.bytes.push(unsafe { byte.assume_init() });
        }
    }

    fn chunk_mut(&mut self) -> &mut bytes::buf::UninitSlice {
        bytes::buf::UninitSlice::uninit(&mut self.room)
    }
}

/// A `_to_slice` form against `want`: at the exact length, one byte short and at `len`,
/// with a sentinel past the slice.
fn slice_form(
    what: &str,
    context: &dyn std::fmt::Debug,
    want: &[u8],
    len: usize,
    f: impl Fn(&mut [u8]) -> Option<usize>,
) {
    const SENTINEL: [u8; 4] = [0xA5; 4];
    let mut lens = vec![want.len(), len];
    lens.extend(want.len().checked_sub(1));
    for len in lens {
        let mut buf = vec![0u8; len];
        buf.extend_from_slice(&SENTINEL);
        let got = f(&mut buf[..len]);
        same(
            &format!("{what} past a slice of {len}"),
            context,
            &SENTINEL[..],
            &buf[len..],
        );
        let expected = (len >= want.len()).then_some(want.len());
        same(&format!("{what} into {len}"), context, expected, got);
        if got.is_some() {
            same(&format!("{what} bytes"), context, want, &buf[..want.len()]);
        }
    }
}

fn encoders(text: &str, units: &[u16], slice_len: usize) {
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
    slice_form(
        "encode_to_slice",
        &text,
        &want,
        slice_len % (want.len() + 2),
        |dst| wirebytes_mutf8::encode_to_slice(text, dst),
    );
    let mut bound = vec![0; wirebytes_mutf8::max_encoded_len(text.len())];
    same(
        "encode_to_slice, max_encoded_len",
        &text,
        Some(want.len()),
        wirebytes_mutf8::encode_to_slice(text, &mut bound),
    );
    let mut buf = bytes::BytesMut::from(&b"x"[..]);
    wirebytes_mutf8::encode_to_buf(text, &mut buf);
    same("encode_to_buf", &text, &want[..], &buf[1..]);
    let mut narrow = NarrowRoom::new(slice_len % 8);
    wirebytes_mutf8::encode_to_buf(text, &mut narrow);
    same(
        "encode_to_buf, narrow chunks",
        &text,
        &want[..],
        &narrow.bytes[..],
    );
    same(
        "decode(encode)",
        &text,
        Ok(text),
        wirebytes_mutf8::decode(&want).as_deref(),
    );
    let cstring = wirebytes_mutf8::encode_cstring(text);
    same("encode_cstring", &text, &want[..], cstring.as_bytes());

    let want16 = reference::encode_from_utf16(units);
    same(
        "encode_from_utf16",
        &units,
        &want16,
        &wirebytes_mutf8::encode_from_utf16(units),
    );
    same(
        "encoded_len_from_utf16",
        &units,
        want16.len(),
        wirebytes_mutf8::encoded_len_from_utf16(units),
    );
    let mut dst = b"x".to_vec();
    wirebytes_mutf8::encode_from_utf16_to_vec(units, &mut dst);
    same("encode_from_utf16_to_vec", &units, &want16[..], &dst[1..]);
    slice_form(
        "encode_from_utf16_to_slice",
        &units,
        &want16,
        slice_len % (want16.len() + 2),
        |dst| wirebytes_mutf8::encode_from_utf16_to_slice(units, dst),
    );
    same(
        "decode_to_utf16(encode_from_utf16)",
        &units,
        Ok(units.to_vec()),
        wirebytes_mutf8::decode_to_utf16(&want16),
    );

    let want_cesu = reference::cesu8_encode(text);
    same(
        "cesu8::encode",
        &text,
        &want_cesu[..],
        &cesu8::encode(text)[..],
    );
    same(
        "cesu8::encoded_len",
        &text,
        want_cesu.len(),
        cesu8::encoded_len(text),
    );
    let mut dst = b"x".to_vec();
    cesu8::encode_to_vec(text, &mut dst);
    same("cesu8::encode_to_vec", &text, &want_cesu[..], &dst[1..]);
    slice_form(
        "cesu8::encode_to_slice",
        &text,
        &want_cesu,
        slice_len % (want_cesu.len() + 2),
        |dst| cesu8::encode_to_slice(text, dst),
    );
    let mut bound = vec![0; cesu8::max_encoded_len(text.len())];
    same(
        "cesu8::encode_to_slice, max_encoded_len",
        &text,
        Some(want_cesu.len()),
        cesu8::encode_to_slice(text, &mut bound),
    );
    let mut narrow = NarrowRoom::new(slice_len % 8);
    cesu8::encode_to_buf(text, &mut narrow);
    same(
        "cesu8::encode_to_buf, narrow chunks",
        &text,
        &want_cesu[..],
        &narrow.bytes[..],
    );
    let want_cesu16 = reference::cesu8_encode_from_utf16(units);
    same(
        "cesu8::encode_from_utf16",
        &units,
        &want_cesu16,
        &cesu8::encode_from_utf16(units),
    );
    same(
        "cesu8::encoded_len_from_utf16",
        &units,
        want_cesu16.len(),
        cesu8::encoded_len_from_utf16(units),
    );
    let mut dst = b"x".to_vec();
    cesu8::encode_from_utf16_to_vec(units, &mut dst);
    same(
        "cesu8::encode_from_utf16_to_vec",
        &units,
        &want_cesu16[..],
        &dst[1..],
    );
    slice_form(
        "cesu8::encode_from_utf16_to_slice",
        &units,
        &want_cesu16,
        slice_len % (want_cesu16.len() + 2),
        |dst| cesu8::encode_from_utf16_to_slice(units, dst),
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
    // A slice length from the input: the payload's length spread by the skip byte.
    let slice_len = bytes.len().wrapping_mul(usize::from(input.skip) | 1);
    encoders(&text(bytes), &units(bytes), slice_len);
});
