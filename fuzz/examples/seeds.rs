//! Writes the seed corpus, `corpus/<target>/`, from the adversarial inputs of the sweeps
//! (`wirebytes_testkit`): `cargo run --example seeds` in `fuzz/`. Deterministic: a second run
//! writes the same files.
//!
//! Each target's input is a few fixed fields and then the payload (see `src/lib.rs`), so a
//! seed is a header of those fields' bytes followed by one input's bytes.

use std::fs;
use std::path::Path;

use wirebytes_testkit::text::{EDGE_CHARS, KINDS, SCRIPTS, random_text, random_units};
use wirebytes_testkit::{Rng, mutf8};

/// The texts of the `&str` targets: each script, the edge chars, each kind of char at the
/// edges of 16-, 32- and 64-byte blocks of ASCII, long runs, random text.
fn texts(rng: &mut Rng) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = SCRIPTS.iter().map(|(_, t)| t.as_bytes().to_vec()).collect();
    out.push(EDGE_CHARS.iter().collect::<String>().into_bytes());
    out.push(KINDS.concat().repeat(9).into_bytes());
    for kind in KINDS {
        for at in [13, 15, 31, 61, 62, 63] {
            let mut text = "a".repeat(at);
            text.push_str(kind);
            text.push_str(&"b".repeat(80 - at));
            out.push(text.into_bytes());
        }
    }
    out.push("\r\n\t\x7F\0 header: value".repeat(5).into_bytes());
    for _ in 0..12 {
        out.push(random_text(rng, 12).into_bytes());
    }
    out
}

/// The UTF-16 units of the targets that take them, two bytes each (little-endian).
fn units_bytes(rng: &mut Rng) -> Vec<Vec<u8>> {
    (0..8)
        .map(|i| {
            random_units(rng, 20 + 40 * i)
                .iter()
                .flat_map(|u| u.to_le_bytes())
                .collect()
        })
        .collect()
}

/// Modified UTF-8 bodies: the long ones, each accepted and rejected piece at every offset
/// 56..=63 of a 64-byte block, and random bodies.
fn bodies(rng: &mut Rng) -> Vec<Vec<u8>> {
    let mut out = mutf8::long_bodies();
    let pieces: Vec<&[u8]> = mutf8::ACCEPTED
        .iter()
        .chain(mutf8::REJECTED)
        .chain(mutf8::IRREGULAR)
        .copied()
        .collect();
    for (i, piece) in pieces.iter().enumerate() {
        let at = 56 + i % 8;
        let mut body = b"x".repeat(at);
        body.extend_from_slice(piece);
        body.extend_from_slice(&b"y".repeat(70));
        out.push(body);
    }
    out.push(b"\xed\xa0\xbd\xed\xb8\x80".repeat(20));
    let mut cut = b"z".repeat(58);
    cut.extend_from_slice(b"\xed\xa0\xbd\xed\xb8\x80 then ascii after the block end");
    out.push(cut);
    for _ in 0..10 {
        out.push(mutf8::body(rng, mutf8::WIDE_TEXT, 60, 30));
        out.push(mutf8::body(rng, mutf8::ACCEPTED, 40, 6));
    }
    out
}

/// A stream of `readUTF` and long records of `bodies`, now and then cut short.
fn records(bodies: &[Vec<u8>]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for (i, group) in bodies.chunks(4).enumerate() {
        let mut stream = Vec::new();
        for body in group {
            if i % 3 == 2 {
                stream.extend_from_slice(&(body.len() as u64).to_be_bytes());
            } else {
                stream.extend_from_slice(&(body.len() as u16).to_be_bytes());
            }
            stream.extend_from_slice(body);
        }
        if i % 4 == 3 {
            stream.truncate(stream.len() - 3);
        }
        out.push(stream);
    }
    out
}

fn write(dir: &Path, target: &str, seeds: &[Vec<u8>]) {
    let dir = dir.join(target);
    fs::create_dir_all(&dir).expect("create the corpus directory");
    for (i, seed) in seeds.iter().enumerate() {
        fs::write(dir.join(format!("seed-{i:03}")), seed).expect("write a seed");
    }
    println!("{target}: {} seeds", seeds.len());
}

fn with_header(header: &[u8], payloads: &[Vec<u8>]) -> Vec<Vec<u8>> {
    payloads.iter().map(|p| [header, p].concat()).collect()
}

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let mut rng = Rng::new(0x5EED_F022);
    let texts = texts(&mut rng);
    let units = units_bytes(&mut rng);
    let bodies = bodies(&mut rng);

    // ascii: sentinel, extra_len (2), offset, prefix.
    let mut ascii = Vec::new();
    for (i, text) in texts.iter().chain(&units).enumerate() {
        let header = [0xA5, i as u8, 0, (i % 64) as u8, i as u8];
        ascii.push([&header[..], text].concat());
    }
    write(&dir, "ascii", &ascii);

    // charset: the charset index, 3 cuts; each text through a few charsets, every charset
    // once with the mixed text.
    let mut charset = Vec::new();
    for (i, text) in texts.iter().chain(&units).enumerate() {
        let header = [(i * 7) as u8, 5, 1, 17];
        charset.push([&header[..], text].concat());
    }
    let mixed = [&texts[0][..], &texts[SCRIPTS.len()][..]].concat();
    for index in 0..46u8 {
        charset.push([&[index, 3, 0, 9][..], &mixed].concat());
    }
    write(&dir, "charset", &charset);

    // mutf8: skip.
    write(&dir, "mutf8", &with_header(&[0], &bodies));

    // mutf8_records: cuts (4), vectored, schedule (4), fail_at (2), limit (2).
    let mut records_seeds = Vec::new();
    for (i, stream) in records(&bodies).iter().enumerate() {
        let header = [
            (i * 3) as u8,
            1,
            7,
            200,
            i as u8,
            0x80,
            3,
            i as u8,
            0x0F,
            0xFF,
            0xFF,
            (i % 2) as u8,
            0x04,
        ];
        records_seeds.push([&header[..], stream].concat());
    }
    write(&dir, "mutf8_records", &records_seeds);

    // rope, rope_queue: operation sequences are parsed out of raw bytes; the sweeps' inputs
    // are random content, so are these seeds.
    let rope: Vec<Vec<u8>> = (0..24).map(|i| rng.bytes(32 + 40 * i)).collect();
    write(&dir, "rope", &rope);
    let queue: Vec<Vec<u8>> = (0..24).map(|i| rng.bytes(32 + 40 * i)).collect();
    write(&dir, "rope_queue", &queue);
}
