//! The Latin-1 path of windows-1252: ASCII and U+00A0..U+00FF are that encoding's bytes
//! 0x00..0x7F and 0xA0..0xFF, so such text is encoded arithmetically, a window of
//! [`BLOCK`] bytes at a time, without the table.

use crate::arch::Kernels;
use crate::counters::{Path, add};
use crate::single_byte::{BLOCK, window_run};
use crate::swar::{EACH, HIGH_BITS};

/// Bytes read by a Latin-1 kernel per [`BLOCK`]-byte window: the window and the byte after
/// it (the continuation byte of a char that starts at its end).
pub(crate) const WINDOW: usize = BLOCK + 1;

/// The Latin-1 fast path, for a table whose [`Table::latin1`](crate::single_byte::Table) is
/// set (windows-1252, ISO-8859-15, ...): encodes `bytes[i..]`
/// (from a char boundary) window by window as long as a window holds only ASCII and
/// U+00A0..U+00FF (lead bytes 0xC2 and 0xC3), whose byte is the scalar value,
/// `(lead & 0x03) << 6 | (next & 0x3F)`, unless `except` holds that byte. Stops at the first
/// other window, or when fewer than
/// [`WINDOW`] bytes are left, and returns where it stopped (a char boundary); the caller
/// encodes from there through the table.
///
/// The windows go through [`window_run`]. The kernel is [`Kernels::latin1_window`] where
/// `kernels` has it, else [`latin1_window`].
pub(crate) fn latin1_run<S: crate::sink::Sink>(
    bytes: &[u8],
    i: usize,
    out: &mut S,
    except: Option<&Except>,
    kernels: Kernels,
) -> usize {
    window_run(bytes, i, out, |window, dst| {
        let written = kernels.latin1_window(window, dst).unwrap_or_else(|| {
            let taken = latin1_window(window, dst);
            if taken.is_some() {
                add(Path::Latin1WindowPortable, BLOCK);
            }
            taken
        })?;
        // A byte that is not its char's in this encoding: the table takes this window.
        if except.is_some_and(|except| except.any_in(window)) {
            return None;
        }
        Some(written)
    })
}

/// The chars U+00A0..=U+00FF that a table does not encode as the byte of the same number
/// (ISO-8859-15's 0xA4 is €, so ¤ is not 0xA4).
#[derive(Debug, Clone)]
pub(crate) struct Except {
    /// `chars[c]`: U+00`c` is such a char.
    chars: [bool; 256],
    /// Per lead byte (0xC2, 0xC3): the lowest continuation byte of such a char and the span
    /// to the highest (`None`: no such char under that lead). A window with no such pair
    /// needs no lookup.
    spans: [Option<(u8, u8)>; 2],
}

impl Except {
    /// The set of `chars`; `None` if it is empty.
    pub(crate) fn new(chars: [bool; 256]) -> Option<Except> {
        chars.iter().position(|&c| c)?;
        let span = |from: usize| {
            let block = &chars[from..from + 0x40];
            let low = block.iter().position(|&c| c)?;
            let high = block.iter().rposition(|&c| c)?;
            Some((0x80 + low as u8, (high - low) as u8))
        };
        Some(Except {
            chars,
            spans: [span(0x80), span(0xC0)],
        })
    }

    /// Whether one of the chars starts in `window[..BLOCK]`: a fixed-length, branch-free scan
    /// of the lead/continuation pairs against the spans first (which the compiler vectorises),
    /// then the lookups.
    #[inline]
    fn any_in(&self, window: &[u8; WINDOW]) -> bool {
        let near = |lead: u8, span: Option<(u8, u8)>| {
            let Some((low, span)) = span else {
                return false;
            };
            window[..BLOCK]
                .iter()
                .zip(&window[1..])
                .fold(false, |acc, (&a, &b)| {
                    acc | ((a == lead) & (b.wrapping_sub(low) <= span))
                })
        };
        if !near(0xC2, self.spans[0]) && !near(0xC3, self.spans[1]) {
            return false;
        }
        window[..BLOCK].iter().zip(&window[1..]).any(|(&a, &b)| {
            (a & 0xFE) == 0xC2 && self.chars[usize::from(((a & 0x03) << 6) | (b & 0x3F))]
        })
    }
}

/// The portable Latin-1 kernel (and the oracle of [`Kernels::latin1_window`]): encodes the
/// chars that start in `window[..BLOCK]` (`window[0]` starts a char) into `dst`, returning the
/// number of bytes written, or `None` if a byte is 0xC4 or above or a char is in
/// U+0080..U+009F (then `dst` holds garbage).
///
/// SWAR, eight bytes at a time: every lead byte is replaced by its char's byte, and each byte
/// is stored branch-free, the write position advancing only past the bytes that start a char
/// (so continuation bytes are overwritten).
fn latin1_window(window: &[u8; WINDOW], dst: &mut [u8; BLOCK]) -> Option<usize> {
    const LOW2: u64 = EACH * 0x03;
    const LOW6: u64 = EACH * 0x3F;
    if window[..BLOCK].iter().fold(0u8, |acc, &b| acc.max(b)) >= 0xC4 {
        return None;
    }
    let word = |at: usize| {
        let mut bytes = [0u8; 8];
        bytes.copy_from_slice(&window[at..at + 8]);
        u64::from_le_bytes(bytes)
    };
    let mut w = 0usize;
    let mut c1 = 0u64;
    for at in (0..BLOCK).step_by(8) {
        // `x`: eight input bytes; `y`: each one's next byte.
        let (x, y) = (word(at), word(at + 1));
        let lead = x & (x << 1) & HIGH_BITS;
        let continuation = x & !(x << 1) & HIGH_BITS;
        let lead_bytes = (lead >> 7) * 0xFF;
        let value = (x & !lead_bytes) | (lead_bytes & (((x & LOW2) << 6) | (y & LOW6)));
        // A 0xC2 lead whose char is below U+00A0 (bit 5 of the next byte clear).
        c1 |= lead & !(x << 7) & !(y << 2);
        let start = !continuation & HIGH_BITS;
        for k in 0..8 {
            // At most 63: the bytes before this one that start a char.
            dst[w % BLOCK] = (value >> (8 * k)) as u8;
            w += ((start >> (8 * k + 7)) & 1) as usize;
        }
    }
    (c1 == 0).then_some(w)
}

#[cfg(test)]
mod tests {
    use super::{BLOCK, WINDOW, latin1_window};
    use crate::levels;
    use wirebytes_testkit::Rng;

    /// What a Latin-1 kernel must return for `window`: the chars that start in its first
    /// [`BLOCK`] bytes as bytes, or `None` if one of them is not ASCII or U+00A0..U+00FF.
    fn expected(text: &str) -> Option<Vec<u8>> {
        text.char_indices()
            .take_while(|&(at, _)| at < BLOCK)
            .map(|(_, c)| match u32::from(c) {
                c @ (0..0x80 | 0xA0..0x100) => u8::try_from(c).ok(),
                _ => None,
            })
            .collect()
    }

    /// Random text of at least [`WINDOW`] bytes: mostly ASCII and U+00A0..U+00FF, sometimes
    /// a C1 control, a char just outside the range or a longer one.
    fn random_window(rng: &mut Rng) -> String {
        const RARE: &[char] = &[
            '\u{80}', '\u{9F}', '\u{100}', '\u{7FF}', '\u{800}', '€', '😀', '\0', '\u{7F}',
        ];
        let mut next = || rng.next_u64();
        let rare_odds = 1 + next() % 400;
        let mut text = String::new();
        while text.len() < WINDOW + 4 {
            let r = next();
            let c = if r % rare_odds == 0 {
                RARE[(r >> 32) as usize % RARE.len()]
            } else if r & 0x100 == 0 {
                char::from(0xA0 + (r >> 16) as u8 % 0x60)
            } else {
                char::from((r >> 16) as u8 & 0x7F)
            };
            text.push(c);
        }
        text
    }

    #[test]
    fn latin1_kernels_agree_with_a_char_by_char_encoder() {
        let mut rng = Rng::new(0x1234_5678);
        let mut passed = 0;
        let rounds = wirebytes_testkit::scale_miri(200_000, 200_000, 12);
        for _ in 0..rounds {
            let text = random_window(&mut rng);
            let window: &[u8; WINDOW] = text.as_bytes().first_chunk().expect("long enough");
            let want = expected(&text);
            passed += usize::from(want.is_some());
            let mut dst = [0u8; BLOCK];
            let got = latin1_window(window, &mut dst).map(|n| dst[..n].to_vec());
            assert_eq!(got, want, "portable kernel, input {:02X?}", window);
            for level in levels::all() {
                let mut dst = [0u8; BLOCK];
                let Some(got) = level.kernels().latin1_window(window, &mut dst) else {
                    continue; // no Latin-1 kernel at this level
                };
                let got = got.map(|n| dst[..n].to_vec());
                assert_eq!(got, want, "{} kernel, input {:02X?}", level.name(), window);
            }
        }
        // Both outcomes are exercised, each often.
        assert!(
            (rounds / 10..rounds * 9 / 10).contains(&passed),
            "{passed} windows passed"
        );
    }
}
