//! `find`, `starts_with` and `ends_with` against a naive search on the flat bytes.

mod common;

use bytes::Bytes;
use common::{Rng, split_random};
use wirebytes_rope::{ByteQueue, ByteString, reference};

/// Checks every needle that is a sub-slice of `flat` of the given lengths, plus a few that are
/// not, against the naive search.
fn check(flat: &[u8], s: &ByteString, needle_lens: &[usize], rng: &mut Rng) {
    for &m in needle_lens {
        for _ in 0..8 {
            let needle: Vec<u8> = if m <= flat.len() && rng.below(4) != 0 {
                let at = rng.below(flat.len() - m + 1);
                flat[at..at + m].to_vec()
            } else {
                (0..m).map(|_| b'a' + rng.below(3) as u8).collect()
            };
            let expected = reference::find_naive(flat, &needle);
            assert_eq!(
                s.find(&needle),
                expected,
                "needle {needle:?} in {} bytes",
                flat.len()
            );
            assert_eq!(s.starts_with(&needle), flat.starts_with(&needle));
            assert_eq!(s.ends_with(&needle), flat.ends_with(&needle));
        }
    }
}

#[test]
fn small_alphabet_many_fragmentations() {
    let mut rng = Rng::new(1);
    for _ in 0..wirebytes_testkit::scale_miri(300, 300, 2) {
        let n = rng.below(300);
        // Three letters: many partial and overlapping matches.
        let flat: Vec<u8> = (0..n).map(|_| b'a' + rng.below(3) as u8).collect();
        let max = 1 + rng.below(20);
        let s: ByteString = split_random(&flat, &mut rng, max).into_iter().collect();
        check(&flat, &s, &[0, 1, 2, 3, 4, 5, 8, 17, 40], &mut rng);
    }
}

#[test]
fn needles_that_straddle_every_boundary() {
    let mut rng = Rng::new(2);
    for max in [1, 2, 3, 7, 64, 1500, 3000]
        .into_iter()
        .step_by(wirebytes_testkit::scale_miri(1, 1, 9))
    {
        let flat = rng.bytes(wirebytes_testkit::scale_miri(20_000, 20_000, 500));
        let parts = split_random(&flat, &mut rng, max);
        let s: ByteString = parts.iter().cloned().collect();
        let mut start = 0;
        for p in parts
            .iter()
            .take(wirebytes_testkit::scale_miri(200, 200, 2))
        {
            let boundary = start + p.len();
            for m in [2, 5, 16, 33] {
                // A needle starting up to m - 1 bytes before the boundary.
                for back in 1..m.min(boundary + 1) {
                    let at = boundary - back;
                    if at + m > flat.len() {
                        continue;
                    }
                    let needle = &flat[at..at + m];
                    // memmem on the flat bytes: the naive search is too slow for 180,000 cases.
                    let expected = memchr::memmem::find(&flat, needle);
                    assert_eq!(s.find(needle), expected, "max {max}");
                }
            }
            start = boundary;
        }
    }
}

/// Long fragments (as a socket's reads) after a first fragment of any length: each searched
/// where it lies and each boundary through its window. Every needle that straddles a
/// boundary, found by `find` and `find_from` of both types.
#[test]
fn needles_across_long_reads() {
    let mut rng = Rng::new(5);
    for round in 0..wirebytes_testkit::scale_miri(12, 12, 1) {
        let first = [0, 1, 2, 20, 1500][round % 5];
        let n = first + wirebytes_testkit::scale_miri(12_000, 12_000, 3_000);
        // Four letters: partial matches everywhere, and a needle's first match is often
        // elsewhere, so the offsets themselves are checked.
        let flat: Vec<u8> = (0..n).map(|_| b'a' + rng.below(4) as u8).collect();
        let mut parts = vec![Bytes::copy_from_slice(&flat[..first])];
        let mut at = first;
        while at < n {
            let len = (1024 + rng.below(2000)).min(n - at);
            parts.push(Bytes::copy_from_slice(&flat[at..at + len]));
            at += len;
        }
        let parts: Vec<Bytes> = parts.into_iter().filter(|p| !p.is_empty()).collect();
        let s: ByteString = parts.iter().cloned().collect();
        let queue: ByteQueue = parts.iter().cloned().collect();
        let mut boundary = 0;
        for p in &parts[..parts.len() - 1] {
            boundary += p.len();
            for m in [2, 3, 5, 8, 16, 32, 33] {
                for back in 1..m.min(boundary + 1) {
                    let at = boundary - back;
                    if at + m > n {
                        continue;
                    }
                    let needle = &flat[at..at + m];
                    let from = at.saturating_sub(rng.below(3000));
                    let expected = memchr::memmem::find(&flat[from..], needle).map(|p| from + p);
                    assert_eq!(s.find_from(needle, from), expected, "from {from} m {m}");
                    assert_eq!(queue.find_from(needle, from), expected, "from {from} m {m}");
                    let expected = memchr::memmem::find(&flat, needle);
                    assert_eq!(s.find(needle), expected, "m {m}");
                    assert_eq!(queue.find(needle), expected, "m {m}");
                }
            }
        }
    }
}

#[test]
#[cfg_attr(
    miri,
    ignore = "texts of 8 to 70 KiB, searched naively: too slow under Miri"
)]
fn needle_near_the_end_and_long_needles() {
    let mut rng = Rng::new(3);
    // Sizes around the gathering buffer (8 KiB) and the in-place threshold (1 KiB).
    for n in [8191, 8192, 8193, 20_000, 70_000] {
        let flat = rng.bytes(n);
        for max in [1, 30, 700, 1023, 1024, 1025, 2500, 9000] {
            let s: ByteString = split_random(&flat, &mut rng, max).into_iter().collect();
            for m in [1, 16, 1000, 1024, 1025, 3000] {
                for at in [0, n / 2, n - m, n - m - 1, 8192 - m / 2, 8192 - 1] {
                    if at + m > n {
                        continue;
                    }
                    let needle = &flat[at..at + m];
                    let expected = reference::find_naive(&flat, needle);
                    assert_eq!(s.find(needle), expected, "n {n} max {max} m {m} at {at}");
                }
                let mut missing = flat[n - m..].to_vec();
                missing[0] ^= 0x55;
                assert_eq!(s.find(&missing), reference::find_naive(&flat, &missing));
            }
        }
    }
}

#[test]
fn large_fragments_mixed_with_small_ones() {
    let mut rng = Rng::new(4);
    for _ in 0..wirebytes_testkit::scale_miri(40, 40, 3) {
        let mut parts = Vec::new();
        let mut flat = Vec::new();
        for _ in 0..rng.below(30) {
            let len = if rng.below(3) == 0 {
                1024 + rng.below(3000)
            } else {
                rng.below(50)
            };
            let b: Vec<u8> = (0..len).map(|_| b'a' + rng.below(2) as u8).collect();
            flat.extend_from_slice(&b);
            parts.push(Bytes::from(b));
        }
        let s: ByteString = parts.into_iter().collect();
        check(&flat, &s, &[1, 3, 9, 12, 20, 100, 1100], &mut rng);
    }
}

#[test]
fn empty_and_oversized_needles() {
    let s = ByteString::from_static(b"ab").concat(&ByteString::from_static(b"cd"));
    assert_eq!(s.find(b""), Some(0));
    assert_eq!(ByteString::new().find(b""), Some(0));
    assert_eq!(s.find(b"abcde"), None);
    assert!(s.starts_with(b"") && s.ends_with(b""));
    assert!(!s.starts_with(b"abcde") && !s.ends_with(b"abcde"));
}

/// Small fragments that fill the gathering buffer nearly to the end, then a large one: the
/// pending bytes are searched on their own first (the large fragment's head no longer fits
/// after them), then the match that starts in them and ends in the large fragment.
#[test]
fn pending_bytes_that_leave_no_room_for_the_head() {
    let mut rng = Rng::new(11);
    for (small, m) in [(8000, 1100), (7900, 300), (8150, 100), (8100, 2000)] {
        let mut parts = Vec::new();
        let mut flat = Vec::new();
        let mut push = |len: usize, flat: &mut Vec<u8>, rng: &mut Rng| {
            let b: Vec<u8> = (0..len).map(|_| b'a' + rng.below(2) as u8).collect();
            flat.extend_from_slice(&b);
            parts.push(Bytes::from(b));
        };
        let mut left = small;
        while left > 0 {
            let len = left.min(700 + rng.below(300));
            push(len, &mut flat, &mut rng);
            left -= len;
        }
        push(4000, &mut flat, &mut rng);
        let s: ByteString = parts.into_iter().collect();
        // Needles that start in the pending bytes and end in the large fragment, each end.
        for start in (small - m + 1..small).step_by(m / 7 + 1) {
            let needle = &flat[start..start + m];
            assert_eq!(
                s.find(needle),
                reference::find_naive(&flat, needle),
                "needle of {m} at {start} after {small} small bytes"
            );
        }
        // A needle found nowhere but in the large fragment's tail, so that the search goes
        // through every step.
        let mut needle = flat[flat.len() - m..].to_vec();
        needle[0] = b'z';
        assert_eq!(s.find(&needle), None);
        check(&flat, &s, &[m], &mut rng);
    }
}
