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

#[cfg(test)]
mod tests {
    use super::{ncr_len, write_ncr};

    /// The length is that of the reference written, for the scalar values up to 1000, each
    /// side of every power of ten and every 97th (one-digit ones included, though the
    /// single-byte charsets that ask for a length map all of them).
    #[test]
    fn the_length_is_the_written_length() {
        let mut dst = [0u8; 12];
        let edges = [
            9, 10, 99, 100, 999, 1_000, 9_999, 10_000, 99_999, 100_000, 999_999,
        ];
        // Interpreted, a sparser sample.
        let sparse = if cfg!(miri) { 41 } else { 1 };
        let values = (0..=1_000)
            .step_by(sparse)
            .chain(edges.iter().flat_map(|&n| [n, n + 1]))
            .chain((0..=0x10_FFFF).step_by(97 * sparse))
            .chain([0x10_FFFF]);
        for c in values.filter_map(char::from_u32) {
            let n = write_ncr(&mut dst, u32::from(c));
            assert_eq!(ncr_len(c), n, "{c:?}");
            assert_eq!(&dst[..n], format!("&#{};", u32::from(c)).as_bytes());
        }
    }
}
