//! wirebytes-rope's `ByteString` under random operation sequences against a `Vec<u8>` model:
//! building (from fragments, `push`, `ByteStringBuilder` with `BufMut` writes), `concat`,
//! `append`, `slice` / `try_slice` / `split_at`, both readers (`Reader`, `IntoReader`) with
//! `split_to` / `advance` / `copy_to_bytes` / `chunks_vectored` / `io::Read` / `BufRead` /
//! `Seek`, `get` forwards, backwards and at random, the searches, and `eq` (at every kernel
//! level too) / `cmp` / `hash` between strings and across two fragmentations of the same
//! bytes.
#![no_main]

use std::cmp::Ordering;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::io::{self, BufRead, Read, Seek};

use arbitrary::Arbitrary;
use bytes::{Buf, BufMut, Bytes};
use libfuzzer_sys::fuzz_target;
use wirebytes_fuzz::{chunk_lengths, same, scaled_chunk_lengths};
use wirebytes_rope::{ByteString, ByteStringBuilder, levels, reference};

const SLOTS: usize = 4;

/// The longest string the operations build: concatenating a string with itself doubles it.
const MAX_LEN: usize = 1 << 16;

#[derive(Arbitrary, Debug)]
enum Op {
    /// A string of `data` cut into fragments by `cuts`, collected or pushed one by one.
    Build {
        slot: u8,
        data: Vec<u8>,
        cuts: [u8; 2],
        by_push: bool,
    },
    /// `pattern` repeated to `len` bytes (at most 4 KiB), cut by `cuts`: fragments long
    /// enough for the searches' in-place path.
    Repeat {
        slot: u8,
        pattern: Vec<u8>,
        len: u16,
        cuts: [u8; 2],
        long: bool,
    },
    Concat {
        a: u8,
        b: u8,
        dst: u8,
    },
    Append {
        a: u8,
        b: u8,
    },
    Push {
        a: u8,
        data: Vec<u8>,
    },
    /// `try_slice(start..end)`, and `slice` and `split_at` when in range.
    Slice {
        a: u8,
        dst: u8,
        start: u16,
        end: u16,
    },
    Builder {
        dst: u8,
        steps: Vec<BuildStep>,
    },
    Read {
        a: u8,
        owned: bool,
        steps: Vec<ReadStep>,
    },
    /// `get` at each index (they mostly walk forwards or backwards from the last).
    Get {
        a: u8,
        start: u16,
        steps: Vec<i8>,
    },
    Find {
        a: u8,
        needle: Needle,
        from: u16,
    },
    Compare {
        a: u8,
        b: u8,
    },
    /// The same bytes as `a`, cut into other fragments, into `dst`.
    Refragment {
        a: u8,
        dst: u8,
        cuts: [u8; 2],
    },
}

#[derive(Arbitrary, Debug)]
enum BuildStep {
    Extend(Vec<u8>),
    Push(Vec<u8>),
    Append(u8),
    PutSlice(Vec<u8>),
    /// Written into `chunk_mut` and committed with `advance_mut`.
    ChunkMut(Vec<u8>),
    /// `BufMut::put` of a reader of a slot.
    PutBuf(u8),
    PutU32(u32),
    PutBytes(u8, u8),
}

#[derive(Arbitrary, Debug)]
enum ReadStep {
    SplitTo(u16),
    Advance(u16),
    CopyToBytes(u16),
    Chunk,
    ChunksVectored(u8),
    Rest,
    Read(u16),
    FillBuf(u16),
    GetU16,
    GetU64Le,
    Seek(SeekTo),
}

#[derive(Arbitrary, Debug)]
enum SeekTo {
    Start(u16),
    End(i16),
    Current(i16),
}

#[derive(Arbitrary, Debug)]
enum Needle {
    Bytes(Vec<u8>),
    /// `len` bytes of slot `slot` from `start` (found more often than random bytes).
    Part {
        slot: u8,
        start: u16,
        len: u8,
    },
    /// `len` bytes of the searched string from `before` bytes before the end of its
    /// fragment `fragment`: a match across a fragment boundary.
    AcrossFragments {
        fragment: u8,
        before: u8,
        len: u8,
    },
}

fn slot(i: u8) -> usize {
    usize::from(i) % SLOTS
}

/// Every view of `s` agrees with `model`.
fn check(what: &str, s: &ByteString, model: &[u8]) {
    let context = (what, model);
    same("len", &context, model.len(), s.len());
    same("is_empty", &context, model.is_empty(), s.is_empty());
    same("to_vec", &context, model, &s.to_vec()[..]);
    same("compact", &context, model, &s.compact()[..]);
    same(
        "chunks",
        &context,
        model,
        &s.chunks().collect::<Vec<_>>().concat()[..],
    );
    same(
        "chunks count",
        &context,
        s.fragment_count(),
        s.chunks().len(),
    );
    assert!(
        s.chunks().all(|c| !c.is_empty()),
        "an empty chunk: {context:?}"
    );
    same(
        "chunks backwards",
        &context,
        model,
        &s.chunks()
            .rev()
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect::<Vec<_>>()
            .concat()[..],
    );
    same("iter", &context, model, &s.iter().collect::<Vec<_>>()[..]);
    same("iter len", &context, model.len(), s.iter().len());
    same(
        "&ByteString into_iter",
        &context,
        model,
        &s.into_iter().collect::<Vec<u8>>()[..],
    );
    // From both ends in turn: the front half forwards, the back half backwards.
    let mut bytes = s.iter();
    let (mut front, mut back) = (Vec::new(), Vec::new());
    loop {
        let (end, byte) = if front.len() <= back.len() {
            (&mut front, bytes.next())
        } else {
            (&mut back, bytes.next_back())
        };
        let Some(byte) = byte else {
            break;
        };
        end.push(byte);
        same(
            "iter len from both ends",
            &context,
            model.len() - front.len() - back.len(),
            bytes.len(),
        );
    }
    back.reverse();
    same(
        "iter from both ends",
        &context,
        model,
        &[front, back].concat()[..],
    );
    same("Vec::from", &context, model, &Vec::from(s.clone())[..]);
    same(
        "copy_from_slice",
        &context,
        true,
        ByteString::copy_from_slice(model) == *s,
    );
    same(
        "eq Vec, Bytes, [u8] both ways",
        &context,
        true,
        *s == model.to_vec()
            && model.to_vec() == *s
            && *s == Bytes::copy_from_slice(model)
            && Bytes::copy_from_slice(model) == *s
            && *s == *model
            && *model == *s,
    );
    same(
        "iter rev",
        &context,
        model.iter().rev().copied().collect::<Vec<_>>(),
        s.iter().rev().collect::<Vec<_>>(),
    );
    same(
        "to_str",
        &context,
        std::str::from_utf8(model).ok(),
        s.to_str().ok().as_deref(),
    );
    same(
        "eq self",
        &context,
        true,
        s == &ByteString::from(model.to_vec()),
    );
}

fn from_cuts(data: &[u8], cuts: &[u8], scale: usize) -> ByteString {
    let mut at = 0;
    scaled_chunk_lengths(data.len(), cuts, scale)
        .into_iter()
        .map(|len| {
            let part = Bytes::copy_from_slice(&data[at..at + len]);
            at += len;
            part
        })
        .collect()
}

fn hash_of(s: &impl Hash) -> u64 {
    let mut h = DefaultHasher::new();
    s.hash(&mut h);
    h.finish()
}

fn flat_hash(bytes: &[u8]) -> u64 {
    let mut h = DefaultHasher::new();
    reference::hash_flat(bytes, &mut h);
    h.finish()
}

fn compare(a: &ByteString, ma: &[u8], b: &ByteString, mb: &[u8]) {
    let context = (ma, mb);
    same("eq", &context, ma == mb, a == b);
    for level in levels::all() {
        let what = format!("eq at level {}", level.name());
        same(&what, &context, ma == mb, level.eq(a, b));
    }
    same(
        "eq_by_bytes",
        &context,
        ma == mb,
        reference::eq_by_bytes(a, b),
    );
    same("cmp", &context, ma.cmp(mb), a.cmp(b));
    same("partial_cmp", &context, Some(ma.cmp(mb)), a.partial_cmp(b));
    same("hash", &context, flat_hash(ma), hash_of(a));
    if ma == mb {
        same("hash of equal strings", &context, hash_of(a), hash_of(b));
    }
}

/// Runs `steps` on a reader of `model` (position 0 at the start) with the reader's own
/// `split_to` and `rest`.
fn drive<R: Buf + Read + BufRead + Seek>(
    r: &mut R,
    model: &[u8],
    steps: &[ReadStep],
    split_to: impl Fn(&mut R, usize) -> ByteString,
    rest: impl Fn(&R) -> ByteString,
) {
    let mut pos = 0;
    for (i, step) in steps.iter().enumerate() {
        let left = &model[pos..];
        let context = (i, step, pos, model);
        same("remaining", &context, left.len(), r.remaining());
        let clamp = |n: u16| usize::from(n) % (left.len() + 1);
        match *step {
            ReadStep::SplitTo(n) => {
                let n = clamp(n);
                let part = split_to(r, n);
                check("split_to", &part, &left[..n]);
                pos += n;
            }
            ReadStep::Advance(n) => {
                let n = clamp(n);
                r.advance(n);
                pos += n;
            }
            ReadStep::CopyToBytes(n) => {
                let n = clamp(n);
                same(
                    "copy_to_bytes",
                    &context,
                    &left[..n],
                    &r.copy_to_bytes(n)[..],
                );
                pos += n;
            }
            ReadStep::Chunk => {
                let chunk = r.chunk();
                assert!(
                    left.starts_with(chunk) && (chunk.is_empty() == left.is_empty()),
                    "chunk {chunk:?}: {context:?}"
                );
            }
            ReadStep::ChunksVectored(n) => {
                let mut slices = vec![io::IoSlice::new(&[]); usize::from(n % 20)];
                let shown = r.chunks_vectored(&mut slices);
                let joined: Vec<u8> = slices[..shown]
                    .iter()
                    .flat_map(|s| s.iter().copied())
                    .collect();
                assert!(
                    left.starts_with(&joined) && slices[..shown].iter().all(|s| !s.is_empty()),
                    "chunks_vectored {joined:?}: {context:?}"
                );
                if !slices.is_empty() && !left.is_empty() {
                    assert!(shown > 0, "chunks_vectored showed nothing: {context:?}");
                }
            }
            ReadStep::Rest => check("rest", &rest(r), left),
            ReadStep::Read(n) => {
                let mut buf = vec![0u8; usize::from(n % 600)];
                let got = r.read(&mut buf).expect("read");
                assert!(got <= buf.len() && (got > 0 || buf.is_empty() || left.is_empty()));
                same("read", &context, &left[..got], &buf[..got]);
                pos += got;
            }
            ReadStep::FillBuf(n) => {
                let filled = r.fill_buf().expect("fill_buf").to_vec();
                assert!(
                    left.starts_with(&filled),
                    "fill_buf {filled:?}: {context:?}"
                );
                let n = usize::from(n) % (filled.len() + 1);
                r.consume(n);
                pos += n;
            }
            ReadStep::GetU16 => {
                if left.len() >= 2 {
                    same(
                        "get_u16",
                        &context,
                        u16::from_be_bytes([left[0], left[1]]),
                        r.get_u16(),
                    );
                    pos += 2;
                }
            }
            ReadStep::GetU64Le => {
                if left.len() >= 8 {
                    let want = u64::from_le_bytes(left[..8].try_into().expect("8 bytes"));
                    same("get_u64_le", &context, want, r.get_u64_le());
                    pos += 8;
                }
            }
            ReadStep::Seek(ref to) => {
                let (from, target) = match *to {
                    SeekTo::Start(n) => (io::SeekFrom::Start(u64::from(n)), Some(usize::from(n))),
                    SeekTo::End(d) => (
                        io::SeekFrom::End(i64::from(d)),
                        model.len().checked_add_signed(isize::from(d)),
                    ),
                    SeekTo::Current(d) => (
                        io::SeekFrom::Current(i64::from(d)),
                        pos.checked_add_signed(isize::from(d)),
                    ),
                };
                let want = target.filter(|&at| at <= model.len());
                match (want, r.seek(from)) {
                    (Some(at), Ok(got)) => {
                        same("seek", &context, at as u64, got);
                        pos = at;
                    }
                    (None, Err(err)) => {
                        same(
                            "seek error",
                            &context,
                            io::ErrorKind::InvalidInput,
                            err.kind(),
                        );
                    }
                    (want, got) => panic!("seek: expected {want:?}, got {got:?}: {context:?}"),
                }
            }
        }
    }
    same(
        "remaining at the end",
        &(steps, model),
        model.len() - pos,
        r.remaining(),
    );
}

fuzz_target!(|ops: Vec<Op>| {
    let mut strings: Vec<ByteString> = (0..SLOTS).map(|_| ByteString::new()).collect();
    let mut models: Vec<Vec<u8>> = vec![Vec::new(); SLOTS];
    for op in ops.iter().take(64) {
        match op {
            Op::Build {
                slot: i,
                data,
                cuts,
                by_push,
            } => {
                let i = slot(*i);
                strings[i] = if *by_push {
                    let mut s = ByteString::new();
                    let mut at = 0;
                    for len in chunk_lengths(data.len(), cuts) {
                        s.push(Bytes::copy_from_slice(&data[at..at + len]));
                        at += len;
                    }
                    s
                } else {
                    from_cuts(data, cuts, 1)
                };
                models[i] = data.clone();
                check("build", &strings[i], &models[i]);
            }
            Op::Repeat {
                slot: i,
                pattern,
                len,
                cuts,
                long,
            } => {
                let i = slot(*i);
                let len = usize::from(*len) % 4097;
                let data: Vec<u8> = if pattern.is_empty() {
                    vec![0; len]
                } else {
                    pattern.iter().copied().cycle().take(len).collect()
                };
                // Long fragments: cuts of 16..=4096 bytes.
                strings[i] = from_cuts(&data, cuts, if *long { 16 } else { 1 });
                models[i] = data;
                check("repeat", &strings[i], &models[i]);
            }
            Op::Concat { a, b, dst } => {
                let (a, b, dst) = (slot(*a), slot(*b), slot(*dst));
                if models[a].len() + models[b].len() > MAX_LEN {
                    continue;
                }
                let s = strings[a].concat(&strings[b]);
                let m = [&models[a][..], &models[b][..]].concat();
                check("concat", &s, &m);
                check("concat keeps its left", &strings[a], &models[a]);
                strings[dst] = s;
                models[dst] = m;
            }
            Op::Append { a, b } => {
                let (a, b) = (slot(*a), slot(*b));
                if models[a].len() + models[b].len() > MAX_LEN {
                    continue;
                }
                let other = strings[b].clone();
                strings[a].append(&other);
                let tail = models[b].clone();
                models[a].extend_from_slice(&tail);
                check("append", &strings[a], &models[a]);
            }
            Op::Push { a, data } => {
                let a = slot(*a);
                strings[a].push(Bytes::copy_from_slice(data));
                models[a].extend_from_slice(data);
                check("push", &strings[a], &models[a]);
            }
            Op::Slice { a, dst, start, end } => {
                let (a, dst) = (slot(*a), slot(*dst));
                let (start, end) = (usize::from(*start), usize::from(*end));
                let m = &models[a];
                let want = (start <= end && end <= m.len()).then(|| m[start..end].to_vec());
                let got = strings[a].try_slice(start..end);
                same("try_slice", &(start, end, m), want.is_some(), got.is_some());
                let (Some(want), Some(got)) = (want, got) else {
                    continue;
                };
                check("try_slice", &got, &want);
                check("slice", &strings[a].slice(start..end), &want);
                check("slice ..end", &strings[a].slice(..end), &m[..end]);
                check("slice start..", &strings[a].slice(start..), &m[start..]);
                let (left, right) = strings[a].split_at(start);
                check("split_at left", &left, &m[..start]);
                check("split_at right", &right, &m[start..]);
                strings[dst] = got;
                models[dst] = want;
            }
            Op::Builder { dst, steps } => {
                let dst = slot(*dst);
                let mut b = ByteStringBuilder::new();
                let mut m = Vec::new();
                for step in steps.iter().take(32) {
                    if m.len() > MAX_LEN {
                        break;
                    }
                    match step {
                        BuildStep::Extend(data) => {
                            b.extend_from_slice(data);
                            m.extend_from_slice(data);
                        }
                        BuildStep::Push(data) => {
                            b.push(Bytes::copy_from_slice(data));
                            m.extend_from_slice(data);
                        }
                        BuildStep::Append(i) => {
                            b.append(&strings[slot(*i)]);
                            m.extend_from_slice(&models[slot(*i)]);
                        }
                        BuildStep::PutSlice(data) => {
                            b.put_slice(data);
                            m.extend_from_slice(data);
                        }
                        BuildStep::ChunkMut(data) => {
                            let mut left = &data[..];
                            while !left.is_empty() {
                                let chunk = b.chunk_mut();
                                let n = chunk.len().min(left.len());
                                chunk[..n].copy_from_slice(&left[..n]);
                                // SAFETY: the first `n` bytes of `chunk_mut()` were just
                                // written.
                                unsafe { b.advance_mut(n) };
                                m.extend_from_slice(&left[..n]);
                                left = &left[n..];
                            }
                        }
                        BuildStep::PutBuf(i) => {
                            b.put(strings[slot(*i)].reader());
                            m.extend_from_slice(&models[slot(*i)]);
                        }
                        BuildStep::PutU32(v) => {
                            b.put_u32(*v);
                            m.extend_from_slice(&v.to_be_bytes());
                        }
                        BuildStep::PutBytes(v, n) => {
                            b.put_bytes(*v, usize::from(*n));
                            m.extend(std::iter::repeat_n(*v, usize::from(*n)));
                        }
                    }
                    same("builder len", &(step, &m), m.len(), b.len());
                    same("builder is_empty", &(step, &m), m.is_empty(), b.is_empty());
                    assert!(
                        b.remaining_mut() > m.len(),
                        "remaining_mut {}",
                        b.remaining_mut()
                    );
                }
                let s = b.build();
                check("builder", &s, &m);
                strings[dst] = s;
                models[dst] = m;
            }
            Op::Read { a, owned, steps } => {
                let a = slot(*a);
                let steps = &steps[..steps.len().min(32)];
                if *owned {
                    let mut r = strings[a].clone().into_reader();
                    drive(
                        &mut r,
                        &models[a],
                        steps,
                        |r, n| r.split_to(n),
                        |r| r.rest(),
                    );
                } else {
                    let mut r = strings[a].reader();
                    drive(
                        &mut r,
                        &models[a],
                        steps,
                        |r, n| r.split_to(n),
                        |r| r.rest(),
                    );
                }
                check("read leaves the string", &strings[a], &models[a]);
            }
            Op::Get { a, start, steps } => {
                let a = slot(*a);
                let (s, m) = (&strings[a], &models[a]);
                let mut at = usize::from(*start) % (m.len() + 2);
                for &step in steps.iter().take(64) {
                    same("get", &(at, m), m.get(at).copied(), s.get(at));
                    same(
                        "get_by_scan",
                        &(at, m),
                        m.get(at).copied(),
                        reference::get_by_scan(s, at),
                    );
                    at = at.saturating_add_signed(isize::from(step)) % (m.len() + 2);
                }
            }
            Op::Find { a, needle, from } => {
                let a = slot(*a);
                let needle = match needle {
                    Needle::Bytes(bytes) => bytes.clone(),
                    Needle::Part {
                        slot: i,
                        start,
                        len,
                    } => {
                        let m = &models[slot(*i)];
                        let start = usize::from(*start) % (m.len() + 1);
                        m[start..(start + usize::from(*len)).min(m.len())].to_vec()
                    }
                    Needle::AcrossFragments {
                        fragment,
                        before,
                        len,
                    } => {
                        let m = &models[a];
                        let ends: Vec<usize> = strings[a]
                            .chunks()
                            .scan(0, |end, c| {
                                *end += c.len();
                                Some(*end)
                            })
                            .collect();
                        let end = ends
                            .get(usize::from(*fragment) % ends.len().max(1))
                            .copied()
                            .unwrap_or(0);
                        let start = end.saturating_sub(usize::from(*before));
                        m[start..(start + usize::from(*len)).min(m.len())].to_vec()
                    }
                };
                let (s, m) = (&strings[a], &models[a]);
                let context = (&needle, m);
                same(
                    "find",
                    &context,
                    reference::find_naive(m, &needle),
                    s.find(&needle),
                );
                same(
                    "rfind",
                    &context,
                    reference::rfind_naive(m, &needle),
                    s.rfind(&needle),
                );
                same(
                    "contains",
                    &context,
                    reference::find_naive(m, &needle).is_some(),
                    s.contains(&needle),
                );
                same(
                    "starts_with",
                    &context,
                    m.starts_with(&needle),
                    s.starts_with(&needle),
                );
                same(
                    "ends_with",
                    &context,
                    m.ends_with(&needle),
                    s.ends_with(&needle),
                );
                let from = usize::from(*from) % (m.len() + 2);
                let want_from = if from > m.len() {
                    None
                } else {
                    reference::find_naive(&m[from..], &needle).map(|at| at + from)
                };
                same(
                    "find_from",
                    &(from, &needle, m),
                    want_from,
                    s.find_from(&needle, from),
                );
                if let Some(&byte) = needle.first() {
                    same(
                        "find_byte",
                        &context,
                        m.iter().position(|&b| b == byte),
                        s.find_byte(byte),
                    );
                }
            }
            Op::Compare { a, b } => {
                let (a, b) = (slot(*a), slot(*b));
                compare(&strings[a], &models[a], &strings[b], &models[b]);
                // The same bytes in one fragment: equal, same order, same hash.
                let flat = ByteString::from(models[a].clone());
                compare(&strings[a], &models[a], &flat, &models[a]);
                same(
                    "cmp flat",
                    &models[a],
                    Ordering::Equal,
                    flat.cmp(&strings[a]),
                );
            }
            Op::Refragment { a, dst, cuts } => {
                let (a, dst) = (slot(*a), slot(*dst));
                let s = from_cuts(&models[a], cuts, 1);
                check("refragment", &s, &models[a]);
                compare(&strings[a], &models[a], &s, &models[a]);
                models[dst] = models[a].clone();
                strings[dst] = s;
            }
        }
    }
    for (s, m) in strings.iter().zip(&models) {
        check("at the end", s, m);
    }
});
