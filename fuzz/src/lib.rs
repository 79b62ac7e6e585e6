//! What the fuzz targets share: text and UTF-16 units out of raw bytes, and the byte sources
//! (a `Buf` of many chunks, an `io::Read` of short reads) the record readers are fed from.
//!
//! Every target's input is a few fixed fields followed by a raw payload, which `arbitrary`
//! takes to the end of the input: a seed file is a short header and then the bytes of one
//! adversarial input, as `examples/seeds.rs` writes them.

use std::io;

use bytes::Buf;

/// The payload as text: the bytes as UTF-8, each invalid sequence replaced by U+FFFD, so that
/// every byte of the payload shapes the text.
pub fn text(payload: &[u8]) -> String {
    String::from_utf8_lossy(payload).into_owned()
}

/// The payload as UTF-16 code units, two bytes each (little-endian; an odd last byte is one
/// unit): lone surrogates and every unit value reachable.
pub fn units(payload: &[u8]) -> Vec<u16> {
    payload
        .chunks(2)
        .map(|pair| u16::from_le_bytes([pair[0], pair.get(1).copied().unwrap_or(0)]))
        .collect()
}

/// Chunk lengths cut from `data`'s length by a cycle of `cuts` (each taken as 1..=256 bytes;
/// no cut gives one chunk), no chunk empty.
pub fn chunk_lengths(len: usize, cuts: &[u8]) -> Vec<usize> {
    scaled_chunk_lengths(len, cuts, 1)
}

/// [`chunk_lengths`] with each cut `scale` times as long.
pub fn scaled_chunk_lengths(len: usize, cuts: &[u8], scale: usize) -> Vec<usize> {
    let mut out = Vec::new();
    let mut left = len;
    let mut i = 0;
    while left > 0 {
        let take = if cuts.is_empty() {
            left
        } else {
            (usize::from(cuts[i % cuts.len()]) + 1) * scale
        };
        let take = take.min(left);
        out.push(take);
        left -= take;
        i += 1;
    }
    out
}

/// A `Buf` over `data` that shows one chunk at a time, cut at `lengths`; with `vectored`, its
/// `chunks_vectored` shows every chunk left (as `Chain` and `VecDeque<u8>` do), otherwise
/// only the current one (the trait's default).
#[derive(Debug)]
pub struct Chunked<'a> {
    data: &'a [u8],
    /// The end of each chunk in `data`.
    ends: Vec<usize>,
    pos: usize,
    vectored: bool,
}

impl<'a> Chunked<'a> {
    /// `data` cut by [`chunk_lengths`] of `cuts`.
    pub fn new(data: &'a [u8], cuts: &[u8], vectored: bool) -> Self {
        let mut ends = Vec::new();
        let mut end = 0;
        for len in chunk_lengths(data.len(), cuts) {
            end += len;
            ends.push(end);
        }
        Chunked {
            data,
            ends,
            pos: 0,
            vectored,
        }
    }

    /// The length of the chunk the buffer shows now.
    pub fn first_chunk_len(&self) -> usize {
        self.chunk().len()
    }

    /// How many bytes have been consumed.
    pub fn consumed(&self) -> usize {
        self.pos
    }

    fn chunk_end(&self, pos: usize) -> usize {
        let i = self.ends.partition_point(|&end| end <= pos);
        self.ends.get(i).copied().unwrap_or(self.data.len())
    }
}

impl Buf for Chunked<'_> {
    fn remaining(&self) -> usize {
        self.data.len() - self.pos
    }

    fn chunk(&self) -> &[u8] {
        &self.data[self.pos..self.chunk_end(self.pos)]
    }

    fn advance(&mut self, cnt: usize) {
        assert!(cnt <= self.remaining(), "advance past the end");
        self.pos += cnt;
    }

    fn chunks_vectored<'b>(&'b self, dst: &mut [io::IoSlice<'b>]) -> usize {
        if !self.vectored {
            if dst.is_empty() || self.remaining() == 0 {
                return 0;
            }
            dst[0] = io::IoSlice::new(self.chunk());
            return 1;
        }
        let mut pos = self.pos;
        let mut n = 0;
        while n < dst.len() && pos < self.data.len() {
            let end = self.chunk_end(pos);
            dst[n] = io::IoSlice::new(&self.data[pos..end]);
            n += 1;
            pos = end;
        }
        n
    }
}

/// What a [`ShortReads`] does on one `read` call, from a cycle of schedule bytes: bit 7 set
/// returns `Interrupted` (and nothing else happens), otherwise at most `(b & 0x7F) + 1` bytes
/// are delivered.
#[derive(Debug)]
pub struct ShortReads<'a> {
    data: &'a [u8],
    pos: usize,
    schedule: &'a [u8],
    call: usize,
    /// After this many bytes delivered, one read fails with `ErrorKind::Other`.
    fail_at: Option<usize>,
    failed: bool,
}

impl<'a> ShortReads<'a> {
    /// A reader of `data` following `schedule`, failing once when `fail_at` bytes have been
    /// delivered.
    pub fn new(data: &'a [u8], schedule: &'a [u8], fail_at: Option<usize>) -> Self {
        ShortReads {
            data,
            pos: 0,
            schedule,
            call: 0,
            fail_at,
            failed: false,
        }
    }

    /// How many bytes have been delivered.
    pub fn delivered(&self) -> usize {
        self.pos
    }
}

impl io::Read for ShortReads<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let step = if self.schedule.is_empty() {
            0x7F
        } else {
            self.schedule[self.call % self.schedule.len()]
        };
        self.call += 1;
        // A schedule of interruptions only would never end.
        if step & 0x80 != 0 && !self.call.is_multiple_of(8) {
            return Err(io::Error::from(io::ErrorKind::Interrupted));
        }
        let mut max = usize::from(step & 0x7F) + 1;
        if let Some(at) = self.fail_at {
            if !self.failed && self.pos >= at {
                self.failed = true;
                return Err(io::Error::other("injected failure"));
            }
            if !self.failed {
                max = max.min(at - self.pos);
            }
        }
        let n = buf.len().min(max).min(self.data.len() - self.pos);
        buf[..n].copy_from_slice(&self.data[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

/// `a` and `b` are equal, or the target panics naming `what` and showing `context`.
#[track_caller]
pub fn same<T: PartialEq + std::fmt::Debug>(what: &str, context: &dyn std::fmt::Debug, a: T, b: T) {
    if a != b {
        panic!(
            "{what} differs for {}:\n  expected {}\n  actual   {}",
            shorten(format!("{context:?}")),
            shorten(format!("{a:?}")),
            shorten(format!("{b:?}")),
        );
    }
}

/// `text` cut to its first 2000 chars, saying how much was left out.
fn shorten(text: String) -> String {
    const MAX: usize = 2000;
    match text.char_indices().nth(MAX) {
        Some((at, _)) => format!("{}... ({} more bytes)", &text[..at], text.len() - at),
        None => text,
    }
}
