//! The SSSE3 kernel of runs of 3-byte chars to UTF-16 units (CJK): four chars, 12 bytes, per
//! 16-byte load, `pshufb` gathering each char's bytes into a 32-bit lane. Its contract is
//! [`Kernels::three_byte_utf16`](crate::arch::Kernels::three_byte_utf16)'s.

use std::arch::x86_64::{
    __m128i, _mm_and_si128, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128,
    _mm_set1_epi32, _mm_setr_epi8, _mm_shuffle_epi8, _mm_srli_epi32, _mm_storel_epi64,
    _mm_storeu_si128, _mm_unpacklo_epi64,
};

/// See [`Kernels::three_byte_utf16`](crate::arch::Kernels::three_byte_utf16).
#[target_feature(enable = "ssse3")]
pub(crate) fn three_byte_utf16_ssse3(src: &[u8], dst: &mut [u16]) -> (usize, usize) {
    let (mut read, mut written) = (0, 0);
    // Eight chars per step while both groups of four are whole 3-byte chars.
    while let (Some(block), Some(out)) = (
        src.get(read..).and_then(<[u8]>::first_chunk::<28>),
        dst.get_mut(written..)
            .and_then(<[u16]>::first_chunk_mut::<8>),
    ) {
        let (Some(first), Some(second)) = (block.first_chunk::<16>(), block.last_chunk::<16>())
        else {
            break;
        };
        let (a, b) = (load(first), load(second));
        if !four_chars(a) || !four_chars(b) {
            break;
        }
        let units = _mm_unpacklo_epi64(units(a), units(b));
        // SAFETY: the store writes 16 bytes to `out`, a `[u16; 8]` borrowed mutably; it has no
        // alignment requirement.
        unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), units) };
        read += 24;
        written += 8;
    }
    // Then four at a time.
    while let (Some(block), Some(out)) = (
        src.get(read..).and_then(<[u8]>::first_chunk::<16>),
        dst.get_mut(written..)
            .and_then(<[u16]>::first_chunk_mut::<4>),
    ) {
        let v = load(block);
        if !four_chars(v) {
            break;
        }
        // SAFETY: the store writes the low 8 bytes of the vector to `out`, a `[u16; 4]`
        // borrowed mutably; it has no alignment requirement.
        unsafe { _mm_storel_epi64(out.as_mut_ptr().cast(), units(v)) };
        read += 12;
        written += 4;
    }
    (read, written)
}

/// The 16 bytes of `block`.
#[inline]
#[target_feature(enable = "ssse3")]
fn load(block: &[u8; 16]) -> __m128i {
    // SAFETY: the load reads the 16 bytes of `block`; it has no alignment requirement.
    unsafe { _mm_loadu_si128(block.as_ptr().cast()) }
}

/// Whether the first 12 bytes of `v` are four 3-byte sequences, `1110xxxx 10xxxxxx
/// 10xxxxxx` each (the last four bytes are not looked at).
#[inline]
#[target_feature(enable = "ssse3")]
fn four_chars(v: __m128i) -> bool {
    const L: i8 = 0xF0_u8 as i8;
    const C: i8 = 0xC0_u8 as i8;
    const LB: i8 = 0xE0_u8 as i8;
    const CB: i8 = 0x80_u8 as i8;
    let mask = _mm_setr_epi8(L, C, C, L, C, C, L, C, C, L, C, C, 0, 0, 0, 0);
    let bits = _mm_setr_epi8(LB, CB, CB, LB, CB, CB, LB, CB, CB, LB, CB, CB, 0, 0, 0, 0);
    _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_and_si128(v, mask), bits)) == 0xFFFF
}

/// The four UTF-16 units of the four 3-byte chars in the first 12 bytes of `v`, in the low
/// 8 bytes of the result (little-endian, as the units lie in memory).
#[inline]
#[target_feature(enable = "ssse3")]
fn units(v: __m128i) -> __m128i {
    // Each char's bytes b0 b1 b2 into a 32-bit lane as b2 | b1 << 8 | b0 << 16.
    let gather = _mm_setr_epi8(2, 1, 0, -1, 5, 4, 3, -1, 8, 7, 6, -1, 11, 10, 9, -1);
    let x = _mm_shuffle_epi8(v, gather);
    // (b0 & 0x0F) << 12 | (b1 & 0x3F) << 6 | b2 & 0x3F.
    let high = _mm_and_si128(_mm_srli_epi32::<4>(x), _mm_set1_epi32(0xF000));
    let middle = _mm_and_si128(_mm_srli_epi32::<2>(x), _mm_set1_epi32(0x0FC0));
    let low = _mm_and_si128(x, _mm_set1_epi32(0x3F));
    let lanes = _mm_or_si128(_mm_or_si128(high, middle), low);
    // The low 16 bits of each lane, side by side.
    let pack = _mm_setr_epi8(0, 1, 4, 5, 8, 9, 12, 13, -1, -1, -1, -1, -1, -1, -1, -1);
    _mm_shuffle_epi8(lanes, pack)
}
