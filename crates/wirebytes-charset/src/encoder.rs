//! The streaming [`Encoder`]: a text given chunk by chunk, the same bytes as the whole.

use encoding_rs::CoderResult;

use crate::arch::Kernels;
use crate::encodings::{self, Kind};
use crate::engine::{self, infallible};
use crate::from_utf16::{is_high, is_low};
use crate::jdk_multi_byte;
use crate::multi_byte::{Coding, MultiByte};
use crate::sink::{Sink, SliceSink, Tracked};
use crate::{Charset, Policy};

/// Encodes a text given in chunks (`&str` or UTF-16): for any split of the text, the chunks'
/// output put together is what [`Charset::encode`] (or [`Charset::encode_from_utf16`])
/// writes for the whole. Made by [`Charset::new_encoder`].
///
/// What carries from one chunk to the next: ISO-2022-JP's state, a high surrogate at the end
/// of a UTF-16 chunk (a chunk may end inside a surrogate pair), and whether the JDK's UTF-16
/// BOM is written. `last = true` ends the text: ISO-2022-JP returns to the ASCII state, a
/// pending high surrogate is written as unpaired, and the encoder is ready for a new text.
///
/// Output goes to the end of a `Vec` ([`encode_to_vec`](Self::encode_to_vec), which never
/// runs out of room) or into a slice ([`encode_to_slice`](Self::encode_to_slice), in
/// encoding_rs's form: it says how much it read and wrote, and stops with
/// [`CoderResult::OutputFull`] when the slice is full).
///
/// # Examples
///
/// ```
/// use wirebytes_charset::{Charset, Replacement};
///
/// let iso_2022_jp = Charset::from(encoding_rs::ISO_2022_JP);
/// let mut encoder = iso_2022_jp.new_encoder(Replacement::Jdk);
/// let mut out = Vec::new();
/// encoder.encode_to_vec("日本", false, &mut out);
/// encoder.encode_to_vec("語", true, &mut out);
/// assert_eq!(out, iso_2022_jp.encode("日本語", Replacement::Jdk));
///
/// // A surrogate pair split between two chunks.
/// let mut encoder = Charset::UTF_32.new_encoder(Replacement::Jdk);
/// let mut out = Vec::new();
/// encoder.encode_from_utf16_to_vec(&[0xD83D], false, &mut out);
/// encoder.encode_from_utf16_to_vec(&[0xDE00], true, &mut out);
/// assert_eq!(out, b"\0\x01\xF6\x00");
/// ```
#[derive(Debug)]
pub struct Encoder {
    charset: Charset,
    /// What the chunks are written in: `charset`, but the charset without its BOM for one
    /// that writes its own (the encoder writes it once).
    body: Charset,
    kind: Kind,
    policy: Policy,
    kernels: Kernels,
    /// The CJK encodings' encoder (with ISO-2022-JP's state).
    multi_byte: Option<MultiByte>,
    /// The JDK's multi-byte charsets' encoder (with a char held for a pair).
    jdk_multi_byte: Option<jdk_multi_byte::Coder>,
    /// A high surrogate that ended the last UTF-16 chunk.
    pending: Option<u16>,
    /// Whether the charset's own BOM is still to be written (before the first unit).
    bom_due: bool,
    /// Output of the last char a slice had no room for, written first by the next call.
    held: Held,
}

/// Bytes the encoder holds for the caller's next call: the part of one char's output (with
/// the state switches and the BOM around it) that did not fit in a slice.
#[derive(Debug, Clone, Copy)]
struct Held {
    buf: [u8; HELD],
    start: usize,
    end: usize,
}

/// The most bytes the encoder holds: one char's output with what may come with it (its
/// replacement `&#1114111;`, a pending surrogate's `&#65533;`, a BOM, state switches), with
/// room to spare.
const HELD: usize = 64;

/// What a chunk's output may add to the worst case of its input: a BOM, a pending surrogate
/// written as unpaired, a state switch.
const SLACK: usize = 16;

impl Held {
    const EMPTY: Held = Held {
        buf: [0; HELD],
        start: 0,
        end: 0,
    };

    fn len(&self) -> usize {
        self.end - self.start
    }

    /// Moves as much as fits to the start of `dst`; returns how much.
    fn drain_into(&mut self, dst: &mut [u8]) -> usize {
        let n = self.len().min(dst.len());
        dst[..n].copy_from_slice(&self.buf[self.start..self.start + n]);
        self.start += n;
        if self.start == self.end {
            *self = Held::EMPTY;
        }
        n
    }
}

/// Encodes a `&str` chunk with a multi-byte `coder` into `dst`, recording a replacement.
fn code_str<S: Sink>(
    coder: &mut impl Coding,
    chunk: &str,
    last: bool,
    policy: Policy,
    dst: &mut S,
) {
    infallible(coder.encode_str(chunk, last, policy, &mut |bytes| {
        dst.extend_from_slice(bytes);
    }));
    if coder.take_replaced() {
        dst.replaced();
    }
}

/// Encodes UTF-16 units with a multi-byte `coder` into `dst`, recording a replacement.
fn code_units<S: Sink>(
    coder: &mut impl Coding,
    units: &[u16],
    last: bool,
    policy: Policy,
    dst: &mut S,
) {
    infallible(coder.encode_units(units, last, policy, &mut |bytes| {
        dst.extend_from_slice(bytes);
    }));
    if coder.take_replaced() {
        dst.replaced();
    }
}

/// A chunk of either kind of input, for the slice loop.
trait Chunk {
    /// Whether the input is UTF-16 (else UTF-8).
    const UTF16: bool;
    /// The length in units (bytes of UTF-8, `u16`s).
    fn units(&self) -> usize;
    /// The input from unit `at` on (a char boundary).
    fn from(&self, at: usize) -> &Self;
    /// The longest prefix of at most `n` units that ends on a char boundary (UTF-16: a cut
    /// may split a surrogate pair, which the encoder carries).
    fn cut(&self, n: usize) -> usize;
    /// The length of the first char (a surrogate pair is one), 0 when empty.
    fn first_char(&self) -> usize;
    /// Encodes the first `n` units of the chunk.
    fn encode<S: Sink>(&self, n: usize, encoder: &mut Encoder, last: bool, out: &mut S);
}

impl Chunk for str {
    const UTF16: bool = false;

    fn units(&self) -> usize {
        self.len()
    }

    fn from(&self, at: usize) -> &Self {
        self.get(at..).unwrap_or_default()
    }

    fn cut(&self, n: usize) -> usize {
        let mut cut = n.min(self.len());
        while !self.is_char_boundary(cut) {
            cut -= 1;
        }
        cut
    }

    fn first_char(&self) -> usize {
        self.chars().next().map_or(0, char::len_utf8)
    }

    fn encode<S: Sink>(&self, n: usize, encoder: &mut Encoder, last: bool, out: &mut S) {
        encoder.str_into(self.get(..n).unwrap_or_default(), last, out);
    }
}

impl Chunk for [u16] {
    const UTF16: bool = true;

    fn units(&self) -> usize {
        self.len()
    }

    fn from(&self, at: usize) -> &Self {
        self.get(at..).unwrap_or_default()
    }

    fn cut(&self, n: usize) -> usize {
        n.min(self.len())
    }

    fn first_char(&self) -> usize {
        match self {
            [] => 0,
            [high, low, ..] if is_high(*high) && is_low(*low) => 2,
            _ => 1,
        }
    }

    fn encode<S: Sink>(&self, n: usize, encoder: &mut Encoder, last: bool, out: &mut S) {
        encoder.units_into(self.get(..n).unwrap_or_default(), last, out);
    }
}

impl Encoder {
    pub(crate) fn new(charset: Charset, policy: Policy, kernels: Kernels) -> Encoder {
        let kind = encodings::kind(charset);
        let multi_byte = match kind {
            Kind::MultiByte(_) | Kind::Iso2022Jp => {
                Some(MultiByte::new(engine::multi_byte_encoding(kind), kernels))
            }
            _ => None,
        };
        let jdk_multi_byte = match kind {
            Kind::JdkMultiByte(k) => Some(jdk_multi_byte::Coder::new(
                &crate::jdk::MULTI_BYTE[k],
                engine::jdk_replacement(charset),
                kernels,
            )),
            _ => None,
        };
        // A charset with its own BOM: the BOM once, then the text in the charset without it.
        let body = match kind {
            Kind::Utf16 {
                bom: true,
                big_endian,
            } => {
                if big_endian {
                    Charset::UTF_16BE
                } else {
                    Charset::UTF_16LE
                }
            }
            Kind::Utf32 {
                bom: true,
                big_endian,
            } => {
                if big_endian {
                    Charset::UTF_32BE
                } else {
                    Charset::UTF_32LE
                }
            }
            _ => charset,
        };
        Encoder {
            charset,
            body,
            kind,
            policy,
            kernels,
            multi_byte,
            jdk_multi_byte,
            pending: None,
            bom_due: !engine::own_bom(kind).is_empty(),
            held: Held::EMPTY,
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
    /// the text. `dst` grows as needed.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_charset::{Charset, Replacement};
    ///
    /// let charset = Charset::from(encoding_rs::SHIFT_JIS);
    /// let mut encoder = charset.new_encoder(Replacement::Whatwg);
    /// let mut out = Vec::new();
    /// for chunk in ["日本", "語 😀", ""] {
    ///     encoder.encode_to_vec(chunk, chunk.is_empty(), &mut out);
    /// }
    /// assert_eq!(out, charset.encode("日本語 😀", Replacement::Whatwg));
    /// ```
    pub fn encode_to_vec(&mut self, src: &str, last: bool, dst: &mut Vec<u8>) {
        self.release_held(dst);
        self.str_into(src, last, dst);
    }

    /// Appends the encoding of the next chunk of a UTF-16 text (unpaired surrogates allowed)
    /// to `dst`; `last`: this chunk ends the text. A chunk may end between the two halves of
    /// a surrogate pair.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_charset::{Charset, Replacement};
    ///
    /// let units: Vec<u16> = "a😀b".encode_utf16().collect();
    /// let mut encoder = Charset::ISO_8859_1.new_encoder(Replacement::Jdk);
    /// let mut out = Vec::new();
    /// for chunk in units.chunks(2) {
    ///     encoder.encode_from_utf16_to_vec(chunk, false, &mut out);
    /// }
    /// encoder.encode_from_utf16_to_vec(&[], true, &mut out);
    /// assert_eq!(out, b"a?b");
    /// ```
    pub fn encode_from_utf16_to_vec(&mut self, src: &[u16], last: bool, dst: &mut Vec<u8>) {
        self.release_held(dst);
        self.units_into(src, last, dst);
    }

    /// Encodes the next chunk of the text into `dst`, in encoding_rs's form
    /// ([`encoding_rs::Encoder::encode_from_utf8`]): returns the result, the bytes of `src`
    /// read, the bytes of `dst` written, and whether a replacement was written (for an
    /// unmappable char, or an unpaired surrogate before this chunk).
    ///
    /// [`CoderResult::InputEmpty`]: all of `src` was read (and, with `last`, the text is
    /// finished: the encoder is ready for a new one). [`CoderResult::OutputFull`]: `dst` is
    /// full; call again with the rest of `src` (`&src[read..]`, the same `last`) and more
    /// room. The output of the last char read may not have fitted whole: the encoder keeps
    /// the rest (at most a few bytes) and writes it at the start of the next call, so the
    /// bytes of all calls put together are always [`Charset::encode`]'s. A `dst` of
    /// [`max_buffer_length`](Self::max_buffer_length) bytes always takes a whole chunk.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_charset::{Charset, CoderResult, Replacement};
    ///
    /// let latin2 = Charset::from(encoding_rs::ISO_8859_2);
    /// let mut encoder = latin2.new_encoder(Replacement::Jdk);
    /// let text = "Łódź €";
    /// let mut dst = [0u8; 4];
    /// let (result, read, written, replaced) = encoder.encode_to_slice(text, &mut dst, true);
    /// assert_eq!((result, read, written, replaced), (CoderResult::OutputFull, 7, 4, false));
    /// assert_eq!(&dst, b"\xA3\xF3d\xBC");
    /// let (result, read, written, replaced) = encoder.encode_to_slice(&text[7..], &mut dst, true);
    /// assert_eq!((result, read, written, replaced), (CoderResult::InputEmpty, 4, 2, true));
    /// assert_eq!(&dst[..2], b" ?");
    /// ```
    #[must_use = "the result says whether `src` was read to the end, and how much was written"]
    pub fn encode_to_slice(
        &mut self,
        src: &str,
        dst: &mut [u8],
        last: bool,
    ) -> (CoderResult, usize, usize, bool) {
        self.fill_slice(src, dst, last)
    }

    /// [`encode_to_slice`](Self::encode_to_slice) for a chunk of UTF-16 (unpaired surrogates
    /// allowed; a chunk may end between the two halves of a pair): returns the result, the
    /// units of `src` read, the bytes of `dst` written, and whether a replacement was
    /// written.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_charset::{Charset, CoderResult, Replacement};
    ///
    /// let mut encoder = Charset::UTF_16LE.new_encoder(Replacement::Jdk);
    /// let mut dst = [0u8; 8];
    /// let result = encoder.encode_from_utf16_to_slice(&[0x68, 0xD800, 0x69], &mut dst, true);
    /// assert_eq!(result, (CoderResult::InputEmpty, 3, 6, true));
    /// assert_eq!(&dst[..6], b"h\0\xFD\xFFi\0");
    /// ```
    #[must_use = "the result says whether `src` was read to the end, and how much was written"]
    pub fn encode_from_utf16_to_slice(
        &mut self,
        src: &[u16],
        dst: &mut [u8],
        last: bool,
    ) -> (CoderResult, usize, usize, bool) {
        self.fill_slice(src, dst, last)
    }

    /// The size of a `dst` into which [`encode_to_slice`](Self::encode_to_slice) writes a
    /// whole chunk of `utf8_len` bytes, whatever it holds; `None` if that does not fit in a
    /// `usize`.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_charset::{Charset, CoderResult, Replacement};
    ///
    /// let mut encoder = Charset::UTF_16.new_encoder(Replacement::Jdk);
    /// let text = "Grüße 😀";
    /// let mut dst = vec![0u8; encoder.max_buffer_length(text.len()).unwrap()];
    /// let (result, read, written, _) = encoder.encode_to_slice(text, &mut dst, true);
    /// assert_eq!((result, read), (CoderResult::InputEmpty, text.len()));
    /// assert_eq!(&dst[..written], Charset::UTF_16.encode(text, Replacement::Jdk));
    /// ```
    #[must_use]
    pub fn max_buffer_length(&self, utf8_len: usize) -> Option<usize> {
        engine::max_len_str(self.body, utf8_len, self.policy)?.checked_add(SLACK + self.held.len())
    }

    /// [`max_buffer_length`](Self::max_buffer_length) for a UTF-16 chunk of `utf16_len`
    /// units.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_charset::{Charset, Replacement};
    ///
    /// let encoder = Charset::UTF_8.new_encoder(Replacement::Whatwg);
    /// assert!(encoder.max_buffer_length_from_utf16(10).unwrap() >= 30);
    /// ```
    #[must_use]
    pub fn max_buffer_length_from_utf16(&self, utf16_len: usize) -> Option<usize> {
        engine::max_len_units(self.body, utf16_len, self.policy)?
            .checked_add(SLACK + self.held.len())
    }

    /// Appends the bytes held from a slice that was full.
    fn release_held(&mut self, dst: &mut Vec<u8>) {
        if self.held.len() > 0 {
            dst.extend_from_slice(&self.held.buf[self.held.start..self.held.end]);
            self.held = Held::EMPTY;
        }
    }

    /// The slice loop: the held bytes first; then, while the worst case of what is left does
    /// not fit, the longest prefix whose worst case does, straight into `dst`; then the last
    /// char that does not fit by its worst case through a small buffer, whose overflow is
    /// held.
    fn fill_slice<C: Chunk + ?Sized>(
        &mut self,
        src: &C,
        dst: &mut [u8],
        last: bool,
    ) -> (CoderResult, usize, usize, bool) {
        let mut written = self.held.drain_into(dst);
        if self.held.len() > 0 {
            return (CoderResult::OutputFull, 0, written, false);
        }
        let mut read = 0;
        let mut replaced = false;
        loop {
            let rest = src.from(read);
            if rest.units() == 0 && !last {
                return (CoderResult::InputEmpty, read, written, replaced);
            }
            let room = dst.len() - written;
            let fits = engine::max_input(self.body, room, SLACK, self.policy, C::UTF16);
            let whole = fits.is_some_and(|fits| fits >= rest.units());
            let n = match fits {
                Some(_) if whole => rest.units(),
                Some(fits) => rest.cut(fits),
                None => 0,
            };
            if n > 0 || whole {
                let mut sink = Tracked::new(SliceSink::new(&mut dst[written..]));
                rest.encode(n, self, last && whole, &mut sink);
                // The worst case fits: the sink never fills.
                written += sink.inner.len();
                replaced |= sink.replaced;
                read += n;
                if whole {
                    return (CoderResult::InputEmpty, read, written, replaced);
                }
                continue;
            }
            if room == 0 {
                return (CoderResult::OutputFull, read, written, replaced);
            }
            // One char (or, at the end of the text, nothing but the end) through a buffer
            // that always has room; what does not fit is held.
            let one = rest.first_char();
            crate::counters::add(crate::counters::Path::EncoderOneChar, one);
            let mut buf = [0u8; HELD];
            let mut sink = Tracked::new(SliceSink::new(&mut buf));
            rest.encode(one, self, last && one == rest.units(), &mut sink);
            replaced |= sink.replaced;
            let len = sink.inner.len();
            let now = len.min(room);
            dst[written..written + now].copy_from_slice(&buf[..now]);
            written += now;
            read += one;
            if now < len {
                self.held = Held {
                    buf,
                    start: now,
                    end: len,
                };
                return (CoderResult::OutputFull, read, written, replaced);
            }
            if one == rest.units() {
                return (CoderResult::InputEmpty, read, written, replaced);
            }
        }
    }

    /// Encodes the next `&str` chunk into `dst`.
    fn str_into<S: Sink>(&mut self, chunk: &str, last: bool, dst: &mut S) {
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
        if let Some(coder) = &mut self.jdk_multi_byte {
            code_str(coder, chunk, last, policy, dst);
        } else if let Some(coder) = &mut self.multi_byte {
            coder.track = S::TRACKS;
            code_str(coder, chunk, last, policy, dst);
        } else {
            infallible(engine::encode_str(
                chunk,
                self.body,
                false,
                policy,
                self.kernels,
                dst,
            ));
        }
        if last {
            self.reset();
        }
    }

    /// Encodes the next UTF-16 chunk into `dst`.
    fn units_into<S: Sink>(&mut self, chunk: &[u16], last: bool, dst: &mut S) {
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

    /// Writes the charset's own BOM (the JDK's UTF-16 and the JDK's UTF charsets with a BOM)
    /// if it is due.
    fn bom<S: Sink>(&mut self, dst: &mut S) {
        if self.bom_due {
            dst.extend_from_slice(engine::own_bom(self.kind));
            self.bom_due = false;
        }
    }

    /// Encodes UTF-16 units that hold no pair split from the chunk before or after.
    fn units<S: Sink>(&mut self, units: &[u16], last: bool, dst: &mut S) {
        let policy = self.policy;
        if let Some(coder) = &mut self.jdk_multi_byte {
            code_units(coder, units, last, policy, dst);
        } else if let Some(coder) = &mut self.multi_byte {
            coder.track = S::TRACKS;
            code_units(coder, units, last, policy, dst);
        } else {
            infallible(engine::encode_units(
                units,
                self.body,
                false,
                policy,
                self.kernels,
                dst,
            ));
        }
    }

    /// After the last chunk: ready for a new text.
    fn reset(&mut self) {
        self.pending = None;
        self.bom_due = !engine::own_bom(self.kind).is_empty();
    }
}

#[cfg(test)]
mod tests {
    use super::Chunk;

    /// `cut` of a `&str` at every length: the longest prefix of at most `n` bytes that ends
    /// on a char boundary (never past `n`: the worst case of what is encoded must fit).
    #[test]
    fn a_str_is_cut_at_the_last_char_boundary_within_n() {
        let text = "a\u{E9}\u{4E2D}\u{1F600}b";
        for n in 0..=text.len() + 2 {
            let want = (0..=n.min(text.len()))
                .rev()
                .find(|&k| text.is_char_boundary(k))
                .unwrap_or(0);
            assert_eq!(Chunk::cut(text, n), want, "{n}");
        }
    }

    /// `cut` of UTF-16 units: at most `n`, a surrogate pair split as it comes.
    #[test]
    fn units_are_cut_at_n() {
        let units: Vec<u16> = "a\u{1F600}b".encode_utf16().collect();
        for n in 0..=units.len() + 2 {
            assert_eq!(Chunk::cut(&units[..], n), n.min(units.len()), "{n}");
        }
    }
}
