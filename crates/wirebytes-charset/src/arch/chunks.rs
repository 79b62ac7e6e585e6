//! Slices seen as arrays of `N` elements and a shorter tail: what `<[T]>::as_chunks` gives
//! from Rust 1.88 on, for the older compilers the crate builds with.

/// A slice split into `N`-element arrays and the tail after them.
pub(crate) trait SplitChunks<T> {
    /// The whole `N`-element arrays from the start, and the fewer than `N` elements left.
    fn split_chunks<const N: usize>(&self) -> (&[[T; N]], &[T]);
}

impl<T> SplitChunks<T> for [T] {
    #[inline(always)]
    fn split_chunks<const N: usize>(&self) -> (&[[T; N]], &[T]) {
        const { assert!(N != 0, "chunks of no elements") };
        let whole = self.len() / N;
        let (head, tail) = self.split_at(whole * N);
        // SAFETY: `head` holds `whole * N` initialised `T`s; `[T; N]` has `T`'s alignment and
        // no padding between elements, so those are `whole` arrays, borrowed as `head` is.
        let arrays = unsafe { core::slice::from_raw_parts(head.as_ptr().cast(), whole) };
        (arrays, tail)
    }
}

#[cfg(test)]
mod tests {
    use super::SplitChunks;

    #[test]
    fn arrays_then_the_tail() {
        let bytes: [u8; 11] = core::array::from_fn(|i| i as u8);
        let (arrays, tail) = bytes.split_chunks::<4>();
        assert_eq!(arrays, &[[0, 1, 2, 3], [4, 5, 6, 7]]);
        assert_eq!(tail, &[8, 9, 10]);
        let (arrays, tail) = bytes[..3].split_chunks::<4>();
        assert!(arrays.is_empty());
        assert_eq!(tail.len(), 3);
    }
}
