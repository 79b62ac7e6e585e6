//! Benches for wirebytes-charset: encoding a text body, the way `setBody(String)` does.
//!
//! One group, `charset/encode`; parameter `<input>-<encoding>/<chars>`. Functions:
//! - `baseline`: `wirebytes_charset::reference::encode`, the streaming encoder (one char at a
//!   time, a buffer that grows by copying), JDK replacement;
//! - `encoding_rs`: `Encoding::encode(..).into_owned()` (WHATWG replacement: for `mixed` it
//!   writes `&#128512;` where the others write `?`);
//! - `limit-memcpy`: `to_vec` of the UTF-8 bytes (ASCII inputs only: the bytes are the same);
//! - `ours`: `Charset::encode`, JDK replacement;
//! - `ours-portable`: the same without the SIMD kernels (`levels::get("portable")`), for the
//!   ASCII and Latin-1 inputs, whose fast paths have kernels.
//!
//! `charset/real-text`: 4 KiB bodies of realistic text (mostly script, ASCII spaces and
//! punctuation) in the legacy charset of their language; `baseline`, `encoding_rs`, `ours`,
//! and for the single-byte charsets on a CPU with AVX-512 `ours-avx2`: without the AVX-512
//! table window kernel, as on a CPU with AVX2 and SSSE3 only.
//!
//! `charset/jdk-single-byte`: real text in the JDK's single-byte charsets (EBCDIC, DOS, Mac,
//! and the JDK's windows-1252, KOI8-R, ISO-8859-2 beside their WHATWG twins): `baseline`,
//! `per-char-table` (every char looked up in a table of every BMP char), `ours`,
//! `ours-avx2`, `whatwg-ours` and `encoding_rs` for a twin, and `ascii-copy_low_bytes`
//! (wirebytes-ascii's copy of the same ASCII text) for English in EBCDIC.
//!
//! `charset/jdk-multi-byte`: real CJK text (4 KiB) in the JDK's multi-byte charsets:
//! `baseline`, `ours`, `ours-portable`, and `whatwg-ours` and `encoding_rs` on the WHATWG twin
//! where there is one.
//!
//! `charset/jdk-only`: the JDK's own charsets. `baseline`: the reference; `flat-map` (UTF-16
//! and UTF-32): `encode_utf16().flat_map(to_be_bytes)` (or `chars().flat_map`) collected;
//! `ours`; `ours-windows-1252` (ISO-8859-1 and US-ASCII): the same text through the
//! windows-1252 path, the speed to match.
//!
//! `charset/unicode`: the Unicode and Latin-1 targets (UTF-16BE, UTF-16LE, UTF-32LE,
//! ISO-8859-1) of ASCII, Latin-1, Cyrillic and Greek, CJK and emoji-heavy text of 1 KiB,
//! 16 KiB and 1 MiB: `ours` (`encode`), `ours-avx2` (on a CPU with AVX-512: as on one
//! with AVX2), and on x86-64 `simdutf` (the C++ library through the `simdutf` crate: its
//! length function, then its conversion of valid UTF-8 into a `Vec` of that length; the
//! same bytes, checked before timing). With `SIMDUTF_FORCE_IMPLEMENTATION` set (`haswell`,
//! say: simdutf reads it at its first call), the column is `simdutf-<implementation>`: run
//! with `haswell` to set `ours-avx2` against simdutf's AVX2 kernels in one run. Into a
//! reused buffer of the worst-case size with nothing counted first: `ours-to-slice`
//! (`encode_to_slice`), `ours-avx2-to-slice` and `simdutf-to-slice` (its conversion alone).
//!
//! `charset/from-utf16`: UTF-16 input (`&[u16]`, the same five texts and sizes) to UTF-8 and
//! ISO-8859-1 (Latin-1 text only): `baseline` (the reference, up to 16 KiB), `ours`
//! (`encode_from_utf16`) and on x86-64 `simdutf` (its length function, then its conversion
//! of valid UTF-16 into a `Vec` of that length), named as in `charset/unicode`; and into a
//! reused buffer of the worst-case size with nothing counted first: `ours-to-slice`
//! (`encode_from_utf16_to_slice`), `ours-avx2-to-slice` and `simdutf-to-slice` (its
//! conversion alone).
//!
//! `charset/into-buffers`: the functions that write into the caller's buffers, on German and
//! Japanese bodies: `limit-memcpy` (UTF-8 only: `to_vec`), `ours` (`encode`), `encoded_len`, `encode_to_vec` (into a reused
//! `Vec`), `encode_to_buf` (into a reused `BytesMut`), `encode_to_slice` (into a reused slice
//! of `max_encoded_len` bytes), `encoder-256` (the streaming `Encoder` in 256-byte chunks into
//! a reused `Vec`), `encoder-slices-256` (the streaming `Encoder` into a 256-byte slice, again
//! and again, each slice's bytes appended to a reused `Vec`).

use bytes::BytesMut;
use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main};
use wirebytes_benches::bench;
use wirebytes_charset::{Charset, CoderResult, Encoding, Replacement, levels, reference};
use wirebytes_testkit::text::repeat_chars;

const GROUP: &str = "charset/encode";

const LATIN1: &str = "Fête à Zürich: naïve café, smørrebrød, ¡señor! Ærø ÿ ß £10 ½ ";
const CYRILLIC: &str = "Съешь же ещё этих мягких французских булок, да выпей чаю. ";
const JAPANESE: &str =
    "日本語のテキストを符号化します。カタカナとひらがな、漢字が混ざった文章です。";
const KOREAN: &str = "다람쥐 헌 쳇바퀴에 타고파. 한국어 텍스트를 인코딩합니다. ";
const TRADITIONAL: &str = "繁體中文的文字編碼測試，包含常用漢字與標點符號。";
const SIMPLIFIED: &str = "简体中文的文本编码测试，包含常用汉字和标点符号。";

/// ASCII JSON of `chars` chars whose last char is an emoji.
fn mixed(chars: usize) -> String {
    let mut text = repeat_chars(
        "{\"id\":12345,\"name\":\"widget\",\"tags\":[\"a\",\"b\"]},",
        chars - 1,
    );
    text.push('😀');
    text
}

fn one(c: &mut Criterion, name: &str, text: &str, encoding: &'static Encoding, functions: &[&str]) {
    let mut group = c.benchmark_group(GROUP);
    group.throughput(Throughput::Bytes(text.len() as u64));
    let param = format!("{name}-{}/{}", encoding.name(), text.chars().count());
    // Build what is built once per process (a single-byte encoding's reverse table, the
    // thread's scratch buffer) before the allocation count of the first call is taken.
    drop(Charset::from(encoding).encode(text, Replacement::Jdk));
    for &function in functions {
        match function {
            "baseline" => bench(&mut group, GROUP, function, &param, text, |t| {
                reference::encode(Charset::from(encoding), t, Replacement::Jdk)
            }),
            "encoding_rs" => bench(&mut group, GROUP, function, &param, text, |t| {
                encoding.encode(t).0.into_owned()
            }),
            "limit-memcpy" => bench(&mut group, GROUP, function, &param, text, |t| {
                t.as_bytes().to_vec()
            }),
            "ours" => bench(&mut group, GROUP, function, &param, text, |t| {
                Charset::from(encoding).encode(t, Replacement::Jdk)
            }),
            "ours-portable" => {
                let portable = levels::get("portable").expect("every CPU has the portable level");
                bench(&mut group, GROUP, function, &param, text, |t| {
                    portable.encode(Charset::from(encoding), t, Replacement::Jdk)
                });
            }
            other => panic!("unknown bench function {other}"),
        }
    }
    group.finish();
}

/// Realistic text per language: mostly letters, ASCII spaces and punctuation.
const GERMAN: &str = "Die Würde des Menschen ist unantastbar. Sie zu achten und zu schützen ist \
    Verpflichtung aller staatlichen Gewalt. Größere Städte müssen für Straßen und Brücken sorgen. ";
const FRENCH: &str = "Tous les êtres humains naissent libres et égaux en dignité et en droits. \
    Ils sont doués de raison et de conscience et doivent agir les uns envers les autres. Où est l'hôtel? ";
const PORTUGUESE: &str = "Todos os seres humanos nascem livres e iguais em dignidade e em direitos. \
    São dotados de razão e de consciência e devem agir uns para com os outros em espírito de fraternidade. ";
const SPANISH: &str = "Todos los seres humanos nacen libres e iguales en dignidad y derechos y, \
    dotados como están de razón y conciencia, deben comportarse fraternalmente los unos con los otros. ¿Sí? ";
const ROMANIAN: &str = "Toate ființele umane se nasc libere și egale în demnitate și în drepturi. \
    Ele sunt înzestrate cu rațiune și conștiință și trebuie să se comporte unele față de altele în spiritul fraternității. ";
const POLISH: &str = "Wszyscy ludzie rodzą się wolni i równi pod względem swej godności i swych praw. \
    Są oni obdarzeni rozumem i sumieniem i powinni postępować wobec innych w duchu braterstwa. ";
const CZECH: &str = "Všichni lidé rodí se svobodní a sobě rovní co do důstojnosti a práv. \
    Jsou nadáni rozumem a svědomím a mají spolu jednat v duchu bratrství. ";
const ENGLISH: &str = "All human beings are born free and equal in dignity and rights. They are \
    endowed with reason and conscience and should act towards one another in a spirit of brotherhood. ";
const RUSSIAN: &str = "Все люди рождаются свободными и равными в своем достоинстве и правах. \
    Они наделены разумом и совестью и должны поступать в отношении друг друга в духе братства. ";
const JAPANESE_PROSE: &str = "すべての人間は、生まれながらにして自由であり、かつ、尊厳と権利とについて平等である。\
    人間は、理性と良心とを授けられており、互いに同胞の精神をもって行動しなければならない。 ";
const CHINESE_PROSE: &str =
    "人人生而自由，在尊严和权利上一律平等。他们赋有理性和良心，并应以兄弟关系的精神相对待。 ";
const TRADITIONAL_PROSE: &str =
    "人人生而自由，在尊嚴和權利上一律平等。他們賦有理性和良心，並應以兄弟關係的精神相對待。 ";
const KOREAN_PROSE: &str = "모든 인간은 태어날 때부터 자유로우며 그 존엄과 권리에 있어 동등하다. \
    인간은 천부적으로 이성과 양심을 부여받았으며 서로 형제애의 정신으로 행동하여야 한다. ";

/// `unit` repeated to exactly `bytes` bytes or just under (whole chars).
fn body(unit: &str, bytes: usize) -> String {
    let mut text = String::with_capacity(bytes);
    for c in unit.chars().cycle() {
        if text.len() + c.len_utf8() > bytes {
            break;
        }
        text.push(c);
    }
    text
}

/// `charset/real-text`: 4 KiB bodies in the legacy charset of their language.
fn real_text(c: &mut Criterion) {
    const GROUP: &str = "charset/real-text";
    use encoding_rs::*;
    let cases: &[(&str, &str, &'static Encoding)] = &[
        ("german", GERMAN, ISO_8859_15),
        ("french", FRENCH, ISO_8859_15),
        ("portuguese", PORTUGUESE, ISO_8859_15),
        ("spanish", SPANISH, ISO_8859_15),
        ("german", GERMAN, WINDOWS_1252),
        ("romanian", ROMANIAN, WINDOWS_1250),
        ("romanian", ROMANIAN, ISO_8859_2),
        ("romanian", ROMANIAN, ISO_8859_16),
        ("polish", POLISH, ISO_8859_2),
        ("czech", CZECH, WINDOWS_1250),
        ("russian", RUSSIAN, WINDOWS_1251),
        ("russian", RUSSIAN, KOI8_R),
        ("japanese", JAPANESE_PROSE, SHIFT_JIS),
        ("japanese", JAPANESE_PROSE, EUC_JP),
        ("japanese", JAPANESE_PROSE, ISO_2022_JP),
        ("chinese", CHINESE_PROSE, GBK),
        ("chinese", CHINESE_PROSE, GB18030),
        ("chinese", TRADITIONAL_PROSE, BIG5),
        ("korean", KOREAN_PROSE, EUC_KR),
    ];
    for &(name, unit, encoding) in cases {
        let text = body(unit, 4096);
        let mut group = c.benchmark_group(GROUP);
        group.throughput(Throughput::Bytes(text.len() as u64));
        let param = format!("{name}-{}/{}", encoding.name(), text.len());
        drop(Charset::from(encoding).encode(&text, Replacement::Jdk));
        bench(&mut group, GROUP, "baseline", &param, &text, |t| {
            reference::encode(Charset::from(encoding), t, Replacement::Jdk)
        });
        bench(&mut group, GROUP, "encoding_rs", &param, &text, |t| {
            encoding.encode(t).0.into_owned()
        });
        bench(&mut group, GROUP, "ours", &param, &text, |t| {
            Charset::from(encoding).encode(t, Replacement::Jdk)
        });
        // Single-byte charsets below the level the CPU runs: without the AVX-512 table
        // kernel, as on a CPU with AVX2 and SSSE3 only.
        let below = levels::get("avx2").filter(|_| levels::get("avx512").is_some());
        if let (true, Some(level)) = (encoding.is_single_byte(), below) {
            bench(&mut group, GROUP, "ours-avx2", &param, &text, |t| {
                level.encode(Charset::from(encoding), t, Replacement::Jdk)
            });
        }
        group.finish();
    }
}

/// The per-char table loop: every BMP char's byte in the charset (the strict encoder's, once),
/// each char of the text looked up and written, the JDK's `?` where it has none.
struct CharTable(Vec<u16>);

impl CharTable {
    fn new(charset: Charset) -> CharTable {
        let mut bytes = vec![0x100u16; 0x1_0000];
        for (c, slot) in bytes.iter_mut().enumerate() {
            let one = char::from_u32(c as u32).map(String::from);
            if let Some(Ok(byte)) = one.map(|one| charset.try_encode(&one)) {
                *slot = u16::from(byte[0]);
            }
        }
        CharTable(bytes)
    }

    fn encode(&self, text: &str) -> Vec<u8> {
        text.chars()
            .map(|c| match self.0.get(c as usize) {
                Some(&byte) if byte < 0x100 => byte as u8,
                _ => b'?',
            })
            .collect()
    }
}

/// `charset/jdk-single-byte`: real text in the JDK's single-byte charsets: EBCDIC, DOS and
/// Mac code pages, and the JDK's tables of charsets WHATWG has too. `baseline`: the
/// reference; `per-char-table`: [`CharTable`]; `ours` and `ours-avx2`; where WHATWG has the
/// charset, `whatwg-ours` (this crate's WHATWG charset) and `encoding_rs`; for ASCII text in
/// EBCDIC, `ascii-copy_low_bytes` (wirebytes-ascii's copy of the same text into a `Vec`).
fn jdk_single_byte(c: &mut Criterion) {
    const GROUP: &str = "charset/jdk-single-byte";
    use encoding_rs::*;
    let cases: &[(&str, &str, &str, Option<&'static Encoding>)] = &[
        ("english", ENGLISH, "IBM037", None),
        ("english", ENGLISH, "IBM1047", None),
        ("german", GERMAN, "IBM037", None),
        ("french", FRENCH, "IBM1047", None),
        ("german", GERMAN, "IBM273", None),
        ("french", FRENCH, "IBM437", None),
        ("french", FRENCH, "IBM850", None),
        ("russian", RUSSIAN, "IBM866", Some(IBM866)),
        ("german", GERMAN, "x-MacRoman", Some(MACINTOSH)),
        ("german", GERMAN, "windows-1252", Some(WINDOWS_1252)),
        ("russian", RUSSIAN, "KOI8-R", Some(KOI8_R)),
        ("polish", POLISH, "ISO-8859-2", Some(ISO_8859_2)),
    ];
    for &(name, unit, java_name, twin) in cases {
        let Some(charset) = Charset::for_java_name(java_name) else {
            continue;
        };
        let text = body(unit, 4096);
        let mut group = c.benchmark_group(GROUP);
        group.throughput(Throughput::Bytes(text.len() as u64));
        let param = format!("{name}-{java_name}/{}", text.len());
        let table = CharTable::new(charset);
        assert_eq!(table.encode(&text), charset.encode(&text, Replacement::Jdk));
        bench(&mut group, GROUP, "baseline", &param, &text, |t| {
            reference::encode(charset, t, Replacement::Jdk)
        });
        bench(&mut group, GROUP, "per-char-table", &param, &text, |t| {
            table.encode(t)
        });
        bench(&mut group, GROUP, "ours", &param, &text, |t| {
            charset.encode(t, Replacement::Jdk)
        });
        let below = levels::get("avx2").filter(|_| levels::get("avx512").is_some());
        if let Some(level) = below {
            bench(&mut group, GROUP, "ours-avx2", &param, &text, |t| {
                level.encode(charset, t, Replacement::Jdk)
            });
        }
        if let Some(encoding) = twin {
            bench(&mut group, GROUP, "whatwg-ours", &param, &text, |t| {
                Charset::from(encoding).encode(t, Replacement::Jdk)
            });
            bench(&mut group, GROUP, "encoding_rs", &param, &text, |t| {
                encoding.encode(t).0.into_owned()
            });
        }
        if text.is_ascii() {
            bench(
                &mut group,
                GROUP,
                "ascii-copy_low_bytes",
                &param,
                &text,
                |t| wirebytes_ascii::low_bytes(t),
            );
        }
        group.finish();
    }
}

/// `charset/jdk-multi-byte`: real CJK text in the JDK's multi-byte charsets. `baseline`: the
/// reference; `ours` and `ours-portable`; where WHATWG has a twin, `whatwg-ours` (this crate's
/// WHATWG charset) and `encoding_rs` (the build the benches get: without
/// `fast-legacy-encode` unless it is asked for).
fn jdk_multi_byte(c: &mut Criterion) {
    const GROUP: &str = "charset/jdk-multi-byte";
    use encoding_rs::*;
    let cases: &[(&str, &str, &str, Option<&'static Encoding>)] = &[
        ("japanese", JAPANESE_PROSE, "Shift_JIS", Some(SHIFT_JIS)),
        ("japanese", JAPANESE_PROSE, "windows-31j", Some(SHIFT_JIS)),
        ("japanese", JAPANESE_PROSE, "EUC-JP", Some(EUC_JP)),
        ("chinese", TRADITIONAL_PROSE, "Big5", Some(BIG5)),
        ("chinese", CHINESE_PROSE, "GBK", Some(GBK)),
        ("chinese", CHINESE_PROSE, "GB18030", Some(GB18030)),
        ("korean", KOREAN_PROSE, "EUC-KR", Some(EUC_KR)),
        ("japanese", JAPANESE_PROSE, "x-IBM943", None),
        ("japanese", JAPANESE_PROSE, "x-IBM939", None),
        ("japanese", JAPANESE_PROSE, "ISO-2022-JP", Some(ISO_2022_JP)),
    ];
    for &(name, unit, java_name, twin) in cases {
        // A charset this build cannot write (no feature `jdk-multi-byte`, or a stateful
        // one) has no row.
        let Some(charset) = Charset::for_java_name(java_name) else {
            continue;
        };
        let text = body(unit, 4096);
        let mut group = c.benchmark_group(GROUP);
        group.throughput(Throughput::Bytes(text.len() as u64));
        let param = format!("{name}-{java_name}/{}", text.len());
        drop(charset.encode(&text, Replacement::Jdk));
        bench(&mut group, GROUP, "baseline", &param, &text, |t| {
            reference::encode(charset, t, Replacement::Jdk)
        });
        bench(&mut group, GROUP, "ours", &param, &text, |t| {
            charset.encode(t, Replacement::Jdk)
        });
        let portable = levels::get("portable").expect("every CPU has the portable level");
        bench(&mut group, GROUP, "ours-portable", &param, &text, |t| {
            portable.encode(charset, t, Replacement::Jdk)
        });
        if let Some(encoding) = twin {
            drop(Charset::from(encoding).encode(&text, Replacement::Jdk));
            bench(&mut group, GROUP, "whatwg-ours", &param, &text, |t| {
                Charset::from(encoding).encode(t, Replacement::Jdk)
            });
            bench(&mut group, GROUP, "encoding_rs", &param, &text, |t| {
                encoding.encode(t).0.into_owned()
            });
        }
        group.finish();
    }
}

/// `charset/jdk-only`: the JDK's own charsets.
fn jdk_only(c: &mut Criterion) {
    const GROUP: &str = "charset/jdk-only";
    let cases: &[(&str, &str, Charset)] = &[
        ("latin1", LATIN1, Charset::ISO_8859_1),
        ("german", GERMAN, Charset::ISO_8859_1),
        ("german", GERMAN, Charset::US_ASCII),
        (
            "ascii",
            "The quick brown fox jumps over the lazy dog. 0123456789\n",
            Charset::US_ASCII,
        ),
        ("german", GERMAN, Charset::UTF_16),
        ("japanese", JAPANESE_PROSE, Charset::UTF_16),
        ("german", GERMAN, Charset::UTF_32),
        ("japanese", JAPANESE_PROSE, Charset::UTF_32LE),
    ];
    for &(name, unit, charset) in cases {
        let text = body(unit, 4096);
        let mut group = c.benchmark_group(GROUP);
        group.throughput(Throughput::Bytes(text.len() as u64));
        let param = format!("{name}-{}/{}", charset.name(), text.len());
        drop(charset.encode(&text, Replacement::Jdk));
        drop(Charset::from(encoding_rs::WINDOWS_1252).encode(&text, Replacement::Jdk));
        bench(&mut group, GROUP, "baseline", &param, &text, |t| {
            reference::encode(charset, t, Replacement::Jdk)
        });
        if charset == Charset::UTF_16 {
            bench(&mut group, GROUP, "flat-map", &param, &text, |t| {
                let mut out = b"\xFE\xFF".to_vec();
                out.extend(t.encode_utf16().flat_map(u16::to_be_bytes));
                out
            });
        } else if charset == Charset::UTF_32 {
            bench(&mut group, GROUP, "flat-map", &param, &text, |t| {
                t.chars()
                    .flat_map(|c| u32::from(c).to_be_bytes())
                    .collect::<Vec<u8>>()
            });
        } else if charset == Charset::UTF_32LE {
            bench(&mut group, GROUP, "flat-map", &param, &text, |t| {
                t.chars()
                    .flat_map(|c| u32::from(c).to_le_bytes())
                    .collect::<Vec<u8>>()
            });
        } else {
            bench(&mut group, GROUP, "ours-windows-1252", &param, &text, |t| {
                Charset::from(encoding_rs::WINDOWS_1252).encode(t, Replacement::Jdk)
            });
        }
        bench(&mut group, GROUP, "ours", &param, &text, |t| {
            charset.encode(t, Replacement::Jdk)
        });
        group.finish();
    }
}

/// Emoji between short ASCII words: surrogate pairs every few units.
const EMOJI: &str = "ok 😀 yes 🎉 go 👍🏽 🚀🔥 fine ✨ 🙂 ";
/// Cyrillic and Greek prose.
const CYRILLIC_GREEK: &str = "Все люди рождаются свободными и равными.     Όλοι οι άνθρωποι γεννιούνται ελεύθεροι και ίσοι στην αξιοπρέπεια και τα δικαιώματα. ";

/// A Unicode or Latin-1 target of `charset/unicode`, as simdutf writes it.
#[derive(Clone, Copy, PartialEq)]
enum Target {
    Utf16Be,
    Utf16Le,
    Utf32Le,
    Latin1,
}

impl Target {
    fn charset(self) -> Charset {
        match self {
            Target::Utf16Be => Charset::UTF_16BE,
            Target::Utf16Le => Charset::UTF_16LE,
            Target::Utf32Le => Charset::for_java_name("UTF-32LE").expect("a JDK charset"),
            Target::Latin1 => Charset::ISO_8859_1,
        }
    }
}

/// simdutf's exact-size conversion: its length function, then the conversion of valid UTF-8
/// into a vector of that many units. The units are returned in memory order (the byte order
/// of the target), as `u32`s for UTF-32, bytes for Latin-1.
#[cfg(target_arch = "x86_64")]
mod peer {
    use super::Target;

    /// The converted text, in the unit type of its target.
    pub(crate) enum Units {
        U8(Vec<u8>),
        U16(Vec<u16>),
        U32(Vec<u32>),
    }

    impl Units {
        /// The bytes as they lie in memory.
        pub(crate) fn bytes(&self) -> Vec<u8> {
            match self {
                Units::U8(v) => v.clone(),
                Units::U16(v) => v.iter().flat_map(|u| u.to_ne_bytes()).collect(),
                Units::U32(v) => v.iter().flat_map(|u| u.to_ne_bytes()).collect(),
            }
        }
    }

    /// `n` units written by `convert` into a vector of that capacity.
    ///
    /// # Safety
    ///
    /// `convert` writes at most `n` units through the pointer it is given and returns how
    /// many it wrote.
    unsafe fn exact<T>(n: usize, convert: impl FnOnce(*mut T) -> usize) -> Vec<T> {
        let mut dst: Vec<T> = Vec::with_capacity(n);
        let written = convert(dst.as_mut_ptr());
        assert_eq!(written, n);
        // SAFETY: `convert` initialised the first `n` units (the caller's promise).
        unsafe { dst.set_len(n) };
        dst
    }

    pub(crate) fn convert(target: Target, text: &str) -> Units {
        let (src, len) = (text.as_bytes().as_ptr(), text.len());
        let bytes = text.as_bytes();
        // SAFETY: in each arm `src` is valid UTF-8 (a `str`), as the `convert_valid_`
        // functions require, and the length function gives the units the conversion
        // writes; for Latin-1 the caller's text holds no char over U+00FF.
        unsafe {
            match target {
                Target::Utf16Be => {
                    Units::U16(exact(simdutf::utf16_length_from_utf8(bytes), |dst| {
                        simdutf::convert_valid_utf8_to_utf16be(src, len, dst)
                    }))
                }
                Target::Utf16Le => {
                    Units::U16(exact(simdutf::utf16_length_from_utf8(bytes), |dst| {
                        simdutf::convert_valid_utf8_to_utf16le(src, len, dst)
                    }))
                }
                Target::Utf32Le => {
                    Units::U32(exact(simdutf::utf32_length_from_utf8(bytes), |dst| {
                        simdutf::convert_valid_utf8_to_utf32(src, len, dst)
                    }))
                }
                Target::Latin1 => {
                    Units::U8(exact(simdutf::latin1_length_from_utf8(bytes), |dst| {
                        simdutf::convert_valid_utf8_to_latin1(src, len, dst)
                    }))
                }
            }
        }
    }

    /// simdutf's conversion of valid UTF-8 into `dst` with nothing counted first: the bytes
    /// written, in memory order at the front of `dst` (taken as 16-bit units for UTF-16,
    /// 32-bit ones for UTF-32, bytes for Latin-1).
    ///
    /// # Panics
    ///
    /// If `dst` holds fewer units than the worst case, one a byte of `text`.
    pub(crate) fn convert_into(target: Target, text: &str, dst: &mut [u32]) -> usize {
        let (src, len) = (text.as_bytes().as_ptr(), text.len());
        assert!(dst.len() >= len);
        let out = dst.as_mut_ptr();
        // SAFETY: `text` is valid UTF-8 (a `str`), as the `convert_valid_` functions
        // require; they write at most one unit a byte of it, which `dst` holds (asserted
        // above) whatever the unit (its `u32`s are aligned for `u16`s and bytes too); for
        // Latin-1 the caller's text holds no char over U+00FF.
        unsafe {
            match target {
                Target::Utf16Be => 2 * simdutf::convert_valid_utf8_to_utf16be(src, len, out.cast()),
                Target::Utf16Le => 2 * simdutf::convert_valid_utf8_to_utf16le(src, len, out.cast()),
                Target::Utf32Le => 4 * simdutf::convert_valid_utf8_to_utf32(src, len, out.cast()),
                Target::Latin1 => simdutf::convert_valid_utf8_to_latin1(src, len, out.cast()),
            }
        }
    }

    /// The first `n` bytes of `units` as they lie in memory.
    pub(crate) fn front(units: &[u32], n: usize) -> &[u8] {
        assert!(n <= 4 * units.len());
        // SAFETY: the `n` bytes are within `units` (asserted above), borrowed for the
        // result's life; any bytes are valid `u8`s.
        unsafe { std::slice::from_raw_parts(units.as_ptr().cast(), n) }
    }

    /// simdutf's exact-size conversion of valid UTF-16 (native byte order) into UTF-8
    /// (`latin1` false) or Latin-1: its length function, then the conversion into a vector of
    /// that length.
    pub(crate) fn convert_from_utf16(latin1: bool, units: &[u16]) -> Vec<u8> {
        let (src, len) = (units.as_ptr(), units.len());
        // SAFETY: `units` is valid UTF-16 (the caller's text's), as the `convert_valid_`
        // functions require, and the length functions give the bytes the conversions write;
        // for Latin-1 the caller's text holds no char over U+00FF.
        unsafe {
            if latin1 {
                exact(simdutf::latin1_length_from_utf16(len), |dst| {
                    simdutf::convert_valid_utf16_to_latin1(src, len, dst)
                })
            } else {
                exact(simdutf::utf8_length_from_utf16(units), |dst| {
                    simdutf::convert_valid_utf16_to_utf8(src, len, dst)
                })
            }
        }
    }

    /// simdutf's conversion of valid UTF-16 (native byte order) into UTF-8 (`latin1` false)
    /// or Latin-1, into `dst` with nothing counted first: the bytes written.
    ///
    /// # Panics
    ///
    /// If `dst` is shorter than the worst case, three bytes a unit (one for Latin-1).
    pub(crate) fn convert_from_utf16_into(latin1: bool, units: &[u16], dst: &mut [u8]) -> usize {
        let (src, len) = (units.as_ptr(), units.len());
        assert!(dst.len() >= if latin1 { len } else { 3 * len });
        // SAFETY: `units` is valid UTF-16 (the caller's text's), as the `convert_valid_`
        // functions require; `dst` holds the most bytes they write (asserted above); for
        // Latin-1 the caller's text holds no char over U+00FF.
        unsafe {
            if latin1 {
                simdutf::convert_valid_utf16_to_latin1(src, len, dst.as_mut_ptr())
            } else {
                simdutf::convert_valid_utf16_to_utf8(src, len, dst.as_mut_ptr())
            }
        }
    }
}

/// The texts of `charset/unicode` and `charset/from-utf16`.
const UNICODE_TEXTS: [(&str, &str); 5] = [
    ("ascii", ENGLISH),
    ("latin1", GERMAN),
    ("cyrillic-greek", CYRILLIC_GREEK),
    ("cjk", JAPANESE_PROSE),
    ("emoji", EMOJI),
];

/// simdutf's column: its own choice of kernel, or the one the environment forces on it.
fn simdutf_column() -> String {
    match std::env::var("SIMDUTF_FORCE_IMPLEMENTATION") {
        Ok(forced) => format!("simdutf-{forced}"),
        Err(_) => "simdutf".to_owned(),
    }
}

/// `charset/unicode`: the Unicode and Latin-1 targets against simdutf.
fn unicode(c: &mut Criterion) {
    const GROUP: &str = "charset/unicode";
    let targets = [
        ("UTF-16BE", Target::Utf16Be),
        ("UTF-16LE", Target::Utf16Le),
        ("UTF-32LE", Target::Utf32Le),
        ("ISO-8859-1", Target::Latin1),
    ];
    let below = levels::get("avx2").filter(|_| levels::get("avx512").is_some());
    let simdutf_column = simdutf_column();
    for (name, unit) in UNICODE_TEXTS {
        for bytes in [1024, 16 * 1024, 1024 * 1024] {
            let text = body(unit, bytes);
            for (charset_name, target) in targets {
                // Latin-1 only for the text Latin-1 holds: simdutf converts nothing else.
                if target == Target::Latin1 && text.chars().any(|c| u32::from(c) > 0xFF) {
                    continue;
                }
                let charset = target.charset();
                let mut group = c.benchmark_group(GROUP);
                group.throughput(Throughput::Bytes(text.len() as u64));
                let param = format!("{name}-{charset_name}/{}", text.len());
                #[cfg(target_arch = "x86_64")]
                {
                    assert_eq!(
                        peer::convert(target, &text).bytes(),
                        charset.encode(&text, Replacement::Jdk),
                        "{param}"
                    );
                    bench(&mut group, GROUP, &simdutf_column, &param, &text, |t| {
                        peer::convert(target, t)
                    });
                }
                bench_ours(
                    &mut group,
                    GROUP,
                    "",
                    &param,
                    &text,
                    below,
                    |level, t| match level {
                        Some(level) => level.encode(charset, t, Replacement::Jdk),
                        None => charset.encode(t, Replacement::Jdk),
                    },
                );
                // Into the caller's buffer of the worst-case size, nothing counted first.
                let mut slice = vec![0u8; charset.max_encoded_len(text.len(), Replacement::Jdk)];
                #[cfg(target_arch = "x86_64")]
                {
                    let mut units = vec![0u32; text.len()];
                    let n = peer::convert_into(target, &text, &mut units);
                    let ours = charset.encode_to_slice(&text, Replacement::Jdk, &mut slice);
                    assert_eq!(Some(n), ours, "{param}");
                    assert_eq!(peer::front(&units, n), &slice[..n], "{param}");
                    let column = format!("{simdutf_column}-to-slice");
                    bench(&mut group, GROUP, &column, &param, &text, |t| {
                        peer::convert_into(target, t, &mut units)
                    });
                }
                let to_slice = |level: Option<levels::Level>, t: &str| match level {
                    Some(level) => level.encode_to_slice(charset, t, Replacement::Jdk, &mut slice),
                    None => charset.encode_to_slice(t, Replacement::Jdk, &mut slice),
                };
                let input = text.as_str();
                bench_ours(
                    &mut group,
                    GROUP,
                    "-to-slice",
                    &param,
                    input,
                    below,
                    to_slice,
                );
                group.finish();
            }
        }
    }
}

/// Benches `f` at the CPU's own level (`f(None, ..)`) as `ours` then `suffix`, and, where the
/// machine has a level above AVX2 (`below`), at the AVX2 level as `ours-avx2` then `suffix`.
fn bench_ours<I: ?Sized, O>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    group_name: &str,
    suffix: &str,
    parameter: &str,
    input: &I,
    below: Option<levels::Level>,
    mut f: impl FnMut(Option<levels::Level>, &I) -> O,
) {
    let column = format!("ours{suffix}");
    bench(group, group_name, &column, parameter, input, |i| f(None, i));
    if let Some(avx2) = below {
        let column = format!("ours-avx2{suffix}");
        bench(group, group_name, &column, parameter, input, |i| {
            f(Some(avx2), i)
        });
    }
}

/// `charset/from-utf16`: UTF-16 input (native order) to UTF-8 and ISO-8859-1 against
/// simdutf.
fn from_utf16(c: &mut Criterion) {
    const GROUP: &str = "charset/from-utf16";
    let simdutf_column = simdutf_column();
    let below = levels::get("avx2").filter(|_| levels::get("avx512").is_some());
    for (name, unit) in UNICODE_TEXTS {
        for bytes in [1024, 16 * 1024, 1024 * 1024] {
            let text = body(unit, bytes);
            let units: Vec<u16> = text.encode_utf16().collect();
            for (charset_name, charset) in [
                ("UTF-8", Charset::UTF_8),
                ("ISO-8859-1", Charset::ISO_8859_1),
            ] {
                let latin1 = charset == Charset::ISO_8859_1;
                // Latin-1 only for the text Latin-1 holds: simdutf converts nothing else.
                if latin1 && text.chars().any(|c| u32::from(c) > 0xFF) {
                    continue;
                }
                let mut group = c.benchmark_group(GROUP);
                group.throughput(Throughput::Bytes(2 * units.len() as u64));
                let param = format!("{name}-{charset_name}/{}", units.len());
                #[cfg(target_arch = "x86_64")]
                {
                    assert_eq!(
                        peer::convert_from_utf16(latin1, &units),
                        charset.encode_from_utf16(&units, Replacement::Jdk),
                        "{param}"
                    );
                    bench(&mut group, GROUP, &simdutf_column, &param, &units, |u| {
                        peer::convert_from_utf16(latin1, u)
                    });
                }
                // The reference takes most of a second at 1 MiB.
                if bytes <= 16 * 1024 {
                    bench(&mut group, GROUP, "baseline", &param, &units, |u| {
                        reference::encode_from_utf16(charset, u, Replacement::Jdk)
                    });
                }
                bench_ours(
                    &mut group,
                    GROUP,
                    "",
                    &param,
                    &units,
                    below,
                    |level, u| match level {
                        Some(level) => level.encode_from_utf16(charset, u, Replacement::Jdk),
                        None => charset.encode_from_utf16(u, Replacement::Jdk),
                    },
                );
                // Into the caller's buffer of the worst-case size, nothing counted first.
                let mut slice =
                    vec![0u8; charset.max_encoded_len_from_utf16(units.len(), Replacement::Jdk)];
                #[cfg(target_arch = "x86_64")]
                {
                    let column = format!("{simdutf_column}-to-slice");
                    bench(&mut group, GROUP, &column, &param, &units, |u| {
                        peer::convert_from_utf16_into(latin1, u, &mut slice)
                    });
                }
                let to_slice = |level: Option<levels::Level>, u: &[u16]| match level {
                    Some(level) => {
                        level.encode_from_utf16_to_slice(charset, u, Replacement::Jdk, &mut slice)
                    }
                    None => charset.encode_from_utf16_to_slice(u, Replacement::Jdk, &mut slice),
                };
                let input = units.as_slice();
                bench_ours(
                    &mut group,
                    GROUP,
                    "-to-slice",
                    &param,
                    input,
                    below,
                    to_slice,
                );
                group.finish();
            }
        }
    }
}

/// `charset/into-buffers`: the functions that write into the caller's buffers.
fn into_buffers(c: &mut Criterion) {
    const GROUP: &str = "charset/into-buffers";
    let cases: &[(&str, &str, Charset)] = &[
        ("german", GERMAN, Charset::ISO_8859_1),
        ("german", GERMAN, Charset::from(encoding_rs::WINDOWS_1252)),
        (
            "japanese",
            JAPANESE_PROSE,
            Charset::from(encoding_rs::SHIFT_JIS),
        ),
        (
            "japanese",
            JAPANESE_PROSE,
            Charset::from(encoding_rs::UTF_8),
        ),
    ];
    for &(name, unit, charset) in cases {
        let text = body(unit, 4096);
        let mut group = c.benchmark_group(GROUP);
        group.throughput(Throughput::Bytes(text.len() as u64));
        let param = format!("{name}-{}/{}", charset.name(), text.len());
        let replacement = Replacement::Jdk;
        drop(charset.encode(&text, replacement));
        if charset == encoding_rs::UTF_8 {
            bench(&mut group, GROUP, "limit-memcpy", &param, &text, |t| {
                t.as_bytes().to_vec()
            });
        }
        bench(&mut group, GROUP, "ours", &param, &text, |t| {
            charset.encode(t, replacement)
        });
        bench(&mut group, GROUP, "encoded_len", &param, &text, |t| {
            charset.encoded_len(t, replacement)
        });
        let mut vec = Vec::new();
        bench(&mut group, GROUP, "encode_to_vec", &param, &text, |t| {
            vec.clear();
            charset.encode_to_vec(t, replacement, &mut vec);
            vec.len()
        });
        let mut buf = BytesMut::new();
        bench(&mut group, GROUP, "encode_to_buf", &param, &text, |t| {
            buf.clear();
            charset.encode_to_buf(t, replacement, &mut buf);
            buf.len()
        });
        let mut slice = vec![0u8; charset.max_encoded_len(text.len(), replacement)];
        bench(&mut group, GROUP, "encode_to_slice", &param, &text, |t| {
            charset.encode_to_slice(t, replacement, &mut slice)
        });
        let mut vec = Vec::new();
        let mut room = [0u8; 256];
        bench(
            &mut group,
            GROUP,
            "encoder-slices-256",
            &param,
            &text,
            |t| {
                vec.clear();
                let mut encoder = charset.new_encoder(replacement);
                let mut rest: &str = t;
                loop {
                    let (result, read, written, _) = encoder.encode_to_slice(rest, &mut room, true);
                    vec.extend_from_slice(&room[..written]);
                    rest = &rest[read..];
                    if result == CoderResult::InputEmpty {
                        break;
                    }
                }
                vec.len()
            },
        );
        let mut vec = Vec::new();
        bench(&mut group, GROUP, "encoder-256", &param, &text, |t| {
            vec.clear();
            let mut encoder = charset.new_encoder(replacement);
            let mut rest: &str = t;
            while !rest.is_empty() {
                let mut at = rest.len().min(256);
                while !rest.is_char_boundary(at) {
                    at -= 1;
                }
                encoder.encode_to_vec(&rest[..at], false, &mut vec);
                rest = &rest[at..];
            }
            encoder.encode_to_vec("", true, &mut vec);
            vec.len()
        });
        group.finish();
    }
}

fn benches(c: &mut Criterion) {
    real_text(c);
    jdk_single_byte(c);
    jdk_multi_byte(c);
    jdk_only(c);
    into_buffers(c);
    unicode(c);
    from_utf16(c);
    const ALL: &[&str] = &[
        "baseline",
        "encoding_rs",
        "limit-memcpy",
        "ours",
        "ours-portable",
    ];
    const KERNELS: &[&str] = &["baseline", "encoding_rs", "ours", "ours-portable"];
    const NO_LIMIT: &[&str] = &["baseline", "encoding_rs", "ours"];
    const PEER: &[&str] = &["encoding_rs", "ours"];
    let (win1252, win1251) = (encoding_rs::WINDOWS_1252, encoding_rs::WINDOWS_1251);
    for chars in [256, 4096, 65536] {
        let ascii = repeat_chars(
            "The quick brown fox jumps over the lazy dog. 0123456789\n",
            chars,
        );
        one(c, "ascii", &ascii, win1252, ALL);
    }
    for chars in [256, 4096, 65536] {
        one(c, "latin1", &repeat_chars(LATIN1, chars), win1252, KERNELS);
    }
    one(
        c,
        "cyrillic",
        &repeat_chars(CYRILLIC, 4096),
        win1251,
        NO_LIMIT,
    );
    for chars in [4096, 65536] {
        one(c, "mixed", &mixed(chars), win1252, NO_LIMIT);
    }
    let cjk: [(&str, &str, &'static Encoding); 7] = [
        ("japanese", JAPANESE, encoding_rs::SHIFT_JIS),
        ("japanese", JAPANESE, encoding_rs::EUC_JP),
        ("japanese", JAPANESE, encoding_rs::ISO_2022_JP),
        ("korean", KOREAN, encoding_rs::EUC_KR),
        ("chinese", TRADITIONAL, encoding_rs::BIG5),
        ("chinese", SIMPLIFIED, encoding_rs::GBK),
        ("chinese", SIMPLIFIED, encoding_rs::GB18030),
    ];
    for (name, unit, encoding) in cjk {
        one(c, name, &repeat_chars(unit, 4096), encoding, PEER);
    }
}

criterion_group!(group, benches);
criterion_main!(group);
