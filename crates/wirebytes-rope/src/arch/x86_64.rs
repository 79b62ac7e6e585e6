//! The AVX-512 kernel of content equality: see [`super::Kernels`]. Called only through
//! [`super::Kernels::eq_chunks`], whose flag proves the CPU has the features.

use core::arch::x86_64::{
    __m256i, _bzhi_u64, _mm256_cmpneq_epi8_mask, _mm256_loadu_si256, _mm256_maskz_loadu_epi8,
};

/// [`crate::cmp::eq_chunks_portable`] with each run compared by [`run_eq`]: the same
/// walk (one branch per run on which side runs out first), with no call for the runs of up
/// to 256 bytes.
///
/// # Safety
///
/// The CPU must have AVX-512 F, BW, VL and BMI2.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,bmi2")]
pub(super) unsafe fn eq_chunks_avx512<'a, 'b>(
    ai: impl Iterator<Item = &'a [u8]>,
    bi: impl Iterator<Item = &'b [u8]>,
) -> bool {
    crate::cmp::eq_chunks_by(ai, bi, |x, y| run_eq(x, y))
}

/// The longest run compared by the kernel's own loads.
const LONG: usize = 256;

/// Whether the window of 64 bytes from `p` reaches into the next 4 KiB page.
#[inline(always)]
fn crosses_page(p: *const u8) -> bool {
    (p as usize) % 4096 > 4096 - 64
}

/// `x == y` for slices of the same length: runs longer than [`LONG`] by the slice
/// comparison (`memcmp` is as fast as it gets there, and such runs are few); shorter ones 64
/// bytes per step (two plain 32-byte loads a side) while more than 64 are left, then the last
/// 1 to 64 with two masked loads a side, whose mask holds exactly the bytes left. Where a
/// masked load's 64-byte window reaches into the next page, the rest goes to the slice
/// comparison instead: the masked-off bytes cannot fault, but on a page that is not mapped
/// or not yet touched they cost an assist.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,bmi2")]
fn run_eq(mut x: &[u8], mut y: &[u8]) -> bool {
    debug_assert_eq!(x.len(), y.len());
    while x.len() > 64 {
        // Checked here, not before the loop, so that the runs of up to 64 bytes (most of
        // them) pay no branch for it.
        if x.len() > LONG {
            crate::counters::add(crate::counters::Path::LongRunAvx512, 1);
            return x == y;
        }
        let (xa, xr) = x.split_at(64);
        let (ya, yr) = y.split_at(64);
        let p = xa.as_ptr().cast::<__m256i>();
        let q = ya.as_ptr().cast::<__m256i>();
        // SAFETY: `xa` and `ya` hold 64 bytes each, the two unaligned 32-byte loads of
        // each read exactly those.
        let (a0, a1, b0, b1) = unsafe {
            (
                _mm256_loadu_si256(p),
                _mm256_loadu_si256(p.add(1)),
                _mm256_loadu_si256(q),
                _mm256_loadu_si256(q.add(1)),
            )
        };
        if _mm256_cmpneq_epi8_mask(a0, b0) | _mm256_cmpneq_epi8_mask(a1, b1) != 0 {
            return false;
        }
        x = xr;
        y = yr;
    }
    let (p, q) = (x.as_ptr(), y.as_ptr());
    if crosses_page(p) | crosses_page(q) {
        crate::counters::add(crate::counters::Path::PageDetoursAvx512, 1);
        return x == y;
    }
    // Bit `i` for each of the `x.len() <= 64` bytes left (all 64 bits for 64).
    let mask = _bzhi_u64(u64::MAX, x.len() as u32);
    let (lo, hi) = (mask as u32, (mask >> 32) as u32);
    // SAFETY: a masked load reads only the bytes whose mask bit is set and suppresses
    // faults on the others: bits `0..x.len()` of `mask` cover `x` and `y` exactly (the
    // second load of each side starts 32 bytes in, with the mask's upper half, which is
    // zero when 32 bytes or fewer are left), so nothing outside the two slices is read.
    let (a0, a1, b0, b1) = unsafe {
        (
            _mm256_maskz_loadu_epi8(lo, p.cast()),
            _mm256_maskz_loadu_epi8(hi, p.wrapping_add(32).cast()),
            _mm256_maskz_loadu_epi8(lo, q.cast()),
            _mm256_maskz_loadu_epi8(hi, q.wrapping_add(32).cast()),
        )
    };
    _mm256_cmpneq_epi8_mask(a0, b0) | _mm256_cmpneq_epi8_mask(a1, b1) == 0
}
