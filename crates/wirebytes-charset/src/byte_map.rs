//! The single-byte charsets where ASCII is not its own byte: the EBCDIC code pages, IBM864,
//! the Mac symbol charsets. Every char goes through the table. When the charset maps every
//! ASCII char: with AVX-512, runs of 64-byte windows of one- and two-byte chars through the
//! table window kernel (ASCII by a `vpermi2b` of the 128 ASCII bytes, two-byte chars by
//! theirs); a block of 64 ASCII bytes through a 128-byte lookup (one `vpermi2b` with AVX-512
//! VBMI, `pshufb` nibble lookups with SSSE3, a byte-by-byte loop elsewhere); everything else
//! char by char.

use crate::Policy;
use crate::arch::Kernels;
use crate::counters::{Path, add};
use crate::ncr::ncr_len;
use crate::single_byte::{BLOCK, Table, count_chars, decode_at, two_byte_block, window_run};
use crate::sink::{Sink, SliceSink, Tracked};

/// Output collects in a stack buffer of this many bytes and goes to the sink when it holds
/// fewer than [`ROOM`] free.
const STAGE: usize = 2048;
/// The most one block writes: [`BLOCK`] chars, each at most `&#1114111;` (ten bytes).
const ROOM: usize = BLOCK * 10;

/// The bytes of the ASCII chars at the start of `src`, 64 at a time while a block of 64 is
/// all ASCII and `dst` has room for it, through the charset's 128 ASCII bytes (every ASCII
/// char maps: the caller checks [`Table::maps_all_ascii`]); returns how many.
#[inline]
fn ascii_blocks(ascii: &[u8; 128], src: &[u8], dst: &mut [u8], kernels: Kernels) -> usize {
    if let Some(done) = kernels.byte_map(src, ascii, dst) {
        return done;
    }
    let mut done = 0;
    for (src, dst) in src.chunks_exact(BLOCK).zip(dst.chunks_exact_mut(BLOCK)) {
        if !src.is_ascii() {
            break;
        }
        for (d, &s) in dst.iter_mut().zip(src) {
            *d = ascii[usize::from(s & 0x7F)];
        }
        done += BLOCK;
    }
    add(Path::ByteMapPortable, done);
    done
}

/// Appends the encoding of `text` to `out`. [`Policy::Strict`]: `Err` with the byte offset
/// of the first unmappable char.
pub(crate) fn encode_str<S: Sink>(
    table: &Table,
    text: &str,
    policy: Policy,
    out: &mut S,
    kernels: Kernels,
) -> Result<(), usize> {
    let bytes = text.as_bytes();
    if S::EXACT {
        out.reserve_exact(len_str(table, text, policy));
    }
    let ascii = table.ascii_bytes();
    let blocks = table.maps_all_ascii();
    // The table window kernel (AVX-512 only, with the ASCII bytes), with the back-off of
    // `single_byte::encode_str`: after a run that declined its first window, `skip` blocks
    // go char by char before the next try.
    let windows = blocks && kernels.has_wide_table_window();
    let question_marks = policy == Policy::Jdk && !S::TRACKS && table.replacement == b'?';
    let (mut skip, mut misses) = (0u32, 0u32);
    let mut stage = [0u8; STAGE];
    let mut w = 0;
    let mut i = 0;
    while i < bytes.len() {
        if w + ROOM > STAGE {
            out.extend_from_slice(&stage[..w]);
            w = 0;
            if out.full() {
                return Ok(());
            }
        }
        if blocks {
            // A run of ASCII blocks, straight into the stage.
            let done = ascii_blocks(&ascii, &bytes[i..], &mut stage[w..], kernels);
            if done > 0 {
                w += done;
                i += done;
                continue;
            }
        }
        if windows && skip == 0 && w > 0 {
            out.extend_from_slice(&stage[..w]);
            w = 0;
        }
        if windows {
            if skip == 0 {
                let start = i;
                i = window_run(bytes, i, out, |window, dst| {
                    kernels
                        .table_window(window, table.pairs(), Some(&ascii), question_marks, dst)
                        .flatten()
                });
                if i == bytes.len() {
                    break;
                }
                if i == start {
                    crate::counters::add(crate::counters::Path::WindowRunDeclines, 1);
                    misses = (misses + 1).min(4);
                    skip = 1 << misses;
                } else {
                    misses = 0;
                }
            } else {
                skip -= 1;
            }
        }
        // A block of one- and two-byte chars, every char looked up in the table's pairs.
        let mut end = (i + BLOCK).min(bytes.len());
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        let block = &bytes[i..end];
        if block.iter().fold(0u8, |acc, &b| acc.max(b)) < 0xE0 {
            let mut sink = Tracked::new(SliceSink::new(&mut stage[w..]));
            if two_byte_block(table, block, false, policy, &mut sink) {
                w += sink.inner.len();
                if sink.replaced {
                    out.replaced();
                }
                i = end;
                continue;
            }
        }
        // Else the block's chars one by one.
        while i < end {
            let lead = bytes[i];
            let (c, len, mapped) = if lead < 0x80 {
                (u32::from(lead), 1, table.ascii(lead))
            } else {
                let (c, len) = decode_at(bytes, i, lead);
                let b = table.get(c);
                (c, len, (b != 0).then_some(b))
            };
            if let Some(b) = mapped {
                stage[w % STAGE] = b;
                w += 1;
            } else {
                match policy {
                    Policy::Jdk => {
                        stage[w % STAGE] = table.replacement;
                        w += 1;
                    }
                    Policy::Whatwg => {
                        let mut ncr = [0u8; 12];
                        let n = crate::ncr::write_ncr(&mut ncr, c);
                        if let Some(dst) = stage.get_mut(w..w + n) {
                            dst.copy_from_slice(&ncr[..n]);
                        }
                        w += n;
                    }
                    Policy::Strict => {
                        out.extend_from_slice(&stage[..w.min(STAGE)]);
                        return Err(i);
                    }
                }
                out.replaced();
            }
            i += len;
        }
    }
    out.extend_from_slice(&stage[..w.min(STAGE)]);
    Ok(())
}

/// The exact output length of `text` with `policy`.
pub(crate) fn len_str(table: &Table, text: &str, policy: Policy) -> usize {
    match policy {
        Policy::Whatwg => text
            .chars()
            .map(|c| {
                let mapped = match u8::try_from(c) {
                    Ok(b) if b < 0x80 => table.ascii(b).is_some(),
                    _ => table.get(u32::from(c)) != 0,
                };
                if mapped { 1 } else { ncr_len(c) }
            })
            .sum(),
        Policy::Jdk | Policy::Strict => count_chars(text.as_bytes()),
    }
}

#[cfg(test)]
mod tests {
    use crate::levels;
    use wirebytes_testkit::Rng;

    /// Every level's kernel against the lookup, on random tables and runs of ASCII (a
    /// non-ASCII byte stops a run at its block), and on every ASCII byte through the identity
    /// and the reversed table.
    #[test]
    fn the_byte_map_kernels_look_every_byte_up() {
        let mut rng = Rng::new(0x0B17_E3A9);
        let mut identity = [0u8; 128];
        for (b, slot) in identity.iter_mut().enumerate() {
            *slot = b as u8;
        }
        let reversed = identity.map(|b| 0xFF - b);
        let every: Vec<u8> = (0..128).collect();
        let mut cases = vec![(identity, every.clone()), (reversed, every)];
        for _ in 0..wirebytes_testkit::scale_miri(200, 50, 3) {
            let table: [u8; 128] = std::array::from_fn(|_| rng.below(256) as u8);
            let mut src: Vec<u8> = (0..rng.below(300)).map(|_| rng.below(128) as u8).collect();
            if !src.is_empty() && rng.one_in(2) {
                let at = rng.below(src.len());
                src[at] = 0xC3;
            }
            cases.push((table, src));
        }
        for level in levels::all() {
            for (table, src) in &cases {
                let whole = src.chunks_exact(64).take_while(|b| b.is_ascii()).count() * 64;
                for room in [whole, whole + 63, whole.saturating_sub(64)] {
                    let mut dst = vec![0xEEu8; room + 1];
                    let done = level.kernels().byte_map(src, table, &mut dst[..room]);
                    let Some(done) = done else {
                        assert!(dst.iter().all(|&b| b == 0xEE), "{}", level.name());
                        continue;
                    };
                    assert_eq!(done, whole.min(room / 64 * 64), "{}", level.name());
                    let want: Vec<u8> =
                        src[..done].iter().map(|&b| table[usize::from(b)]).collect();
                    assert_eq!(&dst[..done], &want[..], "{}", level.name());
                    assert_eq!(dst[room], 0xEE, "{}: written past", level.name());
                }
            }
        }
    }

    /// Text of one- and two-byte chars (the table window kernel's), with the odd 3- and
    /// 4-byte char, unmappable ones among them, through EBCDIC and symbol charsets at every
    /// level, against the reference.
    #[test]
    fn windows_of_one_and_two_byte_chars_agree_with_the_reference() {
        use crate::{Charset, Replacement, reference};
        let mut rng = Rng::new(0x0E8C_D1C0);
        // Pools whose two-byte chars share lead bytes (the AVX-512 kernel takes a window whose
        // leads are in one block of eight), then one of mixed leads.
        let pools: Vec<Vec<char>> = [
            "abcXYZ 019.,;!?()[]{}<>~\\|äöüßÄÖÜéèêàçñ\u{85}\u{A0}¿",
            "abc 019.,;!?ΩαβγδЖжњ",
            "abc äΩЖ\u{7FF}",
        ]
        .iter()
        .map(|pool| pool.chars().collect())
        .collect();
        let longer = ['€', '中', '😀'];
        let charsets = [
            "IBM037",
            "IBM1047",
            "IBM273",
            "IBM500",
            "x-MacSymbol",
            "IBM864",
        ];
        for name in charsets {
            let Some(charset) = Charset::for_java_name(name) else {
                panic!("no {name}");
            };
            for (len, pool) in (0..200)
                .step_by(wirebytes_testkit::scale_miri(1, 1, 67))
                .flat_map(|len| pools.iter().map(move |pool| (len, pool)))
            {
                let text: String = (0..len)
                    .map(|k| {
                        // A rare longer char among the pool's.
                        if k % 97 == 96 {
                            *rng.pick(&longer)
                        } else {
                            *rng.pick(pool)
                        }
                    })
                    .collect();
                for replacement in [Replacement::Jdk, Replacement::Whatwg] {
                    let want = reference::encode(charset, &text, replacement);
                    for level in levels::all() {
                        assert_eq!(
                            level.encode(charset, &text, replacement),
                            want,
                            "{name} {replacement:?} {} {text:?}",
                            level.name()
                        );
                    }
                }
            }
        }
    }
}
