//! `compat`'s functions against the `cesu8` crate's, whose names and signatures they take: the
//! same bytes out, the same text wherever both accept, and a difference only where the module
//! docs say (raw `00` or an overlong form accepted here, a 4-byte sequence in valid UTF-8
//! accepted there).

use std::borrow::Cow;

use rstest::rstest;
use wirebytes_mutf8::compat::{from_java_cesu8, to_java_cesu8};
use wirebytes_testkit::{Rng, mutf8, text};

/// Whether bytes the JDK accepts hold a raw `00` or an overlong form other than `C0 80`: a
/// two-byte sequence with lead `C0` or `C1` (but `C0 80`) or a three-byte one `E0 80..9F xx`.
fn has_raw_nul_or_overlong(bytes: &[u8]) -> bool {
    let mut i = 0;
    while i < bytes.len() {
        let lead = bytes[i];
        match lead {
            0 => return true,
            0x01..0x80 => i += 1,
            0xC0 | 0xC1 if bytes[i..].starts_with(b"\xc0\x80") => i += 2,
            0xC0 | 0xC1 => return true,
            0xC2..0xE0 => i += 2,
            0xE0 if bytes[i + 1] < 0xA0 => return true,
            _ => i += 3,
        }
    }
    false
}

/// One input both ways: where both accept, the same text, both borrowed or both owned; where
/// they differ, for the documented reason. Returns which of the four cases it was.
fn compare(bytes: &[u8]) -> (bool, bool) {
    let ours = from_java_cesu8(bytes);
    let theirs = cesu8::from_java_cesu8(bytes);
    match (&ours, &theirs) {
        (Ok(ours), Ok(theirs)) => {
            assert_eq!(ours, theirs, "{bytes:x?}");
            assert_eq!(
                matches!(ours, Cow::Borrowed(_)),
                matches!(theirs, Cow::Borrowed(_)),
                "{bytes:x?}"
            );
        }
        (Ok(_), Err(_)) => assert!(has_raw_nul_or_overlong(bytes), "{bytes:x?}"),
        (Err(err), Ok(_)) => {
            assert!(std::str::from_utf8(bytes).is_ok(), "{bytes:x?}");
            assert_eq!(bytes[err.valid_up_to()] & 0xF8, 0xF0, "{bytes:x?}: {err}");
        }
        (Err(_), Err(_)) => {}
    }
    (ours.is_ok(), theirs.is_ok())
}

#[rstest]
#[case::plain(b"java/lang/String", true, true)]
#[case::c0_80(b"a\xc0\x80b", true, true)]
#[case::pair(b"\xed\xa0\xbd\xed\xb8\x80", true, true)]
#[case::two_and_three_bytes(b"\xd0\xb6\xe4\xb8\xad", true, true)]
#[case::raw_nul_in_utf8(b"a\x00b", true, true)]
#[case::raw_nul_beside_a_pair(b"\x00\xed\xa0\xbd\xed\xb8\x80", true, false)]
#[case::four_bytes_in_utf8(b"\xf0\x9f\x98\x80", false, true)]
#[case::four_bytes_beside_c0_80(b"\xc0\x80\xf0\x9f\x98\x80", false, false)]
#[case::overlong_two(b"\xc1\x81", true, false)]
#[case::overlong_three(b"\xe0\x80\x80", true, false)]
#[case::lone_surrogate(b"\xed\xa0\xbd", false, false)]
#[case::cut(b"\xe4\xb8", false, false)]
#[case::continuation_lead(b"\x80", false, false)]
fn the_documented_table(#[case] bytes: &[u8], #[case] ours: bool, #[case] theirs: bool) {
    assert_eq!(compare(bytes), (ours, theirs));
}

/// Random bodies of accepted and rejected pieces: every one of the four outcomes is seen, and
/// each is as documented.
#[test]
fn random_bodies_differ_only_as_documented() {
    let pieces: Vec<&'static [u8]> = mutf8::ACCEPTED
        .iter()
        .chain(mutf8::REJECTED)
        .chain([&b"\xf0\x9f\x98\x80"[..], b"\xf4\x8f\xbf\xbf"].iter())
        .copied()
        .collect();
    let mut rng = Rng::new(0xC0_5E58);
    let mut seen = [[0usize; 2]; 2];
    for _ in 0..wirebytes_testkit::scale_miri(20_000, 20_000, 300) {
        let mut bytes = Vec::new();
        for _ in 0..rng.below(6) {
            // Mostly accepted pieces, so that both accept often enough.
            let piece = if rng.one_in(4) {
                *rng.pick(&pieces)
            } else {
                *rng.pick(mutf8::PLAIN_TEXT)
            };
            bytes.extend_from_slice(piece);
        }
        let (ours, theirs) = compare(&bytes);
        seen[usize::from(ours)][usize::from(theirs)] += 1;
    }
    for (ours, row) in seen.iter().enumerate() {
        for (theirs, &count) in row.iter().enumerate() {
            assert!(count > 0, "ours {ours}, theirs {theirs}: {seen:?}");
        }
    }
}

/// `to_java_cesu8` writes the `cesu8` crate's bytes, borrowed exactly where it borrows, and
/// `from_java_cesu8` reads them back.
#[test]
fn encoding_is_the_same_bytes() {
    let mut rng = Rng::new(0x70_1A7A);
    let mut texts: Vec<String> = ["", "plain", "\0", "a\0b\u{1F600}", "\u{FFFF}\u{10000}"]
        .map(String::from)
        .into();
    for _ in 0..wirebytes_testkit::scale_miri(2_000, 2_000, 40) {
        let mut s = text::random_text(&mut rng, 6);
        if rng.one_in(3) {
            // A NUL at a random char boundary.
            let boundaries: Vec<usize> = s.char_indices().map(|(at, _)| at).collect();
            let at = boundaries.get(rng.below(boundaries.len() + 1)).copied();
            s.insert(at.unwrap_or(s.len()), '\0');
        }
        texts.push(s);
    }
    for text in &texts {
        let ours = to_java_cesu8(text);
        let theirs = cesu8::to_java_cesu8(text);
        assert_eq!(ours, theirs, "{text:?}");
        assert_eq!(
            matches!(ours, Cow::Borrowed(_)),
            matches!(theirs, Cow::Borrowed(_)),
            "{text:?}"
        );
        assert_eq!(from_java_cesu8(&ours).as_deref(), Ok(text.as_str()));
    }
}
