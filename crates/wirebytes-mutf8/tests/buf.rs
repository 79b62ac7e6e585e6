//! Records over `bytes::Buf`/`BufMut` (the `bytes` feature), read out of buffers of every
//! shape: one chunk, one byte per chunk, every two-chunk split, empty chunks between.
#![cfg(feature = "bytes")]

use std::collections::VecDeque;

use bytes::{Buf, BufMut, BytesMut};
use wirebytes_mutf8::{
    DecodeErrorKind, GetUtfError, get_long_utf, get_utf, levels, put_long_utf, put_utf, reference,
};

/// A `Buf` made of any chunks, empty ones included.
#[derive(Debug, Clone)]
struct Chunked {
    parts: VecDeque<Vec<u8>>,
    /// Bytes of the first part already consumed.
    offset: usize,
}

impl Chunked {
    fn new(parts: Vec<Vec<u8>>) -> Self {
        Chunked {
            parts: parts.into(),
            offset: 0,
        }
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
    for cut in 0..=wire.len() {
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
/// `decode_utf16`'s), each read in one chunk and split in two, at every kernel level this CPU
/// has, against the reference.
#[test]
fn long_records_at_every_level_decode_as_the_reference() {
    for body in wirebytes_testkit::mutf8::long_bodies() {
        let want = reference::decode(&body).map_err(GetUtfError::Invalid);
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
            }
        }
    }
}

#[test]
fn a_cut_record_is_incomplete_and_left_in_a_contiguous_buffer() {
    let mut wire = BytesMut::new();
    put_utf(&mut wire, "a\0\u{1F600}b").unwrap();
    let full = wire.len() as u64;
    for cut in 0..wire.len() {
        let mut buf = &wire[..cut];
        let needed = if cut < 2 { 2 } else { full };
        assert_eq!(
            get_utf(&mut buf),
            Err(GetUtfError::Incomplete { needed }),
            "cut {cut}"
        );
        assert_eq!(buf.len(), cut, "nothing consumed at cut {cut}");
        for (shape, mut buf) in shapes(&wire[..cut]) {
            let before = buf.remaining();
            assert_eq!(
                get_utf(&mut buf),
                Err(GetUtfError::Incomplete { needed }),
                "{shape}"
            );
            // Only a length field split across chunks is consumed.
            assert!(
                buf.remaining() == before || buf.remaining() == before - 2,
                "{shape}"
            );
        }
    }
}

#[test]
fn a_bad_body_is_invalid_and_consumed() {
    let wire = b"\x00\x05ab\xe2\x41\x41next";
    for (shape, mut buf) in shapes(wire) {
        let err = get_utf(&mut buf).unwrap_err();
        let GetUtfError::Invalid(inner) = err else {
            panic!("{shape}: {err:?}");
        };
        assert_eq!(inner.kind(), DecodeErrorKind::Malformed, "{shape}");
        assert_eq!(inner.jdk_position(), Some(4), "{shape}");
        assert_eq!(buf.remaining(), 4, "{shape}");
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
