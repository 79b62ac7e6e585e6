//! The CJK encodings (Shift_JIS, EUC-JP, EUC-KR, Big5, GBK, gb18030, ISO-2022-JP): the
//! stateless ones char by char through their encode table (`crate::cjk`), every char without
//! a table entry through encoding_rs's encoder; ISO-2022-JP through its table and the WHATWG
//! encoder's state machine written out here (the state carries across calls); into a stack
//! buffer handed to a sink a couple of KiB at a time: a reused per-thread scratch buffer (then one exact-size copy),
//! the caller's `Vec` (the streaming [`Encoder`](crate::Encoder)), or a counter
//! ([`encoded_len`](crate::Charset::encoded_len), which allocates nothing).

use crate::arch::Kernels;
use std::cell::Cell;

use encoding_rs::{EncoderResult, Encoding};

use crate::single_byte::decode_at;
use crate::sink::Sink;
use crate::{Policy, cjk};

/// A scratch buffer larger than this is not kept for the next call.
const KEEP_SCRATCH: usize = 1 << 20;

thread_local! {
    static SCRATCH: Cell<Vec<u8>> = const { Cell::new(Vec::new()) };
}

/// Runs `f` with an empty scratch buffer (this thread's, reused from call to call).
pub(crate) fn with_scratch<T>(f: impl FnOnce(&mut Vec<u8>) -> T) -> T {
    // Outside a live thread-local (thread teardown), a fresh buffer does the same job.
    let mut scratch = SCRATCH.try_with(Cell::take).unwrap_or_default();
    scratch.clear();
    let result = f(&mut scratch);
    if scratch.capacity() <= KEEP_SCRATCH {
        let _ = SCRATCH.try_with(|cell| cell.set(scratch));
    }
    result
}

/// The stack buffer the encoder writes into.
const STAGE: usize = 2048;
/// Room kept free for a replacement: `&#1114111;` or `ESC $ B` plus U+FF1F.
const REPLACEMENT_ROOM: usize = 16;

/// An encoding_rs encoder and the JDK's replacement rules for it. Stateful for ISO-2022-JP;
/// the state carries from call to call until `last`.
pub(crate) struct MultiByte {
    encoder: encoding_rs::Encoder,
    iso_2022_jp: bool,
    /// The encode table of a stateless CJK encoding.
    pub(crate) table: Option<&'static cjk::Table>,
    /// ISO-2022-JP by its table and this crate's own state machine.
    pub(crate) jp: Option<Jp>,
    /// The kernels runs of 3-byte chars are decoded with, before the table lookups.
    kernels: Kernels,
    /// Whether to record replacements in [`replaced`](Self::replaced) (the cost is a scan
    /// for unpaired surrogates that the WHATWG policy hands to encoding_rs as U+FFFD).
    pub(crate) track: bool,
    /// Whether a replacement was written since [`take_replaced`](Self::take_replaced).
    replaced: bool,
}

/// ISO-2022-JP's states (WHATWG Encoding Standard, "ISO-2022-JP encoder").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum JpState {
    Ascii,
    Roman,
    Jis0208,
}

/// ISO-2022-JP written by its table: the JIS X 0208 code of each char (`crate::cjk`) and the
/// state, which carries from call to call until `last`.
#[derive(Debug)]
pub(crate) struct Jp {
    table: &'static cjk::Table,
    state: JpState,
}

const TO_ASCII: &[u8] = b"\x1B(B";
const TO_ROMAN: &[u8] = b"\x1B(J";
const TO_JIS0208: &[u8] = b"\x1B$B";

impl Jp {
    /// Writes the char `c` (a scalar value) in the WHATWG encoder's steps; `Err(c)` with the
    /// char to report as unmappable (U+FFFD for ESC, SO and SI), after any switch to ASCII,
    /// and whether that switch left JIS X 0208 for it.
    #[inline]
    fn char(&mut self, c: u32, stage: &mut Stage) -> Result<(), (u32, bool)> {
        let put = |stage: &mut Stage, bytes: &[u8]| {
            stage.buf[stage.w..stage.w + bytes.len()].copy_from_slice(bytes);
            stage.w += bytes.len();
        };
        if c < 0x80 {
            let control = matches!(c, 0x0E | 0x0F | 0x1B);
            let as_is = match self.state {
                JpState::Ascii => true,
                JpState::Roman => control || (c != 0x5C && c != 0x7E),
                JpState::Jis0208 => false,
            };
            let mut left_jis0208 = false;
            if !as_is {
                left_jis0208 = self.state == JpState::Jis0208;
                put(stage, TO_ASCII);
                self.state = JpState::Ascii;
            }
            if control {
                return Err((0xFFFD, left_jis0208));
            }
            put(stage, &[c as u8]);
            return Ok(());
        }
        if c == 0xA5 || c == 0x203E {
            if self.state != JpState::Roman {
                put(stage, TO_ROMAN);
                self.state = JpState::Roman;
            }
            put(stage, if c == 0xA5 { b"\x5C" } else { b"\x7E" });
            return Ok(());
        }
        let code = if c < 0x1_0000 { self.table.get(c) } else { 0 };
        if code == 0 {
            let left_jis0208 = self.state == JpState::Jis0208;
            if left_jis0208 {
                put(stage, TO_ASCII);
                self.state = JpState::Ascii;
            }
            return Err((c, left_jis0208));
        }
        if self.state != JpState::Jis0208 {
            put(stage, TO_JIS0208);
            self.state = JpState::Jis0208;
        }
        put(stage, &code.to_be_bytes());
        Ok(())
    }

    /// The replacement for an unmappable char `c`. JDK: U+FF1F (`21 29`) in JIS X 0208,
    /// which the JDK does not leave for it (an `ESC ( B` just written for it is taken back);
    /// WHATWG: `&#N;`, whose bytes are the same in the ASCII and Roman states.
    fn replace(&mut self, c: u32, left_jis0208: bool, policy: Policy, stage: &mut Stage) {
        if policy == Policy::Jdk {
            if left_jis0208 {
                stage.w -= TO_ASCII.len();
            } else {
                stage.buf[stage.w..stage.w + 3].copy_from_slice(TO_JIS0208);
                stage.w += 3;
            }
            stage.buf[stage.w..stage.w + 2].copy_from_slice(b"\x21\x29");
            stage.w += 2;
            self.state = JpState::Jis0208;
        } else {
            let mut ncr = [0u8; 12];
            let n = crate::ncr::write_ncr(&mut ncr, c);
            stage.buf[stage.w..stage.w + n].copy_from_slice(&ncr[..n]);
            stage.w += n;
        }
    }

    /// At the end of the text: back to the ASCII state.
    fn finish(&mut self, stage: &mut Stage) {
        if self.state != JpState::Ascii {
            stage.buf[stage.w..stage.w + 3].copy_from_slice(TO_ASCII);
            stage.w += 3;
            self.state = JpState::Ascii;
        }
    }
}

/// Room for what [`Jp`] writes for one char and its replacement.
const JP_ROOM: usize = 32;

impl std::fmt::Debug for MultiByte {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MultiByte")
            .field("encoding", &self.encoder.encoding().name())
            .finish()
    }
}

/// What the encoder wrote and where it stopped.
pub(crate) struct Stage {
    pub(crate) buf: [u8; STAGE],
    pub(crate) w: usize,
}

impl Stage {
    pub(crate) fn new() -> Self {
        Stage {
            buf: [0; STAGE],
            w: 0,
        }
    }

    /// Hands the staged bytes to `sink` when fewer than `room` bytes are free.
    #[inline]
    pub(crate) fn make_room(&mut self, room: usize, sink: &mut impl FnMut(&[u8])) {
        if self.w + room > STAGE {
            sink(&self.buf[..self.w]);
            self.w = 0;
        }
    }

    fn push(&mut self, bytes: &[u8], sink: &mut impl FnMut(&[u8])) {
        self.make_room(bytes.len(), sink);
        self.buf[self.w..self.w + bytes.len()].copy_from_slice(bytes);
        self.w += bytes.len();
    }
}

impl MultiByte {
    pub(crate) fn new(encoding: &'static Encoding, kernels: Kernels) -> MultiByte {
        MultiByte {
            kernels,
            track: false,
            replaced: false,
            encoder: encoding.new_encoder(),
            iso_2022_jp: encoding == encoding_rs::ISO_2022_JP,
            table: cjk::table(encoding).filter(|_| encoding != encoding_rs::ISO_2022_JP),
            jp: (encoding == encoding_rs::ISO_2022_JP)
                .then(|| cjk::table(encoding))
                .flatten()
                .map(|table| Jp {
                    table,
                    state: JpState::Ascii,
                }),
        }
    }

    /// [`encode_str`](Self::encode_str) for a stateless encoding with an encode table: ASCII
    /// eight bytes at a time, every BMP char with an entry by the table, and only the others
    /// (unmappable, supplementary, gb18030's four-byte ones) through encoding_rs's encoder, one
    /// char at a time (the encoder is stateless, so mixing is exact).
    fn encode_str_with_table(
        &mut self,
        table: &cjk::Table,
        text: &str,
        policy: Policy,
        sink: &mut impl FnMut(&[u8]),
    ) -> Result<(), usize> {
        const ROOM: usize = 64;
        let bytes = text.as_bytes();
        let mut stage = Stage::new();
        let mut i = 0;
        while i < bytes.len() {
            stage.make_room(ROOM, sink);
            // Up to ROOM bytes of work before the room is checked again: ASCII eight bytes at
            // a time, else chars one by one (at most 2 bytes out per char from the table).
            let mut budget = ROOM / 2;
            while budget > 0 && i < bytes.len() {
                budget -= 1;
                let lead = bytes[i];
                if lead < 0x80 {
                    let ascii8 = match bytes.get(i..i + 8).and_then(|b| b.first_chunk::<8>()) {
                        Some(eight) if crate::swar::word(eight) & crate::swar::HIGH_BITS == 0 => {
                            stage
                                .buf
                                .get_mut(stage.w..stage.w + 8)
                                .map(|dst| (eight, dst))
                        }
                        _ => None,
                    };
                    if let Some((eight, dst)) = ascii8 {
                        dst.copy_from_slice(eight);
                        crate::counters::add(crate::counters::Path::MultiByteAsciiWords, 8);
                        stage.w += 8;
                        i += 8;
                        budget = budget.saturating_sub(3);
                    } else {
                        stage.buf[stage.w] = lead;
                        stage.w += 1;
                        i += 1;
                    }
                    continue;
                }
                if budget >= 8 && four_three_byte_chars(bytes, i) {
                    // A run of 3-byte chars (kana, hanzi, hangul): decoded by the kernel,
                    // then looked up, as long as every char has a code.
                    let dst = &mut stage.buf[stage.w..stage.w + 2 * budget];
                    let (chars, len) = three_byte_run(self.kernels, &bytes[i..], dst, |u| {
                        Some(table.get(u32::from(u)))
                    });
                    if chars > 0 {
                        stage.w += len;
                        i += 3 * chars;
                        budget -= chars;
                        continue;
                    }
                }
                let (c, len) = decode_at(bytes, i, lead);
                let code = if c < 0x1_0000 { table.get(c) } else { 0 };
                if code >= 0x100 {
                    let [hi, lo] = code.to_be_bytes();
                    stage.buf[stage.w] = hi;
                    stage.buf[stage.w + 1] = lo;
                    stage.w += 2;
                } else if code != 0 {
                    stage.buf[stage.w] = code as u8;
                    stage.w += 1;
                } else {
                    self.encode_one(&text[i..i + len], policy, &mut stage, sink)
                        .map_err(|()| i)?;
                    // The replacement may have filled the stage: check the room again.
                    budget = 0;
                }
                i += len;
            }
        }
        sink(&stage.buf[..stage.w]);
        Ok(())
    }

    /// [`encode_units`](Self::encode_units) for a stateless encoding with an encode table.
    fn encode_units_with_table(
        &mut self,
        table: &cjk::Table,
        units: &[u16],
        policy: Policy,
        sink: &mut impl FnMut(&[u8]),
    ) -> Result<(), usize> {
        let mut stage = Stage::new();
        let mut i = 0;
        while i < units.len() {
            stage.make_room(REPLACEMENT_ROOM, sink);
            let u = units[i];
            if u < 0x80 {
                stage.buf[stage.w] = u as u8;
                stage.w += 1;
                i += 1;
                continue;
            }
            let code = table.get(u32::from(u));
            if code >= 0x100 {
                stage.buf[stage.w..stage.w + 2].copy_from_slice(&code.to_be_bytes());
                stage.w += 2;
                i += 1;
                continue;
            }
            if code != 0 {
                stage.buf[stage.w] = code as u8;
                stage.w += 1;
                i += 1;
                continue;
            }
            let at = i;
            let c = match crate::unicode::next_item(units, &mut i) {
                Some(Ok(c)) => c,
                // An unpaired surrogate: `?` for the JDK, U+FFFD for encoding_rs.
                Some(Err(_)) => match policy {
                    Policy::Strict => return Err(at),
                    Policy::Jdk => {
                        stage.push(b"?", sink);
                        self.replaced = true;
                        continue;
                    }
                    Policy::Whatwg => {
                        self.replaced = true;
                        '\u{FFFD}'
                    }
                },
                None => break,
            };
            let mut buf = [0u8; 4];
            self.encode_one(c.encode_utf8(&mut buf), policy, &mut stage, sink)
                .map_err(|()| at)?;
        }
        sink(&stage.buf[..stage.w]);
        Ok(())
    }

    /// One char through encoding_rs's encoder (with room for it in `stage`); `Err` for an
    /// unmappable char under [`Policy::Strict`].
    fn encode_one(
        &mut self,
        one: &str,
        policy: Policy,
        stage: &mut Stage,
        sink: &mut impl FnMut(&[u8]),
    ) -> Result<(), ()> {
        let (result, _, written) = self.encoder.encode_from_utf8_without_replacement(
            one,
            &mut stage.buf[stage.w..],
            false,
        );
        stage.w += written;
        match result {
            EncoderResult::InputEmpty => Ok(()),
            EncoderResult::Unmappable(_) if policy == Policy::Strict => Err(()),
            EncoderResult::Unmappable(c) => {
                self.replace(c, policy, stage, sink);
                Ok(())
            }
            // A char is at most four bytes, and the stage had room for more.
            EncoderResult::OutputFull => {
                debug_assert!(false, "no room for one char");
                Ok(())
            }
        }
    }

    /// Encodes well-formed (or, under WHATWG, any) UTF-16 into `stage`, handing full stages
    /// to `sink`. The last stage is left in `stage`.
    fn encode_valid_units(
        &mut self,
        units: &[u16],
        last: bool,
        policy: Policy,
        stage: &mut Stage,
        sink: &mut impl FnMut(&[u8]),
    ) -> Result<(), usize> {
        let mut read = 0;
        loop {
            let (result, n, written) = self.encoder.encode_from_utf16_without_replacement(
                &units[read..],
                &mut stage.buf[stage.w..],
                last,
            );
            read += n;
            stage.w += written;
            match result {
                EncoderResult::InputEmpty => return Ok(()),
                EncoderResult::OutputFull => {
                    sink(&stage.buf[..stage.w]);
                    stage.w = 0;
                }
                EncoderResult::Unmappable(c) => {
                    if policy == Policy::Strict {
                        // The char just consumed ends at `read`: one unit, or a pair.
                        let mut start = read.saturating_sub(1);
                        if start > 0 && (0xDC00..=0xDFFF).contains(&units[start]) {
                            start -= 1;
                        }
                        return Err(start);
                    }
                    self.replace(c, policy, stage, sink);
                }
            }
        }
    }

    /// Writes the replacement for an unmappable char (`c` as encoding_rs reports it).
    fn replace(
        &mut self,
        c: char,
        policy: Policy,
        stage: &mut Stage,
        sink: &mut impl FnMut(&[u8]),
    ) {
        self.replaced = true;
        match policy {
            Policy::Jdk if self.iso_2022_jp => self.iso_2022_jp_jdk_replacement(stage, sink),
            Policy::Jdk | Policy::Strict => stage.push(b"?", sink),
            // encoding_rs's ISO-2022-JP encoder leaves the JIS X 0208 state before reporting an
            // unmappable char; in the Roman state "&#;" and digits are the same bytes as ASCII.
            Policy::Whatwg => {
                let mut ncr = [0u8; 12];
                let n = crate::ncr::write_ncr(&mut ncr, u32::from(c));
                stage.push(&ncr[..n], sink);
            }
        }
    }

    /// The JDK's replacement for an unmappable char in ISO-2022-JP: U+FF1F FULLWIDTH
    /// QUESTION MARK (JIS X 0208 0x2129), written in the JIS X 0208 state, which the JDK does
    /// not leave for it.
    ///
    /// encoding_rs's encoder leaves JIS X 0208 (writes `ESC ( B`) just before it reports an
    /// unmappable char, in the same call (so those bytes are at the end of `stage`); it writes
    /// `ESC ( B` at no other point where its output can end without an ASCII byte after it.
    /// So a trailing `ESC ( B` is undone, U+FF1F is fed through the encoder (which re-enters
    /// JIS X 0208 with `ESC $ B`, so its state is right for what follows) and that redundant
    /// `ESC $ B` is dropped.
    fn iso_2022_jp_jdk_replacement(&mut self, stage: &mut Stage, sink: &mut impl FnMut(&[u8])) {
        const TO_ASCII: &[u8] = b"\x1B(B";
        const TO_JIS0208: &[u8] = b"\x1B$B";
        let was_jis0208 = stage.buf[..stage.w].ends_with(TO_ASCII);
        if was_jis0208 {
            stage.w -= TO_ASCII.len();
        }
        stage.make_room(REPLACEMENT_ROOM, sink);
        let before = stage.w;
        let (result, _, written) = self.encoder.encode_from_utf8_without_replacement(
            "\u{FF1F}",
            &mut stage.buf[before..],
            false,
        );
        debug_assert_eq!(result, EncoderResult::InputEmpty);
        stage.w += written;
        if was_jis0208 && stage.buf[before..stage.w].starts_with(TO_JIS0208) {
            stage
                .buf
                .copy_within(before + TO_JIS0208.len()..stage.w, before);
            stage.w -= TO_JIS0208.len();
        }
    }
}

/// Whether the chars at `i` of `bytes` (a char boundary) begin with four 3-byte chars: the
/// 3-byte-run kernel takes four in a row or none, so shorter runs (a word of hangul, kana
/// between kanji, hanzi between digits) go char by char without the call.
#[inline(always)]
pub(crate) fn four_three_byte_chars(bytes: &[u8], i: usize) -> bool {
    (0..4).all(|k| bytes.get(i + 3 * k).is_some_and(|&b| b & 0xF0 == 0xE0))
}

/// Encodes the run of 3-byte chars at the start of `bytes` (a char boundary) into `dst`, at
/// most 16 of them and at most half of `dst`'s length, each by `code` of its UTF-16 unit (a
/// code above 0xFF is two bytes, a code from 1 to 0xFF one), until a char whose `code` is 0
/// or `None`, or that the kernel does not take (fewer than four 3-byte chars in a row).
/// Returns the chars taken and the bytes written. Nothing is taken without the kernel: the
/// caller goes char by char.
#[inline]
pub(crate) fn three_byte_run(
    kernels: Kernels,
    bytes: &[u8],
    dst: &mut [u8],
    mut code: impl FnMut(u16) -> Option<u16>,
) -> (usize, usize) {
    let mut units = [0u16; 16];
    let room = &mut units[..(dst.len() / 2).min(16)];
    let Some((_, decoded)) = kernels.three_byte_utf16(bytes, room) else {
        return (0, 0);
    };
    if decoded == 0 {
        crate::counters::add(crate::counters::Path::ThreeByteRunDeclines, 1);
    }
    let (mut chars, mut len) = (0, 0);
    for &unit in &room[..decoded] {
        match (code(unit), dst.get_mut(len..len + 2)) {
            (Some(c @ 0x100..), Some(pair)) => {
                pair.copy_from_slice(&c.to_be_bytes());
                len += 2;
            }
            (Some(c @ 1..=0xFF), Some(pair)) => {
                pair[0] = c as u8;
                len += 1;
            }
            _ => break,
        }
        chars += 1;
    }
    (chars, len)
}

/// A multi-byte coder the drivers below run: WHATWG's ([`MultiByte`]) or the JDK's.
pub(crate) trait Coding {
    /// Encodes `text` into `sink` (`last`: the end of the text). [`Policy::Strict`]: `Err`
    /// with the byte offset of the first unmappable char (part of the output may have gone to
    /// `sink`).
    fn encode_str(
        &mut self,
        text: &str,
        last: bool,
        policy: Policy,
        sink: &mut impl FnMut(&[u8]),
    ) -> Result<(), usize>;

    /// Encodes UTF-16 `units` into `sink`, as [`Coding::encode_str`]; `Err` with the index of
    /// the first unmappable char or unpaired surrogate.
    fn encode_units(
        &mut self,
        units: &[u16],
        last: bool,
        policy: Policy,
        sink: &mut impl FnMut(&[u8]),
    ) -> Result<(), usize>;

    /// Whether a replacement was written since the last call; clears the record.
    fn take_replaced(&mut self) -> bool;
}

impl Coding for MultiByte {
    /// Whether a replacement was written since the last call; clears the record.
    fn take_replaced(&mut self) -> bool {
        std::mem::take(&mut self.replaced)
    }

    /// Encodes `text` into `sink` (`last`: the end of the text; ISO-2022-JP returns to the
    /// ASCII state). [`Policy::Strict`]: `Err` with the byte offset of the first unmappable
    /// char in `text` (part of the output may have gone to `sink`).
    fn encode_str(
        &mut self,
        text: &str,
        last: bool,
        policy: Policy,
        sink: &mut impl FnMut(&[u8]),
    ) -> Result<(), usize> {
        if let Some(table) = self.table {
            return self.encode_str_with_table(table, text, policy, sink);
        }
        if let Some(jp) = &mut self.jp {
            let bytes = text.as_bytes();
            let mut stage = Stage::new();
            let mut at = 0;
            while let Some(c) = text.get(at..).and_then(|rest| rest.chars().next()) {
                stage.make_room(JP_ROOM, sink);
                if jp.state == JpState::Jis0208 && four_three_byte_chars(bytes, at) {
                    // A run of 3-byte chars in JIS X 0208: two bytes each, no state change.
                    let dst = &mut stage.buf[stage.w..stage.w + JP_ROOM];
                    let (chars, len) = three_byte_run(self.kernels, &bytes[at..], dst, |u| {
                        (u != 0x203E).then(|| jp.table.get(u32::from(u)))
                    });
                    if chars > 0 {
                        stage.w += len;
                        at += 3 * chars;
                        continue;
                    }
                }
                if let Err((c, left)) = jp.char(u32::from(c), &mut stage) {
                    if policy == Policy::Strict {
                        return Err(at);
                    }
                    jp.replace(c, left, policy, &mut stage);
                    self.replaced = true;
                }
                at += c.len_utf8();
            }
            if last {
                stage.make_room(JP_ROOM, sink);
                jp.finish(&mut stage);
            }
            sink(&stage.buf[..stage.w]);
            return Ok(());
        }
        let mut stage = Stage::new();
        let mut read = 0;
        loop {
            let (result, n, written) = self.encoder.encode_from_utf8_without_replacement(
                &text[read..],
                &mut stage.buf[stage.w..],
                last,
            );
            read += n;
            stage.w += written;
            match result {
                EncoderResult::InputEmpty => {
                    sink(&stage.buf[..stage.w]);
                    return Ok(());
                }
                EncoderResult::OutputFull => {
                    sink(&stage.buf[..stage.w]);
                    stage.w = 0;
                }
                EncoderResult::Unmappable(c) => {
                    if policy == Policy::Strict {
                        // The char just consumed ends at `read` (`c` may be U+FFFD standing
                        // for ISO-2022-JP's ESC, SO or SI).
                        let mut start = read.saturating_sub(1);
                        while !text.is_char_boundary(start) {
                            start -= 1;
                        }
                        return Err(start);
                    }
                    self.replace(c, policy, &mut stage, sink);
                }
            }
        }
    }

    /// Encodes UTF-16 `units` into `sink`. An unpaired surrogate is written by the JDK's rule
    /// ([`Policy::Jdk`]: `?`; in ISO-2022-JP the raw bytes `21 29`), is U+FFFD for encoding_rs
    /// ([`Policy::Whatwg`]), or stops ([`Policy::Strict`]: `Err` with the index of it or of
    /// the first unmappable char).
    fn encode_units(
        &mut self,
        units: &[u16],
        last: bool,
        policy: Policy,
        sink: &mut impl FnMut(&[u8]),
    ) -> Result<(), usize> {
        if let Some(table) = self.table {
            return self.encode_units_with_table(table, units, policy, sink);
        }
        if let Some(jp) = &mut self.jp {
            let mut stage = Stage::new();
            let mut i = 0;
            while i < units.len() {
                stage.make_room(JP_ROOM, sink);
                let at = i;
                let item = crate::unicode::next_item(units, &mut i);
                let c = match item {
                    Some(Ok(c)) => u32::from(c),
                    // An unpaired surrogate: the JDK writes `21 29` as they are; WHATWG
                    // encodes U+FFFD.
                    Some(Err(_)) => match policy {
                        Policy::Strict => return Err(at),
                        Policy::Jdk => {
                            stage.push(b"\x21\x29", sink);
                            self.replaced = true;
                            continue;
                        }
                        Policy::Whatwg => {
                            self.replaced = true;
                            0xFFFD
                        }
                    },
                    None => break,
                };
                if let Err((c, left)) = jp.char(c, &mut stage) {
                    if policy == Policy::Strict {
                        return Err(at);
                    }
                    jp.replace(c, left, policy, &mut stage);
                    self.replaced = true;
                }
            }
            if last {
                stage.make_room(JP_ROOM, sink);
                jp.finish(&mut stage);
            }
            sink(&stage.buf[..stage.w]);
            return Ok(());
        }
        if self.track
            && policy == Policy::Whatwg
            && encoding_rs::mem::utf16_valid_up_to(units) < units.len()
        {
            // encoding_rs takes an unpaired surrogate for U+FFFD: a replacement.
            self.replaced = true;
        }
        let mut stage = Stage::new();
        let mut start = 0;
        loop {
            let end = if policy == Policy::Whatwg {
                units.len()
            } else {
                start + encoding_rs::mem::utf16_valid_up_to(&units[start..])
            };
            let at_end = end == units.len();
            self.encode_valid_units(&units[start..end], last && at_end, policy, &mut stage, sink)
                .map_err(|at| start + at)?;
            if at_end {
                sink(&stage.buf[..stage.w]);
                return Ok(());
            }
            // An unpaired surrogate at `end`.
            self.replaced = true;
            match policy {
                Policy::Strict => return Err(end),
                // The JDK's ISO-2022-JP encoder writes its replacement bytes 0x21 0x29 as they
                // are, in whatever state it is in (U+FF1F in JIS X 0208, "!)" otherwise).
                _ if self.iso_2022_jp => stage.push(b"\x21\x29", sink),
                _ => stage.push(b"?", sink),
            }
            start = end + 1;
        }
    }
}

/// WHATWG's coder for `encoding`, recording replacements where the sink `S` asks.
pub(crate) fn coder<S: Sink>(encoding: &'static Encoding, kernels: Kernels) -> MultiByte {
    let mut coder = MultiByte::new(encoding, kernels);
    coder.track = S::TRACKS;
    coder
}

/// Appends `text` encoded by `coder` to `out`; `text[..from]` is ASCII that encodes to
/// itself. A `Vec` ([`Sink::EXACT`]) gets the exact size reserved once, through the
/// per-thread scratch buffer; other sinks are written straight away. [`Policy::Strict`]:
/// `Err` with the offset of the first unmappable char.
pub(crate) fn encode_str<S: Sink>(
    mut coder: impl Coding,
    text: &str,
    from: usize,
    policy: Policy,
    out: &mut S,
) -> Result<(), usize> {
    let rest = &text[from..];
    let result = if S::EXACT {
        with_scratch(|scratch| -> Result<(), usize> {
            coder.encode_str(rest, true, policy, &mut |bytes| {
                scratch.extend_from_slice(bytes);
            })?;
            out.reserve_exact(from + scratch.len());
            out.extend_from_slice(&text.as_bytes()[..from]);
            out.extend_from_slice(scratch);
            Ok(())
        })
    } else {
        out.extend_from_slice(&text.as_bytes()[..from]);
        coder.encode_str(rest, true, policy, &mut |bytes| {
            out.extend_from_slice(bytes)
        })
    };
    if coder.take_replaced() {
        out.replaced();
    }
    result.map_err(|at| from + at)
}

/// The number of bytes [`encode_str`] appends, counted without allocating.
pub(crate) fn len_str(mut coder: impl Coding, text: &str, from: usize, policy: Policy) -> usize {
    let mut n = from;
    let _ = coder.encode_str(&text[from..], true, policy, &mut |bytes| n += bytes.len());
    n
}

/// Appends UTF-16 `units` encoded by `coder` to `out` (a `Vec`: the exact size reserved
/// once). [`Policy::Strict`]: `Err` with the index of the first unmappable char or unpaired
/// surrogate.
pub(crate) fn encode_utf16<S: Sink>(
    mut coder: impl Coding,
    units: &[u16],
    policy: Policy,
    out: &mut S,
) -> Result<(), usize> {
    let result = if S::EXACT {
        with_scratch(|scratch| -> Result<(), usize> {
            coder.encode_units(units, true, policy, &mut |bytes| {
                scratch.extend_from_slice(bytes);
            })?;
            out.reserve_exact(scratch.len());
            out.extend_from_slice(scratch);
            Ok(())
        })
    } else {
        coder.encode_units(units, true, policy, &mut |bytes| {
            out.extend_from_slice(bytes)
        })
    };
    if coder.take_replaced() {
        out.replaced();
    }
    result
}
