//! The AVX2 check of the ASCII fast path ([`crate::ascii_valid_up_to`]), chosen at run time:
//! the call into a `#[target_feature(enable = "avx2")]` function, once the CPU was seen to
//! have AVX2, is this module's one `unsafe`. Measured need (criterion, `charset/encode`
//! `ascii-windows-1252/4096`, AMD EPYC, 2026-11-30): the standard library's `is_ascii`
//! (16-byte vectors) before the copy made the whole encode 1.54-1.66x a plain `to_vec`.
#![allow(unsafe_code)]

/// Whether every byte of `bytes` is ASCII, with AVX2: `None` when the CPU lacks it.
#[inline]
pub(crate) fn is_ascii(bytes: &[u8]) -> Option<bool> {
    if !std::is_x86_feature_detected!("avx2") {
        return None;
    }
    // SAFETY: `is_ascii_avx2` requires AVX2 and nothing else; the CPU was just seen to have it.
    Some(unsafe { is_ascii_avx2(bytes) })
}

/// See [`is_ascii`]. Plain array code: with AVX2 enabled here the compiler ORs the bytes
/// into one 32-byte register (four loads per 128 bytes); its sign bits are tested once per
/// KiB, since a test means a horizontal reduction that costs more than the ORs.
#[target_feature(enable = "avx2")]
fn is_ascii_avx2(bytes: &[u8]) -> bool {
    let (kibs, tail) = bytes.as_chunks::<1024>();
    for kib in kibs {
        let mut any = [0u8; 32];
        for lane in kib.as_chunks::<32>().0 {
            for (a, b) in any.iter_mut().zip(lane) {
                *a |= b;
            }
        }
        if any.iter().fold(0, |a, b| a | b) >= 0x80 {
            return false;
        }
    }
    tail.is_ascii()
}

#[cfg(test)]
mod tests {
    /// Every position of a non-ASCII byte in inputs of every length around the block size,
    /// against the standard library.
    #[test]
    fn agrees_with_std() {
        let Some(_) = super::is_ascii(b"") else {
            return; // no AVX2 on this CPU: nothing to compare
        };
        for len in (0..=300).chain(1000..=1100).chain([2048, 2049, 3071]) {
            let ascii = vec![b'a'; len];
            assert_eq!(super::is_ascii(&ascii), Some(true), "{len}");
            for at in 0..len {
                for byte in [0x80, 0xC3, 0xFF] {
                    let mut bytes = ascii.clone();
                    bytes[at] = byte;
                    assert_eq!(super::is_ascii(&bytes), Some(false), "{len} {at}");
                }
            }
        }
    }
}
