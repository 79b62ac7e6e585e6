//! Test-only counts of the calls each watched path took. With the hidden feature
//! `__counters` (the crate's own tests turn it on) each [`add`] is one addition to a
//! counter of the calling thread, read through [`crate::levels::counts`]; without it [`add`] is empty and compiles
//! to nothing, so a default or bench build pays nothing.

/// A path whose use the tests watch.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Path {
    /// The AVX-512 comparison of two fragment lists: one per call.
    EqChunksAvx512,
    /// The portable comparison of two fragment lists: one per call.
    EqChunksPortable,
    /// The search for one byte with `memchr` per fragment (`ByteQueue::find_byte`, and
    /// `find` of a one-byte needle): one per call.
    FindByte,
    /// The readers' fixed-width getters gathering their bytes across fragments (or reading a
    /// fragment's last bytes), not inside the current fragment: one per call.
    TakeAcross,
    /// The AVX-512 comparison's runs longer than its own loads take, left to the slice
    /// comparison: one per run.
    LongRunAvx512,
    /// The search for a needle of two bytes or more past the first fragment (the first one
    /// holding no match): one per call.
    FindAfterFirst,
    /// A short needle's search in one slice handing the rest to `memmem` after its
    /// candidates by the first byte ran out: one per slice.
    FindShortToMemmem,
    /// The bytes `ByteQueue::make_contiguous` copied to join fragments.
    QueueMergedBytes,
    /// The fragments after the first that `ByteQueue::find_byte_from` searched: one per
    /// fragment.
    FindByteWalkFragments,
    /// The long fragments a needle search past the first searched where they lie: one per
    /// fragment.
    FindInPlaceFragments,
    /// The needle searches past the first fragment that gathered into a heap buffer (long
    /// needles): one per search.
    FindHeapGathers,
    /// The `memmem` searchers built for a needle: one per searcher.
    FinderBuilds,
    /// The AVX-512 comparison's last bytes of a run compared as slices, where a masked
    /// load's 64 bytes would reach into the next page: one per run.
    PageDetoursAvx512,
}

impl Path {
    /// Every path, in the order of their counters.
    #[cfg(any(test, feature = "__counters"))]
    pub(crate) const ALL: [Path; 13] = [
        Path::EqChunksAvx512,
        Path::EqChunksPortable,
        Path::FindByte,
        Path::TakeAcross,
        Path::LongRunAvx512,
        Path::FindAfterFirst,
        Path::FindShortToMemmem,
        Path::QueueMergedBytes,
        Path::FindByteWalkFragments,
        Path::FindInPlaceFragments,
        Path::FindHeapGathers,
        Path::FinderBuilds,
        Path::PageDetoursAvx512,
    ];

    /// The path's name in [`crate::levels::counts`].
    #[cfg(any(test, feature = "__counters"))]
    pub(crate) fn name(self) -> &'static str {
        match self {
            Path::EqChunksAvx512 => "eq_chunks_avx512",
            Path::EqChunksPortable => "eq_chunks_portable",
            Path::FindByte => "find_byte",
            Path::TakeAcross => "take_across",
            Path::LongRunAvx512 => "long_run_avx512",
            Path::FindAfterFirst => "find_after_first",
            Path::FindShortToMemmem => "find_short_to_memmem",
            Path::QueueMergedBytes => "queue_merged_bytes",
            Path::FindByteWalkFragments => "find_byte_walk_fragments",
            Path::FindInPlaceFragments => "find_in_place_fragments",
            Path::FindHeapGathers => "find_heap_gathers",
            Path::FinderBuilds => "finder_builds",
            Path::PageDetoursAvx512 => "page_detours_avx512",
        }
    }
}

// `ALL` ends with the last path (the shared counters' test checks its order).
#[cfg(feature = "__counters")]
const _: () = assert!(
    Path::ALL.len() == Path::PageDetoursAvx512 as usize + 1,
    "a path missing from Path::ALL"
);

pub(crate) use crate::counting::add;
