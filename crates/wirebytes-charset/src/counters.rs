//! Test-only counters of what each kernel and each portable fast path handled. With the
//! hidden feature `__counters` every [`add`] goes to a counter of the calling thread, read through
//! `levels::counts`; without it [`add`] is empty and compiles to nothing, so a default or
//! bench build pays nothing.

/// A kernel, or a portable fast path worth watching. Unless its doc says otherwise, the
/// count is the bytes of UTF-8 input the path handled.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(
    not(wirebytes_x86_kernels),
    allow(
        dead_code,
        reason = "the kernels' paths are counted only where they are built"
    )
)]
pub(crate) enum Path {
    /// The SSSE3 Latin-1 window kernel: [`BLOCK`](crate::single_byte::BLOCK) per window it
    /// took.
    Latin1WindowSsse3,
    /// The SSSE3 single-byte table window kernel: `BLOCK` per window it took.
    TableWindowSsse3,
    /// The AVX-512 single-byte table window kernel: `BLOCK` per window it took.
    TableWindowAvx512,
    /// The SSSE3 3-byte-run kernel: the bytes of input it decoded.
    ThreeByteUtf16Ssse3,
    /// The AVX2 3-byte-run kernel: the bytes of input it decoded.
    ThreeByteUtf16Avx2,
    /// The SSSE3 ASCII lookup of the charsets where ASCII is not its own byte: the bytes it
    /// translated.
    ByteMapSsse3,
    /// The AVX-512 VBMI ASCII lookup: the bytes it translated.
    ByteMapAvx512,
    /// The AVX2 all-ASCII check: the bytes it checked.
    IsAsciiAvx2,
    /// The CPU asked which kernels it has: 1 per question.
    Detect,
    /// The portable Latin-1 window (`latin1::latin1_window`): `BLOCK` per window it took.
    Latin1WindowPortable,
    /// The portable ASCII lookup of the charsets where ASCII is not its own byte, 64 bytes
    /// at a time: the bytes it translated.
    ByteMapPortable,
    /// A text all ASCII in an ASCII-compatible single- or multi-byte charset, copied whole.
    AsciiWhole,
    /// The leading ASCII of such a text before its first other char, copied in one go.
    AsciiPrefix,
    /// A text to UTF-8, copied whole.
    Utf8Copy,
    /// `encode_string`'s text handed back as the output, its buffer reused.
    OwnedReuse,
    /// A block of the single-byte path that is all ASCII, copied.
    SingleByteAsciiBlock,
    /// A block of one- and two-byte chars through `single_byte::two_byte_block`.
    TwoByteBlock,
    /// The crate's own UTF-8 to UTF-16 decoder (mostly 3-byte text, where the 3-byte-run
    /// kernel is in the set): the bytes of the pieces it decoded.
    Utf16OwnDecoder,
    /// US-ASCII under the JDK's replacement, eight bytes at a time.
    UsAsciiWords,
    /// The 64-byte blocks of such a leading ASCII that its search skipped whole: the bytes
    /// of those blocks.
    AsciiPrefixBlocks,
    /// The streaming encoder's one-char step into a slice, through its hold buffer (where
    /// the worst case of the input left does not fit): the units it took.
    EncoderOneChar,
    /// ASCII in a JDK multi-byte charset, eight bytes at a time: the bytes.
    JdkAsciiWords,
    /// ASCII in a WHATWG multi-byte charset with an encode table, eight bytes at a time: the
    /// bytes.
    MultiByteAsciiWords,
    /// `single_byte::window_run`'s appends to the output (its first window's, one per
    /// thousand bytes or so, the last): 1 per append.
    WindowRunAppends,
    /// The table window kernel's tries that it declined at once (its first window), after
    /// which the back-off sends blocks the table path: 1 per try.
    WindowRunDeclines,
    /// The crate's own UTF-8 to UTF-16 decoder's last bytes, char by char: the units.
    Utf16OwnTail,
    /// The AVX2 ASCII-run kernel to UTF-16: the bytes it widened.
    AsciiUtf16Avx2,
    /// The AVX-512 ASCII-run kernel to UTF-16: the bytes it widened (its AVX2 steps
    /// included).
    AsciiUtf16Avx512,
    /// The AVX2 ASCII-run kernel to UTF-32: the bytes it widened.
    AsciiUtf32Avx2,
    /// The AVX-512 ASCII-run kernel to UTF-32: the bytes it widened (its AVX2 steps
    /// included).
    AsciiUtf32Avx512,
    /// The AVX-512 kernel of UTF-8 of any kind to UTF-16 or UTF-32: the bytes it read.
    Utf8UnitsAvx512,
    /// The AVX2 kernel of UTF-8 of any kind to UTF-16 or UTF-32: the bytes it read.
    Utf8UnitsAvx2,
    /// The same kernel's UTF-32 steps of sixteen bytes: 16 per step.
    Utf32WideAvx2,
    /// The AVX-512 kernel of UTF-8 to Latin-1 bytes: the bytes it read.
    Latin1BytesAvx512,
    /// The AVX2 count of chars or UTF-16 units: the bytes it counted.
    CountUnitsAvx2,
    /// The AVX-512 count of chars or UTF-16 units: the bytes it counted.
    CountUnitsAvx512,
    /// The AVX2 kernel of UTF-8 to Latin-1 bytes: the bytes it read.
    Latin1BytesAvx2,
    /// UTF-16 input to UTF-8, written a run at a time into the sink's room: the units read.
    Utf16ToUtf8Run,
    /// UTF-16 input to UTF-8 outside the kernels: the units of the runs of ASCII taken in
    /// whole chunks of sixteen.
    Utf16AsciiChunks,
    /// UTF-16 input to a single-byte charset, sixteen units that all map at a time: the
    /// units.
    Utf16TableChunks,
    /// UTF-16 input to the JDK's ISO-8859-1, a run of units below U+0100 written in one go
    /// by the portable code: the units.
    Utf16Latin1Run,
    /// The AVX2 kernel of UTF-16 units to Latin-1 bytes: the units it took.
    Utf16Latin1Avx2,
    /// The AVX-512 kernel of UTF-16 units to Latin-1 bytes: the units it took.
    Utf16Latin1Avx512,
    /// The AVX-512 kernel of UTF-16 units to UTF-8: the units it took.
    Utf16Utf8Avx512,
    /// The AVX2 kernel of UTF-16 units to UTF-8: the units it took.
    Utf16Utf8Avx2,
    /// The AVX2 counts of UTF-16 input: the units counted.
    Utf16CountsAvx2,
    /// The AVX-512 counts of UTF-16 input: the units counted.
    Utf16CountsAvx512,
    /// The AVX2 greatest unit of UTF-16 input: the units read.
    Utf16MaxAvx2,
    /// The AVX-512 greatest unit of UTF-16 input: the units read.
    Utf16MaxAvx512,
    /// The AVX2 count of surrogate pairs of UTF-16 input: the units read.
    Utf16PairsAvx2,
    /// The AVX-512 count of surrogate pairs of UTF-16 input: the units read.
    Utf16PairsAvx512,
    /// The 3-byte-run kernel asked by a multi-byte charset's encoder, decoding nothing
    /// (the bytes at hand are not a run of 3-byte chars): 1 per such try.
    ThreeByteRunDeclines,
    /// UTF-16 input to UTF-8, the rounds of the run writer (one per room the sink gave):
    /// 1 per round.
    Utf16ToUtf8Rounds,
}

impl Path {
    /// Every path, in the order of the counters.
    #[cfg(any(test, feature = "__counters"))]
    pub(crate) const ALL: [Path; 53] = [
        Path::Latin1WindowSsse3,
        Path::TableWindowSsse3,
        Path::TableWindowAvx512,
        Path::ThreeByteUtf16Ssse3,
        Path::ThreeByteUtf16Avx2,
        Path::ByteMapSsse3,
        Path::ByteMapAvx512,
        Path::IsAsciiAvx2,
        Path::Detect,
        Path::Latin1WindowPortable,
        Path::ByteMapPortable,
        Path::AsciiWhole,
        Path::AsciiPrefix,
        Path::Utf8Copy,
        Path::OwnedReuse,
        Path::SingleByteAsciiBlock,
        Path::TwoByteBlock,
        Path::Utf16OwnDecoder,
        Path::UsAsciiWords,
        Path::AsciiPrefixBlocks,
        Path::EncoderOneChar,
        Path::JdkAsciiWords,
        Path::MultiByteAsciiWords,
        Path::WindowRunAppends,
        Path::WindowRunDeclines,
        Path::Utf16OwnTail,
        Path::AsciiUtf16Avx2,
        Path::AsciiUtf16Avx512,
        Path::AsciiUtf32Avx2,
        Path::AsciiUtf32Avx512,
        Path::Utf8UnitsAvx512,
        Path::Utf8UnitsAvx2,
        Path::Utf32WideAvx2,
        Path::Latin1BytesAvx512,
        Path::CountUnitsAvx2,
        Path::CountUnitsAvx512,
        Path::Latin1BytesAvx2,
        Path::Utf16ToUtf8Run,
        Path::Utf16AsciiChunks,
        Path::Utf16TableChunks,
        Path::Utf16Latin1Run,
        Path::Utf16Latin1Avx2,
        Path::Utf16Latin1Avx512,
        Path::Utf16Utf8Avx512,
        Path::Utf16Utf8Avx2,
        Path::Utf16CountsAvx2,
        Path::Utf16CountsAvx512,
        Path::Utf16MaxAvx2,
        Path::Utf16MaxAvx512,
        Path::Utf16PairsAvx2,
        Path::Utf16PairsAvx512,
        Path::ThreeByteRunDeclines,
        Path::Utf16ToUtf8Rounds,
    ];

    /// The path's stable name, as the tests read it.
    #[cfg(any(test, feature = "__counters"))]
    pub(crate) const fn name(self) -> &'static str {
        match self {
            Path::Latin1WindowSsse3 => "latin1_window_ssse3",
            Path::TableWindowSsse3 => "table_window_ssse3",
            Path::TableWindowAvx512 => "table_window_avx512",
            Path::ThreeByteUtf16Ssse3 => "three_byte_utf16_ssse3",
            Path::ThreeByteUtf16Avx2 => "three_byte_utf16_avx2",
            Path::ByteMapSsse3 => "byte_map_ssse3",
            Path::ByteMapAvx512 => "byte_map_avx512",
            Path::IsAsciiAvx2 => "is_ascii_avx2",
            Path::Detect => "detect",
            Path::Latin1WindowPortable => "latin1_window_portable",
            Path::ByteMapPortable => "byte_map_portable",
            Path::AsciiWhole => "ascii_whole",
            Path::AsciiPrefix => "ascii_prefix",
            Path::Utf8Copy => "utf8_copy",
            Path::OwnedReuse => "owned_reuse",
            Path::SingleByteAsciiBlock => "single_byte_ascii_block",
            Path::TwoByteBlock => "two_byte_block",
            Path::Utf16OwnDecoder => "utf16_own_decoder",
            Path::UsAsciiWords => "us_ascii_words",
            Path::AsciiPrefixBlocks => "ascii_prefix_blocks",
            Path::EncoderOneChar => "encoder_one_char",
            Path::JdkAsciiWords => "jdk_ascii_words",
            Path::MultiByteAsciiWords => "multi_byte_ascii_words",
            Path::WindowRunAppends => "window_run_appends",
            Path::WindowRunDeclines => "window_run_declines",
            Path::Utf16OwnTail => "utf16_own_tail",
            Path::AsciiUtf16Avx2 => "ascii_utf16_avx2",
            Path::AsciiUtf16Avx512 => "ascii_utf16_avx512",
            Path::AsciiUtf32Avx2 => "ascii_utf32_avx2",
            Path::AsciiUtf32Avx512 => "ascii_utf32_avx512",
            Path::Utf8UnitsAvx512 => "utf8_units_avx512",
            Path::Utf8UnitsAvx2 => "utf8_units_avx2",
            Path::Utf32WideAvx2 => "utf32_wide_avx2",
            Path::Latin1BytesAvx512 => "latin1_bytes_avx512",
            Path::CountUnitsAvx2 => "count_units_avx2",
            Path::CountUnitsAvx512 => "count_units_avx512",
            Path::Latin1BytesAvx2 => "latin1_bytes_avx2",
            Path::Utf16ToUtf8Run => "utf16_to_utf8_run",
            Path::Utf16AsciiChunks => "utf16_ascii_chunks",
            Path::Utf16TableChunks => "utf16_table_chunks",
            Path::Utf16Latin1Run => "utf16_latin1_run",
            Path::Utf16Latin1Avx2 => "utf16_latin1_avx2",
            Path::Utf16Latin1Avx512 => "utf16_latin1_avx512",
            Path::Utf16Utf8Avx512 => "utf16_utf8_avx512",
            Path::Utf16Utf8Avx2 => "utf16_utf8_avx2",
            Path::Utf16CountsAvx2 => "utf16_counts_avx2",
            Path::Utf16CountsAvx512 => "utf16_counts_avx512",
            Path::Utf16MaxAvx2 => "utf16_max_avx2",
            Path::Utf16MaxAvx512 => "utf16_max_avx512",
            Path::Utf16PairsAvx2 => "utf16_pairs_avx2",
            Path::Utf16PairsAvx512 => "utf16_pairs_avx512",
            Path::ThreeByteRunDeclines => "three_byte_run_declines",
            Path::Utf16ToUtf8Rounds => "utf16_to_utf8_rounds",
        }
    }
}

pub(crate) use crate::counting::add;
