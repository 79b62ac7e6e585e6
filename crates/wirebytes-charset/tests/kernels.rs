//! Which kernel and which portable fast path each input goes through, at every level this CPU
//! has: the counters of the hidden feature `__counters` say what each one handled. A kernel
//! that declines its input, a gate that never opens or a level that lacks a kernel gives the
//! same bytes, only slower; these tests notice it. The counters are the thread's own: each test
//! reads what it ran, whatever runs beside it.

use std::collections::HashMap;

use encoding_rs::{
    BIG5, EUC_JP, EUC_KR, GB18030, GBK, ISO_2022_JP, ISO_8859_15, SHIFT_JIS, WINDOWS_1251,
    WINDOWS_1252,
};
use wirebytes_charset::{Charset, Replacement, levels, reference};

#[path = "../src/arch/avx2_utf8_model.rs"]
mod avx2_utf8_model;
use avx2_utf8_model::avx2_utf16_utf8_steps;

const JDK: Replacement = Replacement::Jdk;

/// Each kernel's counter and the levels whose set may run it. At every other level it must
/// stay 0.
const KERNELS: [(&str, &[&str]); 20] = [
    ("latin1_window_ssse3", &["ssse3", "avx2"]),
    ("table_window_ssse3", &["ssse3", "avx2"]),
    ("table_window_avx512", &["avx512"]),
    ("three_byte_utf16_ssse3", &["ssse3"]),
    ("three_byte_utf16_avx2", &["avx2", "avx512"]),
    ("byte_map_ssse3", &["ssse3", "avx2"]),
    ("byte_map_avx512", &["avx512"]),
    ("is_ascii_avx2", &["avx2", "avx512"]),
    ("ascii_utf16_avx2", &["avx2"]),
    ("ascii_utf16_avx512", &["avx512"]),
    ("ascii_utf32_avx2", &["avx2"]),
    ("ascii_utf32_avx512", &["avx512"]),
    ("utf8_units_avx512", &["avx512"]),
    ("utf8_units_avx2", &["avx2"]),
    ("latin1_bytes_avx512", &["avx512"]),
    ("latin1_bytes_avx2", &["avx2"]),
    ("utf16_latin1_avx2", &["avx2"]),
    ("utf16_latin1_avx512", &["avx512"]),
    ("utf16_utf8_avx512", &["avx512"]),
    ("utf16_utf8_avx2", &["avx2"]),
];

/// The counters after one run of `f`, by name.
fn counted(f: impl FnOnce()) -> HashMap<&'static str, usize> {
    levels::reset_counts();
    f();
    levels::counts().collect()
}

/// Asserts the counters of a run at `level`: each path of `expected` handled exactly its
/// count, and each kernel not named there handled nothing. A kernel named with a count above
/// 0 must be one of the level's.
fn check(counts: &HashMap<&str, usize>, level: &str, what: &str, expected: &[(&str, usize)]) {
    for &(name, count) in expected {
        assert!(counts.contains_key(name), "no counter {name}");
        assert_eq!(counts[name], count, "{name} at {level}: {what}");
    }
    for (kernel, levels) in KERNELS {
        let listed = expected.iter().find(|&&(name, _)| name == kernel);
        if let Some(&(_, count)) = listed {
            assert!(
                count == 0 || levels.contains(&level),
                "{kernel} is not in {level}"
            );
        } else {
            assert_eq!(counts[kernel], 0, "{kernel} at {level}: {what}");
        }
    }
}

/// Encodes `text` at `level` (checking the bytes against the reference) and returns the
/// counters of the encode alone.
fn encode_counted(
    level: levels::Level,
    charset: Charset,
    text: &str,
) -> HashMap<&'static str, usize> {
    let mut body = Vec::new();
    let counts = counted(|| body = level.encode(charset, text, JDK));
    assert_eq!(body, reference::encode(charset, text, JDK), "{charset}");
    counts
}

/// `n` when `level` has the AVX2 all-ASCII check, else 0.
fn with_avx2(level: &str, n: usize) -> usize {
    if matches!(level, "avx2" | "avx512") {
        n
    } else {
        0
    }
}

/// Latin-1 text in a Latin-1 table: the portable Latin-1 window, the SSSE3 one, or the
/// AVX-512 table window, 15 windows of 64 bytes, the last 40 bytes in a two-byte block. A
/// table with no exception goes whole through the Latin-1 kernel instead at the AVX2 and
/// AVX-512 levels, with no ASCII prefix scanned.
#[test]
fn latin1_text_goes_through_the_latin1_or_the_wide_table_window() {
    let text = "é".repeat(500);
    let charsets = [
        Charset::from(WINDOWS_1252),
        Charset::ISO_8859_1,
        Charset::for_java_name("windows-1252").expect("a JDK charset"),
        // Its chars U+00A0..=U+00FF that are not their own byte (¤, ¦, ...) are not in
        // the text: the windows with the check for them take it all the same.
        Charset::from(ISO_8859_15),
    ];
    for charset in charsets {
        let exceptions = charset == Charset::from(ISO_8859_15);
        for level in levels::all() {
            let name = level.name();
            let counts = encode_counted(level, charset, &text);
            let window = match name {
                "portable" => "latin1_window_portable",
                "ssse3" => "latin1_window_ssse3",
                "avx2" if exceptions => "latin1_window_ssse3",
                "avx2" => "latin1_bytes_avx2",
                _ if exceptions => "table_window_avx512",
                _ => "latin1_bytes_avx512",
            };
            let mut expected = Vec::new();
            match window {
                // Text that is not ASCII from its start goes to the Latin-1 kernel from its
                // first byte: no ASCII prefix is scanned.
                "latin1_bytes_avx512" | "latin1_bytes_avx2" => {
                    expected.extend([(window, 1000), ("two_byte_block", 0), ("is_ascii_avx2", 0)])
                }
                _ => expected.extend([
                    (window, 960),
                    ("two_byte_block", 40),
                    ("is_ascii_avx2", with_avx2(name, 1000)),
                ]),
            }
            if name != "portable" {
                expected.push(("latin1_window_portable", 0));
            }
            check(&counts, name, &format!("{charset}"), &expected);
        }
    }
}

/// Latin-1 text that starts with 32 ASCII bytes or more, into a Latin-1 table with no
/// exception: its ASCII prefix is found and copied first, the rest goes through the Latin-1
/// kernel (at the AVX2 and AVX-512 levels); text that does not, through the kernel whole.
#[test]
fn an_ascii_head_is_copied_before_the_latin1_kernel() {
    for (ascii, latin1) in [(32, 300), (200, 300), (31, 300), (0, 10)] {
        let text = "a".repeat(ascii) + &"é".repeat(latin1);
        for charset in [Charset::ISO_8859_1, Charset::from(WINDOWS_1252)] {
            for level in levels::all() {
                let name = level.name();
                let kernel = match name {
                    "avx2" => "latin1_bytes_avx2",
                    "avx512" => "latin1_bytes_avx512",
                    _ => continue,
                };
                let counts = encode_counted(level, charset, &text);
                let prefix = if ascii >= 32 { ascii } else { 0 };
                let what = format!("{charset} at {name}: {ascii} + {latin1}");
                assert_eq!(counts["ascii_prefix"], prefix, "{what}");
                assert_eq!(counts[kernel], text.len() - prefix, "{what}");
            }
        }
    }
}

/// The exact size of UTF-16, UTF-32 and single-byte output is counted by the AVX2 or the
/// AVX-512 count kernel at those levels, over the whole text (no ASCII prefix here).
#[test]
fn exact_sizes_are_counted_by_the_count_kernels() {
    let text = "é".repeat(500);
    let charsets = [
        Charset::UTF_16LE,
        Charset::for_java_name("UTF-32LE").expect("a JDK charset"),
        Charset::ISO_8859_1,
    ];
    for charset in charsets {
        for level in levels::all() {
            let name = level.name();
            let counts = encode_counted(level, charset, &text);
            let (avx2, avx512) = match name {
                "avx2" => (1000, 0),
                "avx512" => (0, 1000),
                _ => (0, 0),
            };
            assert_eq!(counts["count_units_avx2"], avx2, "{charset} at {name}");
            assert_eq!(counts["count_units_avx512"], avx512, "{charset} at {name}");
        }
    }
}

/// UTF-16 and UTF-32 into the caller's slice: one that holds the worst case
/// (`max_encoded_len`) is written in one pass, with no count, the kernel of any UTF-8 reading
/// the text straight into the slice and its last bytes through a staging buffer; a shorter
/// one, which may not hold the worst case, is counted first.
#[test]
fn worst_case_slices_are_written_without_a_count() {
    let text = "é".repeat(500);
    for charset in [
        Charset::UTF_16LE,
        Charset::for_java_name("UTF-32LE").expect("a JDK charset"),
    ] {
        let want = reference::encode(charset, &text, JDK);
        for level in levels::all() {
            let name = level.name();
            let worst = charset.max_encoded_len(text.len(), JDK);
            for (room, counting) in [(worst, false), (want.len(), true)] {
                let mut buf = vec![0; room];
                let counts = counted(|| {
                    assert_eq!(
                        level.encode_to_slice(charset, &text, JDK, &mut buf),
                        Some(want.len()),
                        "{charset} at {name}"
                    );
                });
                assert_eq!(buf[..want.len()], want[..], "{charset} at {name}");
                let what = format!("{charset} into {room} bytes");
                let count = if counting { 1000 } else { 0 };
                let (kernel, counter) = match name {
                    "avx2" => ("utf8_units_avx2", "count_units_avx2"),
                    "avx512" => ("utf8_units_avx512", "count_units_avx512"),
                    _ => {
                        check(&counts, name, &what, &[]);
                        continue;
                    }
                };
                let read = counts[kernel];
                assert!((960..=1000).contains(&read), "{name} {what}: {read}");
                check(&counts, name, &what, &[(kernel, read), (counter, count)]);
            }
        }
    }
}

/// Latin-1 text into the caller's slice and through the streaming encoder: the Latin-1
/// kernels (AVX-512, and AVX2, whose scratch bytes past a step's output the next chars' bytes
/// write over) take the whole text into a slice and into the encoder's outputs as into a `Vec`.
#[test]
fn latin1_text_goes_through_the_latin1_kernel_into_every_output() {
    let text = "é".repeat(500);
    for charset in [Charset::ISO_8859_1, Charset::from(WINDOWS_1252)] {
        let want = charset.encode(&text, JDK);
        for (name, kernel) in [
            ("avx512", "latin1_bytes_avx512"),
            ("avx2", "latin1_bytes_avx2"),
        ] {
            let Some(level) = levels::get(name) else {
                continue;
            };
            let mut dst = vec![0u8; want.len()];
            let counts = counted(|| {
                let written = level.encode_to_slice(charset, &text, JDK, &mut dst);
                assert_eq!(written, Some(want.len()), "{charset} at {name}");
            });
            assert_eq!(dst, want, "{charset} at {name}");
            assert_eq!(counts[kernel], text.len(), "{charset} at {name}: slice");

            let mut roomy = vec![0u8; 2 * want.len()];
            let counts = counted(|| {
                let mut encoder = level.new_encoder(charset, JDK);
                let (_, read, n, _) = encoder.encode_to_slice(&text, &mut roomy, true);
                assert_eq!((read, n), (text.len(), want.len()), "{charset} at {name}");
            });
            assert_eq!(roomy[..want.len()], want[..], "{charset} at {name}");
            assert_eq!(
                counts[kernel],
                text.len(),
                "{charset} at {name}: encoder slice"
            );

            let mut vec = Vec::new();
            let counts = counted(|| {
                level
                    .new_encoder(charset, JDK)
                    .encode_to_vec(&text, true, &mut vec);
            });
            assert_eq!(vec, want, "{charset} at {name}");
            assert!(counts[kernel] >= 900, "{charset} at {name}: encoder vec");
        }
    }
}

/// Latin-1 text with other chars in it at the AVX-512 level: the Latin-1 kernel stops at each
/// char it does not take (above U+00FF; in windows-1252 a C1 control too), the block from
/// there goes the table path, and the kernel takes the rest. The JDK's ISO-8859-1 takes the
/// C1 controls in the kernel.
#[test]
fn latin1_text_with_other_chars_goes_mostly_through_the_latin1_kernel() {
    let Some(level) = levels::get("avx512") else {
        return; // no AVX-512 here: nothing to see
    };
    let euro = format!("{}€", "é".repeat(199)).repeat(5);
    let c1 = format!("{}\u{85}", "é".repeat(99)).repeat(10);
    let cases = [
        (Charset::from(WINDOWS_1252), &euro, euro.len() - 5 * 64),
        (Charset::ISO_8859_1, &euro, euro.len() - 5 * 64),
        (Charset::ISO_8859_1, &c1, c1.len()),
    ];
    for (charset, text, at_least) in cases {
        let counts = encode_counted(level, charset, text);
        let kernel = counts["latin1_bytes_avx512"];
        assert!(
            (at_least..=text.len()).contains(&kernel),
            "{charset}: {kernel} of {} bytes",
            text.len()
        );
    }
    // In windows-1252 a C1 control is not its own byte: the kernel stops there.
    let counts = encode_counted(level, Charset::from(WINDOWS_1252), &c1);
    let kernel = counts["latin1_bytes_avx512"];
    assert!(
        kernel <= c1.len() - 10 * 2,
        "{kernel} of {} bytes",
        c1.len()
    );
}

/// Cyrillic text in a table not near Latin-1: the SSSE3 or the AVX-512 table window takes 15
/// windows; without them every block goes through the portable two-byte block.
#[test]
fn two_byte_text_goes_through_the_table_window() {
    let text = "ж".repeat(500);
    let charsets = [
        Charset::from(WINDOWS_1251),
        Charset::for_java_name("ISO-8859-5").expect("a JDK charset"),
    ];
    for charset in charsets {
        for level in levels::all() {
            let name = level.name();
            let counts = encode_counted(level, charset, &text);
            let expected: &[(&str, usize)] = match name {
                "portable" => &[("two_byte_block", 1000)],
                "ssse3" => &[("table_window_ssse3", 960), ("two_byte_block", 40)],
                "avx2" => &[
                    ("table_window_ssse3", 960),
                    ("two_byte_block", 40),
                    ("is_ascii_avx2", 1000),
                ],
                _ => &[
                    ("table_window_avx512", 960),
                    ("two_byte_block", 40),
                    ("is_ascii_avx2", 1000),
                ],
            };
            check(&counts, name, &format!("{charset}"), expected);
        }
    }
}

/// The crate's own UTF-8 to UTF-16 decoder takes a piece where 3-byte chars make at least
/// half of its first 64 bytes (their leads a sixth): 10 of them in a 60-byte text, not 9 in
/// 60 bytes or Latin-1 or emoji text; encoding_rs's decoder takes the others. At the
/// AVX2 and AVX-512 levels, which have the kernel of any UTF-8, it takes every piece.
#[test]
fn the_own_utf16_decoder_takes_mostly_three_byte_text() {
    let ten = format!("{}{}", "中".repeat(10), "a".repeat(30));
    let nine = format!("{}{}", "中".repeat(9), "a".repeat(33));
    let cases = [
        (ten.as_str(), 60),
        (nine.as_str(), 0),
        (&*"é".repeat(300), 0),
        (&*"😀".repeat(100), 0),
    ];
    for (text, own) in cases {
        for level in levels::all() {
            let name = level.name();
            let counts = encode_counted(level, Charset::UTF_16BE, text);
            let own = match name {
                "portable" => 0,
                "avx2" | "avx512" => text.len(),
                _ => own,
            };
            assert_eq!(counts["utf16_own_decoder"], own, "{name}: {text}");
        }
    }
}

/// A long run of table windows is appended to the output about a thousand bytes at a time:
/// 40,000 bytes of Cyrillic, 20,000 bytes out, in at most 24 appends (the first window's,
/// one per 992 bytes, the last).
#[test]
fn table_windows_are_appended_a_thousand_bytes_at_a_time() {
    let text = "ж".repeat(20_000);
    let charset = Charset::from(WINDOWS_1251);
    for level in levels::all() {
        let counts = encode_counted(level, charset, &text);
        let windows = counts["table_window_ssse3"] + counts["table_window_avx512"];
        let appends = counts["window_run_appends"];
        if windows == 0 {
            assert_eq!(appends, 0, "{}", level.name());
        } else {
            assert!(windows >= 39_000, "{}: {windows}", level.name());
            assert!((20..=24).contains(&appends), "{}: {appends}", level.name());
        }
    }
}

/// A text of ASCII after one Cyrillic char: the table window takes three windows where the
/// level has it; the portable path a two-byte block and then blocks of ASCII.
#[test]
fn ascii_after_a_two_byte_char_goes_in_ascii_blocks() {
    let text = format!("ж{}", "a".repeat(199));
    let charset = Charset::from(WINDOWS_1251);
    for level in levels::all() {
        let name = level.name();
        let counts = encode_counted(level, charset, &text);
        let expected: &[(&str, usize)] = match name {
            "portable" => &[("two_byte_block", 64), ("single_byte_ascii_block", 137)],
            "ssse3" => &[("table_window_ssse3", 192), ("single_byte_ascii_block", 9)],
            "avx2" => &[
                ("table_window_ssse3", 192),
                ("single_byte_ascii_block", 9),
                ("is_ascii_avx2", 201),
            ],
            _ => &[
                ("table_window_avx512", 192),
                ("single_byte_ascii_block", 9),
                ("is_ascii_avx2", 201),
            ],
        };
        check(&counts, name, "ж and ASCII", expected);
    }
}

/// An all-ASCII text in an ASCII-compatible charset is copied whole (checked by the AVX2
/// kernel where the level has it), and `encode_string` hands its buffer back; a text with
/// non-ASCII after 100 ASCII bytes copies those in one go, found with one 64-byte block and
/// a byte-by-byte rest.
#[test]
fn ascii_is_copied_whole_or_as_a_prefix() {
    let ascii = "a".repeat(1000);
    let prefixed = format!("{}é", "b".repeat(100));
    #[cfg_attr(
        not(feature = "jdk-multi-byte"),
        allow(
            unused_mut,
            reason = "the JDK's multi-byte charsets join the list with the feature"
        )
    )]
    let mut charsets = vec![
        Charset::from(WINDOWS_1252),
        Charset::from(WINDOWS_1251),
        Charset::from(GBK),
        Charset::from(SHIFT_JIS),
    ];
    #[cfg(feature = "jdk-multi-byte")]
    charsets.push(Charset::for_java_name("EUC-KR").expect("a JDK charset"));
    for charset in charsets {
        for level in levels::all() {
            let name = level.name();
            let what = format!("{charset}");
            let counts = encode_counted(level, charset, &ascii);
            let expected = [
                ("ascii_whole", 1000),
                ("ascii_prefix", 0),
                ("is_ascii_avx2", with_avx2(name, 1000)),
            ];
            check(&counts, name, &what, &expected);

            let mut body = Vec::new();
            let counts = counted(|| body = level.encode_string(charset, ascii.clone(), JDK));
            assert_eq!(body, ascii.as_bytes(), "{what}");
            let expected = [
                ("owned_reuse", 1000),
                ("ascii_whole", 0),
                ("is_ascii_avx2", with_avx2(name, 1000)),
            ];
            check(&counts, name, &what, &expected);

            let counts = encode_counted(level, charset, &prefixed);
            let expected = [
                ("ascii_whole", 0),
                ("ascii_prefix", 100),
                ("ascii_prefix_blocks", 64),
                ("is_ascii_avx2", with_avx2(name, 102)),
                // The `é` after the prefix, in windows-1252 at the AVX2 and AVX-512 levels.
                (
                    "latin1_bytes_avx512",
                    if charset == Charset::from(WINDOWS_1252) && name == "avx512" {
                        2
                    } else {
                        0
                    },
                ),
                (
                    "latin1_bytes_avx2",
                    if charset == Charset::from(WINDOWS_1252) && name == "avx2" {
                        2
                    } else {
                        0
                    },
                ),
            ];
            check(&counts, name, &what, &expected);
        }
    }
}

/// A text to UTF-8 is copied whole, and `encode_string` hands it back.
#[test]
fn utf8_is_copied_whole() {
    let text = "aé中😀".repeat(10);
    for level in levels::all() {
        let name = level.name();
        let counts = encode_counted(level, Charset::UTF_8, &text);
        check(&counts, name, "UTF-8", &[("utf8_copy", text.len())]);
        let counts = counted(|| {
            let body = level.encode_string(Charset::UTF_8, text.clone(), JDK);
            assert_eq!(body, text.as_bytes());
        });
        check(&counts, name, "UTF-8", &[("owned_reuse", text.len())]);
    }
}

/// US-ASCII under the JDK's replacement goes eight bytes at a time after the ASCII prefix.
#[test]
fn us_ascii_goes_in_words() {
    let text = "aé".repeat(100);
    for level in levels::all() {
        let name = level.name();
        let counts = encode_counted(level, Charset::US_ASCII, &text);
        let expected = [
            ("ascii_prefix", 1),
            ("us_ascii_words", 296),
            ("is_ascii_avx2", with_avx2(name, 300)),
        ];
        check(&counts, name, "US-ASCII", &expected);
    }
}

/// An EBCDIC charset: ASCII in 64-byte blocks through the ASCII lookup of the level (15 of
/// them), accented text through the AVX-512 table window only.
#[test]
fn ebcdic_goes_through_the_byte_map_and_the_wide_table_window() {
    let charset = Charset::for_java_name("IBM037").expect("a JDK charset");
    let ascii = "a".repeat(1000);
    let accents = "é".repeat(500);
    for level in levels::all() {
        let name = level.name();
        let counts = encode_counted(level, charset, &ascii);
        let lookup = match name {
            "portable" => "byte_map_portable",
            "ssse3" | "avx2" => "byte_map_ssse3",
            _ => "byte_map_avx512",
        };
        let mut expected = vec![(lookup, 960)];
        if name != "portable" {
            expected.push(("byte_map_portable", 0));
        }
        check(&counts, name, "IBM037 ASCII", &expected);

        let counts = encode_counted(level, charset, &accents);
        let windows = if name == "avx512" { 960 } else { 0 };
        check(
            &counts,
            name,
            "IBM037 é",
            &[("table_window_avx512", windows)],
        );
    }
}

/// CJK text to UTF-16 and UTF-32: the crate's own decoder takes every piece where the level
/// has the 3-byte-run kernel, and the kernel decodes all but the last 12 bytes of each of
/// the two pieces; without it, encoding_rs's converter.
#[test]
fn cjk_to_utf16_and_utf32_goes_through_the_three_byte_kernel() {
    let text = "中文字".repeat(100);
    let charsets = [
        Charset::UTF_16BE,
        Charset::UTF_16LE,
        Charset::UTF_16,
        Charset::UTF_32BE,
        Charset::UTF_32LE,
    ];
    for charset in charsets {
        for level in levels::all() {
            let name = level.name();
            let counts = encode_counted(level, charset, &text);
            let expected: &[(&str, usize)] = match name {
                "portable" => &[("utf16_own_decoder", 0)],
                "ssse3" => &[("utf16_own_decoder", 900), ("three_byte_utf16_ssse3", 888)],
                _ => &[("utf16_own_decoder", 900), ("three_byte_utf16_avx2", 888)],
            };
            check(&counts, name, &format!("{charset}"), expected);
        }
    }
}

/// ASCII text to UTF-16 bytes: from the AVX2 level on, the crate's own decoder takes each
/// piece that starts with 64 ASCII bytes and the level's ASCII-run kernel widens all of it
/// but what is left after its last whole 32-byte step; below, encoding_rs's converter. To
/// UTF-32 the crate's own decoder takes every piece that is not CJK, with the UTF-32 kernel
/// from the AVX2 level on.
#[test]
fn ascii_to_utf16_goes_through_the_ascii_kernel() {
    // 1,000 bytes: one piece of 512, one of 488 (15 steps of 32 and 8 bytes).
    let text = "The quick brown fox jumps over the lazy dog. ".repeat(23)[..1000].to_owned();
    for charset in [
        Charset::UTF_16BE,
        Charset::UTF_16LE,
        Charset::UTF_16,
        Charset::UTF_32BE,
        Charset::UTF_32LE,
    ] {
        for level in levels::all() {
            let name = level.name();
            let counts = encode_counted(level, charset, &text);
            let utf16 = !charset.name().starts_with("UTF-32");
            let expected: &[(&str, usize)] = match name {
                "avx2" if utf16 => &[("utf16_own_decoder", 1000), ("ascii_utf16_avx2", 992)],
                "avx512" if utf16 => &[("utf16_own_decoder", 1000), ("ascii_utf16_avx512", 992)],
                "avx2" => &[("utf16_own_decoder", 0), ("ascii_utf32_avx2", 992)],
                "avx512" => &[("utf16_own_decoder", 0), ("ascii_utf32_avx512", 992)],
                _ => &[("utf16_own_decoder", 0)],
            };
            check(&counts, name, &format!("{charset}"), expected);
        }
    }
}

/// Cyrillic and Greek text to UTF-16 and UTF-32: at the AVX2 and AVX-512 levels the level's
/// kernel of any UTF-8 reads all of it but the last steps' worth (the kernels need up to 19
/// bytes of input and 64 of room from each step); at the other levels none does.
#[test]
fn two_byte_text_goes_through_the_any_utf8_kernel() {
    // 1,000 bytes, 500 chars.
    let text = "жω".repeat(250);
    for charset in [
        Charset::UTF_16BE,
        Charset::UTF_16LE,
        Charset::UTF_32BE,
        Charset::UTF_32LE,
    ] {
        for level in levels::all() {
            let name = level.name();
            let counts = encode_counted(level, charset, &text);
            let kernel = match name {
                "avx2" => "utf8_units_avx2",
                _ => "utf8_units_avx512",
            };
            let mut read = 0;
            if matches!(name, "avx2" | "avx512") {
                read = counts[kernel];
                assert!((900..=1000).contains(&read), "{name} {charset}: {read}");
            }
            check(&counts, name, &format!("{charset}"), &[(kernel, read)]);
        }
    }
}

/// Emoji-heavy text to UTF-32 at the AVX2 level goes through the kernel of any UTF-8 in its
/// 16-byte UTF-32 steps, all but the last steps' worth (a 16-byte step needs 19 bytes of
/// input and 64 of room; the 8-byte one 16 and 32).
#[test]
fn emoji_text_to_utf32_goes_sixteen_bytes_a_step() {
    let text =
        "Hi \u{1F600} there \u{1F389}\u{1F38A} ok \u{1F44D}\u{1F3FD} yes \u{1F680}! ".repeat(30);
    for charset in [Charset::UTF_32LE, Charset::UTF_32BE] {
        for level in levels::all() {
            let name = level.name();
            let counts = encode_counted(level, charset, &text);
            let wide = counts["utf32_wide_avx2"];
            if name == "avx2" {
                let read = counts["utf8_units_avx2"];
                assert!(
                    read + 64 >= text.len(),
                    "{charset}: {read} of {}",
                    text.len()
                );
                assert!(wide + 48 >= read, "{charset}: {wide} of {read}");
            } else {
                assert_eq!(wide, 0, "{name} {charset}");
            }
        }
    }
}

/// The kernels of any UTF-8 leave a run of 64 ASCII bytes to the ASCII-run kernel, which
/// widens it in fewer instructions: Latin-1 text with an accent every 200 bytes goes mostly
/// through the ASCII-run kernel at the AVX2 and AVX-512 levels, to UTF-16 and UTF-32.
#[test]
fn ascii_runs_in_other_text_go_to_the_ascii_kernel() {
    let text = format!("é{}", "x".repeat(198)).repeat(5);
    for charset in [Charset::UTF_16LE, Charset::UTF_32LE] {
        for level in levels::all() {
            let name = level.name();
            let counts = encode_counted(level, charset, &text);
            let utf16 = charset == Charset::UTF_16LE;
            let ascii = match (name, utf16) {
                ("avx2", true) => "ascii_utf16_avx2",
                ("avx2", false) => "ascii_utf32_avx2",
                (_, true) => "ascii_utf16_avx512",
                (_, false) => "ascii_utf32_avx512",
            };
            if matches!(name, "avx2" | "avx512") {
                // Of each 198-byte run, at least the 64-byte steps after the first 64 bytes.
                assert!(
                    counts[ascii] >= 5 * 128,
                    "{name} {charset}: {}",
                    counts[ascii]
                );
            }
        }
    }
}

/// Into UTF-16, text with 3-byte chars here and there (European text with typographic
/// quotes and the euro sign) goes through the kernel of any UTF-8 where the level has one,
/// from a window with one 3-byte char on; CJK, a window with two 3-byte chars or more, does
/// not start it, and stops it where four 3-byte chars start in a step's first four bytes:
/// the 3-byte-run kernel takes them, and the windows around the spaces of CJK text go the
/// portable way.
#[test]
fn three_byte_chars_go_to_the_kernel_that_suits_them() {
    let european = "„Köln“ kostet 5 € — «ça coûte» 5 €. ".repeat(30);
    let one_euro = format!("€{}", "x".repeat(70)).repeat(10);
    let two_cjk = "日本abcdefghij".repeat(20);
    let cjk = format!("{} ", "日本語の文章です".repeat(4)).repeat(20);
    let cjk_after = format!("{}{}", "жω".repeat(100), "日本語の文章です".repeat(50));
    for level in levels::all() {
        let name = level.name();
        let any = match name {
            "avx2" => "utf8_units_avx2",
            _ => "utf8_units_avx512",
        };
        let has = matches!(name, "avx2" | "avx512");
        let counts = encode_counted(level, Charset::UTF_16LE, &european);
        if has {
            assert!(
                counts[any] * 10 >= european.len() * 9,
                "{name}: {} of {}",
                counts[any],
                european.len()
            );
        }
        // Each euro sign starts the kernel (a step of at least 8 bytes), the run of 70 ASCII
        // bytes after it stops it.
        let counts = encode_counted(level, Charset::UTF_16LE, &one_euro);
        if has {
            assert!(counts[any] >= 10 * 8, "{name}: {}", counts[any]);
        }
        let counts = encode_counted(level, Charset::UTF_16LE, &two_cjk);
        assert_eq!(counts[any], 0, "{name}: two 3-byte chars in each window");
        // The Cyrillic through the kernel, the CJK after it through the 3-byte-run kernel.
        let counts = encode_counted(level, Charset::UTF_16LE, &cjk_after);
        if has {
            assert!(
                counts["three_byte_utf16_avx2"] >= 1100,
                "{name}: {} of 1,200",
                counts["three_byte_utf16_avx2"]
            );
        }
        let counts = encode_counted(level, Charset::UTF_16LE, &cjk);
        let three = match name {
            "portable" => None,
            "ssse3" => Some("three_byte_utf16_ssse3"),
            _ => Some("three_byte_utf16_avx2"),
        };
        let mut expected = vec![(any, 0)];
        if let Some(three) = three {
            assert!(
                counts[three] * 10 >= cjk.len() * 9,
                "{name}: {} of {}",
                counts[three],
                cjk.len()
            );
            expected.push((three, counts[three]));
        }
        check(&counts, name, "CJK with spaces", &expected);
    }
}

/// CJK text in the multi-byte charsets, the JDK's and WHATWG's: runs of 3-byte chars go
/// through the 3-byte-run kernel where the level has it (the JDK's stateful ones read a run
/// further, up to the end).
#[test]
fn cjk_runs_go_through_the_three_byte_kernel() {
    let ko = "한국어".repeat(100);
    let zh = "中文字".repeat(100);
    let ja = "日本語".repeat(100);
    #[cfg_attr(
        not(feature = "jdk-multi-byte"),
        allow(
            unused_mut,
            reason = "the JDK's multi-byte charsets join the list with the feature"
        )
    )]
    let mut cases: Vec<(Charset, &str, usize, bool)> = vec![
        (Charset::from(EUC_KR), &ko, 840, true),
        (Charset::from(GBK), &zh, 840, true),
        (Charset::from(GB18030), &zh, 840, true),
        (Charset::from(SHIFT_JIS), &ja, 840, true),
        (Charset::from(EUC_JP), &ja, 840, true),
        (Charset::from(BIG5), &zh, 840, true),
        (Charset::from(ISO_2022_JP), &ja, 888, false),
    ];
    #[cfg(feature = "jdk-multi-byte")]
    {
        let java = |name: &str| Charset::for_java_name(name).expect("a JDK charset");
        cases.extend([
            (java("EUC-KR"), &*ko, 888, true),
            (java("x-windows-949"), &ko, 888, true),
            (java("GBK"), &zh, 888, true),
            (java("GB18030"), &zh, 888, true),
            (java("EUC-JP"), &ja, 888, true),
            (java("Shift_JIS"), &ja, 888, true),
            (java("Big5"), &zh, 888, true),
            (java("ISO-2022-KR"), &ko, 936, true),
            (java("ISO-2022-JP"), &ja, 936, true),
        ]);
    }
    for (charset, text, decoded, ascii_check) in cases {
        for level in levels::all() {
            let name = level.name();
            let counts = encode_counted(level, charset, text);
            let kernel = match name {
                "portable" => None,
                "ssse3" => Some("three_byte_utf16_ssse3"),
                _ => Some("three_byte_utf16_avx2"),
            };
            let checked = if ascii_check { with_avx2(name, 900) } else { 0 };
            let mut expected = vec![("is_ascii_avx2", checked)];
            expected.extend(kernel.map(|kernel| (kernel, decoded)));
            check(&counts, name, &format!("{charset}"), &expected);
        }
    }
}

/// Text of 2-byte chars (Cyrillic, Greek) and 4-byte chars in the multi-byte charsets never
/// asks the 3-byte-run kernel, nor do runs of three CJK chars: the kernel takes four 3-byte
/// chars in a row or none, and its gate opens only before four.
#[test]
fn other_text_never_asks_the_three_byte_kernel() {
    let two = "Съешь же ещё этих αβγ ".repeat(40);
    let four = "ab\u{20000}\u{1F600}".repeat(40);
    let mixed = "中文字α".repeat(100);
    let charsets = [GBK, GB18030, EUC_KR, SHIFT_JIS, EUC_JP, BIG5];
    for charset in charsets.map(Charset::from) {
        for level in levels::all() {
            let name = level.name();
            for text in [&two, &four] {
                let counts = encode_counted(level, charset, text);
                let asked = counts["three_byte_utf16_ssse3"] + counts["three_byte_utf16_avx2"];
                let declined = counts["three_byte_run_declines"];
                assert_eq!((asked, declined), (0, 0), "{charset} at {name}: {text:?}");
            }
            let counts = encode_counted(level, charset, &mixed);
            let asked = counts["three_byte_utf16_ssse3"] + counts["three_byte_utf16_avx2"];
            let declined = counts["three_byte_run_declines"];
            assert_eq!((asked, declined), (0, 0), "{charset} at {name}: short runs");
        }
    }
}

/// The public functions run the highest level this CPU has: their counters equal that
/// level's.
#[test]
fn the_public_functions_run_the_highest_level() {
    let Some(highest) = levels::all().last() else {
        panic!("no level");
    };
    let cases = [
        (Charset::from(WINDOWS_1252), "é".repeat(500)),
        (Charset::from(WINDOWS_1251), "ж".repeat(500)),
        (Charset::UTF_16BE, "中文字".repeat(100)),
        (Charset::from(GBK), "中文字".repeat(100)),
        (
            Charset::for_java_name("IBM037").expect("a JDK charset"),
            "a".repeat(1000),
        ),
    ];
    for (charset, text) in cases {
        let at_level = counted(|| drop(highest.encode(charset, &text, JDK)));
        let public = counted(|| drop(charset.encode(&text, JDK)));
        assert_eq!(public, at_level, "{charset}");
        // At the portable level alone (a CPU or compiler without kernels), CJK text into
        // UTF-16 or GBK takes no watched path: nothing counts there.
        if highest.name() != "portable" {
            assert!(public.values().any(|&n| n > 0), "{charset}");
        }
    }
}

/// The forms the docs say reserve exactly: a new `Vec`'s capacity is its length, and
/// `encode_to_vec` grows a `Vec` whose capacity was its length to exactly the new length.
#[test]
fn outputs_are_reserved_exactly() {
    let texts = [
        "a".repeat(300),
        "é".repeat(300),
        "ж€".repeat(150),
        "中文字😀a".repeat(60),
    ];
    #[cfg_attr(
        not(feature = "jdk-multi-byte"),
        allow(
            unused_mut,
            reason = "the JDK's multi-byte charsets join the list with the feature"
        )
    )]
    let mut charsets = vec![
        Charset::from(WINDOWS_1252),
        Charset::from(WINDOWS_1251),
        Charset::ISO_8859_1,
        Charset::US_ASCII,
        Charset::UTF_8,
        Charset::UTF_16,
        Charset::UTF_32LE,
        Charset::from(GBK),
        Charset::from(ISO_2022_JP),
        Charset::for_java_name("IBM037").expect("a JDK charset"),
    ];
    #[cfg(feature = "jdk-multi-byte")]
    for name in ["EUC-KR", "ISO-2022-KR"] {
        charsets.push(Charset::for_java_name(name).expect("a JDK charset"));
    }
    for charset in charsets {
        for text in &texts {
            for replacement in [Replacement::Jdk, Replacement::Whatwg] {
                let what = format!("{charset} {replacement:?} {:?}", text.chars().next());
                for level in levels::all() {
                    let body = level.encode(charset, text, replacement);
                    assert_eq!(body.capacity(), body.len(), "{what} {}", level.name());
                    let mut dst = b"xyz".to_vec();
                    dst.shrink_to_fit();
                    level.encode_to_vec(charset, text, replacement, &mut dst);
                    assert_eq!(dst.capacity(), dst.len(), "{what} {}", level.name());
                    let with = level.encode_with_bom(charset, text, replacement);
                    assert_eq!(with.capacity(), with.len(), "{what} {}", level.name());
                    let owned = level.encode_string(charset, text.clone(), replacement);
                    assert_eq!(owned.capacity(), owned.len(), "{what} {}", level.name());
                }
                let units: Vec<u16> = text.encode_utf16().collect();
                let body = charset.encode_from_utf16(&units, replacement);
                assert_eq!(body.capacity(), body.len(), "{what}");
                let mut dst = b"xyz".to_vec();
                dst.shrink_to_fit();
                charset.encode_from_utf16_to_vec(&units, replacement, &mut dst);
                assert_eq!(dst.capacity(), dst.len(), "{what}");
            }
        }
    }
}

/// A JDK multi-byte charset where ASCII is not its own byte (EBCDIC, x-IBM930): no ASCII is
/// copied as it is, whole or as a prefix.
#[cfg(feature = "jdk-multi-byte")]
#[test]
fn ascii_is_not_copied_where_it_is_not_its_own_byte() {
    let charset = Charset::for_java_name("x-IBM930").expect("a JDK charset");
    for text in ["a".repeat(100), format!("{}中", "a".repeat(100))] {
        for level in levels::all() {
            let counts = encode_counted(level, charset, &text);
            let expected = [("ascii_whole", 0), ("ascii_prefix", 0)];
            check(&counts, level.name(), "x-IBM930", &expected);
        }
    }
}

/// The streaming encoder writes a chunk whose worst case fits straight into the slice, and
/// takes the one-char step through its hold buffer only at the end of the room.
#[test]
fn the_encoder_writes_into_a_roomy_slice_at_once() {
    let text = "caf\u{E9} \u{4E2D}\u{1F600} ".repeat(50);
    for charset in [
        Charset::from(WINDOWS_1252),
        Charset::UTF_16BE,
        Charset::from(GBK),
    ] {
        let mut dst = vec![0u8; 8 * text.len()];
        let mut written = 0;
        let counts = counted(|| {
            let mut encoder = charset.new_encoder(JDK);
            let (_, read, n, _) = encoder.encode_to_slice(&text, &mut dst, true);
            assert_eq!(read, text.len(), "{charset}");
            written = n;
        });
        assert_eq!(dst[..written], charset.encode(&text, JDK)[..], "{charset}");
        assert_eq!(counts["encoder_one_char"], 0, "{charset}");
        let mut small = [0u8; 5];
        let counts = counted(|| {
            let _ = charset
                .new_encoder(JDK)
                .encode_to_slice(&text, &mut small, true);
        });
        assert!(counts["encoder_one_char"] > 0, "{charset}");
    }
}

/// ASCII after a non-ASCII char in a JDK multi-byte charset, and in a WHATWG one with an
/// encode table, goes eight bytes at a time.
#[cfg(feature = "jdk-multi-byte")]
#[test]
fn jdk_multi_byte_ascii_goes_in_words() {
    let text = format!("\u{4E2D}{}", "abcdefgh".repeat(20));
    for name in ["x-EUC-TW", "Big5-HKSCS"] {
        let charset = Charset::for_java_name(name).expect("a JDK charset");
        let mut body = Vec::new();
        let counts = counted(|| body = charset.encode(&text, JDK));
        assert_eq!(body, reference::encode(charset, &text, JDK), "{name}");
        assert_eq!(counts["jdk_ascii_words"], 160, "{name}");
    }
    // The WHATWG coders with a table: the same words.
    for encoding in [SHIFT_JIS, EUC_KR, BIG5, GBK] {
        let charset = Charset::from(encoding);
        let mut body = Vec::new();
        let counts = counted(|| body = charset.encode(&text, JDK));
        assert_eq!(body, reference::encode(charset, &text, JDK), "{charset}");
        assert_eq!(counts["multi_byte_ascii_words"], 160, "{charset}");
    }
}

/// After a window the table window kernel declines (3-byte chars), a few blocks go the table
/// path and the kernel is tried again: 66 bytes of hanzi (unmappable, `?`) and then 1000 bytes
/// of Cyrillic in windows-1251, or of `é` in IBM037 (the EBCDIC byte map, whose window is
/// AVX-512 only). The kernel takes all but a few blocks of the second part.
#[test]
fn the_table_window_is_tried_again_after_it_declined() {
    let hanzi = "中".repeat(22);
    let cases = [
        (
            Charset::from(WINDOWS_1251),
            format!("{hanzi}{}", "ж".repeat(500)),
        ),
        (
            Charset::for_java_name("IBM037").expect("a JDK charset"),
            format!("{hanzi}{}", "é".repeat(500)),
        ),
    ];
    for (charset, text) in &cases {
        for level in levels::all() {
            let counts = encode_counted(level, *charset, text);
            let windows = counts["table_window_ssse3"] + counts["table_window_avx512"];
            let has_window = match level.name() {
                "portable" => false,
                "avx512" => true,
                _ => charset.name() != "IBM037",
            };
            if has_window {
                assert!(windows >= 640, "{} {charset}: {windows}", level.name());
            } else {
                assert_eq!(windows, 0, "{} {charset}", level.name());
            }
        }
    }
}

/// Text the table window kernel declines all through (a hanzi in every 64 bytes) is offered
/// to it less and less often: after 1, 2, 4, 8 and then 16 blocks of the table path. About
/// 60 blocks make at most 12 tries, not one per block.
#[test]
fn the_table_window_backs_off_where_it_declines() {
    let unit_1251 = format!("中{}", "ж".repeat(30));
    let unit_037 = format!("中{}", "é".repeat(30));
    let cases = [
        (Charset::from(WINDOWS_1251), unit_1251.repeat(60)),
        (
            Charset::for_java_name("IBM037").expect("a JDK charset"),
            unit_037.repeat(60),
        ),
    ];
    for (charset, text) in &cases {
        for level in levels::all() {
            let counts = encode_counted(level, *charset, text);
            let declines = counts["window_run_declines"];
            let has_window = match level.name() {
                "portable" => false,
                "avx512" => true,
                _ => charset.name() != "IBM037",
            };
            if has_window {
                assert!(
                    (4..=12).contains(&declines),
                    "{} {charset}: {declines}",
                    level.name()
                );
            } else {
                assert_eq!(declines, 0, "{} {charset}", level.name());
            }
            let windows = counts["table_window_ssse3"] + counts["table_window_avx512"];
            assert_eq!(windows, 0, "{} {charset}", level.name());
        }
    }
}

/// CJK text to UTF-16 and UTF-32 in pieces cut inside a char (the pieces are 512 bytes at
/// most, cut back to a char boundary), and mostly-CJK text with ASCII runs, 2-byte and 4-byte
/// chars between the runs, at every level against the reference. The crate's own decoder
/// takes such text in steps of 16 bytes; only the last bytes of a piece (fewer than 16) go
/// char by char.
#[test]
fn mostly_cjk_text_is_decoded_in_steps() {
    let unit = format!(
        "{}abcdefghijklmnopqrstuvwxyz{}é{}😀{}",
        "中".repeat(30),
        "文".repeat(30),
        "字".repeat(20),
        "国".repeat(25)
    );
    let mut texts: Vec<String> = (0..3)
        .map(|k| format!("{}{}", "a".repeat(k), "中".repeat(400)))
        .collect();
    texts.push(unit.repeat(4));
    for text in &texts {
        for charset in [Charset::UTF_16BE, Charset::UTF_16LE, Charset::UTF_32BE] {
            for level in levels::all() {
                let counts = encode_counted(level, charset, text);
                let pieces = text.len().div_ceil(500);
                assert!(
                    counts["utf16_own_tail"] < 16 * pieces,
                    "{} {charset}: {} units char by char",
                    level.name(),
                    counts["utf16_own_tail"]
                );
            }
        }
    }
}

/// UTF-16 input to UTF-8 is written in runs, not char by char: into a `Vec`, the caller's
/// slice and a `BufMut`, every unit goes through the run writer, lone surrogates included,
/// in one round into memory the sink lends, else a round per piece.
#[test]
fn utf16_input_to_utf8_is_written_in_runs() {
    let text = "caf\u{E9} \u{4E2D}\u{1F600} ".repeat(300);
    let mut units: Vec<u16> = text.encode_utf16().collect();
    units.insert(700, 0xD800);
    units.push(0xDBFF);
    let want = reference::encode_from_utf16(Charset::UTF_8, &units, JDK);
    let mut body = Vec::new();
    let counts = counted(|| body = Charset::UTF_8.encode_from_utf16(&units, JDK));
    assert_eq!(body, want);
    assert_eq!(counts["utf16_to_utf8_run"], units.len(), "Vec");
    assert_eq!(
        counts["utf16_to_utf8_rounds"], 1,
        "Vec: the whole input in one round"
    );
    let mut dst = vec![0u8; want.len()];
    let counts = counted(|| {
        let written = Charset::UTF_8.encode_from_utf16_to_slice(&units, JDK, &mut dst);
        assert_eq!(written, Some(want.len()));
    });
    assert_eq!(counts["utf16_to_utf8_run"], units.len(), "slice");
    assert_eq!(counts["utf16_to_utf8_rounds"], 1, "slice");
    #[cfg(feature = "bytes")]
    {
        let mut buf = bytes::BytesMut::new();
        let counts = counted(|| Charset::UTF_8.encode_from_utf16_to_buf(&units, JDK, &mut buf));
        assert_eq!(buf[..], want[..]);
        assert_eq!(counts["utf16_to_utf8_run"], units.len(), "BufMut");
        // A piece of 680 units a round, into room for its worst case: nothing is cut short.
        assert_eq!(
            counts["utf16_to_utf8_rounds"],
            units.len().div_ceil(680),
            "BufMut"
        );
    }
}

/// Outside the kernels (the portable and SSSE3 levels), runs of ASCII in UTF-16 input to
/// UTF-8 go in whole chunks of sixteen units: of two runs of 500 and 499 units, 31 chunks
/// each; the units past them four or one at a time.
#[test]
fn utf16_ascii_runs_go_in_chunks_of_sixteen() {
    let text = "a".repeat(500) + "\u{E9}" + &"b".repeat(499);
    let units: Vec<u16> = text.encode_utf16().collect();
    let want = reference::encode_from_utf16(Charset::UTF_8, &units, JDK);
    for name in ["portable", "ssse3"] {
        let Some(level) = levels::get(name) else {
            continue;
        };
        let mut body = Vec::new();
        let counts = counted(|| body = level.encode_from_utf16(Charset::UTF_8, &units, JDK));
        assert_eq!(body, want, "{name}");
        assert_eq!(counts["utf16_ascii_chunks"], 2 * 31 * 16, "{name}");
    }
}

/// UTF-16 input to UTF-8 goes all through the AVX-512 kernel, into a `Vec` and the caller's
/// slice (the last units, fewer than 32, in a step under a mask), surrogate pairs included;
/// at the AVX2 level, through the AVX2 kernel into a `Vec`. No other level has a kernel.
#[test]
fn utf16_input_to_utf8_goes_through_the_kernel() {
    let plain = "caf\u{E9} \u{4E2D}\u{6587} \u{416}x ".repeat(60);
    let emoji = "caf\u{E9} \u{4E2D}\u{6587} \u{416}x ".repeat(8) + "\u{1F600}";
    for (what, text) in [("plain", plain), ("emoji", emoji.repeat(8))] {
        let units: Vec<u16> = text.encode_utf16().collect();
        let want = reference::encode_from_utf16(Charset::UTF_8, &units, JDK);
        for level in levels::all() {
            let name = level.name();
            let mut body = Vec::new();
            let counts = counted(|| body = level.encode_from_utf16(Charset::UTF_8, &units, JDK));
            assert_eq!(body, want, "{name} {what}");
            let mut dst = vec![0u8; want.len()];
            let sliced = counted(|| {
                let written =
                    level.encode_from_utf16_to_slice(Charset::UTF_8, &units, JDK, &mut dst);
                assert_eq!(written, Some(want.len()), "{name} {what}");
            });
            assert_eq!(dst, want, "{name} {what}");
            let taken = counts["utf16_utf8_avx512"];
            assert_eq!(sliced["utf16_utf8_avx512"], taken, "{name} {what}");
            if name == "avx2" {
                // Its kernel (16 units a step, 15 before a pair it would cut) takes the
                // caller's slice up to the last 64 units, whose bytes are written over what
                // it writes past its own; into the `Vec`, text with no surrogate is all its
                // steps, and text with pairs most of its units.
                let covered = sliced["utf16_utf8_avx2"];
                assert!(covered > units.len() - 64 - 16, "{what}: {covered}");
                assert!(covered <= units.len() - 64, "{what}: {covered}");
                if what == "plain" {
                    let (taken, _) = avx2_utf16_utf8_steps(&units, want.len());
                    check(&counts, name, what, &[("utf16_utf8_avx2", taken)]);
                } else {
                    let taken = counts["utf16_utf8_avx2"];
                    assert!(taken > units.len() - 64, "{taken} of {}", units.len());
                }
            } else if name != "avx512" {
                check(&counts, name, what, &[]);
            } else {
                // Every unit, pairs too, the last ones in a step under a mask.
                assert_eq!(taken, units.len(), "{what}");
            }
        }
    }
}

/// UTF-16 input of one- and two-byte chars to UTF-8 goes through the AVX2 kernel at the AVX2
/// level, sixteen units a step while 32 bytes of room are left, into a `Vec`'s spare capacity
/// (its stores leave scratch bytes past the output); into the caller's slice, the portable
/// code writes it.
#[test]
fn utf16_input_of_two_byte_chars_to_utf8_goes_through_the_avx2_kernel() {
    let text = "Gr\u{FC}\u{DF}e, \u{436}\u{438}\u{437}\u{43D}\u{44C}! ascii words ".repeat(30);
    let units: Vec<u16> = text.encode_utf16().collect();
    let want = reference::encode_from_utf16(Charset::UTF_8, &units, JDK);
    let (taken, _) = avx2_utf16_utf8_steps(&units, want.len());
    assert!(taken > units.len() - 48, "{taken} of {}", units.len());
    for level in levels::all() {
        let name = level.name();
        let mut body = Vec::new();
        let counts = counted(|| body = level.encode_from_utf16(Charset::UTF_8, &units, JDK));
        assert_eq!(body, want, "{name}");
        let mut dst = vec![0u8; want.len() + 40];
        let sliced = counted(|| {
            let written = level.encode_from_utf16_to_slice(Charset::UTF_8, &units, JDK, &mut dst);
            assert_eq!(written, Some(want.len()), "{name}");
        });
        assert_eq!(dst[..want.len()], want[..], "{name}");
        assert!(dst[want.len()..].iter().all(|&b| b == 0), "{name}");
        match name {
            "avx2" => {
                check(&counts, name, "vec", &[("utf16_utf8_avx2", taken)]);
                // The caller's slice: its steps up to the last 64 units, whose bytes are
                // written over what it writes past its own.
                let covered = (units.len() - 64) / 16 * 16;
                check(&sliced, name, "slice", &[("utf16_utf8_avx2", covered)]);
            }
            "avx512" => {}
            _ => {
                check(&counts, name, "vec", &[]);
                check(&sliced, name, "slice", &[]);
            }
        }
    }
}

/// The exact sizes of UTF-16 input are counted by the kernels at the AVX2 and AVX-512 levels:
/// the greatest unit alone for ASCII to UTF-8 and for text with no surrogate to ISO-8859-1,
/// then the UTF-8 counts for other text to UTF-8 (without the greatest unit where the first
/// 64 units are not all ASCII). ISO-8859-1 into a new `Vec` is not counted (one byte a unit
/// reserved, the capacity given back after a pair), nor is a slice.
#[test]
fn utf16_sizes_are_counted_by_the_count_kernels() {
    let ascii: Vec<u16> = "plain text ".repeat(40).encode_utf16().collect();
    let mixed: Vec<u16> = "caf\u{E9} \u{1F600} ".repeat(40).encode_utf16().collect();
    // 66 ASCII units first: the greatest-unit pass runs before the counts.
    let late: Vec<u16> = ascii[..66].iter().chain(&mixed).copied().collect();
    // Each case: the passes of the greatest unit, the UTF-8 counts and the pairs into a new
    // `Vec`, and the same into a `Vec` with a byte and no spare capacity.
    let cases = [
        (Charset::UTF_8, &ascii, [1, 0, 0], [1, 0, 0]),
        // Not all ASCII in the first 64 units: the counts alone.
        (Charset::UTF_8, &mixed, [0, 1, 1], [0, 1, 1]),
        (Charset::UTF_8, &late, [1, 1, 1], [1, 1, 1]),
        // A new `Vec`: one byte a unit reserved, nothing counted (given back where pairs
        // made it shorter); else the chars counted.
        (Charset::ISO_8859_1, &ascii, [0, 0, 0], [1, 0, 0]),
        (Charset::ISO_8859_1, &mixed, [0, 0, 0], [1, 0, 1]),
    ];
    for level in levels::all() {
        let name = level.name();
        let suffix = match name {
            "avx512" => Some("avx512"),
            "avx2" => Some("avx2"),
            _ => None,
        };
        for &(charset, units, new_passes, appended_passes) in &cases {
            let want = reference::encode_from_utf16(charset, units, JDK);
            let mut body = Vec::new();
            let new_counts = counted(|| body = level.encode_from_utf16(charset, units, JDK));
            assert_eq!(body, want, "{name} {charset}");
            assert_eq!(body.capacity(), body.len(), "{name} {charset}");
            let mut appended = vec![b'<'];
            appended.shrink_to_fit();
            let appended_counts = counted(|| {
                level.encode_from_utf16_to_vec(charset, units, JDK, &mut appended);
            });
            assert_eq!(appended[1..], want, "{name} {charset}");
            assert_eq!(appended.capacity(), appended.len(), "{name} {charset}");
            for (form, counts, [max_passes, count_passes, pair_passes]) in [
                ("new", new_counts, new_passes),
                ("appended", appended_counts, appended_passes),
            ] {
                for isa in ["avx2", "avx512"] {
                    let (max, count, pairs) = if suffix == Some(isa) {
                        (
                            max_passes * units.len(),
                            count_passes * units.len(),
                            pair_passes * units.len(),
                        )
                    } else {
                        (0, 0, 0)
                    };
                    let what = format!("{name} {charset} {form} {}", units.len());
                    assert_eq!(
                        counts[format!("utf16_pairs_{isa}").as_str()],
                        pairs,
                        "{what}"
                    );
                    assert_eq!(counts[format!("utf16_max_{isa}").as_str()], max, "{what}");
                    assert_eq!(
                        counts[format!("utf16_counts_{isa}").as_str()],
                        count,
                        "{what}"
                    );
                }
            }
            let mut dst = vec![0u8; want.len()];
            let counts = counted(|| {
                let written = level.encode_from_utf16_to_slice(charset, units, JDK, &mut dst);
                assert_eq!(written, Some(want.len()), "{name} {charset}");
            });
            assert!(
                counts
                    .iter()
                    .all(|(k, &n)| !k.starts_with("utf16_max") || n == 0),
                "{name} {charset}"
            );
        }
    }
}

/// UTF-16 input to a single-byte charset goes sixteen units at a time where they all map:
/// windows-1251 (Cyrillic, through the table) and EBCDIC (ASCII through the table). Exact-size
/// and into the caller's slice, at every level.
#[test]
fn utf16_input_to_single_byte_goes_sixteen_units_at_a_time() {
    let cases = [
        (
            Charset::from(WINDOWS_1251),
            "\u{416}\u{451}\u{43B}\u{442}\u{44B}\u{439} ".repeat(80) + "!",
        ),
        (
            Charset::for_java_name("IBM037").expect("a JDK charset"),
            "plain text ".repeat(50),
        ),
    ];
    for level in levels::all() {
        for (charset, text) in &cases {
            let charset = *charset;
            let units: Vec<u16> = text.encode_utf16().collect();
            let chunks = units.len() / 16 * 16;
            let want = reference::encode_from_utf16(charset, &units, JDK);
            let mut body = Vec::new();
            let counts = counted(|| body = level.encode_from_utf16(charset, &units, JDK));
            assert_eq!(body, want, "{charset}");
            check(
                &counts,
                level.name(),
                "Vec",
                &[("utf16_table_chunks", chunks)],
            );
            let mut dst = vec![0u8; want.len()];
            let counts = counted(|| {
                let written = level.encode_from_utf16_to_slice(charset, &units, JDK, &mut dst);
                assert_eq!(written, Some(want.len()), "{charset}");
            });
            check(
                &counts,
                level.name(),
                "slice",
                &[("utf16_table_chunks", chunks)],
            );
        }
    }
    let units: Vec<u16> = "\u{416}".repeat(40).encode_utf16().collect();
    let counts = counted(|| drop(Charset::from(WINDOWS_1251).encode_from_utf16(&units, JDK)));
    assert_eq!(counts["utf16_table_chunks"], 32);
}

/// UTF-16 input to the JDK's ISO-8859-1 goes through the UTF-16 to Latin-1 kernel where the
/// sink lends its memory (AVX-512: the whole run; AVX2: its whole 32-unit steps, the rest of
/// the run in one go), and as one run of the portable code below AVX2 and into a `BufMut`; a
/// unit above U+00FF ends the run, and the run after it goes the same way.
#[test]
fn utf16_input_to_iso_8859_1_goes_through_the_latin1_kernel() {
    let charset = Charset::ISO_8859_1;
    let text =
        "Gr\u{FC}\u{DF}e aus K\u{F6}ln, ".repeat(40) + "!\u{100}" + &"\u{E9}t\u{E9} ".repeat(10);
    let units: Vec<u16> = text.encode_utf16().collect();
    let (first, second) = (641, 40);
    assert_eq!(units.len(), first + 1 + second);
    let want = reference::encode_from_utf16(charset, &units, JDK);
    for level in levels::all() {
        let name = level.name();
        let expected: &[(&str, usize)] = match name {
            "avx512" => &[
                ("utf16_latin1_avx512", first + second),
                ("utf16_latin1_run", 0),
            ],
            // 640 and 32 by the kernel; the 1 and the 8 after them as the rest of each run,
            // in one go, the kernel not called again before the unit it cannot take.
            "avx2" => &[("utf16_latin1_avx2", 640 + 32), ("utf16_latin1_run", 1 + 8)],
            _ => &[("utf16_latin1_run", first + second)],
        };
        let mut body = Vec::new();
        let counts = counted(|| body = level.encode_from_utf16(charset, &units, JDK));
        assert_eq!(body, want, "{name}");
        assert_eq!(body.capacity(), body.len(), "{name}");
        check(&counts, name, "Vec", expected);
        let mut dst = vec![0u8; want.len()];
        let counts = counted(|| {
            let written = level.encode_from_utf16_to_slice(charset, &units, JDK, &mut dst);
            assert_eq!(written, Some(want.len()), "{name}");
        });
        assert_eq!(dst, want, "{name}");
        check(&counts, name, "slice", expected);
        #[cfg(feature = "bytes")]
        {
            let mut buf = bytes::BytesMut::new();
            let counts = counted(|| level.encode_from_utf16_to_buf(charset, &units, JDK, &mut buf));
            assert_eq!(buf, want, "{name}");
            check(
                &counts,
                name,
                "BufMut",
                &[("utf16_latin1_run", first + second)],
            );
        }
    }
    let counts = counted(|| drop(charset.encode_from_utf16(&units, JDK)));
    let highest = levels::all().last().map(|level| level.name());
    let kernel = match highest {
        Some("avx512") => "utf16_latin1_avx512",
        Some("avx2") => "utf16_latin1_avx2",
        _ => "utf16_latin1_run",
    };
    assert!(counts[kernel] > 0, "{highest:?}");
}
