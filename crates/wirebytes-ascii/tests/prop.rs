//! Property tests: random text (ASCII, Latin-1, CJK, emoji, any char) and random UTF-16 soup
//! (lone surrogates included), into destinations shorter and longer than the input; the fast
//! paths must equal the scalar reference byte for byte, bytes past the count included; the
//! forms with a kernel path at every kernel level this CPU has, and the appending forms after
//! a prefix, with and without spare capacity.

use proptest::prelude::*;
use wirebytes_ascii::{
    copy_low_bytes, copy_low_bytes_from_utf16, find_line_break, levels, low_bytes,
    low_bytes_from_utf16, low_bytes_from_utf16_to_vec, low_bytes_len, low_bytes_to_vec, reference,
};

/// A destination that holds `prefix` and has `spare` bytes of spare capacity.
fn destination(prefix: &[u8], spare: usize) -> Vec<u8> {
    let mut dst = Vec::with_capacity(prefix.len() + spare);
    dst.extend_from_slice(prefix);
    dst
}

const UNTOUCHED: u8 = 0xA5;

/// Runs of one kind of char, so that the fast path meets long ASCII runs as well as short ones.
fn text() -> impl Strategy<Value = String> {
    let run = prop_oneof![
        4 => proptest::collection::vec(proptest::char::range(' ', '~'), 0..80),
        2 => proptest::collection::vec(proptest::char::range('\u{0}', '\u{FF}'), 0..20),
        1 => proptest::collection::vec(proptest::char::range('\u{4E00}', '\u{9FFF}'), 0..20),
        1 => proptest::collection::vec(proptest::char::range('\u{1F300}', '\u{1F64F}'), 0..10),
        1 => proptest::collection::vec(any::<char>(), 0..10),
        1 => proptest::collection::vec(
            prop_oneof![Just('\u{010D}'), Just('\u{FF0A}'), Just('\r'), Just('\n')],
            0..3
        ),
    ];
    proptest::collection::vec(run, 0..12).prop_map(|runs| runs.into_iter().flatten().collect())
}

fn soup() -> impl Strategy<Value = Vec<u16>> {
    let unit = prop_oneof![
        4 => 0x20u16..0x7F,
        1 => 0x80u16..0x100,
        1 => 0xD800u16..0xE000,
        2 => any::<u16>(),
    ];
    proptest::collection::vec(unit, 0..400)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(wirebytes_testkit::scale_miri(2048, 256, 2) as u32))]

    #[test]
    fn str_equals_reference(
        text in text(),
        dst_len in 0usize..700,
        dst_offset in 0usize..16,
        shorter in any::<bool>(),
        prefix in proptest::collection::vec(any::<u8>(), 0..20),
        spare in 0usize..1200,
    ) {
        let units = reference::low_bytes_len(&text);
        prop_assert_eq!(low_bytes_len(&text), units);
        // Half the cases cut the destination inside the text.
        let dst_len = if shorter { dst_len % (units + 1) } else { dst_len };
        let mut fast = vec![UNTOUCHED; dst_offset + dst_len];
        let mut slow = vec![UNTOUCHED; dst_offset + dst_len];
        let n = copy_low_bytes(&text, &mut fast[dst_offset..]);
        let m = reference::copy_low_bytes(&text, &mut slow[dst_offset..]);
        prop_assert_eq!(n, m);
        prop_assert_eq!(n, units.min(dst_len));
        prop_assert_eq!(&fast, &slow);

        let owned = low_bytes(&text);
        prop_assert_eq!(owned.capacity(), units);
        prop_assert_eq!(&owned, &reference::low_bytes(&text));
        prop_assert_eq!(find_line_break(&owned), reference::find_line_break(&owned));

        let mut want = prefix.clone();
        reference::low_bytes_to_vec(&text, &mut want);
        let mut got = destination(&prefix, spare);
        low_bytes_to_vec(&text, &mut got);
        prop_assert_eq!(&got, &want);

        for level in levels::all() {
            prop_assert_eq!(level.low_bytes_len(&text), units, "{}", level.name());
            let owned = level.low_bytes(&text);
            prop_assert_eq!(owned.capacity(), units, "{}", level.name());
            prop_assert_eq!(&owned, &reference::low_bytes(&text), "{}", level.name());
            let mut got = destination(&prefix, spare);
            level.low_bytes_to_vec(&text, &mut got);
            prop_assert_eq!(&got, &want, "{}", level.name());
        }

        // The same text as UTF-16 units takes the other path to the same bytes.
        let utf16: Vec<u16> = text.encode_utf16().collect();
        prop_assert_eq!(low_bytes_from_utf16(&utf16), owned);
        let mut got = destination(&prefix, spare);
        low_bytes_from_utf16_to_vec(&utf16, &mut got);
        prop_assert_eq!(&got, &want);
    }

    #[test]
    fn utf16_equals_reference(
        units in soup(),
        dst_len in 0usize..500,
        dst_offset in 0usize..16,
        src_offset in 0usize..16,
        shorter in any::<bool>(),
        prefix in proptest::collection::vec(any::<u8>(), 0..20),
        spare in 0usize..500,
    ) {
        let src = &units[src_offset.min(units.len())..];
        let dst_len = if shorter { dst_len % (src.len() + 1) } else { dst_len };
        let mut fast = vec![UNTOUCHED; dst_offset + dst_len];
        let mut slow = vec![UNTOUCHED; dst_offset + dst_len];
        let n = copy_low_bytes_from_utf16(src, &mut fast[dst_offset..]);
        let m = reference::copy_low_bytes_from_utf16(src, &mut slow[dst_offset..]);
        prop_assert_eq!(n, m);
        prop_assert_eq!(n, src.len().min(dst_len));
        prop_assert_eq!(&fast, &slow);

        let owned = low_bytes_from_utf16(src);
        prop_assert_eq!(owned.capacity(), src.len());
        prop_assert_eq!(&owned, &reference::low_bytes_from_utf16(src));

        let mut want = prefix.clone();
        reference::low_bytes_from_utf16_to_vec(src, &mut want);
        let mut got = destination(&prefix, spare);
        low_bytes_from_utf16_to_vec(src, &mut got);
        prop_assert_eq!(got, want);
    }

    #[test]
    fn line_break_equals_reference(bytes in proptest::collection::vec(
        prop_oneof![8 => any::<u8>(), 1 => Just(b'\r'), 1 => Just(b'\n')], 0..300)
    ) {
        prop_assert_eq!(find_line_break(&bytes), reference::find_line_break(&bytes));
    }
}
