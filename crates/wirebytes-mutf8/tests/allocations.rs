//! What the codec allocates: nothing to measure or borrow; one buffer to rewrite.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// Counts this thread's allocations (the test harness runs other tests on other threads).
struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: forwards every call to `System` unchanged; the counter is a thread-local `Cell`.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        // SAFETY: the caller's `layout` is passed on as it is.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `System` with this `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// How many allocations `f` makes on this thread.
fn allocations<T>(f: impl FnOnce() -> T) -> usize {
    let before = ALLOCATIONS.with(Cell::get);
    let out = std::hint::black_box(f());
    let after = ALLOCATIONS.with(Cell::get);
    drop(out);
    after - before
}

#[test]
fn measuring_and_borrowing_allocate_nothing() {
    let text = "plain ascii, then \u{e9}\u{20ac} and \0 and \u{1F600}".repeat(100);
    let plain = "plain \u{e9}\u{20ac} text".repeat(100);
    assert_eq!(allocations(|| wirebytes_mutf8::encoded_len(&text)), 0);
    assert_eq!(allocations(|| wirebytes_mutf8::encode(&plain)), 0);
    assert_eq!(
        allocations(|| wirebytes_mutf8::decode(plain.as_bytes()).map(|t| t.len())),
        0
    );
    assert_eq!(
        allocations(|| wirebytes_mutf8::decode(&[b'a'; 16]).map(|t| t.len())),
        0
    );
}

#[test]
fn rewriting_allocates_one_buffer() {
    let text = "mostly ascii \0 with \u{1F600} here and there ".repeat(100);
    let body = wirebytes_mutf8::encode(&text).into_owned();
    assert_eq!(allocations(|| wirebytes_mutf8::encode(&text)), 1);
    assert_eq!(allocations(|| wirebytes_mutf8::decode(&body)), 1);
    assert_eq!(allocations(|| wirebytes_mutf8::decode_utf16(&body)), 1);
    let units: Vec<u16> = text.encode_utf16().collect();
    assert_eq!(allocations(|| wirebytes_mutf8::encode_utf16(&units)), 1);
}
