//! wirebytes-rope's `ByteQueue` under random operation sequences against a `VecDeque<u8>`
//! model: `push` / `extend`, `split_to` / `try_split_to`, `find` / `find_byte`, `get`,
//! `peek_*`, the `Buf` methods (`advance`, `copy_to_bytes`, `chunk`, `chunks_vectored`,
//! `get_*`), `io::Read`, `to_byte_string`, `clear`, `==` against `Vec<u8>` and `[u8]` both
//! ways, and the fragments it keeps (`chunks`, `fragments`).
#![no_main]

use std::collections::VecDeque;
use std::io::{self, Read};

use arbitrary::Arbitrary;
use bytes::{Buf, Bytes};
use libfuzzer_sys::fuzz_target;
use wirebytes_fuzz::{chunk_lengths, same};
use wirebytes_rope::{ByteQueue, reference};

#[derive(Arbitrary, Debug)]
enum Op {
    Push(Vec<u8>),
    /// One fragment of `pattern` repeated to `len` bytes (at most 4 KiB): long enough for the
    /// searches' in-place path.
    PushRepeated {
        pattern: Vec<u8>,
        len: u16,
    },
    /// `extend` with `data` cut by `cuts`.
    Extend {
        data: Vec<u8>,
        cuts: [u8; 2],
    },
    SplitTo(u16),
    TrySplitTo(u16),
    Find(Needle),
    FindByte(u8),
    Get(u16),
    Peek(u16),
    Advance(u16),
    CopyToBytes(u16),
    Chunk,
    ChunksVectored(u8),
    GetU8,
    GetU32,
    GetU16Le,
    Read(u16),
    ToByteString,
    Clear,
}

#[derive(Arbitrary, Debug)]
enum Needle {
    Bytes(Vec<u8>),
    /// `len` bytes of the queue from `start` (found more often than random bytes).
    Part {
        start: u16,
        len: u8,
    },
}

/// The queue's content, fragment by fragment, is the model's.
fn check(what: &str, q: &ByteQueue, model: &VecDeque<u8>) {
    let flat: Vec<u8> = model.iter().copied().collect();
    let context = (what, &flat);
    same("len", &context, flat.len(), q.len());
    same("is_empty", &context, flat.is_empty(), q.is_empty());
    same("remaining", &context, flat.len(), q.remaining());
    same(
        "chunks",
        &context,
        &flat,
        &q.chunks().collect::<Vec<_>>().concat(),
    );
    same(
        "fragment_count",
        &context,
        q.fragment_count(),
        q.chunks().len(),
    );
    same(
        "fragments",
        &context,
        &flat,
        &q.fragments().map(|b| &b[..]).collect::<Vec<_>>().concat(),
    );
    same(
        "chunks backwards",
        &context,
        &flat,
        &q.chunks()
            .rev()
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect::<Vec<_>>()
            .concat(),
    );
    assert!(
        q.chunks().all(|c| !c.is_empty()),
        "an empty fragment: {context:?}"
    );
    same(
        "eq",
        &context,
        true,
        *q == flat && flat == *q && *q == flat[..] && flat[..] == *q,
    );
    same(
        "to_byte_string",
        &context,
        &flat,
        &q.to_byte_string().to_vec(),
    );
}

/// The big-endian (or with `le`, little-endian) value of `N` bytes of `model` at `at`.
fn peek<const N: usize>(model: &VecDeque<u8>, at: usize, le: bool) -> Option<u64> {
    let end = at.checked_add(N)?;
    if end > model.len() {
        return None;
    }
    let bytes: Vec<u8> = model.range(at..end).copied().collect();
    let fold = |acc: u64, &b: &u8| acc << 8 | u64::from(b);
    Some(if le {
        bytes.iter().rev().fold(0, fold)
    } else {
        bytes.iter().fold(0, fold)
    })
}

fn take(model: &mut VecDeque<u8>, n: usize) -> Vec<u8> {
    model.drain(..n).collect()
}

fuzz_target!(|ops: Vec<Op>| {
    let mut q = ByteQueue::new();
    let mut model: VecDeque<u8> = VecDeque::new();
    for op in ops.iter().take(128) {
        let len = model.len();
        let clamp = |n: u16| usize::from(n) % (len + 1);
        let flat: Vec<u8> = model.iter().copied().collect();
        let context = (op, &flat);
        match op {
            Op::Push(data) => {
                q.push(Bytes::copy_from_slice(data));
                model.extend(data);
            }
            Op::PushRepeated { pattern, len } => {
                let len = usize::from(*len) % 4097;
                let data: Vec<u8> = if pattern.is_empty() {
                    vec![0; len]
                } else {
                    pattern.iter().copied().cycle().take(len).collect()
                };
                q.push(Bytes::from(data.clone()));
                model.extend(data);
            }
            Op::Extend { data, cuts } => {
                let mut at = 0;
                q.extend(chunk_lengths(data.len(), cuts).into_iter().map(|n| {
                    let part = Bytes::copy_from_slice(&data[at..at + n]);
                    at += n;
                    part
                }));
                model.extend(data);
            }
            Op::SplitTo(n) => {
                let n = clamp(*n);
                let part = q.split_to(n);
                same("split_to", &context, take(&mut model, n), part.to_vec());
            }
            Op::TrySplitTo(n) => {
                let n = usize::from(*n);
                let part = q.try_split_to(n).map(|s| s.to_vec());
                let want = (n <= len).then(|| take(&mut model, n));
                same("try_split_to", &context, want, part);
            }
            Op::Find(needle) => {
                let needle = match needle {
                    Needle::Bytes(bytes) => bytes.clone(),
                    Needle::Part { start, len: n } => {
                        let start = usize::from(*start) % (len + 1);
                        flat[start..(start + usize::from(*n)).min(len)].to_vec()
                    }
                };
                same(
                    "find",
                    &(&needle, &flat),
                    reference::find_naive(&flat, &needle),
                    q.find(&needle),
                );
            }
            Op::FindByte(byte) => {
                same(
                    "find_byte",
                    &context,
                    flat.iter().position(|b| b == byte),
                    q.find_byte(*byte),
                );
            }
            Op::Get(at) => {
                let at = usize::from(*at) % (len + 2);
                same("get", &context, model.get(at).copied(), q.get(at));
            }
            Op::Peek(at) => {
                let at = usize::from(*at) % (len + 2);
                same(
                    "peek_u16_be",
                    &(at, &flat),
                    peek::<2>(&model, at, false),
                    q.peek_u16_be(at).map(u64::from),
                );
                same(
                    "peek_u32_be",
                    &(at, &flat),
                    peek::<4>(&model, at, false),
                    q.peek_u32_be(at).map(u64::from),
                );
                same(
                    "peek_u32_le",
                    &(at, &flat),
                    peek::<4>(&model, at, true),
                    q.peek_u32_le(at).map(u64::from),
                );
                same(
                    "peek_u64_be",
                    &(at, &flat),
                    peek::<8>(&model, at, false),
                    q.peek_u64_be(at),
                );
            }
            Op::Advance(n) => {
                let n = clamp(*n);
                q.advance(n);
                take(&mut model, n);
            }
            Op::CopyToBytes(n) => {
                let n = clamp(*n);
                let part = q.copy_to_bytes(n);
                same(
                    "copy_to_bytes",
                    &context,
                    take(&mut model, n),
                    part.to_vec(),
                );
            }
            Op::Chunk => {
                let chunk = q.chunk();
                assert!(
                    flat.starts_with(chunk) && chunk.is_empty() == flat.is_empty(),
                    "chunk {chunk:?}: {context:?}"
                );
            }
            Op::ChunksVectored(n) => {
                let mut slices = vec![io::IoSlice::new(&[]); usize::from(n % 20)];
                let shown = q.chunks_vectored(&mut slices);
                let joined: Vec<u8> = slices[..shown]
                    .iter()
                    .flat_map(|s| s.iter().copied())
                    .collect();
                assert!(
                    flat.starts_with(&joined) && slices[..shown].iter().all(|s| !s.is_empty()),
                    "chunks_vectored {joined:?}: {context:?}"
                );
                same(
                    "chunks_vectored shows",
                    &context,
                    slices.len().min(q.fragment_count()),
                    shown,
                );
            }
            Op::GetU8 => {
                if len >= 1 {
                    same("get_u8", &context, model.pop_front(), Some(q.get_u8()));
                }
            }
            Op::GetU32 => {
                if len >= 4 {
                    let want = peek::<4>(&model, 0, false).map(|v| v as u32);
                    same("get_u32", &context, want, Some(q.get_u32()));
                    take(&mut model, 4);
                }
            }
            Op::GetU16Le => {
                if len >= 2 {
                    let want = peek::<2>(&model, 0, true).map(|v| v as u16);
                    same("get_u16_le", &context, want, Some(q.get_u16_le()));
                    take(&mut model, 2);
                }
            }
            Op::Read(n) => {
                let mut buf = vec![0u8; usize::from(n % 600)];
                let got = q.read(&mut buf).expect("read");
                assert!(got <= buf.len() && (got > 0 || buf.is_empty() || flat.is_empty()));
                same("read", &context, take(&mut model, got), buf[..got].to_vec());
            }
            Op::ToByteString => {
                same(
                    "to_byte_string",
                    &context,
                    &flat,
                    &q.to_byte_string().to_vec(),
                );
            }
            Op::Clear => {
                q.clear();
                model.clear();
            }
        }
        check("after", &q, &model);
    }
});
