//! An immutable rope byte string of shared [`bytes::Bytes`] fragments, after Pekko's
//! `ByteString`: O(1) clone; slicing and concatenation that never copy bytes; content
//! equality and hashing, O(1) sequential indexing and searches across fragment boundaries.
//!
//! Slicing costs O(log n + k) and concatenation O(k) for `k` fragments (the fragment list
//! is rebuilt; the bytes are shared); [`ByteString::append`] is amortised O(k) in the
//! fragments appended when the string is not shared.
//!
//! ```
//! use bytes::{Buf, Bytes};
//! use wirebytes_rope::ByteString;
//!
//! // Two TCP reads arrive as two buffers; the frame straddles them.
//! let first = ByteString::from(Bytes::from_static(b"\x05\x00\x00\x00hel"));
//! let second = ByteString::from(Bytes::from_static(b"lo, rest"));
//! let received = first.concat(&second); // no byte is copied
//!
//! assert_eq!(received, b"\x05\x00\x00\x00hello, rest"[..]);
//! assert_eq!(received.find(b"llo"), Some(6)); // a match across the boundary
//!
//! let mut reader = received.reader();
//! let len = reader.get_u32_le() as usize;
//! let frame = reader.split_to(len); // a ByteString again: still no copy
//! assert_eq!(frame, "hello");
//! assert_eq!(frame.get(1), Some(b'e'));
//! ```
//!
//! # Framing a stream
//!
//! [`ByteQueue`] is the buffer of a framing decoder: each socket read is pushed as one
//! fragment, each frame is taken off the front as a `ByteString` sharing the reads it spans,
//! and a read is released as soon as its last byte is consumed.
//!
//! ```
//! use std::io::{self, Read};
//! use bytes::{Buf, BytesMut};
//! use wirebytes_rope::{ByteQueue, ByteString};
//!
//! /// Reads u32-big-endian-length-prefixed frames from `socket` (a `TcpStream`, say) until
//! /// it closes, handing each to `on_frame`.
//! fn read_frames(socket: &mut impl Read, mut on_frame: impl FnMut(ByteString)) -> io::Result<()> {
//!     let mut queue = ByteQueue::new();
//!     loop {
//!         let mut buf = BytesMut::zeroed(16 * 1024);
//!         let n = socket.read(&mut buf)?;
//!         if n == 0 {
//!             return Ok(());
//!         }
//!         buf.truncate(n);
//!         queue.push(buf.freeze()); // no copy
//!         while let Some(len) = queue.peek_u32_be(0) {
//!             let len = len as usize;
//!             if queue.len() < 4 + len {
//!                 break; // the rest of the frame has not arrived yet
//!             }
//!             queue.advance(4);
//!             on_frame(queue.split_to(len)); // no copy either
//!         }
//!     }
//! }
//!
//! let wire: &[u8] = b"\0\0\0\x05hello\0\0\0\x06, rope";
//! let mut frames = Vec::new();
//! read_frames(&mut &wire[..], |frame| frames.push(frame)).unwrap();
//! assert_eq!(frames, ["hello", ", rope"]);
//! ```
//!
//! # Representation
//!
//! A string of one fragment is just a [`Bytes`](bytes::Bytes): no allocation beyond the one
//! the `Bytes` already owns. A string of two or three fragments holds them inline, still with
//! no allocation of its own, so a frame that straddles one or two read boundaries costs none;
//! `get` picks the fragment with one or two comparisons. A string of four or more fragments
//! is an `Arc` holding the fragments
//! with their start offsets and one atomic *hint*: the index of the fragment the last
//! [`ByteString::get`] resolved. Sequential reads forwards or backwards check that fragment
//! and its neighbours before falling back to a binary search, so a scan costs O(1) per byte
//! instead of re-walking the fragment list. The offsets never change once built, so a hint
//! read by one thread while another thread moves it can never pair one fragment's start with
//! another fragment's bytes: a stale hint only costs a search.
//!
//! `Eq`, `Ord` and `Hash` look at content only. `Hash` feeds every `Hasher` the same
//! sequence of `write` calls whatever the fragmentation (the length, then 128-byte blocks
//! and a tail), so a rope and its compacted copy hash alike
//! under FxHash, ahash or foldhash too, not only under SipHash.
//!
//! [`ByteString::reader`] borrows the string and keeps the rest of the current fragment as a
//! plain slice, so reads inside a fragment cost what they cost on a `&[u8]`;
//! [`ByteString::into_reader`] owns the string (`'static`, `Send`). Both implement
//! [`bytes::Buf`] and [`std::io::Read`]. [`ByteStringBuilder`] implements
//! [`bytes::BufMut`].
//!
//! # Iterators and conversions
//!
//! [`ByteString::iter`] (and `&ByteString`'s `IntoIterator`) gives the bytes as an [`Iter`];
//! [`ByteString::chunks`] and [`ByteQueue::chunks`] the fragments as `&[u8]` ([`Chunks`]),
//! [`ByteString::fragments`] and [`ByteQueue::fragments`] as shared `Bytes`
//! ([`Fragments`]). A `ByteString` is made from `Bytes`, `Vec<u8>`, `String` or static bytes
//! without a copy, or by [`ByteString::copy_from_slice`]; it turns into one `Bytes`
//! ([`ByteString::compact`]), a `Vec<u8>` (`Vec::from`, which takes the buffer of a string
//! of one unshared fragment instead of copying it) or a `str` ([`ByteString::to_str`]).
//!
//! ```
//! use wirebytes_rope::ByteString;
//!
//! let s = ByteString::copy_from_slice(b"key=").concat(&ByteString::from_static(b"value"));
//! assert_eq!(s.iter().filter(|&b| b == b'e').count(), 2);
//! assert_eq!(s.chunks().collect::<Vec<&[u8]>>(), [&b"key="[..], b"value"]);
//! assert_eq!(s.to_str().unwrap(), "key=value"); // one copy: two fragments
//! assert_eq!(Vec::from(s), b"key=value");
//! ```
//!
//! # Crate features
//!
//! The crate needs `std` (through `bytes`' `std` feature, for [`std::io::Read`] and vectored
//! reads). Features only add:
//!
//! - `serde`: `Serialize` and `Deserialize` for [`ByteString`], as one byte string (as
//!   `bytes::Bytes` has them): JSON writes an array of numbers, postcard and bincode a
//!   length and the bytes.
//! - `tokio`: [`ByteQueue::read_buf_from`], which reads from a tokio `AsyncRead` into
//!   uninitialised room of a reused buffer, one fragment per read, and [`FrameReader`], a
//!   `Stream` of frames cut by a length field ([`LengthDelimited`], the settings of
//!   tokio-util's `LengthDelimitedCodec`) or a delimiter ([`Delimited`]).
#![cfg_attr(docsrs, feature(doc_cfg))]
// `deny`, not `forbid`: `bytes::BufMut` is an unsafe trait, so the builder's `unsafe impl`
// (which forwards to `BytesMut`) needs a local `allow`, and so does the AVX-512 kernel of
// equality under `arch`. There is no other `unsafe`.
#![deny(unsafe_code)]
// The `_with` forms that take a kernel level and the kernels' level list serve the hidden
// `levels` door alone: without `__internal` nothing calls them.
#![cfg_attr(
    not(feature = "__internal"),
    allow(dead_code, reason = "what only the hidden `levels` door calls")
)]

mod arch;
mod builder;
mod cmp;
mod convert;
mod counters;
mod counting;
#[cfg(feature = "tokio")]
mod framing;
mod into_reader;
mod iter;
#[cfg(feature = "__internal")]
#[doc(hidden)]
pub mod levels;
mod queue;
#[cfg(feature = "tokio")]
mod read;
mod reader;
#[cfg(feature = "__internal")]
#[doc(hidden)]
pub mod reference;
mod repr;
mod search;
#[cfg(feature = "serde")]
mod serde_impl;
mod string;

/// The `bytes` crate this one builds on, re-exported so that callers use the same version.
pub use bytes;

pub use builder::ByteStringBuilder;
#[cfg(feature = "tokio")]
#[cfg_attr(docsrs, doc(cfg(feature = "tokio")))]
pub use framing::{Delimited, FrameReader, FrameTooLong, LengthDelimited};
pub use into_reader::IntoReader;
pub use iter::{Chunks, Fragments, Iter};
pub use queue::{ByteQueue, View};
pub use reader::Reader;
pub use string::ByteString;

/// The README's example, run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctest;
