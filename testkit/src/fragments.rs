//! Fragmentations: the same bytes cut into pieces at random points, for the rope and for any
//! reader of fragmented input.

use crate::Rng;

/// `content` cut at random points into pieces of 1 to `max` bytes (none when `content` is
/// empty).
///
/// # Panics
///
/// If `max` is 0.
///
/// # Examples
///
/// ```
/// use wirebytes_testkit::{Rng, fragments};
///
/// let pieces = fragments::split(&mut Rng::new(1), b"hello, world", 5);
/// assert_eq!(pieces.concat(), b"hello, world");
/// assert!(pieces.iter().all(|p| (1..=5).contains(&p.len())));
/// ```
pub fn split<'a>(rng: &mut Rng, content: &'a [u8], max: usize) -> Vec<&'a [u8]> {
    assert!(max > 0, "fragments of at most 0 bytes");
    let mut out = Vec::new();
    let mut rest = content;
    while !rest.is_empty() {
        let n = 1 + rng.below(max.min(rest.len()));
        let (piece, tail) = rest.split_at(n);
        out.push(piece);
        rest = tail;
    }
    out
}

/// `content` cut into exactly `n` non-empty pieces at distinct random points.
///
/// # Panics
///
/// If `n` is 0 or more than `content.len()`.
///
/// # Examples
///
/// ```
/// use wirebytes_testkit::{Rng, fragments};
///
/// let pieces = fragments::split_into(&mut Rng::new(2), b"0123456789", 4);
/// assert_eq!(pieces.len(), 4);
/// assert_eq!(pieces.concat(), b"0123456789");
/// ```
pub fn split_into<'a>(rng: &mut Rng, content: &'a [u8], n: usize) -> Vec<&'a [u8]> {
    assert!(
        (1..=content.len()).contains(&n),
        "{n} pieces of {} bytes",
        content.len()
    );
    let mut cuts: Vec<usize> = Vec::with_capacity(n + 1);
    while cuts.len() < n - 1 {
        let cut = 1 + rng.below(content.len() - 1);
        if !cuts.contains(&cut) {
            cuts.push(cut);
        }
    }
    cuts.push(0);
    cuts.push(content.len());
    cuts.sort_unstable();
    cuts.windows(2).map(|w| &content[w[0]..w[1]]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_put_back_together_are_the_content() {
        let mut rng = Rng::new(8);
        let content = rng.bytes(300);
        for max in [1, 2, 7, 64, 1000] {
            let pieces = split(&mut rng, &content, max);
            assert_eq!(pieces.concat(), content);
            assert!(pieces.iter().all(|p| (1..=max).contains(&p.len())));
        }
        for n in [1, 2, 50, 300] {
            let pieces = split_into(&mut rng, &content, n);
            assert_eq!((pieces.len(), pieces.concat()), (n, content.clone()));
        }
        assert!(split(&mut rng, b"", 3).is_empty());
    }
}
