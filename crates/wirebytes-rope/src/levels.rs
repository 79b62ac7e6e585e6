//! Not part of the API and not covered by semver: the door through which tests, the sweeps,
//! the benches and the fuzz targets reach what the crate keeps for them alone.
//!
//! The crate has one SIMD kernel, content equality with AVX-512 masked loads: its levels are
//! "portable" and, on an x86-64 CPU with AVX-512 F, BW, VL and BMI2, "avx512". [`all`] and
//! [`get`] have the shape of every wirebytes crate's door, so tooling treats the crates
//! alike.
//!
//! ```
//! use wirebytes_rope::{ByteString, levels};
//!
//! assert_eq!(levels::all().next().map(levels::Level::name), Some("portable"));
//! let s = ByteString::from_static(b"abcdef");
//! let other = ByteString::from_static(b"ab").concat(&ByteString::from_static(b"cdef"));
//! for level in levels::all() {
//!     assert!(level.eq(&s, &other), "{}", level.name());
//! }
//! ```

use crate::ByteString;
use crate::arch::Kernels;

/// A set of kernels this CPU can run, by name: `"portable"` (none), then on x86-64
/// `"avx512"` where the CPU has it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Level {
    name: &'static str,
    kernels: Kernels,
}

/// The levels this CPU has, `"portable"` first; the last is the one the public functions use.
pub fn all() -> impl Iterator<Item = Level> {
    Kernels::levels().map(|(name, kernels)| Level { name, kernels })
}

/// A level by name, if this CPU has it.
#[must_use]
pub fn get(name: &str) -> Option<Level> {
    all().find(|level| level.name == name)
}

impl Level {
    /// The level's name.
    #[must_use]
    pub fn name(self) -> &'static str {
        self.name
    }

    /// `a == b` (content equality of two strings) at this level.
    #[must_use]
    pub fn eq(self, a: &ByteString, b: &ByteString) -> bool {
        crate::cmp::eq_with(a, b, || self.kernels)
    }
}

/// How many calls each watched path took since the last [`reset_counts`], by name:
/// `"eq_chunks_avx512"` and `"eq_chunks_portable"` (the comparisons of two fragment lists),
/// `"find_byte"` (`ByteQueue`'s one-byte search), `"take_across"` (the readers' getters
/// gathering bytes across fragments), `"long_run_avx512"` (runs the AVX-512 comparison leaves
/// to the slice comparison), `"find_after_first"` (searches for a needle of two bytes or more
/// that go on past a first fragment holding no match), `"find_short_to_memmem"` (searches
/// of a slice for a needle of 2 to 8 bytes handed to `memmem` after their candidates by the
/// first byte ran out), `"queue_merged_bytes"` (bytes `ByteQueue::make_contiguous`
/// copied).
/// Test-only (the hidden feature `__counters`), and the calling thread's own: a test reads
/// what its own thread ran.
#[cfg(feature = "__counters")]
pub fn counts() -> impl Iterator<Item = (&'static str, usize)> {
    crate::counting::counts()
}

/// Sets this thread's counters of [`counts`] to zero.
#[cfg(feature = "__counters")]
pub fn reset_counts() {
    crate::counting::reset();
}

#[cfg(test)]
mod tests {
    extern crate std;
    use std::vec::Vec;

    /// The levels start with the portable one, each named once; the line printed names the
    /// levels every test that goes through this door runs here (`cargo xtask miri` reports it).
    #[test]
    fn the_levels_start_portable_and_are_named_once() {
        let names: Vec<&str> = super::all().map(super::Level::name).collect();
        wirebytes_testkit::check_level_names(&names);
    }
}
