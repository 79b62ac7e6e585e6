//! `low_bytes_to_buf` into the `BufMut`s a caller has: a growing `BytesMut` and `Vec`, a
//! fixed slice with sentinel bytes after it, and chains of slices whose chunk ends cut the
//! text anywhere (a surrogate pair included), at every kernel level, against `reference`.
#![cfg(feature = "bytes")]

use bytes::{BufMut, BytesMut};
use wirebytes_ascii::{levels, reference};
use wirebytes_testkit::Rng;
use wirebytes_testkit::text::random_text;

const SENTINEL: u8 = 0xA5;

fn expected(text: &str) -> Vec<u8> {
    let mut want = Vec::new();
    reference::low_bytes_to_vec(text, &mut want);
    want
}

/// Every destination shape, every level: the bytes written equal the reference's.
fn same(text: &str, rng: &mut Rng) {
    let want = expected(text);
    for level in levels::all() {
        let name = level.name();
        let mut bytes = BytesMut::from(&b"H: "[..]);
        level.low_bytes_to_buf(text, &mut bytes);
        assert_eq!(&bytes[3..], &want[..], "BytesMut, {name}, {text:?}");

        let mut vec = Vec::new();
        level.low_bytes_to_buf(text, &mut vec);
        assert_eq!(vec, want, "Vec, {name}, {text:?}");

        // A slice with room to spare: nothing past the units is touched.
        let mut buf = vec![SENTINEL; want.len() + 9];
        let mut slice = &mut buf[..];
        level.low_bytes_to_buf(text, &mut slice);
        assert_eq!(slice.len(), 9);
        assert_eq!(&buf[..want.len()], &want[..], "slice, {name}, {text:?}");
        assert!(buf[want.len()..].iter().all(|&b| b == SENTINEL), "{name}");

        // Three chunks, cut at two places.
        let cuts = [rng.below(want.len() + 1), rng.below(want.len() + 1)];
        let (first, second) = (cuts[0].min(cuts[1]), cuts[0].max(cuts[1]));
        let mut buf = vec![SENTINEL; want.len() + 2];
        let (a, rest) = buf.split_at_mut(first);
        let (b, c) = rest.split_at_mut(second - first);
        let mut chain = a.chain_mut(b).chain_mut(c);
        level.low_bytes_to_buf(text, &mut chain);
        assert_eq!(
            &buf[..want.len()],
            &want[..],
            "chain {cuts:?}, {name}, {text:?}"
        );
        assert_eq!(buf[want.len()..], [SENTINEL; 2], "{name}");
    }
}

#[test]
fn random_text_into_every_buf_mut() {
    let mut rng = Rng::new(0xB0F_0001);
    for _ in 0..wirebytes_testkit::scale_miri(2000, 200, 2) {
        let text = random_text(&mut rng, 10);
        same(&text, &mut rng);
    }
}

#[test]
fn chunks_of_every_small_size_cut_surrogate_pairs() {
    let text = "a\u{1F600}\u{E9}\u{1F680}\u{4E2D}\u{1F30D}bc\u{10FFFF}".repeat(3);
    let want = expected(&text);
    for level in levels::all() {
        for k in 1..=9 {
            let mut buf = vec![SENTINEL; want.len()];
            let (a, rest) = buf.split_at_mut(k);
            let (b, c) = rest.split_at_mut(k);
            level.low_bytes_to_buf(&text, &mut a.chain_mut(b).chain_mut(c));
            assert_eq!(buf, want, "chunks of {k}, {}", level.name());
        }
    }
}

/// A slice of every room from 0 to two past the text's units, at every level and in the
/// reference: with too little room, a panic and nothing written; with enough, the bytes and
/// nothing past them.
#[test]
fn too_little_room_panics_before_writing() {
    let texts = [
        "\u{4E2D}\u{6587}abc".to_owned(),
        "\u{1F600}\u{1F600}x".to_owned(),
        "\u{E9}".repeat(70),
        "ascii only, long enough for a block of sixty-four bytes and more".to_owned(),
    ];
    for text in &texts {
        let want = expected(text);
        let units = want.len();
        for room in 0..=units + 2 {
            let run = |put: &dyn Fn(&mut &mut [u8])| {
                let mut buf = vec![SENTINEL; room + 4];
                let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    let mut slice = &mut buf[..room];
                    put(&mut slice);
                }));
                (result.is_ok(), buf)
            };
            let (fits, buf) = run(&|slice| reference::low_bytes_to_buf(text, slice));
            assert_eq!(fits, room >= units, "reference, room {room}, {text:?}");
            let mut want_buf = vec![SENTINEL; room + 4];
            if fits {
                want_buf[..units].copy_from_slice(&want);
            }
            assert_eq!(buf, want_buf, "reference, room {room}, {text:?}");
            for level in levels::all() {
                let got = run(&|slice| level.low_bytes_to_buf(text, slice));
                assert_eq!(
                    got,
                    (fits, want_buf.clone()),
                    "{}, room {room}, {text:?}",
                    level.name()
                );
            }
        }
    }
}
