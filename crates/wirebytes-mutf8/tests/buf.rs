//! Records over `bytes::Buf`/`BufMut` (the `bytes` feature), read out of buffers of every
//! shape: one chunk, one byte per chunk, every two-chunk split, empty chunks between.
#![cfg(feature = "bytes")]

use std::collections::VecDeque;
#[cfg(feature = "std")]
use std::io::IoSlice;

use bytes::{Buf, BufMut, BytesMut};
use wirebytes_mutf8::{
    DecodeErrorKind, GetUtfError, get_long_utf, get_utf, get_utf16, levels, put_long_utf, put_utf,
    put_utf16, reference,
};
use wirebytes_testkit::buf::{OneByteChunks, OneByteRoom};

/// A `Buf` made of any chunks, empty ones included; `vectored` ones show them all through
/// `chunks_vectored`, the others only through `chunk` (as `Buf`'s default does).
#[derive(Debug, Clone)]
struct Chunked {
    parts: VecDeque<Vec<u8>>,
    /// Bytes of the first part already consumed.
    offset: usize,
    vectored: bool,
}

impl Chunked {
    fn new(parts: Vec<Vec<u8>>) -> Self {
        Chunked {
            parts: parts.into(),
            offset: 0,
            vectored: true,
        }
    }

    fn one_chunk_at_a_time(mut self) -> Self {
        self.vectored = false;
        self
    }
}

impl Buf for Chunked {
    fn remaining(&self) -> usize {
        self.parts.iter().map(Vec::len).sum::<usize>() - self.offset
    }

    fn chunk(&self) -> &[u8] {
        let mut offset = self.offset;
        for part in &self.parts {
            if offset < part.len() {
                return &part[offset..];
            }
            offset = 0;
        }
        &[]
    }

    #[cfg(feature = "std")]
    fn chunks_vectored<'a>(&'a self, dst: &mut [IoSlice<'a>]) -> usize {
        if !self.vectored {
            if dst.is_empty() || !self.has_remaining() {
                return 0;
            }
            dst[0] = IoSlice::new(self.chunk());
            return 1;
        }
        let mut offset = self.offset;
        let mut n = 0;
        for part in &self.parts {
            if n == dst.len() {
                break;
            }
            if offset < part.len() {
                dst[n] = IoSlice::new(&part[offset..]);
                n += 1;
            }
            offset = 0;
        }
        n
    }

    fn advance(&mut self, mut cnt: usize) {
        while cnt > 0 {
            let front = self.parts.front().expect("advance past the end");
            let left = front.len() - self.offset;
            if cnt < left {
                self.offset += cnt;
                return;
            }
            cnt -= left;
            self.parts.pop_front();
            self.offset = 0;
        }
        while self.parts.front().is_some_and(|p| p.len() == self.offset) {
            self.parts.pop_front();
            self.offset = 0;
        }
    }
}

/// `wire` cut into buffers of every shape.
fn shapes(wire: &[u8]) -> Vec<(String, Chunked)> {
    let mut out = vec![
        ("one chunk".to_owned(), Chunked::new(vec![wire.to_vec()])),
        (
            "one byte per chunk".to_owned(),
            Chunked::new(wire.iter().map(|&b| vec![b]).collect()),
        ),
        (
            "empty chunks between bytes".to_owned(),
            Chunked::new(
                wire.iter()
                    .flat_map(|&b| [vec![], vec![b], vec![]])
                    .collect(),
            ),
        ),
    ];
    for cut in (0..=wire.len()).step_by(wirebytes_testkit::scale_miri(1, 1, 21)) {
        out.push((
            format!("split at {cut}"),
            Chunked::new(vec![wire[..cut].to_vec(), wire[cut..].to_vec()]),
        ));
    }
    out
}

const TEXTS: &[&str] = &["", "plain", "nul \0 in", "\u{1F600}\u{e9}\u{20ac}", "end"];

#[test]
fn records_are_read_out_of_every_shape() {
    let mut wire = Vec::new();
    for text in TEXTS {
        put_utf(&mut wire, text).unwrap();
        put_long_utf(&mut wire, text);
    }
    for (shape, mut buf) in shapes(&wire) {
        for text in TEXTS {
            assert_eq!(get_utf(&mut buf).as_deref(), Ok(*text), "{shape}");
            assert_eq!(get_long_utf(&mut buf, 100).as_deref(), Ok(*text), "{shape}");
        }
        assert_eq!(buf.remaining(), 0, "{shape}");
        assert_eq!(
            get_utf(&mut buf),
            Err(GetUtfError::Incomplete { needed: 2 })
        );
    }
}

/// Bodies long enough for every kernel (the AVX2 check's 64-byte blocks, the rewrite's,
/// `decode_to_utf16`'s), each read in one chunk and split in two, at every kernel level this CPU
/// has, against the reference.
#[test]
fn long_records_at_every_level_decode_as_the_reference() {
    for body in wirebytes_testkit::mutf8::long_bodies()
        .into_iter()
        .step_by(wirebytes_testkit::scale_miri(1, 1, 2))
    {
        let want = reference::decode(&body).map_err(GetUtfError::Invalid);
        let want16 = reference::decode_to_utf16(&body).map_err(GetUtfError::Invalid);
        let mut wire = (body.len() as u16).to_be_bytes().to_vec();
        wire.extend_from_slice(&body);
        for level in levels::all() {
            for cut in [wire.len(), 2, 3, 130, wire.len() - 1] {
                let mut buf = Chunked::new(vec![wire[..cut].to_vec(), wire[cut..].to_vec()]);
                assert_eq!(
                    level.get_utf(&mut buf),
                    want,
                    "{} split at {cut}",
                    level.name()
                );
                assert_eq!(buf.remaining(), 0);
                let mut buf = Chunked::new(vec![wire[..cut].to_vec(), wire[cut..].to_vec()]);
                assert_eq!(
                    level.get_utf16(&mut buf),
                    want16,
                    "{} utf16 split at {cut}",
                    level.name()
                );
                assert_eq!(buf.remaining(), 0);
                let long = [&(body.len() as u64).to_be_bytes()[..], &body].concat();
                let cut = cut.min(long.len());
                let mut buf = Chunked::new(vec![long[..cut].to_vec(), long[cut..].to_vec()]);
                assert_eq!(
                    level.get_long_utf(&mut buf, body.len() as u64),
                    want,
                    "{} long split at {cut}",
                    level.name()
                );
                assert_eq!(buf.remaining(), 0);
            }
        }
    }
}

/// Every cut of a record, in every shape: `Incomplete` with the record's length, nothing
/// consumed; then, with the rest appended, the record itself. Only a length field split
/// between the first chunk and the next is consumed, whether the buffer shows its chunks
/// through `chunks_vectored` or not, and with or without the `std` feature.
#[test]
fn a_cut_record_is_incomplete_and_nothing_is_consumed() {
    let mut wire = BytesMut::new();
    put_utf(&mut wire, "a\0\u{1F600}b\u{e9}").unwrap();
    let full = wire.len() as u64;
    for cut in (0..wire.len()).step_by(wirebytes_testkit::scale_miri(1, 1, 21)) {
        let needed = if cut < 2 { 2 } else { full };
        let mut buf = &wire[..cut];
        assert_eq!(
            get_utf(&mut buf),
            Err(GetUtfError::Incomplete { needed }),
            "cut {cut}"
        );
        assert_eq!(
            get_utf16(&mut buf),
            Err(GetUtfError::Incomplete { needed }),
            "cut {cut}"
        );
        assert_eq!(buf.len(), cut, "nothing consumed at cut {cut}");
        for (shape, buf) in shapes(&wire[..cut]) {
            for mut buf in [buf.clone(), buf.one_chunk_at_a_time()] {
                let before = buf.remaining();
                let split_field = cut >= 2 && buf.chunk().len() < 2;
                assert_eq!(
                    get_utf(&mut buf),
                    Err(GetUtfError::Incomplete { needed }),
                    "{shape} {}",
                    buf.vectored
                );
                if !split_field {
                    assert_eq!(buf.remaining(), before, "{shape} {}", buf.vectored);
                    assert_eq!(
                        get_utf16(&mut buf),
                        Err(GetUtfError::Incomplete { needed }),
                        "{shape}"
                    );
                    assert_eq!(buf.remaining(), before, "{shape} utf16");
                    // The rest arrives: the same buffer reads the whole record.
                    buf.parts.push_back(wire[cut..].to_vec());
                    assert_eq!(
                        get_utf(&mut buf).as_deref(),
                        Ok("a\0\u{1F600}b\u{e9}"),
                        "{shape}"
                    );
                } else {
                    assert_eq!(buf.remaining(), before - 2, "{shape} one at a time");
                }
            }
        }
        // Through `bytes`' own chained buffers: the field split after its first byte is
        // consumed, one in the first part is not.
        for head in [1, 2] {
            let mut chain = (&wire[..cut.min(head)]).chain(&wire[cut.min(head)..cut]);
            assert_eq!(
                get_utf(&mut chain),
                Err(GetUtfError::Incomplete { needed }),
                "chain {cut}"
            );
            let consumed = if cut >= 2 && head == 1 { 2 } else { 0 };
            assert_eq!(chain.remaining(), cut - consumed, "chain {head} {cut}");
        }
    }
}

#[test]
fn lone_surrogates_are_read_by_get_utf16() {
    let mut wire = Vec::new();
    for body in [
        &b"\xed\xa0\x80"[..],
        b"a\xed\xb0\x80b",
        b"\xc0\x80\xed\xa0\xbd",
    ] {
        wire.extend((body.len() as u16).to_be_bytes());
        wire.extend_from_slice(body);
    }
    for (shape, mut buf) in shapes(&wire) {
        assert_eq!(get_utf16(&mut buf), Ok(vec![0xd800]), "{shape}");
        assert_eq!(get_utf16(&mut buf), Ok(vec![0x61, 0xdc00, 0x62]), "{shape}");
        assert_eq!(get_utf16(&mut buf), Ok(vec![0, 0xd83d]), "{shape}");
        assert_eq!(buf.remaining(), 0, "{shape}");
    }
    // `get_utf` cannot return them in a `String`: an error, the record consumed.
    let mut buf = wire.as_slice();
    let err = get_utf(&mut buf).unwrap_err();
    assert!(
        matches!(err, GetUtfError::Invalid(e) if e.kind() == DecodeErrorKind::UnpairedSurrogate)
    );
    assert_eq!(buf.len(), wire.len() - 5);
}

/// A length field far above what the buffer holds: `Incomplete` with the record's length,
/// for the long form whatever the limit.
#[test]
fn a_length_above_the_buffer_is_incomplete() {
    let mut buf: &[u8] = b"\x7f\xff\xff\xff\xff\xff\xff\xffabc";
    assert_eq!(
        get_long_utf(&mut buf, u64::MAX),
        Err(GetUtfError::Incomplete {
            needed: 8 + i64::MAX as u64
        })
    );
    assert_eq!(buf.len(), 11);
    let mut buf: &[u8] = b"\xff\xffabc";
    assert_eq!(
        get_utf16(&mut buf),
        Err(GetUtfError::Incomplete { needed: 65_537 })
    );
    assert_eq!(buf.len(), 5);
}

#[test]
fn a_bad_body_is_invalid_and_consumed() {
    let wire = b"\x00\x05ab\xe2\x41\x41next";
    for (shape, buf) in shapes(wire) {
        let mut again = buf.clone();
        for err in [
            get_utf(&mut buf.clone()).unwrap_err(),
            get_utf16(&mut again).unwrap_err(),
        ] {
            let GetUtfError::Invalid(inner) = err else {
                panic!("{shape}: {err:?}");
            };
            assert_eq!(inner.kind(), DecodeErrorKind::Malformed, "{shape}");
            assert_eq!(inner.jdk_position(), Some(4), "{shape}");
        }
        let mut buf = buf;
        assert!(get_utf(&mut buf).is_err());
        assert_eq!(buf.remaining(), 4, "{shape}");
        assert_eq!(again.remaining(), 4, "{shape} utf16");
    }
}

#[test]
fn long_form_limits_and_put_utf_refusal() {
    let mut wire = Vec::new();
    put_long_utf(&mut wire, "0123456789");
    for (shape, mut buf) in shapes(&wire) {
        let err = get_long_utf(&mut buf, 9).unwrap_err();
        let GetUtfError::TooLong(inner) = err else {
            panic!("{shape}: {err:?}");
        };
        assert_eq!((inner.length(), inner.limit()), (10, 9), "{shape}");
    }
    let mut buf = wire.as_slice();
    assert_eq!(get_long_utf(&mut buf, 10).as_deref(), Ok("0123456789"));

    let mut out = BytesMut::new();
    let err = put_utf(&mut out, &"\u{10000}".repeat(11_000)).unwrap_err();
    assert_eq!((err.length(), err.limit()), (66_000, 65_535));
    assert!(out.is_empty());
    put_utf(&mut out, &"y".repeat(65_535)).unwrap();
    assert_eq!(out.len(), 65_537);
    assert!(out.remaining_mut() > 0);
}

#[test]
fn errors_display_and_chain() {
    use std::error::Error as _;
    let err = get_utf(&mut &b"\x00\x01\xff"[..]).unwrap_err();
    assert!(err.source().is_some());
    assert_eq!(
        err.to_string(),
        "malformed modified UTF-8 sequence at byte 0 (the JDK: malformed input around byte 0)"
    );
    let err = get_utf(&mut &b"\x00\x09"[..]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "incomplete modified UTF-8 record: 11 bytes needed"
    );
}

/// `put_utf16` writes what `put_utf` writes for the same text, and any UTF-16 as the
/// reference encodes it, into a buffer of one byte of room at a time too; `get_utf16` reads
/// it back out of every shape. Over 65535 bytes: refused, nothing written.
#[test]
fn put_utf16_then_get_utf16() {
    let mut all: Vec<Vec<u16>> = TEXTS.iter().map(|t| t.encode_utf16().collect()).collect();
    all.extend(wirebytes_testkit::text::surrogate_soup());
    let mut wire = Vec::new();
    for units in &all {
        let mut room = OneByteRoom::with(b"");
        put_utf16(&mut room, units).unwrap();
        let body = reference::encode_from_utf16(units);
        assert_eq!(
            room.bytes(),
            [&(body.len() as u16).to_be_bytes()[..], &body].concat()
        );
        if let Ok(text) = String::from_utf16(units) {
            let mut by_text = Vec::new();
            put_utf(&mut by_text, &text).unwrap();
            assert_eq!(room.bytes(), by_text);
        }
        put_utf16(&mut wire, units).unwrap();
    }
    for (shape, mut buf) in shapes(&wire).into_iter().step_by(7) {
        for units in &all {
            assert_eq!(get_utf16(&mut buf).as_ref(), Ok(units), "{shape}");
        }
    }
    let mut buf = OneByteChunks::new(&wire);
    for units in &all {
        assert_eq!(get_utf16(&mut buf).as_ref(), Ok(units));
    }
    let mut out = BytesMut::new();
    let err = put_utf16(&mut out, &[0xD800; 21_846]).unwrap_err();
    assert_eq!((err.length(), err.limit()), (65_538, 65_535));
    assert!(out.is_empty());
}

/// The record writers check the room for the whole record before they write: without it,
/// they panic with the buffer as it was.
#[test]
fn the_writers_panic_before_writing_without_room() {
    let text = "nul \0 and \u{1F600}";
    let units: Vec<u16> = text.encode_utf16().collect();
    let len = wirebytes_mutf8::encoded_len(text);
    type Put = fn(&mut dyn BufMut, &str, &[u16]);
    let puts: [(Put, usize); 3] = [
        (|b, t, _| put_utf(b, t).unwrap(), 2 + len),
        (|b, _, u| put_utf16(b, u).unwrap(), 2 + len),
        (|b, t, _| put_long_utf(b, t), 8 + len),
    ];
    for (put, need) in puts {
        let mut out = Vec::new();
        put(&mut (&mut out).limit(need), text, &units);
        assert_eq!(out.len(), need);
        let mut out = Vec::new();
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            put(&mut (&mut out).limit(need - 1), text, &units);
        }));
        assert!(result.is_err());
        assert!(out.is_empty(), "written before the panic");
    }
}
