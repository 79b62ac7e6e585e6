//! `find_from`, `find_byte`, `rfind`, `contains`, `split_at`, `to_str`, and the readers'
//! `BufRead` and `Seek`, on every representation, against the flat bytes.

mod common;

use std::borrow::Cow;
use std::io::{BufRead, Cursor, Read, Seek, SeekFrom};

use common::{Rng, SIZES, shapes};
use rstest::rstest;
use wirebytes_rope::{ByteString, reference};

/// Content over a three-letter alphabet, so that needles meet many partial matches.
fn abc(len: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    (0..len).map(|_| b'a' + rng.below(3) as u8).collect()
}

/// Needles for `content`: empty, absent, random short ones, and pieces of the content itself
/// (so that matches exist, near the start and near the end).
fn needles(content: &[u8], rng: &mut Rng) -> Vec<Vec<u8>> {
    let mut out = vec![vec![], b"d".to_vec(), b"abcabcabcd".to_vec()];
    for len in [1, 2, 3, 5, 9] {
        out.push((0..len).map(|_| b'a' + rng.below(3) as u8).collect());
    }
    for len in [1, 4, 17, 70, 300] {
        if len <= content.len() {
            let at = rng.below(content.len() - len + 1);
            out.push(content[at..at + len].to_vec());
            out.push(content[content.len() - len..].to_vec());
        }
    }
    out
}

#[test]
fn find_from_rfind_contains_find_byte_match_the_naive_search() {
    for &n in SIZES {
        let content = abc(n, n as u64);
        let mut rng = Rng::new(100 + n as u64);
        for (shape, s) in shapes(&content, n as u64) {
            for needle in needles(&content, &mut rng) {
                let ctx = format!("{shape} len {n} needle {needle:?}");
                assert_eq!(
                    s.rfind(&needle),
                    reference::rfind_naive(&content, &needle),
                    "{ctx}"
                );
                assert_eq!(
                    s.contains(&needle),
                    reference::find_naive(&content, &needle).is_some(),
                    "{ctx}"
                );
                let step = (n / 40).max(1);
                for from in (0..=n + 1).step_by(step).chain([n, n + 1]) {
                    let expected = content
                        .get(from..)
                        .and_then(|rest| reference::find_naive(rest, &needle))
                        .map(|p| p + from);
                    assert_eq!(s.find_from(&needle, from), expected, "{ctx} from {from}");
                }
            }
            for byte in b'a'..=b'd' {
                assert_eq!(
                    s.find_byte(byte),
                    content.iter().position(|&b| b == byte),
                    "{shape} len {n}"
                );
            }
        }
    }
}

#[rstest]
#[case::empty_needle_at_every_offset(b"", &[Some(0), Some(1), Some(2), Some(3), None])]
#[case::one_byte(b"b", &[Some(1), Some(1), None, None, None])]
#[case::across(b"bc", &[Some(1), Some(1), None, None, None])]
fn find_from_follows_str(#[case] needle: &[u8], #[case] expected: &[Option<usize>]) {
    let s = ByteString::from_static(b"ab").concat(&ByteString::from_static(b"c"));
    let text = "abc";
    for (from, &want) in expected.iter().enumerate() {
        assert_eq!(s.find_from(needle, from), want, "from {from}");
        let std = text
            .get(from..)
            .and_then(|t| t.find(std::str::from_utf8(needle).unwrap()))
            .map(|p| p + from);
        assert_eq!(std, want, "str agrees at {from}");
    }
    assert_eq!(s.rfind(b""), Some(3));
}

#[test]
fn split_at_every_offset() {
    for &n in &SIZES[..12] {
        let content = abc(n, 7);
        for (shape, s) in shapes(&content, 7) {
            for mid in 0..=n {
                let (a, b) = s.split_at(mid);
                assert_eq!(a, content[..mid], "{shape} {mid}");
                assert_eq!(b, content[mid..], "{shape} {mid}");
            }
        }
    }
}

#[test]
#[should_panic(expected = "ByteString::split_at: mid 4 is out of bounds for a string of length 3")]
fn split_at_past_the_end_panics() {
    let _ = ByteString::from_static(b"abc").split_at(4);
}

#[test]
fn to_str_matches_std_on_text_and_on_broken_bytes() {
    let mut rng = Rng::new(9);
    for round in 0..200 {
        let text = wirebytes_testkit::text::random_text(&mut rng, 8);
        let mut bytes = text.into_bytes();
        if round % 2 == 1 && !bytes.is_empty() {
            // Break it: a stray continuation byte, a truncated sequence or 0xff.
            let at = rng.below(bytes.len());
            bytes[at] = *rng.pick(&[0x80, 0xc3, 0xe2, 0xff]);
        }
        let std = std::str::from_utf8(&bytes);
        for (shape, s) in shapes(&bytes, round) {
            let ours = s.to_str();
            match (&ours, &std) {
                (Ok(a), Ok(b)) => assert_eq!(a, b, "{shape}"),
                (Err(a), Err(b)) => assert_eq!(a, b, "{shape}"),
                _ => panic!("{shape}: {ours:?} against {std:?}"),
            }
            if s.fragment_count() <= 1 {
                assert!(
                    !matches!(ours, Ok(Cow::Owned(_))),
                    "{shape}: one fragment is borrowed"
                );
            }
        }
    }
}

/// Random seeks, reads and `read_until`s on `r` and on a `Cursor` over the flat bytes.
fn seek_and_read_like_a_cursor<R: BufRead + Seek>(mut r: R, flat: &[u8], seed: u64, ctx: &str) {
    let mut model = Cursor::new(flat);
    let mut rng = Rng::new(seed);
    let len = flat.len() as i64;
    for step in 0..60 {
        let ctx = format!("{ctx} step {step}");
        match rng.below(5) {
            0 => {
                let to = match rng.below(3) {
                    0 => SeekFrom::Start(rng.below(flat.len() + 3) as u64),
                    1 => SeekFrom::End(-(rng.below(flat.len() + 3) as i64)),
                    _ => SeekFrom::Current(rng.below(2 * flat.len() + 5) as i64 - len - 2),
                };
                let before = model.position();
                let want = model.seek(to).ok().filter(|&p| p <= len as u64);
                if want.is_none() {
                    model.set_position(before); // ours refuses a seek past the end
                }
                assert_eq!(r.seek(to).ok(), want, "{ctx} {to:?}");
            }
            1 => {
                let mut a = vec![0; rng.below(30)];
                let mut b = a.clone();
                assert_eq!(r.read(&mut a).is_ok(), model.read(&mut b).is_ok(), "{ctx}");
                // `Read::read` may stop at a fragment end; compare what both then hold.
                r.seek(SeekFrom::Start(model.position())).unwrap();
            }
            2 => {
                let (mut a, mut b) = (Vec::new(), Vec::new());
                let delim = b'a' + rng.below(4) as u8;
                assert_eq!(
                    r.read_until(delim, &mut a).unwrap(),
                    model.read_until(delim, &mut b).unwrap(),
                    "{ctx}"
                );
                assert_eq!(a, b, "{ctx}");
            }
            3 => {
                let buf = r.fill_buf().unwrap().to_vec();
                let rest = &flat[model.position() as usize..];
                assert_eq!(buf.is_empty(), rest.is_empty(), "{ctx}");
                assert!(rest.starts_with(&buf), "{ctx}");
                let n = rng.below(buf.len() + 1);
                r.consume(n);
                model.consume(n);
            }
            _ => {
                assert_eq!(r.stream_position().unwrap(), model.position(), "{ctx}");
            }
        }
    }
    let (mut a, mut b) = (Vec::new(), Vec::new());
    r.read_to_end(&mut a).unwrap();
    model.read_to_end(&mut b).unwrap();
    assert_eq!(a, b, "{ctx}: the rest");
}

#[test]
fn readers_buf_read_and_seek_follow_a_cursor() {
    for &n in SIZES {
        let content = abc(n, 11);
        for (shape, s) in shapes(&content, 11) {
            let ctx = format!("{shape} len {n}");
            seek_and_read_like_a_cursor(s.reader(), &content, n as u64, &ctx);
            seek_and_read_like_a_cursor(s.clone().into_reader(), &content, n as u64, &ctx);
        }
    }
}

#[test]
fn rfind_across_its_search_blocks() {
    // Longer than the 8 KiB blocks rfind gathers from the back, in small fragments, with
    // needles planted across every block boundary.
    let n = 30_000;
    let mut content = abc(n, 13);
    let mut rng = Rng::new(14);
    let s: ByteString = common::split_random(&content, &mut rng, 100)
        .into_iter()
        .collect();
    for m in [1, 2, 7, 40, 3000] {
        for boundary in [n - 8192, n - 2 * 8192, n - 3 * 8192, n - 4 * m] {
            for back in [0, 1, m / 2, m.saturating_sub(1)] {
                let at = boundary.saturating_sub(back).min(n - m);
                let needle = content[at..at + m].to_vec();
                assert_eq!(
                    s.rfind(&needle),
                    reference::rfind_naive(&content, &needle),
                    "m {m} at {at}"
                );
            }
        }
        let absent = vec![b'd'; m];
        assert_eq!(s.rfind(&absent), None);
    }
    // A unique marker just before a block boundary, nothing like it after.
    content[n - 8192 - 2..n - 8192 + 2].copy_from_slice(b"WXYZ");
    let s: ByteString = common::split_random(&content, &mut rng, 50)
        .into_iter()
        .collect();
    assert_eq!(s.rfind(b"WXYZ"), Some(n - 8192 - 2));
    assert_eq!(s.find_from(b"WXYZ", 3), Some(n - 8192 - 2));
}
