//! The `#[target_feature]` kernels for x86 and x86_64, one file per job. What each one reads,
//! writes and returns is written once, in [`crate::arch`]; the `Kernels` methods there are the
//! only callers.

#[cfg(wirebytes_avx512)]
#[clippy::msrv = "1.89"]
mod rewrite;
mod utf16_blocks;
#[cfg(wirebytes_avx512)]
#[clippy::msrv = "1.89"]
mod utf16_blocks_avx512;
mod utf8_check;
#[cfg(target_feature = "sse2")]
mod widen;

#[cfg(wirebytes_avx512)]
pub(super) use rewrite::rewrite_avx512;
pub(super) use utf8_check::check_avx2;
pub(super) use utf16_blocks::{blocks_avx2, pairs_ssse3};
#[cfg(wirebytes_avx512)]
pub(super) use utf16_blocks_avx512::{blocks_avx512, pairs_avx512};
#[cfg(target_feature = "sse2")]
pub(super) use widen::{widen4_sse2, widen8_sse2, widen16_sse2};
