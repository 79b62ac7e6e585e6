//! The WHATWG replacement of an unmappable char: its decimal numeric character reference,
//! `&#N;`.

use crate::sink::Sink;

/// Length of `&#N;` for `c`.
pub(crate) fn ncr_len(c: char) -> usize {
    let n = u32::from(c);
    3 + match n {
        0..=9 => 1,
        10..=99 => 2,
        100..=999 => 3,
        1_000..=9_999 => 4,
        10_000..=99_999 => 5,
        100_000..=999_999 => 6,
        _ => 7,
    }
}

/// Writes `&#N;` for the scalar value `c` at the start of `dst`; returns its length.
pub(crate) fn write_ncr(dst: &mut [u8; 12], c: u32) -> usize {
    let mut digits = [0u8; 10];
    let mut i = digits.len();
    let mut n = c;
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    let len = digits.len() - i;
    dst[..2].copy_from_slice(b"&#");
    dst[2..2 + len].copy_from_slice(&digits[i..]);
    dst[2 + len] = b';';
    len + 3
}

/// Appends `&#N;` for the scalar value `c`.
pub(crate) fn push_ncr<S: Sink>(out: &mut S, c: u32) {
    let mut ncr = [0u8; 12];
    let n = write_ncr(&mut ncr, c);
    out.extend_from_slice(&ncr[..n]);
}
