//! [`Rng`]: a small deterministic generator (SplitMix64), so that tests, sweeps, benches and
//! fuzz seeds draw the same inputs on every run and every machine, and a difference found
//! once can be found again.

/// SplitMix64: fast, tiny, and good enough to draw test inputs.
///
/// # Examples
///
/// ```
/// use wirebytes_testkit::Rng;
///
/// let mut a = Rng::new(7);
/// let mut b = Rng::new(7);
/// assert_eq!(a.next_u64(), b.next_u64()); // the same seed, the same sequence
/// assert!(a.below(10) < 10);
/// ```
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A value in `0..bound`.
    ///
    /// # Panics
    ///
    /// If `bound` is 0.
    pub fn below(&mut self, bound: usize) -> usize {
        assert!(bound > 0, "Rng::below(0)");
        (self.next_u64() % bound as u64) as usize
    }

    /// True with probability `1 / n`.
    ///
    /// # Panics
    ///
    /// If `n` is 0.
    pub fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }

    /// Fills `dst` with random bytes.
    pub fn fill(&mut self, dst: &mut [u8]) {
        for chunk in dst.chunks_mut(8) {
            let word = self.next_u64().to_le_bytes();
            chunk.copy_from_slice(&word[..chunk.len()]);
        }
    }

    /// `len` random bytes.
    pub fn bytes(&mut self, len: usize) -> Vec<u8> {
        let mut out = vec![0; len];
        self.fill(&mut out);
        out
    }

    /// One element of `items`.
    ///
    /// # Panics
    ///
    /// If `items` is empty.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

#[cfg(test)]
mod tests {
    use super::Rng;

    #[test]
    fn draws_stay_in_range_and_repeat_with_the_seed() {
        let mut rng = Rng::new(1);
        let draws: Vec<usize> = (0..1000).map(|_| rng.below(7)).collect();
        assert!(draws.iter().all(|&d| d < 7));
        for value in 0..7 {
            assert!(draws.contains(&value), "{value} never drawn");
        }
        let mut again = Rng::new(1);
        assert!(draws.iter().all(|&d| d == again.below(7)));
        let mut bytes = [0u8; 13];
        Rng::new(2).fill(&mut bytes);
        assert_eq!(bytes.to_vec(), Rng::new(2).bytes(13));
        assert_ne!(bytes, [0; 13]);
    }
}
