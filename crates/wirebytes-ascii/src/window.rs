//! Mixed text in windows of 32 bytes, the portable path's way through text that changes
//! script or char length every few chars (Latin-1 prose, Cyrillic words between spaces):
//! every byte's output value and whether it is output are computed for the whole window in
//! loops the compiler vectorises, then the bytes that are output are packed with one store and
//! one add per byte, no branch.
//!
//! The low byte of a UTF-16 unit comes from the last two bytes of its UTF-8 sequence: an
//! ASCII byte is its own; a continuation byte `c` that ends a char, after a byte `p`, gives
//! `(p & 0x03) << 6 | (c & 0x3F)`; the third byte of a 4-byte char gives its high surrogate's
//! byte (see `crate::swar::high_surrogate_low_byte`). So a byte is output when the byte
//! after it is not a continuation byte (it ends a char), or when it is the third of a 4-byte
//! char.

use crate::arch::Out;
use crate::swar::{high_surrogate_low_byte, low_byte_of};

/// Bytes of `src` looked at per window.
const WINDOW: usize = 32;

/// Whether `byte` is a continuation byte, `10xxxxxx`.
#[inline(always)]
fn is_continuation(byte: u8) -> bool {
    (byte as i8) < -0x40
}

/// Decodes the chars that start in the first 32 bytes of `src` and end by its byte 32 (`src`
/// starts at a char boundary of a `str`), and returns the bytes read, from 29 to 32 (a char
/// cut by the window's end is left whole for the next); 0, with nothing written, when
/// fewer than 128 bytes of `src` or 32 of room are left.
///
/// All 32 bytes of the packed window are stored: past the count, up to 32 minus the units
/// output. At least 96 bytes of `src` follow the window, which make at least 32 UTF-16
/// units, so a caller that goes on to copy the rest of `src` overwrites every one of them
/// (or the room ends after them, and they are all below the final count), as with the SIMD
/// kernels.
#[inline]
pub(crate) fn decode_window(src: &[u8], out: &mut Out<'_>) -> usize {
    if src.len() < 4 * WINDOW || out.room() < WINDOW {
        return 0;
    }
    let Some(window) = src.first_chunk::<{ WINDOW + 1 }>() else {
        return 0;
    };
    // Two bytes before the window, as zero: the window starts at a char boundary, so its
    // first two bytes are never the end or the third byte of a char that started before.
    let mut bytes = [0u8; WINDOW + 3];
    bytes[2..].copy_from_slice(window);
    let mut values = [0u8; WINDOW];
    let mut kept = [0u8; WINDOW];
    for i in 0..WINDOW {
        let (before_before, before, byte, after) =
            (bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]);
        let third = before_before >= 0xF0;
        values[i] = if byte < 0x80 {
            byte
        } else if third {
            high_surrogate_low_byte(before, byte)
        } else {
            low_byte_of(before, byte)
        };
        kept[i] = u8::from(!is_continuation(after) || third);
    }
    // The last char boundary in bytes 1..=32: one of the last four, since no char is longer.
    // A char cut there is left whole for the next window: none of its bytes is output here.
    let read = (WINDOW - 3..=WINDOW)
        .rev()
        .find(|&i| !is_continuation(window[i]))
        .unwrap_or(WINDOW);
    for (i, kept) in kept.iter_mut().enumerate() {
        *kept &= u8::from(i < read);
    }
    // Every byte is stored where the next output byte goes; only a kept one moves that on.
    let mut packed = [0u8; WINDOW];
    let mut units = 0;
    for (&value, &kept) in values.iter().zip(&kept) {
        packed[units % WINDOW] = value;
        units += usize::from(kept);
    }
    out.store(packed, units);
    read
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference;
    use std::string::String;
    use wirebytes_testkit::Rng;
    use wirebytes_testkit::text::random_text;

    /// A window decoded from the start of random text (each char boundary of it in turn)
    /// writes the reference's bytes for the chars it read, and reads whole chars only.
    #[test]
    fn windows_decode_as_the_reference() {
        let mut rng = Rng::new(0x3_1D0E);
        for _ in 0..wirebytes_testkit::scale(2000, 100) {
            let text: String = random_text(&mut rng, 40);
            for (start, _) in text.char_indices() {
                let rest = &text[start..];
                let mut got = [0u8; 64];
                let mut out = Out::new(&mut got);
                let read = decode_window(rest.as_bytes(), &mut out);
                if rest.len() < 4 * WINDOW {
                    assert_eq!(read, 0);
                    continue;
                }
                assert!(
                    (29..=32).contains(&read) && rest.is_char_boundary(read),
                    "{rest:?}"
                );
                let mut want = [0u8; 64];
                let n = reference::copy_low_bytes(&rest[..read], &mut want);
                assert_eq!(out.written(), &want[..n], "{rest:?}");
            }
        }
    }
}
