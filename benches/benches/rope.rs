//! Benches for wirebytes-rope: `ByteString` against the pre-Pekko ways (byte-iterator
//! equality, index lookup that scans from the first fragment), flat `Bytes`/slices (the
//! limits) and bytes-utils' `SegmentedBuf`.
//!
//! Workload: 64 KiB of random bytes split into 1024 fragments of pseudo-random sizes (each
//! fragment its own allocation, as network reads are), and into 2 and 1 fragments.

use std::hash::{BuildHasher, Hasher};
use std::hint::black_box;

use buf_list::BufList;
use bytes::{Buf, Bytes, BytesMut};
use bytes_utils::SegmentedBuf;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use wirebytes_benches::{bench, bench_owned};
use wirebytes_rope::{ByteQueue, ByteString, levels, reference};
use wirebytes_testkit::Rng;

const SIZE: usize = 64 * 1024;

/// `flat` cut into `n` fragments at distinct pseudo-random points, each its own allocation.
fn fragments(flat: &[u8], n: usize, seed: u64) -> Vec<Bytes> {
    wirebytes_testkit::fragments::split_into(&mut Rng::new(seed), flat, n)
        .into_iter()
        .map(Bytes::copy_from_slice)
        .collect()
}

fn content() -> Vec<u8> {
    let mut flat = vec![0; SIZE];
    Rng::new(42).fill(&mut flat);
    flat
}

/// The per-byte work of the `get` benches: Java's `hashCode` step, a serial dependency that
/// keeps the compiler from vectorising the flat loop into something no indexed access is.
#[inline(always)]
fn step(acc: u32, b: u8) -> u32 {
    acc.wrapping_mul(31).wrapping_add(u32::from(b))
}

fn eq(c: &mut Criterion) {
    let name = "rope/eq";
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Bytes(SIZE as u64));
    let flat = content();
    let flat_b = flat.clone();
    // The portable code beside the kernel the CPU has (the same where it has none).
    let portable = levels::get("portable").expect("every CPU has the portable level");
    for n in [1024, 2, 1] {
        let a: ByteString = fragments(&flat, n, 1).into_iter().collect();
        let b: ByteString = fragments(&flat, n, 2).into_iter().collect();
        assert!(a == b && a.fragment_count() == n);
        let param = format!("frags-{n}/{SIZE}");
        if n == 1024 {
            bench(&mut g, name, "baseline", &param, &(&a, &b), |(a, b)| {
                reference::eq_by_bytes(a, b)
            });
        }
        bench(
            &mut g,
            name,
            "limit-memcmp",
            &param,
            &(&flat, &flat_b),
            |(x, y)| x[..] == y[..],
        );
        bench(&mut g, name, "ours", &param, &(&a, &b), |(a, b)| a == b);
        if n == 1024 {
            bench(
                &mut g,
                name,
                "ours-portable",
                &param,
                &(&a, &b),
                |(a, b)| portable.eq(a, b),
            );
        }
    }
    // One pair compared over and over lets the branch predictor learn where its fragment
    // boundaries fall; each call here takes the next of `ROTATE` pairs, every string cut at
    // its own pseudo-random points (and memcmp the next of as many flat pairs).
    const ROTATE: usize = 8;
    let param = format!("frags-1024-rotating/{SIZE}");
    let pairs: Vec<(ByteString, ByteString)> = (0..ROTATE as u64)
        .map(|k| {
            let a: ByteString = fragments(&flat, 1024, 10 + 2 * k).into_iter().collect();
            let b: ByteString = fragments(&flat, 1024, 11 + 2 * k).into_iter().collect();
            assert!(a == b && a.fragment_count() == 1024 && b.fragment_count() == 1024);
            (a, b)
        })
        .collect();
    let flat_pairs: Vec<(Vec<u8>, Vec<u8>)> =
        (0..ROTATE).map(|_| (flat.clone(), flat.clone())).collect();
    let mut next = 0;
    bench(&mut g, name, "baseline", &param, &pairs, |pairs| {
        next = (next + 1) % ROTATE;
        let (a, b) = &pairs[next];
        reference::eq_by_bytes(a, b)
    });
    let mut next = 0;
    bench(&mut g, name, "limit-memcmp", &param, &flat_pairs, |pairs| {
        next = (next + 1) % ROTATE;
        let (x, y) = &pairs[next];
        x[..] == y[..]
    });
    let mut next = 0;
    bench(&mut g, name, "ours", &param, &pairs, |pairs| {
        next = (next + 1) % ROTATE;
        let (a, b) = &pairs[next];
        a == b
    });
    let mut next = 0;
    bench(&mut g, name, "ours-portable", &param, &pairs, |pairs| {
        next = (next + 1) % ROTATE;
        let (a, b) = &pairs[next];
        portable.eq(a, b)
    });
    g.finish();
}

/// Reads every u32 of `r`: folded through `step` (a serial dependency, like a parser that does
/// something with each value) or just summed (a loop the compiler vectorises on a flat slice).
#[inline(always)]
fn read_u32s<B: Buf>(r: &mut B, serial: bool) -> u32 {
    let mut acc = 0u32;
    while r.remaining() >= 4 {
        let v = r.get_u32_le();
        acc = if serial {
            acc.wrapping_mul(31).wrapping_add(v)
        } else {
            acc.wrapping_add(v)
        };
    }
    acc
}

fn get_u32_le(c: &mut Criterion) {
    let name = "rope/get_u32_le";
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Bytes(SIZE as u64));
    let flat = Bytes::from(content());
    // 1024 fragments (64 bytes on average), one, and 45 (socket reads of about 1448 bytes).
    for (n, serial) in [(1024, true), (1, true), (1024, false), (45, false)] {
        let parts = fragments(&flat, n, 3);
        let rope: ByteString = parts.iter().cloned().collect();
        let input = if serial { "frags" } else { "sum-frags" };
        let param = format!("{input}-{n}/{SIZE}");
        bench(&mut g, name, "limit-flat", &param, &flat, |flat| {
            read_u32s(&mut flat.clone(), serial)
        });
        if n == 1024 {
            // SegmentedBuf is consumed by reading: building it is part of every run.
            bench(&mut g, name, "SegmentedBuf", &param, &parts, |parts| {
                read_u32s(
                    &mut parts.iter().cloned().collect::<SegmentedBuf<Bytes>>(),
                    serial,
                )
            });
        }
        bench(&mut g, name, "ours", &param, &rope, |rope| {
            read_u32s(&mut rope.reader(), serial)
        });
        if n == 1024 && serial {
            bench(&mut g, name, "ours-owned", &param, &rope, |rope| {
                read_u32s(&mut rope.clone().into_reader(), serial)
            });
        }
    }
    g.finish();
}

fn get_sequential(c: &mut Criterion) {
    let flat = content();
    let rope: ByteString = fragments(&flat, 1024, 4).into_iter().collect();
    let param = format!("frags-1024/{SIZE}");
    for backward in [false, true] {
        let name = if backward {
            "rope/get_backward"
        } else {
            "rope/get_forward"
        };
        let mut g = c.benchmark_group(name);
        g.throughput(Throughput::Bytes(SIZE as u64));
        let order = move |i: usize| if backward { SIZE - 1 - i } else { i };
        if !backward {
            bench(&mut g, name, "baseline", &param, &rope, |rope| {
                (0..SIZE).fold(0, |acc, i| {
                    step(acc, reference::get_by_scan(rope, order(i)).unwrap_or(0))
                })
            });
        }
        bench(&mut g, name, "limit-flat", &param, &flat[..], |flat| {
            (0..SIZE).fold(0, |acc, i| step(acc, flat[order(i)]))
        });
        bench(&mut g, name, "ours", &param, &rope, |rope| {
            (0..SIZE).fold(0, |acc, i| step(acc, rope.get(order(i)).unwrap_or(0)))
        });
        g.finish();
    }
}

fn find(c: &mut Criterion) {
    let name = "rope/find";
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Bytes(SIZE as u64));
    let flat = content();
    // A 16-byte needle in 1024 and 2 fragments; a 4-byte one in 45 (socket reads of about
    // 1448 bytes), whose first byte is a false candidate every 256 bytes or so.
    for (n, m) in [(1024, 16), (2, 16), (45, 4)] {
        let needle = flat[SIZE - 100..SIZE - 100 + m].to_vec();
        assert_eq!(memchr::memmem::find(&flat, &needle), Some(SIZE - 100));
        let rope: ByteString = fragments(&flat, n, 5).into_iter().collect();
        let param = if m == 16 {
            format!("frags-{n}/{SIZE}")
        } else {
            format!("needle-{m}-frags-{n}/{SIZE}")
        };
        bench(&mut g, name, "limit-memmem", &param, &flat[..], |flat| {
            memchr::memmem::find(flat, &needle)
        });
        bench(&mut g, name, "ours", &param, &rope, |rope| {
            rope.find(&needle)
        });
    }
    g.finish();
}

fn hash(c: &mut Criterion) {
    let name = "rope/hash";
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Bytes(SIZE as u64));
    let flat = content();
    let rope: ByteString = fragments(&flat, 1024, 6).into_iter().collect();
    let state = foldhash::fast::FixedState::with_seed(1);
    let param = format!("frags-1024/{SIZE}");
    // The naive content hash of a rope: its bytes one by one.
    bench(&mut g, name, "baseline", &param, &rope, |rope| {
        let mut h = state.build_hasher();
        h.write_usize(rope.len());
        for b in rope.iter() {
            h.write_u8(b);
        }
        h.finish()
    });
    bench(&mut g, name, "limit-flat", &param, &flat[..], |flat| {
        state.hash_one(flat)
    });
    bench(&mut g, name, "ours", &param, &rope, |rope| {
        state.hash_one(rope)
    });
    g.finish();
}

/// 1024 TCP-sized chunks (536..=1460 bytes) of a stream of u32-LE length-prefixed frames of
/// 16..=2048 bytes: what a Pekko artery-style reader receives.
fn tcp_stream() -> Vec<Bytes> {
    let mut rng = Rng::new(7);
    let sizes: Vec<usize> = (0..1024).map(|_| 536 + rng.below(1460 - 536 + 1)).collect();
    let total: usize = sizes.iter().sum();
    let mut stream = Vec::with_capacity(total + 4096);
    while stream.len() < total {
        let len = 16 + rng.below(2048 - 16 + 1);
        stream.extend_from_slice(&(len as u32).to_le_bytes());
        let at = stream.len();
        stream.resize(at + len, 0);
        rng.fill(&mut stream[at..]);
    }
    let mut rest = &stream[..total];
    sizes
        .iter()
        .map(|&n| {
            let chunk = Bytes::copy_from_slice(&rest[..n]);
            rest = &rest[n..];
            chunk
        })
        .collect()
}

/// Reads frames until the data runs out; returns (frames, bytes in frames).
fn frames<B: Buf, F>(r: &mut B, mut frame: impl FnMut(&mut B, usize) -> F) -> (usize, usize) {
    let (mut count, mut bytes) = (0, 0);
    while r.remaining() >= 4 {
        let len = r.get_u32_le() as usize;
        if r.remaining() < len {
            break;
        }
        black_box(frame(r, len));
        count += 1;
        bytes += len;
    }
    (count, bytes)
}

fn framing(c: &mut Criterion) {
    let name = "rope/framing";
    let mut g = c.benchmark_group(name);
    let chunks = tcp_stream();
    let total: usize = chunks.iter().map(Bytes::len).sum();
    g.throughput(Throughput::Bytes(total as u64));
    let param = format!("tcp-1024/{total}");
    let flat: Bytes = chunks.iter().flat_map(|c| c.iter().copied()).collect();
    // Every reader must see the same frames.
    let expected = frames(&mut flat.clone(), |r, len| r.split_to(len));
    let rope: ByteString = chunks.iter().cloned().collect();
    assert_eq!(
        frames(&mut rope.reader(), |r, len| r.split_to(len)),
        expected
    );
    assert_eq!(
        frames(&mut rope.reader(), |r, len| r.copy_to_bytes(len)),
        expected
    );
    let mut seg: SegmentedBuf<Bytes> = chunks.iter().cloned().collect();
    assert_eq!(frames(&mut seg, |r, len| r.copy_to_bytes(len)), expected);
    assert!(expected.0 > 500, "{expected:?}");
    // The old way: copy every chunk into one growing buffer, split frames off it.
    bench(&mut g, name, "baseline", &param, &chunks, |chunks| {
        let mut buf = BytesMut::new();
        for c in chunks {
            buf.extend_from_slice(c);
        }
        frames(&mut buf, |b, len| b.split_to(len).freeze())
    });
    bench(&mut g, name, "SegmentedBuf", &param, &chunks, |chunks| {
        let mut r: SegmentedBuf<Bytes> = chunks.iter().cloned().collect();
        frames(&mut r, |r, len| r.copy_to_bytes(len))
    });
    bench(&mut g, name, "limit-flat", &param, &flat, |flat| {
        let mut r = flat.clone();
        frames(&mut r, |r, len| r.split_to(len))
    });
    bench(&mut g, name, "ours", &param, &chunks, |chunks| {
        let rope: ByteString = chunks.iter().cloned().collect();
        let mut r = rope.reader();
        frames(&mut r, |r, len| r.split_to(len))
    });
    // Contiguous frames, as SegmentedBuf gives them: copied only when they straddle chunks.
    bench(&mut g, name, "ours-copy", &param, &chunks, |chunks| {
        let rope: ByteString = chunks.iter().cloned().collect();
        let mut r = rope.reader();
        frames(&mut r, |r, len| r.copy_to_bytes(len))
    });
    g.finish();
}

/// The size of one read in the streaming benches: one TCP segment on a 1500-byte MTU.
const SEGMENT: usize = 1448;
/// The size of the streams in the streaming benches.
const STREAM: usize = 1024 * 1024;

/// `stream` cut into `SEGMENT`-byte reads, each its own allocation and already shared (as a
/// `Bytes` split off a socket buffer is), so that a clone costs one reference count.
fn segments(stream: &[u8]) -> Vec<Bytes> {
    stream
        .chunks(SEGMENT)
        .map(|c| {
            let read = Bytes::copy_from_slice(c);
            drop(read.clone()); // shared from the start, not from the first timed run on
            read
        })
        .collect()
}

/// `STREAM` bytes of u32-big-endian-length-prefixed frames of 200..=1800 random bytes.
fn frame_stream() -> Vec<u8> {
    let mut rng = Rng::new(9);
    let mut stream = Vec::with_capacity(STREAM + 2048);
    while stream.len() < STREAM {
        let len = 200 + rng.below(1601);
        stream.extend_from_slice(&(len as u32).to_be_bytes());
        let at = stream.len();
        stream.resize(at + len, 0);
        rng.fill(&mut stream[at..]);
    }
    stream
}

/// Feeds `reads` one at a time to a decoder over the `Buf` `B`: `push` hands it a read,
/// `frame` takes `len` bytes off the front. Frames are dropped at once (the steady state of
/// a server); returns (frames, bytes in frames).
#[inline(always)]
fn decode_stream<B: Buf, F>(
    reads: Vec<Bytes>,
    buf: &mut B,
    mut push: impl FnMut(&mut B, Bytes),
    mut frame: impl FnMut(&mut B, usize) -> F,
) -> (usize, usize) {
    let (mut count, mut bytes) = (0, 0);
    let mut pending: Option<usize> = None; // the length of a frame whose header was read
    for read in reads {
        push(buf, read);
        loop {
            let len = match pending {
                Some(len) => len,
                None if buf.remaining() >= 4 => buf.get_u32() as usize,
                None => break,
            };
            if buf.remaining() < len {
                pending = Some(len);
                break;
            }
            pending = None;
            black_box(frame(buf, len));
            count += 1;
            bytes += len;
        }
    }
    (count, bytes)
}

/// A 1 MiB stream of length-prefixed frames arriving as TCP-segment reads, framed as it
/// arrives: the queue against copying into one `BytesMut`, and against the peers' buffers.
/// Every decoder is handed the reads by value, as a socket loop hands them over, and
/// releases them (the baseline once copied, the others once framed).
fn stream_framing(c: &mut Criterion) {
    let name = "rope/stream_framing";
    let mut g = c.benchmark_group(name);
    let stream = frame_stream();
    let reads = segments(&stream);
    let fresh = || reads.clone();
    g.throughput(Throughput::Bytes(stream.len() as u64));
    let param = format!("u32-frames-200..1800-in-{SEGMENT}/{}", stream.len());
    let baseline = |reads: Vec<Bytes>| {
        decode_stream(
            reads,
            &mut BytesMut::new(),
            |b, read| b.extend_from_slice(&read),
            |b, len| b.split_to(len).freeze(),
        )
    };
    let segmented = |reads: Vec<Bytes>| {
        decode_stream(
            reads,
            &mut SegmentedBuf::<Bytes>::new(),
            |b, read| b.push(read),
            |b, len| b.copy_to_bytes(len),
        )
    };
    let buf_list = |reads: Vec<Bytes>| {
        decode_stream(
            reads,
            &mut BufList::new(),
            |b, read| {
                b.push_chunk(read);
            },
            |b, len| b.copy_to_bytes(len),
        )
    };
    let ours = |reads: Vec<Bytes>| {
        decode_stream(
            reads,
            &mut ByteQueue::new(),
            |q, read| q.push(read),
            |q, len| q.split_to(len),
        )
    };
    let ours_bytes = |reads: Vec<Bytes>| {
        decode_stream(
            reads,
            &mut ByteQueue::new(),
            |q, read| q.push(read),
            |q, len| q.copy_to_bytes(len),
        )
    };
    let expected = baseline(fresh());
    assert!(expected.0 > 1000, "{expected:?}");
    assert_eq!(segmented(fresh()), expected);
    assert_eq!(buf_list(fresh()), expected);
    assert_eq!(ours(fresh()), expected);
    assert_eq!(ours_bytes(fresh()), expected);
    bench_owned(&mut g, name, "baseline", &param, fresh, baseline);
    bench_owned(&mut g, name, "SegmentedBuf", &param, fresh, segmented);
    bench_owned(&mut g, name, "BufList", &param, fresh, buf_list);
    bench_owned(&mut g, name, "ours", &param, fresh, ours);
    // Contiguous frames (a copy only for those that straddle two reads).
    bench_owned(&mut g, name, "ours-bytes", &param, fresh, ours_bytes);
    // Frames parsed in place through the borrowed view (no copy, no reference count per
    // frame): the parse reads the frame's first twelve bytes.
    let in_place = |reads: Vec<Bytes>| {
        decode_stream(
            reads,
            &mut ByteQueue::new(),
            |q, read| q.push(read),
            |q, len| {
                let parsed = q.view(len).map(parse);
                q.advance(len);
                parsed
            },
        )
    };
    assert_eq!(in_place(fresh()), expected);
    bench_owned(&mut g, name, "ours-in-place", &param, fresh, in_place);
    g.finish();
}

/// A stand-in for parsing a frame (of at least 12 bytes): a u64 and a u32.
#[inline(always)]
fn parse(mut frame: impl Buf) -> u64 {
    frame.get_u64_le() ^ u64::from(frame.get_u32_le())
}

/// Length-prefixed frames of `sizes` bytes each (u32 big-endian lengths), `total` bytes of
/// them at least, random content.
fn frames_of(mut size: impl FnMut(&mut Rng) -> usize, total: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let mut stream = Vec::with_capacity(total + 70_000);
    while stream.len() < total {
        let len = size(&mut rng);
        stream.extend_from_slice(&(len as u32).to_be_bytes());
        let at = stream.len();
        stream.resize(at + len, 0);
        rng.fill(&mut stream[at..]);
    }
    stream
}

/// One connection over TCP loopback: a thread connects and writes `stream`, then closes;
/// `read` frames what arrives. Returns what `read` returns (frames, bytes in frames).
fn over_tcp<F, Fut>(
    rt: &tokio::runtime::Runtime,
    listener: &tokio::net::TcpListener,
    stream: &std::sync::Arc<Vec<u8>>,
    read: F,
) -> (usize, usize)
where
    F: FnOnce(tokio::net::TcpStream) -> Fut,
    Fut: std::future::Future<Output = (usize, usize)>,
{
    use std::io::Write;
    let addr = listener.local_addr().expect("an address");
    let data = std::sync::Arc::clone(stream);
    let writer = std::thread::spawn(move || {
        let mut socket = std::net::TcpStream::connect(addr).expect("connects");
        socket.write_all(&data).expect("writes");
    });
    let out = rt.block_on(async {
        let (socket, _) = listener.accept().await.expect("accepts");
        read(socket).await
    });
    writer.join().expect("the writer");
    out
}

/// Reads `socket` to its end into one reused 64 KiB buffer: (reads, bytes).
async fn read_all(mut socket: tokio::net::TcpStream) -> (usize, usize) {
    use tokio::io::AsyncReadExt;
    let mut buf = vec![0u8; 64 * 1024];
    let (mut reads, mut bytes) = (0, 0);
    loop {
        match socket.read(&mut buf).await.expect("reads") {
            0 => return (reads, bytes),
            n => {
                reads += 1;
                bytes += n;
                black_box(&buf[..n]);
            }
        }
    }
}

/// Counts and drops the frames of a stream of results, `len` giving a frame's length.
async fn drain<S, T, E>(mut frames: S, len: impl Fn(&T) -> usize) -> (usize, usize)
where
    S: futures_util::Stream<Item = Result<T, E>> + Unpin,
    E: std::fmt::Debug,
{
    use futures_util::StreamExt;
    let (mut count, mut bytes) = (0, 0);
    while let Some(frame) = frames.next().await {
        let frame = frame.expect("a frame");
        count += 1;
        bytes += len(&frame);
        black_box(frame);
    }
    (count, bytes)
}

/// Frames over real TCP loopback (a writer thread, a current-thread tokio runtime): the
/// queue's `FrameReader` against tokio-util's `FramedRead` with `LengthDelimitedCodec` and
/// `AnyDelimiterCodec`, both starting from 16 KiB read buffers. Large frames (64 KiB) cost
/// tokio-util a contiguous buffer per frame; small ones (100..2000 bytes) and lines are the
/// parity case. Each sample includes the connection's set-up, the same for both.
fn tcp_framing(c: &mut Criterion) {
    use tokio_util::codec::{AnyDelimiterCodec, FramedRead, LengthDelimitedCodec};
    use wirebytes_rope::{Delimited, FrameReader, LengthDelimited};

    const READ: usize = 16 * 1024;
    const TOTAL: usize = 4 * 1024 * 1024;
    let name = "rope/tcp_framing";
    let mut g = c.benchmark_group(name);
    g.sample_size(20);
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .build()
        .expect("a runtime");
    let listener = rt
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .expect("a port");
    let cases = [
        ("64KiB-frames", frames_of(|_| 64 * 1024, TOTAL, 11)),
        (
            "frames-100..2000",
            frames_of(|rng| 100 + rng.below(1901), TOTAL, 12),
        ),
    ];
    for (label, stream) in cases {
        let stream = std::sync::Arc::new(stream);
        g.throughput(Throughput::Bytes(stream.len() as u64));
        let param = format!("{label}-read-16KiB/{}", stream.len());
        let theirs = || {
            over_tcp(&rt, &listener, &stream, |socket| {
                let codec = LengthDelimitedCodec::builder()
                    .max_frame_length(1 << 20)
                    .new_codec();
                drain(FramedRead::with_capacity(socket, codec, READ), |f| f.len())
            })
        };
        let ours = || {
            over_tcp(&rt, &listener, &stream, |socket| async move {
                let framing = LengthDelimited::new().max_frame_len(1 << 20);
                let mut reader = FrameReader::length_delimited(socket, framing);
                reader.queue_mut().set_read_chunk(READ);
                drain(reader, ByteString::len).await
            })
        };
        let expected = theirs();
        assert!(expected.0 > 60, "{expected:?}");
        assert_eq!(ours(), expected);
        bench(&mut g, name, "tokio-util", &param, &(), |()| theirs());
        bench(&mut g, name, "ours", &param, &(), |()| ours());
        // The floor of both: the same bytes read into one reused 64 KiB buffer, not framed.
        let read_only = || over_tcp(&rt, &listener, &stream, read_all);
        assert_eq!(read_only().1, stream.len());
        bench(&mut g, name, "limit-read", &param, &(), |()| read_only());
    }

    let lines = std::sync::Arc::new(line_stream_of(TOTAL));
    g.throughput(Throughput::Bytes(lines.len() as u64));
    let param = format!("lf-lines-20..400-read-16KiB/{}", lines.len());
    let theirs = || {
        over_tcp(&rt, &listener, &lines, |socket| {
            let codec = AnyDelimiterCodec::new(b"\n".to_vec(), Vec::new());
            drain(FramedRead::with_capacity(socket, codec, READ), |f| f.len())
        })
    };
    let ours = || {
        over_tcp(&rt, &listener, &lines, |socket| async move {
            let mut reader = FrameReader::delimited(socket, Delimited::byte(b'\n'));
            reader.queue_mut().set_read_chunk(READ);
            drain(reader, ByteString::len).await
        })
    };
    let expected = theirs();
    assert!(expected.0 > 10_000, "{expected:?}");
    assert_eq!(ours(), expected);
    bench(&mut g, name, "tokio-util", &param, &(), |()| theirs());
    bench(&mut g, name, "ours", &param, &(), |()| ours());
    g.finish();
}

/// `total` bytes of `\n`-terminated lines of 20..=400 bytes.
fn line_stream_of(total: usize) -> Vec<u8> {
    let mut rng = Rng::new(13);
    let mut stream = Vec::with_capacity(total + 512);
    while stream.len() < total {
        let len = 20 + rng.below(381);
        stream.extend((0..len - 1).map(|_| b' ' + rng.below(95) as u8));
        stream.push(b'\n');
    }
    stream
}

/// `STREAM` bytes of `\r\n`-terminated lines of 20..=400 bytes (terminator included).
fn line_stream() -> Vec<u8> {
    let mut rng = Rng::new(10);
    let mut stream = Vec::with_capacity(STREAM + 512);
    while stream.len() < STREAM {
        let len = 20 + rng.below(381);
        stream.extend((0..len - 2).map(|_| b' ' + rng.below(95) as u8));
        stream.extend_from_slice(b"\r\n");
    }
    stream
}

/// The same stream split into lines as it arrives: the queue's `find_byte` and `split_to`
/// against `memchr` on one growing `BytesMut` (which remembers how far it has searched), and
/// the queue remembering too (`ours-from`, `find_byte_from`: what pays when lines span many
/// reads; with these short lines, searching again the part of a line in the first read costs
/// less than keeping count). All are handed the reads by value.
fn line_framing(c: &mut Criterion) {
    let name = "rope/line_framing";
    let mut g = c.benchmark_group(name);
    let stream = line_stream();
    let reads = segments(&stream);
    let fresh = || reads.clone();
    g.throughput(Throughput::Bytes(stream.len() as u64));
    let param = format!("crlf-lines-20..400-in-{SEGMENT}/{}", stream.len());
    let baseline = |reads: Vec<Bytes>| {
        let (mut count, mut bytes) = (0, 0);
        let mut buf = BytesMut::new();
        let mut searched = 0;
        for read in reads {
            buf.extend_from_slice(&read);
            while let Some(p) = memchr::memchr(b'\n', &buf[searched..]) {
                let line = buf.split_to(searched + p + 1).freeze();
                count += 1;
                bytes += line.len();
                black_box(line);
                searched = 0;
            }
            searched = buf.len();
        }
        (count, bytes)
    };
    let ours_from = |reads: Vec<Bytes>| {
        let (mut count, mut bytes) = (0, 0);
        let mut queue = ByteQueue::new();
        let mut searched = 0;
        for read in reads {
            queue.push(read);
            while let Some(p) = queue.find_byte_from(b'\n', searched) {
                let line = queue.split_to(p + 1);
                count += 1;
                bytes += line.len();
                black_box(line);
                searched = 0;
            }
            searched = queue.len();
        }
        (count, bytes)
    };
    let ours = |reads: Vec<Bytes>| {
        let (mut count, mut bytes) = (0, 0);
        let mut queue = ByteQueue::new();
        for read in reads {
            queue.push(read);
            while let Some(p) = queue.find_byte(b'\n') {
                let line = queue.split_to(p + 1);
                count += 1;
                bytes += line.len();
                black_box(line);
            }
        }
        (count, bytes)
    };
    let expected = baseline(fresh());
    assert_eq!(ours(fresh()), expected);
    assert_eq!(ours_from(fresh()), expected);
    assert!(expected.0 > 4000, "{expected:?}");
    bench_owned(&mut g, name, "baseline", &param, fresh, baseline);
    bench_owned(&mut g, name, "ours", &param, fresh, ours);
    bench_owned(&mut g, name, "ours-from", &param, fresh, ours_from);
    g.finish();

    // The same lines found by their two-byte terminator: `memmem` on the growing `BytesMut`
    // (from one byte before where it stopped) against the queue's `find_from`.
    let name = "rope/line_framing_crlf";
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Bytes(stream.len() as u64));
    let baseline = |reads: Vec<Bytes>| {
        let (mut count, mut bytes) = (0, 0);
        let mut buf = BytesMut::new();
        let mut searched = 0;
        for read in reads {
            buf.extend_from_slice(&read);
            while let Some(p) = memchr::memmem::find(&buf[searched..], b"\r\n") {
                let line = buf.split_to(searched + p + 2).freeze();
                count += 1;
                bytes += line.len();
                black_box(line);
                searched = 0;
            }
            searched = buf.len().saturating_sub(1);
        }
        (count, bytes)
    };
    let ours = |reads: Vec<Bytes>| {
        let (mut count, mut bytes) = (0, 0);
        let mut queue = ByteQueue::new();
        let mut searched = 0;
        for read in reads {
            queue.push(read);
            while let Some(p) = queue.find_from(b"\r\n", searched) {
                let line = queue.split_to(p + 2);
                count += 1;
                bytes += line.len();
                black_box(line);
                searched = 0;
            }
            searched = queue.len().saturating_sub(1);
        }
        (count, bytes)
    };
    assert_eq!(baseline(fresh()), expected);
    assert_eq!(ours(fresh()), expected);
    bench_owned(&mut g, name, "limit-memmem", &param, fresh, baseline);
    bench_owned(&mut g, name, "ours", &param, fresh, ours);
    g.finish();
}

/// [`Joining::append`] copies a junction into one fragment when the two fragments that meet
/// there hold together at most this many bytes.
const JOIN_LIMIT: usize = 64;

/// A `ByteString` built by appends that join tiny fragments: the road measured and not
/// taken by `ByteString::append` (which keeps every fragment as it is), on the crate's
/// public API. The string is held without its last fragment, which stays apart so that a
/// join replaces it in O(1); every other fragment goes in with `ByteString::push`, in place
/// as `append` does inside the crate.
#[derive(Default)]
struct Joining {
    /// Every fragment but the last.
    head: ByteString,
    /// The last fragment (empty while there is none).
    last: Bytes,
}

impl Joining {
    /// Appends `other`, copying the junction into one fresh fragment when the last fragment
    /// so far and the first of `other` hold together at most `JOIN_LIMIT` bytes.
    fn append(&mut self, other: &ByteString) {
        for (i, fragment) in other.fragments().enumerate() {
            if i == 0 && !self.last.is_empty() && self.last.len() + fragment.len() <= JOIN_LIMIT {
                let mut joined = Vec::with_capacity(self.last.len() + fragment.len());
                joined.extend_from_slice(&self.last);
                joined.extend_from_slice(fragment);
                self.last = Bytes::from(joined);
            } else {
                self.head
                    .push(std::mem::replace(&mut self.last, fragment.clone()));
            }
        }
    }

    /// The string built.
    fn finish(mut self) -> ByteString {
        self.head.push(self.last);
        self.head
    }
}

/// What joining tiny fragments on `append` would be worth (`ours-joined`, not adopted): 2048
/// pieces of 1..=32 bytes appended one by one, then (second input) read back byte by byte.
fn append_tiny(c: &mut Criterion) {
    let name = "rope/append_tiny";
    let mut g = c.benchmark_group(name);
    let mut rng = Rng::new(8);
    let pieces: Vec<ByteString> = (0..2048)
        .map(|_| {
            let mut v = vec![0; 1 + rng.below(32)];
            rng.fill(&mut v);
            ByteString::from(v)
        })
        .collect();
    let total: usize = pieces.iter().map(ByteString::len).sum();
    g.throughput(Throughput::Bytes(total as u64));
    let build = |pieces: &[ByteString], join: bool| {
        if join {
            let mut s = Joining::default();
            for p in pieces {
                s.append(p);
            }
            s.finish()
        } else {
            let mut s = ByteString::new();
            for p in pieces {
                s.append(p);
            }
            s
        }
    };
    // Both hold the same bytes; joining leaves fragments of 33..=64 bytes but the last.
    let (kept, joined) = (build(&pieces, false), build(&pieces, true));
    assert_eq!(kept, joined);
    assert_eq!(kept.fragment_count(), pieces.len());
    let fragments: Vec<usize> = joined.chunks().map(<[u8]>::len).collect();
    assert!(
        fragments
            .iter()
            .rev()
            .skip(1)
            .all(|&n| n > JOIN_LIMIT - 32 && n <= JOIN_LIMIT)
    );
    for scan in [false, true] {
        let param = format!("{}/{total}", if scan { "append+get" } else { "append" });
        // (both inputs: the join's cost alone, and with a read of every byte after it)
        for (function, join) in [("ours", false), ("ours-joined", true)] {
            bench(&mut g, name, function, &param, &pieces[..], |pieces| {
                let s = build(pieces, join);
                if scan {
                    (0..s.len()).fold(0, |acc, i| step(acc, s.get(i).unwrap_or(0)))
                } else {
                    s.len() as u32
                }
            });
        }
    }
    g.finish();
}

criterion_group!(
    group,
    eq,
    get_u32_le,
    get_sequential,
    find,
    hash,
    framing,
    stream_framing,
    line_framing,
    tcp_framing,
    append_tiny
);
criterion_main!(group);
