//! Hostile `bytes` buffers for the tests of functions that read from a `Buf` or write into a
//! `BufMut`.

use std::mem::MaybeUninit;

/// A `Buf` over a slice that shows one byte per chunk, and has no `chunks_vectored` of its
/// own: every chunk a reader gets is one byte long, so a read that assumes a record sits in
/// one chunk is caught.
///
/// # Examples
///
/// ```
/// use bytes::Buf;
/// use wirebytes_testkit::buf::OneByteChunks;
///
/// let mut buf = OneByteChunks::new(b"abc");
/// assert_eq!(buf.chunk(), b"a");
/// assert_eq!(buf.get_u16(), u16::from_be_bytes(*b"ab"));
/// assert_eq!((buf.remaining(), buf.chunk()), (1, &b"c"[..]));
/// ```
#[derive(Debug, Clone)]
pub struct OneByteChunks<'a>(&'a [u8]);

impl<'a> OneByteChunks<'a> {
    /// A buffer that reads `bytes`, one per chunk.
    #[must_use]
    pub fn new(bytes: &'a [u8]) -> OneByteChunks<'a> {
        OneByteChunks(bytes)
    }
}

impl bytes::Buf for OneByteChunks<'_> {
    fn remaining(&self) -> usize {
        self.0.len()
    }

    fn chunk(&self) -> &[u8] {
        &self.0[..self.0.len().min(1)]
    }

    fn advance(&mut self, cnt: usize) {
        self.0 = &self.0[cnt..];
    }
}

/// A `BufMut` that offers one byte of room at a time, and grows: every chunk a writer gets
/// is one byte long, so a write that assumes more room than a chunk shows is caught.
///
/// # Examples
///
/// ```
/// use bytes::BufMut;
/// use wirebytes_testkit::buf::OneByteRoom;
///
/// let mut buf = OneByteRoom::with(b"");
/// assert_eq!(buf.chunk_mut().len(), 1);
/// buf.put_slice(b"abc");
/// assert_eq!(buf.bytes(), b"abc");
/// ```
#[derive(Debug)]
pub struct OneByteRoom(Vec<u8>, [MaybeUninit<u8>; 1]);

impl Default for OneByteRoom {
    fn default() -> Self {
        OneByteRoom::with(b"")
    }
}

impl OneByteRoom {
    /// A buffer that holds `head` already.
    #[must_use]
    pub fn with(head: &[u8]) -> OneByteRoom {
        OneByteRoom(head.to_vec(), [MaybeUninit::uninit()])
    }

    /// The bytes written so far, `head` included.
    #[must_use]
    pub fn bytes(&self) -> &[u8] {
        &self.0
    }
}

// SAFETY: `chunk_mut` is one byte that `advance_mut` copies in after the caller wrote it;
// `remaining_mut` is what a `Vec` may still hold.
unsafe impl bytes::BufMut for OneByteRoom {
    fn remaining_mut(&self) -> usize {
        isize::MAX as usize - self.0.len()
    }

    unsafe fn advance_mut(&mut self, cnt: usize) {
        assert!(cnt <= 1, "advanced past the room offered");
        if cnt == 1 {
            // SAFETY: the caller wrote the byte of room before advancing over it.
            self.0.push(unsafe { self.1[0].assume_init() });
        }
    }

    fn chunk_mut(&mut self) -> &mut bytes::buf::UninitSlice {
        bytes::buf::UninitSlice::uninit(&mut self.1)
    }
}
