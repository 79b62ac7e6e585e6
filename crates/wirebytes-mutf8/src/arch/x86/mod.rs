//! The `#[target_feature]` kernels for x86 and x86_64, one file per job. What each one reads,
//! writes and returns is written once, in [`crate::arch`]; the `Kernels` methods there are the
//! only callers.

mod rewrite;
mod utf16_blocks;
mod utf8_check;

pub(super) use rewrite::rewrite_avx512;
pub(super) use utf8_check::check_avx2;
pub(super) use utf16_blocks::{blocks_avx2, blocks_avx512, pairs_avx512, pairs_ssse3};
