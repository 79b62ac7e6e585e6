//! Not part of the API and not covered by semver: the door through which tests, the sweeps,
//! the benches and the fuzz targets reach what the crate keeps for them alone.
//!
//! The crate has one SIMD kernel, content equality with AVX-512 masked loads: its levels are
//! "portable" and, on an x86-64 CPU with AVX-512 F, BW, VL and BMI2, "avx512". [`all`] and
//! [`get`] have the shape of every wirebytes crate's door, so tooling treats the crates
//! alike. Beside them, the hooks of a road measured and not taken: joining tiny fragments on
//! append.
//!
//! ```
//! use wirebytes_rope::{ByteString, levels};
//!
//! assert_eq!(levels::all().next().map(levels::Level::name), Some("portable"));
//! let mut s = ByteString::from_static(b"abc");
//! levels::append_joining(&mut s, &ByteString::from_static(b"def"));
//! assert_eq!((s.fragment_count(), s.clone()), (1, ByteString::from_static(b"abcdef")));
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
pub fn get(name: &str) -> Option<Level> {
    all().find(|level| level.name == name)
}

impl Level {
    /// The level's name.
    pub fn name(self) -> &'static str {
        self.name
    }

    /// `a == b` (content equality of two strings) at this level.
    pub fn eq(self, a: &ByteString, b: &ByteString) -> bool {
        crate::cmp::eq_with(a, b, || self.kernels)
    }
}

/// [`append_joining`] copies junctions whose two fragments hold together at most this many
/// bytes into one fragment. Measured (bench `rope/append_tiny`): appending 2048 pieces of
/// 1..=32 bytes costs more than twice as much with joining and a byte-by-byte scan of the
/// result gains nothing, so [`ByteString::concat`] and [`ByteString::append`] do not join.
pub const COALESCE_LIMIT: usize = 64;

/// [`ByteString::append`] that copies the junction into one fresh fragment when the last
/// fragment of `s` and the first of `other` hold together at most [`COALESCE_LIMIT`] bytes.
/// Kept for the bench that measures what joining is worth (it does not pay).
pub fn append_joining(s: &mut ByteString, other: &ByteString) {
    s.append_with(other, COALESCE_LIMIT);
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
