//! The class-file corpus of the mutf8 benches, decoded a few times by one function at one
//! kernel level: a steady workload for an instruction counter.
//!
//! `cargo run --release --example mutf8_corpus -- <function> [level] [rounds] [count]`, with
//! `<function>` one of `decode`, `decode_to_string`, `decode+push_str`, `decode_to_utf16`,
//! `decode_to_utf16_vec`, `validate`, and `level` a name from `wirebytes_mutf8::levels`
//! (default, or `public`: the public functions, at the level this CPU has). The corpus is the file
//! `WIREBYTES_CLASS_FILE_CORPUS` names, else `target/jdk-constant-utf8.bin`.

use std::hint::black_box;

use wirebytes_mutf8::levels;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let function = args.first().map_or("decode", String::as_str);
    let level = args
        .get(1)
        .filter(|l| *l != "public")
        .map(|name| levels::get(name).unwrap_or_else(|| panic!("no level {name} on this CPU")));
    let rounds: usize = args
        .get(2)
        .map_or(1, |r| r.parse().expect("a number of rounds"));
    let path = std::env::var_os("WIREBYTES_CLASS_FILE_CORPUS").map_or_else(
        || std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/jdk-constant-utf8.bin"),
        std::path::PathBuf::from,
    );
    let records = std::fs::read(&path).expect("the corpus file");
    let mut entries = Vec::new();
    let mut rest = records.as_slice();
    while let Some((len, tail)) = rest.split_first_chunk::<2>() {
        let len = usize::from(u16::from_be_bytes(*len));
        let Some(body) = tail.get(..len) else { break };
        entries.push(body);
        rest = &tail[len..];
    }
    // `[count]`: only the first entries (as the `decode_to_string` group's class-file input).
    if let Some(count) = args.get(3) {
        entries.truncate(count.parse().expect("a number of entries"));
    }
    let mut text = String::new();
    let mut chars = Vec::new();
    // One loop per function, chosen once: nothing but the call and its use in the loop.
    let total: usize = (0..rounds)
        .map(|_| match (function, level) {
            ("none", _) => each(&entries, <[u8]>::len),
            ("decode", None) => each(&entries, |e| {
                wirebytes_mutf8::decode(e).map_or(0, |t| black_box(&*t).len())
            }),
            ("decode", Some(l)) => each(&entries, |e| {
                l.decode(e).map_or(0, |t| black_box(&*t).len())
            }),
            ("decode_to_string", None) => each(&entries, |e| {
                text.clear();
                let _ = wirebytes_mutf8::decode_to_string(e, &mut text);
                black_box(text.as_str()).len()
            }),
            ("decode_to_string", Some(l)) => each(&entries, |e| {
                text.clear();
                let _ = l.decode_to_string(e, &mut text);
                black_box(text.as_str()).len()
            }),
            ("decode+push_str", None) => each(&entries, |e| {
                text.clear();
                if let Ok(t) = wirebytes_mutf8::decode(e) {
                    text.push_str(&t);
                }
                black_box(text.as_str()).len()
            }),
            ("decode+push_str", Some(l)) => each(&entries, |e| {
                text.clear();
                if let Ok(t) = l.decode(e) {
                    text.push_str(&t);
                }
                black_box(text.as_str()).len()
            }),
            ("decode_to_utf16", None) => each(&entries, |e| {
                wirebytes_mutf8::decode_to_utf16(e).map_or(0, |t| black_box(&*t).len())
            }),
            ("decode_to_utf16", Some(l)) => each(&entries, |e| {
                l.decode_to_utf16(e).map_or(0, |t| black_box(&*t).len())
            }),
            ("decode_to_utf16_vec", None) => each(&entries, |e| {
                chars.clear();
                let _ = wirebytes_mutf8::decode_to_utf16_vec(e, &mut chars);
                black_box(chars.as_slice()).len()
            }),
            ("decode_to_utf16_vec", Some(l)) => each(&entries, |e| {
                chars.clear();
                let _ = l.decode_to_utf16_vec(e, &mut chars);
                black_box(chars.as_slice()).len()
            }),
            ("validate", None) => each(&entries, |e| {
                usize::from(wirebytes_mutf8::validate(e).is_ok())
            }),
            ("validate", Some(l)) => each(&entries, |e| usize::from(l.validate(e).is_ok())),
            (other, _) => panic!("no function {other}"),
        })
        .sum();
    println!("{function}: {} entries, {total}", entries.len());
}

/// The sum of `f` over `entries`, each behind `black_box`.
fn each(entries: &[&[u8]], mut f: impl FnMut(&[u8]) -> usize) -> usize {
    entries.iter().map(|&e| f(black_box(e))).sum()
}
