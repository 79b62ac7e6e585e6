//! A global allocator that counts the allocations of each thread, for the tests of what a
//! function allocates (the test harness runs other tests on other threads).
//!
//! A global allocator belongs to a binary: each test file that measures declares
//! `#[global_allocator] static GLOBAL: CountingAlloc = CountingAlloc;`, then measures with
//! [`allocations`] and [`largest_allocation`], which panic when it did not.
//!
//! # Examples
//!
//! ```standalone_crate
//! use wirebytes_testkit::alloc::{CountingAlloc, allocations, largest_allocation};
//!
//! #[global_allocator]
//! static GLOBAL: CountingAlloc = CountingAlloc;
//!
//! fn main() {
//!     assert_eq!(allocations(|| vec![0u8; 100]), 1);
//!     assert_eq!(largest_allocation(|| vec![0u8; 100]), 100);
//!     assert_eq!(allocations(|| [0u8; 100]), 0);
//! }
//! ```

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// Forwards to [`System`], and counts each thread's allocations and the largest of them. A
/// `realloc` is counted as an allocation of the new size.
#[derive(Debug)]
pub struct CountingAlloc;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
    static LARGEST: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: forwards every call to `System` unchanged (`realloc` and `alloc_zeroed` through the
// trait's defaults, which call `alloc` and `dealloc`); the counters are thread-local `Cell`s.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        let _ = LARGEST.try_with(|n| n.set(n.get().max(layout.size())));
        // SAFETY: the caller's `layout` is passed on as it is.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `System` with this `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }
}

/// Panics unless [`CountingAlloc`] is the global allocator: without it every count would be
/// 0, and a test that expects none would pass whatever it measured.
fn assert_installed() {
    let before = ALLOCATIONS.with(Cell::get);
    drop(std::hint::black_box(Box::new(0u8)));
    assert!(
        ALLOCATIONS.with(Cell::get) > before,
        "CountingAlloc is not this binary's #[global_allocator]"
    );
}

/// How many allocations `f` makes on this thread (its output is dropped after counting).
///
/// # Panics
///
/// When [`CountingAlloc`] is not the global allocator:
///
/// ```standalone_crate,should_panic
/// // No `#[global_allocator]` in this binary.
/// wirebytes_testkit::alloc::allocations(|| vec![0u8; 100]);
/// ```
pub fn allocations<T>(f: impl FnOnce() -> T) -> usize {
    assert_installed();
    let before = ALLOCATIONS.with(Cell::get);
    let out = std::hint::black_box(f());
    let after = ALLOCATIONS.with(Cell::get);
    drop(out);
    after - before
}

/// The size in bytes of the largest single allocation `f` makes on this thread, 0 for none.
///
/// # Panics
///
/// When [`CountingAlloc`] is not the global allocator.
pub fn largest_allocation<T>(f: impl FnOnce() -> T) -> usize {
    assert_installed();
    LARGEST.with(|n| n.set(0));
    drop(std::hint::black_box(f()));
    LARGEST.with(Cell::get)
}
