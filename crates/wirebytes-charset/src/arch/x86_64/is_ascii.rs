//! The AVX2 all-ASCII check. Its contract is
//! [`Kernels::is_ascii`](crate::arch::Kernels::is_ascii)'s.

use crate::chunks::SplitChunks;

/// Whether every byte of `bytes` is ASCII. Plain array code: with AVX2 enabled here the
/// compiler ORs the bytes into one 32-byte register (four loads per 128 bytes); its sign bits
/// are tested once per KiB, since a test means a horizontal reduction that costs more than the
/// ORs.
#[target_feature(enable = "avx2")]
pub(crate) fn is_ascii_avx2(bytes: &[u8]) -> bool {
    let (kibs, tail) = bytes.split_chunks::<1024>();
    for kib in kibs {
        let mut any = [0u8; 32];
        for lane in kib.split_chunks::<32>().0 {
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
