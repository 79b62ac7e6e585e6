//! UTF-16 input to UTF-8: the exact length in one counting pass the compiler vectorises,
//! then the bytes written straight into the sink's room (a `Vec`'s spare capacity, the
//! caller's slice) or, for the other sinks, a staged piece at a time.

use crate::Policy;
use crate::arch::Kernels;
use crate::counters::{Path, add};
use crate::sink::{Room, Sink};

/// Units a sink that cannot lend its memory takes per staged piece: their worst case, three
/// bytes a unit, fits its 2 KiB staging buffer.
const PIECE: usize = 680;

/// Whether `u` is a UTF-16 surrogate, high or low.
#[inline(always)]
fn is_surrogate(u: u16) -> bool {
    u & 0xF800 == 0xD800
}

/// Whether `u` is a high (leading) surrogate.
#[inline(always)]
pub(crate) fn is_high(u: u16) -> bool {
    u & 0xFC00 == 0xD800
}

/// Whether `u` is a low (trailing) surrogate.
#[inline(always)]
pub(crate) fn is_low(u: u16) -> bool {
    u & 0xFC00 == 0xDC00
}

/// The scalar value of the surrogate pair `high`, `low` (a high surrogate, then a low one).
#[inline(always)]
pub(crate) fn join_pair(high: u16, low: u16) -> u32 {
    0x1_0000 + ((u32::from(high) & 0x3FF) << 10) + (u32::from(low) & 0x3FF)
}

/// The surrogate pairs of `units`: the high surrogates right before a low one (as
/// `char::decode_utf16` joins them), counted by a loop the compiler vectorises (the AVX2
/// pairs kernel is this loop, built for AVX2).
#[inline(always)]
pub(crate) fn pairs(units: &[u16]) -> usize {
    let Some(next) = units.get(1..) else {
        return 0;
    };
    let mut pairs = 0;
    for (a, b) in units.chunks(1 << 16).zip(next.chunks(1 << 16)) {
        let joined = a.iter().zip(b);
        pairs += joined.fold(0u32, |n, (&a, &b)| n + u32::from(is_high(a) & is_low(b))) as usize;
    }
    pairs
}

/// The length of `units` as UTF-8, an unpaired surrogate taking `lone_len` bytes.
///
/// Every unit counts 1, one more from U+0080 and one more from U+0800, so a surrogate counts
/// 3. A pair (a high surrogate right before a low one, as `char::decode_utf16` joins them) is
/// 4 bytes, not 6; each other surrogate is `lone_len`, not 3. Through the count kernel where
/// `kernels` has one, else [`utf8_counts`].
pub(crate) fn utf8_len(units: &[u16], lone_len: usize, kernels: Kernels) -> usize {
    // All ASCII: one byte a unit, found by the cheapest pass (not run where the first 64
    // units are not all ASCII: the count pass then runs alone).
    if max_unit(&units[..units.len().min(64)]) < 0x80 && greatest(units, kernels) < 0x80 {
        return units.len();
    }
    let (len, surrogates) = kernels
        .utf16_counts(units)
        .unwrap_or_else(|| utf8_counts(units));
    if surrogates == 0 {
        return len;
    }
    let pairs = count_pairs(units, kernels);
    let lone = surrogates - 2 * pairs;
    len - 2 * pairs - (3 - lone_len) * lone
}

/// The length of `units` as UTF-8 with every surrogate counted 3, and the number of
/// surrogates: 16-bit sums over blocks short enough for them (each unit adds at most 2), in a
/// loop the compiler vectorises (the count kernels are this loop, built for AVX2 and
/// AVX-512).
#[inline(always)]
pub(crate) fn utf8_counts(units: &[u16]) -> (usize, usize) {
    let (mut len, mut surrogates) = (units.len(), 0);
    for block in units.chunks(1 << 14) {
        let (mut above, mut surrogate) = (0u16, 0u16);
        for &u in block {
            above += u16::from(u >= 0x80) + u16::from(u >= 0x800);
            surrogate += u16::from(is_surrogate(u));
        }
        len += usize::from(above);
        surrogates += usize::from(surrogate);
    }
    (len, surrogates)
}

/// The chars of `units`: each unit is one, but a surrogate pair (a high surrogate right
/// before a low one) is one char of two units.
pub(crate) fn chars(units: &[u16], kernels: Kernels) -> usize {
    // No unit from the first surrogate on: no pair.
    if greatest(units, kernels) < 0xD800 {
        return units.len();
    }
    units.len() - count_pairs(units, kernels)
}

/// The surrogate pairs of `units`, through the kernel where `kernels` has one.
#[inline]
fn count_pairs(units: &[u16], kernels: Kernels) -> usize {
    kernels.utf16_pairs(units).unwrap_or_else(|| pairs(units))
}

/// The greatest unit of `units` (0 when empty), through the kernel where `kernels` has one.
#[inline]
fn greatest(units: &[u16], kernels: Kernels) -> u16 {
    kernels.utf16_max(units).unwrap_or_else(|| max_unit(units))
}

/// The greatest unit of `units` (0 when empty), in a loop the compiler vectorises (the kernels
/// are this loop, built for AVX2 and AVX-512).
#[inline(always)]
pub(crate) fn max_unit(units: &[u16]) -> u16 {
    units.iter().fold(0, |max, &u| max.max(u))
}

/// What one [`write_run`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Step {
    /// Units read.
    read: usize,
    /// Bytes written.
    written: usize,
    /// Whether an unpaired surrogate was replaced.
    replaced: bool,
}

/// The length of the run of ASCII that starts `units`, in whole chunks of sixteen units
/// (loops the compiler vectorises): 0 where the first sixteen are not all ASCII.
#[inline(always)]
fn ascii_run_len(units: &[u16]) -> usize {
    let ascii = |chunk: &[u16]| chunk.iter().fold(0, |acc, &u| acc | u) < 0x80;
    match units.get(..16) {
        Some(first) if ascii(first) => {
            16 + units[16..]
                .chunks_exact(16)
                .take_while(|c| ascii(c))
                .count()
                * 16
        }
        _ => 0,
    }
}

/// The UTF-8 of one char of `units`, from its first unit: the bytes in a 4-byte array, how
/// many of them are used, and how many units the char took. `None` for a high surrogate that
/// ends `units` when more units may follow (`last` false): its pair may go on.
#[inline(always)]
fn char_at(units: &[u16], last: bool, policy: Policy) -> Option<([u8; 4], usize, usize)> {
    let u = *units.first()?;
    let lone = || {
        if policy == Policy::Jdk {
            ([b'?', 0, 0, 0], 1, 1)
        } else {
            ([0xEF, 0xBF, 0xBD, 0], 3, 1)
        }
    };
    Some(match u {
        0..=0x7F => ([u as u8, 0, 0, 0], 1, 1),
        0x80..=0x7FF => ([0xC0 | (u >> 6) as u8, 0x80 | (u & 0x3F) as u8, 0, 0], 2, 1),
        0xD800..=0xDBFF => match units.get(1) {
            Some(&low) if is_low(low) => {
                let c = join_pair(u, low);
                let bytes = [
                    0xF0 | (c >> 18) as u8,
                    0x80 | (c >> 12 & 0x3F) as u8,
                    0x80 | (c >> 6 & 0x3F) as u8,
                    0x80 | (c & 0x3F) as u8,
                ];
                (bytes, 4, 2)
            }
            None if !last => return None,
            _ => lone(),
        },
        0xDC00..=0xDFFF => lone(),
        _ => {
            let bytes = [
                0xE0 | (u >> 12) as u8,
                0x80 | (u >> 6 & 0x3F) as u8,
                0x80 | (u & 0x3F) as u8,
                0,
            ];
            (bytes, 3, 1)
        }
    })
}

/// Writes the UTF-8 of `units` into `room` from its front, whole chars only, until the next
/// does not fit. `last`: no units follow `units` (a high surrogate at the end is unpaired).
/// Unpaired surrogates are replaced as `policy` says (never [`Policy::Strict`]: its caller
/// checks first).
fn write_run(
    units: &[u16],
    last: bool,
    policy: Policy,
    kernels: Kernels,
    room: &mut Room<'_>,
) -> Step {
    let mut step = Step::default();
    let (mut r, mut w) = (0, 0);
    // The kernel's steps first; where it stops (a surrogate, a room too short for its step,
    // the last units), the code below takes the next `skip` units before it is tried again:
    // 16, doubled up to 256 each time in a row it takes nothing (text full of surrogates).
    //
    // The units up to `covered_end` are covered: the kernel's steps there may write past
    // their output. All of them where the room takes scratch bytes; in the caller's slice,
    // all but the last `COVER`, which write at least `UTF16_UTF8_SCRATCH` bytes after them,
    // over those (a byte or more each: such a run is the last, where a high surrogate at the
    // end is replaced too), or the run does not fit and the slice holds nothing usable.
    const COVER: usize = crate::arch::UTF16_UTF8_SCRATCH;
    let scratch = room.scratch();
    debug_assert!(
        scratch || last,
        "a run into the caller's slice is the whole rest"
    );
    let covered_end = if scratch {
        units.len()
    } else {
        units.len().saturating_sub(COVER)
    };
    let mut next_try = if kernels.has_utf16_utf8(scratch || covered_end > 0) {
        0
    } else {
        usize::MAX
    };
    let mut skip = 16;
    while r < units.len() {
        if r >= next_try {
            let covered = covered_end.saturating_sub(r);
            if let Some((read, wrote)) = kernels.utf16_utf8(&units[r..], room, w, covered) {
                r += read;
                w += wrote;
                skip = if read == 0 { (2 * skip).min(256) } else { 16 };
            }
            // Past the covered units, a kernel that needs them is not tried again.
            next_try = if r < covered_end || kernels.has_utf16_utf8(scratch) {
                r + skip
            } else {
                usize::MAX
            };
            if r == units.len() {
                break;
            }
        }
        // From an ASCII unit on: a run of ASCII in whole chunks of sixteen units, in one go
        // (loops the compiler vectorises), else four units. Where they do not fit, the units
        // go one at a time below.
        if units[r] < 0x80 {
            let run = ascii_run_len(&units[r..]);
            if run > 0 && room.put_each(w, &units[r..r + run], |u| [u as u8]) {
                add(Path::Utf16AsciiChunks, run);
                r += run;
                w += run;
                continue;
            }
            if let Some(&[a, b, c, d]) = units.get(r..r + 4).and_then(|s| s.first_chunk::<4>()) {
                if (a | b | c | d) < 0x80 && room.put(w, [a as u8, b as u8, c as u8, d as u8]) {
                    r += 4;
                    w += 4;
                    continue;
                }
            }
        }
        let Some((bytes, n, units_read)) = char_at(&units[r..], last, policy) else {
            break;
        };
        let fits = match n {
            1 => room.put(w, [bytes[0]]),
            2 => room.put(w, [bytes[0], bytes[1]]),
            3 => room.put(w, [bytes[0], bytes[1], bytes[2]]),
            _ => room.put(w, bytes),
        };
        if !fits {
            break;
        }
        step.replaced |= is_surrogate(units[r]) && units_read == 1;
        r += units_read;
        w += n;
    }
    step.read = r;
    step.written = w;
    step
}

/// Appends `prefix` then UTF-16 `units` as UTF-8; an unpaired surrogate is `?`
/// ([`Policy::Jdk`]), U+FFFD ([`Policy::Whatwg`]) or `Err` with its index
/// ([`Policy::Strict`], nothing appended). An exact sink is sized first by [`utf8_len`].
pub(crate) fn to_utf8<S: Sink>(
    prefix: &[u8],
    units: &[u16],
    policy: Policy,
    kernels: Kernels,
    out: &mut S,
) -> Result<(), usize> {
    if policy == Policy::Strict {
        if let Some(at) = crate::unicode::first_lone(units) {
            return Err(at);
        }
    }
    if S::EXACT {
        let lone_len = if policy == Policy::Jdk { 1 } else { 3 };
        out.reserve_exact(prefix.len() + utf8_len(units, lone_len, kernels));
    }
    out.extend_from_slice(prefix);
    let mut i = 0;
    while i < units.len() && !out.full() {
        let rest = &units[i..];
        // A sink with its own memory takes the rest at once into what it has (an exact
        // `Vec` has room for all of it; a slice what is left of it); another takes a piece
        // whose worst case fits its staging buffer.
        let (take, max) = if S::IN_PLACE {
            (rest.len(), out.spare().min(3 * rest.len()))
        } else {
            let take = rest.len().min(PIECE);
            (take, 3 * take)
        };
        let mut step = Step::default();
        out.put_with(max, |room| {
            step = write_run(&rest[..take], take == rest.len(), policy, kernels, room);
            step.written
        });
        add(Path::Utf16ToUtf8Run, step.read);
        add(Path::Utf16ToUtf8Rounds, 1);
        if step.replaced {
            out.replaced();
        }
        if step.read == 0 {
            // The room cannot take the next char (a slice that is too short): appended
            // alone, it marks the sink full.
            if let Some((bytes, n, units_read)) = char_at(rest, true, policy) {
                out.extend_from_slice(&bytes[..n]);
                step.read = units_read;
            }
        }
        i += step.read;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{PIECE, utf8_len, write_run};
    use crate::Policy;
    use crate::arch::Kernels;
    use crate::sink::Room;
    use rstest::rstest;

    /// The UTF-8 `char::decode_utf16` gives, an unpaired surrogate as `lone`.
    fn reference(units: &[u16], lone: &str) -> Vec<u8> {
        let mut out = String::new();
        for c in char::decode_utf16(units.iter().copied()) {
            match c {
                Ok(c) => out.push(c),
                Err(_) => out.push_str(lone),
            }
        }
        out.into_bytes()
    }

    /// Units around every class boundary and every kind of surrogate placement.
    const EDGES: [u16; 16] = [
        0, 0x41, 0x7F, 0x80, 0xE9, 0x7FF, 0x800, 0x4E2D, 0xD7FF, 0xD800, 0xDBFF, 0xDC00, 0xDFFF,
        0xE000, 0xFFFD, 0xFFFF,
    ];

    /// Every sequence of three edge units, at every offset after some ASCII.
    fn edge_texts() -> Vec<Vec<u16>> {
        let mut texts = Vec::new();
        for &a in &EDGES {
            for &b in &EDGES {
                for &c in &EDGES {
                    for pad in [0, 1, 3, 5, 17, 30] {
                        let mut t = vec![0x61; pad];
                        t.extend([a, b, c]);
                        texts.push(t);
                    }
                }
            }
        }
        texts
    }

    #[rstest]
    #[case::jdk(Policy::Jdk, "?", 1)]
    #[case::whatwg(Policy::Whatwg, "\u{FFFD}", 3)]
    fn the_length_is_the_reference_s(
        #[case] _policy: Policy,
        #[case] lone: &str,
        #[case] lone_len: usize,
    ) {
        for units in edge_texts() {
            for (name, kernels) in Kernels::levels() {
                assert_eq!(
                    utf8_len(&units, lone_len, kernels),
                    reference(&units, lone).len(),
                    "{name} {units:x?}"
                );
            }
        }
    }

    #[rstest]
    #[case::jdk(Policy::Jdk, "?")]
    #[case::whatwg(Policy::Whatwg, "\u{FFFD}")]
    fn a_run_writes_the_reference_bytes(#[case] policy: Policy, #[case] lone: &str) {
        for (name, kernels) in Kernels::levels() {
            for units in edge_texts() {
                let want = reference(&units, lone);
                let mut buf = vec![0u8; 3 * units.len()];
                let mut room = Room::new(&mut buf);
                let step = write_run(&units, true, policy, kernels, &mut room);
                assert_eq!(step.read, units.len(), "{name} {units:x?}");
                assert_eq!(&buf[..step.written], &want[..], "{name} {units:x?}");
                let lone_there = char::decode_utf16(units.iter().copied()).any(|c| c.is_err());
                assert_eq!(step.replaced, lone_there, "{name} {units:x?}");
            }
        }
    }

    /// Every unit alone, after ASCII, after a high surrogate and before a low one: the
    /// length and the bytes of the reference.
    #[test]
    fn every_unit_in_every_place() {
        let kernels = Kernels::detect();
        let mut long = vec![0x4E2D; 40];
        for u in 0..=0xFFFF_u16 {
            let at = usize::from(u) % 24;
            long[at] = u;
            long[at + 1] = 0xDE00;
            for units in [
                &[u][..],
                &[0x61, 0x62, 0x63, u, 0x64],
                &[0xD83D, u],
                &[u, 0xDE00],
                &long,
            ] {
                for (policy, lone) in [(Policy::Jdk, "?"), (Policy::Whatwg, "\u{FFFD}")] {
                    let want = reference(units, lone);
                    assert_eq!(
                        utf8_len(units, lone.len(), kernels),
                        want.len(),
                        "{units:x?}"
                    );
                    let mut buf = [0u8; 128];
                    let step = write_run(units, true, policy, kernels, &mut Room::new(&mut buf));
                    assert_eq!(step.read, units.len(), "{units:x?}");
                    assert_eq!(&buf[..step.written], &want[..], "{units:x?}");
                }
            }
            long[at] = 0x4E2D;
            long[at + 1] = 0x4E2D;
        }
    }

    /// Pairs and lone surrogates on both sides of the 65,536-unit chunks of the counting
    /// pass.
    #[test]
    fn the_length_holds_across_counting_chunks() {
        for at in [65_534, 65_535, 65_536, 131_071] {
            for pair in [[0xD83D, 0xDE00], [0xDE00, 0xD83D]] {
                let mut units = vec![0x61; 140_000];
                units[at..at + 2].copy_from_slice(&pair);
                for (lone, lone_len) in [("?", 1), ("\u{FFFD}", 3)] {
                    let want = reference(&units, lone).len();
                    for (name, kernels) in Kernels::levels() {
                        let len = utf8_len(&units, lone_len, kernels);
                        assert_eq!(len, want, "{name} {at} {pair:x?}");
                    }
                }
            }
        }
    }

    /// A room too short for the whole text takes the whole chars that fit, and leaves the
    /// bytes past them as they were.
    #[test]
    fn a_short_room_takes_whole_chars() {
        let text = "ab\u{E9}\u{4E2D}cdef".repeat(8) + "\u{1F600}" + &"\u{4E2D}".repeat(20);
        let units: Vec<u16> = text.encode_utf16().collect();
        let want = reference(&units, "?");
        let rooms = (0..want.len()).flat_map(|n| Kernels::levels().map(move |(_, k)| (n, k)));
        for (room_len, kernels) in rooms {
            let mut buf = vec![0xAAu8; room_len + 4];
            let mut room = Room::new(&mut buf[..room_len]);
            let step = write_run(&units, true, Policy::Jdk, kernels, &mut room);
            assert!(step.written <= room_len, "{room_len}");
            assert_eq!(&buf[..step.written], &want[..step.written], "{room_len}");
            assert!(buf[step.written..].iter().all(|&b| b == 0xAA), "{room_len}");
            assert_eq!(
                reference(&units[..step.read], "?").len(),
                step.written,
                "{room_len}"
            );
            let next = String::from_utf16_lossy(&units[step.read..]);
            let next_len = next.chars().next().map_or(0, char::len_utf8);
            assert!(
                next_len > room_len - step.written,
                "{room_len}: stopped too early"
            );
        }
    }

    /// A high surrogate that ends a piece with more to come is left for the next piece.
    #[test]
    fn a_high_surrogate_at_a_piece_end_waits_for_its_pair() {
        let mut units = vec![0x61; PIECE - 1];
        units.push(0xD83D);
        let mut buf = vec![0u8; 3 * PIECE];
        let kernels = Kernels::detect();
        // A run that is not the last is written into a staging room (the caller's slice
        // always takes the whole rest).
        let step = write_run(
            &units,
            false,
            Policy::Jdk,
            kernels,
            &mut Room::staging(&mut buf),
        );
        assert_eq!((step.read, step.written), (PIECE - 1, PIECE - 1));
        let step = write_run(&units, true, Policy::Jdk, kernels, &mut Room::new(&mut buf));
        assert_eq!(
            (step.read, step.written, step.replaced),
            (PIECE, PIECE, true)
        );
    }
}
