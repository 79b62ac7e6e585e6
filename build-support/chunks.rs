//! Slices seen as arrays of `N` elements and a shorter tail: what `<[T]>::as_chunks` gives
//! from Rust 1.88 on, for the older compilers the crate builds with.

/// A slice split into `N`-element arrays and the tail after them.
pub(crate) trait SplitChunks<T> {
    /// The whole `N`-element arrays from the start, and the fewer than `N` elements left.
    fn split_chunks<const N: usize>(&self) -> (&[[T; N]], &[T]);
    /// [`SplitChunks::split_chunks`], mutable.
    #[allow(
        dead_code,
        reason = "not every crate that builds this file writes through it"
    )]
    fn split_chunks_mut<const N: usize>(&mut self) -> (&mut [[T; N]], &mut [T]);
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

    #[inline(always)]
    fn split_chunks_mut<const N: usize>(&mut self) -> (&mut [[T; N]], &mut [T]) {
        const { assert!(N != 0, "chunks of no elements") };
        let whole = self.len() / N;
        let (head, tail) = self.split_at_mut(whole * N);
        // SAFETY: as in `split_chunks`, and `head` is borrowed mutably, once.
        let arrays = unsafe { core::slice::from_raw_parts_mut(head.as_mut_ptr().cast(), whole) };
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
        let mut words = [0u16; 5];
        let (arrays, tail) = words.split_chunks_mut::<2>();
        arrays[1][0] = 7;
        tail[0] = 9;
        assert_eq!(words, [0, 0, 7, 0, 9]);
    }
}
