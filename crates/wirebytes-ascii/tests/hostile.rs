//! Input an attacker picks, at the API's edge: UTF-16 made of surrogates (lone, reversed,
//! doubled, in every place) and a `BufMut` that offers one byte of room at a time (or
//! chunks of one byte chained), at every kernel level, against the reference. The low byte
//! of every unit is output, whatever the unit; nothing past the count is written.

use wirebytes_ascii::{
    copy_low_bytes_from_utf16, low_bytes_from_utf16, low_bytes_from_utf16_to_vec, reference,
};
use wirebytes_testkit::text::surrogate_soup;

const SENTINEL: u8 = 0xA5;

#[test]
fn surrogates_everywhere_in_utf16_input() {
    for units in surrogate_soup() {
        let want: Vec<u8> = units.iter().map(|&u| u as u8).collect();
        assert_eq!(reference::low_bytes_from_utf16(&units), want);
        assert_eq!(low_bytes_from_utf16(&units), want, "{units:04x?}");
        let mut appended = b"X: ".to_vec();
        low_bytes_from_utf16_to_vec(&units, &mut appended);
        assert_eq!(appended[..3], *b"X: ");
        assert_eq!(appended[3..], want, "{units:04x?}");
        for len in [
            0,
            1,
            units.len() / 2,
            units.len() - 1,
            units.len(),
            units.len() + 3,
        ] {
            let mut dst = vec![SENTINEL; len];
            let n = copy_low_bytes_from_utf16(&units, &mut dst);
            assert_eq!(n, len.min(units.len()));
            assert_eq!(dst[..n], want[..n], "{units:04x?} into {len}");
            assert!(dst[n..].iter().all(|&b| b == SENTINEL), "wrote past {n}");
        }
    }
}

#[cfg(feature = "bytes")]
#[test]
fn low_bytes_to_buf_into_one_byte_of_room_at_a_time() {
    use bytes::BufMut;
    use wirebytes_ascii::levels;
    use wirebytes_testkit::buf::OneByteRoom;

    let texts = [
        String::new(),
        "plain ASCII, long enough for a block of 64 bytes and then some more".to_owned(),
        "\u{1F600}\u{E9}\u{4E2D}".repeat(20),
        format!("{}\u{1F600}", "a".repeat(61)),
    ];
    for text in &texts {
        let want = reference::low_bytes(text);
        for level in levels::all() {
            let mut dst = OneByteRoom::with(b"head:");
            level.low_bytes_to_buf(text, &mut dst);
            assert_eq!(dst.bytes()[..5], *b"head:");
            assert_eq!(dst.bytes()[5..], want, "{}: {text:?}", level.name());

            // Fixed room: one-byte slices chained, as many as the text needs, and one more
            // that must stay as it was.
            let mut cells = vec![[SENTINEL]; want.len() + 1];
            let (fill, spare) = cells.split_at_mut(want.len());
            {
                let mut chain: Box<dyn BufMut> = Box::new(&mut spare[0][..0]);
                for cell in fill.iter_mut().rev() {
                    chain = Box::new((&mut cell[..]).chain_mut(chain));
                }
                level.low_bytes_to_buf(text, &mut chain);
                assert_eq!(chain.remaining_mut(), 0);
            }
            let got: Vec<u8> = fill.iter().map(|c| c[0]).collect();
            assert_eq!(got, want, "{}: {text:?}", level.name());
            assert_eq!(spare[0], [SENTINEL]);
        }
    }
}
