//! The x86-64 kernels, one file per job, each a `#[target_feature]` function named
//! `<job>_<isa>`. They are called only through [`super::Kernels`], whose flags prove the CPU
//! has the features.

use core::arch::x86_64::{__m128i, _mm_setr_epi8};

mod ascii_blocks;
mod bmp_short;
mod compact;
mod count;
mod four_byte;
mod header_check;
mod three_byte;
mod two_byte;
#[cfg(wirebytes_avx512)]
#[clippy::msrv = "1.89"]
mod utf8_blocks;

pub(super) use ascii_blocks::ascii_blocks_avx2;
#[cfg(wirebytes_avx512)]
pub(super) use ascii_blocks::avx512::ascii_blocks_avx512;
#[cfg(all(wirebytes_avx512, feature = "alloc"))]
pub(super) use ascii_blocks::avx512::header_blocks_avx512;
#[cfg(feature = "alloc")]
pub(super) use ascii_blocks::header_blocks_avx2;
pub(super) use bmp_short::bmp_short_ssse3;
#[cfg(wirebytes_avx512)]
pub(super) use count::avx512::count_units_avx512;
pub(super) use count::count_units_avx2;
pub(super) use four_byte::four_byte_blocks_ssse3;
#[cfg(wirebytes_avx512)]
pub(super) use header_check::avx512::find_invalid_header_byte_avx512;
pub(super) use header_check::find_invalid_header_byte_avx2;
pub(super) use three_byte::three_byte_blocks_ssse3;
pub(super) use two_byte::two_byte_blocks_ssse3;
#[cfg(wirebytes_avx512)]
pub(super) use utf8_blocks::{utf8_blocks_avx512, utf8_short_avx512};

/// Sixteen bytes as a vector (the `_mm_setr_epi8` order: byte 0 first).
#[inline]
#[target_feature(enable = "ssse3")]
fn vector(bytes: [i8; 16]) -> __m128i {
    let [
        b0,
        b1,
        b2,
        b3,
        b4,
        b5,
        b6,
        b7,
        b8,
        b9,
        b10,
        b11,
        b12,
        b13,
        b14,
        b15,
    ] = bytes;
    _mm_setr_epi8(
        b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11, b12, b13, b14, b15,
    )
}
