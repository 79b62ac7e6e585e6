//! Test-only counters of what each SIMD kernel and each watched portable fast path handled,
//! so that a test can tell that the fast code ran, not only that the output is right (the
//! portable code gives the same bytes). With the hidden feature `__counters` every
//! [`add`] is one add into the calling thread's table, read through
//! [`crate::levels::counts`]; without it [`add`] does nothing and compiles to nothing.
//!
//! Each count is in bytes of input the path handled (the bytes of `src` a kernel returned
//! as read, or the whole input it was given where it reads all of it), except
//! `copy_long_calls`, which counts calls.

/// A kernel or a portable fast path whose work is counted.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Path {
    /// `Kernels::copy_ascii_blocks` with AVX-512 BW: the ASCII bytes copied.
    AsciiBlocksAvx512,
    /// `Kernels::copy_ascii_blocks` with AVX2: the ASCII bytes copied.
    AsciiBlocksAvx2,
    /// `Kernels::copy_header_blocks` with AVX-512 BW: the header bytes copied.
    HeaderBlocksAvx512,
    /// `Kernels::copy_header_blocks` with AVX2: the header bytes copied.
    HeaderBlocksAvx2,
    /// `Kernels::find_invalid_header_byte` with AVX-512 BW: the bytes it was given.
    FindInvalidHeaderByteAvx512,
    /// `Kernels::find_invalid_header_byte` with AVX2: the bytes it was given.
    FindInvalidHeaderByteAvx2,
    /// `Kernels::count_units` with AVX-512: the bytes counted.
    CountUnitsAvx512,
    /// `Kernels::count_units` with AVX2: the bytes counted.
    CountUnitsAvx2,
    /// `Kernels::utf8_blocks` with AVX-512: the bytes read.
    Utf8BlocksAvx512,
    /// `Kernels::utf8_blocks_checked` (the render's form) with AVX-512: the bytes read.
    Utf8BlocksCheckedAvx512,
    /// `Kernels::utf8_short` with AVX-512 (the wide short path): the bytes read.
    Utf8ShortAvx512,
    /// `Kernels::utf8_short` with SSSE3: the bytes read.
    BmpShortSsse3,
    /// `Kernels::two_byte_blocks` with SSSE3: the bytes read.
    TwoByteBlocksSsse3,
    /// `Kernels::three_byte_blocks` with SSSE3: the bytes read.
    ThreeByteBlocksSsse3,
    /// `Kernels::four_byte_blocks` with SSSE3: the bytes read.
    FourByteBlocksSsse3,
    /// The portable short plain copy (`copy::copy_short`): the bytes copied.
    CopyShort,
    /// The short text copy in words (`short::copy_text`): the bytes of `src` it read.
    ShortText,
    /// The portable 64-byte plain block copy (`copy::copy_plain_blocks`): the bytes copied.
    PlainBlocks,
    /// The word loop (`copy::copy_words`): the bytes of `src` it went through.
    CopyWords,
    /// The portable 32-byte windows (`copy::copy_windows`): the bytes of `src` they took.
    CopyWindows,
    /// The careful tail (`copy::copy_tail`): the bytes of `src` it went through.
    CopyTail,
    /// The copy past the first non-ASCII byte (`copy::copy_long`): 1 per call, since an
    /// ASCII text must not reach it at all.
    CopyLong,
    /// The portable count of UTF-16 units (`len::count_units`): the bytes counted.
    CountUnitsPortable,
    /// The portable search for an invalid header byte: the bytes it was given.
    FindInvalidHeaderBytePortable,
    /// The word loop's squeeze of a word of ASCII and at most two 2-byte chars
    /// (`swar::squeeze_two_byte_chars`): 8 per word.
    SqueezedWords,
    /// The portable run of 2-byte chars (`runs::two_byte_run`): the bytes read.
    TwoByteRuns,
    /// The portable run of 3-byte chars (`runs::three_byte_run`): the bytes read.
    ThreeByteRuns,
    /// The portable run of 4-byte chars (`runs::four_byte_run`): the bytes read.
    FourByteRuns,
    /// The out-of-line truncating loop of the UTF-16 input forms (`utf16::copy_units`), from
    /// 32 units on: the units copied.
    CopyUnits,
    /// The SSSE3 short step's check of the units it wrote, run where a byte it kept may not
    /// be a header byte: the units checked.
    BmpShortScanSsse3,
    /// The AVX2 and AVX-512 block kernels' blocks taken one at a time (after the AVX-512
    /// kernel's pairs of blocks), the last, overlapping one included: 64 per block tried.
    KernelSingleBlocks,
    /// The short-text copy's words of four 2-byte chars (`swar::two_byte_low_bytes`): 8
    /// per word.
    ShortTwoByteWords,
    /// `Kernels::four_byte_blocks` with SSSE3: 1 per call that took a step.
    FourByteCallsSsse3,
    /// The AVX-512 text kernel's loads and stores through a buffer, where 64 bytes from the
    /// text or the room would cross a page end: 1 each.
    PageBouncesAvx512,
}

impl Path {
    /// Every path, in the order of the counters.
    #[cfg(any(test, feature = "__counters"))]
    pub(crate) const ALL: [Path; 34] = [
        Path::AsciiBlocksAvx512,
        Path::AsciiBlocksAvx2,
        Path::HeaderBlocksAvx512,
        Path::HeaderBlocksAvx2,
        Path::FindInvalidHeaderByteAvx512,
        Path::FindInvalidHeaderByteAvx2,
        Path::CountUnitsAvx512,
        Path::CountUnitsAvx2,
        Path::Utf8BlocksAvx512,
        Path::Utf8BlocksCheckedAvx512,
        Path::Utf8ShortAvx512,
        Path::BmpShortSsse3,
        Path::TwoByteBlocksSsse3,
        Path::ThreeByteBlocksSsse3,
        Path::FourByteBlocksSsse3,
        Path::CopyShort,
        Path::ShortText,
        Path::PlainBlocks,
        Path::CopyWords,
        Path::CopyWindows,
        Path::CopyTail,
        Path::CopyLong,
        Path::CountUnitsPortable,
        Path::FindInvalidHeaderBytePortable,
        Path::SqueezedWords,
        Path::TwoByteRuns,
        Path::ThreeByteRuns,
        Path::FourByteRuns,
        Path::CopyUnits,
        Path::BmpShortScanSsse3,
        Path::KernelSingleBlocks,
        Path::ShortTwoByteWords,
        Path::FourByteCallsSsse3,
        Path::PageBouncesAvx512,
    ];

    /// The path's stable name, as the tests ask for it.
    #[cfg(any(test, feature = "__counters"))]
    pub(crate) const fn name(self) -> &'static str {
        match self {
            Path::AsciiBlocksAvx512 => "ascii_blocks_avx512",
            Path::AsciiBlocksAvx2 => "ascii_blocks_avx2",
            Path::HeaderBlocksAvx512 => "header_blocks_avx512",
            Path::HeaderBlocksAvx2 => "header_blocks_avx2",
            Path::FindInvalidHeaderByteAvx512 => "find_invalid_header_byte_avx512",
            Path::FindInvalidHeaderByteAvx2 => "find_invalid_header_byte_avx2",
            Path::CountUnitsAvx512 => "count_units_avx512",
            Path::CountUnitsAvx2 => "count_units_avx2",
            Path::Utf8BlocksAvx512 => "utf8_blocks_avx512",
            Path::Utf8BlocksCheckedAvx512 => "utf8_blocks_checked_avx512",
            Path::Utf8ShortAvx512 => "utf8_short_avx512",
            Path::BmpShortSsse3 => "bmp_short_ssse3",
            Path::TwoByteBlocksSsse3 => "two_byte_blocks_ssse3",
            Path::ThreeByteBlocksSsse3 => "three_byte_blocks_ssse3",
            Path::FourByteBlocksSsse3 => "four_byte_blocks_ssse3",
            Path::CopyShort => "copy_short",
            Path::ShortText => "short_text",
            Path::PlainBlocks => "plain_blocks",
            Path::CopyWords => "copy_words",
            Path::CopyWindows => "copy_windows",
            Path::CopyTail => "copy_tail",
            Path::CopyLong => "copy_long_calls",
            Path::CountUnitsPortable => "count_units_portable",
            Path::FindInvalidHeaderBytePortable => "find_invalid_header_byte_portable",
            Path::SqueezedWords => "squeezed_words",
            Path::TwoByteRuns => "two_byte_runs",
            Path::ThreeByteRuns => "three_byte_runs",
            Path::FourByteRuns => "four_byte_runs",
            Path::CopyUnits => "copy_units",
            Path::BmpShortScanSsse3 => "bmp_short_scan_ssse3",
            Path::KernelSingleBlocks => "kernel_single_blocks",
            Path::ShortTwoByteWords => "short_two_byte_words",
            Path::FourByteCallsSsse3 => "four_byte_calls_ssse3",
            Path::PageBouncesAvx512 => "page_bounces_avx512",
        }
    }
}

pub(crate) use crate::counting::add;
