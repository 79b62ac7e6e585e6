//! Deterministic inputs shared by the benches.

#[path = "../../xtask/src/rng.rs"]
mod rng;

pub use rng::Rng;

/// `unit` repeated (cycling through its chars) to exactly `chars` chars.
pub fn repeat_chars(unit: &str, chars: usize) -> String {
    unit.chars().cycle().take(chars).collect()
}
