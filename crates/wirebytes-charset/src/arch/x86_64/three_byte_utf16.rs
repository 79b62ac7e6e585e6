//! The kernels of runs of 3-byte chars to UTF-16 (CJK): four chars, 12 bytes, per 16-byte
//! load, `pshufb` gathering each char's bytes into a 32-bit lane, then the units packed in the
//! byte order asked for. SSSE3 takes eight chars per step; AVX2 sixteen, two such loads in
//! each of two 32-byte vectors. Their contract is
//! [`Kernels::three_byte_utf16_bytes`](crate::arch::Kernels::three_byte_utf16_bytes)'s.

use std::mem::MaybeUninit;

use std::arch::x86_64::{
    __m128i, __m256i, _mm_and_si128, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8,
    _mm_or_si128, _mm_set1_epi32, _mm_setr_epi8, _mm_shuffle_epi8, _mm_srli_epi32,
    _mm_storel_epi64, _mm_storeu_si128, _mm_unpacklo_epi64, _mm256_and_si256,
    _mm256_broadcastsi128_si256, _mm256_castsi128_si256, _mm256_cmpeq_epi8,
    _mm256_inserti128_si256, _mm256_movemask_epi8, _mm256_or_si256, _mm256_permute4x64_epi64,
    _mm256_set1_epi32, _mm256_shuffle_epi8, _mm256_srli_epi32, _mm256_storeu_si256,
    _mm256_unpacklo_epi64,
};

/// See [`Kernels::three_byte_utf16_bytes`](crate::arch::Kernels::three_byte_utf16_bytes):
/// the units in big-endian byte order when `BIG_ENDIAN`, else little-endian.
#[target_feature(enable = "ssse3")]
pub(crate) fn three_byte_utf16_ssse3<const BIG_ENDIAN: bool>(
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
) -> (usize, usize) {
    let (mut read, mut written) = (0, 0);
    // Eight chars per step while both groups of four are whole 3-byte chars.
    while let (Some(block), Some(out)) = (
        src.get(read..).and_then(<[u8]>::first_chunk::<28>),
        dst.get_mut(2 * written..)
            .and_then(<[MaybeUninit<u8>]>::first_chunk_mut::<16>),
    ) {
        let (Some(first), Some(second)) = (block.first_chunk::<16>(), block.last_chunk::<16>())
        else {
            break;
        };
        let (a, b) = (load(first), load(second));
        if !four_chars(a) || !four_chars(b) {
            break;
        }
        let units = _mm_unpacklo_epi64(units::<BIG_ENDIAN>(a), units::<BIG_ENDIAN>(b));
        // SAFETY: the store writes the 16 bytes of `out`, borrowed mutably; it has no
        // alignment requirement.
        unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), units) };
        read += 24;
        written += 8;
    }
    // Then four at a time.
    while let (Some(block), Some(out)) = (
        src.get(read..).and_then(<[u8]>::first_chunk::<16>),
        dst.get_mut(2 * written..)
            .and_then(<[MaybeUninit<u8>]>::first_chunk_mut::<8>),
    ) {
        let v = load(block);
        if !four_chars(v) {
            break;
        }
        // SAFETY: the store writes the low 8 bytes of the vector to the 8 bytes of `out`,
        // borrowed mutably; it has no alignment requirement.
        unsafe { _mm_storel_epi64(out.as_mut_ptr().cast(), units::<BIG_ENDIAN>(v)) };
        read += 12;
        written += 4;
    }
    (read, written)
}

/// See [`Kernels::three_byte_utf16_bytes`](crate::arch::Kernels::three_byte_utf16_bytes):
/// sixteen chars per step, then the SSSE3 kernel's steps for the rest of the run.
#[target_feature(enable = "avx2")]
pub(crate) fn three_byte_utf16_avx2<const BIG_ENDIAN: bool>(
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
) -> (usize, usize) {
    let (mut read, mut written) = (0, 0);
    // Each vector: the 16 bytes from 0 in its low lane, from 12 in its high lane (four chars
    // in the first 12 bytes of each); the second vector the same from byte 24. 48 bytes are
    // taken, 52 read.
    while let (Some(block), Some(out)) = (
        src.get(read..).and_then(<[u8]>::first_chunk::<52>),
        dst.get_mut(2 * written..)
            .and_then(<[MaybeUninit<u8>]>::first_chunk_mut::<32>),
    ) {
        let (Some(a0), Some(a1), Some(b0), Some(b1)) = (
            sixteen(block, 0),
            sixteen(block, 12),
            sixteen(block, 24),
            sixteen(block, 36),
        ) else {
            break;
        };
        let (a, b) = (load_pair(a0, a1), load_pair(b0, b1));
        if !eight_chars(a) || !eight_chars(b) {
            break;
        }
        // Per lane, four units in the low 8 bytes: a0..3 a4..7 in `a`, b0..3 b4..7 in `b`.
        // Unpacked: a0..3 b0..3 | a4..7 b4..7; the 64-bit quarters reordered: a0..7 b0..7.
        let units = _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_unpacklo_epi64(
            units_wide::<BIG_ENDIAN>(a),
            units_wide::<BIG_ENDIAN>(b),
        ));
        // SAFETY: the store writes the 32 bytes of `out`, borrowed mutably; it has no
        // alignment requirement.
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), units) };
        read += 48;
        written += 16;
    }
    let (r, w) = three_byte_utf16_ssse3::<BIG_ENDIAN>(
        src.get(read..).unwrap_or_default(),
        dst.get_mut(2 * written..).unwrap_or_default(),
    );
    (read + r, written + w)
}

/// The 16 bytes of `block`.
#[inline]
#[target_feature(enable = "ssse3")]
fn load(block: &[u8; 16]) -> __m128i {
    // SAFETY: the load reads the 16 bytes of `block`; it has no alignment requirement.
    unsafe { _mm_loadu_si128(block.as_ptr().cast()) }
}

/// The 16 bytes of `bytes` from `at`, if it has them.
#[inline(always)]
fn sixteen(bytes: &[u8], at: usize) -> Option<&[u8; 16]> {
    bytes.get(at..)?.first_chunk::<16>()
}

/// `low` in the low lane, `high` in the high lane.
#[inline]
#[target_feature(enable = "avx2")]
fn load_pair(low: &[u8; 16], high: &[u8; 16]) -> __m256i {
    _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(load(low)), load(high))
}

/// The masks and bits of four 3-byte sequences, `1110xxxx 10xxxxxx 10xxxxxx` each, in the
/// first 12 bytes of 16 (the last four bytes are not looked at: 0 and 0).
#[inline]
#[target_feature(enable = "ssse3")]
fn sequence_pattern() -> (__m128i, __m128i) {
    const L: i8 = 0xF0_u8 as i8;
    const C: i8 = 0xC0_u8 as i8;
    const LB: i8 = 0xE0_u8 as i8;
    const CB: i8 = 0x80_u8 as i8;
    (
        _mm_setr_epi8(L, C, C, L, C, C, L, C, C, L, C, C, 0, 0, 0, 0),
        _mm_setr_epi8(LB, CB, CB, LB, CB, CB, LB, CB, CB, LB, CB, CB, 0, 0, 0, 0),
    )
}

/// Whether the first 12 bytes of `v` are four 3-byte sequences.
#[inline]
#[target_feature(enable = "ssse3")]
fn four_chars(v: __m128i) -> bool {
    let (mask, bits) = sequence_pattern();
    _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_and_si128(v, mask), bits)) == 0xFFFF
}

/// Whether the first 12 bytes of each lane of `v` are four 3-byte sequences.
#[inline]
#[target_feature(enable = "avx2")]
fn eight_chars(v: __m256i) -> bool {
    let (mask, bits) = sequence_pattern();
    let (mask, bits) = (
        _mm256_broadcastsi128_si256(mask),
        _mm256_broadcastsi128_si256(bits),
    );
    _mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_and_si256(v, mask), bits)) == -1
}

/// Each char's bytes `b0 b1 b2` gathered into a 32-bit lane as `b2 | b1 << 8 | b0 << 16`.
#[inline]
#[target_feature(enable = "ssse3")]
fn gather_pattern() -> __m128i {
    _mm_setr_epi8(2, 1, 0, -1, 5, 4, 3, -1, 8, 7, 6, -1, 11, 10, 9, -1)
}

/// The two bytes of each 32-bit lane's low 16 bits, side by side in the low 8 bytes, in the
/// byte order asked for.
#[inline]
#[target_feature(enable = "ssse3")]
fn pack_pattern<const BIG_ENDIAN: bool>() -> __m128i {
    if BIG_ENDIAN {
        _mm_setr_epi8(1, 0, 5, 4, 9, 8, 13, 12, -1, -1, -1, -1, -1, -1, -1, -1)
    } else {
        _mm_setr_epi8(0, 1, 4, 5, 8, 9, 12, 13, -1, -1, -1, -1, -1, -1, -1, -1)
    }
}

/// The four UTF-16 units of the four 3-byte chars in the first 12 bytes of `v`, in the low
/// 8 bytes of the result, as they lie in memory in the byte order asked for.
#[inline]
#[target_feature(enable = "ssse3")]
fn units<const BIG_ENDIAN: bool>(v: __m128i) -> __m128i {
    let x = _mm_shuffle_epi8(v, gather_pattern());
    // (b0 & 0x0F) << 12 | (b1 & 0x3F) << 6 | b2 & 0x3F.
    let high = _mm_and_si128(_mm_srli_epi32::<4>(x), _mm_set1_epi32(0xF000));
    let middle = _mm_and_si128(_mm_srli_epi32::<2>(x), _mm_set1_epi32(0x0FC0));
    let low = _mm_and_si128(x, _mm_set1_epi32(0x3F));
    let lanes = _mm_or_si128(_mm_or_si128(high, middle), low);
    _mm_shuffle_epi8(lanes, pack_pattern::<BIG_ENDIAN>())
}

/// [`units`] in each 16-byte lane of `v`.
#[inline]
#[target_feature(enable = "avx2")]
fn units_wide<const BIG_ENDIAN: bool>(v: __m256i) -> __m256i {
    let x = _mm256_shuffle_epi8(v, _mm256_broadcastsi128_si256(gather_pattern()));
    let high = _mm256_and_si256(_mm256_srli_epi32::<4>(x), _mm256_set1_epi32(0xF000));
    let middle = _mm256_and_si256(_mm256_srli_epi32::<2>(x), _mm256_set1_epi32(0x0FC0));
    let low = _mm256_and_si256(x, _mm256_set1_epi32(0x3F));
    let lanes = _mm256_or_si256(_mm256_or_si256(high, middle), low);
    _mm256_shuffle_epi8(
        lanes,
        _mm256_broadcastsi128_si256(pack_pattern::<BIG_ENDIAN>()),
    )
}
