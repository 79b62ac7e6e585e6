//! Decoding: borrow when the bytes already are the `str`, else one transcoding pass.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

use crate::DecodeError;
use crate::reference::lossy_skip;
use crate::scan::{Class, HIGH_BITS, ascii_end, classify, word};

/// U+FFFD in UTF-8.
const REPLACEMENT: [u8; 3] = [0xEF, 0xBF, 0xBD];

/// The sequence at `i`, whose lead is not ASCII: its char and length, or the JDK's error.
/// The JDK's order of checks: the lead, then the length, then the continuation bytes.
#[inline(always)]
fn sequence(bytes: &[u8], i: usize) -> Result<(u32, usize), DecodeError> {
    let c = bytes[i];
    if c & 0xE0 == 0xC0 {
        let Some(&c2) = bytes.get(i + 1) else {
            return Err(DecodeError::truncated(i));
        };
        if c2 & 0xC0 != 0x80 {
            return Err(DecodeError::bad_continuation(i));
        }
        Ok(((u32::from(c & 0x1F) << 6) | u32::from(c2 & 0x3F), 2))
    } else if c & 0xF0 == 0xE0 {
        if i + 3 > bytes.len() {
            return Err(DecodeError::truncated(i));
        }
        let (c2, c3) = (bytes[i + 1], bytes[i + 2]);
        if (c2 & 0xC0 != 0x80) | (c3 & 0xC0 != 0x80) {
            return Err(DecodeError::bad_continuation(i));
        }
        let v = (u32::from(c & 0x0F) << 12) | (u32::from(c2 & 0x3F) << 6) | u32::from(c3 & 0x3F);
        Ok((v, 3))
    } else {
        Err(DecodeError::bad_lead(i))
    }
}

/// The low surrogate encoded at `j` (`ED B0..BF 80..BF`), if there is one.
#[inline(always)]
fn low_surrogate_at(bytes: &[u8], j: usize) -> Option<u32> {
    match bytes.get(j..j + 3)? {
        &[0xED, c2, c3] if c2 & 0xF0 == 0xB0 && c3 & 0xC0 == 0x80 => {
            Some(0xD000 | (u32::from(c2 & 0x3F) << 6) | u32::from(c3 & 0x3F))
        }
        _ => None,
    }
}

/// The JDK's first error in `bytes[from..]`, `from` being the start of a sequence.
fn first_error(bytes: &[u8], mut from: usize) -> Option<DecodeError> {
    loop {
        from = ascii_end(bytes, from);
        if from == bytes.len() {
            return None;
        }
        match sequence(bytes, from) {
            Ok((_, len)) => from += len,
            Err(err) => return Some(err),
        }
    }
}

/// Appends `v < 0x800` as UTF-8.
#[inline(always)]
fn push_short(out: &mut Vec<u8>, v: u32) {
    if v < 0x80 {
        out.push(v as u8);
    } else {
        out.extend_from_slice(&[0xC0 | (v >> 6) as u8, 0x80 | (v & 0x3F) as u8]);
    }
}

/// `bytes` as a `str`.
///
/// # Safety
///
/// `bytes` is valid UTF-8.
unsafe fn utf8_str(bytes: &[u8]) -> &str {
    debug_assert!(core::str::from_utf8(bytes).is_ok());
    // SAFETY: the caller guarantees UTF-8.
    unsafe { core::str::from_utf8_unchecked(bytes) }
}

/// The transcoder's output as a `String`.
///
/// # Safety
///
/// `out` is valid UTF-8.
unsafe fn transcoded(out: Vec<u8>) -> String {
    debug_assert!(
        core::str::from_utf8(&out).is_ok(),
        "the transcoder wrote invalid UTF-8"
    );
    // SAFETY: the caller guarantees UTF-8.
    unsafe { String::from_utf8_unchecked(out) }
}

/// The one pass that rewrites modified UTF-8 as UTF-8, from `start` (the bytes before it
/// are copied as they are).
///
/// ASCII goes 32 bytes (four of the JDK's 8-byte words) at a time; sequences that already
/// are UTF-8 are copied as they are; `C0 80`, overlongs and surrogate pairs are rewritten
/// inline. It stops at the JDK's first error, or at the first lone surrogate when the JDK
/// accepts the rest.
///
/// Every byte it writes after `start` is valid UTF-8: ASCII bytes; `C2..DF` + a continuation
/// byte; a 3-byte sequence whose value is at least `0x800` and not a surrogate (so `E0` is
/// followed by `A0..BF` and `ED` by `80..9F`); or the UTF-8 form of a computed scalar value.
///
/// With `AVX512`, the blocks that qualify go through `rewrite_x86` instead, 64 bytes at a
/// time; the loop here takes the others (at least 64 bytes of them before trying again) and
/// the last bytes.
///
/// # Safety
///
/// `bytes[..start]` is valid UTF-8. (For a correct result it also holds no 4-byte
/// sequence, which the JDK rejects.) With `AVX512`, the CPU has what
/// `rewrite_x86::rewrite_avx512` needs.
unsafe fn to_utf8<const AVX512: bool>(bytes: &[u8], start: usize) -> Result<String, DecodeError> {
    let n = bytes.len();
    // Every rewrite keeps or shrinks the length: `o <= i` throughout, so the output fits in
    // `n` bytes, and a whole word can be stored at `o` whenever one is read at `i`.
    // Not zero-filled (that cost about 6% here): `buf[..o]` is written before `o` moves
    // past it, every byte, which is all that `set_len` below relies on.
    let mut out: Vec<u8> = Vec::with_capacity(n);
    let buf = &mut out.spare_capacity_mut()[..n];
    buf[..start].write_copy_of_slice(&bytes[..start]);
    let (mut i, mut o) = (start, start);
    // Where to try the AVX-512 blocks next.
    #[cfg(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64")))]
    let mut resume = start;
    while i < n {
        #[cfg(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64")))]
        if AVX512 && i >= resume {
            // SAFETY: the caller guarantees the CPU features; `i` starts a sequence (not the
            // low half of a pair: this loop takes pairs whole), `o <= i`, `buf` is `n` long.
            (i, o) = unsafe { crate::rewrite_x86::rewrite_avx512(bytes, i, buf, o) };
            resume = i + 64;
        }
        // ASCII, 32 bytes (four of the JDK's eight-byte words) at a time: each block is
        // stored whole, and the cursors move past its ASCII bytes.
        while let Some(block) = bytes.get(i..i + BLOCK) {
            let mut w = [0u8; BLOCK];
            w.copy_from_slice(block);
            buf[o..o + BLOCK].write_copy_of_slice(&w);
            let k = ascii_prefix(&w);
            i += k;
            o += k;
            if k < BLOCK {
                break;
            }
        }
        // Then one sequence at a time, up to the next ASCII byte that starts a word.
        while i < n {
            let c = bytes[i];
            if c < 0x80 {
                if i + BLOCK <= n {
                    break;
                }
                buf[o].write(c);
                i += 1;
                o += 1;
                continue;
            }
            #[cfg(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64")))]
            if AVX512 && i >= resume {
                break;
            }
            let (v, len) = sequence(bytes, i)?;
            if len == 2 {
                if v >= 0x80 {
                    buf[o..o + 2].write_copy_of_slice(&bytes[i..i + 2]);
                    o += 2;
                } else {
                    buf[o].write(v as u8);
                    o += 1;
                }
                i += 2;
            } else if v >= 0x800 && !(0xD800..0xE000).contains(&v) {
                buf[o..o + 3].write_copy_of_slice(&bytes[i..i + 3]);
                i += 3;
                o += 3;
            } else if v < 0x80 {
                buf[o].write(v as u8);
                i += 3;
                o += 1;
            } else if v < 0x800 {
                buf[o..o + 2]
                    .write_copy_of_slice(&[0xC0 | (v >> 6) as u8, 0x80 | (v & 0x3F) as u8]);
                i += 3;
                o += 2;
            } else if let Some(low) = low_surrogate_at(bytes, i + 3).filter(|_| v < 0xDC00) {
                buf[o..o + 4].write_copy_of_slice(&utf8_of_pair(v, low));
                i += 6;
                o += 4;
            } else {
                // A str cannot hold it; but if the JDK rejects the body, say that instead.
                return Err(first_error(bytes, i + 3).unwrap_or(DecodeError::unpaired_surrogate(i)));
            }
        }
    }
    // SAFETY: `o <= n <= capacity`, and the loop wrote `buf[..o]`, every byte (each cursor
    // move follows the write of the bytes it moves past).
    unsafe { out.set_len(o) };
    // SAFETY: every write after `start` is UTF-8 (see above), and `bytes[..start]` is by
    // the caller's guarantee.
    Ok(unsafe { transcoded(out) })
}

/// [`to_utf8`] with the AVX-512 blocks where the CPU has them.
///
/// # Safety
///
/// As [`to_utf8`]: `bytes[..start]` is valid UTF-8.
unsafe fn rewrite(bytes: &[u8], start: usize) -> Result<String, DecodeError> {
    #[cfg(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64")))]
    if crate::rewrite_x86::available() {
        // SAFETY: the caller's guarantee, and the CPU was just seen to have the features.
        return unsafe { to_utf8::<true>(bytes, start) };
    }
    // SAFETY: the caller's guarantee.
    unsafe { to_utf8::<false>(bytes, start) }
}

/// The ASCII block of [`to_utf8`] and [`decode_utf16`].
const BLOCK: usize = 32;

/// The char of a high and a low surrogate as 4 bytes of UTF-8.
#[inline(always)]
fn utf8_of_pair(high: u32, low: u32) -> [u8; 4] {
    let s = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
    [
        0xF0 | (s >> 18) as u8,
        0x80 | ((s >> 12) & 0x3F) as u8,
        0x80 | ((s >> 6) & 0x3F) as u8,
        0x80 | (s & 0x3F) as u8,
    ]
}

/// The lossy rewrite: as [`to_utf8`], but U+FFFD where [`crate::reference::decode_lossy`]
/// puts one, and on to the end. Only reached for bodies that [`decode`] rejects.
fn to_utf8_lossy(bytes: &[u8]) -> String {
    let n = bytes.len();
    let mut out = Vec::with_capacity(n + n / 2);
    let mut i = 0;
    while i < n {
        let end = ascii_end(bytes, i);
        out.extend_from_slice(&bytes[i..end]);
        i = end;
        while i < n && bytes[i] >= 0x80 {
            match sequence(bytes, i) {
                Ok((v, 2)) => {
                    push_short(&mut out, v);
                    i += 2;
                }
                Ok((v, _)) => {
                    if v < 0x800 {
                        push_short(&mut out, v);
                    } else if !(0xD800..0xE000).contains(&v) {
                        out.extend_from_slice(&bytes[i..i + 3]);
                    } else if let Some(low) = low_surrogate_at(bytes, i + 3).filter(|_| v < 0xDC00)
                    {
                        out.extend_from_slice(&utf8_of_pair(v, low));
                        i += 3;
                    } else {
                        out.extend_from_slice(&REPLACEMENT);
                    }
                    i += 3;
                }
                Err(_) => {
                    out.extend_from_slice(&REPLACEMENT);
                    i += lossy_skip(bytes, i);
                }
            }
        }
    }
    // SAFETY: as in `to_utf8`, and U+FFFD is UTF-8.
    unsafe { transcoded(out) }
}

/// Decodes a modified UTF-8 body (what `DataInput.readUTF` reads after the length) into a
/// `str`, exactly as the JDK would, borrowing the input when it already is that `str`.
///
/// The result is borrowed when the bytes are valid UTF-8 without a 4-byte sequence (plain
/// text, raw `00` included): then modified UTF-8 and UTF-8 read the same. Otherwise (`C0 80`,
/// overlong forms, surrogate pairs) it is rewritten in one pass into a `String` of at most
/// `bytes.len()` bytes.
///
/// # Errors
///
/// Where the JDK throws, the same error ([`DecodeErrorKind::Malformed`] at the JDK's position,
/// or [`DecodeErrorKind::Truncated`]); where the JDK returns a lone surrogate, which a `str`
/// cannot hold, [`DecodeErrorKind::UnpairedSurrogate`] at the first one. See [`DecodeError`]
/// for the positions.
///
/// [`DecodeErrorKind::Malformed`]: crate::DecodeErrorKind::Malformed
/// [`DecodeErrorKind::Truncated`]: crate::DecodeErrorKind::Truncated
/// [`DecodeErrorKind::UnpairedSurrogate`]: crate::DecodeErrorKind::UnpairedSurrogate
///
/// # Examples
///
/// ```
/// use std::borrow::Cow;
/// use wirebytes_mutf8::decode;
///
/// assert!(matches!(decode("plain ütf-8".as_bytes()), Ok(Cow::Borrowed("plain ütf-8"))));
/// assert_eq!(decode(b"nul \xc0\x80, raw \x00").unwrap(), "nul \0, raw \0");
/// assert_eq!(decode(b"\xed\xa0\xbd\xed\xb8\x80").unwrap(), "\u{1F600}");
/// assert_eq!(decode(b"\xc1\x81").unwrap(), "A"); // an overlong form: the JDK accepts it
/// assert!(decode("\u{1F600}".as_bytes()).is_err()); // 4-byte UTF-8: the JDK does not
/// ```
#[inline]
pub fn decode(bytes: &[u8]) -> Result<Cow<'_, str>, DecodeError> {
    // Short ASCII (field names, keys, identifiers) in two loads, before any machinery.
    if (8..=16).contains(&bytes.len())
        && (word(bytes, 0) | word(bytes, bytes.len() - 8)) & HIGH_BITS == 0
    {
        // SAFETY: the two words cover every byte, and none has its high bit set.
        return Ok(Cow::Borrowed(unsafe { utf8_str(bytes) }));
    }
    decode_any(bytes)
}

/// What a body needs: nothing (it is ASCII, or UTF-8 without a 4-byte sequence, so it
/// already is its text), or the rewrite from an index on (the bytes before it are UTF-8
/// without a 4-byte sequence).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Plan {
    Ascii,
    Utf8,
    RewriteFrom(usize),
}

/// Decides the [`Plan`]: in one AVX2 pass where the CPU has it (see `utf8_x86`), else with
/// [`plan_portable`].
fn plan(bytes: &[u8]) -> Plan {
    #[cfg(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64")))]
    if crate::utf8_x86::available() {
        // SAFETY: the CPU was just seen to have AVX2, all `check` needs.
        return match unsafe { crate::utf8_x86::check(bytes) } {
            Ok(()) => Plan::Utf8,
            // The bytes before `start` are UTF-8 without a 4-byte sequence.
            Err(start) => Plan::RewriteFrom(start),
        };
    }
    plan_portable(bytes)
}

/// Decides the [`Plan`] without AVX2: the ASCII prefix a chunk at a time (so that a body that
/// needs the rewrite is not scanned to its end first), then `simdutf8` on the rest, which
/// stops at the first sequence that is not UTF-8, and a scan for 4-byte sequences over what
/// it accepted.
fn plan_portable(bytes: &[u8]) -> Plan {
    const CHUNK: usize = 4096;
    let mut at = 0;
    while at < bytes.len() {
        let end = (at + CHUNK).min(bytes.len());
        if classify(&bytes[at..end]) != Class::Ascii {
            break;
        }
        at = end;
    }
    if at == bytes.len() {
        return Plan::Ascii;
    }
    let rest = &bytes[at..];
    let valid = match simdutf8::compat::from_utf8(rest) {
        Ok(_) => rest.len(),
        Err(err) => err.valid_up_to(),
    };
    if classify(&rest[..valid]) == Class::FourByte {
        // The JDK rejects the first of them: rewrite (and fail) from the ASCII prefix on.
        Plan::RewriteFrom(at)
    } else if valid == rest.len() {
        Plan::Utf8
    } else {
        Plan::RewriteFrom(at + valid)
    }
}

/// [`decode`] past its check for short ASCII.
fn decode_any(bytes: &[u8]) -> Result<Cow<'_, str>, DecodeError> {
    // SAFETY: the plan is `plan`'s for these bytes.
    unsafe { decode_planned(bytes, plan(bytes), true) }
}

/// [`decode`] as `plan` says, rewriting with the AVX-512 blocks (where the CPU has them) if
/// `blocks`, else with the scalar loop only.
///
/// # Safety
///
/// `plan` is what [`plan`] or [`plan_portable`] decided for `bytes`.
unsafe fn decode_planned(
    bytes: &[u8],
    plan: Plan,
    blocks: bool,
) -> Result<Cow<'_, str>, DecodeError> {
    match plan {
        // SAFETY: the plan found the bytes to be ASCII, or UTF-8 without a 4-byte sequence.
        Plan::Ascii | Plan::Utf8 => Ok(Cow::Borrowed(unsafe { utf8_str(bytes) })),
        // SAFETY: the plan found `bytes[..start]` to be UTF-8 without a 4-byte sequence.
        Plan::RewriteFrom(start) if blocks => unsafe { rewrite(bytes, start) }.map(Cow::Owned),
        // SAFETY: as above.
        Plan::RewriteFrom(start) => unsafe { to_utf8::<false>(bytes, start) }.map(Cow::Owned),
    }
}

/// [`decode`] into a `String` that reuses `bytes`' buffer when they already are the text:
/// for readers that own the body.
#[cfg(any(feature = "std", feature = "bytes"))]
pub(crate) fn decode_vec(bytes: Vec<u8>) -> Result<String, DecodeError> {
    match plan(&bytes) {
        // SAFETY: as in `decode_any`.
        Plan::Ascii | Plan::Utf8 => Ok(unsafe { transcoded(bytes) }),
        // SAFETY: as in `decode_any`.
        Plan::RewriteFrom(start) => unsafe { rewrite(&bytes, start) },
    }
}

/// Decodes like [`decode`], but never fails: U+FFFD stands for what `decode` rejects.
///
/// One U+FFFD replaces each lone surrogate, each byte that cannot start a sequence, and each
/// sequence with a bad or missing continuation byte together with the continuation bytes
/// that do follow its lead (the Unicode standard's "maximal subpart" practice). A 4-byte
/// UTF-8 sequence, which the JDK rejects, becomes one U+FFFD per byte. Decoding goes on after
/// each, where the JDK would have stopped.
///
/// # Examples
///
/// ```
/// use wirebytes_mutf8::decode_lossy;
///
/// assert_eq!(decode_lossy(b"ok \xc0\x80"), "ok \0");
/// assert_eq!(decode_lossy(b"lone \xed\xa0\x80, bad \xff, cut \xe2\x82"), "lone \u{FFFD}, bad \u{FFFD}, cut \u{FFFD}");
/// ```
#[must_use]
pub fn decode_lossy(bytes: &[u8]) -> Cow<'_, str> {
    match decode(bytes) {
        Ok(text) => text,
        Err(_) => Cow::Owned(to_utf8_lossy(bytes)),
    }
}

/// Decodes a modified UTF-8 body into the UTF-16 chars the JDK's `readUTF` returns, lone
/// surrogates included.
///
/// ASCII runs are widened 32 bytes at a time. From the first other sequence on, with
/// AVX-512 (VBMI2) or AVX2 (detected at run time under `std`), text goes 32 bytes at a time
/// to the end or to an error (with AVX-512, first a decoder made for ASCII and 2-byte
/// sequences only, then one for any sequences the JDK accepts). With SSSE3 only, text of ASCII
/// and 2-byte sequences goes 16 bytes at a time. Other sequences, the last bytes and errors go
/// one sequence at a time (four 2-byte sequences at once when a word holds them).
///
/// # Errors
///
/// Where the JDK throws: [`DecodeErrorKind::Malformed`](crate::DecodeErrorKind::Malformed) at
/// the JDK's position, or [`Truncated`](crate::DecodeErrorKind::Truncated). Never
/// `UnpairedSurrogate`.
///
/// # Examples
///
/// ```
/// use wirebytes_mutf8::decode_utf16;
///
/// assert_eq!(decode_utf16(b"a\xc0\x80\xed\xb0\x80"), Ok(vec![0x61, 0x0000, 0xdc00]));
/// assert_eq!(decode_utf16(b"ab\xe2\x41\x82").unwrap_err().jdk_position(), Some(4));
/// ```
pub fn decode_utf16(bytes: &[u8]) -> Result<Vec<u16>, DecodeError> {
    decode_utf16_with(
        bytes,
        #[cfg(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64")))]
        Blocks::detect(),
    )
}

/// [`decode_utf16`] with the given block decoders (the CPU must have what they need).
fn decode_utf16_with(
    bytes: &[u8],
    #[cfg(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64")))] blocks: Blocks,
) -> Result<Vec<u16>, DecodeError> {
    let n = bytes.len();
    // One char per byte at most: `o <= i` throughout, so a block of chars can be stored at
    // `o` whenever a block of bytes as long is read at `i`.
    // Not zero-filled (that cost 0.5-0.9 µs of 4.5-10 here): `buf[..o]` is written before
    // `o` moves past it, every char (by the block decoders too), which is all that `set_len`
    // below relies on.
    let mut out: Vec<u16> = Vec::with_capacity(n);
    let buf = &mut out.spare_capacity_mut()[..n];
    let (mut i, mut o) = (0, 0);
    while i < n {
        // ASCII, 32 bytes at a time: each block is widened and stored whole, and the cursors
        // move past its ASCII bytes.
        while let Some(block) = bytes.get(i..i + BLOCK) {
            let block: &[u8; BLOCK] = block.try_into().expect("BLOCK bytes");
            for (d, &b) in buf[o..o + BLOCK].iter_mut().zip(block) {
                d.write(u16::from(b));
            }
            let k = ascii_prefix(block);
            i += k;
            o += k;
            if k < BLOCK {
                break;
            }
        }
        // Then other sequences, and lone ASCII bytes between them (the spaces between words
        // of a 2-byte script), up to the next ASCII pair that starts a block.
        while i < n {
            let c = bytes[i];
            if c < 0x80 {
                if i + BLOCK <= n && bytes[i + 1] < 0x80 {
                    break;
                }
                buf[o].write(u16::from(c));
                i += 1;
                o += 1;
                continue;
            }
            #[cfg(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64")))]
            match blocks {
                Blocks::Avx512 if c >= 0xC0 => {
                    // 2-byte text with the kernel made for it, then any text of 1-, 2- and
                    // 3-byte sequences to the end (or to the JDK's first error).
                    let (i2, o2) = if c < 0xE0 {
                        // SAFETY: the CPU was seen to have what `decode_pairs_avx512` needs;
                        // `i` starts a sequence, `o <= i` and `out` is `n` chars long.
                        unsafe { crate::pairs_x86::decode_pairs_avx512(bytes, i, buf, o) }
                    } else {
                        (i, o)
                    };
                    // SAFETY: as above; `i2` starts a sequence and `o2 <= i2`.
                    let (i2, o2) =
                        unsafe { crate::pairs_x86::decode_blocks_avx512(bytes, i2, buf, o2) };
                    if i2 != i {
                        (i, o) = (i2, o2);
                        continue;
                    }
                }
                Blocks::Avx2 if c >= 0xC0 => {
                    // SAFETY: the CPU was seen to have what `decode_blocks_avx2` needs; `i`
                    // starts a sequence, `o <= i` and `out` is `n` chars long.
                    let (i2, o2) =
                        unsafe { crate::pairs_x86::decode_blocks_avx2(bytes, i, buf, o) };
                    if i2 != i {
                        (i, o) = (i2, o2);
                        continue;
                    }
                }
                Blocks::Ssse3 if c & 0xE0 == 0xC0 => {
                    // SAFETY: the CPU was seen to have what `decode_blocks` needs; `i` starts
                    // a sequence, `o <= i` and `out` is `n` chars long, as it requires.
                    let (i2, o2) = unsafe { crate::pairs_x86::decode_blocks(bytes, i, buf, o) };
                    if i2 != i {
                        (i, o) = (i2, o2);
                        continue;
                    }
                }
                _ => {}
            }
            if i + 8 <= n {
                let w = word(bytes, i);
                if w & TWO_BYTE_MASK == TWO_BYTE_PAIRS {
                    // Four 2-byte sequences (Cyrillic, Greek, accented Latin...) at once, in
                    // the 16-bit lanes of the word.
                    let units =
                        ((w & 0x001F_001F_001F_001F) << 6) | ((w >> 8) & 0x003F_003F_003F_003F);
                    for (k, unit) in buf[o..o + 4].iter_mut().enumerate() {
                        unit.write((units >> (16 * k)) as u16);
                    }
                    i += 8;
                    o += 4;
                    continue;
                }
            }
            let (v, len) = sequence(bytes, i)?;
            buf[o].write(v as u16);
            i += len;
            o += 1;
        }
    }
    // SAFETY: `o <= n <= capacity`, and `buf[..o]` is written, every char (see above).
    unsafe { out.set_len(o) };
    Ok(out)
}

/// [`decode_utf16`] with each set of block decoders this CPU has, named (`"scalar"` first,
/// then `"ssse3"`, `"avx2"`, `"avx512"` as available): for the sweep, which compares them all
/// with the reference while the public function takes only the fastest.
#[doc(hidden)]
#[must_use]
pub fn decode_utf16_each_way(bytes: &[u8]) -> Vec<(&'static str, Result<Vec<u16>, DecodeError>)> {
    #[cfg(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64")))]
    {
        let mut ways = Vec::from([("scalar", decode_utf16_with(bytes, Blocks::None))]);
        if crate::pairs_x86::available() {
            ways.push(("ssse3", decode_utf16_with(bytes, Blocks::Ssse3)));
        }
        if crate::pairs_x86::avx2_available() {
            ways.push(("avx2", decode_utf16_with(bytes, Blocks::Avx2)));
        }
        if crate::pairs_x86::avx512_available() {
            ways.push(("avx512", decode_utf16_with(bytes, Blocks::Avx512)));
        }
        ways
    }
    #[cfg(not(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64"))))]
    Vec::from([("scalar", decode_utf16_with(bytes))])
}

/// [`decode`] past its check for short ASCII with each way of deciding and rewriting this CPU
/// has, named (`"portable"`, then `"avx2"` for the AVX2 check, then `"avx512"` for the
/// AVX2 check and the AVX-512 rewrite, as available): for the sweep, as
/// [`decode_utf16_each_way`].
#[doc(hidden)]
#[must_use]
pub fn decode_each_way(bytes: &[u8]) -> Vec<(&'static str, Result<Cow<'_, str>, DecodeError>)> {
    // SAFETY: the plan is `plan_portable`'s for these bytes.
    let portable = ("portable", unsafe {
        decode_planned(bytes, plan_portable(bytes), false)
    });
    #[cfg(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64")))]
    if crate::utf8_x86::available() {
        let mut ways = Vec::from([portable]);
        // SAFETY: `plan` takes the AVX2 check on this CPU; the plan is its for these bytes.
        ways.push(("avx2", unsafe { decode_planned(bytes, plan(bytes), false) }));
        if crate::rewrite_x86::available() {
            // SAFETY: as above.
            ways.push(("avx512", unsafe {
                decode_planned(bytes, plan(bytes), true)
            }));
        }
        return ways;
    }
    Vec::from([portable])
}

/// Which block decoders [`decode_utf16`] calls, by what the CPU has.
#[cfg(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64")))]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Blocks {
    None,
    Ssse3,
    Avx2,
    Avx512,
}

#[cfg(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64")))]
impl Blocks {
    /// The fastest this CPU runs.
    #[inline]
    fn detect() -> Self {
        if crate::pairs_x86::avx512_available() {
            Blocks::Avx512
        } else if crate::pairs_x86::avx2_available() {
            Blocks::Avx2
        } else if crate::pairs_x86::available() {
            Blocks::Ssse3
        } else {
            Blocks::None
        }
    }
}

/// How many of the 32 bytes of `block` are ASCII before the first that is not.
#[inline(always)]
fn ascii_prefix(block: &[u8; BLOCK]) -> usize {
    let (lo, hi) = block.split_at(16);
    let mask = u128::from(HIGH_BITS) * 0x1_0000_0000_0000_0001;
    let lo = u128::from_le_bytes(lo.try_into().expect("16 bytes")) & mask;
    let hi = u128::from_le_bytes(hi.try_into().expect("16 bytes")) & mask;
    if lo != 0 {
        (lo.trailing_zeros() / 8) as usize
    } else if hi != 0 {
        16 + (hi.trailing_zeros() / 8) as usize
    } else {
        BLOCK
    }
}

/// In each 16-bit lane of a word: a lead `110xxxxx` then a continuation byte `10xxxxxx`.
const TWO_BYTE_MASK: u64 = 0xC0E0_C0E0_C0E0_C0E0;
const TWO_BYTE_PAIRS: u64 = 0x80C0_80C0_80C0_80C0;

#[cfg(test)]
mod tests {
    use alloc::vec::Vec;

    use super::*;
    use crate::reference;

    /// Bodies of every kind: text of each width, the JDK's odd forms, 4-byte sequences and
    /// bad bytes, long enough for every block size.
    fn bodies() -> Vec<Vec<u8>> {
        const PIECES: &[&[u8]] = &[
            b"a",
            b"0123456789abcdefghijklmnopqrstuvwxyz0123456789",
            b"\xd0\xb6",
            b"\xe4\xb8\xad",
            b"\xef\xbf\xbf",
            b"\xc0\x80",
            b"\xc1\x81",
            b"\xe0\x80\x80",
            b"\xed\xa0\xbd\xed\xb8\x80",
            b"\xed\xb0\x80",
            b"\xf0\x9f\x98\x80",
            b"\x80",
            b"\xff",
            b"\xe2\x82",
        ];
        let mut next = crate::test_rng::below(0x853C_49E6_748F_EA9B_u64);
        (0..6000)
            .map(|round| {
                // Mostly good text: the first five pieces; now and then anything.
                let kinds = if round % 4 == 0 { PIECES.len() } else { 5 } as u64;
                let mut bytes = Vec::new();
                for _ in 0..next(160) {
                    bytes.extend_from_slice(PIECES[next(kinds) as usize]);
                }
                bytes
            })
            .collect()
    }

    #[test]
    fn both_plans_decode_as_the_reference_and_borrow_alike() {
        for bytes in bodies() {
            let want = reference::decode(&bytes);
            let plain =
                core::str::from_utf8(&bytes).is_ok_and(|s| s.chars().all(|c| c.len_utf8() < 4));
            for (name, plan) in [("plan", plan(&bytes)), ("portable", plan_portable(&bytes))] {
                // SAFETY: the plans are `plan`'s and `plan_portable`'s for these bytes.
                let got = unsafe { decode_planned(&bytes, plan, true) };
                assert_eq!(got.as_deref(), want.as_deref(), "{name} {bytes:02x?}");
                assert_eq!(
                    matches!(got, Ok(Cow::Borrowed(_))),
                    plain,
                    "{name} {bytes:02x?}"
                );
            }
        }
    }

    /// The rewrite with and without the AVX-512 blocks, against the reference, on bodies made
    /// for the blocks: ASCII runs of any length, `C0 80` and the other overlong 2-byte forms,
    /// text of each width, pairs of each plane, and now and then one thing the blocks leave
    /// to the scalar loop (a 3-byte overlong, a lone or reversed surrogate, a stray
    /// continuation byte, a 4-byte sequence, a bad lead, a cut sequence); each body also
    /// behind 0..64 ASCII bytes, so that every piece falls at every place in a block.
    #[test]
    fn the_rewrite_blocks_decode_as_the_reference() {
        const GOOD: &[&[u8]] = &[
            b"\xc0\x80",
            b"\xc0\x80",
            b"\xc1\x81",
            b"\xc0\xbf",
            b"\xd0\xb6",
            b"\xc2\x80",
            b"\xe4\xb8\xad",
            b"\xe0\xa0\x80",
            b"\xed\x9f\xbf",
            b"\xef\xbf\xbf",
            b"\xed\xa0\xbd\xed\xb8\x80",
            b"\xed\xa0\x80\xed\xb0\x80",
            b"\xed\xaf\xbf\xed\xbf\xbf",
            b"\xed\xa7\x9a\xed\xb3\xa5",
        ];
        const BAD: &[&[u8]] = &[
            b"\xe0\x80\x80",
            b"\xe0\x9f\xbf",
            b"\xed\xa0\x80",
            b"\xed\xb0\x80",
            b"\xed\xb0\x80\xed\xa0\x80",
            b"\x80",
            b"\xbf",
            b"\xf0\x9f\x98\x80",
            b"\xff",
            b"\xe2\x82",
            b"\xc3",
            b"\xed\xa0\xbd\xed\xb8",
        ];
        let mut next = crate::test_rng::below(0x2545_F491_4F6C_DD1D_u64);
        let ascii = b"The quick brown fox jumps over the lazy dog, 0123456789 times!! ";
        for round in 0..3000 {
            let mut body = Vec::new();
            let bad_at = if round % 3 == 0 { next(40) } else { u64::MAX };
            for piece in 0..next(40) {
                let run = next(if round % 2 == 0 { 70 } else { 8 }) as usize;
                body.extend_from_slice(&ascii[..run.min(ascii.len())]);
                if piece == bad_at {
                    body.extend_from_slice(BAD[next(BAD.len() as u64) as usize]);
                } else {
                    body.extend_from_slice(GOOD[next(GOOD.len() as u64) as usize]);
                }
            }
            body.extend_from_slice(&ascii[..next(64) as usize]);
            for lead in [0, 1, 2, 3, 5, 7, 13, 31, 32, 33, 58, 59, 62, 63, 64] {
                let mut bytes = ascii[..lead].to_vec();
                bytes.extend_from_slice(&body);
                let want = reference::decode(&bytes);
                let start = match plan(&bytes) {
                    Plan::RewriteFrom(start) => start,
                    _ => continue,
                };
                // SAFETY: `plan` found `bytes[..start]` to be UTF-8.
                let (scalar, blocks) =
                    unsafe { (to_utf8::<false>(&bytes, start), rewrite(&bytes, start)) };
                assert_eq!(scalar.as_deref(), want.as_deref(), "scalar {bytes:02x?}");
                assert_eq!(blocks.as_deref(), want.as_deref(), "blocks {bytes:02x?}");
            }
        }
    }

    #[cfg(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64")))]
    #[test]
    fn every_block_decoder_the_cpu_has_decodes_as_the_reference() {
        let mut choices = Vec::from([Blocks::None]);
        if crate::pairs_x86::available() {
            choices.push(Blocks::Ssse3);
        }
        if crate::pairs_x86::avx2_available() {
            choices.push(Blocks::Avx2);
        }
        if crate::pairs_x86::avx512_available() {
            choices.push(Blocks::Avx512);
        }
        for bytes in bodies() {
            let want = reference::decode_utf16(&bytes);
            for &blocks in &choices {
                assert_eq!(
                    decode_utf16_with(&bytes, blocks),
                    want,
                    "{blocks:?} {bytes:02x?}"
                );
            }
        }
    }
}
