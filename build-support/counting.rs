//! The store of the test-only counters: one relaxed atomic per [`Path`] of the crate's
//! `counters` module, added to where a kernel or a watched fast path runs, read and reset
//! through the crate's `levels` door. It exists with the hidden feature `__counters` alone
//! (on only in the crate's own tests); without it [`add`] is nothing at all.
//!
//! A crate's `Path` is a fieldless enum with `ALL`, every path in the order of its values,
//! and `name`, the stable name the tests read.

use crate::counters::Path;

/// The counters, one per [`Path`], in the order of `Path::ALL`.
#[cfg(feature = "__counters")]
static COUNTS: [core::sync::atomic::AtomicUsize; Path::ALL.len()] =
    [const { core::sync::atomic::AtomicUsize::new(0) }; Path::ALL.len()];

/// Adds `n` to the counter of `path`: with `__counters` one relaxed atomic add, without it
/// nothing.
#[inline(always)]
pub(crate) fn add(path: Path, n: usize) {
    #[cfg(feature = "__counters")]
    COUNTS[path as usize].fetch_add(n, core::sync::atomic::Ordering::Relaxed);
    #[cfg(not(feature = "__counters"))]
    let _ = (path, n);
}

/// Every counter, by its path's name, in the order of `Path::ALL`.
#[cfg(feature = "__counters")]
pub(crate) fn counts() -> impl Iterator<Item = (&'static str, usize)> {
    Path::ALL.into_iter().map(|path| {
        let count = COUNTS[path as usize].load(core::sync::atomic::Ordering::Relaxed);
        (path.name(), count)
    })
}

/// Sets every counter to 0.
#[cfg(feature = "__counters")]
pub(crate) fn reset() {
    for count in &COUNTS {
        count.store(0, core::sync::atomic::Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use crate::counters::Path;

    /// Each path sits at its own index of `Path::ALL` (its counter's), under a name of its
    /// own.
    #[test]
    fn every_path_is_listed_at_its_index_with_its_own_name() {
        for (k, path) in Path::ALL.into_iter().enumerate() {
            assert_eq!(path as usize, k, "{path:?}");
            assert!(
                Path::ALL[..k]
                    .iter()
                    .all(|other| other.name() != path.name()),
                "{path:?}: a name given twice"
            );
        }
    }
}
