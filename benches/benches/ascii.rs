//! Benches for wirebytes-ascii: the low-8-bit copy against the per-char loop it replaces
//! (`baseline`), a plain memcpy of the same bytes (`limit-memcpy`, for ASCII input), and
//! encoding_rs's `convert_utf16_to_latin1_lossy` (a peer for `&[u16]` input).
//!
//! The 1024-unit texts repeat one sentence. The `copy_low_bytes` group also has the rows
//! `latin1-shuffled`, `cyrillic-shuffled` and `cjk-shuffled`: 64 seeded shuffles of the chars
//! of that text, each with the same chars and length, one per call in turn, so the order of
//! the chars does not repeat within 64 Ki units. A branch predictor learns the pattern of a
//! short sentence, and even of one 1024-char text called again and again, which speeds up a
//! per-char loop that branches on the UTF-8 length of each char; it cannot learn these.
//!
//! Parameters are `<input>/<UTF-16 units>`; throughput is counted in output bytes (one per
//! unit), so GB/s figures compare across `&str` and `&[u16]` input.

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main};
use wirebytes_benches::bench;
use wirebytes_testkit::Rng;
use wirebytes_testkit::text::{repeat_chars, shuffled_chars};

/// The old way: one `char` at a time through `encode_utf16`.
fn baseline_copy(src: &str, dst: &mut [u8]) -> usize {
    let mut n = 0;
    for (d, u) in dst.iter_mut().zip(src.encode_utf16()) {
        *d = u as u8;
        n += 1;
    }
    n
}

/// The old way on UTF-16 input: the same per-unit loop.
fn baseline_copy_utf16(src: &[u16], dst: &mut [u8]) -> usize {
    let mut n = 0;
    for (d, u) in dst.iter_mut().zip(src) {
        *d = *u as u8;
        n += 1;
    }
    n
}

/// The `&str` inputs: name, text.
fn str_inputs() -> Vec<(&'static str, String)> {
    vec![
        ("chunked", "chunked".to_owned()),
        (
            "content-type",
            "Content-Type: application/json; charset=UTF-8\r\n".to_owned(),
        ),
        ("ascii", "x".repeat(1024)),
        (
            "latin1",
            repeat_chars(
                "Grüße aus Köln! Ça va très bien, señor. Æbleskiver, smørrebrød, Þórður. ",
                1024,
            ),
        ),
        (
            "cyrillic",
            repeat_chars(
                "Съешь же ещё этих мягких французских булок, да выпей чаю. Ёлка, щука, юла. ",
                1024,
            ),
        ),
        (
            "cjk",
            repeat_chars(
                "中文字符编码测试，日本語の文字列、한국어 텍스트입니다。",
                1024,
            ),
        ),
        // 512 chars above U+FFFF: 1024 UTF-16 units.
        ("emoji", repeat_chars("😀🎉🚀🌍🔥", 512)),
    ]
}

/// How many shuffles of a text its `-shuffled` row takes in turn, one per call: 64 Ki UTF-16
/// units before the order comes back, more than a branch predictor learns from calls that
/// repeat.
const SHUFFLES: usize = 64;

/// The inputs of `copy_low_bytes`, each as the texts its calls take in turn: those of
/// [`str_inputs`], one text each, and after each text that mixes chars of different UTF-8
/// lengths its `<name>-shuffled` row: [`SHUFFLES`] seeded shuffles of its chars, each with
/// the same chars and length in UTF-16 units.
fn copy_inputs() -> Vec<(String, Vec<String>)> {
    let mut rng = Rng::new(0x5EED_A5C1);
    let mut inputs = Vec::new();
    for (name, text) in str_inputs() {
        let shuffles: Vec<String> = if matches!(name, "latin1" | "cyrillic" | "cjk") {
            (0..SHUFFLES)
                .map(|_| shuffled_chars(&mut rng, &text))
                .collect()
        } else {
            Vec::new()
        };
        inputs.push((name.to_owned(), vec![text]));
        if !shuffles.is_empty() {
            inputs.push((format!("{name}-shuffled"), shuffles));
        }
    }
    inputs
}

/// 1024 UTF-16 units: mostly text, with lone high and low surrogates and units above U+00FF.
fn utf16_soup() -> Vec<u16> {
    let mut rng = Rng::new(0x000A_5C11);
    (0..1024)
        .map(|_| match rng.below(8) {
            0 => 0xD800 + rng.below(0x800) as u16,
            1 => 0x0100 + rng.below(0xFF00) as u16,
            2 => 0x00A0 + rng.below(0x60) as u16,
            _ => 0x0020 + rng.below(0x5F) as u16,
        })
        .collect()
}

fn label(name: &str, units: usize) -> String {
    format!("{name}/{units}")
}

fn copy_low_bytes(c: &mut Criterion) {
    let mut group = c.benchmark_group(COPY_GROUP);
    for (name, texts) in copy_inputs() {
        let units = texts[0].encode_utf16().count();
        let param = label(&name, units);
        group.throughput(Throughput::Bytes(units as u64));
        if let [text] = texts.as_slice() {
            copy_row(
                &mut group,
                &param,
                units,
                text.is_ascii(),
                text.as_str(),
                |s| s,
            );
        } else {
            let mut next = 0;
            copy_row(
                &mut group,
                &param,
                units,
                false,
                texts.as_slice(),
                |texts| {
                    next = if next + 1 == texts.len() { 0 } else { next + 1 };
                    texts[next].as_str()
                },
            );
        }
    }
    group.finish();
}

const COPY_GROUP: &str = "ascii/copy_low_bytes";

/// The columns of one `copy_low_bytes` row: each call copies the text `text` takes from
/// `input` (the input itself, or the next of several).
fn copy_row<I: ?Sized>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    param: &str,
    units: usize,
    ascii: bool,
    input: &I,
    mut text: impl FnMut(&I) -> &str,
) {
    let mut dst = vec![0u8; units];
    bench(group, COPY_GROUP, "baseline", param, input, |i| {
        baseline_copy(text(i), &mut dst)
    });
    if ascii {
        bench(group, COPY_GROUP, "limit-memcpy", param, input, |i| {
            wirebytes_benches::memcpy(text(i).as_bytes(), &mut dst)
        });
    }
    bench(group, COPY_GROUP, "ours", param, input, |i| {
        wirebytes_ascii::copy_low_bytes(text(i), &mut dst)
    });
    // Below the level the CPU runs: without the AVX-512 kernel, as on a CPU with AVX2 and
    // SSSE3 only, and without any kernel, as on a CPU (or target) that lacks them.
    for (column, level) in [("ours-avx2", "avx2"), ("ours-portable", "portable")] {
        let Some(level) = wirebytes_ascii::levels::get(level) else {
            continue;
        };
        bench(group, COPY_GROUP, column, param, input, |i| {
            level.copy_low_bytes(text(i), &mut dst)
        });
    }
}

/// The short inputs: header tokens and values of 1 to 48 chars, ASCII, Latin-1, and ASCII
/// with a few chars above U+00FF.
fn short_inputs() -> Vec<(&'static str, &'static str)> {
    vec![
        ("x", "x"),
        ("chunked", "chunked"),
        ("accept-encoding", "gzip, deflate, br"),
        (
            "user-agent",
            "Mozilla/5.0 (X11; Linux x86_64; rv:109.0) Gecko/",
        ),
        ("gruesse", "Grüße"),
        ("koeln", "Köln, Straße 5"),
        (
            "disposition",
            "attachment; filename=\"Bücher-Übersicht_Mär.pdf\"",
        ),
        ("euro", "price: 5 € (incl. tax)"),
        ("cyrillic", "filename=Отчёт.txt"),
        ("emoji", "ok 👍 done"),
    ]
}

/// Where the short rows put their text and its buffer: the last byte of each this many
/// bytes before the end of a 4 KiB page.
const PAGE_END_GAPS: [usize; 4] = [0, 3, 17, 64];

const PAGE: usize = 4096;

/// A copy of `bytes` placed so that it ends `gap` bytes before the end of a page, in a
/// buffer of its own with every byte written (so no page of it is untouched); returns the
/// buffer and where the copy starts.
fn place(bytes: &[u8], gap: usize) -> (Vec<u8>, usize) {
    let mut buf = vec![0x55u8; bytes.len() + 3 * PAGE];
    let addr = buf.as_ptr() as usize;
    // The first page end at least `bytes.len() + gap` bytes into the buffer.
    let end = (addr + bytes.len() + gap).next_multiple_of(PAGE) - gap - addr;
    let start = end - bytes.len();
    buf[start..end].copy_from_slice(bytes);
    (buf, start)
}

/// `copy_low_bytes` through a call the compiler keeps, as a renderer that is handed a string
/// calls it.
#[inline(never)]
fn short_ours(src: &str, dst: &mut [u8]) -> usize {
    wirebytes_ascii::copy_low_bytes(src, dst)
}

#[inline(never)]
fn short_at_level(level: wirebytes_ascii::levels::Level, src: &str, dst: &mut [u8]) -> usize {
    level.copy_low_bytes(src, dst)
}

#[inline(never)]
fn short_baseline(src: &str, dst: &mut [u8]) -> usize {
    baseline_copy(src, dst)
}

/// Short strings, each with its text and its buffer ending 0, 3, 17 and 64 bytes before the
/// end of a page, every function called through a call that is not inlined: the fixed cost
/// of a header-sized copy. Parameters are `<input>-end<gap>/<UTF-16 units>`.
fn short_strings(c: &mut Criterion) {
    const GROUP: &str = "ascii/short";
    let mut group = c.benchmark_group(GROUP);
    for (name, text) in short_inputs() {
        let units = text.encode_utf16().count();
        group.throughput(Throughput::Bytes(units as u64));
        for gap in PAGE_END_GAPS {
            let param = label(&format!("{name}-end{gap}"), units);
            let (src_buf, src_at) = place(text.as_bytes(), gap);
            let src = std::str::from_utf8(&src_buf[src_at..src_at + text.len()])
                .expect("a copy of a str");
            let (mut dst_buf, dst_at) = place(&vec![0; units], gap);
            let dst = &mut dst_buf[dst_at..dst_at + units];
            bench(&mut group, GROUP, "baseline", &param, src, |s| {
                short_baseline(s, dst)
            });
            bench(&mut group, GROUP, "ours", &param, src, |s| {
                short_ours(s, dst)
            });
            for (column, level) in [
                ("ours-avx2", "avx2"),
                ("ours-ssse3", "ssse3"),
                ("ours-portable", "portable"),
            ] {
                let Some(level) = wirebytes_ascii::levels::get(level) else {
                    continue;
                };
                bench(&mut group, GROUP, column, &param, src, |s| {
                    short_at_level(level, s, dst)
                });
            }
        }
    }
    group.finish();
}

fn copy_low_bytes_from_utf16(c: &mut Criterion) {
    const GROUP: &str = "ascii/copy_low_bytes_from_utf16";
    let mut group = c.benchmark_group(GROUP);
    let mut inputs: Vec<(&str, Vec<u16>)> = str_inputs()
        .into_iter()
        .map(|(name, text)| (name, text.encode_utf16().collect()))
        .collect();
    inputs.push(("surrogates", utf16_soup()));
    for (name, units) in &inputs {
        let param = label(name, units.len());
        let mut dst = vec![0u8; units.len()];
        group.throughput(Throughput::Bytes(units.len() as u64));
        bench(
            &mut group,
            GROUP,
            "baseline",
            &param,
            units.as_slice(),
            |u| baseline_copy_utf16(u, &mut dst),
        );
        bench(
            &mut group,
            GROUP,
            "encoding_rs",
            &param,
            units.as_slice(),
            |u| {
                // Same length as `dst`: the function panics on a shorter destination.
                encoding_rs::mem::convert_utf16_to_latin1_lossy(u, &mut dst);
                u.len()
            },
        );
        bench(&mut group, GROUP, "ours", &param, units.as_slice(), |u| {
            wirebytes_ascii::copy_low_bytes_from_utf16(u, &mut dst)
        });
    }
    group.finish();
}

fn low_bytes(c: &mut Criterion) {
    const GROUP: &str = "ascii/low_bytes";
    let mut group = c.benchmark_group(GROUP);
    for (name, text) in str_inputs() {
        let units = text.encode_utf16().count();
        let param = label(name, units);
        group.throughput(Throughput::Bytes(units as u64));
        // The obvious owned version of the per-char loop: collect, growing as it goes.
        bench(&mut group, GROUP, "baseline", &param, text.as_str(), |s| {
            s.encode_utf16().map(|u| u as u8).collect::<Vec<u8>>()
        });
        if text.is_ascii() {
            bench(
                &mut group,
                GROUP,
                "limit-to_vec",
                &param,
                text.as_str(),
                |s| s.as_bytes().to_vec(),
            );
        }
        bench(&mut group, GROUP, "ours", &param, text.as_str(), |s| {
            wirebytes_ascii::low_bytes(s)
        });
    }
    group.finish();
}

fn low_bytes_from_utf16(c: &mut Criterion) {
    const GROUP: &str = "ascii/low_bytes_from_utf16";
    let mut group = c.benchmark_group(GROUP);
    let inputs: [(&str, Vec<u16>); 2] = [
        ("ascii", "x".repeat(1024).encode_utf16().collect()),
        ("surrogates", utf16_soup()),
    ];
    for (name, units) in &inputs {
        let param = label(name, units.len());
        group.throughput(Throughput::Bytes(units.len() as u64));
        bench(
            &mut group,
            GROUP,
            "baseline",
            &param,
            units.as_slice(),
            |u| u.iter().map(|&u| u as u8).collect::<Vec<u8>>(),
        );
        bench(&mut group, GROUP, "ours", &param, units.as_slice(), |u| {
            wirebytes_ascii::low_bytes_from_utf16(u)
        });
    }
    group.finish();
}

fn low_bytes_len(c: &mut Criterion) {
    const GROUP: &str = "ascii/low_bytes_len";
    let mut group = c.benchmark_group(GROUP);
    for (name, text) in str_inputs() {
        let units = text.encode_utf16().count();
        let param = label(name, units);
        group.throughput(Throughput::Bytes(text.len() as u64));
        bench(&mut group, GROUP, "baseline", &param, text.as_str(), |s| {
            s.encode_utf16().count()
        });
        bench(&mut group, GROUP, "ours", &param, text.as_str(), |s| {
            wirebytes_ascii::low_bytes_len(s)
        });
    }
    group.finish();
}

fn find_line_break(c: &mut Criterion) {
    const GROUP: &str = "ascii/find_line_break";
    let mut group = c.benchmark_group(GROUP);
    let inputs = [
        (
            "content-type",
            b"Content-Type: application/json; charset=UTF-8\r\n".to_vec(),
        ),
        ("ascii", vec![b'x'; 1024]),
    ];
    for (name, rendered) in &inputs {
        let param = label(name, rendered.len());
        group.throughput(Throughput::Bytes(rendered.len() as u64));
        bench(
            &mut group,
            GROUP,
            "baseline",
            &param,
            rendered.as_slice(),
            |r| r.iter().position(|&b| b == b'\r' || b == b'\n'),
        );
        bench(
            &mut group,
            GROUP,
            "ours",
            &param,
            rendered.as_slice(),
            wirebytes_ascii::find_line_break,
        );
    }
    group.finish();
}

/// The header-value inputs: a short ASCII line, 1 KiB of ASCII, and Latin-1 text of both
/// sizes (all valid header values: the functions run to the end).
fn header_inputs() -> Vec<(&'static str, String)> {
    let latin1 = "Grüße aus Köln! Ça va très bien, señor. Æbleskiver, smørrebrød, Þórður. ";
    vec![
        (
            "value",
            "application/json; charset=UTF-8; boundary=xyzzy".to_owned(),
        ),
        ("ascii", "x".repeat(1024)),
        ("latin1", repeat_chars(latin1, 47)),
        ("latin1", repeat_chars(latin1, 1024)),
    ]
}

/// Appending to a buffer that has room already (as a reused header buffer does): the per-char
/// loop pushing into the `Vec` (baseline), zero-fill then copy (the way without
/// `low_bytes_to_vec`), `extend_from_slice` of ASCII text (the limit), and ours.
fn low_bytes_to_vec(c: &mut Criterion) {
    const GROUP: &str = "ascii/low_bytes_to_vec";
    let mut group = c.benchmark_group(GROUP);
    let mut dst: Vec<u8> = Vec::with_capacity(4096);
    let mut inputs = str_inputs();
    for (name, text) in header_inputs() {
        if !inputs.iter().any(|(n, t)| *n == name && *t == text) {
            inputs.push((name, text));
        }
    }
    for (name, text) in inputs {
        let units = text.encode_utf16().count();
        let param = label(name, units);
        group.throughput(Throughput::Bytes(units as u64));
        bench(&mut group, GROUP, "baseline", &param, text.as_str(), |s| {
            dst.clear();
            dst.extend(s.encode_utf16().map(|u| u as u8));
            dst.len()
        });
        bench(&mut group, GROUP, "zero-fill", &param, text.as_str(), |s| {
            dst.clear();
            dst.resize(wirebytes_ascii::low_bytes_len(s), 0);
            wirebytes_ascii::copy_low_bytes(s, &mut dst)
        });
        if text.is_ascii() {
            bench(
                &mut group,
                GROUP,
                "limit-extend",
                &param,
                text.as_str(),
                |s| {
                    dst.clear();
                    dst.extend_from_slice(s.as_bytes());
                    dst.len()
                },
            );
        }
        bench(&mut group, GROUP, "ours", &param, text.as_str(), |s| {
            dst.clear();
            wirebytes_ascii::low_bytes_to_vec(s, &mut dst);
            dst.len()
        });
        if let Some(level) = wirebytes_ascii::levels::get("portable") {
            bench(
                &mut group,
                GROUP,
                "ours-portable",
                &param,
                text.as_str(),
                |s| {
                    dst.clear();
                    level.low_bytes_to_vec(s, &mut dst);
                    dst.len()
                },
            );
        }
    }
    group.finish();
}

/// Writing into a `BytesMut` that has room already: the per-char loop of `put_u8` (baseline),
/// a new vector put with `put_slice` (the way with a scratch copy), `put_slice` of ASCII text
/// (the limit), and ours, straight into the chunk.
fn low_bytes_to_buf(c: &mut Criterion) {
    use bytes::BufMut;
    const GROUP: &str = "ascii/low_bytes_to_buf";
    let mut group = c.benchmark_group(GROUP);
    let mut dst = bytes::BytesMut::with_capacity(4096);
    for (name, text) in str_inputs() {
        let units = text.encode_utf16().count();
        let param = label(name, units);
        group.throughput(Throughput::Bytes(units as u64));
        bench(&mut group, GROUP, "baseline", &param, text.as_str(), |s| {
            dst.clear();
            for unit in s.encode_utf16() {
                dst.put_u8(unit as u8);
            }
            dst.len()
        });
        bench(&mut group, GROUP, "scratch", &param, text.as_str(), |s| {
            dst.clear();
            dst.put_slice(&wirebytes_ascii::low_bytes(s));
            dst.len()
        });
        if text.is_ascii() {
            bench(
                &mut group,
                GROUP,
                "limit-put_slice",
                &param,
                text.as_str(),
                |s| {
                    dst.clear();
                    dst.put_slice(s.as_bytes());
                    dst.len()
                },
            );
        }
        bench(&mut group, GROUP, "ours", &param, text.as_str(), |s| {
            dst.clear();
            wirebytes_ascii::low_bytes_to_buf(s, &mut dst);
            dst.len()
        });
        if let Some(level) = wirebytes_ascii::levels::get("portable") {
            bench(
                &mut group,
                GROUP,
                "ours-portable",
                &param,
                text.as_str(),
                |s| {
                    dst.clear();
                    level.low_bytes_to_buf(s, &mut dst);
                    dst.len()
                },
            );
        }
    }
    group.finish();
}

/// Appending UTF-16 input to a buffer that has room already: the per-unit loop of `push`
/// (baseline) and ours.
fn low_bytes_from_utf16_to_vec(c: &mut Criterion) {
    const GROUP: &str = "ascii/low_bytes_from_utf16_to_vec";
    let mut group = c.benchmark_group(GROUP);
    let mut dst: Vec<u8> = Vec::with_capacity(4096);
    let inputs: [(&str, Vec<u16>); 2] = [
        ("ascii", "x".repeat(1024).encode_utf16().collect()),
        ("surrogates", utf16_soup()),
    ];
    for (name, units) in &inputs {
        let param = label(name, units.len());
        group.throughput(Throughput::Bytes(units.len() as u64));
        bench(
            &mut group,
            GROUP,
            "baseline",
            &param,
            units.as_slice(),
            |u| {
                dst.clear();
                for &unit in u {
                    dst.push(unit as u8);
                }
                dst.len()
            },
        );
        bench(&mut group, GROUP, "ours", &param, units.as_slice(), |u| {
            dst.clear();
            wirebytes_ascii::low_bytes_from_utf16_to_vec(u, &mut dst);
            dst.len()
        });
    }
    group.finish();
}

/// Rendering a header value with the check, against `low_bytes_to_vec` alone (the cost of
/// the check is the ratio), the per-char loop plus a check after (baseline), and the two
/// passes of ours (`low_bytes_to_vec`, then `find_invalid_header_byte`).
fn render_header_value(c: &mut Criterion) {
    const GROUP: &str = "ascii/render_header_value";
    let mut group = c.benchmark_group(GROUP);
    let mut dst: Vec<u8> = Vec::with_capacity(4096);
    for (name, text) in header_inputs() {
        let units = text.encode_utf16().count();
        let param = label(name, units);
        group.throughput(Throughput::Bytes(units as u64));
        bench(&mut group, GROUP, "baseline", &param, text.as_str(), |s| {
            dst.clear();
            dst.extend(s.encode_utf16().map(|u| u as u8));
            dst.iter()
                .position(|&b| (b < 0x20 && b != b'\t') || b == 0x7F)
                .is_none()
        });
        bench(&mut group, GROUP, "two-pass", &param, text.as_str(), |s| {
            dst.clear();
            wirebytes_ascii::low_bytes_to_vec(s, &mut dst);
            wirebytes_ascii::find_invalid_header_byte(&dst).is_none()
        });
        bench(
            &mut group,
            GROUP,
            "extend-only",
            &param,
            text.as_str(),
            |s| {
                dst.clear();
                wirebytes_ascii::low_bytes_to_vec(s, &mut dst);
                true
            },
        );
        bench(&mut group, GROUP, "ours", &param, text.as_str(), |s| {
            dst.clear();
            wirebytes_ascii::render_header_value(s, &mut dst).is_ok()
        });
        if let Some(level) = wirebytes_ascii::levels::get("portable") {
            bench(
                &mut group,
                GROUP,
                "extend-only-portable",
                &param,
                text.as_str(),
                |s| {
                    dst.clear();
                    level.low_bytes_to_vec(s, &mut dst);
                    true
                },
            );
            bench(
                &mut group,
                GROUP,
                "ours-portable",
                &param,
                text.as_str(),
                |s| {
                    dst.clear();
                    level.render_header_value(s, &mut dst).is_ok()
                },
            );
        }
    }
    group.finish();
}

/// A response head of typical headers: (status code, reason, headers).
type Head = (u16, &'static str, Vec<(&'static str, String)>);

/// Two heads: eight ASCII headers, and the same with Latin-1 values.
fn heads() -> Vec<(&'static str, Head)> {
    let ascii: Vec<(&'static str, String)> = vec![
        ("Content-Type", "text/html; charset=ISO-8859-1".to_owned()),
        ("Content-Length", "48213".to_owned()),
        ("Date", "Sat, 05 Dec 2026 17:03:26 GMT".to_owned()),
        ("Server", "wirebytes-bench/0.1".to_owned()),
        ("Cache-Control", "private, max-age=0, no-cache".to_owned()),
        (
            "X-Request-Id",
            "0f8c1e2a-7d4b-4c6e-9a31-5b2f8d7e6c40".to_owned(),
        ),
        (
            "Set-Cookie",
            "session=4f2a9c; Path=/; HttpOnly; Secure".to_owned(),
        ),
        ("Vary", "Accept-Encoding".to_owned()),
    ];
    let mut latin1 = ascii.clone();
    latin1.push(("X-Author", "Fran\u{E7}ois M\u{FC}ller".to_owned()));
    latin1.push((
        "X-Title",
        "Gr\u{FC}\u{DF}e aus K\u{F6}ln, se\u{F1}or".to_owned(),
    ));
    vec![
        ("ascii", (200, "OK", ascii)),
        ("latin1", (200, "OK", latin1)),
    ]
}

/// A status line and its headers the plain way: each name's bytes checked against the token
/// rule, each value's units truncated and pushed one at a time, then checked.
fn baseline_head(head: &Head, dst: &mut Vec<u8>) -> bool {
    let token = |b: u8| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b);
    let clean = |b: u8| !((b < 0x20 && b != b'\t') || b == 0x7F);
    let (code, reason, headers) = head;
    let start = dst.len();
    dst.extend_from_slice(format!("HTTP/1.1 {code} ").as_bytes());
    dst.extend(reason.encode_utf16().map(|u| u as u8));
    if !dst[start..].iter().all(|&b| clean(b)) {
        return false;
    }
    dst.extend_from_slice(b"\r\n");
    for (name, value) in headers {
        if name.is_empty() || !name.bytes().all(token) {
            return false;
        }
        dst.extend_from_slice(name.as_bytes());
        dst.extend_from_slice(b": ");
        let at = dst.len();
        dst.extend(value.encode_utf16().map(|u| u as u8));
        if !dst[at..].iter().all(|&b| clean(b)) {
            return false;
        }
        dst.extend_from_slice(b"\r\n");
    }
    true
}

/// A response head (status line and headers) rendered into a reused buffer: the plain way
/// (baseline) against `render_status_line` and `render_header`.
fn render_header(c: &mut Criterion) {
    const GROUP: &str = "ascii/render_header";
    let mut group = c.benchmark_group(GROUP);
    let mut dst: Vec<u8> = Vec::with_capacity(4096);
    for (name, head) in heads() {
        let mut expected = Vec::new();
        assert!(baseline_head(&head, &mut expected));
        let param = format!("{name}-head/{}", expected.len());
        group.throughput(Throughput::Bytes(expected.len() as u64));
        bench(&mut group, GROUP, "baseline", &param, &head, |head| {
            dst.clear();
            baseline_head(head, &mut dst)
        });
        bench(
            &mut group,
            GROUP,
            "ours",
            &param,
            &head,
            |(code, reason, headers)| {
                dst.clear();
                let mut ok = wirebytes_ascii::render_status_line(*code, reason, &mut dst).is_ok();
                for (name, value) in headers {
                    ok &= wirebytes_ascii::render_header(name, value, &mut dst).is_ok();
                }
                ok
            },
        );
        let mut ours = Vec::new();
        let (code, reason, headers) = &head;
        wirebytes_ascii::render_status_line(*code, reason, &mut ours).unwrap();
        for (name, value) in headers {
            wirebytes_ascii::render_header(name, value, &mut ours).unwrap();
        }
        assert_eq!(ours, expected);
    }
    group.finish();
}

/// An `http::HeaderValue` from text: `HeaderValue::from_bytes` of the rendered bytes (it
/// checks them and copies them), rendering with the check and then
/// `HeaderValue::from_maybe_shared` (checked twice, no copy), and `header_value` (checked
/// once).
fn header_value(c: &mut Criterion) {
    const GROUP: &str = "ascii/header_value";
    let mut group = c.benchmark_group(GROUP);
    for (name, text) in header_inputs() {
        let units = text.encode_utf16().count();
        let param = label(name, units);
        group.throughput(Throughput::Bytes(units as u64));
        bench(&mut group, GROUP, "baseline", &param, text.as_str(), |s| {
            http::HeaderValue::from_bytes(&wirebytes_ascii::low_bytes(s)).is_ok()
        });
        bench(
            &mut group,
            GROUP,
            "checked-twice",
            &param,
            text.as_str(),
            |s| {
                let mut rendered = Vec::new();
                wirebytes_ascii::render_header_value(s, &mut rendered).is_ok()
                    && http::HeaderValue::from_maybe_shared(bytes::Bytes::from(rendered)).is_ok()
            },
        );
        bench(&mut group, GROUP, "ours", &param, text.as_str(), |s| {
            wirebytes_ascii::header_value(s).is_ok()
        });
    }
    group.finish();
}

criterion_group!(
    group,
    render_header,
    header_value,
    low_bytes_to_vec,
    low_bytes_to_buf,
    render_header_value,
    copy_low_bytes,
    short_strings,
    copy_low_bytes_from_utf16,
    low_bytes,
    low_bytes_from_utf16,
    low_bytes_from_utf16_to_vec,
    low_bytes_len,
    find_line_break
);
criterion_main!(group);
