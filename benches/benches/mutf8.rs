//! Benches for wirebytes-mutf8: decoding and encoding Java's modified UTF-8 against the JDK's
//! loops transcribed (`baseline`: `readUTF`'s loop then `new String(chars)`, `writeUTF`'s
//! loop over the UTF-16 chars), the peer crates simd_cesu8 (`decode`, which borrows any valid
//! UTF-8 even where the JDK rejects it; `decode_strict`; `encode`) and cesu8
//! (`from_java_cesu8` / `to_java_cesu8`), and simdutf8 validating the same bytes (the
//! practical bound for input that is borrowed).
//!
//! `ours` is the public function (the kernels this CPU has); `ours-to_slice`, `ours-to_vec`
//! and `ours-to_buf` the encoder into the caller's reused buffers; `ours-<level>` the same
//! function at a lower kernel level through `wirebytes_mutf8::levels` (`ours-portable`: no
//! kernels, as on CPUs without them; `ours-ssse3`, `ours-avx2` as on CPUs without AVX-512),
//! for the levels this CPU has.
//!
//! Parameters are `<input>/<bytes of modified UTF-8>`; throughput counts those bytes. The
//! functions that may borrow return a `Cow` that the harness cannot keep (it borrows the
//! input), so they report its length: an owned result shows as transient bytes. The slice
//! the `Cow` derefs to goes through `black_box` (for every function alike), not the `Cow`
//! itself: a 16-byte reload of a `Cow` just stored in two halves stalls store forwarding,
//! which alone cost more than decoding 16 bytes of ASCII.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use wirebytes_benches::bench;
use wirebytes_mutf8::{levels, reference};
use wirebytes_testkit::Rng;
use wirebytes_testkit::text::repeat_chars;

/// The old way to decode: the JDK's `readUTF` loop, then the chars into a `String`.
fn baseline_decode(bytes: &[u8]) -> Option<String> {
    String::from_utf16(&reference::decode_to_utf16(bytes).ok()?).ok()
}

/// `text` cut to at most `len` bytes, at a char boundary.
fn cut(mut text: String, len: usize) -> String {
    let mut at = len.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    text.truncate(at);
    text
}

/// 92% ASCII, 4% 2-byte and 4% 3-byte chars, at random.
fn mixed(len: usize) -> String {
    let mut rng = Rng::new(0x6d_6978_6564);
    let mut text = String::with_capacity(len + 4);
    while text.len() < len {
        let c = match rng.below(100) {
            0..=3 => char::from_u32(0xA0 + rng.below(0x700) as u32).expect("2-byte char"),
            4..=7 => char::from_u32(0x3000 + rng.below(0x6000) as u32).expect("3-byte char"),
            _ => char::from(b' ' + rng.below(95) as u8),
        };
        text.push(c);
    }
    cut(text, len)
}

/// Mostly ASCII text with a NUL or a char above U+FFFF (in turn) every 40 chars or so: what
/// must be transcoded both ways.
fn nul_supplementary(len: usize) -> String {
    let mut rng = Rng::new(0x6e75_6c73_7570);
    let mut text = String::with_capacity(len + 4);
    let mut nul = true;
    while text.len() < len {
        if rng.one_in(40) {
            text.push(if nul { '\0' } else { '\u{1F600}' });
            nul = !nul;
        } else {
            text.push(char::from(b' ' + rng.below(95) as u8));
        }
    }
    text
}

const ASCII: &str = "The quick brown fox jumps over the lazy dog; 0123456789. ";
const CYRILLIC: &str = "Съешь же ещё этих мягких французских булок, да выпей чаю. ";
const CJK: &str = "中文字符编码测试，日本語の文字列と漢字、東京都の天気予報。";

/// The decode inputs: name, modified UTF-8 bytes.
fn decode_inputs() -> Vec<(&'static str, Vec<u8>)> {
    let text = |unit: &str, len: usize| cut(repeat_chars(unit, len), len).into_bytes();
    vec![
        ("ascii", text(ASCII, 16)),
        ("ascii", text(ASCII, 2048)),
        ("ascii", text(ASCII, 65536)),
        ("mixed", mixed(65536).into_bytes()),
        ("cyrillic", text(CYRILLIC, 65536)),
        ("cjk", text(CJK, 65536)),
        (
            "nul-supplementary",
            wirebytes_mutf8::encode(&nul_supplementary(65536)).into_owned(),
        ),
    ]
}

fn decode(c: &mut Criterion) {
    const GROUP: &str = "mutf8/decode";
    let mut group = c.benchmark_group(GROUP);
    for (name, bytes) in decode_inputs() {
        let param = format!("{name}/{}", bytes.len());
        let valid_utf8 = std::str::from_utf8(&bytes).is_ok();
        let big = bytes.len() > 4096;
        let f = bytes.as_slice();
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        if bytes.len() != 2048 {
            bench(&mut group, GROUP, "baseline", &param, f, baseline_decode);
        }
        bench(&mut group, GROUP, "ours", &param, f, |b| {
            wirebytes_mutf8::decode(b)
                .map(|t| black_box(&*t).len())
                .ok()
        });
        if let Some(portable) = levels::get("portable").filter(|_| bytes.len() > 16) {
            bench(&mut group, GROUP, "ours-portable", &param, f, |b| {
                portable.decode(b).map(|t| black_box(&*t).len()).ok()
            });
        }
        if !matches!(name, "cjk" | "mixed") {
            bench(&mut group, GROUP, "simd_cesu8-strict", &param, f, |b| {
                simd_cesu8::mutf8::decode_strict(b)
                    .map(|t| black_box(&*t).len())
                    .ok()
            });
        }
        if !big || !valid_utf8 {
            bench(&mut group, GROUP, "simd_cesu8", &param, f, |b| {
                simd_cesu8::mutf8::decode(b)
                    .map(|t| black_box(&*t).len())
                    .ok()
            });
        }
        if !valid_utf8 {
            bench(&mut group, GROUP, "cesu8", &param, f, |b| {
                cesu8::from_java_cesu8(b).map(|t| black_box(&*t).len()).ok()
            });
        } else if bytes.len() != 2048 || name == "ascii" {
            bench(&mut group, GROUP, "limit-simdutf8", &param, f, |b| {
                simdutf8::basic::from_utf8(b).ok().map(str::len)
            });
        }
    }
    group.finish();
}

fn decode_to_utf16(c: &mut Criterion) {
    const GROUP: &str = "mutf8/decode_to_utf16";
    let mut group = c.benchmark_group(GROUP);
    for (name, bytes) in decode_inputs() {
        if !matches!(name, "ascii" | "cyrillic" | "nul-supplementary") || bytes.len() < 65536 {
            continue;
        }
        let param = format!("{name}/{}", bytes.len());
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        bench(
            &mut group,
            GROUP,
            "baseline",
            &param,
            bytes.as_slice(),
            |b| reference::decode_to_utf16(b).ok(),
        );
        bench(&mut group, GROUP, "ours", &param, bytes.as_slice(), |b| {
            wirebytes_mutf8::decode_to_utf16(b).ok()
        });
        // Every level below the one `ours` uses.
        let below: Vec<_> = levels::all().collect();
        for level in &below[..below.len() - 1] {
            let function = format!("ours-{}", level.name());
            bench(
                &mut group,
                GROUP,
                &function,
                &param,
                bytes.as_slice(),
                |b| level.decode_to_utf16(b).ok(),
            );
        }
    }
    group.finish();
}

fn encode(c: &mut Criterion) {
    const GROUP: &str = "mutf8/encode";
    let mut group = c.benchmark_group(GROUP);
    let inputs = [
        ("ascii", cut(repeat_chars(ASCII, 65536), 65536)),
        ("nul-supplementary", nul_supplementary(65536)),
    ];
    for (name, text) in &inputs {
        let param = format!("{name}/{}", text.len());
        group.throughput(Throughput::Bytes(text.len() as u64));
        bench(&mut group, GROUP, "baseline", &param, text.as_str(), |t| {
            reference::encode(t)
        });
        bench(&mut group, GROUP, "ours", &param, text.as_str(), |t| {
            black_box(&*wirebytes_mutf8::encode(t)).len()
        });
        bench(
            &mut group,
            GROUP,
            "simd_cesu8",
            &param,
            text.as_str(),
            |t| black_box(&*simd_cesu8::mutf8::encode(t)).len(),
        );
        // Into the caller's buffers, reused: a slice of the bound's length, a `Vec`, a
        // `BytesMut`.
        let mut slice = vec![0u8; wirebytes_mutf8::max_encoded_len(text.len())];
        bench(
            &mut group,
            GROUP,
            "ours-to_slice",
            &param,
            text.as_str(),
            |t| wirebytes_mutf8::encode_to_slice(t, &mut slice),
        );
        let mut vec = Vec::with_capacity(wirebytes_mutf8::max_encoded_len(text.len()));
        bench(
            &mut group,
            GROUP,
            "ours-to_vec",
            &param,
            text.as_str(),
            |t| {
                vec.clear();
                wirebytes_mutf8::encode_to_vec(t, &mut vec);
                black_box(vec.as_slice()).len()
            },
        );
        let mut buf = bytes::BytesMut::with_capacity(wirebytes_mutf8::max_encoded_len(text.len()));
        bench(
            &mut group,
            GROUP,
            "ours-to_buf",
            &param,
            text.as_str(),
            |t| {
                buf.clear();
                wirebytes_mutf8::encode_to_buf(t, &mut buf);
                black_box(&buf[..]).len()
            },
        );
    }
    group.finish();
}

/// The class-file corpus: every `CONSTANT_Utf8` entry of the running JDK's classes, as
/// `cargo xtask bench` dumps them (readUTF records, in the file `WIREBYTES_CLASS_FILE_CORPUS`
/// names, else `target/jdk-constant-utf8.bin`); without that file, a generated corpus of
/// 2,751,320 entries with their length distribution. Returns its name and the entries, which
/// lie one after the other in one buffer (as in the class files), not each in its own
/// allocation.
fn class_file_corpus() -> (&'static str, Vec<&'static [u8]>) {
    let path = std::env::var_os("WIREBYTES_CLASS_FILE_CORPUS").map_or_else(
        || std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/jdk-constant-utf8.bin"),
        std::path::PathBuf::from,
    );
    let (name, records) = match std::fs::read(&path) {
        Ok(records) if !records.is_empty() => ("jdk-constant-utf8", records),
        _ => {
            let mut rng = Rng::new(0x6a64_6b5f_7574_6638);
            let mut records = Vec::new();
            for body in wirebytes_testkit::mutf8::class_file_like(&mut rng, 2_751_320) {
                records.extend((body.len() as u16).to_be_bytes());
                records.extend_from_slice(&body);
            }
            ("generated-constant-utf8", records)
        }
    };
    let mut entries = Vec::new();
    let mut rest: &'static [u8] = records.leak();
    while let Some((len, tail)) = rest.split_first_chunk::<2>() {
        let len = usize::from(u16::from_be_bytes(*len));
        let Some(body) = tail.get(..len) else { break };
        entries.push(body);
        rest = &tail[len..];
    }
    (name, entries)
}

/// `entries` one after the other in one buffer, as they lie in a class file or a stream.
fn contiguous(entries: Vec<Vec<u8>>) -> Vec<&'static [u8]> {
    let all: &'static [u8] = entries.concat().leak();
    let mut rest = all;
    entries
        .iter()
        .map(|e| {
            let (head, tail) = rest.split_at(e.len());
            rest = tail;
            head
        })
        .collect()
}

/// Many short strings, as a class-file reader decodes them: each function runs over the
/// whole corpus and returns the total length of what it decoded (entries it rejects count
/// nothing). `ours-take_utf` reads the entries as records out of one slice.
/// `ours-decode_to_string` reuses one `String`, and `ours-decode+push_str` is the same done
/// with `decode`; `ours-decode_to_utf16_vec` reuses one `Vec<u16>`; `limit-vec-alloc` is the
/// allocation of a `Vec<u16>` per entry, which `decode_to_utf16` cannot avoid;
/// `std-from_utf8` is the check that a UTF-8 reader would make.
fn class_file(c: &mut Criterion) {
    const GROUP: &str = "mutf8/class-file";
    let mut group = c.benchmark_group(GROUP);
    let (name, entries) = class_file_corpus();
    let total: usize = entries.iter().map(|e| e.len()).sum();
    let param = format!("{name}/{total}");
    let corpus = entries.as_slice();
    group.throughput(Throughput::Bytes(total as u64));
    group.sample_size(10);
    bench(&mut group, GROUP, "baseline", &param, corpus, |es| {
        es.iter()
            .filter_map(|e| baseline_decode(e))
            .map(|t| t.len())
            .sum::<usize>()
    });
    bench(&mut group, GROUP, "ours", &param, corpus, |es| {
        es.iter()
            .filter_map(|e| wirebytes_mutf8::decode(e).ok())
            .map(|t| black_box(&*t).len())
            .sum::<usize>()
    });
    bench(
        &mut group,
        GROUP,
        "ours-decode_to_utf16",
        &param,
        corpus,
        |es| {
            es.iter()
                .filter_map(|e| wirebytes_mutf8::decode_to_utf16(e).ok())
                .map(|t| black_box(&*t).len())
                .sum::<usize>()
        },
    );
    bench(
        &mut group,
        GROUP,
        "ours-decode_to_utf16_vec",
        &param,
        corpus,
        |es| {
            let mut dst = Vec::new();
            es.iter()
                .map(|e| {
                    dst.clear();
                    let _ = wirebytes_mutf8::decode_to_utf16_vec(e, &mut dst);
                    black_box(dst.as_slice()).len()
                })
                .sum::<usize>()
        },
    );
    // What `decode_to_utf16` cannot avoid: one `Vec<u16>` per entry (none for an empty one).
    bench(&mut group, GROUP, "limit-vec-alloc", &param, corpus, |es| {
        es.iter()
            .map(|e| black_box(Vec::<u16>::with_capacity(e.len())).capacity())
            .sum::<usize>()
    });
    bench(&mut group, GROUP, "ours-validate", &param, corpus, |es| {
        es.iter()
            .filter(|e| wirebytes_mutf8::validate(e).is_ok())
            .count()
    });
    bench(
        &mut group,
        GROUP,
        "ours-decode_to_string",
        &param,
        corpus,
        |es| {
            let mut dst = String::new();
            es.iter()
                .map(|e| {
                    dst.clear();
                    let _ = wirebytes_mutf8::decode_to_string(e, &mut dst);
                    black_box(dst.as_str()).len()
                })
                .sum::<usize>()
        },
    );
    bench(
        &mut group,
        GROUP,
        "ours-decode+push_str",
        &param,
        corpus,
        |es| {
            let mut dst = String::new();
            es.iter()
                .map(|e| {
                    dst.clear();
                    if let Ok(text) = wirebytes_mutf8::decode(e) {
                        dst.push_str(&text);
                    }
                    black_box(dst.as_str()).len()
                })
                .sum::<usize>()
        },
    );
    // The entries as the records they were read from, one after the other: `take_utf`
    // parses them out of the slice, borrowing what it can.
    let mut records = Vec::with_capacity(total + 2 * entries.len());
    for e in &entries {
        records.extend((e.len() as u16).to_be_bytes());
        records.extend_from_slice(e);
    }
    bench(
        &mut group,
        GROUP,
        "ours-take_utf",
        &param,
        records.as_slice(),
        |mut rest| {
            let mut total = 0;
            while !rest.is_empty() {
                match wirebytes_mutf8::take_utf(&mut rest) {
                    Ok(text) => total += black_box(&*text).len(),
                    Err(_) => {
                        // Skip a record the JDK rejects: its length field and body.
                        let len = usize::from(u16::from_be_bytes([rest[0], rest[1]]));
                        rest = &rest[2 + len..];
                    }
                }
            }
            total
        },
    );
    bench(&mut group, GROUP, "ours-class_file", &param, corpus, |es| {
        es.iter()
            .filter_map(|e| wirebytes_mutf8::decode_class_file(e).ok())
            .map(|t| black_box(&*t).len())
            .sum::<usize>()
    });
    bench(&mut group, GROUP, "simd_cesu8", &param, corpus, |es| {
        es.iter()
            .filter_map(|e| simd_cesu8::mutf8::decode(e).ok())
            .map(|t| black_box(&*t).len())
            .sum::<usize>()
    });
    bench(&mut group, GROUP, "std-from_utf8", &param, corpus, |es| {
        es.iter()
            .filter_map(|e| std::str::from_utf8(e).ok())
            .map(|t| black_box(t).len())
            .sum::<usize>()
    });
    group.finish();
}

/// Short strings that must be rewritten (each holds `C0 80` or a surrogate pair), decoded
/// one after the other into one reused `String`: `decode_to_string` against `decode` then
/// `push_str` (the baseline).
fn decode_to_string(c: &mut Criterion) {
    const GROUP: &str = "mutf8/decode_to_string";
    let mut group = c.benchmark_group(GROUP);
    let mut rng = Rng::new(0x696e_746f);
    let mut inputs: Vec<(&str, Vec<&'static [u8]>)> = Vec::new();
    for (name, odd) in [("short-nul", "\0"), ("short-supplementary", "\u{1F600}")] {
        let entries = (0..10_000)
            .map(|_| {
                // 4 to 40 chars, one in ten 2- or 3-byte, and the odd one somewhere.
                let len = 4 + rng.below(36);
                let odd_at = rng.below(len);
                let mut text = String::new();
                for k in 0..len {
                    if k == odd_at {
                        text.push_str(odd);
                    }
                    let c = match rng.below(20) {
                        0 => char::from_u32(0xA0 + rng.below(0x700) as u32).expect("2-byte char"),
                        1 => {
                            char::from_u32(0x3000 + rng.below(0x6000) as u32).expect("3-byte char")
                        }
                        _ => char::from(b' ' + rng.below(95) as u8),
                    };
                    text.push(c);
                }
                wirebytes_mutf8::encode(&text).into_owned()
            })
            .collect();
        inputs.push((name, contiguous(entries)));
    }
    let (_, class) = class_file_corpus();
    inputs.push(("class-file-first-10000", class[..10_000].to_vec()));
    for (name, entries) in &inputs {
        let total: usize = entries.iter().map(|e| e.len()).sum();
        let param = format!("{name}/{total}");
        group.throughput(Throughput::Bytes(total as u64));
        let corpus = entries.as_slice();
        bench(&mut group, GROUP, "baseline", &param, corpus, |es| {
            let mut dst = String::with_capacity(64);
            es.iter()
                .map(|e| {
                    dst.clear();
                    if let Ok(text) = wirebytes_mutf8::decode(e) {
                        dst.push_str(&text);
                    }
                    black_box(dst.as_str()).len()
                })
                .sum::<usize>()
        });
        bench(&mut group, GROUP, "ours", &param, corpus, |es| {
            let mut dst = String::with_capacity(64);
            es.iter()
                .map(|e| {
                    dst.clear();
                    let _ = wirebytes_mutf8::decode_to_string(e, &mut dst);
                    black_box(dst.as_str()).len()
                })
                .sum::<usize>()
        });
        // Every level below the one `ours` uses.
        let below: Vec<_> = levels::all().collect();
        for level in &below[..below.len() - 1] {
            let function = format!("ours-{}", level.name());
            bench(&mut group, GROUP, &function, &param, corpus, |es| {
                let mut dst = String::with_capacity(64);
                es.iter()
                    .map(|e| {
                        dst.clear();
                        let _ = level.decode_to_string(e, &mut dst);
                        black_box(dst.as_str()).len()
                    })
                    .sum::<usize>()
            });
        }
    }
    group.finish();
}

/// `validate` against `simdutf8` (UTF-8 validation, the bound for input that is plain text)
/// and the JDK's loop (`baseline`).
fn validate(c: &mut Criterion) {
    const GROUP: &str = "mutf8/validate";
    let mut group = c.benchmark_group(GROUP);
    for (name, bytes) in decode_inputs() {
        if bytes.len() < 65536 {
            continue;
        }
        let param = format!("{name}/{}", bytes.len());
        let f = bytes.as_slice();
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        bench(&mut group, GROUP, "baseline", &param, f, |b| {
            reference::decode_to_utf16(b).is_ok()
        });
        bench(&mut group, GROUP, "ours", &param, f, |b| {
            wirebytes_mutf8::validate(b).is_ok()
        });
        if std::str::from_utf8(&bytes).is_ok() {
            bench(&mut group, GROUP, "limit-simdutf8", &param, f, |b| {
                simdutf8::basic::from_utf8(b).is_ok()
            });
        }
    }
    group.finish();
}

criterion_group!(
    group,
    decode,
    decode_to_utf16,
    encode,
    class_file,
    decode_to_string,
    validate
);
criterion_main!(group);
