//! Shared helpers: a deterministic generator and every representation of some content.

#![allow(
    dead_code,
    reason = "each test file uses a different part of the helpers"
)]

use bytes::Bytes;
use wirebytes_rope::{ByteString, ByteStringBuilder};

pub(crate) use wirebytes_testkit::Rng;

/// The sizes the representation tests run at: 17+ sizes from 0 to 1000.
#[cfg(not(miri))]
pub(crate) const SIZES: &[usize] = &[
    0, 1, 2, 3, 7, 8, 15, 16, 17, 31, 63, 64, 65, 127, 128, 129, 255, 256, 257, 500, 999, 1000,
];
/// Under Miri, which interprets every access: a few of the sizes, the small ones first.
#[cfg(miri)]
pub(crate) const SIZES: &[usize] = &[0, 1, 3, 8, 16, 17, 31, 64, 65, 129, 257, 500];

/// `content` split into fragments at random cut points, each fragment at most `max` bytes.
pub(crate) fn split_random(content: &[u8], rng: &mut Rng, max: usize) -> Vec<Bytes> {
    wirebytes_testkit::fragments::split(rng, content, max)
        .into_iter()
        .map(Bytes::copy_from_slice)
        .collect()
}

/// The same content in every representation the crate has, with a name for each.
pub(crate) fn shapes(content: &[u8], seed: u64) -> Vec<(&'static str, ByteString)> {
    let mut rng = Rng::new(seed);
    let n = content.len();
    let mut out: Vec<(&'static str, ByteString)> = Vec::new();
    out.push(("one", ByteString::from(content.to_vec())));
    // A one-fragment string sliced out of a larger buffer.
    let mut padded = rng.bytes(5);
    padded.extend_from_slice(content);
    padded.extend(rng.bytes(3));
    out.push(("sliced", ByteString::from(padded).slice(5..5 + n)));
    // Two fragments (the cut anywhere, both sides possibly empty).
    let cut = rng.below(n + 1);
    out.push((
        "two",
        [&content[..cut], &content[cut..]]
            .into_iter()
            .map(Bytes::copy_from_slice)
            .collect(),
    ));
    // Many fragments of 1..=9 bytes.
    out.push((
        "many",
        split_random(content, &mut rng, 9).into_iter().collect(),
    ));
    // One byte per fragment.
    out.push((
        "bytewise",
        split_random(content, &mut rng, 1).into_iter().collect(),
    ));
    // Many fragments with empty ones interleaved.
    let mut with_empty = vec![Bytes::new()];
    for b in split_random(content, &mut rng, 40) {
        with_empty.push(b);
        with_empty.push(Bytes::new());
    }
    out.push(("with-empty", with_empty.into_iter().collect()));
    // A slice of a many-fragment rope holding more bytes on both sides.
    let mut outer = rng.bytes(11);
    outer.extend_from_slice(content);
    outer.extend(rng.bytes(13));
    let outer: ByteString = split_random(&outer, &mut rng, 17).into_iter().collect();
    out.push(("rope-sliced", outer.slice(11..11 + n)));
    // Concatenation, one fragment at a time (each kept as it is).
    let mut concat = ByteString::new();
    for b in split_random(content, &mut rng, 50) {
        concat = concat.concat(&ByteString::from(b));
    }
    out.push(("concat", concat));
    // In-place appends of multi-fragment pieces.
    let mut appended = ByteString::new();
    for piece in split_random(content, &mut rng, 200) {
        let piece: ByteString = split_random(&piece, &mut rng, 70).into_iter().collect();
        appended.append(&piece);
    }
    out.push(("appended", appended));
    // The builder: small writes and large shared fragments mixed.
    let mut builder = ByteStringBuilder::new();
    for b in split_random(content, &mut rng, 150) {
        if rng.below(2) == 0 {
            builder.extend_from_slice(&b);
        } else {
            builder.push(b);
        }
    }
    out.push(("builder", builder.build()));
    out
}
