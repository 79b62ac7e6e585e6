//! Which kernel and which portable fast path handled what, through the hidden counters
//! (`levels::counts`, feature `__counters`): at every level this CPU has, each kernel of the
//! level takes the input it is for (as many bytes as its contract says where the contract
//! fixes them), the kernels not chosen there take nothing, and each portable fast path is
//! taken on its input. The outputs are the same whichever code runs (other tests check
//! them); these tests notice when a kernel is no longer chosen or a fast path no longer taken.
//!
//! The counts are the thread's own: each test reads what it ran ([`counted`]), whatever runs
//! beside it.

use std::collections::BTreeMap;

use wirebytes_mutf8::levels::{self, Level};

/// The counters of the kernels (the others count portable fast paths).
const KERNELS: [&str; 6] = [
    "utf8_check_avx2",
    "rewrite_avx512",
    "utf16_pairs_ssse3",
    "utf16_pairs_avx512",
    "utf16_blocks_avx2",
    "utf16_blocks_avx512",
];

/// The counts of what `run` handled, by counter name.
fn counted(run: impl FnOnce()) -> BTreeMap<&'static str, usize> {
    levels::reset_counts();
    run();
    levels::counts().collect()
}

/// What a kernel counter should hold.
#[derive(Debug, Clone, Copy)]
enum Want {
    /// Exactly this many bytes.
    Exactly(usize),
    /// Between these many bytes (inclusive), at least one.
    Within(usize, usize),
}

/// Checks that the kernels named in `want` handled what it says and every other kernel
/// nothing.
fn assert_kernels(counts: &BTreeMap<&str, usize>, want: &[(&str, Want)], what: &str) {
    for kernel in KERNELS {
        let got = counts[kernel];
        match want.iter().find(|&&(name, _)| name == kernel) {
            None => assert_eq!(got, 0, "{what}: {kernel} ran ({counts:?})"),
            Some(&(_, Want::Exactly(n))) => assert_eq!(got, n, "{what}: {kernel} ({counts:?})"),
            Some(&(_, Want::Within(lo, hi))) => assert!(
                (lo.max(1)..=hi).contains(&got),
                "{what}: {kernel} handled {got}, not {lo}..={hi} ({counts:?})"
            ),
        }
    }
}

/// The bytes a kernel takes from the start of `n` bytes of text it accepts whole, `width` per
/// block, a block running while `reads` bytes are left from its start.
fn blocks(n: usize, width: usize, reads: usize) -> usize {
    if n < reads {
        0
    } else {
        width * ((n - reads) / width + 1)
    }
}

/// Every level this CPU has, by name.
fn all_levels() -> Vec<(&'static str, Level)> {
    levels::all().map(|level| (level.name(), level)).collect()
}

/// Whether the level `name` holds the kernels of `min` (the levels are cumulative).
fn has(name: &str, min: &str) -> bool {
    let order = ["portable", "ssse3", "avx2", "avx512"];
    let rank = |n: &str| order.iter().position(|&o| o == n).expect("a known level");
    rank(name) >= rank(min)
}

/// The public functions run at the last level: on each body (short ASCII, text to borrow,
/// text to rewrite, an error) their kernel counts and their results equal those of the same
/// call at that level.
#[test]
fn the_public_functions_run_at_the_last_level() {
    let (_, last) = *all_levels().last().expect("portable at least");
    let text = "\u{436}\u{4E2D}".repeat(50);
    let rewrite = [text.as_bytes(), b"\xc0\x80", text.as_bytes()].concat();
    let bad = [text.as_bytes(), b"\xff"].concat();
    for body in [&b"short"[..], text.as_bytes(), &rewrite, &bad] {
        let mut public_out = (None, String::from("x"), vec![1u16], None, None);
        let public = counted(|| {
            public_out.0 = Some(wirebytes_mutf8::decode(body).map(|t| t.into_owned()));
            let _ = wirebytes_mutf8::decode_to_string(body, &mut public_out.1);
            let _ = wirebytes_mutf8::decode_to_utf16_vec(body, &mut public_out.2);
            public_out.3 = Some(wirebytes_mutf8::decode_to_utf16(body));
            public_out.4 = Some((
                wirebytes_mutf8::validate(body),
                wirebytes_mutf8::decode_lossy(body).into_owned(),
            ));
        });
        let mut level_out = (None, String::from("x"), vec![1u16], None, None);
        let at_last = counted(|| {
            level_out.0 = Some(last.decode(body).map(|t| t.into_owned()));
            let _ = last.decode_to_string(body, &mut level_out.1);
            let _ = last.decode_to_utf16_vec(body, &mut level_out.2);
            level_out.3 = Some(last.decode_to_utf16(body));
            level_out.4 = Some((last.validate(body), last.decode_lossy(body).into_owned()));
        });
        assert_eq!(public_out, level_out, "{body:02x?}");
        for kernel in KERNELS {
            assert_eq!(public[kernel], at_last[kernel], "{kernel}");
        }
    }
}

/// `decode` and `validate` borrow or pass UTF-8 text in one AVX2 check from `avx2` on; below,
/// the portable plan proves the ASCII prefix (here none) and `simdutf8` the rest.
#[test]
fn the_utf8_check_takes_utf8_text_from_avx2_on() {
    let latin = "\u{E9}".repeat(100);
    let ascii = "plain ascii text".repeat(10);
    for (name, level) in all_levels() {
        for (what, text) in [("latin", &latin), ("ascii", &ascii)] {
            let n = text.len();
            let counts = counted(|| {
                assert!(matches!(
                    level.decode(text.as_bytes()),
                    Ok(std::borrow::Cow::Borrowed(_))
                ));
            });
            let counts2 = counted(|| assert!(level.validate(text.as_bytes()).is_ok()));
            for counts in [counts, counts2] {
                if has(name, "avx2") {
                    assert_kernels(&counts, &[("utf8_check_avx2", Want::Exactly(n))], name);
                    assert_eq!(counts["plan_ascii"], 0, "{name} {what}");
                } else {
                    assert_kernels(&counts, &[], name);
                    let ascii_prefix = if what == "ascii" { n } else { 0 };
                    assert_eq!(counts["plan_ascii"], ascii_prefix, "{name} {what}");
                }
            }
        }
    }
}

/// A body that needs the rewrite: the check proves the UTF-8 before it (to the start of its
/// 64-byte block, moved back to the start of a char: at most 67 bytes before the first
/// `C0 80`); at `avx512` the rewrite kernel takes 64-byte blocks from there while 65 bytes
/// are left.
#[test]
fn the_rewrite_kernel_takes_the_blocks_at_avx512() {
    let mut body = "\u{E9}".repeat(100).into_bytes();
    let first_nul = body.len() + 2;
    for _ in 0..100 {
        body.extend_from_slice(b"\xd0\xb6\xc0\x80");
    }
    let n = body.len();
    for (name, level) in all_levels() {
        let counts = counted(|| assert!(level.decode(&body).is_ok()));
        let check = counts["utf8_check_avx2"];
        let mut want = vec![];
        if has(name, "avx2") {
            want.push(("utf8_check_avx2", Want::Within(first_nul - 67, first_nul)));
        }
        if has(name, "avx512") {
            want.push(("rewrite_avx512", Want::Exactly(blocks(n - check, 64, 65))));
        }
        assert_kernels(&counts, &want, name);
    }
}

/// The `decode_to_utf16` decoders on 2-byte text (Cyrillic) and on `C0 80` (every NUL):
/// `pairs_ssse3` at `ssse3` (16-byte blocks, 24 read), `blocks_avx2` at `avx2` (32, 34 read),
/// `pairs_avx512` at `avx512` (32, 33 read); the portable word loop takes four at a time.
#[test]
fn two_byte_text_goes_through_the_kernel_of_each_level() {
    let cyrillic = "\u{436}".repeat(100).into_bytes();
    let nuls = b"\xc0\x80".repeat(40);
    // After one ASCII byte: the kernels start at byte 1.
    let after_a = [b"a", &cyrillic[..]].concat();
    for (name, level) in all_levels() {
        for (what, body, at) in [
            ("cyrillic", &cyrillic, 0),
            ("nuls", &nuls, 0),
            ("a, cyrillic", &after_a, 1),
        ] {
            let n = body.len() - at;
            let counts = counted(|| assert!(level.decode_to_utf16(body).is_ok()));
            let (kernel, taken) = match name {
                "ssse3" => ("utf16_pairs_ssse3", blocks(n, 16, 24)),
                "avx2" => ("utf16_blocks_avx2", blocks(n, 32, 34)),
                "avx512" => ("utf16_pairs_avx512", blocks(n, 32, 33)),
                _ => ("", 0),
            };
            let want: &[_] = if kernel.is_empty() {
                &[]
            } else {
                &[(kernel, Want::Exactly(taken))]
            };
            assert_kernels(&counts, want, &format!("{name} {what}"));
            // The rest, in the portable loop: four 2-byte sequences per word.
            assert_eq!(counts["utf16_two_byte_words"], n - taken, "{name} {what}");
        }
    }
}

/// A `C0 80` then ASCII: the 2-byte decoders take the first block (not ASCII only) and stop
/// at the next (ASCII only); at `avx512` the general decoder goes on from there (byte 32) to
/// the end, as `blocks_avx2` does from byte 0 at `avx2`.
#[test]
fn the_general_decoders_take_ascii_after_a_2_byte_block() {
    let body = [&b"\xc0\x80"[..], "abcdefgh".repeat(20).as_bytes()].concat();
    let n = body.len();
    for (name, level) in all_levels() {
        let counts = counted(|| assert!(level.decode_to_utf16(&body).is_ok()));
        let want: &[_] = match name {
            "ssse3" => &[("utf16_pairs_ssse3", Want::Exactly(16))],
            "avx2" => &[("utf16_blocks_avx2", Want::Exactly(blocks(n, 32, 34)))],
            "avx512" => &[
                ("utf16_pairs_avx512", Want::Exactly(32)),
                ("utf16_blocks_avx512", Want::Exactly(blocks(n - 32, 32, 34))),
            ],
            _ => &[],
        };
        assert_kernels(&counts, want, name);
    }
}

/// 3-byte text (CJK): `blocks_avx2` at `avx2`, `blocks_avx512` at `avx512`, to within a
/// block and its look-ahead of the end; no kernel below.
#[test]
fn three_byte_text_goes_through_the_general_kernel() {
    let cjk = "\u{4E2D}".repeat(100).into_bytes();
    let n = cjk.len();
    for (name, level) in all_levels() {
        let counts = counted(|| assert!(level.decode_to_utf16(&cjk).is_ok()));
        let want: &[_] = match name {
            "avx2" => &[("utf16_blocks_avx2", Want::Within(n - 66, n))],
            "avx512" => &[("utf16_blocks_avx512", Want::Within(n - 66, n))],
            _ => &[],
        };
        assert_kernels(&counts, want, name);
    }
}

/// The kernel a body goes through at `ssse3`, `avx2` and `avx512`, and the bytes it takes
/// (`""` for none).
type ByLevel = [(&'static str, usize); 3];

/// Each decoder runs as soon as one block's read fits: 24 bytes for `pairs_ssse3`, 33 for
/// `pairs_avx512`, 34 for the general decoders, and not with one byte fewer.
#[test]
fn each_decoder_runs_from_its_shortest_input() {
    let cyrillic = "\u{436}".repeat(20).into_bytes();
    let cjk = "\u{4E2D}".repeat(11).into_bytes();
    // (body, its kernel taken at each level: ssse3, avx2, avx512)
    let with_tail = |body: &[u8], tail: &[u8]| [body, tail].concat();
    let cases: Vec<(&str, Vec<u8>, ByLevel)> = vec![
        (
            "24 of 2-byte",
            cyrillic[..24].to_vec(),
            [("utf16_pairs_ssse3", 16), ("", 0), ("", 0)],
        ),
        (
            "22 of 2-byte",
            cyrillic[..22].to_vec(),
            [("", 0), ("", 0), ("", 0)],
        ),
        (
            "32 of 2-byte + 1",
            with_tail(&cyrillic[..32], b"a"),
            [
                ("utf16_pairs_ssse3", 16),
                ("", 0),
                ("utf16_pairs_avx512", 32),
            ],
        ),
        (
            "32 of 2-byte + 2",
            with_tail(&cyrillic[..32], b"ab"),
            [
                ("utf16_pairs_ssse3", 16),
                ("utf16_blocks_avx2", 32),
                ("utf16_pairs_avx512", 32),
            ],
        ),
        (
            "33 of 3-byte + 1",
            with_tail(&cjk, b"a"),
            [
                ("", 0),
                ("utf16_blocks_avx2", 33),
                ("utf16_blocks_avx512", 33),
            ],
        ),
        ("33 of 3-byte", cjk.clone(), [("", 0), ("", 0), ("", 0)]),
    ];
    for (name, level) in all_levels() {
        for (what, body, by_level) in &cases {
            let counts = counted(|| assert!(level.decode_to_utf16(body).is_ok()));
            let (kernel, taken) = match name {
                "ssse3" => by_level[0],
                "avx2" => by_level[1],
                "avx512" => by_level[2],
                _ => ("", 0),
            };
            let want: &[_] = if kernel.is_empty() {
                &[]
            } else {
                &[(kernel, Want::Exactly(taken))]
            };
            assert_kernels(&counts, want, &format!("{name}: {what}"));
        }
    }
}

/// The short ASCII bodies of `decode_to_utf16` (4 to 64 bytes) are widened with SSE2 on
/// x86 targets with SSE2 (fixed by the target and the compiler, the same at every level): two overlapping loads of 4, 8 or 16
/// bytes, and one more 16-byte load each above 32 and 48 bytes. Below 4 bytes, one at a
/// time; elsewhere, the portable words.
#[test]
fn short_ascii_bodies_are_widened_with_sse2_on_x86_64() {
    let sse2 = levels::widens_with_sse2();
    // Every x86_64 target has SSE2: only a compiler too old for the kernels goes without.
    if cfg!(target_arch = "x86_64") && levels::all().any(|level| level.name() != "portable") {
        assert!(sse2, "x86_64 with kernels widens with SSE2");
    }
    let ascii: Vec<u8> = (0..64).map(|k| b'a' + k % 26).collect();
    for (name, level) in all_levels() {
        for n in 0..=ascii.len() {
            let body = &ascii[..n];
            let mut into = vec![7u16];
            let counts = counted(|| {
                assert_eq!(level.decode_to_utf16(body).map(|c| c.len()), Ok(n));
                assert!(level.decode_to_utf16_vec(body, &mut into).is_ok());
            });
            let (w16, w8, w4) = match n {
                0..4 => (0, 0, 0),
                4..8 => (0, 0, 8),
                8..16 => (0, 16, 0),
                _ => (16 * (2 + usize::from(n > 32) + usize::from(n > 48)), 0, 0),
            };
            let want = if sse2 {
                (2 * w16, 2 * w8, 2 * w4)
            } else {
                (0, 0, 0)
            };
            let got = (
                counts["widen16_sse2"],
                counts["widen8_sse2"],
                counts["widen4_sse2"],
            );
            assert_eq!(got, want, "{name}: {n} bytes");
            // The portable words widen exactly where SSE2 does not.
            let portable = if sse2 { 0 } else { 2 * (w16 + w8 + w4) };
            assert_eq!(counts["widen_portable"], portable, "{name}: {n} bytes");
            assert_eq!(counts["append_short_ascii"], 2 * n, "{name}: {n} bytes");
            assert_kernels(&counts, &[], name);
        }
        // 65 bytes: not a short body.
        let long = [b'a'; 65];
        let counts = counted(|| assert!(level.decode_to_utf16(&long).is_ok()));
        assert_eq!(counts["append_short_ascii"], 0, "{name}");
        assert_eq!(counts["widen16_sse2"], 0, "{name}");
        assert_eq!(counts["utf16_ascii_blocks"], 64, "{name}");
    }
}

/// `decode`, `validate` and `decode_to_string` take ASCII of up to 32 bytes (64 for the
/// string) in their short-ASCII step, before any kernel.
#[test]
fn short_ascii_is_taken_before_any_kernel() {
    let ascii = [b'k'; 70];
    for (name, level) in all_levels() {
        for n in 0..=33 {
            let body = &ascii[..n];
            let counts = counted(|| {
                assert!(level.decode(body).is_ok());
                assert!(level.validate(body).is_ok());
            });
            let want = if n <= 32 { 2 * n } else { 0 };
            assert_eq!(counts["short_ascii"], want, "{name}: {n}");
            if n <= 32 {
                assert_kernels(&counts, &[], name);
            }
        }
        for n in [0, 1, 31, 64, 65] {
            let mut dst = String::new();
            let counts = counted(|| assert!(level.decode_to_string(&ascii[..n], &mut dst).is_ok()));
            let want = if n <= 64 { n } else { 0 };
            assert_eq!(counts["append_short_ascii"], want, "{name}: {n}");
        }
    }
}

/// The portable loops' ASCII steps: the rewrite's 32-byte blocks, `decode_to_utf16`'s 32-byte
/// blocks and 8-byte words, the JDK-rule scan's 8-byte words.
#[test]
fn ascii_runs_take_the_wide_steps() {
    let ascii = "abcdefgh".repeat(20);
    let after_nul = [b"\xc0\x80", ascii.as_bytes()].concat();
    // 2-byte text, then ASCII short of a block.
    let tail = ["\u{436}".repeat(40).as_bytes(), &ascii.as_bytes()[..20]].concat();
    for (name, level) in all_levels() {
        let counts = counted(|| assert!(level.decode(&after_nul).is_ok()));
        assert_eq!(counts["rewrite_ascii_blocks"], 160, "{name}");
        let counts = counted(|| assert!(level.validate(&after_nul).is_ok()));
        assert_eq!(counts["ascii_words"], 160, "{name}");
        let counts = counted(|| assert!(level.decode_to_utf16(ascii.as_bytes()).is_ok()));
        assert_eq!(counts["utf16_ascii_blocks"], 160, "{name}");
        assert_kernels(&counts, &[], name);
    }
    let portable = levels::get("portable").expect("every CPU has it");
    let counts = counted(|| assert!(portable.decode_to_utf16(&tail).is_ok()));
    assert_eq!(counts["utf16_two_byte_words"], 80);
    assert_eq!(counts["utf16_ascii_words"], 16);
    // 2-byte words with a space after each, 64 ASCII bytes, 2-byte text: a lone space goes
    // on its own, and the run (the last space and the 64) back to the blocks, 32 at a time
    // and then its last byte as the prefix of a block.
    let words = [
        "\u{436}\u{3C9} ".repeat(8).as_bytes(),
        &ascii.as_bytes()[..64],
        "\u{436}".repeat(20).as_bytes(),
    ]
    .concat();
    let counts = counted(|| assert!(portable.decode_to_utf16(&words).is_ok()));
    assert_eq!(counts["utf16_ascii_blocks"], 65);
    assert_eq!(counts["utf16_ascii_words"], 0);
}

/// The strict forms' decoders to UTF-16 (CESU-8 and class files) widen ASCII 8 bytes at a
/// time, and only where no sequence or (for class files) raw `00` is in the word.
#[test]
fn the_strict_utf16_decoders_widen_ascii_words() {
    // 21 ASCII bytes, a 2-byte char, 19 more: two whole words before the char, two after it.
    let text = ["abcdefghijklmnopqrstu", "\u{436}", "vwxyz0123456789ABCD"].concat();
    let counts = counted(|| {
        assert!(wirebytes_mutf8::cesu8::decode_to_utf16(text.as_bytes()).is_ok());
    });
    assert_eq!(counts["strict_ascii_words"], 32);
    let counts = counted(|| {
        assert!(wirebytes_mutf8::class_file::decode_to_utf16(text.as_bytes()).is_ok());
    });
    assert_eq!(counts["strict_ascii_words"], 32);
    // A raw 00 is ASCII to CESU-8, so its word is widened whole; a class file rejects it.
    let with_nul = b"abc\0efghijklmnop";
    let counts = counted(|| {
        assert!(wirebytes_mutf8::cesu8::decode_to_utf16(with_nul).is_ok());
    });
    assert_eq!(counts["strict_ascii_words"], 16);
    let counts = counted(|| {
        assert!(wirebytes_mutf8::class_file::decode_to_utf16(with_nul).is_err());
    });
    assert_eq!(counts["strict_ascii_words"], 0);
}

/// The encoders: text that needs no change is taken whole; the scan for what changes passes
/// 32 bytes at a time; the encoders from UTF-16 find one-byte units 8 at a time.
#[test]
fn the_encoders_take_their_fast_paths() {
    let plain = "plain text, no NUL".repeat(6);
    let n = plain.len();
    let counts = counted(|| {
        assert!(matches!(
            wirebytes_mutf8::encode(&plain),
            std::borrow::Cow::Borrowed(_)
        ));
        wirebytes_mutf8::encode_to_vec(&plain, &mut Vec::new());
        #[cfg(feature = "bytes")]
        wirebytes_mutf8::encode_to_buf(&plain, &mut Vec::new());
    });
    let times = if cfg!(feature = "bytes") { 3 } else { 2 };
    assert_eq!(counts["encode_as_is"], times * n);
    assert_eq!(counts["plain_chunks"], 0);

    let mut buf = vec![0; n];
    let counts =
        counted(|| assert_eq!(wirebytes_mutf8::encode_to_slice(&plain, &mut buf), Some(n)));
    assert_eq!(counts["plain_chunks"], n / 32 * 32);
    let with_nul = format!("{plain}\0");
    let counts = counted(|| assert_eq!(wirebytes_mutf8::encode(&with_nul).len(), n + 2));
    assert_eq!(
        (counts["encode_as_is"], counts["plain_chunks"]),
        (0, n / 32 * 32)
    );

    let units: Vec<u16> = plain.encode_utf16().collect();
    let counts = counted(|| assert_eq!(wirebytes_mutf8::encode_from_utf16(&units).len(), n));
    assert_eq!(counts["one_byte_unit_chunks"], n / 8 * 8);
}

/// `detect` asks the CPU once: later calls read the kept answer.
#[cfg(feature = "std")]
#[test]
fn the_cpu_is_asked_once() {
    let body = "\u{436}".repeat(40);
    // The first call of the process may ask the CPU.
    counted(|| {
        let _ = wirebytes_mutf8::decode_to_utf16(body.as_bytes());
    });
    let counts = counted(|| {
        for _ in 0..10 {
            let _ = wirebytes_mutf8::decode_to_utf16(body.as_bytes());
            let _ = wirebytes_mutf8::decode(body.as_bytes());
        }
    });
    assert_eq!(counts["detect_ask"], 0);
}

/// Where the docs promise an exact size, the owned output's capacity is its length.
#[test]
fn exact_size_outputs_are_allocated_exactly() {
    let text = "NUL \0, pair \u{1F600}, \u{436}\u{4E2D} and ascii".repeat(5);
    let bytes = wirebytes_mutf8::encode(&text);
    assert!(matches!(bytes, std::borrow::Cow::Owned(_)));
    let bytes = bytes.into_owned();
    assert_eq!(
        (bytes.len(), bytes.capacity()),
        (wirebytes_mutf8::encoded_len(&text), bytes.len())
    );
    let cesu = wirebytes_mutf8::cesu8::encode(&text).into_owned();
    assert_eq!(cesu.capacity(), wirebytes_mutf8::cesu8::encoded_len(&text));
    let units: Vec<u16> = text.encode_utf16().chain([0xD800, 0x41]).collect();
    let from_units = wirebytes_mutf8::encode_from_utf16(&units);
    assert_eq!(
        from_units.capacity(),
        wirebytes_mutf8::encoded_len_from_utf16(&units)
    );
    assert_eq!(from_units.capacity(), from_units.len());
    let cesu_units = wirebytes_mutf8::cesu8::encode_from_utf16(&units);
    assert_eq!(cesu_units.capacity(), cesu_units.len());
    // `decode_to_string` grows an empty `String` once, by the body's length and one byte of
    // room for the last char's 4-byte store: no second allocation, at every level.
    let body = [&b"\xc0\x80"[..], "\u{4E2D}".repeat(30).as_bytes()].concat();
    for (name, level) in all_levels() {
        let mut dst = String::new();
        assert!(level.decode_to_string(&body, &mut dst).is_ok(), "{name}");
        assert_eq!(dst.len(), body.len() - 1, "{name}");
        assert!(
            dst.capacity() <= body.len() + 1,
            "{name}: {}",
            dst.capacity()
        );
    }
}
