//! Each level takes its own comparison path: the counts of the hidden `__counters` feature
//! show which path each comparison of two fragment lists took.

use std::collections::HashMap;

use bytes::{Buf, Bytes};
use wirebytes_rope::{ByteQueue, ByteString, levels};

/// The counts of the paths `run` took on this thread (the counters are each thread's own).
fn counted(run: impl FnOnce()) -> HashMap<&'static str, usize> {
    levels::reset_counts();
    run();
    levels::counts().collect()
}

/// Two equal strings of `n` bytes, cut into fragments at unrelated points.
fn two_cuts(n: usize) -> (ByteString, ByteString) {
    let bytes: Vec<u8> = (0..n).map(|i| (i * 7 % 251) as u8).collect();
    let cut = |step: usize| {
        bytes
            .chunks(step)
            .map(ByteString::copy_from_slice)
            .fold(ByteString::new(), |all, piece| all.concat(&piece))
    };
    (cut(13), cut(29))
}

#[test]
fn each_level_compares_fragment_lists_with_its_own_path() {
    let (a, b) = two_cuts(4000);
    let mut names = Vec::new();
    for level in levels::all() {
        names.push(level.name());
        let counts = counted(|| {
            assert!(level.eq(&a, &b), "{}", level.name());
            assert!(!level.eq(&a, &b.concat(&ByteString::from_static(b"x")).slice(1..)));
        });
        let (kernel, portable) = (counts["eq_chunks_avx512"], counts["eq_chunks_portable"]);
        match level.name() {
            "avx512" => assert_eq!((kernel, portable), (2, 0), "avx512"),
            "portable" => assert_eq!((kernel, portable), (0, 2), "portable"),
            other => panic!("a level this test does not know: {other}"),
        }
    }
    assert_eq!(names[0], "portable");
}

/// The AVX-512 comparison takes the last bytes of a run with masked loads, and compares them
/// as slices only where a load's 64 bytes would reach into the next page: runs of 40 bytes
/// in the middle of a page take no detour, a run ending 10 bytes before a page end one.
#[test]
fn the_comparison_detours_only_near_a_page_end() {
    let Some(level) = levels::get("avx512") else {
        return;
    };
    // 40 bytes of a buffer of three pages, ending `from_end` bytes before the end of the
    // middle page.
    let run = |from_end: usize| {
        let buf = Bytes::from(vec![b'r'; 3 * 4096]);
        let start = buf.as_ptr() as usize;
        let end = (start / 4096 + 2) * 4096 - from_end - start;
        buf.slice(end - 40..end)
    };
    for (from_end, detours) in [(2000, 0), (10, 1)] {
        let a = ByteString::from(run(from_end)).concat(&ByteString::from(run(2000)));
        let b = ByteString::from(run(2000)).concat(&ByteString::from(run(2000)));
        let counts = counted(|| assert!(level.eq(&a, &b)));
        assert_eq!(
            counts["page_detours_avx512"], detours,
            "{from_end} bytes before"
        );
    }
}

/// `a == b` at every level, with no comparison path taken.
fn equal_without_a_walk(a: &ByteString, b: &ByteString) {
    for level in levels::all() {
        let counts = counted(|| assert!(level.eq(a, b)));
        assert!(
            counts.values().all(|&n| n == 0),
            "{}: {counts:?}",
            level.name()
        );
    }
}

#[test]
fn one_fragment_each_needs_no_walk() {
    let a = ByteString::copy_from_slice(&[5; 300]);
    let b = ByteString::copy_from_slice(&[5; 300]);
    equal_without_a_walk(&a, &b);
}

/// A string of many fragments equals its clone (the same shared list) without a walk.
#[test]
fn a_shared_fragment_list_needs_no_walk() {
    let (a, _) = two_cuts(1000);
    let b = a.clone();
    equal_without_a_walk(&a, &b);
}

/// `ByteQueue::find` of a one-byte needle takes the one-byte search (`memchr` per fragment);
/// longer needles do not.
#[test]
fn a_one_byte_needle_takes_the_byte_search() {
    let queue: ByteQueue = [
        Bytes::from_static(b"GET / HTTP/1.1\r"),
        Bytes::from_static(b"\nHost"),
    ]
    .into_iter()
    .collect();
    let counts = counted(|| assert_eq!(queue.find(b"\n"), Some(15)));
    assert_eq!(counts["find_byte"], 1);
    let counts = counted(|| assert_eq!(queue.find(b"\r\n"), Some(14)));
    assert_eq!(counts["find_byte"], 0);
}

/// A byte past the first fragment: the walk searches the fragments after the first (the
/// first is searched before it) up to the one that holds it.
#[test]
fn the_byte_search_walks_the_fragments_after_the_first() {
    let queue: ByteQueue = [
        Bytes::from_static(b"abc"),
        Bytes::from_static(b"def"),
        Bytes::from_static(b"gh\n"),
        Bytes::from_static(b"ijk"),
    ]
    .into_iter()
    .collect();
    let counts = counted(|| assert_eq!(queue.find_byte_from(b'\n', 1), Some(8)));
    assert_eq!(counts["find_byte_walk_fragments"], 2);
    let counts = counted(|| assert_eq!(queue.find_byte_from(b'\n', 4), Some(8)));
    assert_eq!(counts["find_byte_walk_fragments"], 2);
}

/// A byte string of one fragment is searched as one slice: no needle, found or not, goes on
/// to the search past the first fragment.
#[test]
fn a_string_of_one_fragment_is_searched_as_one_slice() {
    let string = ByteString::from(b"GET / HTTP/1.1\r\nHost: a\r\n\r\n".to_vec());
    for (needle, want) in [
        (&b"\r\n\r\n"[..], Some(23)),
        (b"Accept", None),
        (b"a\r", Some(22)),
    ] {
        let counts = counted(|| assert_eq!(string.find_from(needle, 1), want));
        assert_eq!(counts["find_after_first"], 0, "{needle:?}");
    }
}

/// Past the first fragment, long fragments are searched where they lie, with the stack's
/// gathering buffer for a short needle and a heap one for a needle of more than 2 KiB; a
/// short slice is searched without building a `memmem` searcher.
#[test]
fn long_fragments_are_searched_in_place_and_short_needles_gather_on_the_stack() {
    let mut third = vec![b'a'; 2000];
    third[1500..1502].copy_from_slice(b"xy");
    let queue: ByteQueue = [vec![b'a'; 2000], vec![b'a'; 2000], third]
        .into_iter()
        .map(Bytes::from)
        .collect();
    let counts = counted(|| assert_eq!(queue.find(b"xy"), Some(5500)));
    assert_eq!(counts["find_in_place_fragments"], 2);
    assert_eq!(counts["find_heap_gathers"], 0);
    let long = vec![b'b'; 2049];
    let counts = counted(|| assert_eq!(queue.find(&long), None));
    assert_eq!(counts["find_heap_gathers"], 1);
    // Five candidates by the first byte: the last one past the quick look at four.
    let short = ByteString::from(b"t1 t2 t3 t4 t5 text".to_vec());
    let counts = counted(|| assert_eq!(short.find(b"text"), Some(15)));
    assert_eq!(counts["find_short_to_memmem"], 1);
    assert_eq!(counts["finder_builds"], 0);
}

/// A needle found inside the first fragment is found there alone, at every `find` form of
/// both types; one that is not (or that straddles the first boundary) goes on past it.
#[test]
fn a_match_in_the_first_fragment_ends_the_search_there() {
    let parts = [
        Bytes::from_static(b"GET / HTTP/1.1\r\nHost: a\r"),
        Bytes::from_static(b"\nAccept: */*\r\n\r\n"),
    ];
    let queue: ByteQueue = parts.iter().cloned().collect();
    let string: ByteString = parts.iter().cloned().collect();
    type Find<'a> = Box<dyn Fn(&[u8]) -> Option<usize> + 'a>;
    let forms: [(&str, Find<'_>); 4] = [
        ("queue find", Box::new(|n| queue.find(n))),
        ("queue find_from", Box::new(|n| queue.find_from(n, 1))),
        ("string find", Box::new(|n| string.find(n))),
        ("string find_from", Box::new(|n| string.find_from(n, 1))),
    ];
    for (form, find) in &forms {
        for (needle, at, past_first) in [
            (&b"\r\n"[..], 14, 0),
            (b"Host", 16, 0),
            (b"a\r\nAcc", 22, 1),
            (b"*/*", 33, 1),
            (b"\r\n\r\n", 36, 1),
            (b"\n\n", usize::MAX, 1),
        ] {
            let counts =
                counted(|| assert_eq!(find(needle), (at != usize::MAX).then_some(at), "{form}"));
            assert_eq!(counts["find_after_first"], past_first, "{form} {needle:?}");
        }
    }
}

/// A short needle whose first byte is rare (a delimiter in text) is found by that byte
/// alone; one whose first byte keeps matching elsewhere is handed to `memmem` once per
/// slice it searches in place; longer needles go to `memmem` directly.
#[test]
fn a_short_needle_is_found_by_its_first_byte_while_that_is_rare() {
    let text = ByteString::from(b"GET /index.html HTTP/1.1\r\nHost: example.com\r\n\r\n".to_vec());
    let counts = counted(|| assert_eq!(text.find(b"\r\n\r\n"), Some(43)));
    assert_eq!(counts["find_short_to_memmem"], 0);
    let counts = counted(|| assert_eq!(text.find(b"\r\nX"), None));
    assert_eq!(counts["find_short_to_memmem"], 0);
    // Five `a`s before the match: the fifth candidate is no longer checked by hand.
    let runs = ByteString::from(b"a-a-a-a-a-ab".to_vec());
    let counts = counted(|| assert_eq!(runs.find(b"ab"), Some(10)));
    assert_eq!(counts["find_short_to_memmem"], 1);
    let counts = counted(|| assert_eq!(runs.find(b"a-a-a-a-ab"), Some(2)));
    assert_eq!(counts["find_short_to_memmem"], 0);
    // Two fragments, the match in the second: the first hands over; the short second one is
    // gathered and searched by `memmem` alone.
    let two: ByteString = [&b"a-a-a-a-a-"[..], b"a-a-a-a-a-ab"]
        .into_iter()
        .map(Bytes::from_static)
        .collect();
    let counts = counted(|| assert_eq!(two.find(b"ab"), Some(20)));
    assert_eq!(counts["find_short_to_memmem"], 1);
}

/// The readers' getters read inside the current fragment while more bytes follow in it, and
/// gather only the fragment's last ones; `copy_to_bytes` inside one fragment shares it.
#[test]
fn the_readers_stay_inside_a_fragment_where_they_can() {
    let bytes = Bytes::from((0..64).collect::<Vec<u8>>());
    let s = ByteString::from(bytes.clone());
    let queue = ByteQueue::from(s.clone());
    let mut readers: [Box<dyn Buf>; 3] = [
        Box::new(s.reader()),
        Box::new(s.clone().into_reader()),
        Box::new(queue),
    ];
    for (i, r) in readers.iter_mut().enumerate() {
        let counts = counted(|| {
            for k in 0..14_u8 {
                assert_eq!(
                    r.get_u32(),
                    u32::from_be_bytes([4 * k, 4 * k + 1, 4 * k + 2, 4 * k + 3])
                );
            }
        });
        assert_eq!(counts["take_across"], 0, "reader {i}");
        let shared = r.copy_to_bytes(4);
        assert_eq!(shared.as_ptr(), bytes[56..].as_ptr(), "reader {i}: a copy");
    }
}

/// The AVX-512 comparison leaves runs longer than 256 bytes to the slice comparison, and
/// compares shorter ones itself.
#[test]
fn the_kernel_leaves_long_runs_to_the_slice_comparison() {
    let Some(level) = levels::get("avx512") else {
        return;
    };
    let bytes: Vec<u8> = (0..8000).map(|i| (i % 251) as u8).collect();
    let cut = |step: usize| {
        bytes
            .chunks(step)
            .map(ByteString::copy_from_slice)
            .fold(ByteString::new(), |all, piece| all.concat(&piece))
    };
    for (step, long_runs) in [(1000, 8), (257, 31), (256, 0), (100, 0)] {
        let counts = counted(|| assert!(level.eq(&cut(step), &cut(step))));
        assert_eq!(counts["long_run_avx512"], long_runs, "runs of {step}");
    }
}
