//! That the kernels and the fast paths run where they should, read from the test-only
//! counters (feature `__counters`): at every kernel level this CPU has, each kernel of the
//! level handles the input it is for (with the byte count its contract fixes where it fixes
//! one), the kernels of higher levels handle nothing, and each portable fast path is taken on
//! its input. The outputs are checked elsewhere; a kernel that declines, or a level that
//! runs the wrong kernels, gives the same bytes and shows only here.
//!
//! The counters are the thread's own: each test reads what it ran, whatever runs beside it.
#![cfg(feature = "alloc")]

use std::collections::BTreeMap;

use wirebytes_ascii::levels::{self, Level};

/// The levels in order, with the kernel name suffixes each adds.
const LEVELS: [(&str, &str); 4] = [
    ("portable", ""),
    ("ssse3", "_ssse3"),
    ("avx2", "_avx2"),
    ("avx512", "_avx512"),
];

/// The rank of the level named `name` in [`LEVELS`].
fn rank(name: &str) -> usize {
    LEVELS
        .iter()
        .position(|&(level, _)| level == name)
        .unwrap_or_else(|| panic!("unknown level {name}"))
}

/// The rank of the level a counter's kernel belongs to, or `None` for a portable path.
fn kernel_rank(counter: &str) -> Option<usize> {
    LEVELS[1..]
        .iter()
        .position(|&(_, suffix)| counter.ends_with(suffix))
        .map(|i| i + 1)
}

/// The counters after `run` at `level`, from zero.
fn counted(level: Level, run: impl FnOnce(Level)) -> BTreeMap<&'static str, usize> {
    levels::reset_counts();
    run(level);
    levels::counts().collect()
}

/// Asserts that no kernel of a level above `level` handled anything in `counts`.
fn only_kernels_of(level: Level, counts: &BTreeMap<&'static str, usize>, what: &str) {
    let at = rank(level.name());
    for (&name, &count) in counts {
        if kernel_rank(name).is_some_and(|kernel| kernel > at) {
            assert_eq!(count, 0, "{what} at {}: {name} ran", level.name());
        }
    }
}

/// One public function at a level, on a text.
type Operation = fn(Level, &str);

/// The operations a kernel serves, each on `text`.
fn operations() -> Vec<(&'static str, Operation)> {
    vec![
        ("copy_low_bytes", |level, text| {
            let mut dst = vec![0; 4 * text.len() + 8];
            let _ = level.copy_low_bytes(text, &mut dst);
        }),
        ("low_bytes", |level, text| {
            let _ = level.low_bytes(text);
        }),
        ("low_bytes_to_vec", |level, text| {
            let mut dst = b"H: ".to_vec();
            level.low_bytes_to_vec(text, &mut dst);
        }),
        #[cfg(feature = "bytes")]
        ("low_bytes_to_buf", |level, text| {
            let mut dst = bytes::BytesMut::new();
            level.low_bytes_to_buf(text, &mut dst);
        }),
        ("low_bytes_len", |level, text| {
            let _ = level.low_bytes_len(text);
        }),
        ("find_invalid_header_byte", |level, text| {
            let _ = level.find_invalid_header_byte(text.as_bytes());
        }),
        ("render_header_value", |level, text| {
            let _ = level.render_header_value(text, &mut Vec::new());
        }),
    ]
}

/// Texts of every kind a kernel is for, short and long.
fn texts() -> Vec<String> {
    let mut texts = vec![
        "Host".to_owned(),
        "a\u{E9}\u{4E2D}b".to_owned(),
        "a\u{1F600}b".to_owned(),
        "x".repeat(1000),
        format!("a{}", "\u{E9}".repeat(200)),
        format!("a{}", "\u{4E2D}".repeat(200)),
        format!("a{}", "\u{1F600}".repeat(200)),
        format!("\u{4E2D}{}", "x".repeat(500)),
        "caf\u{E9} na\u{EF}ve \u{C5}ngstr\u{F6}m ".repeat(20),
        "ab\u{E9}\u{4E2D}cd\u{1F600}efgh".repeat(20),
    ];
    texts.push(format!("{}\r\n", "y".repeat(300)));
    texts
}

/// The counters of `text` through `operation` at `level`, the out-of-level kernels checked.
fn run(level: Level, what: &str, operation: Operation, text: &str) -> Counts {
    let counts = counted(level, |level| operation(level, text));
    only_kernels_of(level, &counts, what);
    Counts(counts)
}

/// Counters by name, 0 for a name that is not there.
struct Counts(BTreeMap<&'static str, usize>);

impl Counts {
    /// The count of `name`, which must be a counter.
    fn get(&self, name: &str) -> usize {
        *self
            .0
            .get(name)
            .unwrap_or_else(|| panic!("no counter {name}: {:?}", self.0))
    }
}

/// The operation named `name`.
fn operation(name: &str) -> Operation {
    operations()
        .into_iter()
        .find(|&(op, _)| op == name)
        .map(|(_, f)| f)
        .unwrap_or_else(|| panic!("no operation {name}"))
}

#[test]
fn every_counter_is_known_and_starts_at_zero_after_a_reset() {
    levels::reset_counts();
    let counts: Vec<_> = levels::counts().collect();
    assert!(counts.iter().all(|&(_, count)| count == 0), "{counts:?}");
    for name in [
        "ascii_blocks_avx512",
        "ascii_blocks_avx2",
        "header_blocks_avx512",
        "header_blocks_avx2",
        "find_invalid_header_byte_avx512",
        "find_invalid_header_byte_avx2",
        "count_units_avx512",
        "count_units_avx2",
        "utf8_blocks_avx512",
        "utf8_blocks_checked_avx512",
        "utf8_short_avx512",
        "bmp_short_ssse3",
        "two_byte_blocks_ssse3",
        "three_byte_blocks_ssse3",
        "four_byte_blocks_ssse3",
        "copy_short",
        "plain_blocks",
        "copy_words",
        "copy_windows",
        "copy_tail",
        "copy_long_calls",
        "count_units_portable",
        "find_invalid_header_byte_portable",
        "squeezed_words",
        "two_byte_runs",
        "three_byte_runs",
        "four_byte_runs",
        "copy_units",
        "bmp_short_scan_ssse3",
        "kernel_single_blocks",
        "short_two_byte_words",
        "four_byte_calls_ssse3",
        "page_bounces_avx512",
    ] {
        assert!(counts.iter().any(|&(n, _)| n == name), "{name}");
    }
}

/// Every level is one of the known ones, the portable level comes first, and the levels grow
/// in [`LEVELS`] order.
#[test]
fn the_levels_are_the_known_ones_in_order() {
    let ranks: Vec<usize> = levels::all().map(|level| rank(level.name())).collect();
    assert_eq!(ranks.first(), Some(&0));
    assert!(ranks.windows(2).all(|pair| pair[0] < pair[1]), "{ranks:?}");
}

/// No operation on any text runs a kernel of a higher level; at `portable` no kernel at all.
#[test]
fn no_kernel_runs_outside_its_level() {
    for level in levels::all() {
        for text in texts() {
            for (name, operation) in operations() {
                run(level, name, operation, &text);
            }
        }
    }
}

/// A long ASCII text: with AVX2 or AVX-512 all of it through that level's block kernel (the
/// last block overlapping); without them, the portable 64-byte blocks take the 15 whole ones.
#[test]
fn ascii_goes_through_the_block_kernel_of_the_level() {
    let text = "x".repeat(1000);
    for level in levels::all() {
        let at = rank(level.name());
        let c = run(level, "copy", operation("copy_low_bytes"), &text);
        assert_eq!(c.get("ascii_blocks_avx512"), if at == 3 { 1000 } else { 0 });
        assert_eq!(c.get("ascii_blocks_avx2"), if at == 2 { 1000 } else { 0 });
        assert_eq!(c.get("plain_blocks"), if at < 2 { 960 } else { 0 });
        // One block at a time: AVX2 all 15 and the last, overlapping one; AVX-512 the one
        // after its 7 pairs of blocks, and the last.
        let single = [0, 0, 16 * 64, 2 * 64][at];
        assert_eq!(c.get("kernel_single_blocks"), single, "{}", level.name());
        assert_eq!(c.get("copy_words"), 0, "no word loop for ASCII");
        assert_eq!(c.get("copy_long_calls"), 0, "no call past the ASCII copy");
        let mut short = [0u8; 10];
        let c = Counts(counted(level, |level| {
            let _ = level.copy_low_bytes(&text, &mut short);
        }));
        assert_eq!(c.get("copy_long_calls"), 0, "no call once the room is full");

        let c = run(level, "render", operation("render_header_value"), &text);
        assert_eq!(
            c.get("header_blocks_avx512"),
            if at == 3 { 1000 } else { 0 }
        );
        assert_eq!(c.get("header_blocks_avx2"), if at == 2 { 1000 } else { 0 });
        assert_eq!(c.get("plain_blocks"), if at < 2 { 960 } else { 0 });
        assert_eq!(c.get("kernel_single_blocks"), single, "{}", level.name());
    }
}

/// The short-text copy takes a word of four 2-byte chars at once, at every level.
#[test]
fn short_text_takes_four_two_byte_chars_a_word() {
    let text = "\u{391}\u{392}\u{393}\u{394}\u{395}\u{396}\u{397}\u{398}";
    for level in levels::all() {
        let c = run(level, "copy", operation("copy_low_bytes"), text);
        assert_eq!(c.get("short_text"), 16, "{}", level.name());
        assert_eq!(c.get("short_two_byte_words"), 16, "{}", level.name());
    }
}

/// The word loop sends a long ASCII run after a non-ASCII char to the bulk ASCII copy: the
/// AVX2 block kernel, or the portable blocks at `ssse3` (at `avx512` the text kernel takes
/// all of it).
#[test]
fn the_word_loop_hands_ascii_runs_to_the_block_copy() {
    let text = format!("\u{4E2D}{}", "x".repeat(500));
    for level in levels::all() {
        let c = run(level, "copy", operation("copy_low_bytes"), &text);
        match level.name() {
            "ssse3" => assert!(c.get("plain_blocks") >= 384, "{:?}", c.0),
            "avx2" => assert!(c.get("ascii_blocks_avx2") >= 448, "{:?}", c.0),
            "avx512" => assert_eq!(c.get("utf8_blocks_avx512"), 448, "{:?}", c.0),
            _ => assert!(c.get("plain_blocks") > 0, "{:?}", c.0),
        }
    }
}

/// `low_bytes_len` asks the counting kernel from 128 bytes on: all of them through it with
/// AVX2 or AVX-512, else the portable count; fewer bytes always the portable count.
#[test]
fn counting_goes_through_the_count_kernel_of_the_level() {
    for len in [127, 128, 1000] {
        let text = "\u{E9}".repeat(len / 2) + &"z".repeat(len % 2);
        for level in levels::all() {
            let at = if len < 128 { 0 } else { rank(level.name()) };
            let c = run(level, "len", operation("low_bytes_len"), &text);
            assert_eq!(c.get("count_units_avx512"), if at == 3 { len } else { 0 });
            assert_eq!(c.get("count_units_avx2"), if at == 2 { len } else { 0 });
            assert_eq!(c.get("count_units_portable"), if at < 2 { len } else { 0 });
        }
    }
}

/// `find_invalid_header_byte`: the AVX-512 kernel from 64 bytes on, the AVX2 one from 32 (so
/// at `avx512` too, between 32 and 63), the portable search otherwise.
#[test]
fn the_header_search_goes_through_the_kernel_of_the_level() {
    for len in [31, 32, 63, 64, 1000] {
        let text = "v".repeat(len);
        for level in levels::all() {
            let at = rank(level.name());
            let avx512 = at == 3 && len >= 64;
            let avx2 = at >= 2 && len >= 32 && !avx512;
            let c = run(level, "find", operation("find_invalid_header_byte"), &text);
            let what = format!("{} bytes at {}", len, level.name());
            assert_eq!(
                c.get("find_invalid_header_byte_avx512"),
                if avx512 { len } else { 0 },
                "{what}"
            );
            assert_eq!(
                c.get("find_invalid_header_byte_avx2"),
                if avx2 { len } else { 0 },
                "{what}"
            );
            let portable = !avx512 && !avx2;
            assert_eq!(
                c.get("find_invalid_header_byte_portable"),
                if portable { len } else { 0 },
                "{what}"
            );
        }
    }
}

/// A short text (at most 64 bytes; 32 at `avx512`) with non-ASCII chars goes through the
/// copy of short text and through no kernel, when copied or turned into a vector, unless the
/// room ends in the middle of a surrogate pair: the careful tail takes that. At `avx512` a
/// text of 33 to 64 bytes goes to the short kernel step from its first non-ASCII byte. Rendering keeps its
/// checked path: the short kernel step, or the careful tail without a kernel.
#[test]
fn short_text_goes_through_the_short_copy_at_every_level() {
    for level in levels::all() {
        let at = rank(level.name());
        for name in ["copy_low_bytes", "low_bytes", "low_bytes_to_vec"] {
            let what = format!("{name} at {}", level.name());
            for text in [
                "a\u{E9}\u{4E2D}b",
                "Gr\u{FC}\u{DF}e",
                "price: 5 \u{20AC} (incl. tax)!",
                "a\u{1F600}b",
            ] {
                let c = run(level, name, operation(name), text);
                // (`low_bytes` counts the units first.)
                let ran: Vec<_> =
                    c.0.iter()
                        .filter(|&(name, &n)| n != 0 && !name.starts_with("count_units"))
                        .collect();
                assert_eq!(ran, [(&"short_text", &text.len())], "{what}, {text:?}");
            }
        }
        // 52 bytes.
        let text = "ok \u{1F44D} attachment; filename=\"B\u{FC}cher-\u{DC}bersicht.pdf\"";
        let c = run(level, "copy", operation("copy_low_bytes"), text);
        let (short, kernel) = if at == 3 {
            (0, text.len() - 3)
        } else {
            (text.len(), 0)
        };
        assert_eq!(c.get("short_text"), short, "{}", level.name());
        assert_eq!(c.get("utf8_short_avx512"), kernel, "{}", level.name());
        // A pair cut by the room's end: the careful tail writes its first unit.
        let counts = counted(level, |level| {
            let mut dst = [0; 2];
            assert_eq!(level.copy_low_bytes("a\u{1F600}b", &mut dst), 2);
        });
        assert_eq!(counts["short_text"], 1, "{}", level.name());
        assert_eq!(counts["copy_tail"], 4, "{}", level.name());
        // 65 bytes: the long way.
        let text = format!("{}\u{E9}", "x".repeat(63));
        let c = run(level, "copy", operation("copy_low_bytes"), &text);
        assert_eq!(c.get("short_text"), 0, "{}", level.name());
        assert_eq!(c.get("copy_long_calls"), 1, "{}", level.name());

        let what = format!("render_header_value at {}", level.name());
        let c = run(
            level,
            "render",
            operation("render_header_value"),
            "a\u{E9}\u{4E2D}b",
        );
        assert_eq!(
            c.get("utf8_short_avx512"),
            if at == 3 { 6 } else { 0 },
            "{what}"
        );
        assert_eq!(
            c.get("bmp_short_ssse3"),
            if at == 1 || at == 2 { 6 } else { 0 },
            "{what}"
        );
        assert_eq!(c.get("copy_tail"), if at == 0 { 6 } else { 0 }, "{what}");
        assert_eq!(c.get("short_text"), 0, "{what}");
    }
}

/// A short ASCII string is the fixed-size short copy and nothing else, at every level.
#[test]
fn short_ascii_is_the_short_copy() {
    for level in levels::all() {
        let c = run(level, "copy", operation("copy_low_bytes"), "Host");
        let ran: Vec<_> = c.0.iter().filter(|&(_, &n)| n != 0).collect();
        assert_eq!(ran, [(&"copy_short", &4)], "{}", level.name());
    }
}

/// A long run of chars of one UTF-8 length after one ASCII byte, copied with room to spare:
/// with SSSE3 (and AVX2) the kernel for that length takes it in whole steps (2-byte: 16
/// bytes while 40 are left; 3-byte: 48 while 48 are; 4-byte: 32 while 48 are); with AVX-512
/// the text kernel takes 64 bytes per step while more than 64 are left. Into an exact-size
/// vector, the room ends with the text, and at `avx512` the SSSE3 kernels take the end.
#[test]
fn runs_go_through_the_kernel_for_their_length() {
    for (char, kernel, ssse3_bytes, avx512_bytes, tail) in [
        ('\u{E9}', "two_byte_blocks_ssse3", 368, 384, 8),
        ('\u{4E2D}', "three_byte_blocks_ssse3", 576, 576, 12),
        // The first 3-byte lead (0xE0): its tail is the careful tail's, as CJK's is.
        ('\u{900}', "three_byte_blocks_ssse3", 576, 576, 12),
        ('\u{1F600}', "four_byte_blocks_ssse3", 768, 768, 8),
    ] {
        let text = format!("a{}", char.to_string().repeat(200));
        for level in levels::all() {
            let at = rank(level.name());
            let what = format!("{char:?} at {}", level.name());
            let c = run(level, "copy", operation("copy_low_bytes"), &text);
            let ssse3 = if at == 1 || at == 2 { ssse3_bytes } else { 0 };
            assert_eq!(c.get(kernel), ssse3, "{what}");
            if kernel == "four_byte_blocks_ssse3" {
                // The whole run in one call.
                assert_eq!(
                    c.get("four_byte_calls_ssse3"),
                    usize::from(ssse3 > 0),
                    "{what}"
                );
            }
            let avx512 = if at == 3 { avx512_bytes } else { 0 };
            assert_eq!(c.get("utf8_blocks_avx512"), avx512, "{what}");
            assert!(c.get("copy_words") >= c.get(kernel), "{what}");
            assert_eq!(c.get("copy_windows") > 0, at == 0, "{what}");
            // The last bytes: with AVX-512 one masked step; with SSSE3 alone the windows
            // for a tail of 2-byte chars, the careful tail for one that starts with a CJK
            // char or an emoji; without a kernel the careful tail.
            let (windows, careful) = match at {
                3 => (0, 0),
                1 | 2 if char < '\u{800}' => (tail, 0),
                _ => (0, tail),
            };
            assert_eq!(c.get("bmp_short_ssse3"), windows, "{what}");
            assert_eq!(c.get("copy_tail"), careful, "{what}");
            assert_eq!(c.get("utf8_short_avx512") > 0, at == 3, "{what}");
            if at == 3 {
                let c = run(level, "low_bytes", operation("low_bytes"), &text);
                assert!(c.get(kernel) > 0, "{what}, exact room: {:?}", c.0);
                assert!(
                    c.get("utf8_blocks_avx512") > 0,
                    "{what}, exact room: {:?}",
                    c.0
                );
                let c = run(level, "render", operation("render_header_value"), &text);
                assert!(
                    c.get("utf8_blocks_checked_avx512") > 0,
                    "{what}, render: {:?}",
                    c.0
                );
                assert!(c.get("utf8_short_avx512") > 0, "{what}, render: {:?}", c.0);
            }
        }
    }
}

/// Mixed text goes through the word loop at every level (after the portable windows at
/// `portable`, which only that level runs).
#[test]
fn mixed_text_goes_through_the_word_loop() {
    for text in [
        "caf\u{E9} na\u{EF}ve \u{C5}ngstr\u{F6}m ".repeat(20),
        "ab\u{E9}\u{4E2D}cd\u{1F600}efgh".repeat(20),
    ] {
        for level in levels::all() {
            let at = rank(level.name());
            let names = ["copy_low_bytes", "low_bytes", "low_bytes_to_vec"];
            #[cfg(feature = "bytes")]
            let names = [names[0], names[1], names[2], "low_bytes_to_buf"];
            for name in names {
                let what = format!("{name} at {}", level.name());
                let c = run(level, name, operation(name), &text);
                assert!(c.get("copy_words") > 0, "{what}: {:?}", c.0);
                assert_eq!(c.get("copy_windows") > 0, at == 0, "{what}: {:?}", c.0);
            }
        }
    }
}

/// `low_bytes_to_buf` counts the units of `src` (for its room check) only when the buffer's
/// room is shorter than `src.len()` bytes; `low_bytes` of ASCII text is one copy that runs
/// no path at all.
#[test]
fn units_are_counted_only_when_needed() {
    let text = "\u{4E2D}".repeat(100);
    let units = 100;
    for level in levels::all() {
        let counting = |c: &Counts| {
            c.get("count_units_portable") + c.get("count_units_avx2") + c.get("count_units_avx512")
        };
        #[cfg(feature = "bytes")]
        {
            let c = counted(level, |level| {
                level.low_bytes_to_buf(&text, &mut bytes::BytesMut::new());
            });
            assert_eq!(counting(&Counts(c)), 0, "BytesMut at {}", level.name());
            let mut room = vec![0u8; text.len()];
            let c = counted(level, |level| {
                level.low_bytes_to_buf(&text, &mut &mut room[..])
            });
            assert_eq!(
                counting(&Counts(c)),
                0,
                "room of src.len() at {}",
                level.name()
            );
            let mut room = vec![0u8; units];
            let c = counted(level, |level| {
                level.low_bytes_to_buf(&text, &mut &mut room[..])
            });
            assert_eq!(
                counting(&Counts(c)),
                text.len(),
                "room of the units at {}",
                level.name()
            );
        }
        let mut dst = Vec::with_capacity(text.len());
        let c = Counts(counted(level, |level| {
            level.low_bytes_to_vec(&text, &mut dst)
        }));
        assert_eq!(counting(&c), 0, "spare of src.len() at {}", level.name());
        let c = Counts(counted(level, |level| {
            let _ = level.low_bytes(&"q".repeat(300));
        }));
        assert!(
            c.0.values().all(|&n| n == 0),
            "ASCII low_bytes at {}: {:?}",
            level.name(),
            c.0
        );
    }
}

/// `render_header_value`: where a short kernel step saw no byte a header value may not hold,
/// nothing is searched after it; without a kernel, the rendered rest is searched.
#[test]
fn rendering_searches_only_what_no_kernel_watched() {
    for level in levels::all() {
        let at = rank(level.name());
        let search = |c: &Counts| {
            c.get("find_invalid_header_byte_portable")
                + c.get("find_invalid_header_byte_avx2")
                + c.get("find_invalid_header_byte_avx512")
        };
        let c = run(
            level,
            "render",
            operation("render_header_value"),
            "a\u{E9}\u{4E2D}b",
        );
        assert_eq!(search(&c), if at == 0 { 3 } else { 0 }, "{}", level.name());
        // The SSSE3 windows see the CR that U+010D renders as: the rest is searched.
        let c = run(
            level,
            "render",
            operation("render_header_value"),
            "a\u{E9}\u{010D}b",
        );
        assert_eq!(search(&c), 3, "{}", level.name());
    }
}

/// A rest of at most 64 bytes is one short step from its first non-ASCII char: with SSSE3
/// also when it starts with a CJK char (which the step after the word loop leaves to the
/// careful tail), and with AVX-512 also when it is longer than the word loop's 24 bytes.
#[test]
fn a_short_rest_is_one_short_step() {
    // Longer than the copy of short text takes, with a rest of 7 bytes.
    let cjk = &format!("{}a\u{4E2D}\u{4E2D}b", "x".repeat(60));
    // 69 bytes: a rest of 60 after 9 ASCII bytes.
    let long = format!("xxxxxxxxa{}", "\u{E9}b".repeat(20));
    for level in levels::all() {
        let at = rank(level.name());
        let what = level.name();
        let c = run(level, "copy", operation("copy_low_bytes"), cjk);
        assert_eq!(
            c.get("bmp_short_ssse3"),
            if at == 1 || at == 2 { 7 } else { 0 },
            "{what}"
        );
        assert_eq!(
            c.get("utf8_short_avx512"),
            if at == 3 { 7 } else { 0 },
            "{what}"
        );
        assert_eq!(c.get("copy_tail"), if at == 0 { 7 } else { 0 }, "{what}");
        let c = run(level, "copy", operation("copy_low_bytes"), &long);
        assert_eq!(
            c.get("bmp_short_ssse3"),
            if at == 1 || at == 2 { 60 } else { 0 },
            "{what}"
        );
        assert_eq!(
            c.get("utf8_short_avx512"),
            if at == 3 { 60 } else { 0 },
            "{what}"
        );
        assert_eq!(c.get("copy_words") > 0, at == 0, "{what}");
        // After 38 ASCII bytes: the rest's own length decides.
        let c = run(
            level,
            "copy",
            operation("copy_low_bytes"),
            &format!("{}{long}", "x".repeat(29)),
        );
        assert_eq!(
            c.get("bmp_short_ssse3"),
            if at == 1 || at == 2 { 60 } else { 0 },
            "{what}"
        );
        assert_eq!(c.get("copy_words") > 0, at == 0, "{what}");
    }
}

/// Every byte after a text's ASCII prefix is copied by exactly one of the copy's stages, in
/// one call of the long copy: the portable windows, the word loop (with the kernels it calls),
/// the short kernel step or the careful tail. Their counts add up to the rest's length.
#[test]
fn each_byte_after_the_ascii_prefix_is_copied_once() {
    let mut all = texts();
    all.push(format!("{}{}", "x".repeat(37), "caf\u{E9} ".repeat(30)));
    all.push(format!(
        "{}{}",
        "x".repeat(300),
        "\u{4E2D}\u{E9}z".repeat(70)
    ));
    for text in all.iter().filter(|text| !text.is_ascii()) {
        let prefix = text.bytes().position(|b| b >= 0x80).unwrap_or(text.len());
        for level in levels::all() {
            for name in ["copy_low_bytes", "low_bytes", "low_bytes_to_vec"] {
                let what = format!("{name} at {} of {text:?}", level.name());
                let c = run(level, name, operation(name), text);
                let stages = [
                    "copy_windows",
                    "copy_words",
                    "utf8_short_avx512",
                    "bmp_short_ssse3",
                    "copy_tail",
                ];
                let copied: usize = stages.iter().map(|stage| c.get(stage)).sum();
                // A short text goes through the word copy of short text first (its ASCII
                // prefix included), and the long way only from a 4-byte char on.
                let short = c.get("short_text");
                if text.len() <= 32 || (text.len() <= 64 && rank(level.name()) < 3) {
                    assert_eq!(short + copied, text.len(), "{what}: {:?}", c.0);
                    let long = usize::from(short < text.len());
                    assert_eq!(c.get("copy_long_calls"), long, "{what}");
                } else {
                    assert_eq!(
                        (short, copied),
                        (0, text.len() - prefix),
                        "{what}: {:?}",
                        c.0
                    );
                    assert_eq!(c.get("copy_long_calls"), 1, "{what}");
                }
            }
        }
    }
}

/// The portable level's own fast paths: Latin text of fewer than 128 bytes in squeezed words;
/// the 32-byte windows of a CJK run handed to the 3-byte run loop whole.
#[test]
fn the_portable_copy_squeezes_latin_words_and_runs_cjk() {
    let portable = levels::get("portable").expect("always there");
    let latin = "caf\u{E9} na\u{EF}ve \u{C5}ngstr\u{F6}m ".repeat(4);
    assert!(latin.len() < 128);
    let c = run(portable, "copy", operation("copy_low_bytes"), &latin);
    assert!(c.get("squeezed_words") > 0, "{:?}", c.0);
    let cjk = format!("a{}", "\u{4E2D}".repeat(200));
    let c = run(portable, "copy", operation("copy_low_bytes"), &cjk);
    assert!(c.get("copy_windows") > 0, "{:?}", c.0);
    assert!(
        c.get("three_byte_runs") >= c.get("copy_windows"),
        "{:?}",
        c.0
    );
}

/// A run of emoji copied into a room of `16 * k` or `16 * k + 4` units at the portable level:
/// the 4-byte run loop fills the 16-unit steps (32 bytes of input each) while a whole step
/// fits, the last one included, the word loop's run decoder the last four units (it goes on
/// while four units of room are left), and the careful tail nothing.
#[test]
fn emoji_runs_fill_the_room_in_whole_steps() {
    let portable = levels::get("portable").expect("always there");
    let text = format!("a{}", "\u{1F600}".repeat(40));
    for (k, extra) in (1..=4).flat_map(|k| [(k, 0), (k, 4)]) {
        let mut dst = vec![0; 1 + 16 * k + extra];
        let counts = counted(portable, |level| {
            assert_eq!(level.copy_low_bytes(&text, &mut dst), dst.len());
        });
        let c = Counts(counts);
        let what = format!("room 16 * {k} + {extra}");
        assert_eq!(c.get("four_byte_runs"), 32 * k, "{what}: {:?}", c.0);
        assert_eq!(c.get("copy_tail"), 0, "{what}: {:?}", c.0);
        assert_eq!(
            dst,
            wirebytes_ascii::reference::low_bytes(&text)[..dst.len()]
        );
    }
}

/// The UTF-16 input forms take fewer than 32 units inline and hand longer inputs (up to the
/// room) to the out-of-line loop.
#[test]
fn utf16_input_goes_out_of_line_from_32_units() {
    let portable = levels::get("portable").expect("always there");
    let units: Vec<u16> = "h\u{E9}\u{4E2D}".encode_utf16().cycle().take(100).collect();
    for (n, room) in [
        (0, 8),
        (1, 8),
        (31, 40),
        (32, 40),
        (33, 40),
        (100, 100),
        (100, 50),
    ] {
        let mut dst = vec![0; room];
        let counts = counted(portable, |_| {
            let _ = wirebytes_ascii::copy_low_bytes_from_utf16(&units[..n], &mut dst);
        });
        let copied = n.min(room);
        let want = if copied >= 32 { copied } else { 0 };
        assert_eq!(counts["copy_units"], want, "{n} units, room {room}");
    }
}

/// The SSSE3 short step checks the units it wrote only where a byte it kept may not be a
/// header byte.
#[test]
fn the_short_step_checks_its_output_only_when_a_byte_is_suspect() {
    for level in levels::all() {
        let at = rank(level.name());
        let what = level.name();
        // After 60 ASCII bytes, so that the text is too long for the copy of short text.
        let ascii = "x".repeat(60);
        let c = run(
            level,
            "copy",
            operation("copy_low_bytes"),
            &format!("{ascii}a\u{E9}\u{4E2D}b"),
        );
        assert_eq!(c.get("bmp_short_scan_ssse3"), 0, "{what}");
        let c = run(
            level,
            "copy",
            operation("copy_low_bytes"),
            &format!("{ascii}a\u{10D}\u{4E2D}b"),
        );
        // The step starts after the ASCII `a`: three units.
        let scanned = if at == 1 || at == 2 { 3 } else { 0 };
        assert_eq!(c.get("bmp_short_scan_ssse3"), scanned, "{what}: {:?}", c.0);
    }
}

/// A rest of exactly 64 bytes after the ASCII prefix of a header value is one short step at
/// `avx512`, not a 64-byte block.
#[test]
fn a_rest_of_64_bytes_is_one_short_step_when_rendering() {
    let text = format!("abc{}", "\u{E9}".repeat(32));
    assert_eq!(text.len() - 3, 64);
    for level in levels::all() {
        let at = rank(level.name());
        let c = run(level, "render", operation("render_header_value"), &text);
        let what = level.name();
        assert_eq!(c.get("utf8_blocks_checked_avx512"), 0, "{what}: {:?}", c.0);
        let short = if at == 3 { 64 } else { 0 };
        assert_eq!(c.get("utf8_short_avx512"), short, "{what}: {:?}", c.0);
    }
}

/// Runs of 3-byte chars parted by single spaces (Korean words): with SSSE3 the 3-byte kernel
/// copies a lone ASCII byte between two runs itself and goes on, so it reads more than the
/// text's Hangul bytes.
#[test]
fn the_three_byte_kernel_bridges_single_spaces() {
    let text = format!("a{}", "\u{AC00}\u{B098}\u{B2E4}\u{B77C} ".repeat(50));
    let hangul = 12 * 50;
    for level in levels::all() {
        let at = rank(level.name());
        if at == 1 || at == 2 {
            let c = run(level, "copy", operation("copy_low_bytes"), &text);
            let read = c.get("three_byte_blocks_ssse3");
            assert!(read > hangul, "{}: {read}: {:?}", level.name(), c.0);
        }
    }
}

/// The public `find_invalid_header_byte` searches as the highest level this CPU has does
/// from 32 bytes on, and as the portable level below (asking the CPU would cost more than the
/// kernel saves): the same counters.
#[test]
fn the_public_header_search_runs_the_highest_level_from_32_bytes() {
    let portable = levels::get("portable").expect("the portable level");
    let highest = levels::all().last().expect("a level");
    for len in [0, 5, 31, 32, 64, 1000] {
        let text = "v".repeat(len);
        levels::reset_counts();
        let found = wirebytes_ascii::find_invalid_header_byte(text.as_bytes());
        assert_eq!(found, None);
        let public: BTreeMap<_, _> = levels::counts().filter(|&(_, n)| n != 0).collect();
        let level = if len < 32 { portable } else { highest };
        let mut at_level = counted(level, |level| {
            let _ = level.find_invalid_header_byte(text.as_bytes());
        });
        at_level.retain(|_, n| *n != 0);
        assert_eq!(public, at_level, "{len} bytes");
    }
}

/// The AVX-512 short step loads and stores through a buffer only where 64 bytes from the
/// text or the room would cross a page end: a text and a room in the middle of a page take
/// no detour; a text ending 10 bytes before a page end, or a room there, one each.
#[test]
fn the_short_step_bounces_only_near_a_page_end() {
    let Some(level) = levels::get("avx512") else {
        return;
    };
    let text = "attachment; filename=\"B\u{FC}cher-\u{DC}bersicht.pdf\"";
    assert!((33..=64).contains(&text.len()));
    // Three pages, and a place `from_end` bytes before the end of the middle one.
    let at_page = |buf: &[u8], from_end: usize| {
        let start = buf.as_ptr() as usize;
        let page = (start / 4096 + 2) * 4096;
        page - from_end - start
    };
    let mut source = vec![0u8; 3 * 4096];
    let mut room = vec![0u8; 3 * 4096];
    for (text_end, room_end, bounces) in
        [(2000, 2000, 0), (text.len() + 10, 2000, 1), (2000, 45, 1)]
    {
        let s = at_page(&source, text_end);
        source[s..s + text.len()].copy_from_slice(text.as_bytes());
        let src = std::str::from_utf8(&source[s..s + text.len()]).expect("the text");
        let d = at_page(&room, room_end);
        let c = counted(level, |level| {
            let n = level.copy_low_bytes(src, &mut room[d..d + 64]);
            assert_eq!(n, text.chars().count());
        });
        let what = format!("text {text_end} and room {room_end} bytes before a page end");
        assert!(
            c.get("utf8_short_avx512").copied().unwrap_or(0) > 0,
            "{what}"
        );
        assert_eq!(
            c.get("page_bounces_avx512").copied().unwrap_or(0),
            bounces,
            "{what}"
        );
    }
}
