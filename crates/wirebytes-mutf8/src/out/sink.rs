//! [`Sink`]: where the encoders write, a piece at a time; and [`SliceOut`], the caller's
//! `&mut [u8]` as one.

use alloc::vec::Vec;

/// What an encoder writes into. A piece (a sequence the encoder builds) goes in whole or
/// not at all; a run of bytes copied from the input may be cut, so that it fills what room
/// there is.
pub(crate) trait Sink {
    /// Appends all of `piece`, or nothing when it does not fit; whether it did.
    fn put(&mut self, piece: &[u8]) -> bool;

    /// Appends as many of the first bytes of `run` as fit; how many.
    fn put_part(&mut self, run: &[u8]) -> usize;

    /// Appends the low bytes of as many of the first units of `run` (each below `0x80`) as
    /// fit; how many.
    #[inline]
    fn put_part_narrowed(&mut self, run: &[u16]) -> usize {
        let mut done = 0;
        for units in run.chunks(32) {
            let mut block = [0u8; 32];
            for (b, &u) in block.iter_mut().zip(units) {
                *b = u as u8;
            }
            let put = self.put_part(&block[..units.len()]);
            done += put;
            if put < units.len() {
                break;
            }
        }
        done
    }
}

/// The caller's `Vec`: everything fits (it grows if the caller reserved too little).
impl Sink for Vec<u8> {
    #[inline(always)]
    fn put(&mut self, piece: &[u8]) -> bool {
        self.extend_from_slice(piece);
        true
    }

    #[inline(always)]
    fn put_part(&mut self, run: &[u8]) -> usize {
        self.extend_from_slice(run);
        run.len()
    }

    #[inline]
    fn put_part_narrowed(&mut self, run: &[u16]) -> usize {
        self.extend(run.iter().map(|&u| u as u8));
        run.len()
    }
}

/// A `&mut [u8]` written from its start; `len` bytes so far.
#[derive(Debug)]
pub(crate) struct SliceOut<'a> {
    buf: &'a mut [u8],
    len: usize,
}

impl<'a> SliceOut<'a> {
    /// A writer at the start of `buf`.
    #[inline(always)]
    pub(crate) fn new(buf: &'a mut [u8]) -> Self {
        SliceOut { buf, len: 0 }
    }

    /// How many bytes are written.
    #[inline(always)]
    pub(crate) fn len(&self) -> usize {
        self.len
    }
}

impl Sink for SliceOut<'_> {
    #[inline(always)]
    fn put(&mut self, piece: &[u8]) -> bool {
        let end = self.len + piece.len();
        match self.buf.get_mut(self.len..end) {
            Some(dst) => {
                dst.copy_from_slice(piece);
                self.len = end;
                true
            }
            None => false,
        }
    }

    #[inline(always)]
    fn put_part(&mut self, run: &[u8]) -> usize {
        let room = &mut self.buf[self.len..];
        let n = run.len().min(room.len());
        room[..n].copy_from_slice(&run[..n]);
        self.len += n;
        n
    }

    #[inline]
    fn put_part_narrowed(&mut self, run: &[u16]) -> usize {
        let room = &mut self.buf[self.len..];
        let n = run.len().min(room.len());
        for (b, &u) in room[..n].iter_mut().zip(run) {
            *b = u as u8;
        }
        self.len += n;
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slice_takes_pieces_whole_and_runs_in_part() {
        let mut buf = [0xAAu8; 7];
        let mut out = SliceOut::new(&mut buf);
        assert!(out.put(b"ab"));
        assert_eq!(out.put_part(b"cd"), 2);
        assert!(!out.put(b"efgh"), "3 bytes of room");
        assert_eq!(out.put_part_narrowed(&[0x65, 0x66]), 2);
        assert_eq!(out.put_part(b"ghij"), 1);
        assert_eq!(out.put_part_narrowed(&[0x41]), 0);
        assert!(out.put(b""));
        assert_eq!(out.len(), 7);
        assert_eq!(&buf, b"abcdefg");
        let mut vec = b"x".to_vec();
        assert!(vec.put(b"ab"));
        assert_eq!(vec.put_part_narrowed(&[0x63; 40]), 40);
        assert_eq!(vec.len(), 43);
    }
}
