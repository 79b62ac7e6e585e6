//! The JDK's stateless multi-byte charsets (Big5, EUC-JP, Shift_JIS, GBK, GB18030, the IBM
//! DBCS code pages, ...) by their tables ([`MultiByteData`]): ASCII eight bytes at a time
//! where it is its own byte, runs of 3-byte chars decoded by the kernel and looked up, every
//! other char alone. A char that begins one of the charset's pairs (the JIS X 0213
//! composites: `か` and U+309A are `82 F5` together) is held until the next char shows
//! whether the two are written together; a streaming encoder holds it across chunks.
//! Output goes through a stack buffer to a sink, as in `crate::multi_byte`.

use crate::arch::Kernels;
use crate::jdk::multi::{Form, MultiByteData};
use crate::multi_byte::{Coding, Stage, three_byte_run};
use crate::single_byte::decode_at;
use crate::{Policy, ncr};

/// Room kept free in the stage before a char: a held base and the char (four bytes each),
/// or `&#1114111;`.
const ROOM: usize = 16;

/// The encoder of one text (or one stream of chunks).
#[derive(Debug)]
pub(crate) struct Coder {
    data: &'static MultiByteData,
    /// The JDK's replacement bytes.
    replacement: &'static [u8],
    kernels: Kernels,
    /// A char that begins a pair, not yet written: the next char decides.
    held: Option<u32>,
    /// Whether a replacement was written since [`take_replaced`](Self::take_replaced).
    replaced: bool,
}

impl Coder {
    pub(crate) fn new(
        data: &'static MultiByteData,
        replacement: &'static [u8],
        kernels: Kernels,
    ) -> Coder {
        Coder {
            data,
            replacement,
            kernels,
            held: None,
            replaced: false,
        }
    }

    /// Writes the char `c` (a scalar value; `at` its offset, for [`Policy::Strict`]), after
    /// the held char if there is one.
    #[inline]
    fn char(&mut self, c: u32, at: usize, policy: Policy, stage: &mut Stage) -> Result<(), usize> {
        if let Some(base) = self.held.take() {
            if let Some(code) = self.data.pair(base, c) {
                put(stage, self.data.bytes_of(code).as_slice());
                return Ok(());
            }
            self.write_alone(base, at, policy, stage)?;
        }
        if self.data.is_base(c) {
            self.held = Some(c);
            return Ok(());
        }
        self.write_alone(c, at, policy, stage)
    }

    /// Writes `c` by itself: its bytes, or the replacement.
    #[inline]
    fn write_alone(
        &mut self,
        c: u32,
        at: usize,
        policy: Policy,
        stage: &mut Stage,
    ) -> Result<(), usize> {
        if let Some(bytes) = self.data.bytes(c) {
            put(stage, bytes.as_slice());
            return Ok(());
        }
        self.replaced = true;
        match policy {
            Policy::Strict => Err(at),
            Policy::Jdk => {
                put(stage, self.replacement);
                Ok(())
            }
            Policy::Whatwg => {
                let mut buf = [0u8; 12];
                let n = ncr::write_ncr(&mut buf, c);
                put(stage, &buf[..n]);
                Ok(())
            }
        }
    }

    /// Writes the held char, if any (at the end of the text).
    fn finish(&mut self, at: usize, policy: Policy, stage: &mut Stage) -> Result<(), usize> {
        match self.held.take() {
            Some(base) => self.write_alone(base, at, policy, stage),
            None => Ok(()),
        }
    }
}

/// Appends `bytes` to the stage (which has room for them).
#[inline(always)]
fn put(stage: &mut Stage, bytes: &[u8]) {
    stage.buf[stage.w..stage.w + bytes.len()].copy_from_slice(bytes);
    stage.w += bytes.len();
}

impl Coding for Coder {
    /// Whether a replacement was written since the last call; clears the record.
    fn take_replaced(&mut self) -> bool {
        std::mem::take(&mut self.replaced)
    }

    /// Encodes `text` into `sink` (`last`: the end of the text, where a held char is
    /// written). [`Policy::Strict`]: `Err` with the byte offset of the first unmappable char
    /// (part of the output may have gone to `sink`).
    fn encode_str(
        &mut self,
        text: &str,
        last: bool,
        policy: Policy,
        sink: &mut impl FnMut(&[u8]),
    ) -> Result<(), usize> {
        // Free room in the stage for one step: eight ASCII bytes, a run of up to 16 chars
        // of two bytes, or one char.
        const STEP: usize = 32 + ROOM;
        let bytes = text.as_bytes();
        let data = self.data;
        // Runs of 3-byte chars go through the kernel where a code of one or two bytes is
        // those bytes (EUC-JP's three-byte codes stop a run).
        let runs = matches!(data.form, Form::Mixed | Form::Gb18030(_) | Form::EucJp);
        let two_byte_only = matches!(data.form, Form::EucJp);
        let mut stage = Stage::new();
        let mut i = 0;
        while i < bytes.len() {
            stage.make_room(STEP, sink);
            while i < bytes.len() && stage.w + STEP <= stage.buf.len() {
                let lead = bytes[i];
                if lead < 0x80 && data.ascii && self.held.is_none() {
                    let eight = bytes.get(i..i + 8).and_then(|b| b.first_chunk::<8>());
                    match eight {
                        Some(eight) if crate::swar::word(eight) & crate::swar::HIGH_BITS == 0 => {
                            stage.buf[stage.w..stage.w + 8].copy_from_slice(eight);
                            stage.w += 8;
                            i += 8;
                        }
                        _ => {
                            stage.buf[stage.w] = lead;
                            stage.w += 1;
                            i += 1;
                        }
                    }
                    continue;
                }
                if runs && lead & 0xF0 == 0xE0 && self.held.is_none() {
                    // A run of 3-byte chars (kana, hanzi, hangul), decoded by the kernel and
                    // looked up, as long as each has a code of one or two bytes and begins
                    // no pair.
                    let dst = &mut stage.buf[stage.w..stage.w + 32];
                    let (chars, len) = three_byte_run(self.kernels, &bytes[i..], dst, |u| {
                        let c = u32::from(u);
                        let code = data.code(c)?;
                        let wide = two_byte_only && code >= 0x100 && code & 0x8000 == 0;
                        (!wide && !data.is_base(c)).then_some(code)
                    });
                    if chars > 0 {
                        stage.w += len;
                        i += 3 * chars;
                        continue;
                    }
                }
                let (c, len) = if lead < 0x80 {
                    (u32::from(lead), 1)
                } else {
                    decode_at(bytes, i, lead)
                };
                self.char(c, i, policy, &mut stage)?;
                i += len;
            }
        }
        if last {
            stage.make_room(ROOM, sink);
            self.finish(bytes.len(), policy, &mut stage)?;
        }
        sink(&stage.buf[..stage.w]);
        Ok(())
    }

    /// Encodes UTF-16 `units` into `sink`. An unpaired surrogate is the JDK's replacement
    /// ([`Policy::Jdk`]), U+FFFD ([`Policy::Whatwg`]), or stops ([`Policy::Strict`]: `Err`
    /// with the index of it or of the first unmappable char).
    fn encode_units(
        &mut self,
        units: &[u16],
        last: bool,
        policy: Policy,
        sink: &mut impl FnMut(&[u8]),
    ) -> Result<(), usize> {
        let data = self.data;
        let mut stage = Stage::new();
        let mut i = 0;
        while i < units.len() {
            stage.make_room(ROOM, sink);
            let u = units[i];
            if u < 0x80 && data.ascii && self.held.is_none() {
                stage.buf[stage.w] = u as u8;
                stage.w += 1;
                i += 1;
                continue;
            }
            let at = i;
            let c = match crate::unicode::next_item(units, &mut i) {
                Some(Ok(c)) => u32::from(c),
                Some(Err(_)) => match policy {
                    Policy::Strict => return Err(at),
                    Policy::Jdk => {
                        // The held char first, then the replacement.
                        self.finish(at, policy, &mut stage)?;
                        put(&mut stage, self.replacement);
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
            self.char(c, at, policy, &mut stage)?;
        }
        if last {
            stage.make_room(ROOM, sink);
            self.finish(units.len(), policy, &mut stage)?;
        }
        sink(&stage.buf[..stage.w]);
        Ok(())
    }
}
