//! The store of the test-only counters: one counter per [`Path`] of the crate's `counters`
//! module and per thread, added to where a kernel or a watched fast path runs, read and reset
//! through the crate's `levels` door. It exists with the hidden feature `__counters` alone
//! (on only in the crate's own tests); without it [`add`] is nothing at all.
//!
//! The counters are the calling thread's own: a test reads what its own thread ran, whatever
//! the tests on other threads run at the same time.
//!
//! A crate's `Path` is a fieldless enum with `ALL`, every path in the order of its values,
//! and `name`, the stable name the tests read.

#[cfg(feature = "__counters")]
extern crate std;

use crate::counters::Path;

#[cfg(feature = "__counters")]
std::thread_local! {
    /// This thread's counters, one per [`Path`], in the order of `Path::ALL`.
    static COUNTS: [core::cell::Cell<usize>; Path::ALL.len()] =
        const { [const { core::cell::Cell::new(0) }; Path::ALL.len()] };
}

/// Adds `n` to this thread's counter of `path`: with `__counters` one add to a thread-local
/// cell, without it nothing.
#[inline(always)]
pub(crate) fn add(path: Path, n: usize) {
    #[cfg(feature = "__counters")]
    COUNTS.with(|counts| {
        let count = &counts[path as usize];
        count.set(count.get().wrapping_add(n));
    });
    #[cfg(not(feature = "__counters"))]
    let _ = (path, n);
}

/// This thread's counters, by their path's name, in the order of `Path::ALL`.
#[cfg(feature = "__counters")]
pub(crate) fn counts() -> impl Iterator<Item = (&'static str, usize)> {
    let values = COUNTS.with(|counts| counts.each_ref().map(core::cell::Cell::get));
    Path::ALL
        .into_iter()
        .map(move |path| (path.name(), values[path as usize]))
}

/// Sets this thread's counters to 0.
#[cfg(feature = "__counters")]
pub(crate) fn reset() {
    COUNTS.with(|counts| counts.iter().for_each(|count| count.set(0)));
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

    /// A thread's counters hold its own work alone: another thread's adds and resets leave
    /// them as they were.
    #[cfg(feature = "__counters")]
    #[test]
    fn each_thread_counts_its_own_work() {
        extern crate std;
        let path = Path::ALL[0];
        super::reset();
        super::add(path, 3);
        std::thread::spawn(move || {
            super::add(path, 5);
            super::reset();
            super::add(path, 7);
            assert_eq!(super::counts().next(), Some((path.name(), 7)));
        })
        .join()
        .expect("the other thread");
        assert_eq!(super::counts().next(), Some((path.name(), 3)));
    }
}
