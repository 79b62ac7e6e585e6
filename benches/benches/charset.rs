//! Benches for wirebytes-charset: encoding a text body, the way `setBody(String)` does.
//!
//! One group, `charset/encode`; parameter `<input>-<encoding>/<chars>`. Functions:
//! - `baseline`: `wirebytes_charset::reference::encode`, the streaming encoder (one char at a
//!   time, a buffer that grows by copying), JDK replacement;
//! - `encoding_rs`: `Encoding::encode(..).into_owned()` (WHATWG replacement: for `mixed` it
//!   writes `&#128512;` where the others write `?`);
//! - `limit-memcpy`: `to_vec` of the UTF-8 bytes (ASCII inputs only: the bytes are the same);
//! - `ours`: `wirebytes_charset::encode`, JDK replacement;
//! - `ours-portable`: the same without the SIMD kernels (`levels::get("portable")`), for the
//!   ASCII and Latin-1 inputs, whose fast paths have kernels.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use wirebytes_benches::bench;
use wirebytes_charset::{Encoding, Replacement, levels, reference};
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
    drop(wirebytes_charset::encode(text, encoding, Replacement::Jdk));
    for &function in functions {
        match function {
            "baseline" => bench(&mut group, GROUP, function, &param, text, |t| {
                reference::encode(t, encoding, Replacement::Jdk)
            }),
            "encoding_rs" => bench(&mut group, GROUP, function, &param, text, |t| {
                encoding.encode(t).0.into_owned()
            }),
            "limit-memcpy" => bench(&mut group, GROUP, function, &param, text, |t| {
                t.as_bytes().to_vec()
            }),
            "ours" => bench(&mut group, GROUP, function, &param, text, |t| {
                wirebytes_charset::encode(t, encoding, Replacement::Jdk)
            }),
            "ours-portable" => {
                let portable = levels::get("portable").expect("every CPU has the portable level");
                bench(&mut group, GROUP, function, &param, text, |t| {
                    portable.encode(t, encoding, Replacement::Jdk)
                });
            }
            other => panic!("unknown bench function {other}"),
        }
    }
    group.finish();
}

fn benches(c: &mut Criterion) {
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
