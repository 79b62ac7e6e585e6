//! The rewrite of modified UTF-8 as UTF-8, for the bodies that [`crate::decode()`] cannot
//! borrow: the strict one (to the JDK's first error) and the lossy one (U+FFFD and on).

use alloc::string::String;

use crate::DecodeError;
use crate::arch::Kernels;
use crate::counters::{self, Path};
use crate::out::{Utf8Prefix, Utf8Vec};
use crate::sequence::{
    bmp_char, first_error, is_surrogate, low_surrogate_at, sequence, subpart_len,
};

/// The ASCII block of the rewrites.
const BLOCK: usize = 32;

/// The one pass that rewrites modified UTF-8 as UTF-8, from where `prefix`'s proven bytes end
/// (those are copied as they are).
///
/// ASCII goes 32 bytes (four of the JDK's 8-byte words) at a time; `C0 80`, overlongs and
/// surrogate pairs are rewritten inline, other sequences kept. It stops at the JDK's first
/// error, or at the first lone surrogate when the JDK accepts the rest. (For the JDK's
/// result, the proven bytes also hold no 4-byte sequence, which the JDK rejects.)
///
/// Where `kernels` holds the AVX-512 rewrite, the blocks that qualify go through it, 64 bytes
/// at a time; the loop here takes the others (at least 64 bytes of them before trying again)
/// and the last bytes.
pub(crate) fn to_utf8(prefix: Utf8Prefix<'_>, kernels: Kernels) -> Result<String, DecodeError> {
    // Every rewrite keeps or shrinks the length: the output fits in `n` bytes (and one more,
    // for a 3-byte char's 4-byte store at the end).
    let mut out = Utf8Vec::with_capacity(prefix.bytes().len() + 1);
    rewrite_into(prefix, kernels, &mut out)?;
    Ok(out.into_string())
}

/// [`to_utf8`], appending to `out` (which should have room for the body's length and one
/// more byte, so that it never grows); on error, `out` holds part of the text.
pub(crate) fn rewrite_into(
    prefix: Utf8Prefix<'_>,
    kernels: Kernels,
    out: &mut Utf8Vec,
) -> Result<(), DecodeError> {
    let bytes = prefix.bytes();
    let n = bytes.len();
    out.push_str(prefix.as_str());
    let mut i = prefix.len();
    // Where the loop below hands back to the AVX-512 blocks (or ends): `n` without them.
    let mut stop = i;
    loop {
        if i >= stop {
            if i >= n {
                break;
            }
            stop = match kernels.rewrite_utf8(bytes, i, out) {
                Some(next) => {
                    i = next;
                    n.min(i + 64)
                }
                None => n,
            };
        }
        // ASCII, 32 bytes (four of the JDK's eight-byte words) at a time: each block is
        // stored whole, and the cursor moves past its ASCII bytes.
        while let Some(block) = bytes.get(i..i + BLOCK) {
            let k = out.store_ascii(block.try_into().expect("BLOCK bytes"));
            counters::add(Path::RewriteAsciiBlocks, k);
            i += k;
            if k < BLOCK {
                break;
            }
        }
        // Then one sequence at a time, up to the next ASCII byte that starts a word (or to
        // where the blocks take over again).
        let before_stop = &bytes[..stop];
        while let Some(&c) = before_stop.get(i) {
            if c < 0x80 {
                if i + BLOCK <= n {
                    break;
                }
                // Short of a block: a word at a time while it holds ASCII.
                if let Some(word) = bytes.get(i..i + 8) {
                    i += out.store_ascii8(word.try_into().expect("8 bytes"));
                    continue;
                }
                out.push_char(char::from(c));
                i += 1;
                continue;
            }
            let (v, len) = sequence(bytes, i)?;
            if len == 2 {
                if v >= 0x80 {
                    out.push_seq2([c, bytes[i + 1]]);
                } else {
                    // `C0 80` and the other overlong 2-byte forms: ASCII.
                    out.push_char(bmp_char(v));
                }
                i += 2;
            } else if v >= 0x800 && !is_surrogate(v) {
                out.push_char(bmp_char(v));
                i += 3;
            } else if v < 0x800 {
                // An overlong 3-byte form.
                out.push_char(bmp_char(v));
                i += 3;
            } else if let Some(low) = low_surrogate_at(bytes, i + 3).filter(|_| v < 0xDC00) {
                out.push_pair(v, low);
                i += 6;
            } else {
                // A str cannot hold it; but if the JDK rejects the body, say that instead.
                return Err(first_error(bytes, i + 3).unwrap_or(DecodeError::unpaired_surrogate(i)));
            }
        }
    }
    Ok(())
}

/// The lossy rewrite: as [`to_utf8`], but U+FFFD where [`crate::reference::decode_lossy`]
/// puts one, and on to the end. Only reached for bodies that [`crate::decode()`] rejects.
pub(crate) fn to_utf8_lossy(bytes: &[u8]) -> String {
    let n = bytes.len();
    // Room for most bodies; a U+FFFD may take 3 bytes where it replaces 1, and then the
    // writer grows.
    let mut out = Utf8Vec::with_capacity(n + n / 2);
    let mut i = 0;
    while i < n {
        while let Some(block) = bytes.get(i..i + BLOCK) {
            let k = out.store_ascii(block.try_into().expect("BLOCK bytes"));
            counters::add(Path::RewriteAsciiBlocks, k);
            i += k;
            if k < BLOCK {
                break;
            }
        }
        while i < n && bytes[i] < 0x80 {
            out.push_char(char::from(bytes[i]));
            i += 1;
        }
        while i < n && bytes[i] >= 0x80 {
            match sequence(bytes, i) {
                Ok((v, 2)) => {
                    out.push_char(bmp_char(v));
                    i += 2;
                }
                Ok((v, _)) => {
                    if !is_surrogate(v) {
                        out.push_char(bmp_char(v));
                    } else if let Some(low) = low_surrogate_at(bytes, i + 3).filter(|_| v < 0xDC00)
                    {
                        out.push_pair(v, low);
                        i += 3;
                    } else {
                        out.push_char(char::REPLACEMENT_CHARACTER);
                    }
                    i += 3;
                }
                Err(_) => {
                    out.push_char(char::REPLACEMENT_CHARACTER);
                    i += usize::from(subpart_len(bytes, i));
                }
            }
        }
    }
    out.into_string()
}
