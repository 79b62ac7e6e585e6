//! The ASCII prefix: how much of the input an ASCII-compatible encoding writes as itself,
//! copied in one go before any encoder runs.

use encoding_rs::Encoding;

use crate::arch::Kernels;
use crate::counters::{self, Path};
use crate::encodings::Kind;

/// How many leading bytes of `text` an ASCII-compatible `kind` writes as themselves (none in
/// a JDK multi-byte charset where ASCII is not its own bytes).
#[inline]
pub(crate) fn ascii_prefix(kind: Kind, text: &str, kernels: Kernels) -> usize {
    match kind {
        Kind::Iso2022Jp => Encoding::iso_2022_jp_ascii_valid_up_to(text.as_bytes()),
        Kind::JdkMultiByte(k) if !crate::jdk::MULTI_BYTE[k].ascii => 0,
        _ => ascii_valid_up_to(text.as_bytes(), kernels),
    }
}

/// The length of the ASCII prefix of `bytes`. All of it, the common case, is checked first:
/// with [`Kernels::is_ascii`] where `kernels` has it, else with the standard library's
/// `is_ascii`. Otherwise 64 bytes at a time (an OR of the chunk, which the compiler turns into
/// vector ORs and one sign-mask test), then byte by byte.
#[inline]
pub(crate) fn ascii_valid_up_to(bytes: &[u8], kernels: Kernels) -> usize {
    let all_ascii = kernels.is_ascii(bytes).unwrap_or_else(|| bytes.is_ascii());
    if all_ascii {
        return bytes.len();
    }
    let mut i = 0;
    for chunk in bytes.chunks_exact(64) {
        if chunk.iter().fold(0u8, |acc, &b| acc | b) >= 0x80 {
            break;
        }
        i += 64;
    }
    counters::add(Path::AsciiPrefixBlocks, i);
    let rest = &bytes[i..];
    i + rest.iter().position(|&b| b >= 0x80).unwrap_or(rest.len())
}

#[cfg(test)]
mod tests {
    use super::ascii_valid_up_to;
    use crate::levels;

    /// Every position of a non-ASCII byte in inputs of every length around the AVX2 check's
    /// KiB blocks, at every level: the ASCII check against the standard library's, and the
    /// prefix against a byte-by-byte scan.
    #[test]
    fn agrees_with_std_at_every_level() {
        for level in levels::all() {
            let kernels = level.kernels();
            let name = level.name();
            for len in (0..=300)
                .chain(1000..=1100)
                .chain([2048, 2049, 3071])
                .step_by(wirebytes_testkit::scale_miri(1, 1, 141))
            {
                let ascii = vec![b'a'; len];
                let check = kernels.is_ascii(&ascii);
                assert!(check.is_none_or(|all| all), "{name} {len}");
                assert_eq!(ascii_valid_up_to(&ascii, kernels), len, "{name} {len}");
                for at in (0..len).step_by(wirebytes_testkit::scale_miri(1, 1, 291)) {
                    for byte in [0x80, 0xC3, 0xFF] {
                        let mut bytes = ascii.clone();
                        bytes[at] = byte;
                        let check = kernels.is_ascii(&bytes);
                        assert!(check.is_none_or(|all| !all), "{name} {len} {at}");
                        assert_eq!(ascii_valid_up_to(&bytes, kernels), at, "{name} {len} {at}");
                    }
                }
            }
        }
    }
}
