//! Where outputs are built: writers that fill a `Vec`, a `String` or a `BufMut` chunk front
//! to back without zero-fill, and the proof that bytes are UTF-8. Portable code; with
//! [`crate::arch`], the only place in the crate with `unsafe`, each block with its
//! `// SAFETY:` comment.
//!
//! [`SpareVec`] and [`Utf8Vec`] write outputs front to back without zero-fill. Their safe
//! methods keep only what they wrote ([`Utf8Vec`]: only whole UTF-8 sequences), so no
//! argument can make the `Vec` expose an unwritten element or the `String` hold a byte
//! sequence that is not UTF-8. The kernels of [`crate::arch`] write into them through
//! `with_kernel`, an `unsafe fn` whose guarantees are the kernels' contracts.
//!
//! [`append_short_ascii`] and [`push_short_ascii`] append a body of at most 64 ASCII bytes to
//! a `Vec<u8>`, `Vec<u16>` or `String` in one pass: overlapping loads of 16, 8 or 4 bytes,
//! each stored (widened with SSE2 on x86, by words elsewhere) into the spare capacity as it
//! is loaded; the length is set only when no byte had its high bit set.
//!
//! [`Utf8Prefix`] is the proof that the start of a body is UTF-8: its fields are private, and
//! it is made only by [`Kernels::utf8_check`](crate::arch::Kernels::utf8_check), by the ASCII
//! test and by a `&str` of the same bytes (see [`Utf8Prefix::extend_str`]). [`short_ascii`]
//! and [`string_from_vec`] turn proven bytes into a `str` or a `String` without a second
//! look.
//!
//! [`Sink`] is what the encoders write into, a piece at a time: the caller's `Vec` (room
//! reserved first), a `&mut [u8]` ([`SliceOut`]), or a `BufMut` chunk (`ChunkOut`, through
//! [`put_chunk`], which hands the written bytes to the buffer with `advance_mut`).

#[cfg(feature = "bytes")]
mod chunk;
mod proof;
mod short;
mod sink;
mod spare_vec;
mod utf8_vec;

#[cfg(feature = "bytes")]
pub(crate) use chunk::put_chunk;
#[cfg(any(feature = "std", feature = "bytes"))]
pub(crate) use proof::string_from_vec;
pub(crate) use proof::{Utf8Prefix, short_ascii};
pub(crate) use short::{append_short_ascii, push_short_ascii};
pub(crate) use sink::{Sink, SliceOut};
pub(crate) use spare_vec::SpareVec;
pub(crate) use utf8_vec::Utf8Vec;
