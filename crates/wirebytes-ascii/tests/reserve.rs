//! What the allocating and appending forms allocate, counted by a global allocator, at every
//! kernel level this CPU has: `low_bytes` and `low_bytes_from_utf16` allocate once and
//! exactly (capacity equal to length); `low_bytes_to_vec`, `render_header_value` and
//! `low_bytes_from_utf16_to_vec` reserve at most once, nothing when the spare capacity holds
//! `src.len()` bytes, and otherwise what `Vec::reserve` of the documented count gives (the
//! UTF-16 units of a `&str`, the length of a `&[u16]`), never the UTF-8 length.

use wirebytes_ascii::{levels, reference};
use wirebytes_testkit::Rng;
use wirebytes_testkit::alloc::{CountingAlloc, allocations};
use wirebytes_testkit::text::{EDGE_CHARS, random_text};

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc;

/// Texts whose UTF-8 length is far from their units (CJK: 3 bytes a unit; emoji: 2), whose
/// units are their bytes (ASCII), empty, one char, and random text.
fn texts() -> Vec<String> {
    let mut texts = vec![
        String::new(),
        "a".to_owned(),
        "x".repeat(300),
        "\u{4E2D}".repeat(100),
        "\u{1F600}".repeat(40),
        "\u{E9}a\u{4E2D}\u{1F600}".repeat(33),
    ];
    texts.extend(EDGE_CHARS.iter().map(|c| c.to_string()));
    let mut rng = Rng::new(0x2E5E_0001);
    for _ in 0..wirebytes_testkit::scale_miri(300, 60, 4) {
        texts.push(random_text(&mut rng, 10));
    }
    texts
}

/// A vector holding `b"H: "` with exactly `spare` bytes of spare capacity.
fn with_spare(spare: usize) -> Vec<u8> {
    let mut dst = Vec::with_capacity(3 + spare);
    dst.extend_from_slice(b"H: ");
    dst.shrink_to(3 + spare);
    assert_eq!(dst.capacity(), 3 + spare);
    dst
}

/// The spare capacities tried for a source of `units` units and `len` bytes: none, one short
/// of the units, the units, between the units and the bytes, one short of the bytes, the
/// bytes, more.
fn spares(units: usize, len: usize) -> Vec<usize> {
    let mut spares = vec![
        0,
        units.saturating_sub(1),
        units,
        (units + len) / 2,
        len.saturating_sub(1),
        len,
        len + 7,
    ];
    spares.sort_unstable();
    spares.dedup();
    spares
}

/// Checks one append of `src_len` source bytes making `count` output bytes into `dst`, a
/// vector with `spare` bytes of spare capacity: the allocations, and the capacity after,
/// against a vector of the same length and capacity given `Vec::reserve(count)`.
fn check_reservation(
    what: &str,
    spare: usize,
    src_len: usize,
    count: usize,
    append: impl FnOnce(&mut Vec<u8>),
) {
    let mut dst = with_spare(spare);
    let mut model = with_spare(spare);
    model.reserve(count);
    let allocated = allocations(|| append(&mut dst));
    if spare >= src_len {
        assert_eq!(
            allocated, 0,
            "{what}: spare {spare} >= {src_len} source bytes"
        );
    }
    assert!(allocated <= 1, "{what}: {allocated} allocations");
    assert_eq!(dst.len(), 3 + count, "{what}");
    if spare < src_len {
        assert_eq!(
            dst.capacity(),
            model.capacity(),
            "{what}: reserved other than {count} with {spare} spare"
        );
    }
}

#[test]
fn low_bytes_allocates_once_and_exactly() {
    for text in texts() {
        let want = reference::low_bytes(&text);
        for level in levels::all() {
            let mut got = Vec::new();
            let allocated = allocations(|| got = level.low_bytes(&text));
            assert_eq!(got, want, "{}: {text:?}", level.name());
            assert_eq!(got.capacity(), want.len(), "{}: {text:?}", level.name());
            assert_eq!(
                allocated,
                usize::from(!want.is_empty()),
                "{}: {text:?}",
                level.name()
            );
        }
        let units: Vec<u16> = text.encode_utf16().collect();
        let mut got = Vec::new();
        let allocated = allocations(|| got = wirebytes_ascii::low_bytes_from_utf16(&units));
        assert_eq!(got, want, "{text:?}");
        assert_eq!(got.capacity(), want.len());
        assert_eq!(allocated, usize::from(!want.is_empty()));
    }
}

#[test]
fn low_bytes_to_vec_reserves_the_units_at_most_once() {
    for text in texts() {
        let units = reference::low_bytes_len(&text);
        for level in levels::all() {
            for spare in spares(units, text.len()) {
                let what = format!("low_bytes_to_vec, {}, {text:?}", level.name());
                check_reservation(&what, spare, text.len(), units, |dst| {
                    level.low_bytes_to_vec(&text, dst);
                });
                let what = format!("render_header_value, {}, {text:?}", level.name());
                let valid =
                    reference::find_invalid_header_byte(&reference::low_bytes(&text)).is_none();
                if valid {
                    check_reservation(&what, spare, text.len(), units, |dst| {
                        assert!(level.render_header_value(&text, dst).is_ok());
                    });
                }
            }
        }
    }
}

#[test]
fn render_header_value_reserves_as_low_bytes_to_vec_also_when_it_refuses() {
    for text in [
        "\u{4E2D}\u{010D}".repeat(20),
        format!("{}\r", "x".repeat(100)),
    ] {
        let units = reference::low_bytes_len(&text);
        for level in levels::all() {
            for spare in spares(units, text.len()) {
                let mut dst = with_spare(spare);
                let mut model = with_spare(spare);
                model.reserve(if spare >= text.len() { 0 } else { units });
                let allocated = allocations(|| level.render_header_value(&text, &mut dst));
                assert!(allocated <= 1, "{}: {allocated} allocations", level.name());
                assert_eq!(dst, b"H: ", "{}: dst unchanged", level.name());
                assert_eq!(dst.capacity(), model.capacity(), "{}", level.name());
            }
        }
    }
}

#[test]
fn low_bytes_from_utf16_to_vec_reserves_the_length_at_most_once() {
    for text in texts() {
        let units: Vec<u16> = text.encode_utf16().collect();
        for spare in spares(units.len(), units.len()) {
            let what = format!("low_bytes_from_utf16_to_vec, {text:?}");
            check_reservation(&what, spare, units.len(), units.len(), |dst| {
                wirebytes_ascii::low_bytes_from_utf16_to_vec(&units, dst);
            });
        }
    }
}
