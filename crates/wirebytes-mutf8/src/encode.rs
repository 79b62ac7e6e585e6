//! Encoding: `writeUTF`'s body bytes from a `str` or from UTF-16, into every destination; and
//! the engine the CESU-8 encoders share, which differ only in how they write U+0000 and a
//! lone surrogate.

use alloc::borrow::Cow;
use alloc::vec::Vec;

use crate::counters::{self, Path};
use crate::out::{Sink, SliceOut};
use crate::scan::{extra_len, needs_encoding, plain_end};

/// How an encoding writes what UTF-8 and UTF-16 do not settle alone: U+0000, and a
/// surrogate that is not part of a pair.
pub(crate) trait Rule {
    /// U+0000 as `C0 80` (modified UTF-8) rather than as `00` (CESU-8).
    const NUL_TWO_BYTES: bool;
    /// A lone surrogate as `?` (CESU-8: what `String.getBytes` writes for what the charset
    /// cannot encode) rather than as its own 3-byte sequence (modified UTF-8).
    const LONE_SURROGATE_AS_QUESTION_MARK: bool;
}

/// Modified UTF-8: `writeUTF`, JNI, the class file.
#[derive(Debug)]
pub(crate) enum Mutf8 {}

impl Rule for Mutf8 {
    const NUL_TWO_BYTES: bool = true;
    const LONE_SURROGATE_AS_QUESTION_MARK: bool = false;
}

/// The JDK's "CESU-8" charset.
#[derive(Debug)]
pub(crate) enum Cesu8 {}

impl Rule for Cesu8 {
    const NUL_TWO_BYTES: bool = false;
    const LONE_SURROGATE_AS_QUESTION_MARK: bool = true;
}

/// Encodes text as `DataOutput.writeUTF` writes it (the body, without the length field),
/// borrowing the text's bytes when they are already those bytes.
///
/// `writeUTF` writes the text's UTF-16 chars one at a time: U+0000 as `C0 80`, a char above
/// U+FFFF as its two surrogates, 3 bytes each; everything else as in UTF-8. So the result is
/// borrowed unless the text holds a NUL or a char above U+FFFF (found by one fast scan), and
/// otherwise built in one pass into a `Vec` of exactly [`encoded_len`] bytes.
///
/// This does not check `writeUTF`'s 65535-byte limit: [`write_utf`](crate::write_utf) does.
///
/// # Examples
///
/// ```
/// use std::borrow::Cow;
/// use wirebytes_mutf8::encode;
///
/// assert!(matches!(encode("plain ütf-8"), Cow::Borrowed(b"plain \xc3\xbctf-8")));
/// assert_eq!(encode("nul \0"), &b"nul \xc0\x80"[..]);
/// assert_eq!(encode("\u{1F600}"), &b"\xed\xa0\xbd\xed\xb8\x80"[..]);
/// ```
#[must_use]
pub fn encode(text: &str) -> Cow<'_, [u8]> {
    encode_cow::<Mutf8>(text)
}

/// Appends what [`encode()`] gives for `text` to `dst`, reserving room once and without
/// zero-filling it: a hot loop that reuses one `Vec` allocates nothing once it has room.
///
/// # Examples
///
/// ```
/// let mut out = b"head:".to_vec();
/// wirebytes_mutf8::encode_to_vec("a\0\u{1F600}", &mut out);
/// assert_eq!(out, b"head:a\xc0\x80\xed\xa0\xbd\xed\xb8\x80");
/// ```
pub fn encode_to_vec(text: &str, dst: &mut Vec<u8>) {
    to_vec::<Mutf8>(text, dst);
}

/// Writes what [`encode()`] gives for `text` to the start of `dst`, in one pass: the number
/// of bytes written, or `None` when `dst` is shorter than that.
///
/// The bytes are written as they are encoded, and the function returns `None` as soon as the
/// next piece does not fit: `dst` then holds some of the bytes (never more than its length)
/// and what it held after them. [`max_encoded_len`]`(text.len())` bytes always suffice; the
/// exact number is [`encoded_len`]`(text)`.
///
/// # Examples
///
/// ```
/// use wirebytes_mutf8::{encode_to_slice, max_encoded_len};
///
/// let mut buf = [0u8; 16];
/// assert_eq!(encode_to_slice("a\0b", &mut buf), Some(4));
/// assert_eq!(&buf[..4], b"a\xc0\x80b");
/// assert_eq!(encode_to_slice("a\0b", &mut buf[..3]), None);
///
/// let text = "\0\0\0";
/// let mut buf = vec![0u8; max_encoded_len(text.len())];
/// assert_eq!(encode_to_slice(text, &mut buf), Some(6));
/// ```
#[must_use = "`None` means the slice was too short and holds part of the bytes"]
pub fn encode_to_slice(text: &str, dst: &mut [u8]) -> Option<usize> {
    to_slice::<Mutf8>(text, dst)
}

/// Appends what [`encode()`] gives for `text` to `dst`, straight into the chunks the buffer
/// offers ([`BufMut::chunk_mut`](bytes::BufMut::chunk_mut)): text without a NUL or a char
/// above U+FFFF with one `put_slice`; otherwise as much as each chunk holds, and only a
/// 2- or 6-byte sequence that a chunk's end cuts goes through `put_slice` from the stack.
///
/// # Panics
///
/// When `dst` has room ([`remaining_mut`](bytes::BufMut::remaining_mut)) for fewer than
/// [`encoded_len`]`(text)` bytes, before anything is written, as
/// [`BufMut::put_slice`](bytes::BufMut::put_slice) does.
///
/// # Examples
///
/// ```
/// use bytes::{BufMut, BytesMut};
///
/// let mut buf = BytesMut::new();
/// buf.put_u8(b'>');
/// wirebytes_mutf8::encode_to_buf("a\0\u{1F600}", &mut buf);
/// assert_eq!(&buf[..], b">a\xc0\x80\xed\xa0\xbd\xed\xb8\x80");
/// ```
#[cfg(feature = "bytes")]
#[cfg_attr(docsrs, doc(cfg(feature = "bytes")))]
pub fn encode_to_buf<B: bytes::BufMut + ?Sized>(text: &str, dst: &mut B) {
    to_buf::<Mutf8, B>(text, dst);
}

/// The length of [`encode()`]'s output, without building it: the text's length, plus one per
/// NUL, plus two per char above U+FFFF. Allocates nothing.
///
/// # Examples
///
/// ```
/// use wirebytes_mutf8::encoded_len;
///
/// assert_eq!(encoded_len("abc"), 3);
/// assert_eq!(encoded_len("a\0\u{1F600}"), 1 + 2 + 6);
/// ```
#[must_use]
pub fn encoded_len(text: &str) -> usize {
    str_len::<Mutf8>(text.as_bytes())
}

/// The most bytes [`encode()`] writes for a text of `utf8_len` bytes: `2 * utf8_len`, so that
/// [`encode_to_slice`] into a slice of this length always succeeds.
///
/// Every byte of a `str` is written as it is, but a NUL (1 byte, written `C0 80`) and a
/// 4-byte char (written as two 3-byte surrogates, 6 bytes); so the output is at most twice as
/// long as the text, and exactly twice for text of NULs only. The product saturates at
/// `usize::MAX`, which no text reaches: a `str` holds at most `isize::MAX` bytes.
///
/// # Examples
///
/// ```
/// use wirebytes_mutf8::{encoded_len, max_encoded_len};
///
/// assert_eq!(max_encoded_len(3), 6);
/// assert!(encoded_len("\u{1F600}") <= max_encoded_len(4));
/// assert_eq!(max_encoded_len(usize::MAX), usize::MAX);
/// ```
#[must_use]
pub const fn max_encoded_len(utf8_len: usize) -> usize {
    utf8_len.saturating_mul(2)
}

/// Encodes UTF-16 chars as `DataOutput.writeUTF` writes them (the body, without the length
/// field): any `u16`, lone surrogates included (3 bytes each). The `Vec` is exactly as long
/// as it needs to be.
///
/// # Examples
///
/// ```
/// use wirebytes_mutf8::encode_from_utf16;
///
/// let units: Vec<u16> = "a\0€".encode_utf16().chain([0xdc00]).collect();
/// assert_eq!(encode_from_utf16(&units), b"a\xc0\x80\xe2\x82\xac\xed\xb0\x80");
/// ```
#[must_use]
pub fn encode_from_utf16(src: &[u16]) -> Vec<u8> {
    let mut out = Vec::new();
    units_to_vec::<Mutf8>(src, &mut out);
    out
}

/// Appends what [`encode_from_utf16`] gives for `src` to `dst`, reserving room once and
/// without zero-filling it.
///
/// # Examples
///
/// ```
/// let mut out = b">".to_vec();
/// wirebytes_mutf8::encode_from_utf16_to_vec(&[0x61, 0, 0xd800], &mut out);
/// assert_eq!(out, b">a\xc0\x80\xed\xa0\x80");
/// ```
pub fn encode_from_utf16_to_vec(src: &[u16], dst: &mut Vec<u8>) {
    units_to_vec::<Mutf8>(src, dst);
}

/// Writes what [`encode_from_utf16`] gives for `src` to the start of `dst`, in one pass: the
/// number of bytes written, or `None` when `dst` is shorter than that (it then holds some of
/// the bytes). Three bytes per unit always suffice; the exact number is
/// [`encoded_len_from_utf16`]`(src)`.
///
/// # Examples
///
/// ```
/// use wirebytes_mutf8::encode_from_utf16_to_slice;
///
/// let mut buf = [0u8; 8];
/// assert_eq!(encode_from_utf16_to_slice(&[0x61, 0x20ac], &mut buf), Some(4));
/// assert_eq!(&buf[..4], b"a\xe2\x82\xac");
/// assert_eq!(encode_from_utf16_to_slice(&[0x61, 0x20ac], &mut buf[..3]), None);
/// ```
#[must_use = "`None` means the slice was too short and holds part of the bytes"]
pub fn encode_from_utf16_to_slice(src: &[u16], dst: &mut [u8]) -> Option<usize> {
    units_to_slice::<Mutf8>(src, dst)
}

/// The length of [`encode_from_utf16`]'s output, without building it: per unit, 1 byte for
/// U+0001..U+007F, 2 for U+0000 and U+0080..U+07FF, 3 for the rest (surrogates one at a
/// time). Allocates nothing.
///
/// # Examples
///
/// ```
/// use wirebytes_mutf8::encoded_len_from_utf16;
///
/// assert_eq!(encoded_len_from_utf16(&[0x61, 0, 0xe9, 0xd83d, 0xde00]), 1 + 2 + 2 + 6);
/// ```
#[must_use]
pub fn encoded_len_from_utf16(src: &[u16]) -> usize {
    units_len::<Mutf8>(src)
}

/// [`encode`], under the rule `R`.
pub(crate) fn encode_cow<R: Rule>(text: &str) -> Cow<'_, [u8]> {
    let bytes = text.as_bytes();
    if !needs_encoding::<R>(bytes) {
        counters::add(Path::EncodeAsIs, bytes.len());
        return Cow::Borrowed(bytes);
    }
    let len = bytes.len() + extra_len::<R>(bytes);
    let mut out = Vec::with_capacity(len);
    encode_str_into::<R, _>(bytes, 0, &mut out);
    debug_assert_eq!(out.len(), len);
    Cow::Owned(out)
}

/// [`encode_to_vec`], under the rule `R`.
pub(crate) fn to_vec<R: Rule>(text: &str, dst: &mut Vec<u8>) {
    let bytes = text.as_bytes();
    if !needs_encoding::<R>(bytes) {
        counters::add(Path::EncodeAsIs, bytes.len());
        dst.extend_from_slice(bytes);
        return;
    }
    dst.reserve(bytes.len() + extra_len::<R>(bytes));
    encode_str_into::<R, _>(bytes, 0, dst);
}

/// [`encode_to_slice`], under the rule `R`.
#[inline]
pub(crate) fn to_slice<R: Rule>(text: &str, dst: &mut [u8]) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut out = SliceOut::new(dst);
    let read = encode_str_into::<R, _>(bytes, 0, &mut out);
    (read == bytes.len()).then_some(out.len())
}

/// [`encode_to_buf`], under the rule `R`.
#[cfg(feature = "bytes")]
pub(crate) fn to_buf<R: Rule, B: bytes::BufMut + ?Sized>(text: &str, dst: &mut B) {
    let bytes = text.as_bytes();
    if !needs_encoding::<R>(bytes) {
        counters::add(Path::EncodeAsIs, bytes.len());
        // `put_slice` checks the room before it writes, and fills chunk after chunk.
        dst.put_slice(bytes);
        return;
    }
    put_str::<R, B>(bytes, str_len::<R>(bytes), dst);
}

/// Appends the rule `R`'s form of `bytes` (a `str`'s), `len` bytes long, to `dst`: with one
/// `put_slice` when that form is `bytes` themselves (`len == bytes.len()`); else as much as
/// each chunk holds, and only a piece that a chunk's end cuts goes through `put_slice` from
/// the stack.
///
/// # Panics
///
/// When `dst` has room for fewer than `len` bytes, before writing any.
#[cfg(feature = "bytes")]
pub(crate) fn put_str<R: Rule, B: bytes::BufMut + ?Sized>(bytes: &[u8], len: usize, dst: &mut B) {
    if len == bytes.len() {
        dst.put_slice(bytes);
        return;
    }
    assert_room(dst, len);
    let mut read = 0;
    while read < bytes.len() {
        let at = read;
        read = crate::out::put_chunk(dst, |out| encode_str_into::<R, _>(bytes, at, out));
        if read == at {
            // The next piece does not fit in what is left of the chunk: through the stack.
            let (piece, used) = str_piece::<R>(bytes, at);
            dst.put_slice(piece.as_slice());
            read += used;
        }
    }
}

/// Panics, as `BufMut::put_slice` does, when `dst` has room for fewer than `len` bytes.
#[cfg(feature = "bytes")]
#[inline]
pub(crate) fn assert_room<B: bytes::BufMut + ?Sized>(dst: &B, len: usize) {
    let room = dst.remaining_mut();
    assert!(room >= len, "{len} bytes to put, room for {room}");
}

/// [`encoded_len`], under the rule `R`.
#[inline]
pub(crate) fn str_len<R: Rule>(bytes: &[u8]) -> usize {
    bytes.len() + extra_len::<R>(bytes)
}

/// A short sequence built on the stack: at most 6 bytes.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Piece {
    bytes: [u8; 6],
    len: u8,
}

impl Piece {
    #[inline(always)]
    fn new<const N: usize>(bytes: [u8; N]) -> Piece {
        let mut out = [0u8; 6];
        out[..N].copy_from_slice(&bytes);
        Piece {
            bytes: out,
            len: N as u8,
        }
    }

    /// The bytes.
    #[inline(always)]
    pub(crate) fn as_slice(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }
}

/// What the rule `R` writes for `bytes[i]` of a `str` (`i` where [`encode_str_into`] stopped),
/// and how many bytes of the `str` that stands for: for a NUL or a 4-byte char, their form;
/// for any other byte, itself.
#[cfg(feature = "bytes")]
fn str_piece<R: Rule>(bytes: &[u8], i: usize) -> (Piece, usize) {
    match bytes[i] {
        0 if R::NUL_TWO_BYTES => (Piece::new([0xC0, 0x80]), 1),
        0xF0.. => (Piece::new(surrogates(&bytes[i..i + 4])), 4),
        byte => (Piece::new([byte]), 1),
    }
}

/// Writes the rule `R`'s form of `bytes[i..]` (a `str`'s bytes, from a char boundary or from
/// where an earlier call stopped) into `out` until it is done or the next piece does not fit;
/// returns how far it read. Runs of bytes written as they are may be cut to fill `out`, even
/// inside a char: their bytes are the same wherever they are cut.
#[inline]
pub(crate) fn encode_str_into<R: Rule, S: Sink + ?Sized>(
    bytes: &[u8],
    mut i: usize,
    out: &mut S,
) -> usize {
    loop {
        let end = plain_end::<R>(bytes, i);
        let run = &bytes[i..end];
        let put = out.put_part(run);
        if put < run.len() {
            // Bytes written as they are: the caller may go on from inside a char.
            return i + put;
        }
        i = end;
        let Some(&lead) = bytes.get(i) else {
            return i;
        };
        let fits = if lead == 0 {
            out.put(&[0xC0, 0x80])
        } else {
            // A 4-byte sequence of a `str`: F0..F4 and three continuation bytes.
            out.put(&surrogates(&bytes[i..i + 4]))
        };
        if !fits {
            return i;
        }
        i += if lead == 0 { 1 } else { 4 };
    }
}

/// The two 3-byte surrogates of a 4-byte UTF-8 sequence.
#[inline(always)]
pub(crate) fn surrogates(seq: &[u8]) -> [u8; 6] {
    let s = (u32::from(seq[0] & 0x07) << 18)
        | (u32::from(seq[1] & 0x3F) << 12)
        | (u32::from(seq[2] & 0x3F) << 6)
        | u32::from(seq[3] & 0x3F);
    let high = 0xD800 + ((s - 0x10000) >> 10);
    let low = 0xDC00 + (s & 0x3FF);
    [
        0xED,
        0x80 | ((high >> 6) & 0x3F) as u8,
        0x80 | (high & 0x3F) as u8,
        0xED,
        0x80 | ((low >> 6) & 0x3F) as u8,
        0x80 | (low & 0x3F) as u8,
    ]
}

/// Whether the rule `R` writes the unit `c` as one byte, itself: U+0001..U+007F, and U+0000
/// where it is a raw `00`.
#[inline(always)]
fn one_byte<R: Rule>(c: u16) -> bool {
    if R::NUL_TWO_BYTES {
        c.wrapping_sub(1) < 0x7F
    } else {
        c < 0x80
    }
}

/// Whether `c` is a surrogate.
#[inline(always)]
fn is_surrogate(c: u16) -> bool {
    c & 0xF800 == 0xD800
}

/// The 3-byte form of a unit of U+0800..U+FFFF (a surrogate too).
#[inline(always)]
pub(crate) fn three_bytes(c: u16) -> [u8; 3] {
    [
        0xE0 | (c >> 12) as u8,
        0x80 | ((c >> 6) & 0x3F) as u8,
        0x80 | (c & 0x3F) as u8,
    ]
}

/// Whether `units[k]` and `units[k + 1]` are a high and a low surrogate.
#[inline(always)]
fn pair_at(units: &[u16], k: usize) -> bool {
    (0xD800..0xDC00).contains(&units[k])
        && units
            .get(k + 1)
            .is_some_and(|low| (0xDC00..0xE000).contains(low))
}

/// What the rule `R` writes for the unit at `units[k]`, not a one-byte one, and how many
/// units that stands for (2 for a pair that CESU-8 writes together, else 1).
#[inline(always)]
fn unit_piece<R: Rule>(units: &[u16], k: usize) -> (Piece, usize) {
    let c = units[k];
    if c < 0x800 {
        (
            Piece::new([0xC0 | (c >> 6) as u8, 0x80 | (c & 0x3F) as u8]),
            1,
        )
    } else if R::LONE_SURROGATE_AS_QUESTION_MARK && is_surrogate(c) {
        if pair_at(units, k) {
            let [a, b, c3] = three_bytes(c);
            let [d, e, f] = three_bytes(units[k + 1]);
            (Piece::new([a, b, c3, d, e, f]), 2)
        } else {
            (Piece::new([b'?']), 1)
        }
    } else {
        (Piece::new(three_bytes(c)), 1)
    }
}

/// Writes the rule `R`'s form of `units[i..]` into `out` until it is done or the next piece
/// does not fit; returns how far it read. Runs of one-byte units may be cut to fill `out`.
#[inline]
pub(crate) fn encode_units_into<R: Rule, S: Sink + ?Sized>(
    units: &[u16],
    mut i: usize,
    out: &mut S,
) -> usize {
    let n = units.len();
    while i < n {
        // A run of one-byte units, found eight at a time, narrowed in bulk.
        let mut end = i;
        while let Some(chunk) = units.get(end..end + 8) {
            if chunk.iter().fold(false, |bad, &c| bad | !one_byte::<R>(c)) {
                break;
            }
            counters::add(Path::OneByteUnitChunks, 8);
            end += 8;
        }
        while end < n && one_byte::<R>(units[end]) {
            end += 1;
        }
        let put = out.put_part_narrowed(&units[i..end]);
        i += put;
        if i < end {
            return i;
        }
        // Then every other unit up to the next one-byte one.
        while i < n && !one_byte::<R>(units[i]) {
            let (piece, used) = unit_piece::<R>(units, i);
            if !out.put(piece.as_slice()) {
                return i;
            }
            i += used;
        }
    }
    i
}

/// [`encoded_len_from_utf16`], under the rule `R`.
pub(crate) fn units_len<R: Rule>(units: &[u16]) -> usize {
    let per_unit = |c: u16| 1 + usize::from(!one_byte::<R>(c)) + usize::from(c >= 0x800);
    if !R::LONE_SURROGATE_AS_QUESTION_MARK {
        return units.iter().map(|&c| per_unit(c)).sum();
    }
    // A lone surrogate is one byte (`?`), a pair two 3-byte sequences.
    let mut len = 0;
    let mut k = 0;
    while k < units.len() {
        let c = units[k];
        if is_surrogate(c) {
            if pair_at(units, k) {
                len += 6;
                k += 2;
                continue;
            }
            len += 1;
        } else {
            len += per_unit(c);
        }
        k += 1;
    }
    len
}

/// [`encode_from_utf16_to_vec`], under the rule `R`.
pub(crate) fn units_to_vec<R: Rule>(units: &[u16], dst: &mut Vec<u8>) {
    let len = units_len::<R>(units);
    dst.reserve(len);
    let start = dst.len();
    encode_units_into::<R, _>(units, 0, dst);
    debug_assert_eq!(dst.len() - start, len);
}

/// [`encode_from_utf16_to_slice`], under the rule `R`.
#[inline]
pub(crate) fn units_to_slice<R: Rule>(units: &[u16], dst: &mut [u8]) -> Option<usize> {
    let mut out = SliceOut::new(dst);
    let read = encode_units_into::<R, _>(units, 0, &mut out);
    (read == units.len()).then_some(out.len())
}

/// Appends the rule `R`'s form of `units`, `len` bytes long, to `dst` as [`put_str`] does
/// for text: chunk by chunk, a piece that a chunk's end cuts through `put_slice` from the
/// stack.
///
/// # Panics
///
/// When `dst` has room for fewer than `len` bytes, before writing any.
#[cfg(feature = "bytes")]
pub(crate) fn put_units<R: Rule, B: bytes::BufMut + ?Sized>(
    units: &[u16],
    len: usize,
    dst: &mut B,
) {
    assert_room(dst, len);
    let mut read = 0;
    while read < units.len() {
        let at = read;
        read = crate::out::put_chunk(dst, |out| encode_units_into::<R, _>(units, at, out));
        if read == at {
            let c = units[at];
            if one_byte::<R>(c) {
                dst.put_u8(c as u8);
                read += 1;
            } else {
                let (piece, used) = unit_piece::<R>(units, at);
                dst.put_slice(piece.as_slice());
                read += used;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use alloc::vec::Vec;

    use super::*;
    use crate::reference;

    /// Every prefix length of each text and of its UTF-16 form: the slice forms give the
    /// reference's bytes when they fit, and `None` otherwise, never touching a byte past the
    /// slice.
    #[test]
    fn the_slice_forms_fit_exactly_or_say_none() {
        let texts = [
            "",
            "a",
            "\0",
            "a\0b\u{e9}\u{20ac}\u{1F600}z",
            "\u{1F600}\u{1F600}",
        ];
        for text in texts {
            let want = reference::encode(text);
            let units: Vec<u16> = text.encode_utf16().collect();
            for len in 0..=want.len() + 2 {
                let mut buf = alloc::vec![0xA5u8; len + 4];
                let got = to_slice::<Mutf8>(text, &mut buf[..len]);
                assert_eq!(
                    got,
                    (len >= want.len()).then_some(want.len()),
                    "{text:?} {len}"
                );
                assert_eq!(&buf[len..], [0xA5; 4], "{text:?} {len}");
                if got.is_some() {
                    assert_eq!(&buf[..want.len()], &want[..]);
                }
                let mut buf = alloc::vec![0xA5u8; len + 4];
                let got = units_to_slice::<Mutf8>(&units, &mut buf[..len]);
                assert_eq!(
                    got,
                    (len >= want.len()).then_some(want.len()),
                    "{text:?} {len}"
                );
                assert_eq!(&buf[len..], [0xA5; 4], "{text:?} {len}");
            }
            assert_eq!(units_len::<Mutf8>(&units), want.len());
            let cesu = reference::cesu8_encode_from_utf16(&units);
            assert_eq!(units_len::<Cesu8>(&units), cesu.len());
            assert_eq!(str_len::<Cesu8>(text.as_bytes()), cesu.len());
        }
    }
}
