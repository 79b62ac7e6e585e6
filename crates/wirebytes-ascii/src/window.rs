//! Mixed text in windows of 32 bytes, the portable path's way through text that changes
//! script or char length every few chars (Latin-1 prose, Cyrillic words between spaces):
//! every byte's output value and whether it is output are computed for the whole window in
//! loops the compiler vectorises, then the bytes that are output are packed with one store and
//! one add per byte, no branch (`Out::pack`).
//!
//! The low byte of a UTF-16 unit comes from the last two bytes of its UTF-8 sequence: an
//! ASCII byte is its own; a continuation byte `c` that ends a char, after a byte `p`, gives
//! `(p & 0x03) << 6 | (c & 0x3F)`. So a byte is output when the byte after it is not a
//! continuation byte (it ends a char). A window with a 4-byte char (two units) is left to
//! the other code.

use crate::out::Out;

/// Bytes of `src` looked at per window.
const WINDOW: usize = 32;

/// Whether `byte` is a continuation byte, `10xxxxxx`.
#[inline(always)]
fn is_continuation(byte: u8) -> bool {
    (byte as i8) < -0x40
}

/// Decodes the chars that start in the 32 bytes of `src` from `at` (a char boundary of a
/// `str`, not its first byte) and end by `at + 32`, and returns the bytes read, from 30 to
/// 32 (a char cut by the window's end is left whole for the next); 0, with nothing written,
/// when the window holds a 4-byte char (a lead byte `0xF0..`), or when fewer than 128 bytes
/// of `src` from `at` or 32 of room are left.
///
/// All 32 bytes of the packed window are stored: past the count, up to 32 minus the units
/// output. At least 96 bytes of `src` follow the window, which make at least 32 UTF-16
/// units, so a caller that goes on to copy the rest of `src` overwrites every one of them
/// (or the room ends after them, and they are all below the final count), as with the SIMD
/// kernels.
#[inline]
pub(crate) fn decode_window(src: &[u8], at: usize, out: &mut Out<'_>) -> usize {
    if at == 0 || src.len() - at.min(src.len()) < 4 * WINDOW || out.room() < WINDOW {
        return 0;
    }
    // The window with the byte before it and the one after it, read from `src` itself (not
    // from a copy, so the loads need no store to land first).
    let Some(bytes) = src
        .get(at - 1..)
        .and_then(<[u8]>::first_chunk::<{ WINDOW + 2 }>)
    else {
        return 0;
    };
    // Per byte, the value it outputs if it ends a char, and whether it does: with no 4-byte
    // char, a continuation byte `c` that ends a char, after a byte `p`, gives
    // `(p & 0x03) << 6 | (c & 0x3F)`, and an ASCII byte `b` gives `b & 0x40 | b & 0x3F`. (The
    // window's first byte starts a char: ASCII, or a lead that ends nothing, so the byte
    // before it, of the char before, changes nothing.)
    let mut values = [0u8; WINDOW];
    let mut ends = [0u8; WINDOW];
    let mut four_byte = 0u8;
    for i in 0..WINDOW {
        let (before, byte, after) = (bytes[i], bytes[i + 1], bytes[i + 2]);
        four_byte |= u8::from(byte >= 0xF0);
        let high = if byte >= 0x80 {
            (before & 0x03) << 6
        } else {
            byte & 0x40
        };
        values[i] = high | (byte & 0x3F);
        ends[i] = u8::from(!is_continuation(after));
    }
    if four_byte != 0 {
        return 0;
    }
    // The last char boundary in bytes 30..=32 of the window (no char here is longer than 3
    // bytes); a char cut there is left whole for the next window: its bytes before it end
    // nothing anyway.
    let read = (WINDOW - 2..=WINDOW)
        .rev()
        .find(|&i| !is_continuation(bytes[i + 1]))
        .unwrap_or(WINDOW);
    out.pack(&values, &ends);
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
        for _ in 0..wirebytes_testkit::scale_miri(2000, 100, 1) {
            let text: String = random_text(&mut rng, 40);
            let every = wirebytes_testkit::scale_miri(1, 1, 7);
            for (start, _) in text.char_indices().skip(1).step_by(every) {
                let rest = &text[start..];
                let mut got = [0u8; 64];
                let mut out = Out::new(&mut got);
                let read = decode_window(text.as_bytes(), start, &mut out);
                if rest.len() < 4 * WINDOW || rest.as_bytes()[..WINDOW].iter().any(|&b| b >= 0xF0) {
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
