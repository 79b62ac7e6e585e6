//! [`SpareVec`]: a `Vec` written front to back into its spare capacity, without zero-fill.

use alloc::vec::Vec;
use core::mem::MaybeUninit;

/// A writing kernel under `arch::x86`: `kernel(bytes, i, out, o) -> (i, o)` (see
/// [`crate::arch`] for the shape).
pub(crate) type WritingKernel<T> =
    unsafe fn(&[u8], usize, &mut [MaybeUninit<T>], usize) -> (usize, usize);

/// A `Vec<T>` built front to back: blocks are stored whole into the spare capacity and only
/// the part asked for is kept, so a loop can store a fixed-size block and keep as much of it
/// as turned out right.
///
/// Sound by construction: the `Vec`'s length only ever covers elements some method wrote,
/// whatever the arguments (a block is written whole before any of it is kept; `keep` is cut
/// to the block), and a write that does not fit the capacity grows the `Vec` first.
#[derive(Debug)]
pub(crate) struct SpareVec<T> {
    /// Its length counts the elements written and kept; past it, the spare capacity.
    vec: Vec<T>,
}

impl<T: Copy> SpareVec<T> {
    /// An empty writer with room for `capacity` elements.
    pub(crate) fn with_capacity(capacity: usize) -> Self {
        SpareVec {
            vec: Vec::with_capacity(capacity),
        }
    }

    /// A writer that keeps `vec`'s elements and writes after them, with room for
    /// `additional` more.
    pub(crate) fn appending_to(mut vec: Vec<T>, additional: usize) -> Self {
        vec.reserve(additional);
        SpareVec { vec }
    }

    /// Writes `block` after the kept elements and keeps its first `keep` (at most `N`). The
    /// elements written past those may be overwritten by the next store. With fewer than `N`
    /// elements of spare capacity, the `Vec` grows first.
    #[inline(always)]
    pub(crate) fn store<const N: usize>(&mut self, block: [T; N], keep: usize) {
        let len = self.vec.len();
        if let Some(dst) = self.vec.spare_capacity_mut().first_chunk_mut::<N>() {
            write_copy(dst, &block);
            // SAFETY: `keep.min(N) <= N`, and the `N` elements after `len` were just written.
            unsafe { self.vec.set_len(len + keep.min(N)) };
        } else {
            self.vec = grown_by(core::mem::take(&mut self.vec), block, keep.min(N));
        }
    }

    /// [`SpareVec::store`], with how many to keep (at most `N`) worked out once `block` is
    /// written; returns that number.
    #[inline(always)]
    pub(crate) fn store_keeping<const N: usize>(
        &mut self,
        block: [T; N],
        keep: impl FnOnce() -> usize,
    ) -> usize {
        let len = self.vec.len();
        if let Some(dst) = self.vec.spare_capacity_mut().first_chunk_mut::<N>() {
            write_copy(dst, &block);
            let keep = keep().min(N);
            // SAFETY: `keep <= N`, and the `N` elements after `len` were just written.
            unsafe { self.vec.set_len(len + keep) };
            keep
        } else {
            let keep = keep().min(N);
            self.vec = grown_by(core::mem::take(&mut self.vec), block, keep);
            keep
        }
    }

    /// Keeps `x`.
    #[inline(always)]
    pub(crate) fn push(&mut self, x: T) {
        self.store([x], 1);
    }

    /// Keeps a copy of `src`.
    #[inline(always)]
    pub(crate) fn extend_from_slice(&mut self, src: &[T]) {
        let len = self.vec.len();
        if let Some(dst) = self.vec.spare_capacity_mut().get_mut(..src.len()) {
            write_copy(dst, src);
            // SAFETY: the `src.len()` elements after `len` were just written.
            unsafe { self.vec.set_len(len + src.len()) };
        } else {
            self.vec = grown(core::mem::take(&mut self.vec), src);
        }
    }

    /// The kept elements.
    pub(crate) fn into_vec(self) -> Vec<T> {
        self.vec
    }

    /// Runs `kernel` on the buffer as the kernels under `arch::x86` take it:
    /// `kernel(bytes, i, out, o)` with `out` the whole buffer, at least `bytes.len()` long,
    /// and `o` the kept length; keeps the elements below the `o` it returns and returns its
    /// `i`. Nothing is done (`i` is returned) when more elements are kept than `i`, or `i` is
    /// past the end: the kernels write at most one element per byte read, from `o <= i`.
    ///
    /// # Safety
    ///
    /// `kernel` may be called (the CPU has what it needs); it writes only at or after the
    /// `o` it is given, returns an `o` at least as large, and has written every element
    /// below the `o` it returns.
    #[inline(always)]
    pub(crate) unsafe fn with_kernel(
        &mut self,
        bytes: &[u8],
        i: usize,
        kernel: WritingKernel<T>,
    ) -> usize {
        let o = self.vec.len();
        if o > i || i > bytes.len() {
            return i;
        }
        /// `vec` with room for `additional` more elements (as [`grown`]).
        #[cold]
        #[inline(never)]
        fn reserved<T>(mut vec: Vec<T>, additional: usize) -> Vec<T> {
            vec.reserve(additional);
            vec
        }
        if self.vec.capacity() < bytes.len() {
            self.vec = reserved(core::mem::take(&mut self.vec), bytes.len() - o);
        }
        let capacity = self.vec.capacity();
        // SAFETY: the `Vec`'s buffer holds `capacity` elements; `MaybeUninit<T>` has `T`'s
        // layout, and any element may be seen as one. The kernel writes only at or after `o`
        // (the caller's guarantee), so the kept elements stay as they are.
        let out = unsafe {
            core::slice::from_raw_parts_mut(
                self.vec.as_mut_ptr().cast::<MaybeUninit<T>>(),
                capacity,
            )
        };
        // SAFETY: the caller's guarantee.
        let (i, o) = unsafe { kernel(bytes, i, out, o) };
        assert!(o <= capacity, "a kernel kept more than the buffer holds");
        // SAFETY: `o <= capacity`, and every element below `o` is written: the kept ones
        // before, the kernel's after (the caller's guarantee).
        unsafe { self.vec.set_len(o) };
        i
    }
}

/// `vec` with `src` appended, after growing: the slow path of the stores, out of line. The
/// `Vec` goes through by value, so that the writer's own fields never have their address taken
/// and can stay in registers in the loops that use them.
#[cold]
#[inline(never)]
fn grown<T: Copy>(mut vec: Vec<T>, src: &[T]) -> Vec<T> {
    vec.extend_from_slice(src);
    vec
}

/// `vec` with the first `keep` elements of `block` appended, after growing (as [`grown`]).
#[cold]
#[inline(never)]
fn grown_by<T: Copy, const N: usize>(mut vec: Vec<T>, block: [T; N], keep: usize) -> Vec<T> {
    vec.extend_from_slice(&block[..keep]);
    vec
}

/// Copies `src` into `dst`, of the same length (what `write_copy_of_slice` does from Rust
/// 1.93 on).
#[inline(always)]
pub(super) fn write_copy<T: Copy>(dst: &mut [MaybeUninit<T>], src: &[T]) {
    assert_eq!(
        dst.len(),
        src.len(),
        "a copy between slices of different lengths"
    );
    // SAFETY: both are `src.len()` elements long; `dst` is borrowed mutably, so the two do
    // not overlap; `MaybeUninit<T>` has `T`'s layout; `T: Copy` leaves `src` as it was.
    unsafe {
        core::ptr::copy_nonoverlapping(src.as_ptr(), dst.as_mut_ptr().cast::<T>(), src.len())
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_keep_what_they_are_asked_to_and_grow_when_full() {
        let mut out = SpareVec::with_capacity(6);
        out.store([1u16, 2, 3, 4], 2);
        out.store([5, 6, 7, 8], 9);
        // No room for 4 more: only the kept ones are written, after growing.
        out.store([9, 10, 11, 12], 3);
        out.push(13);
        out.extend_from_slice(&[14, 15]);
        out.store([16, 17], 0);
        assert_eq!(out.into_vec(), [1, 2, 5, 6, 7, 8, 9, 10, 11, 13, 14, 15]);
        let mut out = SpareVec::with_capacity(0);
        out.push(1u8);
        out.store([2, 3, 4, 5, 6, 7, 8, 9], 8);
        assert_eq!(out.into_vec(), [1, 2, 3, 4, 5, 6, 7, 8, 9]);
    }
}
