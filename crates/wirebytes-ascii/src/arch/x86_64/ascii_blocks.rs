//! The ASCII bulk copy (AVX2): see `Kernels::copy_ascii_blocks`.

use core::arch::x86_64::{
    _mm256_loadu_si256, _mm256_movemask_epi8, _mm256_or_si256, _mm256_storeu_si256,
};

/// See [`Kernels::copy_ascii_blocks`](crate::arch::Kernels::copy_ascii_blocks). 64-byte blocks from the start; when they reach the end,
/// the last 64 bytes (overlapping what is copied already) finish the copy without a scalar
/// tail. (Starting the blocks where `dst` is 64-byte aligned, so that no store crosses a cache
/// line, measured no faster.)
#[target_feature(enable = "avx2")]
pub(crate) fn ascii_blocks_avx2(src: &[u8], dst: &mut [u8]) -> usize {
    let n = src.len().min(dst.len());
    let (src, dst) = (&src[..n], &mut dst[..n]);
    let mut copied = 0;
    let (blocks, _) = src.as_chunks::<64>();
    let (out, _) = dst.as_chunks_mut::<64>();
    for (block, out) in blocks.iter().zip(out) {
        if !copy_ascii_block(block, out) {
            return copied;
        }
        copied += 64;
    }
    // Fewer than 64 bytes are left: the last 64 bytes, overlapping what is copied already.
    if let (Some(last), Some(out)) = (src.last_chunk::<64>(), dst.last_chunk_mut::<64>())
        && copy_ascii_block(last, out)
    {
        copied = n;
    }
    copied
}

/// Copies `block` into `out` if its bytes are all ASCII: two 32-byte loads, one test, and the
/// same two registers stored. Returns `false`, with nothing written, if a byte is not ASCII.
#[inline]
#[target_feature(enable = "avx2")]
fn copy_ascii_block(block: &[u8; 64], out: &mut [u8; 64]) -> bool {
    let from = block.as_ptr();
    // SAFETY: the two loads read bytes 0..32 and 32..64 of `block`, a `[u8; 64]`; they have
    // no alignment requirement.
    let (low, high) = unsafe {
        (
            _mm256_loadu_si256(from.cast()),
            _mm256_loadu_si256(from.add(32).cast()),
        )
    };
    // The high bit of every byte, gathered: zero if all 64 bytes are ASCII.
    if _mm256_movemask_epi8(_mm256_or_si256(low, high)) != 0 {
        return false;
    }
    let to = out.as_mut_ptr();
    // SAFETY: the two stores write bytes 0..32 and 32..64 of `out`, a `[u8; 64]` borrowed
    // mutably; they have no alignment requirement.
    unsafe {
        _mm256_storeu_si256(to.cast(), low);
        _mm256_storeu_si256(to.add(32).cast(), high);
    }
    true
}
