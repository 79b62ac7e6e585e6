//! `low_bytes_len`: the UTF-16 length of a `&str`, counted from its UTF-8 bytes without
//! decoding them. One counting pass with byte-sized accumulators that the compiler
//! vectorises; with AVX2 the same loop compiled for 32-byte registers, with AVX-512 two
//! compares into mask registers and two `popcnt` per 64 bytes.

use crate::arch::Kernels;
use crate::chunks::SplitChunks;
use crate::counters::{self, Path};

/// Counts, over `bytes`, the bytes that start a char plus the lead bytes of 4-byte
/// sequences: the UTF-16 length. At most 127 bytes, so that the per-byte sums fit in a `u8`.
#[inline(always)]
fn units_in(bytes: &[u8]) -> u8 {
    let mut units = 0u8;
    for &b in bytes {
        // Every byte that is not a continuation byte (0x80..=0xBF) starts a char: one unit;
        // a lead byte 0xF0.. starts a supplementary char: one unit more.
        units += u8::from((b as i8) >= -0x40) + u8::from(b >= 0xF0);
    }
    units
}

/// The fast `low_bytes_len`, with the kernels `kernels` gives (asked for only from 128 bytes
/// on, where the counting loop of the widest kernel level pays).
#[inline]
pub(crate) fn low_bytes_len_with(src: &str, kernels: impl Fn() -> Kernels) -> usize {
    let bytes = src.as_bytes();
    if bytes.len() >= 128 {
        if let Some(units) = kernels().count_units(bytes) {
            return units;
        }
    }
    counters::add(Path::CountUnitsPortable, bytes.len());
    count_units(bytes)
}

/// The UTF-16 length of `bytes` (whole chars of UTF-8): 64-byte blocks, each summed in
/// byte-sized accumulators, then the tail. Written for the vectoriser, which a caller under
/// `#[target_feature]` widens.
#[inline(always)]
pub(crate) fn count_units(bytes: &[u8]) -> usize {
    const BLOCK: usize = 64;
    let (blocks, tail) = bytes.split_chunks::<BLOCK>();
    let mut total = 0usize;
    for block in blocks {
        total += usize::from(units_in(block));
    }
    total + usize::from(units_in(tail))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference;
    use std::string::String;
    use wirebytes_testkit::Rng;
    use wirebytes_testkit::text::random_text;

    /// Random text of every length around the kernels' blocks (64-byte steps, from 128 bytes
    /// on), at every level: the count is the reference's.
    #[test]
    fn low_bytes_len_is_the_reference_at_every_level() {
        let mut rng = Rng::new(0x16_1E4);
        for _ in 0..wirebytes_testkit::scale_miri(300, 30, 1) {
            let text: String = random_text(&mut rng, wirebytes_testkit::scale_miri(200, 200, 80));
            for end in (0..=text.len()).step_by(wirebytes_testkit::scale_miri(1, 1, 37)) {
                if !text.is_char_boundary(end) {
                    continue;
                }
                let part = &text[..end];
                let want = reference::low_bytes_len(part);
                for (level, kernels) in Kernels::levels() {
                    assert_eq!(
                        low_bytes_len_with(part, || kernels),
                        want,
                        "{level}, {part:?}"
                    );
                }
            }
        }
    }
}
