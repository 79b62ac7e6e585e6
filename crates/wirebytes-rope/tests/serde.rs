//! `ByteString` through serde (feature `serde`): one byte string whatever the fragments,
//! written as a `Vec<u8>` of the same content is, and read back equal, in JSON and postcard.
#![cfg(feature = "serde")]

use bytes::Bytes;
use rstest::rstest;
use wirebytes_rope::ByteString;
use wirebytes_testkit::{Rng, fragments};

/// `content` as a string of the fragments `split` gives.
fn fragmented(rng: &mut Rng, content: &[u8]) -> ByteString {
    fragments::split(rng, content, 6)
        .into_iter()
        .map(Bytes::copy_from_slice)
        .collect()
}

#[test]
fn round_trips_in_json_and_postcard_whatever_the_fragments() {
    let mut rng = Rng::new(0x5E_4DE);
    for round in 0..wirebytes_testkit::scale_miri(300, 300, 10) {
        let len = [0, 1, 7, 64, 300, 5000][round % 6];
        let content = rng.bytes(len);
        let s = fragmented(&mut rng, &content);

        let json = serde_json::to_string(&s).unwrap();
        assert_eq!(json, serde_json::to_string(&content).unwrap());
        let back: ByteString = serde_json::from_str(&json).unwrap();
        assert_eq!(back, content);

        let wire = postcard::to_allocvec(&s).unwrap();
        assert_eq!(wire, postcard::to_allocvec(&content).unwrap());
        let back: ByteString = postcard::from_bytes(&wire).unwrap();
        assert_eq!(back, content);
        assert_eq!(back.fragment_count().min(1), usize::from(len > 0));
    }
}

/// Inside a structure, beside other fields.
#[test]
fn a_field_of_a_struct() {
    #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
    struct Message {
        id: u32,
        body: ByteString,
        tail: Vec<ByteString>,
    }
    let message = Message {
        id: 7,
        body: ByteString::from_static(b"he").concat(&ByteString::from_static(b"llo")),
        tail: vec![ByteString::new(), ByteString::from_static(b"\x00\xff")],
    };
    let json = serde_json::to_string(&message).unwrap();
    assert_eq!(
        json,
        r#"{"id":7,"body":[104,101,108,108,111],"tail":[[],[0,255]]}"#
    );
    assert_eq!(serde_json::from_str::<Message>(&json).unwrap(), message);
    let wire = postcard::to_allocvec(&message).unwrap();
    assert_eq!(wire, b"\x07\x05hello\x02\x00\x02\x00\xff");
    assert_eq!(postcard::from_bytes::<Message>(&wire).unwrap(), message);
}

/// A JSON string is taken as its UTF-8 bytes, as `bytes::Bytes` takes it.
#[test]
fn a_json_string_is_its_bytes() {
    let s: ByteString = serde_json::from_str(r#""é\u0000""#).unwrap();
    assert_eq!(s, "é\0".as_bytes());
}

#[rstest]
#[case::not_a_byte("[1,256]")]
#[case::negative("[-1]")]
#[case::not_a_number("[\"a\"]")]
#[case::an_object("{}")]
#[case::a_number("5")]
#[case::cut("[1,2")]
fn bad_json_is_an_error(#[case] json: &str) {
    assert!(serde_json::from_str::<ByteString>(json).is_err(), "{json}");
}

/// A postcard length beyond the input, or cut short: an error, not a panic or a huge
/// allocation.
#[rstest]
#[case::length_beyond(b"\x05abc")]
#[case::huge_length(b"\xff\xff\xff\xff\x0fabc")]
#[case::empty(b"")]
fn bad_postcard_is_an_error(#[case] wire: &[u8]) {
    assert!(postcard::from_bytes::<ByteString>(wire).is_err());
}
