//! What the wirebytes tests, sweeps, benches and fuzz targets share: one deterministic
//! generator ([`Rng`]), the text and bytes they draw from it ([`text`], [`mutf8`],
//! [`fragments`]), and the size of the exhaustive loops ([`scale`]).
//!
//! The tests run natively in full, and under emulation (qemu-user, where `cargo xtask cross`
//! runs them for other architectures) at a reduced size chosen by one environment variable,
//! [`SCALE_VAR`]: `full` (the default) or `reduced`. Under Miri (`cargo xtask miri`, where
//! `cfg(miri)` is set) they run at a third, tiny size: [`scale_miri`] names it, and [`scale`]
//! gives the reduced one there.
//!
//! # Examples
//!
//! ```
//! // 65,536 cases natively, 4,096 under `WIREBYTES_TEST_SCALE=reduced`.
//! let cases = wirebytes_testkit::scale(65_536, 4_096);
//! assert!(cases == 65_536 || cases == 4_096);
//! ```
//!
//! # Crate features
//!
//! None. This crate depends on no wirebytes crate, so every crate can dev-depend on it.
//! [`buf`] holds `bytes::Buf` and `bytes::BufMut` implementations for the tests of functions
//! that read from or write into one; [`alloc`] a counting global allocator for the tests of
//! what a function allocates.

pub mod alloc;
pub mod buf;
pub mod fragments;
pub mod mutf8;
mod rng;
pub mod text;

pub use rng::Rng;

/// What each crate's level test prints before the names of its kernel levels, one line that
/// `cargo xtask miri` reads to report which levels ran.
pub const LEVELS_LINE: &str = "levels under test:";

/// Checks the names of a crate's kernel levels (its `levels` door, in order): `portable`
/// first, each named once; then prints them after [`LEVELS_LINE`].
///
/// # Panics
///
/// When the names break that rule.
pub fn check_level_names(names: &[&str]) {
    assert_eq!(names.first(), Some(&"portable"), "{names:?}");
    for (i, name) in names.iter().enumerate() {
        assert!(!names[..i].contains(name), "{names:?}");
    }
    println!("{LEVELS_LINE} {}", names.join(" "));
}

/// The environment variable that sets the test size: `full` (default) or `reduced`.
pub const SCALE_VAR: &str = "WIREBYTES_TEST_SCALE";

/// Whether the tests run at the reduced size: [`SCALE_VAR`] is `reduced`.
///
/// # Panics
///
/// When [`SCALE_VAR`] is set to anything but `full` or `reduced`, so that a misspelt value
/// cannot silently run the full size (or the reduced one).
pub fn reduced() -> bool {
    match std::env::var(SCALE_VAR) {
        Err(std::env::VarError::NotPresent) => false,
        Ok(value) => parse(&value)
            .unwrap_or_else(|| panic!("{SCALE_VAR}={value:?}: expected `full` or `reduced`")),
        Err(std::env::VarError::NotUnicode(value)) => {
            panic!("{SCALE_VAR}={value:?}: expected `full` or `reduced`")
        }
    }
}

/// A loop bound: `full` normally, `reduced` when [`reduced()`] says so or under Miri.
///
/// # Panics
///
/// As [`reduced()`], on a value of [`SCALE_VAR`] other than `full` or `reduced`.
pub fn scale(full: usize, reduced: usize) -> usize {
    if cfg!(miri) || self::reduced() {
        reduced
    } else {
        full
    }
}

/// A loop bound with a third size for Miri, which interprets every instruction and checks
/// every access (some thousand times slower than native code): `miri` under `cfg(miri)`,
/// else as [`scale`]. A step (`step_by`) grows where a count shrinks.
///
/// # Examples
///
/// ```
/// // Every byte natively, every 16th under qemu, every 61st under Miri.
/// let step = wirebytes_testkit::scale_miri(1, 16, 61);
/// let bytes = (0..=255u8).step_by(step).count();
/// assert!(bytes == 256 || bytes == 16 || bytes == 5);
/// ```
///
/// # Panics
///
/// As [`reduced()`], on a value of [`SCALE_VAR`] other than `full` or `reduced` (not under
/// Miri, which does not read it).
pub fn scale_miri(full: usize, reduced: usize, miri: usize) -> usize {
    if cfg!(miri) {
        miri
    } else {
        scale(full, reduced)
    }
}

/// `Some(true)` for `reduced`, `Some(false)` for `full` (and the empty string, as unset).
fn parse(value: &str) -> Option<bool> {
    match value {
        "reduced" => Some(true),
        "full" | "" => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn the_values_of_the_variable() {
        assert_eq!(parse("reduced"), Some(true));
        assert_eq!(parse("full"), Some(false));
        assert_eq!(parse(""), Some(false));
        assert_eq!(parse("Reduced"), None);
        assert_eq!(parse("small"), None);
    }
}
