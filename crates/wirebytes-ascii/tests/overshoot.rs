//! The kernels that store past their count (the 2-, 3- and 4-byte run kernels store 16 bytes
//! per step and count fewer when a run ends inside it; the AVX-512 kernel leaves a high
//! surrogate's byte to the caller) with a `dst` that ends at every byte of that overshoot:
//! `copy_low_bytes` returns what the reference returns, writes what it writes, and leaves
//! every byte past the returned count exactly as it was. At every kernel level this CPU has.

use wirebytes_ascii::{levels, reference};

/// A byte no case writes.
const SENTINEL: u8 = 0xA5;

/// `copy_low_bytes` at every level into `dst` of every length from 0 to 16 past the text's
/// units (a kernel stores 16 bytes, so its room may end anywhere in a store), against the
/// reference, with every byte past the count left as it was.
fn every_dst_len(text: &str, what: &str) {
    let units = reference::low_bytes_len(text);
    // Under Miri, three lengths: one short of the units, and room ending inside the
    // largest overshoots.
    let lens: Vec<usize> = if cfg!(miri) {
        [units.saturating_sub(1), units + 8, units + 15].into()
    } else {
        (0..=units + 16).collect()
    };
    for len in lens {
        let mut want = vec![SENTINEL; len];
        let n_want = reference::copy_low_bytes(text, &mut want);
        for level in levels::all() {
            let mut got = vec![SENTINEL; len];
            let n = level.copy_low_bytes(text, &mut got);
            assert_eq!(
                (n, &got),
                (n_want, &want),
                "{}: {what}, dst of {len} ({units} units): {text:?}",
                level.name()
            );
            assert!(
                got[n..].iter().all(|&b| b == SENTINEL),
                "{}: wrote past {n}",
                level.name()
            );
        }
    }
}

/// How many of a kernel's run lengths (and of the chars that end a run) to try: all of them
/// natively, a few under Miri.
fn step() -> usize {
    wirebytes_testkit::scale_miri(1, 1, 15)
}

/// Eight 3-byte chars: the fewest units for their bytes, so the run kernels' stores past
/// their count are overwritten as late as the contract allows.
const CJK: &str = "\u{4E2D}\u{6587}\u{5B57}\u{7B26}\u{7F16}\u{7801}\u{6D4B}\u{8BD5}";

/// What follows a run: 0 to 16 3-byte chars (the first `n` of [`CJK`], twice over), or ASCII.
fn tails() -> impl Iterator<Item = String> {
    (0..=16)
        .step_by(wirebytes_testkit::scale_miri(1, 1, 17))
        .map(|n| CJK.chars().cycle().take(n).collect())
        .chain(["xy".to_owned()])
}

#[test]
fn three_byte_runs_that_end_inside_a_block() {
    // A run of `k` 3-byte chars, then what ends it, then 3-byte text: after `k < 16` chars
    // the kernel's store leaves up to 15 bytes past its count.
    for k in (1..=33).step_by(step()) {
        // ("a" before 3-byte text: one ASCII byte between two runs, which the kernel copies
        // over the first byte past its count.)
        for stop in ["a", "ab", "\u{E9}", "\u{1F600}", "a\u{E9}"]
            .into_iter()
            .step_by(step().min(3))
        {
            for tail in tails() {
                let text = format!("{}{stop}{tail}", "\u{4E2D}".repeat(k));
                every_dst_len(&text, &format!("{k} 3-byte chars, then {stop:?}"));
            }
        }
    }
}

#[test]
fn four_byte_runs_that_end_inside_a_block() {
    // `k < 8` 4-byte chars leave up to `16 - 2k` bytes past the count.
    for k in (1..=17).step_by(step()) {
        for stop in ["a", "\u{E9}", "\u{4E2D}"]
            .into_iter()
            .step_by(step().min(3))
        {
            for tail in tails() {
                let text = format!("{}{stop}{tail}", "\u{1F600}".repeat(k));
                every_dst_len(&text, &format!("{k} 4-byte chars, then {stop:?}"));
            }
        }
    }
}

#[test]
fn two_byte_runs_that_end_inside_a_window() {
    // The 2-byte kernel leaves up to 8 bytes past its count: 2-byte chars alone, and with
    // ASCII between them, then a char that ends the run.
    for k in (1..=40).step_by(step()) {
        for run in ["\u{E9}".repeat(k), "\u{430}a".repeat(k / 2 + 1)] {
            for stop in ["\u{4E2D}", "\u{1F600}"].into_iter().step_by(step().min(3)) {
                for tail in tails() {
                    let text = format!("{run}{stop}{tail}");
                    every_dst_len(&text, &format!("{k} 2-byte chars, then {stop:?}"));
                }
            }
        }
    }
}

#[test]
fn a_four_byte_char_at_the_end_of_the_last_64_byte_window() {
    // The AVX-512 kernel reads 64 bytes per step while 65 are left: a 4-byte char whose lead
    // is at byte 61, 62 or 63 of the last window is left to the caller (with its high
    // surrogate's byte written), and `dst` ends before, inside and after its two units.
    for window in 0..wirebytes_testkit::scale_miri(2, 2, 1) {
        for at in (56..=63).step_by(wirebytes_testkit::scale_miri(1, 1, 5)) {
            // A non-ASCII char first, so the kernel starts at byte 0.
            let head = format!("\u{E9}{}", "a".repeat(64 * window + at - 2));
            for rest in [0, 1, 2, 3, 4, 5, 8].into_iter().step_by(step().min(4)) {
                let text = format!("{head}\u{1F600}{}", "z".repeat(rest));
                every_dst_len(&text, &format!("U+1F600 at {at} of window {window}"));
                let text = format!("{head}\u{1F600}{}", "\u{4E2D}".repeat(rest));
                every_dst_len(&text, &format!("U+1F600 at {at} of window {window}, CJK"));
            }
        }
    }
}
