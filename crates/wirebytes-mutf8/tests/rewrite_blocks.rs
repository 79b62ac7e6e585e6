//! `decode`'s rewrite of modified UTF-8 into UTF-8 where its 64-byte blocks meet: a sequence
//! at each of the last eight bytes of a block (56..=63), so that a surrogate pair, a lone
//! high surrogate or a reversed pair runs into the next block, and that block is ASCII, the
//! rest of the pair, or the end of the body. At every kernel level this CPU has (on a CPU
//! with AVX-512 VBMI2 the rewrite kernel runs its blocks), against the reference.
//!
//! The rewrite starts where the UTF-8 check stops: at the start of the check's 64-byte block
//! that holds the first `C0 80` (at byte `start` of the body here). With `start` 64 or more
//! the rewrite's blocks start at byte 64; below 64 the rewrite is asked to start at byte 0,
//! where its blocks cannot (each reads the two bytes before it): the scalar loop takes the
//! first 64 bytes and the blocks start at byte 64 again. Either way the blocks are at bytes
//! 64, 128, 192, ... of the body, and a sequence is placed at byte `at` of block 1 or 2.

use std::borrow::Cow;

use wirebytes_mutf8::{levels, reference};

/// The sequences placed at the end of a block, each followed by ASCII.
const SEQUENCES: [(&str, &[u8]); 11] = [
    // Sequences that already are UTF-8, and `C0 80`: from 62 (63) on they run past the block.
    ("U+4E2D", b"\xe4\xb8\xad"),
    ("U+00E9", b"\xc3\xa9"),
    ("C0 80", b"\xc0\x80"),
    // U+1F600 as a pair: from 59 on, the block end cuts it (`ED A0 BD | ED B8 80` at 61).
    ("pair", b"\xed\xa0\xbd\xed\xb8\x80"),
    (
        "pair then a pair",
        b"\xed\xa0\xbd\xed\xb8\x80\xed\xa0\x80\xed\xb0\x80",
    ),
    // A high surrogate followed by a non-surrogate: ASCII, a 3-byte char, `C0 80`.
    ("high then ASCII", b"\xed\xa0\xbd"),
    ("high then U+4E2D", b"\xed\xa0\xbd\xe4\xb8\xad"),
    ("high then C0 80", b"\xed\xa0\xbd\xc0\x80"),
    ("two highs", b"\xed\xa0\xbd\xed\xa0\xbd"),
    ("reversed pair", b"\xed\xb8\x80\xed\xa0\xbd"),
    ("low alone", b"\xed\xb8\x80"),
];

/// `decode` at every level agrees with the reference on `bytes` (and on the body cut at
/// each length in `cuts`).
fn same(bytes: &[u8], what: &str) {
    let want = reference::decode(bytes);
    for level in levels::all() {
        assert_eq!(
            level.decode(bytes).map(Cow::into_owned),
            want,
            "{}: {what}: {bytes:02x?}",
            level.name()
        );
    }
}

/// Where the first `C0 80` goes: at bytes 0 and 1 (the check proves nothing, the rewrite
/// returns at once), 2 and 3 (the same), 64, 65 and 70 (the check proves 64 bytes).
const STARTS: [usize; 7] = [0, 1, 2, 3, 64, 65, 70];

/// The step through a list of cases: 1 natively, `n` under Miri (where the AVX-512 level
/// does not run).
fn every(n: usize) -> usize {
    wirebytes_testkit::scale_miri(1, 1, n)
}

/// A body: ASCII, `C0 80` at `start`, ASCII up to byte `at` of block `block` (blocks of 64
/// bytes from the body's start), `seq`, then `tail` bytes of ASCII.
fn body(start: usize, block: usize, at: usize, seq: &[u8], tail: usize) -> Vec<u8> {
    let mut bytes = vec![b'a'; start];
    bytes.extend_from_slice(b"\xc0\x80");
    let place = 64 * block + at;
    assert!(place >= bytes.len(), "the sequence after the C0 80");
    bytes.resize(place, b'b');
    bytes.extend_from_slice(seq);
    bytes.extend((0..tail).map(|i| b'0' + (i % 10) as u8));
    bytes
}

#[test]
fn sequences_at_the_last_eight_bytes_of_a_block() {
    for start in STARTS.into_iter().step_by(every(3)) {
        for block in (1..=2).step_by(every(2)) {
            for at in (56..=63).step_by(every(7)) {
                for (what, seq) in SEQUENCES.into_iter().step_by(every(4)) {
                    // ASCII after it: none, a few bytes, a whole block and more.
                    for tail in [0, 1, 5, 64, 70, 130].into_iter().step_by(every(4)) {
                        let bytes = body(start, block, at, seq, tail);
                        same(
                            &bytes,
                            &format!("{what} at {at} of block {block} from {start}"),
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn bodies_that_end_at_a_block_end_and_one_past_it() {
    // A block needs 65 bytes of body (its load a byte on): the last block that ends exactly
    // at the body's end is the scalar loop's, one byte longer is the kernel's.
    for start in STARTS.into_iter().step_by(every(3)) {
        for block in (1..=2).step_by(every(2)) {
            for at in (56..=63).step_by(every(7)) {
                for (what, seq) in SEQUENCES.into_iter().step_by(every(5)) {
                    let long = body(start, block, at, seq, 200);
                    for end in [1, 2].map(|k| 64 * (block + k)) {
                        for end in [end - 1, end, end + 1] {
                            same(
                                &long[..end],
                                &format!(
                                    "{what} at {at} of block {block} from {start}, {end} bytes"
                                ),
                            );
                        }
                    }
                }
            }
        }
    }
}

/// The first block after one whose last five bytes hold a lead is never taken as plain
/// ASCII: a lone high surrogate at byte 61 (its low one would start the next block) followed
/// by a block of ASCII is an error, at every level.
#[test]
fn a_high_surrogate_at_61_before_an_ascii_block_is_an_error() {
    for start in STARTS.into_iter().step_by(every(3)) {
        for at in (56..=63).step_by(every(3)) {
            let bytes = body(start, 2, at, b"\xed\xa0\xbd", 130);
            let err = reference::decode(&bytes).expect_err("a lone high surrogate");
            for level in levels::all() {
                assert_eq!(
                    level.decode(&bytes).map(Cow::into_owned),
                    Err(err),
                    "{} at {at} from {start}",
                    level.name()
                );
            }
        }
    }
}
