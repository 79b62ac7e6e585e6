//! The boundaries of the run-by-run paths: equality and order compare two fragmentations one
//! overlapping run at a time, so every run length up to past 32 bytes meets a difference at
//! every position (at every kernel level), as does every run length up to past two 64-byte
//! steps of the AVX-512 kernel and every run whose 64-byte window reaches into the next
//! page, and a longer string meets every prefix of itself; `ByteQueue` cuts frames
//! inside the first fragment, at its end, inside the second and past it, and searches the
//! first fragment apart from the rest, so every cut and every delimiter position is tried
//! against the flat bytes.

use bytes::{Buf, Bytes};
use rstest::rstest;
use wirebytes_rope::{ByteQueue, ByteString, levels, reference};

/// `flat` cut into fragments whose lengths cycle through `lens` (zeros give empty
/// fragments, which the string drops).
fn cut(flat: &[u8], lens: &[usize]) -> Vec<Bytes> {
    assert!(lens.iter().any(|&n| n > 0));
    let mut out = Vec::new();
    let mut at = 0;
    for &n in lens.iter().cycle() {
        if at == flat.len() {
            break;
        }
        let end = (at + n).min(flat.len());
        out.push(Bytes::copy_from_slice(&flat[at..end]));
        at = end;
    }
    out
}

/// Content with no two neighbouring bytes alike, so a shifted comparison cannot pass.
fn content(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i * 7 + 3) as u8).collect()
}

/// The fragment lengths of the second string: `lb`-byte fragments, the first of them
/// shortened to `first` bytes, so the runs against the first string take every length.
fn staggered(lb: usize, first: usize) -> Vec<usize> {
    let mut lens = vec![first];
    lens.extend(std::iter::repeat_n(lb, 64));
    lens
}

/// Both strings made of the same content, one with `la`-byte fragments (an empty fragment
/// after each), the other staggered: equal to each other and to the flat bytes, and
/// unequal as soon as any one byte of the second differs. Checked through `ByteString`
/// against `ByteString`, `ByteQueue` against `ByteString`, and the byte-by-byte reference.
#[rstest]
fn runs_of_every_length_see_a_difference_at_every_position(
    #[values(1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33)] la: usize,
) {
    let len = if cfg!(miri) { 40 } else { 2 * 33 + 11 };
    let flat = content(len);
    let a: ByteString = cut(&flat, &[la, 0]).into_iter().collect();
    let queue: ByteQueue = cut(&flat, &[la, 0]).into_iter().collect();
    let step = if cfg!(miri) { 8 } else { 1 };
    for lb in (1..=33).step_by(step) {
        for first in [1, lb / 2 + 1, lb] {
            let lens = staggered(lb, first);
            let b: ByteString = cut(&flat, &lens).into_iter().collect();
            let ctx = format!("la {la}, lb {lb}, first {first}");
            assert_eq!(a, b, "{ctx}");
            assert_eq!(b, a, "{ctx}");
            for level in levels::all() {
                assert!(
                    level.eq(&a, &b) && level.eq(&b, &a),
                    "{ctx}: {}",
                    level.name()
                );
            }
            assert!(queue == b, "{ctx}: queue");
            assert!(reference::eq_by_bytes(&a, &b), "{ctx}");
            for at in (0..len).step_by(step) {
                let mut other = flat.clone();
                other[at] ^= 0x40;
                let c: ByteString = cut(&other, &lens).into_iter().collect();
                assert_ne!(a, c, "{ctx}: byte {at} differs");
                assert_ne!(c, a, "{ctx}: byte {at} differs");
                for level in levels::all() {
                    let name = level.name();
                    assert!(!level.eq(&a, &c), "{ctx}: byte {at} differs, {name}");
                    assert!(!level.eq(&c, &a), "{ctx}: byte {at} differs, {name}");
                }
                assert!(queue != c, "{ctx}: queue, byte {at} differs");
                assert!(!reference::eq_by_bytes(&a, &c), "{ctx}: byte {at}");
                assert_eq!(a.cmp(&c), flat.cmp(&other), "{ctx}: byte {at}");
            }
        }
    }
}

/// Equality at every level of strings made of `flat` cut at `lens_a` and at `lens_b`, and of
/// the same cuts of `flat` with each byte in `positions` changed in turn: equal, then unequal
/// both ways.
fn check_every_level(flat: &[u8], lens_a: &[usize], lens_b: &[usize], positions: &[usize]) {
    let a: ByteString = cut(flat, lens_a).into_iter().collect();
    let b: ByteString = cut(flat, lens_b).into_iter().collect();
    let ctx = format!("{lens_a:?} against {lens_b:?}");
    for level in levels::all() {
        let name = level.name();
        assert!(level.eq(&a, &b) && level.eq(&b, &a), "{ctx}: {name}");
        for &at in positions {
            let mut other = flat.to_vec();
            other[at] ^= 0x01;
            let c: ByteString = cut(&other, lens_b).into_iter().collect();
            assert!(!level.eq(&a, &c), "{ctx}: byte {at} differs, {name}");
            assert!(!level.eq(&c, &a), "{ctx}: byte {at} differs, {name}");
        }
    }
}

/// One run of every length from 1 to past two 64-byte steps (the AVX-512 kernel compares 64
/// bytes per step while more than 64 are left, then the rest with masked loads), and around
/// 256 (longer runs go to the slice comparison), between one-byte runs: the run's fragment
/// ends with the other side's (a tie), or the other side runs on one byte further, or ends
/// one byte earlier. A difference at every byte of the run and at the bytes around it.
#[test]
fn runs_up_to_past_two_kernel_steps() {
    let top = if cfg!(miri) { 8 } else { 140 };
    let long: &[usize] = if cfg!(miri) {
        &[]
    } else {
        &[255, 256, 257, 300]
    };
    for n in (1..=top).chain(long.iter().copied()) {
        let flat = content(n + 3);
        let positions: Vec<usize> = (0..n + 3).collect();
        // Runs 1, n, 1, 1 against themselves, then against n + 1 and n - 1 bytes.
        check_every_level(&flat, &[1, n, 1, 1], &[1, n, 1, 1], &positions);
        check_every_level(&flat, &[1, n, 1, 1], &[1, n + 1, 1], &positions);
        if n > 1 {
            check_every_level(&flat, &[1, n, 1, 1], &[1, n - 1, 1, 1, 1], &positions);
        }
    }
}

/// Strings of many one-byte fragments against one fragment, two fragments and fragments of
/// 8, 16, 32 and 64 bytes: every run is one byte long.
#[test]
fn one_byte_fragments_against_long_ones() {
    let len = if cfg!(miri) { 40 } else { 200 };
    let flat = content(len);
    let step = if cfg!(miri) { 9 } else { 1 };
    let positions: Vec<usize> = (0..len).step_by(step).collect();
    for lb in [len, len / 2 + 1, 8, 16, 32, 64] {
        check_every_level(&flat, &[1], &[lb], &positions);
    }
}

/// Runs whose 64-byte window reaches into the next 4 KiB page, which the AVX-512 kernel
/// compares without masked loads: fragments that share one allocation are cut so that a run
/// ends at every distance up to 64 bytes before a page boundary, and at and after it, with a
/// difference at every byte near the boundary.
#[test]
fn runs_near_a_page_boundary() {
    const PAGE: usize = 4096;
    let flat = content(3 * PAGE);
    let whole = Bytes::from(flat.clone());
    // The offset of the first page boundary at least 200 bytes into the allocation.
    let base = whole.as_ptr() as usize;
    let boundary = (base + 200).next_multiple_of(PAGE) - base;
    let span = boundary - 160..boundary + 100;
    let step = if cfg!(miri) { 23 } else { 1 };
    for end in (boundary - 70..boundary + 4).step_by(step) {
        for run in [1, 17, 33, 64, 65] {
            let start = end - run;
            // `a`: the run is one fragment; `b`: the same bytes in fragments of 1 and 3 bytes
            // around it, so its runs start at every offset before the boundary.
            let a_cuts = [0, start, end, whole.len()];
            let a: ByteString = a_cuts.windows(2).map(|w| whole.slice(w[0]..w[1])).collect();
            let mut other = flat.clone();
            for level in levels::all() {
                let name = level.name();
                let ctx = format!("run {start}..{end}, boundary {boundary}, {name}");
                let b = three_cuts(&whole, start, end);
                assert!(level.eq(&a, &b) && level.eq(&b, &a), "{ctx}");
                for at in span.clone().step_by(step) {
                    other[at] ^= 0x01;
                    let changed = Bytes::from(other.clone());
                    let c = three_cuts(&changed, start, end);
                    let d: ByteString = a_cuts
                        .windows(2)
                        .map(|w| changed.slice(w[0]..w[1]))
                        .collect();
                    assert!(!level.eq(&a, &c) && !level.eq(&c, &a), "{ctx}: byte {at}");
                    assert!(!level.eq(&b, &d) && !level.eq(&d, &b), "{ctx}: byte {at}");
                    other[at] ^= 0x01;
                }
            }
        }
    }
}

/// `whole` cut at `start` and `end` and into 1- and 3-byte fragments for 8 bytes before
/// each cut, all sharing `whole`'s allocation.
fn three_cuts(whole: &Bytes, start: usize, end: usize) -> ByteString {
    let mut cuts = vec![0];
    for c in [start, end] {
        let from = c.saturating_sub(8).max(*cuts.last().unwrap_or(&0));
        let mut at = from;
        let mut k = 0;
        while at < c {
            cuts.push(at);
            at += if k % 2 == 0 { 1 } else { 3 };
            k += 1;
        }
        cuts.push(c);
    }
    cuts.push(whole.len());
    cuts.dedup();
    cuts.windows(2).map(|w| whole.slice(w[0]..w[1])).collect()
}

/// Order of two strings of different lengths, both of three or more fragments (the run walk
/// stops where the shorter one runs out, then orders by length): against every prefix of
/// the same content, equal up to its end or different at any one of its bytes, cut into
/// fragments of 1 to 17 bytes, and against the one-fragment form of the prefix.
#[rstest]
fn order_of_a_longer_and_a_shorter_string(#[values(1, 2, 3, 7, 8, 16, 17, 33)] la: usize) {
    let len = if cfg!(miri) { 24 } else { 2 * 33 + 11 };
    let flat = content(len);
    let a: ByteString = cut(&flat, &[la]).into_iter().collect();
    assert!(a.fragment_count() >= 3);
    let step = if cfg!(miri) { 7 } else { 1 };
    for lb in (1..=17).step_by(step) {
        for m in (0..len).step_by(step) {
            let mut changes = vec![None];
            changes.extend((0..m).step_by(step).map(Some));
            for at in changes {
                let mut shorter = flat[..m].to_vec();
                if let Some(at) = at {
                    shorter[at] ^= 0x40;
                }
                let ctx = format!("la {la}, lb {lb}, prefix {m}, byte {at:?} differs");
                let b: ByteString = cut(&shorter, &[lb]).into_iter().collect();
                if b.fragment_count() < 3 {
                    continue;
                }
                let expected = flat.cmp(&shorter);
                assert_eq!(a.cmp(&b), expected, "{ctx}");
                assert_eq!(b.cmp(&a), expected.reverse(), "{ctx}");
                assert_ne!(a, b, "{ctx}");
                let flat_b = ByteString::from(shorter.clone());
                assert_eq!(a.cmp(&flat_b), expected, "{ctx}: one fragment");
                assert_eq!(flat_b.cmp(&a), expected.reverse(), "{ctx}: one fragment");
            }
        }
    }
}

/// `flat` as fragments of 3, 1, 4, 1, 5, 9, 2 and 6 bytes, with empty ones between.
fn pushes(flat: &[u8]) -> Vec<Bytes> {
    cut(flat, &[3, 0, 1, 4, 1, 5, 0, 9, 2, 6])
}

/// A queue of `pushed` (shared, not copied), already advanced by `advanced` bytes.
fn queue_of(pushed: &[Bytes], advanced: usize) -> ByteQueue {
    let mut queue: ByteQueue = pushed.iter().cloned().collect();
    queue.advance(advanced);
    queue
}

/// Every cut `split_to` and `try_split_to` can make, from a queue whose first fragment is
/// whole or partly consumed: the frame holds the first `n` bytes in chunks of the pushed
/// fragments (no copy), the queue the rest in non-empty fragments, and a second cut takes
/// up from there.
#[rstest]
fn split_to_at_every_cut(#[values(0, 1, 2, 3, 4)] advanced: usize) {
    let flat = content(36);
    let pushed = pushes(&flat);
    let rest = &flat[advanced..];
    for n in 0..=rest.len() + 1 {
        for way in ["split_to", "try_split_to"] {
            let mut queue = queue_of(&pushed, advanced);
            let ctx = format!("advanced {advanced}, {way}({n})");
            let frame = match way {
                "split_to" if n <= rest.len() => queue.split_to(n),
                "split_to" => continue,
                _ => match queue.try_split_to(n) {
                    Some(frame) => frame,
                    None => {
                        assert!(n > rest.len(), "{ctx}: None");
                        assert_eq!(queue, rest[..], "{ctx}: changed on None");
                        continue;
                    }
                },
            };
            assert_eq!(frame, rest[..n], "{ctx}");
            assert_eq!(queue, rest[n..], "{ctx}: rest");
            assert_eq!(queue.len(), rest.len() - n, "{ctx}: len");
            assert!(
                queue.chunks().all(|c| !c.is_empty()),
                "{ctx}: empty fragment"
            );
            assert!(frame.chunks().all(|c| !c.is_empty()), "{ctx}: empty chunk");
            // No byte is copied: each chunk of the frame lies in a pushed fragment.
            for c in frame.chunks() {
                let at = c.as_ptr() as usize;
                assert!(
                    pushed.iter().any(|p| {
                        let base = p.as_ptr() as usize;
                        base <= at && at + c.len() <= base + p.len()
                    }),
                    "{ctx}: a chunk of the frame is a copy"
                );
            }
            // The next cut, from whatever the first left in front.
            let m = (rest.len() - n).min(4);
            assert_eq!(queue.split_to(m), rest[n..n + m], "{ctx}, then {m}");
            assert_eq!(queue, rest[n + m..], "{ctx}, then {m}: rest");
        }
    }
}

/// `find_byte` for a delimiter at every position, in the first fragment (whole or partly
/// consumed) or any later one, and for a queue without it.
#[rstest]
fn find_byte_at_every_position(#[values(0, 1, 2, 4)] advanced: usize) {
    let len = 36;
    for at in advanced..len {
        let mut flat = vec![b'a'; len];
        flat[at] = b'\n';
        let queue = queue_of(&pushes(&flat), advanced);
        assert_eq!(
            queue.find_byte(b'\n'),
            Some(at - advanced),
            "advanced {advanced}, at {at}"
        );
        assert_eq!(
            queue.find(b"\n"),
            Some(at - advanced),
            "advanced {advanced}, at {at}"
        );
        assert_eq!(queue.find_byte(b'\r'), None, "advanced {advanced}, at {at}");
    }
    assert_eq!(ByteQueue::new().find_byte(b'\n'), None);
}
