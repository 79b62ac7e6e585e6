//! The crate's one SIMD kernel, behind [`Kernels`]: content equality of two fragment lists
//! with AVX-512 masked loads. This module and `x86_64.rs` under it are the crate's only
//! `unsafe` code besides the builder's `BufMut` implementation.
//!
//! # Why a kernel
//!
//! Two strings cut at unrelated points are compared one overlapping run at a time, and the
//! runs of two random fragmentations are as random as the fragments (about half as long).
//! The portable code compares each run with one slice comparison (`bcmp`), whose cost is a
//! call and a dispatch on the length that the branch predictor cannot learn. The kernel
//! compares a run of up to 64 bytes with two pairs of masked 32-byte loads, the same
//! instructions for every length, runs of up to 256 bytes 64 bytes per step before that, and
//! leaves longer ones (few, and as fast through `memcmp` as anything) to the slice
//! comparison. Measured: BENCHMARKS.md, "wirebytes-rope: further measurements".
//!
//! # Detection
//!
//! The CPU is asked once, at the first comparison that needs the kernel, and the answer is
//! kept in one byte: every later call costs one relaxed load. Under Miri the standard
//! library's detection finds no AVX-512, so the portable code runs.

use core::sync::atomic::{AtomicU8, Ordering};

/// [`Kernels::detect`]'s answer: [`Kernels::KNOWN`] and the bits once the CPU was asked, 0
/// before.
static FOUND: AtomicU8 = AtomicU8::new(0);

/// The kernels this CPU can run. Only [`Kernels::detect`] reads the CPU; every other value
/// is a subset of what it found (the [levels](Kernels::levels), `"portable"` the empty
/// one), so a set bit proves the CPU has the instructions and the kernel is safe to call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Kernels(u8);

// The kept answer's marker is a bit of its own: no level has it.
const _: () = assert!(
    Kernels::KNOWN != 0 && Kernels::KNOWN & Kernels::AVX512 == 0,
    "KNOWN must be a bit no level has"
);

impl Kernels {
    /// AVX-512 F, BW, VL and BMI2: the run comparison with masked loads.
    const AVX512: u8 = 1 << 0;
    /// Set once the CPU has been asked.
    const KNOWN: u8 = 1 << 7;
    /// The levels, each with every kernel of the ones before it, by name.
    const LEVELS: [(&'static str, u8); 2] = [("portable", 0), ("avx512", Self::AVX512)];

    /// The kernels this CPU has: asked once, then one relaxed load per call.
    #[inline]
    pub(crate) fn detect() -> Kernels {
        let bits = FOUND.load(Ordering::Relaxed);
        if bits & Self::KNOWN != 0 {
            return Kernels(bits & !Self::KNOWN);
        }
        let bits = Self::ask();
        FOUND.store(bits | Self::KNOWN, Ordering::Relaxed);
        Kernels(bits)
    }

    /// What the CPU has, asked at run time.
    #[cold]
    fn ask() -> u8 {
        // A compiler without the AVX-512 intrinsics built no kernel.
        #[cfg(wirebytes_avx512)]
        return Self::level_for(|feature| match feature {
            "avx512f" => std::is_x86_feature_detected!("avx512f"),
            "avx512bw" => std::is_x86_feature_detected!("avx512bw"),
            "avx512vl" => std::is_x86_feature_detected!("avx512vl"),
            "bmi2" => std::is_x86_feature_detected!("bmi2"),
            _ => false,
        });
        #[cfg(not(wirebytes_avx512))]
        0
    }

    /// The bits of the highest level a CPU whose features `has` answers for can run.
    #[cfg_attr(
        not(wirebytes_avx512),
        allow(dead_code, reason = "asked only where the kernel is built")
    )]
    fn level_for(has: impl Fn(&str) -> bool) -> u8 {
        if ["avx512f", "avx512bw", "avx512vl", "bmi2"]
            .into_iter()
            .all(has)
        {
            Self::AVX512
        } else {
            0
        }
    }

    /// The levels this CPU has, `"portable"` first, each with the kernels of the ones before.
    pub(crate) fn levels() -> impl Iterator<Item = (&'static str, Kernels)> {
        let found = Self::detect().0;
        Self::LEVELS
            .into_iter()
            .filter(move |&(_, bits)| found & bits == bits)
            .map(|(name, bits)| (name, Kernels(bits)))
    }

    /// Content equality of two sequences of non-empty chunks holding the same number of
    /// bytes: the kernel where this set has it, else [`crate::cmp::eq_chunks_portable`].
    #[inline]
    pub(crate) fn eq_chunks<'a, 'b>(
        self,
        ai: impl Iterator<Item = &'a [u8]>,
        bi: impl Iterator<Item = &'b [u8]>,
    ) -> bool {
        #[cfg(wirebytes_avx512)]
        if self.0 & Self::AVX512 != 0 {
            crate::counters::add(crate::counters::Path::EqChunksAvx512, 1);
            // SAFETY: the kernel needs AVX-512 F, BW, VL and BMI2, and the bit is set only
            // where `detect` saw the CPU has them all.
            #[allow(unsafe_code, reason = "a #[target_feature] kernel")]
            return unsafe { x86_64::eq_chunks_avx512(ai, bi) };
        }
        crate::counters::add(crate::counters::Path::EqChunksPortable, 1);
        crate::cmp::eq_chunks_portable(ai, bi)
    }
}

// The AVX-512 intrinsics are stable from Rust 1.89, which `wirebytes_avx512` requires.
#[cfg(wirebytes_avx512)]
#[clippy::msrv = "1.89"]
#[allow(
    unsafe_code,
    reason = "the AVX-512 kernel: masked loads through raw pointers"
)]
mod x86_64;

#[cfg(test)]
mod tests {
    extern crate std;
    use super::Kernels;
    use std::vec::Vec;

    /// The detected level is the highest one the CPU has and the compiler built, listed
    /// here apart from the code under test; the levels are the list's prefix up to it.
    #[test]
    fn detect_finds_the_highest_level_the_cpu_has_and_the_build_holds() {
        #[cfg(target_arch = "x86_64")]
        let cpu = std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512bw")
            && std::is_x86_feature_detected!("avx512vl")
            && std::is_x86_feature_detected!("bmi2");
        #[cfg(not(target_arch = "x86_64"))]
        let cpu = false;
        let expected = if cpu && cfg!(wirebytes_avx512) {
            "avx512"
        } else {
            "portable"
        };
        let names: Vec<&str> = Kernels::levels().map(|(name, _)| name).collect();
        assert_eq!(names.last(), Some(&expected));
        let all = ["portable", "avx512"];
        assert_eq!(names, all[..names.len()]);
        let (_, last) = Kernels::levels()
            .last()
            .expect("at least the portable level");
        assert_eq!(last, Kernels::detect());
        assert_eq!(Kernels::detect(), last, "the kept answer");
        assert_eq!(
            Kernels::detect().0 != 0,
            expected == "avx512",
            "{:?}",
            Kernels::detect()
        );
        // The answer is kept, so later calls do not ask again.
        assert_eq!(
            super::FOUND.load(super::Ordering::Relaxed),
            Kernels::detect().0 | Kernels::KNOWN
        );
    }

    /// A CPU has the AVX-512 level with every one of its features, and not without any one.
    #[test]
    fn the_level_needs_every_feature() {
        let features = ["avx512f", "avx512bw", "avx512vl", "bmi2"];
        assert_eq!(
            Kernels::level_for(|f| features.contains(&f)),
            Kernels::AVX512
        );
        assert_eq!(Kernels::level_for(|_| false), 0);
        for missing in features {
            assert_eq!(
                Kernels::level_for(|f| f != missing && features.contains(&f)),
                0,
                "without {missing}"
            );
        }
    }
}
