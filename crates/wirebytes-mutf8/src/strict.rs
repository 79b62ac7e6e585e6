//! The strict relatives of modified UTF-8: the JVM's class-file rule for `CONSTANT_Utf8` and
//! the JDK's "CESU-8" charset. Both take the shortest form of each char only (no overlong
//! forms), surrogates one 3-byte sequence each (a high and a low one make a char above
//! U+FFFF), and no 4-byte sequences; they differ only in how U+0000 is written.

use alloc::borrow::Cow;
use alloc::vec::Vec;

use crate::DecodeError;
use crate::arch::Kernels;
use crate::counters::{self, Path};
use crate::decode::plan;
use crate::out::Utf8Vec;
use crate::sequence::{bmp_char, is_surrogate, low_surrogate_at};
use crate::swar::{HIGH_BITS, word, zero_bytes};

/// The ASCII block.
const BLOCK: usize = 32;

/// How U+0000 is written, the one difference between the two formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Nul {
    /// As `C0 80` (the class-file rule): a raw `00` is an error.
    TwoBytes,
    /// As a raw `00` (CESU-8): `C0 80` is an error, as every overlong form.
    Raw,
}

/// The sequence at `i`, whose lead is not ASCII: its char (a surrogate on its own) and
/// length, or the error at `i`.
///
/// The checks come in the order of the JDK's CESU-8 decoder (the lead, then the length, then
/// the continuation bytes; with two bytes left of a 3-byte sequence, a bad second byte is
/// `Malformed`) or, for [`Nul::TwoBytes`], of HotSpot's class-file check (the length first).
#[inline(always)]
pub(crate) fn sequence(bytes: &[u8], i: usize, nul: Nul) -> Result<(u32, usize), DecodeError> {
    let c = bytes[i];
    let left = bytes.len() - i;
    let continuation = |k: usize| bytes[i + k] & 0xC0 == 0x80;
    match c {
        0xC0..=0xDF => {
            if nul == Nul::Raw && c < 0xC2 {
                return Err(DecodeError::rejected(bytes, i));
            }
            if left < 2 {
                return Err(DecodeError::truncated(i));
            }
            if !continuation(1) {
                return Err(DecodeError::rejected(bytes, i));
            }
            let v = (u32::from(c & 0x1F) << 6) | u32::from(bytes[i + 1] & 0x3F);
            // Below 0x80 only `C0 80`, and only where U+0000 is written so.
            if v < 0x80 && (v != 0 || nul == Nul::Raw) {
                return Err(DecodeError::rejected(bytes, i));
            }
            Ok((v, 2))
        }
        0xE0..=0xEF => {
            if left < 3 {
                let bad_second = left == 2
                    && nul == Nul::Raw
                    && (!continuation(1) || (c == 0xE0 && bytes[i + 1] < 0xA0));
                return Err(if bad_second {
                    DecodeError::rejected(bytes, i)
                } else {
                    DecodeError::truncated(i)
                });
            }
            if !continuation(1) || !continuation(2) {
                return Err(DecodeError::rejected(bytes, i));
            }
            let v = (u32::from(c & 0x0F) << 12)
                | (u32::from(bytes[i + 1] & 0x3F) << 6)
                | u32::from(bytes[i + 2] & 0x3F);
            if v < 0x800 {
                return Err(DecodeError::rejected(bytes, i));
            }
            Ok((v, 3))
        }
        _ => Err(DecodeError::rejected(bytes, i)),
    }
}

/// The first error in `bytes[from..]` (`from` at the start of a sequence), lone surrogates
/// accepted.
pub(crate) fn first_error(bytes: &[u8], mut from: usize, nul: Nul) -> Option<DecodeError> {
    while from < bytes.len() {
        let c = bytes[from];
        if c < 0x80 {
            if c == 0 && nul == Nul::TwoBytes {
                return Some(DecodeError::rejected(bytes, from));
            }
            from += 1;
            continue;
        }
        match sequence(bytes, from, nul) {
            Ok((_, len)) => from += len,
            Err(err) => return Some(err),
        }
    }
    None
}

/// Decodes `bytes` under `nul`'s rule into a `str`, borrowed when they already are it (UTF-8
/// without a 4-byte sequence, and for [`Nul::TwoBytes`] without a `00`).
pub(crate) fn decode(
    bytes: &[u8],
    nul: Nul,
    kernels: Kernels,
) -> Result<Cow<'_, str>, DecodeError> {
    let prefix = plan(bytes, kernels);
    // Where a raw `00` is an error, the first one ends what may be taken as it is.
    let nul_at = match nul {
        Nul::TwoBytes => bytes.iter().position(|&b| b == 0),
        Nul::Raw => None,
    };
    if let Some(at) = nul_at.filter(|&at| at < prefix.len()) {
        // UTF-8 up to it: the `00` is the first error.
        return Err(DecodeError::rejected(bytes, at));
    }
    if prefix.is_whole() {
        return Ok(Cow::Borrowed(prefix.as_str()));
    }
    let n = bytes.len();
    let blocks_end = nul_at.unwrap_or(n);
    let mut out = Utf8Vec::with_capacity(n + 1);
    out.push_str(prefix.as_str());
    let mut i = prefix.len();
    while i < n {
        // ASCII, 32 bytes at a time, up to the first `00` where that is an error.
        while i + BLOCK <= blocks_end {
            let block: &[u8; BLOCK] = bytes[i..i + BLOCK].try_into().expect("BLOCK bytes");
            let k = out.store_ascii(block);
            crate::counters::add(crate::counters::Path::RewriteAsciiBlocks, k);
            i += k;
            if k < BLOCK {
                break;
            }
        }
        while i < n {
            let c = bytes[i];
            if c < 0x80 {
                if c == 0 && nul == Nul::TwoBytes {
                    return Err(DecodeError::rejected(bytes, i));
                }
                if i + BLOCK <= blocks_end {
                    break;
                }
                // Short of a block: a word at a time while it holds ASCII (before any `00`
                // that is an error).
                if let Some(word) = bytes.get(i..i + 8).filter(|_| i + 8 <= blocks_end) {
                    i += out.store_ascii8(word.try_into().expect("8 bytes"));
                    continue;
                }
                out.push_char(char::from(c));
                i += 1;
                continue;
            }
            let (v, len) = sequence(bytes, i, nul)?;
            if !is_surrogate(v) {
                out.push_char(bmp_char(v));
                i += len;
            } else if let Some(low) = low_surrogate_at(bytes, i + 3).filter(|_| v < 0xDC00) {
                out.push_pair(v, low);
                i += 6;
            } else {
                // A str cannot hold it; but if the rest is rejected, say that instead.
                return Err(
                    first_error(bytes, i + 3, nul).unwrap_or(DecodeError::unpaired_surrogate(i))
                );
            }
        }
    }
    Ok(Cow::Owned(out.into_string()))
}

/// The first error of `bytes` under `nul`'s rule, lone surrogates accepted: bytes that are
/// UTF-8 without a 4-byte sequence are passed by [`plan`]'s one check (for
/// [`Nul::TwoBytes`], up to their first `00`), the rest one sequence at a time.
pub(crate) fn validate(bytes: &[u8], nul: Nul, kernels: Kernels) -> Result<(), DecodeError> {
    let prefix = plan(bytes, kernels);
    if nul == Nul::TwoBytes {
        if let Some(at) = bytes[..prefix.len()].iter().position(|&b| b == 0) {
            return Err(DecodeError::rejected(bytes, at));
        }
    }
    match first_error(bytes, prefix.len(), nul) {
        None => Ok(()),
        Some(err) => Err(err),
    }
}

/// Decodes `bytes` under `nul`'s rule into UTF-16 chars, lone surrogates included: eight
/// ASCII bytes at a time where a word holds them (and, for [`Nul::TwoBytes`], no `00`), the
/// rest one sequence at a time.
pub(crate) fn decode_to_utf16(bytes: &[u8], nul: Nul) -> Result<Vec<u16>, DecodeError> {
    let n = bytes.len();
    let mut out = Vec::with_capacity(n);
    let mut i = 0;
    while i < n {
        if i + 8 <= n {
            let w = word(bytes, i);
            let nul_bytes = if nul == Nul::TwoBytes {
                zero_bytes(w)
            } else {
                0
            };
            if (w & HIGH_BITS) | nul_bytes == 0 {
                out.extend(bytes[i..i + 8].iter().map(|&b| u16::from(b)));
                counters::add(Path::StrictAsciiWords, 8);
                i += 8;
                continue;
            }
        }
        let c = bytes[i];
        if c < 0x80 {
            if c == 0 && nul == Nul::TwoBytes {
                return Err(DecodeError::rejected(bytes, i));
            }
            out.push(u16::from(c));
            i += 1;
            continue;
        }
        let (v, len) = sequence(bytes, i, nul)?;
        out.push(v as u16);
        i += len;
    }
    Ok(out)
}
