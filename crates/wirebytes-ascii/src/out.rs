//! [`Out`], the writer every copy goes through: a destination of initialised (`&mut [u8]`) or
//! uninitialised (`Vec` spare capacity, a `BufMut` chunk) bytes, of which a prefix is written
//! and counted. Only its methods write, each only initialised bytes, and the count only grows
//! over bytes they wrote; so the counted prefix is initialised by construction, and
//! [`extend_vec`] can hand it to the `Vec` without zero-filling it first.

use core::mem::MaybeUninit;

use crate::chunks::SplitChunks;

/// A destination and how much of it is written: `buf[..len]` is initialised and is the
/// output so far; `buf[len..]` is the room left. Bytes past `len` may have been written too
/// (a wide store keeps fewer bytes than it writes), but they are not output.
pub(crate) struct Out<'a> {
    buf: &'a mut [MaybeUninit<u8>],
    len: usize,
}

impl<'a> Out<'a> {
    /// A writer over initialised bytes, from its start.
    #[inline(always)]
    pub(crate) fn new(dst: &'a mut [u8]) -> Self {
        let len = dst.len();
        // SAFETY: `MaybeUninit<u8>` has the layout of `u8`, and the slice covers the same
        // `len` bytes. The one thing a `&mut [MaybeUninit<u8>]` allows that a `&mut [u8]`
        // does not, writing an uninitialised byte, no method of `Out` does: every write takes
        // a `u8`.
        let buf = unsafe { core::slice::from_raw_parts_mut(dst.as_mut_ptr().cast(), len) };
        Out { buf, len: 0 }
    }

    /// A writer over bytes that may be uninitialised, from its start.
    #[cfg(any(feature = "alloc", feature = "bytes"))]
    #[inline(always)]
    pub(crate) fn uninit(dst: &'a mut [MaybeUninit<u8>]) -> Self {
        Out { buf: dst, len: 0 }
    }

    /// The bytes written and counted so far.
    #[inline(always)]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The bytes that can still be written.
    #[inline(always)]
    pub(crate) fn room(&self) -> usize {
        self.buf.len() - self.len
    }

    /// The output so far.
    #[cfg(any(feature = "alloc", test))]
    #[inline(always)]
    pub(crate) fn written(&self) -> &[u8] {
        let done = &self.buf[..self.len];
        // SAFETY: `buf[..len]` is initialised (the type's invariant), and `MaybeUninit<u8>`
        // has the layout of `u8`.
        unsafe { core::slice::from_raw_parts(done.as_ptr().cast(), done.len()) }
    }

    /// Writes all `N` bytes at the end of the output and counts the first `keep` of them
    /// (at most `N`): the rest are scratch that later output overwrites, or that stays past
    /// the count. Returns `false`, writing nothing, when fewer than `N` bytes of room are left.
    #[inline(always)]
    pub(crate) fn store<const N: usize>(&mut self, bytes: [u8; N], keep: usize) -> bool {
        let Some(slot) = self
            .buf
            .get_mut(self.len..)
            .and_then(<[MaybeUninit<u8>]>::first_chunk_mut::<N>)
        else {
            return false;
        };
        *slot = bytes.map(MaybeUninit::new);
        self.len += keep.min(N);
        true
    }

    /// Writes `values[i]` for every `i`, each where the next output byte goes, and counts
    /// the ones whose `ends[i]` is 1 (`ends` holds 0 and 1 only): the bytes that end a char
    /// are packed together, with one store and one add per byte and no branch. The others
    /// are written over by the next, or stay past the count. Returns `false`, writing
    /// nothing, when fewer than `N` bytes of room are left.
    #[inline(always)]
    pub(crate) fn pack<const N: usize>(&mut self, values: &[u8; N], ends: &[u8; N]) -> bool {
        let Some(slot) = self
            .buf
            .get_mut(self.len..)
            .and_then(<[MaybeUninit<u8>]>::first_chunk_mut::<N>)
        else {
            return false;
        };
        let mut units = 0;
        for (&value, &end) in values.iter().zip(ends) {
            // `units` counts ends among the bytes before this one: at most its index.
            slot[units % N].write(value);
            units += usize::from(end & 1);
        }
        self.len += units;
        true
    }

    /// Writes the blocks of `blocks` one after the other from the end of the output, counted,
    /// while `plain` holds for them and the room lasts; returns how many. Each block is
    /// loaded once, tested and stored from the same registers.
    #[inline(always)]
    pub(crate) fn store_blocks_while<const N: usize>(
        &mut self,
        blocks: &[[u8; N]],
        plain: impl Fn(&[u8; N]) -> bool,
    ) -> usize {
        let (slots, _) = self.buf[self.len..].split_chunks_mut::<N>();
        let mut stored = 0;
        for (block, slot) in blocks.iter().zip(slots) {
            let bytes = *block;
            if !plain(&bytes) {
                break;
            }
            *slot = bytes.map(MaybeUninit::new);
            stored += 1;
        }
        self.len += stored * N;
        stored
    }

    /// Appends the first `count` bytes of `word` (at most 8 and at most the room), and writes
    /// no byte past them: two overlapping stores of 4 (or 2) bytes, or one of 8.
    #[inline(always)]
    pub(crate) fn put_word(&mut self, word: u64, count: usize) {
        debug_assert!(count <= 8 && count <= self.room());
        let part = |shift: usize| word >> (8 * shift);
        match count {
            8.. => {
                self.store(word.to_le_bytes(), 8);
            }
            4..8 => {
                self.store((word as u32).to_le_bytes(), count - 4);
                self.store((part(count - 4) as u32).to_le_bytes(), 4);
            }
            2..4 => {
                self.store((word as u16).to_le_bytes(), count - 2);
                self.store((part(count - 2) as u16).to_le_bytes(), 2);
            }
            1 => {
                self.push(word as u8);
            }
            0 => {}
        }
    }

    /// Appends one byte; `false`, writing nothing, when there is no room.
    #[inline(always)]
    pub(crate) fn push(&mut self, byte: u8) -> bool {
        let Some(slot) = self.buf.get_mut(self.len) else {
            return false;
        };
        slot.write(byte);
        self.len += 1;
        true
    }

    /// Appends as much of `src` as there is room for, and returns how much that was.
    #[inline(always)]
    pub(crate) fn extend_from_slice(&mut self, src: &[u8]) -> usize {
        let room = &mut self.buf[self.len..];
        let n = src.len().min(room.len());
        for (slot, &byte) in room[..n].iter_mut().zip(&src[..n]) {
            slot.write(byte);
        }
        self.len += n;
        n
    }

    /// Hands the room to `kernel`, which writes from its start and returns what it read and
    /// how many bytes it wrote there, all initialised; the count grows by them.
    ///
    /// # Safety
    ///
    /// `kernel` must return a written count no larger than the room, having initialised
    /// every one of those bytes.
    #[cfg_attr(
        not(wirebytes_x86_kernels),
        expect(dead_code, reason = "only the x86-64 kernels write through it")
    )]
    #[inline(always)]
    pub(crate) unsafe fn with_room(
        &mut self,
        kernel: impl FnOnce(&mut [MaybeUninit<u8>]) -> (usize, usize),
    ) -> usize {
        let (read, written) = kernel(&mut self.buf[self.len..]);
        debug_assert!(written <= self.room());
        self.len += written;
        read
    }
}

/// Appends to `dst` what `fill` writes into its spare capacity, after reserving `reserve`
/// bytes once; when `fill` returns `Err`, `dst` keeps its length and bytes (its capacity may
/// have grown). No byte is zero-filled.
#[cfg(feature = "alloc")]
#[inline]
pub(crate) fn extend_vec<E>(
    dst: &mut alloc::vec::Vec<u8>,
    reserve: usize,
    fill: impl FnOnce(&mut Out<'_>) -> Result<(), E>,
) -> Result<(), E> {
    dst.reserve(reserve);
    let mut out = Out::uninit(dst.spare_capacity_mut());
    fill(&mut out)?;
    let added = out.len();
    // SAFETY: `out` was made over the spare capacity, whose first `added` bytes it has
    // initialised (its invariant), so `len + added <= capacity` and every byte below the new
    // length is initialised.
    unsafe { dst.set_len(dst.len() + added) };
    Ok(())
}

/// The chunk a `BufMut` offers, as a writer, and, once `fill` has written into it, the bytes
/// written are handed back with `advance_mut`.
#[cfg(feature = "bytes")]
#[inline]
pub(crate) fn put_chunk<B: bytes::BufMut + ?Sized, R>(
    dst: &mut B,
    fill: impl FnOnce(&mut Out<'_>) -> R,
) -> R {
    let chunk = dst.chunk_mut();
    // SAFETY: `Out` writes only initialised bytes (see `Out::new`), so it never writes an
    // uninitialised byte into the chunk, which is what `as_uninit_slice_mut` forbids.
    let mut out = Out::uninit(unsafe { chunk.as_uninit_slice_mut() });
    let result = fill(&mut out);
    let added = out.len();
    // SAFETY: the first `added` bytes of the chunk are initialised (`Out`'s invariant), and
    // `added` is at most the chunk's length, itself at most `remaining_mut`.
    unsafe { dst.advance_mut(added) };
    result
}

#[cfg(test)]
mod tests {
    use super::Out;

    #[test]
    fn store_counts_only_what_it_keeps_and_refuses_without_room() {
        let mut buf = [0xA5u8; 10];
        let mut out = Out::new(&mut buf);
        assert!(out.store(*b"abcdefgh", 3));
        assert_eq!(out.written(), b"abc");
        assert_eq!(out.room(), 7);
        assert!(!out.store(*b"ABCDEFGH", 8), "7 bytes of room");
        assert!(out.push(b'd'));
        assert_eq!(out.extend_from_slice(b"0123456789"), 6);
        assert!(!out.push(b'!'));
        assert_eq!(out.len(), 10);
        assert_eq!(&buf, b"abcd012345");
    }

    #[test]
    fn a_store_past_the_count_is_overwritten_by_the_next() {
        let mut buf = [0u8; 12];
        let mut out = Out::new(&mut buf);
        assert!(out.store(*b"xyzXYZ--", 2));
        assert!(out.store(*b"0123", 4));
        assert_eq!(out.written(), b"xy0123");
        assert_eq!(&buf[..8], b"xy0123--");
    }
}
