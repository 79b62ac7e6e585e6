//! Shared harness for the wirebytes criterion benches.
//!
//! Every bench binary links this crate, which installs [`CountingAlloc`] as the global
//! allocator. [`bench`] wraps criterion's `bench_function`: before timing a function it runs
//! it once and records how many bytes that one call allocated, split into *retained* (still
//! owned by the value it returned) and *transient* (allocated and freed inside the call).
//! `cargo xtask bench` reads those records beside criterion's estimates to print the B/op
//! columns.
//!
//! Naming, which `cargo xtask bench` relies on:
//! - group: `crate/operation`, e.g. `ascii/copy_low_bytes`;
//! - function: `baseline` (the old way), `ours` or `ours-<variant>`, `limit-<name>` for a
//!   lower bound such as a plain memcpy, any other name for a peer crate;
//! - parameter: `<input>/<size>`, e.g. `content-type/48`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::fs::OpenOptions;
use std::io::Write as _;
use std::sync::atomic::{AtomicU64, Ordering};

use criterion::measurement::WallTime;
use criterion::{BatchSize, BenchmarkGroup, BenchmarkId};
use std::hint::black_box;

/// The README's usage examples, compiled and run as doctests by `cargo test --workspace`
/// (this package depends on every crate they use).
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;

/// A global allocator that forwards to [`System`] and counts bytes allocated and freed.
#[derive(Debug)]
pub struct CountingAlloc;

static ALLOCATED: AtomicU64 = AtomicU64::new(0);
static FREED: AtomicU64 = AtomicU64::new(0);
static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc;

// SAFETY: every method forwards to `System` with the caller's arguments unchanged, so the
// `GlobalAlloc` contract is upheld by `System`; the counters are plain atomics.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATED.fetch_add(layout.size() as u64, Ordering::Relaxed);
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: the caller upholds `alloc`'s contract (non-zero size), passed on as is.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        ALLOCATED.fetch_add(layout.size() as u64, Ordering::Relaxed);
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: as for `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        FREED.fetch_add(layout.size() as u64, Ordering::Relaxed);
        // SAFETY: `ptr` came from this allocator (hence from `System`) with this `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // A realloc is counted as a fresh allocation of `new_size` and a free of the old
        // block: growing by copying is exactly the transient cost the B/op column shows.
        ALLOCATED.fetch_add(new_size as u64, Ordering::Relaxed);
        FREED.fetch_add(layout.size() as u64, Ordering::Relaxed);
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: `ptr`/`layout` come from this allocator; the caller guarantees `new_size`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// Bytes allocated by one call of a function.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AllocStats {
    /// Bytes still allocated when the call returned: what its output keeps alive.
    pub retained: u64,
    /// Bytes allocated and freed again within the call (including grow-by-copy).
    pub transient: u64,
    /// Number of allocations (a `realloc` counts as one).
    pub allocations: u64,
}

/// Runs `f` once and reports what it allocated. The output is dropped after measuring.
pub fn measure_alloc<O>(f: impl FnOnce() -> O) -> AllocStats {
    let a0 = ALLOCATED.load(Ordering::Relaxed);
    let f0 = FREED.load(Ordering::Relaxed);
    let n0 = ALLOCATIONS.load(Ordering::Relaxed);
    let out = black_box(f());
    let allocated = ALLOCATED.load(Ordering::Relaxed) - a0;
    let freed = FREED.load(Ordering::Relaxed) - f0;
    let allocations = ALLOCATIONS.load(Ordering::Relaxed) - n0;
    drop(out);
    let retained = allocated.saturating_sub(freed);
    AllocStats {
        retained,
        transient: allocated - retained,
        allocations,
    }
}

/// Appends one allocation record to the file named by `WIREBYTES_ALLOC_LOG`, if set.
fn record(group: &str, function: &str, parameter: &str, stats: AllocStats) {
    let Some(path) = std::env::var_os("WIREBYTES_ALLOC_LOG") else {
        return;
    };
    let line = format!(
        "{group}\t{function}\t{parameter}\t{}\t{}\t{}\n",
        stats.retained, stats.transient, stats.allocations
    );
    let written = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .and_then(|mut file| file.write_all(line.as_bytes()));
    if let Err(err) = written {
        eprintln!(
            "warning: cannot append to {}: {err}",
            path.to_string_lossy()
        );
    }
}

/// Benchmarks `f` on `input` as `function` / `parameter` inside `group`, after recording the
/// bytes one call allocates.
///
/// `group_name` must be the name the group was created with (criterion does not expose it).
pub fn bench<I: ?Sized, O>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    group_name: &str,
    function: &str,
    parameter: &str,
    input: &I,
    mut f: impl FnMut(&I) -> O,
) {
    let stats = measure_alloc(|| f(black_box(input)));
    record(group_name, function, parameter, stats);
    group.bench_function(BenchmarkId::new(function, parameter), |b| {
        b.iter(|| f(black_box(input)))
    });
}

/// Benchmarks `f` as [`bench`] does, on a fresh input from `setup` for every call: for
/// functions that consume their input (a stream of owned reads, say). Neither `setup` nor
/// dropping the output is timed or counted.
pub fn bench_owned<I, O>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    group_name: &str,
    function: &str,
    parameter: &str,
    setup: impl Fn() -> I,
    mut f: impl FnMut(I) -> O,
) {
    let input = setup();
    let stats = measure_alloc(|| f(black_box(input)));
    record(group_name, function, parameter, stats);
    group.bench_function(BenchmarkId::new(function, parameter), |b| {
        b.iter_batched(&setup, |input| f(black_box(input)), BatchSize::LargeInput)
    });
}

/// A plain copy of `src` into `dst`: the memcpy lower bound the tables compare against.
#[inline(never)]
pub fn memcpy(src: &[u8], dst: &mut [u8]) -> usize {
    let n = src.len().min(dst.len());
    dst[..n].copy_from_slice(&src[..n]);
    n
}
