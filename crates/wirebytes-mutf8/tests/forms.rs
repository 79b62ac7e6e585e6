//! The output forms of the encoders, for the three rules (`readUTF`, class file, CESU-8),
//! from text and from UTF-16, against the reference: `_to_vec` after what the `Vec` held,
//! `_to_slice` at every length (too short: `None`, nothing written past the slice),
//! `_to_buf` into buffers of every chunk width and into one without room, the lengths and
//! the bound.

use std::borrow::Cow;

use proptest::prelude::*;
use rstest::rstest;
use wirebytes_mutf8::{cesu8, class_file, reference};

/// The sentinel past the slice the `_to_slice` forms are given.
const SENTINEL: [u8; 8] = [0xA5; 8];

/// `encode_to_slice`-like `f` tried into `want.len() + 2` slices of every length from 0: the
/// bytes when the slice holds them, else `None`; never a byte written past the slice, never
/// a panic.
fn assert_slice_form(what: &str, want: &[u8], f: impl Fn(&mut [u8]) -> Option<usize>) {
    for len in 0..=want.len() + 2 {
        let mut buf = vec![0x5A; len];
        buf.extend_from_slice(&SENTINEL);
        let got = f(&mut buf[..len]);
        assert_eq!(&buf[len..], SENTINEL, "{what}: past a slice of {len}");
        if len < want.len() {
            assert_eq!(got, None, "{what}: a slice of {len} for {}", want.len());
        } else {
            assert_eq!(got, Some(want.len()), "{what}: a slice of {len}");
            assert_eq!(&buf[..want.len()], want, "{what}: a slice of {len}");
            assert!(
                buf[want.len()..len].iter().all(|&b| b == 0x5A),
                "{what}: wrote past its output"
            );
        }
    }
}

/// Every form of the encoders of one rule, on `text`, against `want` (the reference's bytes).
fn assert_str_forms(rule: &str, text: &str, want: &[u8], forms: &StrForms) {
    let what = format!("{rule} {text:?}");
    let encoded = (forms.encode)(text);
    assert_eq!(&*encoded, want, "{what}: encode");
    // Borrowed exactly when the bytes are the text's own.
    assert_eq!(
        matches!(encoded, Cow::Borrowed(_)),
        want == text.as_bytes(),
        "{what}: borrows"
    );
    assert_eq!((forms.len)(text), want.len(), "{what}: encoded_len");
    assert!(
        (forms.max_len)(text.len()) >= want.len(),
        "{what}: max_encoded_len"
    );
    for head in [&b""[..], b"head \xc3\xa9"] {
        let mut dst = head.to_vec();
        (forms.to_vec)(text, &mut dst);
        assert_eq!(dst, [head, want].concat(), "{what}: encode_to_vec");
    }
    assert_slice_form(&format!("{what}: encode_to_slice"), want, |dst| {
        (forms.to_slice)(text, dst)
    });
    // A slice of the bound's length always fits.
    let mut bound = vec![0; (forms.max_len)(text.len())];
    assert_eq!(
        (forms.to_slice)(text, &mut bound),
        Some(want.len()),
        "{what}"
    );
    #[cfg(feature = "bytes")]
    buf_forms::assert_to_buf(&what, want, |dst| (forms.to_buf)(text, dst));
}

/// The encoders of one rule from a `str`.
struct StrForms {
    encode: fn(&str) -> Cow<'_, [u8]>,
    to_vec: fn(&str, &mut Vec<u8>),
    to_slice: fn(&str, &mut [u8]) -> Option<usize>,
    #[cfg(feature = "bytes")]
    to_buf: fn(&str, &mut dyn bytes::BufMut),
    len: fn(&str) -> usize,
    max_len: fn(usize) -> usize,
}

const MUTF8: StrForms = StrForms {
    encode: wirebytes_mutf8::encode,
    to_vec: wirebytes_mutf8::encode_to_vec,
    to_slice: wirebytes_mutf8::encode_to_slice,
    #[cfg(feature = "bytes")]
    to_buf: |text, dst| wirebytes_mutf8::encode_to_buf(text, dst),
    len: wirebytes_mutf8::encoded_len,
    max_len: wirebytes_mutf8::max_encoded_len,
};

const CESU8: StrForms = StrForms {
    encode: cesu8::encode,
    to_vec: cesu8::encode_to_vec,
    to_slice: cesu8::encode_to_slice,
    #[cfg(feature = "bytes")]
    to_buf: |text, dst| cesu8::encode_to_buf(text, dst),
    len: cesu8::encoded_len,
    max_len: cesu8::max_encoded_len,
};

/// The encoders of both rules, and the class-file form (`writeUTF`'s bytes), on `text`.
fn assert_text(text: &str) {
    let want = reference::encode(text);
    assert_str_forms("mutf8", text, &want, &MUTF8);
    assert_eq!(&*class_file::encode(text), &want[..], "class file {text:?}");
    assert_str_forms("cesu8", text, &reference::cesu8_encode(text), &CESU8);
    // The UTF-16 forms of the same text.
    let units: Vec<u16> = text.encode_utf16().collect();
    assert_units(&units);
}

/// The UTF-16 encoders of both rules on `units`, against the reference.
fn assert_units(units: &[u16]) {
    let want = reference::encode_from_utf16(units);
    let what = format!("{units:04x?}");
    assert_eq!(wirebytes_mutf8::encode_from_utf16(units), want, "{what}");
    assert_eq!(class_file::encode_from_utf16(units), want, "{what}");
    assert_eq!(
        wirebytes_mutf8::encoded_len_from_utf16(units),
        want.len(),
        "{what}"
    );
    let mut dst = b"head".to_vec();
    wirebytes_mutf8::encode_from_utf16_to_vec(units, &mut dst);
    assert_eq!(dst, [&b"head"[..], &want].concat(), "{what}");
    assert_slice_form(&format!("mutf8 from utf16 {what}"), &want, |dst| {
        wirebytes_mutf8::encode_from_utf16_to_slice(units, dst)
    });
    let mut bound = vec![0; 3 * units.len()];
    assert!(wirebytes_mutf8::encode_from_utf16_to_slice(units, &mut bound).is_some());

    let want = reference::cesu8_encode_from_utf16(units);
    assert_eq!(cesu8::encode_from_utf16(units), want, "cesu8 {what}");
    assert_eq!(
        cesu8::encoded_len_from_utf16(units),
        want.len(),
        "cesu8 {what}"
    );
    let mut dst = b"head".to_vec();
    cesu8::encode_from_utf16_to_vec(units, &mut dst);
    assert_eq!(dst, [&b"head"[..], &want].concat(), "cesu8 {what}");
    assert_slice_form(&format!("cesu8 from utf16 {what}"), &want, |dst| {
        cesu8::encode_from_utf16_to_slice(units, dst)
    });
    let mut bound = vec![0; 3 * units.len()];
    assert!(cesu8::encode_from_utf16_to_slice(units, &mut bound).is_some());
}

#[rstest]
#[case::empty("")]
#[case::ascii("plain ascii, 0123456789")]
#[case::nul("\0")]
#[case::nuls("\0\0\0\0")]
#[case::nul_inside("ab\0cd")]
#[case::two_byte("caf\u{e9} \u{436}")]
#[case::three_byte("\u{20ac}\u{4e2d}\u{ffff}")]
#[case::supplementary("\u{1F600}")]
#[case::supplementary_inside("a\u{1F600}b\u{10000}c\u{10FFFF}")]
#[case::everything("a\0\u{e9}\u{20ac}\u{1F600}z")]
#[case::long_with_nul_at_the_end(&("x".repeat(70) + "\0"))]
#[case::long_with_supplementary_at_the_end(&("x".repeat(70) + "\u{1F600}"))]
#[case::mixed_long(&"nul \0 and \u{1F600}, \u{e9}\u{20ac}; ".repeat(20))]
fn every_form_on_text(#[case] text: &str) {
    assert_text(text);
}

#[rstest]
#[case::lone_high(&[0xD800])]
#[case::lone_low(&[0xDC00])]
#[case::reversed(&[0xDC00, 0xD800])]
#[case::high_then_ascii(&[0xD83D, 0x61, 0xDE00])]
#[case::pair_then_lone(&[0xD83D, 0xDE00, 0xDBFF])]
#[case::nul_and_lone(&[0, 0xDFFF, 0])]
#[case::every_width(&[0x41, 0x7F, 0x80, 0x7FF, 0x800, 0xFFFF, 0])]
fn every_form_on_utf16(#[case] units: &[u16]) {
    assert_units(units);
}

/// Every UTF-16 unit between ASCII, and after 70 units of ASCII.
#[test]
fn every_unit_encodes_as_the_reference() {
    for unit in (0..=0xFFFF_u16).step_by(wirebytes_testkit::scale_miri(1, 1, 997)) {
        assert_units(&[u16::from(b'a'), unit, u16::from(b'z')]);
    }
}

/// The bound holds and saturates.
#[test]
fn the_bounds_saturate() {
    for len in [
        0,
        1,
        2,
        3,
        1 << 20,
        usize::MAX / 2,
        usize::MAX / 2 + 1,
        usize::MAX,
    ] {
        // In 128 bits, where nothing overflows, then cut to `usize::MAX`.
        let wide = len as u128;
        let cut = |n: u128| usize::try_from(n).unwrap_or(usize::MAX);
        assert_eq!(wirebytes_mutf8::max_encoded_len(len), cut(2 * wide));
        assert_eq!(cesu8::max_encoded_len(len), cut(wide + wide / 2));
    }
}

#[cfg(feature = "bytes")]
mod buf_forms {
    use std::mem::MaybeUninit;

    use bytes::buf::UninitSlice;
    use bytes::{BufMut, BytesMut};
    use wirebytes_testkit::buf::OneByteRoom;

    /// A `BufMut` that offers chunks of the widths of `widths` in turn (each at least 1),
    /// and grows.
    #[derive(Debug)]
    pub(super) struct NarrowRoom {
        bytes: Vec<u8>,
        widths: Vec<usize>,
        next: usize,
        room: Vec<MaybeUninit<u8>>,
    }

    impl NarrowRoom {
        pub(super) fn new(widths: &[usize]) -> Self {
            let mut room = NarrowRoom {
                bytes: Vec::new(),
                widths: widths.to_vec(),
                next: 0,
                room: Vec::new(),
            };
            room.offer();
            room
        }

        fn offer(&mut self) {
            let width = self.widths[self.next % self.widths.len()].max(1);
            self.next += 1;
            self.room = vec![MaybeUninit::uninit(); width];
        }

        pub(super) fn bytes(&self) -> &[u8] {
            &self.bytes
        }
    }

    // SAFETY: `chunk_mut` is the room offered; `advance_mut` copies in the first `cnt` of its
    // bytes, which the caller wrote, and offers the next; `remaining_mut` is what a `Vec`
    // may still hold.
    unsafe impl BufMut for NarrowRoom {
        fn remaining_mut(&self) -> usize {
            isize::MAX as usize - self.bytes.len()
        }

        unsafe fn advance_mut(&mut self, cnt: usize) {
            assert!(cnt <= self.room.len(), "advanced past the room offered");
            for byte in &self.room[..cnt] {
                // SAFETY: the caller wrote the first `cnt` bytes of the room before advancing.
                self.bytes.push(unsafe { byte.assume_init() });
            }
            if cnt == self.room.len() {
                self.offer();
            } else {
                self.room.drain(..cnt);
            }
        }

        fn chunk_mut(&mut self) -> &mut UninitSlice {
            UninitSlice::uninit(&mut self.room)
        }
    }

    /// `f` into buffers of every shape, after what they held; and into a buffer without room
    /// for the whole output: a panic before anything is written.
    pub(super) fn assert_to_buf(what: &str, want: &[u8], f: impl Fn(&mut dyn BufMut)) {
        let mut vec = b"head".to_vec();
        f(&mut vec);
        assert_eq!(&vec[4..], want, "{what}: into a Vec");
        let mut bytes = BytesMut::new();
        f(&mut bytes);
        assert_eq!(&bytes[..], want, "{what}: into a BytesMut");
        let mut room = OneByteRoom::with(b"head");
        f(&mut room);
        assert_eq!(
            &room.bytes()[4..],
            want,
            "{what}: one byte of room at a time"
        );
        for widths in [&[2][..], &[3], &[5], &[7, 1], &[1, 2, 3, 4, 5, 6], &[64]] {
            let mut room = NarrowRoom::new(widths);
            f(&mut room);
            assert_eq!(room.bytes(), want, "{what}: chunks of {widths:?}");
        }
        if !want.is_empty() {
            let mut short = Vec::new();
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                f(&mut (&mut short).limit(want.len() - 1));
            }));
            assert!(result.is_err(), "{what}: no panic without room");
            assert!(short.is_empty(), "{what}: written before the panic");
        }
    }
}

/// Text of every kind: ASCII, NULs, each width, supplementary chars.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        prop::collection::vec(
            prop_oneof![
                6 => prop::char::range('a', 'z'),
                2 => Just('\0'),
                1 => prop::char::range('\u{80}', '\u{7FF}'),
                1 => prop::char::range('\u{800}', '\u{FFFF}'),
                2 => prop::char::range('\u{10000}', '\u{10FFFF}'),
            ],
            0..80
        )
        .prop_map(|c| c.into_iter().collect()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(wirebytes_testkit::scale_miri(1024, 256, 2) as u32))]

    #[test]
    fn every_form_agrees_with_the_reference(text in text()) {
        assert_text(&text);
    }

    #[test]
    fn every_utf16_form_agrees_with_the_reference(units in prop::collection::vec(
        prop_oneof![3 => 0..0x80u16, 1 => any::<u16>(), 1 => 0xD800..0xE000u16],
        0..60
    )) {
        assert_units(&units);
    }
}
