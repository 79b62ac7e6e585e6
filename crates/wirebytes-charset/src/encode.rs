//! The encode functions, as [`Charset`]'s methods: every form of output (a new `Vec`, the
//! end of a `Vec`, a slice, a `BufMut`, a length) for `&str` and UTF-16 input.

use crate::arch::Kernels;
use crate::encoder::Encoder;
use crate::engine::{self, infallible};
use crate::error::{Unmappable, UnmappableUtf16};
use crate::sink::SliceSink;
use crate::{Charset, Policy, Replacement};

impl Charset {
    /// Encodes `text`, writing `replacement` where a char cannot be encoded.
    ///
    /// The result has `capacity() == len()`. See the [crate docs](crate#what-is-written) for
    /// what is written for each charset.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_charset::{Charset, Replacement};
    ///
    /// let cp1252 = Charset::from(encoding_rs::WINDOWS_1252);
    /// assert_eq!(cp1252.encode("Grüße", Replacement::Jdk), b"Gr\xFC\xDFe");
    /// let sjis = Charset::from(encoding_rs::SHIFT_JIS);
    /// assert_eq!(sjis.encode("日本", Replacement::Jdk), b"\x93\xFA\x96\x7B");
    /// assert_eq!(Charset::UTF_16BE.encode("hi", Replacement::Jdk), b"\0h\0i");
    /// let euc_kr = Charset::from(encoding_rs::EUC_KR);
    /// assert_eq!(euc_kr.encode("é", Replacement::Jdk), b"?");
    /// assert_eq!(euc_kr.encode("é", Replacement::Whatwg), b"&#233;");
    /// assert_eq!(Charset::ISO_8859_1.encode("é€", Replacement::Jdk), b"\xE9?");
    /// ```
    #[must_use]
    #[inline]
    pub fn encode(self, text: &str, replacement: Replacement) -> Vec<u8> {
        let mut out = Vec::new();
        self.encode_to_vec(text, replacement, &mut out);
        out
    }

    /// Encodes UTF-16 `src` (which may hold unpaired surrogates, like a Java `String`),
    /// writing `replacement` for unmappable chars and unpaired surrogates.
    ///
    /// The result has `capacity() == len()`.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_charset::{Charset, Replacement};
    ///
    /// let units = [0x48, 0xD83D, 0x49]; // "H", a lone high surrogate, "I"
    /// let cp1252 = Charset::from(encoding_rs::WINDOWS_1252);
    /// assert_eq!(cp1252.encode_from_utf16(&units, Replacement::Jdk), b"H?I");
    /// assert_eq!(cp1252.encode_from_utf16(&units, Replacement::Whatwg), b"H&#65533;I");
    /// assert_eq!(Charset::UTF_16LE.encode_from_utf16(&units, Replacement::Jdk), b"H\0\xFD\xFFI\0");
    /// ```
    #[must_use]
    pub fn encode_from_utf16(self, src: &[u16], replacement: Replacement) -> Vec<u8> {
        let mut out = Vec::new();
        self.encode_from_utf16_to_vec(src, replacement, &mut out);
        out
    }

    /// Like [`encode`](Self::encode), taking the `String` by value: when the encoded bytes
    /// are the string's own bytes (a UTF-8 target, or all-ASCII text to an ASCII-compatible
    /// target) its buffer is handed back without copying (shrunk to fit if it had spare
    /// capacity, so that `capacity() == len()` still holds).
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_charset::{Charset, Replacement};
    ///
    /// let text = String::from("{\"ok\":true}");
    /// let ptr = text.as_ptr();
    /// let body = Charset::US_ASCII.encode_string(text, Replacement::Jdk);
    /// assert_eq!(body, b"{\"ok\":true}");
    /// assert_eq!(body.as_ptr(), ptr); // the same buffer
    /// ```
    #[must_use]
    #[inline]
    pub fn encode_string(self, text: String, replacement: Replacement) -> Vec<u8> {
        engine::encode_owned(text, self, replacement, Kernels::detect())
    }

    /// Like [`encode`](Self::encode), with the charset's [`bom`](Self::bom) in front (UTF-8,
    /// UTF-16LE and UTF-16BE have one; the JDK's UTF-16 writes its own in any case; for every
    /// other charset this is [`encode`](Self::encode)). Still one exact-size allocation.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_charset::{Charset, Replacement};
    ///
    /// let body = Charset::UTF_16LE.encode_with_bom("hi", Replacement::Jdk);
    /// assert_eq!(body, b"\xFF\xFEh\0i\0");
    /// assert_eq!(body.capacity(), body.len());
    /// ```
    #[must_use]
    pub fn encode_with_bom(self, text: &str, replacement: Replacement) -> Vec<u8> {
        let mut out = Vec::new();
        infallible(engine::encode_str(
            text,
            self,
            true,
            replacement.into(),
            Kernels::detect(),
            &mut out,
        ));
        out
    }

    /// Like [`encode_from_utf16`](Self::encode_from_utf16), with the charset's
    /// [`bom`](Self::bom) in front.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_charset::{Charset, Replacement};
    ///
    /// let body = Charset::UTF_16BE.encode_from_utf16_with_bom(&[0x68], Replacement::Jdk);
    /// assert_eq!(body, b"\xFE\xFF\0h");
    /// ```
    #[must_use]
    pub fn encode_from_utf16_with_bom(self, src: &[u16], replacement: Replacement) -> Vec<u8> {
        let mut out = Vec::new();
        infallible(engine::encode_units(
            src,
            self,
            true,
            replacement.into(),
            Kernels::detect(),
            &mut out,
        ));
        out
    }

    /// Appends the bytes [`encode`](Self::encode) returns to `dst`, with one reservation of
    /// their exact size (two for a single-byte charset under [`Replacement::Whatwg`] that
    /// meets an unmappable char) and no zero-fill.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_charset::{Charset, Replacement};
    ///
    /// let mut request = b"POST /x HTTP/1.1\r\n\r\n".to_vec();
    /// Charset::ISO_8859_1.encode_to_vec("café €", Replacement::Jdk, &mut request);
    /// assert!(request.ends_with(b"\r\n\r\ncaf\xE9 ?"));
    /// ```
    #[inline]
    pub fn encode_to_vec(self, text: &str, replacement: Replacement, dst: &mut Vec<u8>) {
        infallible(engine::encode_str(
            text,
            self,
            false,
            replacement.into(),
            Kernels::detect(),
            dst,
        ));
    }

    /// Appends the bytes [`encode_from_utf16`](Self::encode_from_utf16) returns to `dst`,
    /// with one reservation of their exact size and no zero-fill. (A single-byte charset
    /// under [`Replacement::Jdk`] into an empty `dst` with no capacity reserves one byte a
    /// unit instead, with nothing counted first, and gives the rest back where surrogate
    /// pairs, one `?` each, made the output shorter: `dst` still ends with
    /// `capacity() == len()`.)
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_charset::{Charset, Replacement};
    ///
    /// let mut body = b"<".to_vec();
    /// Charset::US_ASCII.encode_from_utf16_to_vec(&[0x41, 0xDC00, 0x42], Replacement::Jdk, &mut body);
    /// assert_eq!(body, b"<A?B");
    /// ```
    pub fn encode_from_utf16_to_vec(
        self,
        src: &[u16],
        replacement: Replacement,
        dst: &mut Vec<u8>,
    ) {
        infallible(engine::encode_units(
            src,
            self,
            false,
            replacement.into(),
            Kernels::detect(),
            dst,
        ));
    }

    /// Writes the bytes [`encode`](Self::encode) returns to the start of `dst`: `Some(n)`,
    /// the number of bytes written, when they fit (the bytes of `dst` past them are left as
    /// they were); `None` when `dst` is shorter than they are (then what `dst` holds is
    /// unspecified, but nothing past it is touched). Written in one pass, with nothing
    /// counted first, but for UTF-16 and UTF-32 into a `dst` shorter than their worst case
    /// (two or four bytes a byte of `text`), where the units are counted first; a `dst` of
    /// [`max_encoded_len`](Self::max_encoded_len)`(text.len(), replacement)` bytes always
    /// takes the whole text.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_charset::{Charset, Replacement};
    ///
    /// let mut frame = [0u8; 8];
    /// assert_eq!(Charset::UTF_16BE.encode_to_slice("hé", Replacement::Jdk, &mut frame), Some(4));
    /// assert_eq!(&frame[..4], b"\0h\0\xE9");
    /// assert_eq!(Charset::UTF_16BE.encode_to_slice("héllo", Replacement::Jdk, &mut frame), None);
    /// ```
    #[must_use = "`None` means the output did not fit and `dst` holds no usable bytes"]
    pub fn encode_to_slice(
        self,
        text: &str,
        replacement: Replacement,
        dst: &mut [u8],
    ) -> Option<usize> {
        let mut sink = SliceSink::new(dst);
        infallible(engine::encode_str(
            text,
            self,
            false,
            replacement.into(),
            Kernels::detect(),
            &mut sink,
        ));
        sink.written()
    }

    /// Writes the bytes [`encode_from_utf16`](Self::encode_from_utf16) returns to the start
    /// of `dst`, as [`encode_to_slice`](Self::encode_to_slice) does: `Some(n)` when they fit,
    /// `None` when they do not.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_charset::{Charset, Replacement};
    ///
    /// let mut dst = [0u8; 4];
    /// let units = [0x61, 0xD800, 0x62];
    /// assert_eq!(Charset::UTF_8.encode_from_utf16_to_slice(&units, Replacement::Jdk, &mut dst), Some(3));
    /// assert_eq!(&dst[..3], b"a?b");
    /// assert_eq!(Charset::UTF_8.encode_from_utf16_to_slice(&units, Replacement::Whatwg, &mut dst), None);
    /// ```
    #[must_use = "`None` means the output did not fit and `dst` holds no usable bytes"]
    pub fn encode_from_utf16_to_slice(
        self,
        src: &[u16],
        replacement: Replacement,
        dst: &mut [u8],
    ) -> Option<usize> {
        let mut sink = SliceSink::new(dst);
        infallible(engine::encode_units(
            src,
            self,
            false,
            replacement.into(),
            Kernels::detect(),
            &mut sink,
        ));
        sink.written()
    }

    /// Appends the bytes [`encode`](Self::encode) returns to `dst`, any [`bytes::BufMut`] (a
    /// `BytesMut`, a `Vec<u8>`, a `&mut [u8]`...), straight into its chunks as they come,
    /// with no scratch buffer in between.
    ///
    /// # Panics
    ///
    /// If `dst.remaining_mut()` is less than the encoded length (a fixed-size `dst` too
    /// short): checked before anything is written, as `BufMut::put_slice` does. A `BytesMut`
    /// or a `Vec<u8>` grows and always has room.
    ///
    /// # Examples
    ///
    /// ```
    /// use bytes::BytesMut;
    /// use wirebytes_charset::{Charset, Replacement};
    ///
    /// let mut buf = BytesMut::from(&b"body: "[..]);
    /// Charset::US_ASCII.encode_to_buf("Grüße", Replacement::Jdk, &mut buf);
    /// assert_eq!(&buf[..], b"body: Gr??e");
    /// ```
    #[cfg(feature = "bytes")]
    #[cfg_attr(docsrs, doc(cfg(feature = "bytes")))]
    pub fn encode_to_buf<B: bytes::BufMut + ?Sized>(
        self,
        text: &str,
        replacement: Replacement,
        dst: &mut B,
    ) {
        let policy = Policy::from(replacement);
        let kernels = Kernels::detect();
        let room = dst.remaining_mut();
        if engine::max_len_str(self, text.len(), policy).is_none_or(|max| max > room) {
            let len = engine::len_str(text, self, policy, kernels);
            assert!(
                len <= room,
                "encode_to_buf: {len} bytes do not fit in the {room} bytes left in the buffer"
            );
        }
        let mut sink = crate::sink::BufSink::new(dst);
        infallible(engine::encode_str(
            text, self, false, policy, kernels, &mut sink,
        ));
    }

    /// Appends the bytes [`encode_from_utf16`](Self::encode_from_utf16) returns to `dst`,
    /// any [`bytes::BufMut`], straight into its chunks.
    ///
    /// # Panics
    ///
    /// If `dst.remaining_mut()` is less than the encoded length: checked before anything is
    /// written.
    ///
    /// # Examples
    ///
    /// ```
    /// use bytes::BytesMut;
    /// use wirebytes_charset::{Charset, Replacement};
    ///
    /// let mut buf = BytesMut::new();
    /// Charset::UTF_32LE.encode_from_utf16_to_buf(&[0x41], Replacement::Jdk, &mut buf);
    /// assert_eq!(&buf[..], b"A\0\0\0");
    /// ```
    #[cfg(feature = "bytes")]
    #[cfg_attr(docsrs, doc(cfg(feature = "bytes")))]
    pub fn encode_from_utf16_to_buf<B: bytes::BufMut + ?Sized>(
        self,
        src: &[u16],
        replacement: Replacement,
        dst: &mut B,
    ) {
        let policy = Policy::from(replacement);
        let room = dst.remaining_mut();
        if engine::max_len_units(self, src.len(), policy).is_none_or(|max| max > room) {
            let len = engine::len_units(src, self, policy);
            assert!(
                len <= room,
                "encode_from_utf16_to_buf: {len} bytes do not fit in the {room} bytes left in the buffer"
            );
        }
        let mut sink = crate::sink::BufSink::new(dst);
        infallible(engine::encode_units(
            src,
            self,
            false,
            policy,
            Kernels::detect(),
            &mut sink,
        ));
    }

    /// The length of what [`encode`](Self::encode) returns, computed without allocating.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_charset::{Charset, Replacement};
    ///
    /// assert_eq!(Charset::UTF_16.encoded_len("héllo 😀", Replacement::Jdk), 2 + 2 * 8);
    /// let euc_jp = Charset::from(encoding_rs::EUC_JP);
    /// assert_eq!(euc_jp.encoded_len("日本 😀", Replacement::Whatwg), 14);
    /// assert_eq!(euc_jp.encode("日本 😀", Replacement::Whatwg).len(), 14);
    /// ```
    #[must_use]
    #[inline]
    pub fn encoded_len(self, text: &str, replacement: Replacement) -> usize {
        engine::len_str(text, self, replacement.into(), Kernels::detect())
    }

    /// The length of what [`encode_from_utf16`](Self::encode_from_utf16) returns, computed
    /// without allocating.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_charset::{Charset, Replacement};
    ///
    /// let units: Vec<u16> = "a😀".encode_utf16().collect();
    /// assert_eq!(Charset::UTF_8.encoded_len_from_utf16(&units, Replacement::Jdk), 5);
    /// assert_eq!(Charset::ISO_8859_1.encoded_len_from_utf16(&units, Replacement::Whatwg), 10);
    /// ```
    #[must_use]
    pub fn encoded_len_from_utf16(self, src: &[u16], replacement: Replacement) -> usize {
        engine::len_units(src, self, replacement.into())
    }

    /// The most bytes [`encode`](Self::encode) can write for a text of `utf8_len` bytes,
    /// whatever they are: [`encode_to_slice`](Self::encode_to_slice) into a slice of this
    /// length always succeeds. Saturates at `usize::MAX` (no slice is that long).
    ///
    /// The bound is per byte of UTF-8: 1 for UTF-8 and for the single-byte charsets under
    /// [`Replacement::Jdk`], 2 for UTF-16, 4 for UTF-32, 4 for a `&#N;` (at most 7 bytes for
    /// a 2-byte char), 2 for the CJK encodings (gb18030 writes 4 bytes for some 2-byte
    /// chars), and for ISO-2022-JP up to 8 (a replacement after a state switch), plus the
    /// JDK UTF-16 BOM or ISO-2022-JP's return to ASCII.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_charset::{Charset, Replacement};
    ///
    /// assert_eq!(Charset::UTF_16.max_encoded_len(5, Replacement::Jdk), 12);
    /// let text = "😀😀";
    /// let mut dst = vec![0u8; Charset::UTF_16.max_encoded_len(text.len(), Replacement::Jdk)];
    /// assert!(Charset::UTF_16.encode_to_slice(text, Replacement::Jdk, &mut dst).is_some());
    /// ```
    #[must_use]
    pub fn max_encoded_len(self, utf8_len: usize, replacement: Replacement) -> usize {
        engine::max_len_str(self, utf8_len, replacement.into()).unwrap_or(usize::MAX)
    }

    /// The most bytes [`encode_from_utf16`](Self::encode_from_utf16) can write for
    /// `utf16_len` units: [`encode_from_utf16_to_slice`](Self::encode_from_utf16_to_slice)
    /// into a slice of this length always succeeds. Saturates at `usize::MAX`.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_charset::{Charset, Replacement};
    ///
    /// assert_eq!(Charset::UTF_8.max_encoded_len_from_utf16(4, Replacement::Jdk), 12);
    /// ```
    #[must_use]
    pub fn max_encoded_len_from_utf16(self, utf16_len: usize, replacement: Replacement) -> usize {
        engine::max_len_units(self, utf16_len, replacement.into()).unwrap_or(usize::MAX)
    }

    /// Encodes `text`, or reports the first char the charset cannot represent.
    ///
    /// # Errors
    ///
    /// [`Unmappable`] with the char and its byte offset in `text`; nothing partial is
    /// returned. UTF-8, UTF-16 and UTF-32 targets and `replacement` (written as UTF-8) never
    /// fail; neither does gb18030.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_charset::Charset;
    ///
    /// let cp1252 = Charset::from(encoding_rs::WINDOWS_1252);
    /// assert_eq!(cp1252.try_encode("Ünïcödé").unwrap(), b"\xDCn\xEFc\xF6d\xE9");
    /// let err = cp1252.try_encode("ok ✓").unwrap_err();
    /// assert_eq!((err.ch(), err.offset()), ('✓', 3));
    /// assert_eq!(Charset::US_ASCII.try_encode("né").unwrap_err().offset(), 1);
    /// ```
    #[inline]
    pub fn try_encode(self, text: &str) -> Result<Vec<u8>, Unmappable> {
        engine::encode_strict(text, self, Kernels::detect())
    }

    /// Encodes UTF-16 `src`, or reports the first unpaired surrogate or char the charset
    /// cannot represent.
    ///
    /// # Errors
    ///
    /// [`UnmappableUtf16`] with the code point (or the unpaired surrogate) and its index in
    /// `src`; nothing partial is returned. Every charset fails on an unpaired surrogate.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_charset::Charset;
    ///
    /// let units: Vec<u16> = "Grüße".encode_utf16().collect();
    /// let cp1252 = Charset::from(encoding_rs::WINDOWS_1252);
    /// assert_eq!(cp1252.try_encode_from_utf16(&units).unwrap(), b"Gr\xFC\xDFe");
    /// assert_eq!(Charset::UTF_8.try_encode_from_utf16(&[0x41, 0xDC00]).unwrap_err().offset(), 1);
    /// ```
    pub fn try_encode_from_utf16(self, src: &[u16]) -> Result<Vec<u8>, UnmappableUtf16> {
        engine::encode_units_strict(src, self)
    }

    /// A streaming [`Encoder`] into this charset: text given chunk by chunk comes out as the
    /// bytes [`encode`](Self::encode) writes for the whole.
    ///
    /// # Examples
    ///
    /// ```
    /// use wirebytes_charset::{Charset, Replacement};
    ///
    /// let mut encoder = Charset::UTF_16.new_encoder(Replacement::Jdk);
    /// let mut body = Vec::new();
    /// encoder.encode_to_vec("h", false, &mut body);
    /// encoder.encode_to_vec("i", true, &mut body);
    /// assert_eq!(body, b"\xFE\xFF\0h\0i");
    /// ```
    #[must_use]
    pub fn new_encoder(self, replacement: Replacement) -> Encoder {
        Encoder::new(self, Policy::from(replacement), Kernels::detect())
    }
}
