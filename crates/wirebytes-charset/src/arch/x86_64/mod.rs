//! The x86-64 kernels: `#[target_feature]` functions, one file per job, each named
//! `<job>_<isa>`. Only [`Kernels`](super::Kernels) calls them, once it knows the CPU has the
//! instructions.

mod ascii_widen;
mod byte_map;
mod compact;
mod count_units;
mod is_ascii;
mod latin1_bytes;
mod latin1_window;
mod table_window;
mod three_byte_utf16;
mod utf16_counts;
mod utf16_latin1;
#[cfg(wirebytes_avx512)]
#[clippy::msrv = "1.89"]
mod utf16_utf8;
mod utf16_utf8_avx2;
#[cfg(wirebytes_avx512)]
#[clippy::msrv = "1.89"]
mod utf8_units;
mod utf8_units_avx2;

pub(super) use ascii_widen::ascii_widen_avx2;
#[cfg(wirebytes_avx512)]
pub(super) use ascii_widen::ascii_widen_avx512;
#[cfg(wirebytes_avx512)]
pub(super) use byte_map::byte_map_avx512;
pub(super) use byte_map::byte_map_ssse3;
pub(super) use count_units::count_units_avx2;
#[cfg(wirebytes_avx512)]
pub(super) use count_units::count_units_avx512;
pub(super) use is_ascii::is_ascii_avx2;
pub(super) use latin1_bytes::latin1_bytes_avx2;
#[cfg(wirebytes_avx512)]
pub(super) use latin1_bytes::latin1_bytes_avx512;
pub(super) use latin1_window::latin1_window_ssse3;
#[cfg(wirebytes_avx512)]
pub(super) use table_window::table_window_avx512;
pub(super) use table_window::table_window_ssse3;
pub(super) use three_byte_utf16::{three_byte_utf16_avx2, three_byte_utf16_ssse3};
#[cfg(wirebytes_avx512)]
pub(super) use utf8_units::utf8_units_avx512;
pub(super) use utf8_units_avx2::utf8_units_avx2;
#[cfg(test)]
pub(super) use utf16_counts::COUNTS_AVX2_BLOCK;
pub(super) use utf16_counts::{utf16_counts_avx2, utf16_max_avx2, utf16_pairs_avx2};
#[cfg(wirebytes_avx512)]
pub(super) use utf16_counts::{utf16_counts_avx512, utf16_max_avx512, utf16_pairs_avx512};
pub(super) use utf16_latin1::utf16_latin1_avx2;
#[cfg(wirebytes_avx512)]
pub(super) use utf16_latin1::utf16_latin1_avx512;
#[cfg(wirebytes_avx512)]
pub(super) use utf16_utf8::utf16_utf8_avx512;
pub(super) use utf16_utf8_avx2::utf16_utf8_avx2;

/// The mask of the first `n` (at most 64) lanes of 64.
#[cfg(wirebytes_avx512)]
#[inline]
fn first(n: usize) -> u64 {
    u64::MAX.checked_shr(64 - n as u32).unwrap_or(0)
}

/// The first 64 bytes of `bytes` in the 64 lanes, or all of them and zeros after when there
/// are fewer.
#[cfg(wirebytes_avx512)]
#[clippy::msrv = "1.89"]
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn load_first64(bytes: &[u8]) -> std::arch::x86_64::__m512i {
    match bytes.first_chunk::<64>() {
        // SAFETY: the load reads the 64 bytes of `block`; no alignment requirement.
        Some(block) => unsafe { std::arch::x86_64::_mm512_loadu_si512(block.as_ptr().cast()) },
        // SAFETY: the load reads only the lanes of its mask, the `bytes.len()` (fewer than
        // 64) bytes of `bytes`; a masked-off lane is not read and cannot fault. No alignment
        // requirement.
        None => unsafe {
            std::arch::x86_64::_mm512_maskz_loadu_epi8(first(bytes.len()), bytes.as_ptr().cast())
        },
    }
}

/// The 32 16-bit units of `a` then `b`, each below 0x100, as their 32 bytes in order:
/// `packus` packs by 128-bit lane (a0..7, b0..7, a8..15, b8..15), and the permute puts the
/// four quarters back in order.
#[target_feature(enable = "avx2")]
#[inline]
fn narrow32(
    a: std::arch::x86_64::__m256i,
    b: std::arch::x86_64::__m256i,
) -> std::arch::x86_64::__m256i {
    use std::arch::x86_64::{_mm256_packus_epi16, _mm256_permute4x64_epi64};
    _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packus_epi16(a, b))
}

/// The first char boundary of `src` at or after `i`: a kernel's steps end where the bytes
/// they read end, which may be inside the last char they took (its bytes after the step read
/// and written too), so its caller goes on from the next char's first byte.
#[inline]
fn next_char_start(src: &[u8], mut i: usize) -> usize {
    while src.get(i).is_some_and(|&b| b & 0xC0 == 0x80) {
        i += 1;
    }
    i
}
