//! The JDK's stateless multi-byte charsets (Big5, EUC-JP, Shift_JIS, GBK, GB18030, the IBM
//! DBCS code pages, ...) by their tables ([`MultiByteData`]): ASCII eight bytes at a time
//! where it is its own byte, runs of 3-byte chars decoded by the kernel and looked up, every
//! other char alone. A char that begins one of the charset's pairs (the JIS X 0213
//! composites: `か` and U+309A are `82 F5` together) is held until the next char shows
//! whether the two are written together; a streaming encoder holds it across chunks.
//! Output goes through a stack buffer to a sink, as in `crate::multi_byte`.

use crate::arch::Kernels;
use crate::jdk::multi::{Form, MultiByteData};
use crate::multi_byte::{Coding, Stage, four_three_byte_chars, three_byte_run};
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
    /// The set the output is in, in a stateful form: in [`Form::Jis`] the index of its
    /// escape in [`JIS_ESCAPES`]; in the others 1 when shifted out. 0 is the initial state.
    mode: u8,
    /// In [`Form::Iso2022`]: bit 0 when `g1` has been designated since the last line feed,
    /// bit 1 when `g2` has, bit 2 when `g3` has.
    designated: u8,
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
            mode: 0,
            designated: 0,
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

    /// Writes `c` by itself: its bytes (in a stateful form after the switch to its set), or
    /// the replacement. The JDK's replacement goes where the output is, but in ISO-2022-JP
    /// after a switch to JIS X 0208 (the set of its two bytes); a numeric character reference
    /// in a stateful form is its chars, each written in the charset.
    #[inline]
    fn write_alone(
        &mut self,
        c: u32,
        at: usize,
        policy: Policy,
        stage: &mut Stage,
    ) -> Result<(), usize> {
        let stateful = self.data.form.is_stateful();
        if stateful {
            if let Some(code) = self.data.code(c) {
                self.put_code(code, stage);
                return Ok(());
            }
        } else if let Some(bytes) = self.data.bytes(c) {
            put(stage, bytes.as_slice());
            return Ok(());
        }
        self.replaced = true;
        match policy {
            Policy::Strict => Err(at),
            Policy::Jdk => {
                if matches!(self.data.form, Form::Jis) && self.mode != JIS_X0208 {
                    put(stage, JIS_ESCAPES[usize::from(JIS_X0208)]);
                    self.mode = JIS_X0208;
                }
                put(stage, self.replacement);
                Ok(())
            }
            Policy::Whatwg => {
                let mut buf = [0u8; 12];
                let n = ncr::write_ncr(&mut buf, c);
                if !stateful {
                    put(stage, &buf[..n]);
                    return Ok(());
                }
                for &b in &buf[..n] {
                    match self.data.code(u32::from(b)) {
                        Some(code) => self.put_code(code, stage),
                        None => put(stage, self.replacement),
                    }
                }
                Ok(())
            }
        }
    }

    /// Writes `code` of a stateful form, after the switch to its set if the output is in
    /// another.
    #[inline]
    fn put_code(&mut self, code: u16, stage: &mut Stage) {
        match self.data.form {
            Form::Jis => {
                let mode = match code {
                    0..0x80 => ASCII,
                    0x80..0x200 => 1,
                    0x200..0x300 => 2,
                    0x8000.. => 4,
                    _ => JIS_X0208,
                };
                if mode != self.mode {
                    put(stage, JIS_ESCAPES[usize::from(mode)]);
                    self.mode = mode;
                }
            }
            Form::Iso2022 { g1, g2, g3 } => {
                if code < 0x80 {
                    if self.mode != ASCII {
                        put(stage, SI);
                        self.mode = ASCII;
                    }
                    if code == u16::from(b'\n') {
                        self.designated = 0;
                    }
                } else if code & 0x8080 == 0x8080 {
                    if self.designated & 4 == 0 {
                        put(stage, g3);
                        self.designated |= 4;
                    }
                    put(stage, b"\x1BO");
                } else if code & 0x8000 != 0 {
                    if self.designated & 2 == 0 {
                        put(stage, g2);
                        self.designated |= 2;
                    }
                    put(stage, b"\x1BN");
                } else {
                    if self.designated & 1 == 0 {
                        put(stage, g1);
                        self.designated |= 1;
                    }
                    if self.mode == ASCII {
                        put(stage, SO);
                        self.mode = SHIFTED_OUT;
                    }
                }
            }
            Form::Shifted => {
                let mode = if code < 0x100 { ASCII } else { SHIFTED_OUT };
                if mode != self.mode {
                    put(stage, if mode == ASCII { SI } else { SO });
                    self.mode = mode;
                }
            }
            _ => {}
        }
        put(stage, self.data.bytes_of(code).as_slice());
    }

    /// The end of a text: the held char, if any; in a stateful form the return to the
    /// initial set where the JDK writes one (ISO-2022-JP's `ESC ( B`, the shifted EBCDIC
    /// pages' `0F`; ISO-2022-KR and -CN end where they are, as the JDK's do).
    fn finish(&mut self, at: usize, policy: Policy, stage: &mut Stage) -> Result<(), usize> {
        if let Some(base) = self.held.take() {
            self.write_alone(base, at, policy, stage)?;
        }
        if self.mode != ASCII {
            match self.data.form {
                Form::Jis => put(stage, JIS_ESCAPES[usize::from(ASCII)]),
                Form::Shifted => put(stage, SI),
                _ => {}
            }
        }
        self.mode = ASCII;
        self.designated = 0;
        Ok(())
    }

    /// The JDK's replacement for an unpaired surrogate: in the set the output is in (the
    /// JDK's stateful encoders switch for an unmappable char, not for malformed input).
    fn put_lone_replacement(&mut self, stage: &mut Stage) {
        put(stage, self.replacement);
        self.replaced = true;
    }

    /// Whether a run of codes of two bytes can be written as they come: the output is in
    /// the double-byte set of a stateful form and `code` is in it (a stateless form: any).
    #[inline(always)]
    fn in_run(&self, code: u16) -> bool {
        match self.data.form {
            Form::Jis => self.mode == JIS_X0208 && code >= 0x300 && code & 0x8000 == 0,
            Form::Iso2022 { .. } => self.mode == SHIFTED_OUT && code >= 0x100 && code & 0x8000 == 0,
            Form::Shifted => self.mode == SHIFTED_OUT && code >= 0x100,
            _ => true,
        }
    }
}

/// The initial set: ASCII (the single-byte set in [`Form::Shifted`]).
const ASCII: u8 = 0;
/// [`Form::Jis`]'s JIS X 0208 mode.
const JIS_X0208: u8 = 3;
/// Shifted out, in [`Form::Iso2022`] and [`Form::Shifted`].
const SHIFTED_OUT: u8 = 1;
/// The escapes to ASCII, JIS X 0201 Roman, JIS X 0201 katakana, JIS X 0208, JIS X 0212.
const JIS_ESCAPES: [&[u8]; 5] = [b"\x1B(B", b"\x1B(J", b"\x1B(I", b"\x1B$B", b"\x1B$(D"];
/// Shift-out and shift-in.
const SO: &[u8] = b"\x0E";
const SI: &[u8] = b"\x0F";

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
        let runs = matches!(data.form, Form::Mixed | Form::Gb18030(_) | Form::EucJp)
            || data.form.is_stateful();
        let two_byte_only = matches!(data.form, Form::EucJp);
        let plain = !data.form.is_stateful() && data.pairs.is_empty();
        let mut stage = Stage::new();
        let mut i = 0;
        while i < bytes.len() {
            stage.make_room(STEP, sink);
            while i < bytes.len() && stage.w + STEP <= stage.buf.len() {
                let lead = bytes[i];
                if lead < 0x80 && data.ascii && self.held.is_none() && self.mode == ASCII {
                    let eight = bytes.get(i..i + 8).and_then(|b| b.first_chunk::<8>());
                    let n = match eight {
                        Some(eight) if crate::swar::word(eight) & crate::swar::HIGH_BITS == 0 => {
                            stage.buf[stage.w..stage.w + 8].copy_from_slice(eight);
                            crate::counters::add(crate::counters::Path::JdkAsciiWords, 8);
                            8
                        }
                        _ => {
                            stage.buf[stage.w] = lead;
                            1
                        }
                    };
                    // A line feed ends ISO-2022-KR's and -CN's designations.
                    if self.designated != 0 && bytes[i..i + n].contains(&b'\n') {
                        self.designated = 0;
                    }
                    stage.w += n;
                    i += n;
                    continue;
                }
                if runs && self.held.is_none() && four_three_byte_chars(bytes, i) {
                    // A run of 3-byte chars (kana, hanzi, hangul), decoded by the kernel and
                    // looked up, as long as each has a code of one or two bytes, begins no
                    // pair, and (in a stateful form) is in the double-byte set the output is
                    // in.
                    let dst = &mut stage.buf[stage.w..stage.w + 32];
                    let this = &*self;
                    let (chars, len) = three_byte_run(self.kernels, &bytes[i..], dst, |u| {
                        let c = u32::from(u);
                        let code = data.code(c)?;
                        let wide = two_byte_only && code >= 0x100 && code & 0x8000 == 0;
                        (!wide && !data.is_base(c) && this.in_run(code)).then_some(code)
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
                // A stateless charset without pairs: the char's code, straight.
                if plain {
                    if let Some(code) = data.code(c) {
                        put(&mut stage, data.bytes_of(code).as_slice());
                        i += len;
                        continue;
                    }
                }
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
            if u < 0x80 && data.ascii && self.held.is_none() && self.mode == ASCII {
                stage.buf[stage.w] = u as u8;
                stage.w += 1;
                i += 1;
                if u == u16::from(b'\n') {
                    self.designated = 0;
                }
                continue;
            }
            let at = i;
            let c = match crate::unicode::next_item(units, &mut i) {
                Some(Ok(c)) => u32::from(c),
                Some(Err(_)) => match policy {
                    Policy::Strict => return Err(at),
                    Policy::Jdk => {
                        // The held char first, then the replacement.
                        if let Some(base) = self.held.take() {
                            self.write_alone(base, at, policy, &mut stage)?;
                        }
                        self.put_lone_replacement(&mut stage);
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
