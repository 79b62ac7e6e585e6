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
