//! The `rope` sweep: random contents in random fragmentations, every `ByteString` operation
//! against the same operation on the flat `Vec<u8>`.

use std::cmp::Ordering;
use std::hash::{Hash, Hasher};

use wirebytes_rope::bytes::{Buf, Bytes};
use wirebytes_rope::{ByteQueue, ByteString, ByteStringBuilder, levels, reference};

use crate::verify::Ctx;
use wirebytes_testkit::{Rng, fragments};

/// One random content in one random representation, with how it was built.
struct Sample {
    flat: Vec<u8>,
    rope: ByteString,
    shape: &'static str,
}

/// Random bytes; over a small alphabet half the time, so searches and comparisons meet
/// partial matches and long common prefixes.
fn content(rng: &mut Rng, max_len: usize) -> Vec<u8> {
    let len = match rng.below(4) {
        0 => rng.below(64),
        1 => rng.below(1024),
        _ => rng.below(max_len + 1),
    };
    let mut out = vec![0; len];
    if rng.one_in(2) {
        let letters = 2 + rng.below(3) as u8;
        out.iter_mut()
            .for_each(|b| *b = b'a' + rng.below(letters as usize) as u8);
    } else {
        rng.fill(&mut out);
    }
    out
}

/// `flat` cut into fragments of 1..=max bytes.
fn cut(rng: &mut Rng, flat: &[u8], max: usize) -> Vec<Bytes> {
    fragments::split(rng, flat, max)
        .into_iter()
        .map(Bytes::copy_from_slice)
        .collect()
}

/// `flat` in a random representation.
fn represent(rng: &mut Rng, flat: &[u8]) -> (ByteString, &'static str) {
    let max = *rng.pick(&[1, 2, 3, 7, 16, 64, 300, 1500, 5000]);
    match rng.below(8) {
        0 => (ByteString::from(flat.to_vec()), "one"),
        1 => {
            let mut padded = vec![0xEE; 3];
            padded.extend_from_slice(flat);
            padded.extend([0xDD; 5]);
            let outer: ByteString = cut(rng, &padded, max).into_iter().collect();
            (outer.slice(3..3 + flat.len()), "rope-slice")
        }
        2 => {
            let at = rng.below(flat.len() + 1);
            let two = [&flat[..at], &flat[at..]]
                .into_iter()
                .map(Bytes::copy_from_slice)
                .collect();
            (two, "two")
        }
        3 => {
            let mut parts = Vec::new();
            for b in cut(rng, flat, max) {
                if rng.one_in(3) {
                    parts.push(Bytes::new());
                }
                parts.push(b);
            }
            (parts.into_iter().collect(), "with-empty")
        }
        4 => {
            // `concat` rebuilds the fragment list: keep to about 64 pieces (quadratic).
            let mut s = ByteString::new();
            for b in cut(rng, flat, max.max(flat.len() / 64 + 1)) {
                s = s.concat(&ByteString::from(b));
            }
            (s, "concat")
        }
        5 => {
            let mut b = ByteStringBuilder::new();
            for part in cut(rng, flat, max) {
                if rng.one_in(2) {
                    b.extend_from_slice(&part);
                } else {
                    b.push(part);
                }
            }
            (b.build(), "builder")
        }
        _ => (cut(rng, flat, max).into_iter().collect(), "many"),
    }
}

fn sample(rng: &mut Rng, max_len: usize) -> Sample {
    let flat = content(rng, max_len);
    let (rope, shape) = represent(rng, &flat);
    Sample { flat, rope, shape }
}

/// Records every hasher call, so hashes agree only if the calls and their boundaries do.
#[derive(Debug, Default, PartialEq)]
struct Recording(Vec<(bool, Vec<u8>)>);

impl Hasher for Recording {
    fn finish(&self) -> u64 {
        0
    }
    fn write(&mut self, bytes: &[u8]) {
        self.0.push((false, bytes.to_vec()));
    }
    fn write_usize(&mut self, n: usize) {
        self.0.push((true, n.to_le_bytes().to_vec()));
    }
}

fn naive_find(flat: &[u8], needle: &[u8]) -> Option<usize> {
    reference::find_naive(flat, needle)
}

pub(crate) fn run(ctx: &mut Ctx) {
    let strings = ctx.scale(60_000, 12_000);
    let max_len = ctx.scale(20_000, 12_000);
    let mut rng = Rng::new(0x0B5E_55ED);

    {
        let mut check = ctx.check("get: forward, backward, random", strings as u64 * 3);
        for _ in 0..strings {
            let s = sample(&mut rng, max_len);
            let n = s.flat.len();
            let label = s.shape;
            let fwd = (0..n + 2).all(|i| s.rope.get(i) == s.flat.get(i).copied());
            check.case_in(label, &s.flat, true, fwd);
            let back = (0..n + 2)
                .rev()
                .all(|i| s.rope.get(i) == s.flat.get(i).copied());
            check.case_in(label, &s.flat, true, back);
            let random: Vec<usize> = (0..64).map(|_| rng.below(n + 3)).collect();
            let got: Vec<Option<u8>> = random.iter().map(|&i| s.rope.get(i)).collect();
            let want: Vec<Option<u8>> = random.iter().map(|&i| s.flat.get(i).copied()).collect();
            check.case_in(label, &s.flat, want, got);
        }
    }
    {
        let mut check = ctx.check(
            "slice, try_slice, chunks, iter, compact, to_vec, Vec::from, copy_from_slice",
            0,
        );
        for _ in 0..strings {
            let s = sample(&mut rng, max_len);
            let n = s.flat.len();
            check.case_in(s.shape, &s.flat, s.flat.clone(), s.rope.to_vec());
            check.case_in(s.shape, &s.flat, &s.flat[..], &s.rope.compact()[..]);
            check.case_in(s.shape, &s.flat, s.flat.clone(), Vec::from(s.rope.clone()));
            let copy = ByteString::copy_from_slice(&s.flat);
            check.case_in(
                s.shape,
                &s.flat,
                (true, usize::from(n > 0)),
                (copy == s.rope, copy.chunks().len()),
            );
            // The bytes one by one: forwards (`&ByteString`), backwards, and from both ends
            // at random, the length counted down at each step.
            let forwards: Vec<u8> = (&s.rope).into_iter().collect();
            check.case_in(s.shape, &s.flat, s.flat.clone(), forwards);
            let backwards: Vec<u8> = s.rope.iter().rev().collect();
            let want: Vec<u8> = s.flat.iter().rev().copied().collect();
            check.case_in(s.shape, &s.flat, want, backwards);
            let mut bytes = s.rope.iter();
            let (mut front, mut back) = (0, n);
            let mut ok = true;
            while front < back {
                let got = if rng.one_in(2) {
                    front += 1;
                    (bytes.next(), s.flat[front - 1])
                } else {
                    back -= 1;
                    (bytes.next_back(), s.flat[back])
                };
                ok &= got.0 == Some(got.1) && bytes.len() == back - front;
            }
            ok &= bytes.next().is_none() && bytes.next_back().is_none();
            check.case_in(s.shape, &s.flat, true, ok);
            let joined: Vec<u8> = s.rope.chunks().flatten().copied().collect();
            check.case_in(s.shape, &s.flat, s.flat.clone(), joined);
            check.case_in(
                s.shape,
                &s.flat,
                true,
                s.rope.chunks().all(|c| !c.is_empty()),
            );
            for _ in 0..8 {
                let a = rng.below(n + 2);
                let b = rng.below(n + 2);
                let want = s.flat.get(a..b).map(<[u8]>::to_vec);
                let got = s.rope.try_slice(a..b);
                let label = format!("{} [{a}..{b}]", s.shape);
                check.case_in(&label, &s.flat, want, got.as_ref().map(ByteString::to_vec));
                if let Some(sub) = got {
                    // A slice answers get and find like the flat sub-slice does.
                    let i = rng.below(sub.len() + 1);
                    check.case_in(&label, &s.flat, s.flat[a..b].get(i), sub.get(i).as_ref());
                    let needle = s.flat[a..b][b - a - (b - a).min(3)..].to_vec();
                    check.case_in(
                        &label,
                        &s.flat,
                        naive_find(&s.flat[a..b], &needle),
                        sub.find(&needle),
                    );
                }
            }
        }
    }
    {
        let mut check = ctx.check("concat, append", strings as u64 * 2);
        for _ in 0..strings {
            let (x, y) = (sample(&mut rng, max_len / 2), sample(&mut rng, max_len / 2));
            let mut want = x.flat.clone();
            want.extend_from_slice(&y.flat);
            let label = format!("{} + {}", x.shape, y.shape);
            check.case_in(&label, &want, want.clone(), x.rope.concat(&y.rope).to_vec());
            // `append` keeps every fragment of both sides as it is, and leaves `x` alone.
            let mut appended = x.rope.clone();
            appended.append(&y.rope);
            let ok = appended == want[..] && x.rope == x.flat[..];
            let fragments = x.rope.fragment_count() + y.rope.fragment_count();
            check.case_in(
                &label,
                &want,
                (true, fragments),
                (ok, appended.fragment_count()),
            );
        }
    }
    {
        let mut check = ctx.check("eq, cmp, hash against the flat bytes", 0);
        for _ in 0..strings {
            let x = sample(&mut rng, max_len / 4);
            // The same content, a near miss, or something else.
            let other = match rng.below(3) {
                0 => x.flat.clone(),
                1 if !x.flat.is_empty() => {
                    let mut v = x.flat.clone();
                    let at = rng.below(v.len());
                    v[at] ^= 1 << rng.below(8);
                    if rng.one_in(3) {
                        v.truncate(at);
                    }
                    v
                }
                _ => content(&mut rng, max_len / 4),
            };
            let (y, y_shape) = represent(&mut rng, &other);
            let label = format!("{} vs {}", x.shape, y_shape);
            check.case_in(&label, &x.flat, x.flat == other, x.rope == y);
            // `==` at every kernel level (the portable code and the AVX-512 kernel).
            for level in levels::all() {
                let label = format!("{label}, {}", level.name());
                check.case_in(&label, &x.flat, x.flat == other, level.eq(&x.rope, &y));
            }
            check.case_in(
                &label,
                &x.flat,
                x.flat == other,
                reference::eq_by_bytes(&x.rope, &y),
            );
            check.case_in(&label, &x.flat, x.flat.cmp(&other), x.rope.cmp(&y));
            check.case_in(&label, &x.flat, other.cmp(&x.flat), y.cmp(&x.rope));
            check.case_in(
                &label,
                &x.flat,
                true,
                PartialEq::eq(&x.rope, &x.flat[..]) && PartialEq::eq(&x.flat[..], &x.rope),
            );
            let mut want = Recording::default();
            reference::hash_flat(&x.flat, &mut want);
            let mut got = Recording::default();
            x.rope.hash(&mut got);
            check.case_in(&label, &x.flat, true, want == got);
            let (mut a, mut b) = (
                std::hash::DefaultHasher::new(),
                std::hash::DefaultHasher::new(),
            );
            x.rope.hash(&mut a);
            y.hash(&mut b);
            let same_hash = a.finish() == b.finish();
            // Equal contents must hash alike; unequal ones are not compared (collisions).
            if x.flat == other {
                check.case_in(&label, &x.flat, true, same_hash);
            }
            check.case_in(
                &label,
                &x.flat,
                Ordering::Equal,
                x.rope.cmp(&x.rope.clone()),
            );
        }
    }
    {
        let mut check = ctx.check("find, starts_with, ends_with", 0);
        for _ in 0..strings {
            let s = sample(&mut rng, max_len);
            let n = s.flat.len();
            for _ in 0..6 {
                let m = *rng.pick(&[0, 1, 2, 3, 5, 8, 16, 31, 100, 1500]);
                let needle: Vec<u8> = if m <= n && !rng.one_in(4) {
                    let at = rng.below(n - m + 1);
                    s.flat[at..at + m].to_vec()
                } else {
                    (0..m).map(|_| b'a' + rng.below(3) as u8).collect()
                };
                let label = format!("{} needle {m}", s.shape);
                check.case_in(
                    &label,
                    &s.flat,
                    naive_find(&s.flat, &needle),
                    s.rope.find(&needle),
                );
                check.case_in(
                    &label,
                    &s.flat,
                    s.flat.starts_with(&needle),
                    s.rope.starts_with(&needle),
                );
                check.case_in(
                    &label,
                    &s.flat,
                    s.flat.ends_with(&needle),
                    s.rope.ends_with(&needle),
                );
            }
        }
    }
    {
        let mut check = ctx.check("find_from, rfind, find_byte, contains, split_at, to_str", 0);
        for _ in 0..strings {
            let s = sample(&mut rng, max_len);
            let n = s.flat.len();
            for _ in 0..4 {
                let m = *rng.pick(&[0, 1, 2, 3, 5, 8, 16, 31, 100, 1500]);
                let needle: Vec<u8> = if m <= n && !rng.one_in(4) {
                    let at = rng.below(n - m + 1);
                    s.flat[at..at + m].to_vec()
                } else {
                    (0..m).map(|_| b'a' + rng.below(3) as u8).collect()
                };
                let from = rng.below(n + 2);
                let label = format!("{} needle {m} from {from}", s.shape);
                let want = s
                    .flat
                    .get(from..)
                    .and_then(|rest| naive_find(rest, &needle))
                    .map(|p| p + from);
                check.case_in(&label, &s.flat, want, s.rope.find_from(&needle, from));
                check.case_in(
                    &label,
                    &s.flat,
                    reference::rfind_naive(&s.flat, &needle),
                    s.rope.rfind(&needle),
                );
                check.case_in(
                    &label,
                    &s.flat,
                    naive_find(&s.flat, &needle).is_some(),
                    s.rope.contains(&needle),
                );
                let byte = needle.first().copied().unwrap_or(b'a');
                check.case_in(
                    &label,
                    &s.flat,
                    s.flat.iter().position(|&b| b == byte),
                    s.rope.find_byte(byte),
                );
            }
            let mid = rng.below(n + 1);
            let (a, b) = s.rope.split_at(mid);
            check.case_in(
                s.shape,
                &s.flat,
                true,
                a == s.flat[..mid] && b == s.flat[mid..],
            );
            let want = std::str::from_utf8(&s.flat).map_err(|e| (e.valid_up_to(), e.error_len()));
            let got = s.rope.to_str();
            let got = got.as_deref().map_err(|e| (e.valid_up_to(), e.error_len()));
            check.case_in(s.shape, &s.flat, want, got);
        }
    }
    {
        let mut check = ctx.check("ByteQueue against a VecDeque model", strings as u64);
        for _ in 0..strings {
            let flat = content(&mut rng, max_len);
            let max = *rng.pick(&[1, 2, 3, 7, 16, 64, 300, 1448, 5000]);
            let ok = queue_run(&flat, max, &mut rng);
            check.case_in(&format!("reads of 0..={max}"), &flat, true, ok);
        }
    }
    {
        let mut check = ctx.check("reader, into_reader: Buf and io::Read", strings as u64);
        for _ in 0..strings {
            let s = sample(&mut rng, max_len);
            let ok = if rng.one_in(2) {
                read_all(&mut s.rope.reader(), &s.flat, &mut rng)
            } else {
                read_all(&mut s.rope.clone().into_reader(), &s.flat, &mut rng)
            };
            check.case_in(s.shape, &s.flat, true, ok);
        }
    }
}

/// The two readers, seen alike.
trait RopeReader: Buf + std::io::Read {
    fn split_to(&mut self, n: usize) -> ByteString;
}

impl RopeReader for wirebytes_rope::Reader<'_> {
    fn split_to(&mut self, n: usize) -> ByteString {
        wirebytes_rope::Reader::split_to(self, n)
    }
}

impl RopeReader for wirebytes_rope::IntoReader {
    fn split_to(&mut self, n: usize) -> ByteString {
        wirebytes_rope::IntoReader::split_to(self, n)
    }
}

/// Reads all of `r` with random operations, each checked against the same on `flat`.
fn read_all<R: RopeReader>(r: &mut R, flat: &[u8], rng: &mut Rng) -> bool {
    let mut e: &[u8] = flat;
    let mut ok = true;
    while e.has_remaining() && ok {
        ok &= r.remaining() == e.remaining();
        ok &= r.chunk() == &e[..r.chunk().len().min(e.len())] && !r.chunk().is_empty();
        match rng.below(8) {
            0 if e.remaining() >= 4 => ok &= r.get_u32_le() == e.get_u32_le(),
            1 if e.remaining() >= 8 => ok &= r.get_u64() == e.get_u64(),
            2 if e.remaining() >= 2 => ok &= r.get_i16_le() == e.get_i16_le(),
            3 => {
                let k = rng.below(100).min(e.remaining());
                ok &= r.copy_to_bytes(k) == e.copy_to_bytes(k);
            }
            4 => {
                let k = rng.below(300).min(e.remaining());
                ok &= r.split_to(k) == e[..k];
                e.advance(k);
            }
            5 => {
                let mut buf = vec![0; rng.below(50)];
                let k = std::io::Read::read(r, &mut buf).unwrap_or(usize::MAX);
                ok &= k == buf.len().min(e.remaining()) && buf[..k] == e[..k];
                e.advance(k.min(e.remaining()));
            }
            _ => {
                let k = rng.below(40).min(e.remaining());
                r.advance(k);
                e.advance(k);
            }
        }
    }
    ok && r.remaining() == 0 && !r.has_remaining() && r.chunk().is_empty()
}

/// Pushes `flat` into a `ByteQueue` in reads of 1..=max bytes (and empty ones) while taking
/// it off the front with random operations, each checked against a `VecDeque<u8>`; true when
/// every answer agreed and the queue ends empty, holding no fragment.
fn queue_run(flat: &[u8], max: usize, rng: &mut Rng) -> bool {
    let mut reads = cut(rng, flat, max).into_iter();
    let mut q = ByteQueue::new();
    let mut model: std::collections::VecDeque<u8> = std::collections::VecDeque::new();
    let mut ok = true;
    let take = |model: &mut std::collections::VecDeque<u8>, k: usize| -> Vec<u8> {
        model.drain(..k).collect()
    };
    loop {
        if rng.below(3) == 0 || model.is_empty() {
            if rng.one_in(8) {
                q.push(Bytes::new());
            }
            match reads.next() {
                Some(read) => {
                    model.extend(read.iter().copied());
                    q.push(read);
                }
                None if model.is_empty() => break,
                None => {}
            }
        }
        let len = model.len();
        let k = rng.below(len.min(3000) + 1);
        match rng.below(9) {
            0 => ok &= q.split_to(k) == take(&mut model, k),
            1 => {
                ok &= q.try_split_to(len + 1).is_none()
                    && q.try_split_to(k).is_some_and(|s| s == take(&mut model, k))
            }
            2 => ok &= q.copy_to_bytes(k) == take(&mut model, k),
            3 => {
                let at = rng.below(len + 9);
                let peek = |n: usize| -> Option<Vec<u8>> {
                    (at + n <= len).then(|| model.range(at..at + n).copied().collect())
                };
                ok &= q.peek_u16_be(at).map(|v| v.to_be_bytes().to_vec()) == peek(2);
                ok &= q.peek_u32_be(at).map(|v| v.to_be_bytes().to_vec()) == peek(4);
                ok &= q.peek_u32_le(at).map(|v| v.to_le_bytes().to_vec()) == peek(4);
                ok &= q.peek_u64_be(at).map(|v| v.to_be_bytes().to_vec()) == peek(8);
                ok &= q.get(at) == model.get(at).copied();
            }
            4 => {
                let contiguous: Vec<u8> = model.iter().copied().collect();
                let m = *rng.pick(&[0, 1, 2, 4, 16]);
                let needle: Vec<u8> = if m <= len && !rng.one_in(3) {
                    let at = rng.below(len - m + 1);
                    contiguous[at..at + m].to_vec()
                } else {
                    (0..m).map(|_| b'a' + rng.below(3) as u8).collect()
                };
                ok &= q.find(&needle) == naive_find(&contiguous, &needle);
                let byte = needle.first().copied().unwrap_or(b'b');
                ok &= q.find_byte(byte) == contiguous.iter().position(|&b| b == byte);
                let from = rng.below(len + 3);
                let rest = contiguous.get(from..);
                ok &= q.find_from(&needle, from)
                    == rest.and_then(|r| naive_find(r, &needle)).map(|p| from + p);
                ok &= q.find_byte_from(byte, from)
                    == rest
                        .and_then(|r| r.iter().position(|&b| b == byte))
                        .map(|p| from + p);
            }
            5 if len >= 4 => ok &= q.get_u32_le().to_le_bytes()[..] == take(&mut model, 4)[..],
            6 => {
                let mut slices = [std::io::IoSlice::new(&[]); 8];
                let n = q.chunks_vectored(&mut slices);
                let got: Vec<u8> = slices[..n].iter().flat_map(|s| s.iter().copied()).collect();
                ok &= n == q.fragment_count().min(8) && model.iter().take(got.len()).eq(got.iter());
                ok &= n < 8 || got.len() < len || q.fragment_count() == 8;
                ok &= n == 8 || got.len() == len;
            }
            7 => {
                let flat: Vec<u8> = model.iter().copied().collect();
                ok &= q.to_byte_string() == flat;
                ok &= q.chunks().len() == q.fragment_count()
                    && q.chunks().flatten().copied().eq(flat.iter().copied());
                ok &= q.fragments().map(|b| &b[..]).eq(q.chunks());
                ok &= PartialEq::eq(&q, &flat[..]) && PartialEq::eq(&flat[..], &q);
            }
            _ => {
                q.advance(k);
                model.drain(..k);
            }
        }
        ok &= q.len() == model.len() && q.chunk().is_empty() == model.is_empty();
        if !ok {
            return false;
        }
    }
    ok && q.is_empty() && q.fragment_count() == 0
}
