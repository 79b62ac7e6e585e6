//! [`ChunkOut`]: the chunk a `BufMut` offers, as a [`Sink`]; [`put_chunk`] hands what was
//! written in it to the buffer.

use bytes::BufMut;
use bytes::buf::UninitSlice;

use super::Sink;

/// A `BufMut` chunk written from its start: `chunk[..len]` is written (with initialised
/// bytes, by `copy_from_slice`), and only the methods here grow `len`.
#[derive(Debug)]
pub(crate) struct ChunkOut<'a> {
    chunk: &'a mut UninitSlice,
    len: usize,
}

impl Sink for ChunkOut<'_> {
    #[inline(always)]
    fn put(&mut self, piece: &[u8]) -> bool {
        let end = self.len + piece.len();
        if end > self.chunk.len() {
            return false;
        }
        self.chunk[self.len..end].copy_from_slice(piece);
        self.len = end;
        true
    }

    #[inline(always)]
    fn put_part(&mut self, run: &[u8]) -> usize {
        let n = run.len().min(self.chunk.len() - self.len);
        self.chunk[self.len..self.len + n].copy_from_slice(&run[..n]);
        self.len += n;
        n
    }
}

/// Runs `fill` on the chunk `dst` offers ([`BufMut::chunk_mut`]), then hands the bytes it
/// wrote to `dst` ([`BufMut::advance_mut`]); returns what `fill` returned.
#[inline]
pub(crate) fn put_chunk<B: BufMut + ?Sized, R>(
    dst: &mut B,
    fill: impl FnOnce(&mut ChunkOut<'_>) -> R,
) -> R {
    let mut out = ChunkOut {
        chunk: dst.chunk_mut(),
        len: 0,
    };
    let result = fill(&mut out);
    let written = out.len;
    // SAFETY: the first `written` bytes of the chunk are initialised (`ChunkOut` counts only
    // what `copy_from_slice` wrote, from its start), and `written` is at most the chunk's
    // length, itself at most `remaining_mut()`.
    unsafe { dst.advance_mut(written) };
    result
}

#[cfg(test)]
mod tests {
    use alloc::vec::Vec;

    use super::*;

    #[test]
    fn only_what_was_written_is_handed_over() {
        let mut room = wirebytes_testkit::buf::OneByteRoom::with(b"h");
        let put = put_chunk(&mut room, |out| (out.put(b"ab"), out.put_part(b"cd")));
        assert_eq!(put, (false, 1));
        let put = put_chunk(&mut room, |out| out.put(b"d"));
        assert!(put);
        assert_eq!(room.bytes(), b"hcd");
        let mut vec = Vec::with_capacity(4);
        put_chunk(&mut vec, |out| out.put_part(b"0123456789"));
        assert!(vec.starts_with(b"0123") && !vec.is_empty());
    }

    #[test]
    fn runs_of_units_are_narrowed_as_far_as_the_chunk_holds() {
        let units: Vec<u16> = (0..70u16).map(|k| 0x30 + k % 40).collect();
        let want: Vec<u8> = units.iter().map(|&u| u as u8).collect();
        // A chunk of 100 bytes or more takes the 70 (three blocks of up to 32), one byte the
        // first alone.
        let mut vec = Vec::with_capacity(100);
        assert_eq!(put_chunk(&mut vec, |out| out.put_part_narrowed(&units)), 70);
        assert_eq!(vec, want);
        let mut room = wirebytes_testkit::buf::OneByteRoom::with(b"");
        assert_eq!(put_chunk(&mut room, |out| out.put_part_narrowed(&units)), 1);
        assert_eq!(room.bytes(), &want[..1]);
    }
}
