//! What the codec allocates: nothing to measure or borrow; one buffer to rewrite.

#[cfg(feature = "std")]
use wirebytes_testkit::alloc::largest_allocation;
use wirebytes_testkit::alloc::{CountingAlloc, allocations};

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc;

/// A length field far above what the stream or buffer holds allocates about what is there,
/// not the length.
#[test]
fn a_length_above_the_input_does_not_allocate_it() {
    #[cfg(feature = "std")]
    {
        use std::io::ErrorKind;
        let short: &[u8] = b"\xff\xffonly a few bytes";
        let largest = largest_allocation(|| {
            let err = wirebytes_mutf8::read_utf(&mut &short[..]).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::UnexpectedEof);
        });
        assert!(largest <= 4096, "read_utf allocated {largest} bytes");
        let largest = largest_allocation(|| {
            let err = wirebytes_mutf8::read_utf16(&mut &short[..]).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::UnexpectedEof);
        });
        assert!(largest <= 4096, "read_utf16 allocated {largest} bytes");
        // 1 TiB announced (the most a 32-bit target can address, there), 100 KB there: the
        // buffer grows with what arrives.
        let announced = (1u64 << 40).min(usize::MAX as u64);
        let mut long = announced.to_be_bytes().to_vec();
        long.extend(std::iter::repeat_n(b'a', 100_000));
        let largest = largest_allocation(|| {
            let err = wirebytes_mutf8::read_long_utf(&mut long.as_slice(), u64::MAX).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::UnexpectedEof);
        });
        assert!(
            largest <= 2 * 131_072,
            "read_long_utf allocated {largest} bytes"
        );
        // A length no `usize` holds is refused before anything is read or allocated.
        if usize::BITS < 64 {
            let mut huge = (1u64 << 40).to_be_bytes().to_vec();
            huge.extend_from_slice(b"abc");
            let largest = largest_allocation(|| {
                let err =
                    wirebytes_mutf8::read_long_utf(&mut huge.as_slice(), u64::MAX).unwrap_err();
                assert_eq!(err.kind(), ErrorKind::OutOfMemory);
            });
            assert!(largest <= 4096, "read_long_utf allocated {largest} bytes");
        }
    }
    #[cfg(feature = "bytes")]
    {
        let mut buf: &[u8] = b"\x00\x00\x01\x00\x00\x00\x00\x00abc";
        assert_eq!(
            allocations(|| wirebytes_mutf8::get_long_utf(&mut buf, u64::MAX)),
            0
        );
        assert_eq!(
            allocations(|| wirebytes_mutf8::get_utf16(&mut &b"\xff\xffabc"[..])),
            0
        );
    }
}

#[test]
fn measuring_and_borrowing_allocate_nothing() {
    let text = "plain ascii, then \u{e9}\u{20ac} and \0 and \u{1F600}".repeat(100);
    let plain = "plain \u{e9}\u{20ac} text".repeat(100);
    assert_eq!(allocations(|| wirebytes_mutf8::encoded_len(&text)), 0);
    assert_eq!(allocations(|| wirebytes_mutf8::encode(&plain)), 0);
    assert_eq!(
        allocations(|| wirebytes_mutf8::decode(plain.as_bytes()).map(|t| t.len())),
        0
    );
    assert_eq!(
        allocations(|| wirebytes_mutf8::decode(&[b'a'; 16]).map(|t| t.len())),
        0
    );
}

/// The no-allocation forms: `validate` never allocates; `decode_to_string` and `encode_to_vec`
/// allocate nothing once the buffer they append to has room.
#[test]
fn the_no_allocation_forms_allocate_nothing() {
    let text = "mostly ascii \0 with \u{1F600} and \u{e9} here and there ".repeat(100);
    let body = wirebytes_mutf8::encode(&text).into_owned();
    let lone = [&body[..], b"\xed\xa0\x80 lone"].concat();
    assert_eq!(allocations(|| wirebytes_mutf8::validate(&body)), 0);
    assert_eq!(allocations(|| wirebytes_mutf8::validate(&lone)), 0);
    assert_eq!(
        allocations(|| wirebytes_mutf8::validate(text.as_bytes())),
        0
    );

    let mut dst = String::with_capacity(body.len() + 1);
    assert_eq!(
        allocations(|| wirebytes_mutf8::decode_to_string(&body, &mut dst)),
        0
    );
    assert_eq!(dst, text);
    for short in [
        &b"short"[..],
        b"\xc0\x80",
        b"pair \xed\xa0\xbd\xed\xb8\x80",
        b"caf\xc3\xa9",
    ] {
        dst.clear();
        assert_eq!(
            allocations(|| wirebytes_mutf8::decode_to_string(short, &mut dst)),
            0
        );
    }

    let mut chars = Vec::with_capacity(body.len());
    assert_eq!(
        allocations(|| wirebytes_mutf8::decode_to_utf16_vec(&body, &mut chars)),
        0
    );
    assert_eq!(chars, text.encode_utf16().collect::<Vec<u16>>());

    let mut out = Vec::with_capacity(body.len());
    assert_eq!(
        allocations(|| wirebytes_mutf8::encode_to_vec(&text, &mut out)),
        0
    );
    assert_eq!(out, body);
}

/// `encode_cstring` allocates its C string once, exactly as long as it is.
#[test]
#[cfg(feature = "std")]
fn encode_cstring_allocates_once_and_exactly() {
    for text in ["java/lang/String", "nul \0 and \u{1F600}", ""] {
        assert_eq!(
            allocations(|| wirebytes_mutf8::encode_cstring(text)),
            1,
            "{text:?}"
        );
        let largest = largest_allocation(|| wirebytes_mutf8::encode_cstring(text));
        assert_eq!(largest, wirebytes_mutf8::encoded_len(text) + 1, "{text:?}");
    }
}

#[test]
fn rewriting_allocates_one_buffer() {
    let text = "mostly ascii \0 with \u{1F600} here and there ".repeat(100);
    let body = wirebytes_mutf8::encode(&text).into_owned();
    assert_eq!(allocations(|| wirebytes_mutf8::encode(&text)), 1);
    assert_eq!(allocations(|| wirebytes_mutf8::decode(&body)), 1);
    assert_eq!(allocations(|| wirebytes_mutf8::decode_to_utf16(&body)), 1);
    let units: Vec<u16> = text.encode_utf16().collect();
    assert_eq!(
        allocations(|| wirebytes_mutf8::encode_from_utf16(&units)),
        1
    );
}

/// The codecs reserve a record's room at once: writing one into an empty buffer is one
/// allocation, and decoding one `String` (or `Vec<u16>`) out of a buffer that holds it is one
/// more; a decoder waiting for the rest reserves its room once.
#[cfg(feature = "tokio-util")]
#[test]
fn a_codec_reserves_a_record_at_once() {
    use bytes::BytesMut;
    use tokio_util::codec::{Decoder, Encoder};
    use wirebytes_mutf8::{Utf16Codec, UtfCodec};

    let text = "héllo \0 wörld ".repeat(100);
    let units: Vec<u16> = text.encode_utf16().collect();
    let mut wire = BytesMut::new();
    assert_eq!(
        allocations(|| UtfCodec::new().encode(&text, &mut wire).unwrap()),
        1
    );
    let mut wire16 = BytesMut::new();
    assert_eq!(
        allocations(|| Utf16Codec::new().encode(&units, &mut wire16).unwrap()),
        1
    );
    assert_eq!(wire, wire16);
    assert_eq!(
        allocations(|| assert!(UtfCodec::new().decode(&mut wire).unwrap().is_some())),
        1
    );
    assert_eq!(
        allocations(|| assert!(Utf16Codec::new().decode(&mut wire16).unwrap().is_some())),
        1
    );

    let mut arriving = BytesMut::from(&b"\x10\x00abc"[..]);
    let mut codec = UtfCodec::new();
    assert_eq!(allocations(|| codec.decode(&mut arriving).unwrap()), 1);
    assert!(arriving.capacity() >= 0x1002);
    assert_eq!(allocations(|| codec.decode(&mut arriving).unwrap()), 0);
}
