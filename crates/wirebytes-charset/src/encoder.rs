//! The streaming [`Encoder`]: a text given chunk by chunk, the same bytes as the whole.

use crate::arch::Kernels;
use crate::encodings::{self, Kind};
use crate::multi_byte::MultiByte;
use crate::{Charset, Policy, encode_into, encode_units_into, infallible};

/// Encodes a text given in chunks (`&str` or UTF-16), appending to the caller's `Vec`: for
/// any split of the text, the chunks' output put together is what
/// [`encode`](crate::encode) (or [`encode_utf16`](crate::encode_utf16)) writes for the whole.
///
/// What carries from one chunk to the next: ISO-2022-JP's state, a high surrogate at the end
/// of a UTF-16 chunk (a chunk may end inside a surrogate pair), and whether the JDK's UTF-16
/// BOM is written. `last = true` ends the text: ISO-2022-JP returns to the ASCII state, a
/// pending high surrogate is written as unpaired, and the encoder is ready for a new text.
///
/// Made by [`Charset::new_encoder`].
///
/// # Examples
///
/// ```
/// use wirebytes_charset::{Charset, Replacement, encode};
///
/// let iso_2022_jp = Charset::from(encoding_rs::ISO_2022_JP);
/// let mut encoder = iso_2022_jp.new_encoder(Replacement::Jdk);
/// let mut out = Vec::new();
/// encoder.encode_chunk("日本", false, &mut out);
/// encoder.encode_chunk("語", true, &mut out);
/// assert_eq!(out, encode("日本語", iso_2022_jp, Replacement::Jdk));
///
/// // A surrogate pair split between two chunks.
/// let mut encoder = Charset::UTF_32.new_encoder(Replacement::Jdk);
/// let mut out = Vec::new();
/// encoder.encode_utf16_chunk(&[0xD83D], false, &mut out);
/// encoder.encode_utf16_chunk(&[0xDE00], true, &mut out);
/// assert_eq!(out, b"\0\x01\xF6\x00");
/// ```
#[derive(Debug)]
pub struct Encoder {
    charset: Charset,
    /// What the chunks are written in: `charset`, but big-endian UTF-16 for the JDK's UTF-16
    /// (whose BOM the encoder writes once).
    body: Charset,
    kind: Kind,
    policy: Policy,
    kernels: Kernels,
    /// The CJK encodings' encoding_rs encoder (with ISO-2022-JP's state).
    multi_byte: Option<MultiByte>,
    /// A high surrogate that ended the last UTF-16 chunk.
    pending: Option<u16>,
    /// Whether the JDK's UTF-16 BOM is still to be written (before the first unit).
    bom_due: bool,
}

/// Whether `u` is a high (leading) surrogate.
fn is_high(u: u16) -> bool {
    (0xD800..=0xDBFF).contains(&u)
}

/// Whether `u` is a low (trailing) surrogate.
fn is_low(u: u16) -> bool {
    (0xDC00..=0xDFFF).contains(&u)
}

impl Encoder {
    pub(crate) fn new(charset: Charset, policy: Policy, kernels: Kernels) -> Encoder {
        let kind = encodings::kind(charset);
        let multi_byte = match kind {
            Kind::MultiByte(encoding) => Some(MultiByte::new(encoding, kernels)),
            Kind::Iso2022Jp => Some(MultiByte::new(encoding_rs::ISO_2022_JP, kernels)),
            _ => None,
        };
        let body = match kind {
            Kind::Utf16 { bom: true, .. } => Charset::from(encoding_rs::UTF_16BE),
            _ => charset,
        };
        Encoder {
            charset,
            body,
            kind,
            policy,
            kernels,
            multi_byte,
            pending: None,
            bom_due: matches!(kind, Kind::Utf16 { bom: true, .. }),
        }
    }

    /// The charset this encoder writes.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_charset::{Charset, Replacement};
    ///
    /// assert_eq!(Charset::UTF_16.new_encoder(Replacement::Jdk).charset(), Charset::UTF_16);
    /// ```
    #[must_use]
    pub fn charset(&self) -> Charset {
        self.charset
    }

    /// Appends the encoding of the next chunk of the text to `dst`; `last`: this chunk ends
    /// the text.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_charset::{Replacement, encode};
    ///
    /// let charset = wirebytes_charset::Charset::from(encoding_rs::SHIFT_JIS);
    /// let mut encoder = charset.new_encoder(Replacement::Whatwg);
    /// let mut out = Vec::new();
    /// for chunk in ["日本", "語 😀", ""] {
    ///     encoder.encode_chunk(chunk, chunk.is_empty(), &mut out);
    /// }
    /// assert_eq!(out, encode("日本語 😀", charset, Replacement::Whatwg));
    /// ```
    pub fn encode_chunk(&mut self, chunk: &str, last: bool, dst: &mut Vec<u8>) {
        // A high surrogate from a UTF-16 chunk: no `&str` completes it (an empty chunk before
        // the end leaves it pending).
        if last || !chunk.is_empty() {
            if let Some(high) = self.pending.take() {
                self.units(&[high], false, dst);
            }
        }
        if !chunk.is_empty() {
            self.bom(dst);
        }
        let policy = self.policy;
        match &mut self.multi_byte {
            Some(coder) => infallible(coder.encode_str(chunk, last, policy, &mut |bytes| {
                dst.extend_from_slice(bytes);
            })),
            None => infallible(encode_into(
                chunk,
                self.body,
                false,
                policy,
                self.kernels,
                dst,
            )),
        }
        if last {
            self.reset();
        }
    }

    /// Appends the encoding of the next chunk of a UTF-16 text (unpaired surrogates allowed)
    /// to `dst`; `last`: this chunk ends the text. A chunk may end between the two halves of
    /// a surrogate pair.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_charset::{Charset, Replacement, encode_utf16};
    ///
    /// let units: Vec<u16> = "a😀b".encode_utf16().collect();
    /// let mut encoder = Charset::ISO_8859_1.new_encoder(Replacement::Jdk);
    /// let mut out = Vec::new();
    /// for chunk in units.chunks(2) {
    ///     encoder.encode_utf16_chunk(chunk, false, &mut out);
    /// }
    /// encoder.encode_utf16_chunk(&[], true, &mut out);
    /// assert_eq!(out, b"a?b");
    /// ```
    pub fn encode_utf16_chunk(&mut self, chunk: &[u16], last: bool, dst: &mut Vec<u8>) {
        let mut chunk = chunk;
        if !chunk.is_empty() {
            self.bom(dst);
        }
        if let Some(high) = self.pending.take() {
            match chunk.split_first() {
                Some((&low, rest)) if is_low(low) => {
                    self.units(&[high, low], false, dst);
                    chunk = rest;
                }
                // An empty chunk before the end: the pair may still be completed.
                None if !last => {
                    self.pending = Some(high);
                    return;
                }
                _ => self.units(&[high], false, dst),
            }
        }
        if let Some((&high, rest)) = chunk.split_last().filter(|(u, _)| !last && is_high(**u)) {
            self.pending = Some(high);
            chunk = rest;
        }
        self.units(chunk, last, dst);
        if last {
            self.reset();
        }
    }

    /// Writes the JDK's UTF-16 BOM if it is due.
    fn bom(&mut self, dst: &mut Vec<u8>) {
        if self.bom_due {
            dst.extend_from_slice(b"\xFE\xFF");
            self.bom_due = false;
        }
    }

    /// Encodes UTF-16 units that hold no pair split from the chunk before or after.
    fn units(&mut self, units: &[u16], last: bool, dst: &mut Vec<u8>) {
        let policy = self.policy;
        match &mut self.multi_byte {
            Some(coder) => infallible(coder.encode_units(units, last, policy, &mut |bytes| {
                dst.extend_from_slice(bytes);
            })),
            None => infallible(encode_units_into(units, self.body, false, policy, dst)),
        }
    }

    /// After the last chunk: ready for a new text.
    fn reset(&mut self) {
        self.pending = None;
        self.bom_due = matches!(self.kind, Kind::Utf16 { bom: true, .. });
    }
}
