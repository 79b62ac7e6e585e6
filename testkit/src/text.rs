//! Text to test with: samples of the world's scripts, the chars that sit on an edge (of a
//! UTF-8 length, of the low byte, of a legacy encoding), and random text in runs of one kind,
//! so that every kernel meets long runs of what it takes and every way such a run can end.

use crate::Rng;

/// A sample of each script the crates meet, by name: runs of 1-, 2-, 3- and 4-byte chars.
pub const SCRIPTS: &[(&str, &str)] = &[
    (
        "ascii",
        "The quick brown fox jumps over the lazy dog. 0123456789 {}[]<>\\~|",
    ),
    (
        "latin1",
        "Fête à Zürich: naïve café, smørrebrød, ¡señor! Ærø ÿ ß £10 ½ «»",
    ),
    (
        "cyrillic",
        "Съешь же ещё этих мягких французских булок, да выпей чаю. Ґґ Її Єє Ўў",
    ),
    ("greek", "Ξεσκεπάζω την ψυχοφθόρα βδελυγμία. ΆΈΉΊΌΎΏ"),
    ("hebrew", "דג סקרן שט בים מאוכזב ולפתע מצא חברה"),
    (
        "arabic",
        "نص حكيم له سر قاطع وذو شأن عظيم مكتوب على ثوب أخضر",
    ),
    ("thai", "เป็นมนุษย์สุดประเสริฐเลิศคุณค่า"),
    (
        "japanese",
        "日本語のテキスト、カタカナとひらがな。漢字：東京都",
    ),
    ("halfwidth", "ｱｲｳｴｵ ﾊﾟﾋﾟ ･ｰ"),
    ("chinese", "简体中文的文本编码测试，繁體中文的文字編碼測試"),
    ("korean", "다람쥐 헌 쳇바퀴에 타고파"),
    ("emoji", "😀🎉👍🏽 𝄞 𠀀"),
    ("punctuation", "€ “quoted” ‘single’ – — … • ™ ‰ †"),
    (
        "central-european",
        "Zażółć gęślą jaźń. Příliš žluťoučký kůň. Árvíztűrő tükörfúrógép.",
    ),
    ("vietnamese", "Tiếng Việt có dấu: ắ ằ ẳ ẵ ặ"),
];

/// The sample of the script named `name`.
///
/// # Panics
///
/// If no script of [`SCRIPTS`] has that name.
///
/// # Examples
///
/// ```
/// assert!(wirebytes_testkit::text::script("cyrillic").starts_with("Съешь"));
/// ```
#[must_use]
pub fn script(name: &str) -> &'static str {
    SCRIPTS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| *text)
        .unwrap_or_else(|| panic!("no script named {name:?}"))
}

/// Chars that sit on an edge: of the UTF-8 lengths (U+007F/U+0080, U+07FF/U+0800,
/// U+FFFF/U+10000, U+10FFFF), of the surrogate gap, of the low byte (U+010D and U+FF0D render
/// as CR, U+FF0A as LF, U+0100 as NUL), of the legacy encodings (ISO-2022-JP's ESC, SO and
/// SI, the JIS yen and overline, Shift_JIS's private-use tail, the C1 controls), and the BOM,
/// U+FFFD and NUL.
pub const EDGE_CHARS: &[char] = &[
    '\0',
    '\t',
    '\n',
    '\r',
    '\u{E}',
    '\u{F}',
    '\u{1B}',
    '\\',
    '~',
    '\u{7F}',
    '\u{80}',
    '\u{9F}',
    '\u{A0}',
    '\u{A5}',
    '\u{FF}',
    '\u{100}',
    '\u{10A}',
    '\u{10D}',
    '\u{11F}',
    '\u{7FF}',
    '\u{800}',
    '\u{203E}',
    '\u{20AC}',
    '\u{D7FF}',
    '\u{E000}',
    '\u{F780}',
    '\u{F7FF}',
    '\u{F800}',
    '\u{FEFF}',
    '\u{FF0A}',
    '\u{FF0D}',
    '\u{FF61}',
    '\u{FFFD}',
    '\u{FFFF}',
    '\u{10000}',
    '\u{1F600}',
    '\u{20000}',
    '\u{10FFFF}',
];

/// One char of each kind a copy loop tells apart: ASCII, 2-byte (Latin-1, U+07FF), 3-byte
/// (CJK; U+FF0A renders as LF), 4-byte (a pair; U+10FFFF the last), and U+010D, which
/// renders as CR. A text cycling through them changes kind at every char.
pub const KINDS: [&str; 8] = [
    "x",
    "\u{E9}",
    "\u{4E2D}",
    "\u{1F600}",
    "\u{010D}",
    "\u{FF0A}",
    "\u{7FF}",
    "\u{10FFFF}",
];

/// A random char of a random kind: ASCII, a control, Latin-1, any 2-byte, CJK, emoji, a
/// script's, an edge char, or any scalar value.
pub fn random_char(rng: &mut Rng) -> char {
    let kind = rng.below(9);
    char_of_kind(rng, kind)
}

/// A char of kind `kind` (0..9), see [`random_char`].
fn char_of_kind(rng: &mut Rng, kind: usize) -> char {
    let scalar = |base: u32, span: usize, rng: &mut Rng| {
        char::from_u32(base + rng.below(span) as u32).unwrap_or('\u{FFFD}')
    };
    match kind {
        0 => char::from(0x20 + rng.below(0x5F) as u8),
        1 => char::from(rng.below(0x80) as u8),
        2 => char::from(rng.below(0x100) as u8),
        3 => scalar(0x80, 0x780, rng),
        4 => scalar(0x4E00, 0x5200, rng),
        5 => scalar(0x1F300, 0x350, rng),
        6 => {
            let (_, sample) = rng.pick(SCRIPTS);
            let chars: Vec<char> = sample.chars().collect();
            *rng.pick(&chars)
        }
        7 => *rng.pick(EDGE_CHARS),
        _ => scalar(0, 0x11_0000, rng),
    }
}

/// Random text of up to `max_runs` runs, each of one kind (see [`random_char`]) or a slice of
/// a script's sample: ASCII runs up to 90 chars, CJK up to 60 (long enough for the
/// sixteen-char blocks of the kernels), others up to 24.
///
/// # Examples
///
/// ```
/// use wirebytes_testkit::{Rng, text};
///
/// let mut rng = Rng::new(1);
/// let texts: Vec<String> = (0..100).map(|_| text::random_text(&mut rng, 8)).collect();
/// assert!(texts.iter().any(|t| !t.is_ascii()));
/// ```
pub fn random_text(rng: &mut Rng, max_runs: usize) -> String {
    let mut text = String::new();
    for _ in 0..rng.below(max_runs + 1) {
        let kind = rng.below(10);
        let len = match kind {
            0 | 1 => rng.below(90),
            4 => rng.below(60),
            _ => rng.below(24),
        };
        if kind == 9 {
            let (_, sample) = rng.pick(SCRIPTS);
            text.extend(sample.chars().cycle().skip(rng.below(30)).take(len));
        } else {
            text.extend((0..len).map(|_| char_of_kind(rng, kind)));
        }
    }
    text
}

/// Random UTF-16 units, up to `max_len`: ASCII, Latin-1, lone surrogates of either half,
/// pairs, units whose low byte is a control, and any unit.
pub fn random_units(rng: &mut Rng, max_len: usize) -> Vec<u16> {
    let len = rng.below(max_len + 1);
    let mut out = Vec::with_capacity(len + 1);
    while out.len() < len {
        match rng.below(10) {
            0..=3 => out.push(0x20 + rng.below(0x5F) as u16),
            4 => out.push(rng.below(0x100) as u16),
            5 => out.push(0xD800 + rng.below(0x800) as u16),
            6 => {
                out.push(0xD800 + rng.below(0x400) as u16);
                out.push(0xDC00 + rng.below(0x400) as u16);
            }
            7 => out.push(*rng.pick(&[0x010D, 0xFF0A, 0xFF0D, 0x0100, 0xFFFF, 0xDBFF, 0xDC00])),
            _ => out.push(rng.next_u64() as u16),
        }
    }
    out
}

/// UTF-16 made of surrogates, with ASCII and a real pair among them: every triple of seven
/// pieces (lone halves, a reversed pair whose low bytes are LF and CR, a doubled high half,
/// a real pair, ASCII; under Miri a sample), each alone and again between 30 and 40 ASCII
/// units (inside a vector step); then long runs of lone halves: one high half repeated,
/// low and high alternating, and highs across their range.
#[must_use]
pub fn surrogate_soup() -> Vec<Vec<u16>> {
    let pieces: [&[u16]; 7] = [
        &[0xD800],
        &[0xDBFF],
        &[0xDFFF],
        &[0xDC0A, 0xD80D],
        &[0xD800, 0xD800],
        &[0xD83D, 0xDE00],
        &[0x41],
    ];
    let step = crate::scale_miri(1, 1, 3);
    let mut out = Vec::new();
    for a in pieces {
        for b in pieces.iter().step_by(step) {
            for c in pieces.iter().step_by(step) {
                out.push([a, b, c].concat());
                out.push([&[0x61; 30][..], a, b, c, &[0x62; 40][..]].concat());
            }
        }
    }
    out.push(core::iter::repeat_n(0xDBFF, 100).collect());
    out.push(
        (0..70)
            .map(|i| if i % 2 == 0 { 0xDC00 } else { 0xD800 })
            .collect(),
    );
    out.push((0..100).map(|i| 0xD800 + i * 20).collect());
    out
}

/// `unit`'s chars, cycled, to exactly `chars` chars.
///
/// # Examples
///
/// ```
/// assert_eq!(wirebytes_testkit::text::repeat_chars("ab€", 5), "ab€ab");
/// ```
#[must_use]
pub fn repeat_chars(unit: &str, chars: usize) -> String {
    unit.chars().cycle().take(chars).collect()
}

/// `text`'s chars in an order drawn by a Fisher-Yates shuffle: the same chars, as many of
/// each, so the same UTF-8 and UTF-16 lengths, but not the order a repeated sentence has.
///
/// # Examples
///
/// ```
/// use wirebytes_testkit::{Rng, text};
///
/// let mixed = text::shuffled_chars(&mut Rng::new(1), "aé€😀aé€😀");
/// assert_eq!(mixed.len(), "aé€😀aé€😀".len());
/// assert_eq!(mixed.chars().filter(|&c| c == '€').count(), 2);
/// ```
pub fn shuffled_chars(rng: &mut Rng, text: &str) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for i in (1..chars.len()).rev() {
        chars.swap(i, rng.below(i + 1));
    }
    chars.into_iter().collect()
}

/// `unit` repeated to at most `len` bytes, cut at a char boundary.
///
/// # Examples
///
/// ```
/// assert_eq!(wirebytes_testkit::text::repeat_to_len("aé", 5), "aéa"); // 4 bytes: é is 2
/// ```
#[must_use]
pub fn repeat_to_len(unit: &str, len: usize) -> String {
    let mut text = String::with_capacity(len + 4);
    while text.len() < len && !unit.is_empty() {
        text.push_str(unit);
    }
    let mut at = len.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    text.truncate(at);
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_text_meets_every_utf8_length_and_the_edges() {
        let mut rng = Rng::new(3);
        let mut lengths = [0usize; 5];
        let mut edges = 0;
        for _ in 0..2000 {
            for c in random_text(&mut rng, 6).chars() {
                lengths[c.len_utf8()] += 1;
                edges += usize::from(EDGE_CHARS.contains(&c));
            }
        }
        assert!(lengths[1..].iter().all(|&n| n > 1000), "{lengths:?}");
        assert!(edges > 100, "{edges}");
    }

    #[test]
    fn random_units_hold_lone_surrogates_and_pairs() {
        let mut rng = Rng::new(4);
        let units: Vec<u16> = (0..200).flat_map(|_| random_units(&mut rng, 40)).collect();
        let decoded: Vec<_> = char::decode_utf16(units.iter().copied()).collect();
        assert!(decoded.iter().any(Result::is_err));
        assert!(
            decoded
                .iter()
                .any(|c| c.as_ref().is_ok_and(|c| c.len_utf16() == 2))
        );
    }

    #[test]
    fn shuffled_chars_keeps_each_char_and_breaks_the_repetition() {
        let text = repeat_chars("Grüße aus Köln, 中文。", 1024);
        let mixed = shuffled_chars(&mut Rng::new(5), &text);
        let sorted = |t: &str| {
            let mut chars: Vec<char> = t.chars().collect();
            chars.sort_unstable();
            chars
        };
        assert_eq!(sorted(&mixed), sorted(&text));
        // No 16 chars in a row of the shuffled text stand in the order of the repeated one.
        let (mixed_chars, text_chars): (Vec<char>, Vec<char>) =
            (mixed.chars().collect(), text.chars().collect());
        let repeated: Vec<&[char]> = text_chars.windows(16).collect();
        assert!(mixed_chars.windows(16).all(|w| !repeated.contains(&w)));
        assert_ne!(mixed, shuffled_chars(&mut Rng::new(6), &text));
    }

    #[test]
    fn every_script_is_named_once() {
        for (i, (name, _)) in SCRIPTS.iter().enumerate() {
            assert!(
                SCRIPTS[i + 1..].iter().all(|(other, _)| other != name),
                "{name}"
            );
            assert_eq!(script(name), SCRIPTS[i].1);
        }
    }
}
