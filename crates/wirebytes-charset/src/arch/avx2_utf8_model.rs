//! The steps of the AVX2 UTF-16 to UTF-8 kernel written out apart from it, for the tests:
//! the crate's unit tests take this file as a module, and the kernel tests of `tests/` take it
//! by its path.

/// What the AVX2 UTF-16 to UTF-8 kernel takes of `src` in one call into `room` bytes: the
/// units read and the bytes written. 16 units a step where every surrogate among them is
/// paired (15 where the 16th is a high surrogate), while 32 bytes of room are left (64 where
/// a unit is above U+07FF); after a step of ASCII, 32 units a step while they are ASCII and
/// 32 bytes of room are left.
pub(crate) fn avx2_utf16_utf8_steps(src: &[u16], room: usize) -> (usize, usize) {
    let (mut at, mut w) = (0, 0);
    while let Some(step) = src.get(at..at + 16) {
        let need = if step.iter().all(|&u| u < 0x800) {
            32
        } else {
            64
        };
        let n = if (0xD800..0xDC00).contains(&step[15]) {
            15
        } else {
            16
        };
        let Ok(text) = String::from_utf16(&step[..n]) else {
            break;
        };
        if room - w < need {
            break;
        }
        w += text.len();
        at += n;
        if step.iter().all(|&u| u < 0x80) {
            while let Some(run) = src.get(at..at + 32) {
                if room - w < 32 || run.iter().any(|&u| u >= 0x80) {
                    break;
                }
                at += 32;
                w += 32;
            }
        }
    }
    (at, w)
}
