//! Test-only counters of what each kernel and each portable fast path handled, so that a test
//! notices when a kernel is no longer chosen or a fast path no longer taken (the output stays
//! the same; only the speed would change).
//!
//! With the hidden feature `__counters` (the crate's own tests turn it on; never for users),
//! [`add`] adds to the calling thread's counter of its [`Path`], read through
//! `levels::counts`. Without it, [`add`] is empty and inlined away: a default or bench build
//! pays nothing.
//!
//! What each path counts (`n` of [`add`]) is said on its variant: bytes of input handled,
//! except [`Path::DetectAsk`] (one per call).

/// A kernel or a portable fast path whose work is counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Path {
    /// `check_avx2` through `Kernels::utf8_check`: the bytes it proved UTF-8.
    CheckAvx2,
    /// `rewrite_avx512` through `Kernels::rewrite_utf8`: the bytes it rewrote.
    RewriteAvx512,
    /// `pairs_ssse3` through `Kernels::utf16_pairs_ssse3`: the bytes it decoded.
    PairsSsse3,
    /// `pairs_avx512` through `Kernels::utf16_pairs_avx512`: the bytes it decoded.
    PairsAvx512,
    /// `blocks_avx2` through `Kernels::utf16_blocks_avx2`: the bytes it decoded.
    BlocksAvx2,
    /// `blocks_avx512` through `Kernels::utf16_blocks_avx512`: the bytes it decoded.
    BlocksAvx512,
    /// The SSE2 widening of 16 bytes (`arch::widen16`): 16 per call.
    Widen16Sse2,
    /// The SSE2 widening of 8 bytes (`arch::widen8`): 8 per call.
    Widen8Sse2,
    /// The SSE2 widening of 4 bytes (`arch::widen4`): 4 per call.
    Widen4Sse2,
    /// `Kernels::detect` asking the CPU (with `std`): 1 per call; at most once per process.
    DetectAsk,
    /// `decode`/`validate`'s short ASCII (at most 32 bytes) borrowed in two loads: its bytes.
    ShortAscii,
    /// `append_short_ascii` (at most 64 ASCII bytes appended in one pass): its bytes.
    AppendShortAscii,
    /// `decode`'s portable plan: the ASCII prefix proven 4096 bytes at a time.
    PlanAscii,
    /// The rewrite to UTF-8: ASCII kept by the 32-byte blocks.
    RewriteAsciiBlocks,
    /// `decode_to_utf16`: ASCII widened by the 32-byte blocks.
    Utf16AsciiBlocks,
    /// `decode_to_utf16`: ASCII widened 8 bytes at a time between sequences.
    Utf16AsciiWords,
    /// `decode_to_utf16`: four 2-byte sequences decoded at once in a word (8 bytes).
    Utf16TwoByteWords,
    /// `encode` (and `encode_to_vec`, `encode_to_buf`): a text that needs no change, taken
    /// whole (borrowed or copied as it is): its bytes.
    EncodeAsIs,
    /// The scan for bytes the encoders change: bytes passed 32 at a time.
    PlainChunks,
    /// The scan for the end of ASCII (the JDK's rules after the UTF-8 prefix): bytes passed
    /// 8 at a time.
    AsciiWords,
    /// The encoders from UTF-16: one-byte units found 8 at a time.
    OneByteUnitChunks,
    /// The strict forms' `decode_to_utf16` (CESU-8, class files): ASCII widened 8 bytes at a
    /// time.
    StrictAsciiWords,
    /// The portable widening of short ASCII (where SSE2 is not there): 4 bytes per word.
    WidenPortable,
}

impl Path {
    /// Every path, in the order of the enum.
    #[cfg(any(test, feature = "__counters"))]
    pub(crate) const ALL: [Path; 23] = [
        Path::CheckAvx2,
        Path::RewriteAvx512,
        Path::PairsSsse3,
        Path::PairsAvx512,
        Path::BlocksAvx2,
        Path::BlocksAvx512,
        Path::Widen16Sse2,
        Path::Widen8Sse2,
        Path::Widen4Sse2,
        Path::DetectAsk,
        Path::ShortAscii,
        Path::AppendShortAscii,
        Path::PlanAscii,
        Path::RewriteAsciiBlocks,
        Path::Utf16AsciiBlocks,
        Path::Utf16AsciiWords,
        Path::Utf16TwoByteWords,
        Path::EncodeAsIs,
        Path::PlainChunks,
        Path::AsciiWords,
        Path::OneByteUnitChunks,
        Path::StrictAsciiWords,
        Path::WidenPortable,
    ];

    /// The path's stable snake_case name.
    #[cfg(any(test, feature = "__counters"))]
    pub(crate) const fn name(self) -> &'static str {
        match self {
            Path::CheckAvx2 => "utf8_check_avx2",
            Path::RewriteAvx512 => "rewrite_avx512",
            Path::PairsSsse3 => "utf16_pairs_ssse3",
            Path::PairsAvx512 => "utf16_pairs_avx512",
            Path::BlocksAvx2 => "utf16_blocks_avx2",
            Path::BlocksAvx512 => "utf16_blocks_avx512",
            Path::Widen16Sse2 => "widen16_sse2",
            Path::Widen8Sse2 => "widen8_sse2",
            Path::Widen4Sse2 => "widen4_sse2",
            Path::DetectAsk => "detect_ask",
            Path::ShortAscii => "short_ascii",
            Path::AppendShortAscii => "append_short_ascii",
            Path::PlanAscii => "plan_ascii",
            Path::RewriteAsciiBlocks => "rewrite_ascii_blocks",
            Path::Utf16AsciiBlocks => "utf16_ascii_blocks",
            Path::Utf16AsciiWords => "utf16_ascii_words",
            Path::Utf16TwoByteWords => "utf16_two_byte_words",
            Path::EncodeAsIs => "encode_as_is",
            Path::PlainChunks => "plain_chunks",
            Path::AsciiWords => "ascii_words",
            Path::OneByteUnitChunks => "one_byte_unit_chunks",
            Path::StrictAsciiWords => "strict_ascii_words",
            Path::WidenPortable => "widen_portable",
        }
    }
}

pub(crate) use crate::counting::add;
