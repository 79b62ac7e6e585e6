//! The JDK's rules for one sequence of modified UTF-8: what it decodes to, where it fails, how
//! far a U+FFFD reaches; used by the fast paths and by [`crate::reference`].

use crate::DecodeError;

/// The sequence at `i`, whose lead is not ASCII: its char and length, or the JDK's error.
/// The JDK's order of checks: the lead, then the length, then the continuation bytes.
#[inline(always)]
pub(crate) fn sequence(bytes: &[u8], i: usize) -> Result<(u32, usize), DecodeError> {
    let c = bytes[i];
    if c & 0xE0 == 0xC0 {
        let Some(&c2) = bytes.get(i + 1) else {
            return Err(DecodeError::truncated(i));
        };
        if c2 & 0xC0 != 0x80 {
            return Err(DecodeError::bad_continuation(bytes, i));
        }
        Ok(((u32::from(c & 0x1F) << 6) | u32::from(c2 & 0x3F), 2))
    } else if c & 0xF0 == 0xE0 {
        if i + 3 > bytes.len() {
            return Err(DecodeError::truncated(i));
        }
        let (c2, c3) = (bytes[i + 1], bytes[i + 2]);
        if (c2 & 0xC0 != 0x80) | (c3 & 0xC0 != 0x80) {
            return Err(DecodeError::bad_continuation(bytes, i));
        }
        let v = (u32::from(c & 0x0F) << 12) | (u32::from(c2 & 0x3F) << 6) | u32::from(c3 & 0x3F);
        Ok((v, 3))
    } else {
        Err(DecodeError::bad_lead(i))
    }
}

/// The low surrogate encoded at `j` (`ED B0..BF 80..BF`), if there is one.
#[inline(always)]
pub(crate) fn low_surrogate_at(bytes: &[u8], j: usize) -> Option<u32> {
    match bytes.get(j..j + 3)? {
        &[0xED, c2, c3] if c2 & 0xF0 == 0xB0 && c3 & 0xC0 == 0x80 => {
            Some(0xD000 | (u32::from(c2 & 0x3F) << 6) | u32::from(c3 & 0x3F))
        }
        _ => None,
    }
}

/// The char of a value below U+10000 that is not a surrogate (U+FFFD for any other value:
/// where the caller has tested the value, the compiler drops the test here).
#[inline(always)]
pub(crate) fn bmp_char(v: u32) -> char {
    char::from_u32(v).unwrap_or(char::REPLACEMENT_CHARACTER)
}

/// Whether `v` is a surrogate (U+D800..U+DFFF). (Written as `char::from_u32` tests it, so
/// that where a char is made of `v` after this test, the compiler drops the second one.)
#[inline(always)]
pub(crate) fn is_surrogate(v: u32) -> bool {
    (v ^ 0xD800) < 0x800
}

/// The JDK's first error in `bytes[from..]`, `from` being the start of a sequence.
pub(crate) fn first_error(bytes: &[u8], mut from: usize) -> Option<DecodeError> {
    loop {
        from = crate::scan::ascii_end(bytes, from);
        if from == bytes.len() {
            return None;
        }
        match sequence(bytes, from) {
            Ok((_, len)) => from += len,
            Err(err) => return Some(err),
        }
    }
}

/// The length of the offending sequence at `i` (the `error_len` of a `Malformed` error, and
/// how many bytes one U+FFFD replaces in the lossy decoders): the lead and the continuation
/// bytes that follow it, up to the length the lead announces (the "maximal subpart"
/// practice of the Unicode standard, chapter 3); 1 for a byte that announces no sequence.
pub(crate) fn subpart_len(bytes: &[u8], i: usize) -> u8 {
    let len = match bytes[i] >> 4 {
        12 | 13 => 2,
        14 => 3,
        _ => return 1,
    };
    let mut skip = 1;
    while skip < len
        && bytes
            .get(i + usize::from(skip))
            .is_some_and(|&b| b & 0xC0 == 0x80)
    {
        skip += 1;
    }
    skip
}
