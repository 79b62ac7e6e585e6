//! `UtfCodec` and `Utf16Codec` against the reference: streams of records arriving in pieces
//! of every size, bad bodies among them, lengths at and over the maximum, streams cut short.
#![cfg(feature = "tokio-util")]

use std::io::{self, ErrorKind};

use bytes::BytesMut;
use rstest::rstest;
use tokio_util::codec::{Decoder, Encoder};
use wirebytes_mutf8::{
    DecodeError, GetUtfError, LengthError, MAX_UTF_LEN, Utf16Codec, UtfCodec, reference,
};
use wirebytes_testkit::{Rng, mutf8, text};

fn inner<E: std::error::Error + 'static>(err: &io::Error) -> &E {
    err.get_ref()
        .and_then(|e| e.downcast_ref::<E>())
        .expect("the io::Error wraps the crate's error")
}

/// `bodies` as records, one stream.
fn records(bodies: &[Vec<u8>]) -> Vec<u8> {
    let mut wire = Vec::new();
    for body in bodies {
        wire.extend_from_slice(&(body.len() as u16).to_be_bytes());
        wire.extend_from_slice(body);
    }
    wire
}

/// Feeds `wire` to `codec` in pieces of random sizes (1 to `max_piece` bytes), decoding after
/// each piece as `FramedRead` does, and going on after an error; then ends the input. Returns
/// every outcome in order, errors as the `DecodeError` inside.
fn decode_in_pieces<C: Decoder<Error = io::Error>>(
    codec: &mut C,
    wire: &[u8],
    rng: &mut Rng,
    max_piece: usize,
) -> Vec<Result<C::Item, DecodeError>> {
    let mut out = Vec::new();
    let mut buf = BytesMut::new();
    let mut at = 0;
    while at < wire.len() {
        let piece = (1 + rng.below(max_piece)).min(wire.len() - at);
        buf.extend_from_slice(&wire[at..at + piece]);
        at += piece;
        loop {
            let before = buf.len();
            match codec.decode(&mut buf) {
                Ok(Some(item)) => out.push(Ok(item)),
                Ok(None) => break,
                Err(err) => out.push(Err(*inner::<DecodeError>(&err))),
            }
            assert!(
                buf.len() < before,
                "a decoded or refused record is consumed"
            );
        }
    }
    assert!(
        codec.decode_eof(&mut buf).expect("whole records").is_none(),
        "everything was decoded before the end"
    );
    assert!(buf.is_empty());
    out
}

/// Random bodies, about one in eight with a rejected piece, others with NULs, overlong forms,
/// pairs and lone surrogates.
fn random_bodies(rng: &mut Rng, count: usize) -> Vec<Vec<u8>> {
    (0..count)
        .map(|_| {
            let max = if rng.one_in(10) { 300 } else { 12 };
            mutf8::body(rng, mutf8::ACCEPTED, max, 40)
        })
        .collect()
}

#[test]
fn records_in_pieces_decode_as_the_reference() {
    let mut rng = Rng::new(0xC0_DEC);
    for round in 0..wirebytes_testkit::scale_miri(60, 60, 2) {
        let bodies = random_bodies(&mut rng, 40);
        let wire = records(&bodies);
        let max_piece = [1, 3, 17, 200, 5000][round % 5];

        let want: Vec<_> = bodies.iter().map(|b| reference::decode(b)).collect();
        let got = decode_in_pieces(&mut UtfCodec::new(), &wire, &mut rng, max_piece);
        assert_eq!(got, want, "pieces of up to {max_piece}");

        let want: Vec<_> = bodies
            .iter()
            .map(|b| reference::decode_to_utf16(b))
            .collect();
        let got = decode_in_pieces(&mut Utf16Codec::new(), &wire, &mut rng, max_piece);
        assert_eq!(got, want, "pieces of up to {max_piece}");
    }
}

#[test]
fn records_encode_as_the_reference() {
    let mut rng = Rng::new(0xE4C0DE);
    let mut wire = BytesMut::new();
    let mut want = Vec::new();
    for _ in 0..wirebytes_testkit::scale_miri(500, 500, 20) {
        let text = text::random_text(&mut rng, 6).replace('x', "\0");
        UtfCodec::new().encode(&text, &mut wire).unwrap();
        want.push(reference::encode(&text));

        let units = text::random_units(&mut rng, 40);
        Utf16Codec::new().encode(&units, &mut wire).unwrap();
        want.push(reference::encode_from_utf16(&units));
    }
    assert_eq!(&wire[..], records(&want));
}

/// A `String` and a `Vec<u16>` are taken as they are, as are `&str` and `&[u16]`.
#[test]
fn owned_items_encode_too() {
    let mut wire = BytesMut::new();
    UtfCodec::new()
        .encode(String::from("a\0"), &mut wire)
        .unwrap();
    Utf16Codec::new()
        .encode(vec![0xDC00u16], &mut wire)
        .unwrap();
    assert_eq!(&wire[..], b"\x00\x03a\xc0\x80\x00\x03\xed\xb0\x80");
}

/// A body of exactly the maximum is read and written; one byte more is refused both ways,
/// with the lengths in the error, nothing consumed and nothing written.
#[rstest]
#[case::small(10)]
#[case::zero(0)]
#[case::largest(MAX_UTF_LEN)]
fn the_maximum_is_a_body_length(#[case] max: usize) {
    let at_max = "é".repeat(max / 2) + &"a".repeat(max % 2);
    let over = format!("{at_max}b");
    let mut codec = UtfCodec::with_max_len(max);
    assert_eq!(codec.max_len(), max);

    let mut wire = BytesMut::new();
    codec.encode(&at_max, &mut wire).unwrap();
    assert_eq!(wire.len(), 2 + max);
    assert_eq!(codec.decode(&mut wire).unwrap(), Some(at_max));

    let err = codec.encode(&over, &mut wire).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidInput);
    let refused = inner::<LengthError>(&err);
    assert_eq!(
        (refused.length(), refused.limit()),
        (max as u64 + 1, max as u64)
    );
    assert!(wire.is_empty(), "nothing written");

    if max < MAX_UTF_LEN {
        let mut wire = BytesMut::from(&((max + 1) as u16).to_be_bytes()[..]);
        for mut codec in [codec, UtfCodec::with_max_len(max)] {
            let err = codec.decode(&mut wire).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::InvalidData);
            assert_eq!(inner::<LengthError>(&err).length(), max as u64 + 1);
            assert_eq!(wire.len(), 2, "nothing consumed");
        }
        let units: Vec<u16> = over.encode_utf16().collect();
        let err = Utf16Codec::with_max_len(max)
            .encode(&units, &mut BytesMut::new())
            .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidInput);
        let err = Utf16Codec::with_max_len(max).decode(&mut wire).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidData);
    }
}

#[test]
fn a_maximum_above_the_field_is_the_field() {
    assert_eq!(UtfCodec::with_max_len(usize::MAX).max_len(), MAX_UTF_LEN);
    assert_eq!(Utf16Codec::with_max_len(70_000).max_len(), MAX_UTF_LEN);
    assert_eq!(UtfCodec::default(), UtfCodec::new());
    assert_eq!(Utf16Codec::default().max_len(), MAX_UTF_LEN);
    let mut wire = BytesMut::new();
    let err = UtfCodec::new()
        .encode("€".repeat(21_846), &mut wire)
        .unwrap_err();
    assert_eq!(inner::<LengthError>(&err).length(), 65_538);
    assert!(wire.is_empty());
}

/// Input that ends inside a record: `UnexpectedEof` with the record's length, as `read_utf`
/// reports it; before the end, the bytes are kept and room is reserved for the rest.
#[rstest]
#[case::half_a_field(b"\x00", 2)]
#[case::field_only(b"\x00\x05", 7)]
#[case::part_of_the_body(b"\x01\x00abc", 258)]
fn a_stream_cut_short(#[case] wire: &[u8], #[case] needed: u64) {
    let mut buf = BytesMut::from(wire);
    assert_eq!(UtfCodec::new().decode(&mut buf).unwrap(), None);
    assert_eq!(&buf[..], wire, "kept");
    assert!(buf.capacity() as u64 >= needed, "room for the record");
    for err in [
        UtfCodec::new().decode_eof(&mut buf).unwrap_err(),
        Utf16Codec::new().decode_eof(&mut buf).unwrap_err(),
    ] {
        assert_eq!(err.kind(), ErrorKind::UnexpectedEof);
        assert_eq!(
            *inner::<GetUtfError>(&err),
            GetUtfError::Incomplete { needed }
        );
    }
}

/// A lone surrogate: an error for the `String` codec (the record consumed, the next one read),
/// the char itself for the UTF-16 codec.
#[test]
fn a_lone_surrogate_is_for_the_utf16_codec() {
    let wire = records(&[b"a\xed\xa0\x80".to_vec(), b"next".to_vec()]);
    let mut buf = BytesMut::from(&wire[..]);
    let mut codec = UtfCodec::new();
    let err = codec.decode(&mut buf).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidData);
    assert_eq!(inner::<DecodeError>(&err).valid_up_to(), 1);
    assert_eq!(codec.decode(&mut buf).unwrap().as_deref(), Some("next"));

    let mut buf = BytesMut::from(&wire[..]);
    assert_eq!(
        Utf16Codec::new().decode(&mut buf).unwrap(),
        Some(vec![0x61, 0xD800])
    );
}
