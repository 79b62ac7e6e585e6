//! Short ASCII bodies appended in one pass: each byte is checked and copied (or widened to
//! its char) by the same loads, with no call and no second look.

use alloc::string::String;
use alloc::vec::Vec;
use core::mem::MaybeUninit;

use super::spare_vec::write_copy;
use crate::swar::HIGH_BITS_128;

/// The longest body [`append_short_ascii`] and [`push_short_ascii`] take.
pub(crate) const SHORT: usize = 64;

/// Appends `src` to `dst`, each byte as a `T` (`u8`: the byte; `u16`: its char), if `src`
/// is at most [`SHORT`] bytes, all ASCII; whether it did. When it did not, `dst` holds what
/// it held (its capacity may have grown by `src.len()`).
///
/// One pass of overlapping loads of one width (16, 8 or 4 bytes, or single bytes below 4),
/// each stored as it was loaded; the stores cover every element from `dst`'s end to
/// `src.len()` past it, and that length is kept only when no byte had its high bit set.
#[inline(always)]
pub(crate) fn append_short_ascii<T: Unit>(src: &[u8], dst: &mut Vec<T>) -> bool {
    let n = src.len();
    if n > SHORT {
        return false;
    }
    dst.reserve(n);
    let len = dst.len();
    let Some(spare) = dst.spare_capacity_mut().get_mut(..n) else {
        return false;
    };
    let ascii = copy_ascii(src, spare);
    if ascii {
        crate::counters::add(crate::counters::Path::AppendShortAscii, n);
        // SAFETY: `copy_ascii` wrote every one of the `n` elements after `len` (`spare` is
        // those `n` elements of the buffer).
        unsafe { dst.set_len(len + n) };
    }
    ascii
}

/// [`append_short_ascii`] on a `String`'s bytes: appends `src` if it is at most [`SHORT`]
/// bytes, all ASCII; whether it did. When it did not, `dst` holds what it held (its
/// capacity may have grown by `src.len()`).
#[inline(always)]
pub(crate) fn push_short_ascii(src: &[u8], dst: &mut String) -> bool {
    // SAFETY: `append_short_ascii` appends bytes only when every one of them is ASCII, and
    // otherwise leaves the bytes as they were: `dst` stays UTF-8.
    append_short_ascii(src, unsafe { dst.as_mut_vec() })
}

/// What a short body is appended as: its bytes (`u8`) or their chars (`u16`).
pub(crate) trait Unit: Copy + From<u8> {
    /// Writes the 16 bytes of `src` into `dst`, each as a unit.
    fn copy16(src: &[u8; 16], dst: &mut [MaybeUninit<Self>; 16]);
    /// Writes the 8 bytes of `src` into `dst`, each as a unit.
    fn copy8(src: &[u8; 8], dst: &mut [MaybeUninit<Self>; 8]);
    /// Writes the 4 bytes of `src` into `dst`, each as a unit.
    fn copy4(src: &[u8; 4], dst: &mut [MaybeUninit<Self>; 4]);
}

impl Unit for u8 {
    #[inline(always)]
    fn copy16(src: &[u8; 16], dst: &mut [MaybeUninit<u8>; 16]) {
        write_copy(dst, src);
    }

    #[inline(always)]
    fn copy8(src: &[u8; 8], dst: &mut [MaybeUninit<u8>; 8]) {
        write_copy(dst, src);
    }

    #[inline(always)]
    fn copy4(src: &[u8; 4], dst: &mut [MaybeUninit<u8>; 4]) {
        write_copy(dst, src);
    }
}

/// With SSE2 (where the target is compiled with it): each byte unpacked beside a zero byte.
/// Elsewhere: the portable words.
impl Unit for u16 {
    #[inline(always)]
    fn copy16(src: &[u8; 16], dst: &mut [MaybeUninit<u16>; 16]) {
        if !crate::arch::widen16(src, dst) {
            portable::copy16(src, dst);
        }
    }

    #[inline(always)]
    fn copy8(src: &[u8; 8], dst: &mut [MaybeUninit<u16>; 8]) {
        if !crate::arch::widen8(src, dst) {
            portable::copy8(src, dst);
        }
    }

    #[inline(always)]
    fn copy4(src: &[u8; 4], dst: &mut [MaybeUninit<u16>; 4]) {
        if !crate::arch::widen4(src, dst) {
            portable::copy4(src, dst);
        }
    }
}

/// Bytes widened to chars in words, on any target (byte `k` of a little-endian word is char
/// `k`).
mod portable {
    use super::{MaybeUninit, write_copy};

    /// The 4 bytes of `x` (byte `k` in bits `8k..8k + 8`) in the low bytes of the 16-bit
    /// lanes of a word.
    #[inline(always)]
    fn spread(x: u32) -> u64 {
        let x = u64::from(x);
        let x = (x | (x << 16)) & 0x0000_FFFF_0000_FFFF;
        (x | (x << 8)) & 0x00FF_00FF_00FF_00FF
    }

    /// The 4 lanes of `lanes` as chars.
    #[inline(always)]
    fn chars(lanes: u64) -> [u16; 4] {
        [
            lanes as u16,
            (lanes >> 16) as u16,
            (lanes >> 32) as u16,
            (lanes >> 48) as u16,
        ]
    }

    #[inline(always)]
    pub(super) fn copy4(src: &[u8; 4], dst: &mut [MaybeUninit<u16>; 4]) {
        crate::counters::add(crate::counters::Path::WidenPortable, 4);
        write_copy(dst, &chars(spread(u32::from_le_bytes(*src))));
    }

    #[inline(always)]
    pub(super) fn copy8(src: &[u8; 8], dst: &mut [MaybeUninit<u16>; 8]) {
        let (src_lo, src_hi) = src.split_at(4);
        let (dst_lo, dst_hi) = dst.split_at_mut(4);
        for (s, d) in [(src_lo, dst_lo), (src_hi, dst_hi)] {
            if let (Ok(s), Ok(d)) = (s.try_into(), d.try_into()) {
                copy4(s, d);
            }
        }
    }

    #[inline(always)]
    pub(super) fn copy16(src: &[u8; 16], dst: &mut [MaybeUninit<u16>; 16]) {
        let (src_lo, src_hi) = src.split_at(8);
        let (dst_lo, dst_hi) = dst.split_at_mut(8);
        for (s, d) in [(src_lo, dst_lo), (src_hi, dst_hi)] {
            if let (Ok(s), Ok(d)) = (s.try_into(), d.try_into()) {
                copy8(s, d);
            }
        }
    }
}

/// Writes every element of `dst` with the byte of `src` at the same index, as a unit;
/// whether all of them are ASCII. `src` and `dst` have the same length, at most
/// [`SHORT`] (longer ones are not written, and count as not ASCII).
#[inline(always)]
fn copy_ascii<T: Unit>(src: &[u8], dst: &mut [MaybeUninit<T>]) -> bool {
    let n = src.len();
    if n != dst.len() || n > SHORT {
        return false;
    }
    if n >= 16 {
        // Every 16 bytes from the start, then the last 16 (overlapping the ones before):
        // unrolled, as there are at most three before the last.
        let mut high = copy_chunk(src, dst, 0, T::copy16);
        if n > 32 {
            high |= copy_chunk(src, dst, 16, T::copy16);
            if n > 48 {
                high |= copy_chunk(src, dst, 32, T::copy16);
            }
        }
        high |= copy_chunk(src, dst, n - 16, T::copy16);
        high & HIGH_BITS_128 == 0
    } else if n >= 8 {
        let high = copy_chunk(src, dst, 0, T::copy8) | copy_chunk(src, dst, n - 8, T::copy8);
        high & HIGH_BITS_128 == 0
    } else if n >= 4 {
        let high = copy_chunk(src, dst, 0, T::copy4) | copy_chunk(src, dst, n - 4, T::copy4);
        high & HIGH_BITS_128 == 0
    } else {
        let mut high = 0;
        for (d, &b) in dst.iter_mut().zip(src) {
            d.write(T::from(b));
            high |= b;
        }
        high & 0x80 == 0
    }
}

/// Writes the `N` bytes of `src` from `at` into `dst` from `at` with `copy`, and returns
/// them in the low bytes of a `u128`. (Out of range, a bounds check panics: the callers
/// keep `at + N` within both.)
#[inline(always)]
fn copy_chunk<T, const N: usize>(
    src: &[u8],
    dst: &mut [MaybeUninit<T>],
    at: usize,
    copy: fn(&[u8; N], &mut [MaybeUninit<T>; N]),
) -> u128 {
    let block: &[u8; N] = src[at..at + N].try_into().expect("N bytes");
    let out: &mut [MaybeUninit<T>; N] = (&mut dst[at..at + N]).try_into().expect("N units");
    copy(block, out);
    let mut word = [0u8; 16];
    word[..N].copy_from_slice(block);
    u128::from_ne_bytes(word)
}

#[cfg(test)]
mod tests {
    use alloc::vec;

    use super::*;

    /// The portable widening (what targets without SSE2 run), here too: every byte value at
    /// every position of a chunk of each width.
    #[test]
    fn portable_widening_gives_each_byte_its_char() {
        for b in (0..=255u8).step_by(wirebytes_testkit::scale_miri(1, 1, 17)) {
            for at in 0..16 {
                let mut src: [u8; 16] = core::array::from_fn(|k| 0x30 + k as u8);
                src[at] = b;
                let want: [u16; 16] = src.map(u16::from);
                let mut dst = [MaybeUninit::new(0xFFFF_u16); 16];
                portable::copy16(&src, &mut dst);
                assert_eq!(dst.map(|d| written(&d)), want, "{b:02x} at {at}");
                let mut dst = [MaybeUninit::new(0xFFFF_u16); 16];
                let (Some(src8), Some(dst8)) = (src.first_chunk::<8>(), dst.first_chunk_mut::<8>())
                else {
                    unreachable!()
                };
                portable::copy8(src8, dst8);
                let (Some(src4), Some(dst4)) =
                    (src.first_chunk::<4>(), dst[8..].first_chunk_mut::<4>())
                else {
                    unreachable!()
                };
                portable::copy4(src4, dst4);
                let got = dst.map(|d| written(&d));
                assert_eq!(got[..8], want[..8], "{b:02x} at {at}");
                assert_eq!(got[8..12], want[..4], "{b:02x} at {at}");
                assert_eq!(got[12..], [0xFFFF; 4], "{b:02x} at {at}");
            }
        }
    }

    /// A unit that a test wrote (each starts written, as `MaybeUninit::new`).
    fn written(unit: &MaybeUninit<u16>) -> u16 {
        // SAFETY: every unit of the tests' arrays is made with `MaybeUninit::new`.
        unsafe { unit.assume_init() }
    }

    /// At every length up to one past [`SHORT`], with a byte of each kind at every position:
    /// appended (after what `dst` held) exactly when the body is ASCII and short, else
    /// nothing changes.
    #[test]
    fn short_ascii_is_appended_whole_or_not_at_all() {
        for len in 0..=SHORT + 1 {
            for at in (0..=len).step_by(wirebytes_testkit::scale_miri(1, 1, 7)) {
                for b in [0x00, 0x41, 0x7F, 0x80, 0xC3, 0xFF] {
                    let mut src: Vec<u8> = (0..len).map(|k| b'a' + (k % 26) as u8).collect();
                    if at < len {
                        src[at] = b;
                    }
                    let ascii = src.is_ascii() && len <= SHORT;
                    let mut chars = vec![0xD800u16, 0x41];
                    assert_eq!(append_short_ascii(&src, &mut chars), ascii, "{src:02x?}");
                    let mut want = vec![0xD800u16, 0x41];
                    if ascii {
                        want.extend(src.iter().map(|&b| u16::from(b)));
                    }
                    assert_eq!(chars, want, "{src:02x?}");
                    let mut text = String::from("h\u{e9}");
                    assert_eq!(push_short_ascii(&src, &mut text), ascii, "{src:02x?}");
                    let mut want = String::from("h\u{e9}");
                    if ascii {
                        want.push_str(core::str::from_utf8(&src).unwrap());
                    }
                    assert_eq!(text, want, "{src:02x?}");
                }
            }
        }
    }
}
