//! `Reader`: a `Buf` conformance macro over several shapes, and `io::Read`.

mod common;

use std::io::{IoSlice, Read};

use bytes::{Buf, Bytes};
use common::{Rng, split_random};
use wirebytes_rope::{ByteQueue, ByteString, IntoReader, Reader};

/// What is left to read, as a string: the readers' `rest` and the queue's `to_byte_string`.
trait Rest {
    fn rest(&self) -> ByteString;
}

impl Rest for Reader<'_> {
    fn rest(&self) -> ByteString {
        Reader::rest(self)
    }
}

impl Rest for IntoReader {
    fn rest(&self) -> ByteString {
        IntoReader::rest(self)
    }
}

impl Rest for ByteQueue {
    fn rest(&self) -> ByteString {
        self.to_byte_string()
    }
}

/// The content every shape holds: 0, 1, 2, ... 255, 0, 1, ... (300 bytes).
fn content() -> Vec<u8> {
    (0..300u32).map(|i| i as u8).collect()
}

/// Checks `Buf` behaviour of both readers (`reader`, `into_reader`) and of a `ByteQueue` of each shape `$make`
/// (a `ByteString` holding `content()`).
macro_rules! buf_conformance {
    ($($(#[$attr:meta])* $name:ident => $make:expr;)*) => {$(
        $(#[$attr])*
        mod $name {
            use super::*;

            fn make() -> ByteString {
                let s: ByteString = $make;
                assert_eq!(s, content());
                s
            }

            mod borrowed {
                use super::*;
                reader_conformance!(s => s.reader());
            }

            mod owned {
                use super::*;
                reader_conformance!(s => s.clone().into_reader());
            }

            mod queue {
                use super::*;
                reader_conformance!(s => ByteQueue::from(s.clone()));
            }
        }
    )*};
}

/// The `Buf` checks for one reader `$reader` made from `$s = make()`.
macro_rules! reader_conformance {
    ($s:ident => $reader:expr) => {
        #[test]
        fn remaining_chunk_advance() {
            let flat = content();
            let $s = make();
            let mut r = $reader;
            let mut pos = 0;
            let mut rng = Rng::new(1);
            while r.has_remaining() {
                assert_eq!(r.remaining(), flat.len() - pos);
                let chunk = r.chunk();
                assert!(!chunk.is_empty());
                assert_eq!(chunk, &flat[pos..pos + chunk.len()]);
                let step = rng.below(chunk.len() + 5).min(r.remaining());
                r.advance(step);
                pos += step;
            }
            assert_eq!(r.remaining(), 0);
            assert!(r.chunk().is_empty());
            r.advance(0);
            assert_eq!(r.remaining(), 0);
        }

        #[test]
        fn get_integers_straddle_fragments() {
            let flat = content();
            for offset in (0..9).step_by(wirebytes_testkit::scale_miri(1, 1, 4)) {
                let $s = make();
                let mut r = $reader;
                r.advance(offset);
                let mut expected = &flat[offset..];
                while expected.remaining() >= 15 {
                    assert_eq!(r.get_u8(), expected.get_u8());
                    assert_eq!(r.get_u16(), expected.get_u16());
                    assert_eq!(r.get_u32_le(), expected.get_u32_le());
                    assert_eq!(r.get_u64(), expected.get_u64());
                    assert_eq!(r.remaining(), expected.remaining());
                    // The reader's chunk goes on where the reads stopped, never empty
                    // while bytes remain (`Buf`'s contract).
                    let chunk = r.chunk();
                    assert_eq!(chunk.is_empty(), expected.is_empty());
                    assert_eq!(chunk, &expected[..chunk.len()]);
                }
                while expected.remaining() >= 4 {
                    assert_eq!(r.get_i32(), expected.get_i32());
                }
                assert_eq!(r.try_get_u32_le().is_err(), true);
                assert_eq!(
                    r.remaining(),
                    expected.remaining(),
                    "a failed read consumes nothing"
                );
            }
        }

        /// The last 2, 4 or 8 bytes read by one getter, wherever the fragments end.
        #[test]
        fn get_integers_to_the_very_end() {
            let flat = content();
            for n in [2, 4, 8].into_iter().filter(|&n| n <= flat.len()) {
                let $s = make();
                let mut r = $reader;
                r.advance(flat.len() - n);
                let mut expected = &flat[flat.len() - n..];
                match n {
                    2 => assert_eq!(r.get_u16(), expected.get_u16()),
                    4 => assert_eq!(r.get_i32_le(), expected.get_i32_le()),
                    _ => assert_eq!(r.get_u64(), expected.get_u64()),
                }
                assert_eq!(r.remaining(), 0);
            }
        }

        #[test]
        fn copy_to_slice_and_bytes() {
            let flat = content();
            let mut rng = Rng::new(2);
            let $s = make();
            let mut r = $reader;
            let mut pos = 0;
            while r.has_remaining() {
                let n = rng.below(40).min(r.remaining());
                if rng.below(2) == 0 {
                    let mut dst = vec![0; n];
                    r.copy_to_slice(&mut dst);
                    assert_eq!(dst, &flat[pos..pos + n]);
                } else {
                    assert_eq!(r.copy_to_bytes(n), &flat[pos..pos + n]);
                }
                pos += n;
                assert_eq!(r.remaining(), flat.len() - pos);
            }
        }

        #[test]
        fn split_to_and_rest_share() {
            let flat = content();
            let $s = make();
            let mut r = $reader;
            r.advance(7);
            assert_eq!(Rest::rest(&r), flat[7..]);
            let head = r.split_to(100);
            assert_eq!(head, flat[7..107]);
            assert_eq!(Rest::rest(&r), flat[107..]);
            assert_eq!(r.chunk()[0], flat[107]);
        }

        #[test]
        fn chunks_vectored_covers_the_rest() {
            let flat = content();
            for skip in [0, 1, 99, 299, 300] {
                let $s = make();
                let mut r = $reader;
                r.advance(skip);
                let mut slices = [IoSlice::new(&[]); 512];
                let n = r.chunks_vectored(&mut slices);
                let joined: Vec<u8> = slices[..n].iter().flat_map(|s| s.iter().copied()).collect();
                assert_eq!(joined, &flat[skip..]);
                assert!(slices[..n].iter().all(|s| !s.is_empty()));
                // A short destination is filled with a prefix.
                let mut two = [IoSlice::new(&[]); 2];
                let m = r.chunks_vectored(&mut two);
                let prefix: Vec<u8> = two[..m].iter().flat_map(|s| s.iter().copied()).collect();
                assert!(flat[skip..].starts_with(&prefix));
                assert_eq!(m, n.min(2));
            }
        }

        #[test]
        fn io_read() {
            let flat = content();
            let $s = make();
            let mut r = $reader;
            let mut got = Vec::new();
            let mut buf = [0u8; 13];
            loop {
                let n = r.read(&mut buf).unwrap();
                if n == 0 {
                    break;
                }
                got.extend_from_slice(&buf[..n]);
            }
            assert_eq!(got, flat);
            let mut all = Vec::new();
            let $s = make();
            let mut r = $reader;
            r.read_to_end(&mut all).unwrap();
            assert_eq!(all, flat);
        }

        #[test]
        #[should_panic(expected = "cannot advance")]
        fn advance_past_the_end_panics() {
            let $s = make();
            let mut r = $reader;
            r.advance(301);
        }
    };
}

buf_conformance! {
    one => ByteString::from(content());
    sliced => {
        let mut v = vec![9u8; 4];
        v.extend(content());
        ByteString::from(v).slice(4..)
    };
    two => ByteString::from(content()[..150].to_vec()).concat(&ByteString::from(content()[150..].to_vec()));
    // Under Miri (minutes per shape of many fragments) the shapes of fewer fragments run:
    // one, two, sliced, with empty fragments, a slice of a rope.
    #[cfg(not(miri))]
    many => split_random(&content(), &mut Rng::new(3), 11).into_iter().collect();
    #[cfg(not(miri))]
    bytewise => split_random(&content(), &mut Rng::new(4), 1).into_iter().collect();
    with_empty => {
        let mut parts = vec![Bytes::new()];
        for b in split_random(&content(), &mut Rng::new(5), 30) {
            parts.push(b);
            parts.push(Bytes::new());
        }
        parts.into_iter().collect()
    };
    rope_slice => {
        let mut v = vec![7u8; 20];
        v.extend(content());
        v.extend([8u8; 20]);
        let outer: ByteString = split_random(&v, &mut Rng::new(6), 23).into_iter().collect();
        outer.slice(20..320)
    };
}

#[test]
fn empty_reader() {
    let mut o = ByteString::new().into_reader();
    assert_eq!(o.remaining(), 0);
    assert!(o.chunk().is_empty());
    assert_eq!(o.read(&mut [0u8; 4]).unwrap(), 0);
    let empty = ByteString::new();
    let mut r = empty.reader();
    assert_eq!(r.remaining(), 0);
    assert!(r.chunk().is_empty());
    assert_eq!(r.chunks_vectored(&mut [IoSlice::new(&[])]), 0);
    assert_eq!(r.read(&mut [0u8; 4]).unwrap(), 0);
    assert!(r.split_to(0).is_empty());
}
