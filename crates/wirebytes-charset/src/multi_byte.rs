//! The CJK encodings (Shift_JIS, EUC-JP, EUC-KR, Big5, GBK, gb18030, ISO-2022-JP): encoding_rs's
//! encoder over the whole input in bulk into a reused per-thread scratch buffer, then one copy
//! into an exact-size `Vec`.

use std::cell::Cell;

use encoding_rs::{Encoder, EncoderResult, Encoding};

use crate::{Policy, push_ncr};

/// A scratch buffer larger than this is not kept for the next call.
const KEEP_SCRATCH: usize = 1 << 20;

thread_local! {
    static SCRATCH: Cell<Vec<u8>> = const { Cell::new(Vec::new()) };
}

/// Runs `f` with an empty scratch buffer (this thread's, reused from call to call) and returns
/// an exact-size copy of what it wrote.
fn with_scratch(f: impl FnOnce(&mut Vec<u8>) -> Result<(), usize>) -> Result<Vec<u8>, usize> {
    // Outside a live thread-local (thread teardown), a fresh buffer does the same job.
    let mut scratch = SCRATCH.try_with(Cell::take).unwrap_or_default();
    scratch.clear();
    let result = f(&mut scratch).map(|()| scratch.as_slice().to_vec());
    if scratch.capacity() <= KEEP_SCRATCH {
        let _ = SCRATCH.try_with(|cell| cell.set(scratch));
    }
    result
}

/// What the JDK writes for an unmappable char in ISO-2022-JP: U+FF1F FULLWIDTH QUESTION
/// MARK (JIS X 0208 0x2129), switching to the JIS X 0208 state as needed.
pub(crate) const ISO_2022_JP_JDK_REPLACEMENT: &str = "\u{FF1F}";

/// Feeds `text` (always mappable) through `encoder` into `out`.
pub(crate) fn feed(encoder: &mut Encoder, text: &str, out: &mut Vec<u8>) {
    out.reserve(16);
    let (result, _) = encoder.encode_from_utf8_to_vec_without_replacement(text, out, false);
    debug_assert_eq!(result, EncoderResult::InputEmpty);
}

/// Writes the replacement for an unmappable char (`c` as encoding_rs reports it).
fn replace(encoder: &mut Encoder, iso_2022_jp: bool, c: char, policy: Policy, out: &mut Vec<u8>) {
    match policy {
        Policy::Jdk if iso_2022_jp => iso_2022_jp_jdk_replacement(encoder, out),
        Policy::Jdk => out.push(b'?'),
        // encoding_rs's ISO-2022-JP encoder leaves the JIS X 0208 state before reporting an
        // unmappable char; in the Roman state "&#;" and digits are the same bytes as ASCII.
        _ => push_ncr(out, c as u32),
    }
}

/// The JDK's replacement for an unmappable char in ISO-2022-JP: U+FF1F, written in the JIS X
/// 0208 state, which the JDK does not leave for it.
///
/// encoding_rs's encoder leaves JIS X 0208 (writes `ESC ( B`) just before it reports an
/// unmappable char; it writes `ESC ( B` at no other point where output can end without
/// an ASCII byte after it. So a trailing `ESC ( B` is undone, U+FF1F is fed through the
/// encoder (which re-enters JIS X 0208 with `ESC $ B`, so its state is right for what follows)
/// and that redundant `ESC $ B` is dropped.
pub(crate) fn iso_2022_jp_jdk_replacement(encoder: &mut Encoder, out: &mut Vec<u8>) {
    const TO_ASCII: &[u8] = b"\x1B(B";
    const TO_JIS0208: &[u8] = b"\x1B$B";
    let was_jis0208 = out.ends_with(TO_ASCII);
    if was_jis0208 {
        out.truncate(out.len() - TO_ASCII.len());
    }
    let before = out.len();
    feed(encoder, ISO_2022_JP_JDK_REPLACEMENT, out);
    if was_jis0208 && out[before..].starts_with(TO_JIS0208) {
        out.drain(before..before + TO_JIS0208.len());
    }
}

/// Encodes `text` with `encoding`'s encoder; `text[..from]` is known to be ASCII that encodes
/// to itself.
pub(crate) fn encode_str(
    encoding: &'static Encoding,
    text: &str,
    from: usize,
    policy: Policy,
    prefix: &[u8],
) -> Result<Vec<u8>, usize> {
    with_scratch(|out| {
        let mut encoder = encoding.new_encoder();
        let iso_2022_jp = encoding == encoding_rs::ISO_2022_JP;
        let worst = encoder
            .max_buffer_length_from_utf8_without_replacement(text.len() - from)
            .unwrap_or(usize::MAX / 4);
        out.reserve(prefix.len() + from + worst);
        out.extend_from_slice(prefix);
        out.extend_from_slice(&text.as_bytes()[..from]);
        let mut read = from;
        loop {
            let (result, n) =
                encoder.encode_from_utf8_to_vec_without_replacement(&text[read..], out, true);
            read += n;
            match result {
                EncoderResult::InputEmpty => return Ok(()),
                EncoderResult::OutputFull => {
                    let more = encoder
                        .max_buffer_length_from_utf8_without_replacement(text.len() - read)
                        .unwrap_or(usize::MAX / 4);
                    out.reserve(more.max(16));
                }
                EncoderResult::Unmappable(c) => {
                    if policy == Policy::Strict {
                        // The char just consumed ends at `read`.
                        let mut start = read - 1;
                        while !text.is_char_boundary(start) {
                            start -= 1;
                        }
                        return Err(start);
                    }
                    replace(&mut encoder, iso_2022_jp, c, policy, out);
                }
            }
        }
    })
}

/// Encodes UTF-16 `units` with `encoding`'s encoder. With [`Policy::Jdk`] each unpaired
/// surrogate is written by the JDK's rule (see [`crate::Replacement::Jdk`]) between runs of
/// well-formed input; with [`Policy::Whatwg`] encoding_rs sees it as U+FFFD.
pub(crate) fn encode_utf16(encoding: &'static Encoding, units: &[u16], policy: Policy) -> Vec<u8> {
    let result = with_scratch(|out| {
        let mut encoder = encoding.new_encoder();
        let iso_2022_jp = encoding == encoding_rs::ISO_2022_JP;
        let mut start = 0;
        loop {
            let end = if policy == Policy::Jdk {
                start + encoding_rs::mem::utf16_valid_up_to(&units[start..])
            } else {
                units.len()
            };
            let last = end == units.len();
            encode_units(
                &mut encoder,
                iso_2022_jp,
                &units[start..end],
                last,
                policy,
                out,
            );
            if last {
                return Ok(());
            }
            // An unpaired surrogate at `end`, written as the JDK does.
            if iso_2022_jp {
                // The JDK's ISO-2022-JP encoder writes its replacement bytes 0x21 0x29 as they
                // are, in whatever state it is in (U+FF1F in JIS X 0208, "!)" otherwise).
                out.extend_from_slice(b"\x21\x29");
            } else {
                out.push(b'?');
            }
            start = end + 1;
        }
    });
    // Only `Policy::Strict` fails, and it is not offered for UTF-16 input.
    result.unwrap_or_default()
}

/// Encodes well-formed (or, under WHATWG, any) UTF-16 into `out`.
fn encode_units(
    encoder: &mut Encoder,
    iso_2022_jp: bool,
    units: &[u16],
    last: bool,
    policy: Policy,
    out: &mut Vec<u8>,
) {
    let mut read = 0;
    loop {
        let worst = encoder
            .max_buffer_length_from_utf16_without_replacement(units.len() - read)
            .unwrap_or(usize::MAX / 4)
            .max(16);
        let written_before = out.len();
        out.resize(written_before + worst, 0);
        let (result, n, written) = encoder.encode_from_utf16_without_replacement(
            &units[read..],
            &mut out[written_before..],
            last,
        );
        out.truncate(written_before + written);
        read += n;
        match result {
            EncoderResult::InputEmpty => return,
            EncoderResult::OutputFull => {}
            EncoderResult::Unmappable(c) => replace(encoder, iso_2022_jp, c, policy, out),
        }
    }
}
