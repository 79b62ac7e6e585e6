//! Input an attacker picks, at the API's edge: length fields far above what follows, buffers
//! that show one byte per chunk, readers that are interrupted, short or cut mid-record, and
//! UTF-16 input made of surrogates. Nothing here assumes the width of `usize`.
#![cfg(feature = "std")]

use std::io::{self, ErrorKind, Read};

#[cfg(feature = "bytes")]
use bytes::Buf;
#[cfg(feature = "bytes")]
use wirebytes_mutf8::{GetUtfError, get_long_utf, get_utf, get_utf16};
use wirebytes_mutf8::{
    LengthError, cesu8, decode_to_utf16, encode_from_utf16, read_long_utf, read_utf, read_utf16,
    reference,
};
use wirebytes_testkit::alloc::{CountingAlloc, largest_allocation};
#[cfg(feature = "bytes")]
use wirebytes_testkit::buf::OneByteChunks;

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc;

/// The error a failed record read wraps.
fn inner<E: std::error::Error + 'static>(err: &io::Error) -> &E {
    err.get_ref()
        .and_then(|e| e.downcast_ref::<E>())
        .expect("the documented inner error")
}

/// Lengths of 2^32 and more: above any small limit, and above `usize::MAX` on 32-bit targets.
const HUGE: [u64; 5] = [1 << 32, (1 << 32) + 1, 1 << 40, i64::MAX as u64, u64::MAX];

#[test]
fn a_huge_long_form_length_is_refused_before_anything_is_allocated() {
    for len in HUGE {
        for limit in [0, 1, 65_535, u64::from(u32::MAX)] {
            let mut wire = len.to_be_bytes().to_vec();
            wire.extend_from_slice(b"the body that follows");
            let mut stream = &wire[..];
            let largest = largest_allocation(|| {
                let err = read_long_utf(&mut stream, limit).unwrap_err();
                assert_eq!(err.kind(), ErrorKind::InvalidData, "{len} over {limit}");
                let length: &LengthError = inner(&err);
                assert_eq!((length.length(), length.limit()), (len, limit));
            });
            // The length field only: the body is left for the caller.
            assert_eq!(stream, b"the body that follows");
            assert!(
                largest < 1024,
                "{len} over {limit}: allocated {largest} bytes"
            );

            #[cfg(feature = "bytes")]
            {
                let mut buf = &wire[..];
                let largest = largest_allocation(|| {
                    assert!(matches!(
                        get_long_utf(&mut buf, limit),
                        Err(GetUtfError::TooLong(e)) if (e.length(), e.limit()) == (len, limit)
                    ));
                });
                assert_eq!(buf.len(), wire.len(), "nothing consumed");
                assert_eq!(largest, 0);
            }
        }
    }
}

#[cfg(feature = "bytes")]
#[test]
fn buffers_of_one_byte_chunks() {
    let records: [&[u8]; 4] = [
        b"\x00\x00",
        b"\x00\x0aA\xc0\x80\xed\xa0\xbd\xed\xb8\x80z",
        b"\x00\x03\xe4\xb8\xad",
        b"\x00\x02\xc3\xa9",
    ];
    let wire: Vec<u8> = records.concat();
    let mut buf = OneByteChunks::new(&wire);
    for record in records {
        let want = reference::decode(&record[2..]).unwrap();
        assert_eq!(get_utf(&mut buf), Ok(want));
    }
    assert_eq!(buf.remaining(), 0);
    let mut buf = OneByteChunks::new(&wire);
    for record in records {
        let want = reference::decode_to_utf16(&record[2..]).unwrap();
        assert_eq!(get_utf16(&mut buf), Ok(want));
    }
    // The long form, and a body the JDK rejects: the whole record consumed, the next one
    // read.
    let mut long = 5u64.to_be_bytes().to_vec();
    long.extend_from_slice(b"a\xc0\x80bc\x00\x02\xc0\x41\x00\x01x");
    let mut buf = OneByteChunks::new(&long);
    assert_eq!(get_long_utf(&mut buf, 5).as_deref(), Ok("a\0bc"));
    assert!(matches!(get_utf(&mut buf), Err(GetUtfError::Invalid(_))));
    assert_eq!(get_utf(&mut buf).as_deref(), Ok("x"));

    // Cut anywhere: `Incomplete` with the record's length. The length field, shown one byte
    // at a time, is consumed once whole (as documented); nothing of the body is.
    let record = records[1];
    for cut in 0..record.len() {
        let mut buf = OneByteChunks::new(&record[..cut]);
        let err = get_utf(&mut buf).unwrap_err();
        let needed = if cut < 2 { 2 } else { record.len() as u64 };
        assert_eq!(err, GetUtfError::Incomplete { needed }, "cut at {cut}");
        assert_eq!(buf.remaining(), if cut < 2 { cut } else { cut - 2 });
    }
}

/// A reader that plays back `script`: bytes (at most `max` per read), errors, and
/// end-of-stream answers (`Ok(0)`) in the middle.
struct Scripted {
    script: Vec<Step>,
    max: usize,
}

#[derive(Debug, Clone)]
enum Step {
    Bytes(Vec<u8>),
    Fail(ErrorKind),
    Eof,
}

impl Read for Scripted {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        while matches!(self.script.first(), Some(Step::Bytes(b)) if b.is_empty()) {
            self.script.remove(0);
        }
        let Some(step) = self.script.first_mut() else {
            return Ok(0);
        };
        match step {
            Step::Bytes(bytes) => {
                let n = bytes.len().min(out.len()).min(self.max);
                out[..n].copy_from_slice(&bytes[..n]);
                bytes.drain(..n);
                if bytes.is_empty() {
                    self.script.remove(0);
                }
                Ok(n)
            }
            Step::Fail(kind) => {
                let kind = *kind;
                self.script.remove(0);
                Err(io::Error::new(kind, "scripted"))
            }
            Step::Eof => {
                self.script.remove(0);
                Ok(0)
            }
        }
    }
}

impl Scripted {
    /// What the reader still holds, in order.
    fn rest(&self) -> Vec<u8> {
        self.script
            .iter()
            .flat_map(|s| match s {
                Step::Bytes(b) => b.clone(),
                _ => Vec::new(),
            })
            .collect()
    }
}

/// `bytes` cut into pieces of `piece` bytes, with `between` after each.
fn interleaved(bytes: &[u8], piece: usize, between: &Step) -> Vec<Step> {
    bytes
        .chunks(piece)
        .flat_map(|c| [Step::Bytes(c.to_vec()), between.clone()])
        .collect()
}

#[test]
fn interrupted_and_short_reads_are_retried() {
    // Two records in each form; `Interrupted` after every piece, pieces of 1 to 3 bytes.
    let mut short = b"\x00\x05a\xc0\x80bc".to_vec();
    short.extend_from_slice(b"\x00\x06\xed\xa0\xbd\xed\xb8\x80");
    let mut long = 5u64.to_be_bytes().to_vec();
    long.extend_from_slice(b"a\xc0\x80bc");
    for piece in 1..=3 {
        for max in [1, 2, 64] {
            let interrupted = Step::Fail(ErrorKind::Interrupted);
            let mut r = Scripted {
                script: interleaved(&short, piece, &interrupted),
                max,
            };
            assert_eq!(read_utf(&mut r).unwrap(), "a\0bc");
            assert_eq!(read_utf(&mut r).unwrap(), "\u{1F600}");
            let mut r = Scripted {
                script: interleaved(&short, piece, &interrupted),
                max,
            };
            assert_eq!(read_utf16(&mut r).unwrap(), [0x61, 0, 0x62, 0x63]);
            let mut r = Scripted {
                script: interleaved(&long, piece, &interrupted),
                max,
            };
            assert_eq!(read_long_utf(&mut r, 5).unwrap(), "a\0bc");
        }
    }
}

#[test]
fn end_of_stream_mid_record_is_unexpected_eof() {
    // The stream says it has ended (`Ok(0)`) inside the length field or the body: the read
    // fails with `UnexpectedEof`, having consumed what came before, and nothing after.
    let record = b"\x00\x05a\xc0\x80bc";
    for cut in 0..record.len() {
        let mut r = Scripted {
            script: vec![
                Step::Bytes(record[..cut].to_vec()),
                Step::Eof,
                Step::Bytes(b"after".to_vec()),
            ],
            max: 2,
        };
        let err = read_utf(&mut r).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::UnexpectedEof, "cut at {cut}");
        assert_eq!(r.rest(), b"after", "cut at {cut}");
    }
    let mut long = 5u64.to_be_bytes().to_vec();
    long.extend_from_slice(b"a\xc0\x80bc");
    for cut in 0..long.len() {
        let mut r = Scripted {
            script: vec![
                Step::Bytes(long[..cut].to_vec()),
                Step::Eof,
                Step::Bytes(b"after".to_vec()),
            ],
            max: 3,
        };
        let err = read_long_utf(&mut r, 100).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::UnexpectedEof, "cut at {cut}");
        assert_eq!(r.rest(), b"after");
    }
}

#[test]
fn a_reader_error_mid_record_is_returned_and_nothing_past_it_is_read() {
    let record = b"\x00\x05a\xc0\x80bc";
    for cut in 0..record.len() {
        for kind in [
            ErrorKind::ConnectionReset,
            ErrorKind::TimedOut,
            ErrorKind::Other,
        ] {
            let mut r = Scripted {
                script: vec![
                    Step::Bytes(record[..cut].to_vec()),
                    Step::Fail(kind),
                    Step::Bytes(record[cut..].to_vec()),
                ],
                max: 64,
            };
            let err = read_utf(&mut r).unwrap_err();
            assert_eq!(err.kind(), kind, "cut at {cut}");
            assert_eq!(r.rest(), &record[cut..], "cut at {cut}");
            let mut r = Scripted {
                script: vec![
                    Step::Bytes(record[..cut].to_vec()),
                    Step::Fail(kind),
                    Step::Bytes(record[cut..].to_vec()),
                ],
                max: 1,
            };
            assert_eq!(read_utf16(&mut r).unwrap_err().kind(), kind);
            assert_eq!(r.rest(), &record[cut..]);
        }
    }
}

/// UTF-16 made of surrogates: every high, low, reversed pair and lone half, at every place
/// among ASCII and real pairs.
fn surrogate_soup() -> Vec<Vec<u16>> {
    let pieces: [&[u16]; 8] = [
        &[0xD800],
        &[0xDBFF],
        &[0xDC00],
        &[0xDFFF],
        &[0xDC00, 0xD800],
        &[0xD800, 0xD800],
        &[0xD83D, 0xDE00],
        &[0x41],
    ];
    let mut out = Vec::new();
    for a in pieces {
        for b in pieces {
            for c in pieces
                .iter()
                .step_by(wirebytes_testkit::scale_miri(1, 1, 3))
            {
                out.push([a, b, c].concat());
            }
        }
    }
    out.push(std::iter::repeat_n(0xDBFF, 100).collect());
    out.push((0..200).map(|i| 0xD800 + (i * 97) % 0x800).collect());
    out
}

#[test]
fn surrogates_everywhere_in_utf16_input() {
    for units in surrogate_soup() {
        let bytes = encode_from_utf16(&units);
        assert_eq!(bytes, reference::encode_from_utf16(&units), "{units:04x?}");
        // Modified UTF-8 keeps every unit, lone surrogates included.
        assert_eq!(decode_to_utf16(&bytes).as_deref(), Ok(&units[..]));
        // CESU-8 as the reference writes it.
        assert_eq!(
            cesu8::encode_from_utf16(&units),
            reference::cesu8_encode_from_utf16(&units),
            "{units:04x?}"
        );
    }
}
