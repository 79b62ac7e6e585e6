//! `cargo xtask jdk-tables`: the JDK's charsets as data for wirebytes-charset, dumped from the
//! running JDK by `xtask/java/JdkTables.java` and written as Rust source to
//! `crates/wirebytes-charset/src/jdk/generated.rs` (committed; no build step needs Java).
//!
//! For every charset the JDK can encode: its canonical name, aliases, replacement bytes and
//! kind (the Unicode family, single-byte, multi-byte); for a single-byte charset what
//! `String.getBytes` writes for every char: for each byte the char that maps to it (the one
//! the JDK decodes it to, where that one encodes back), and the chars that map one way.
//! The `charset` sweep of `cargo xtask verify` dumps the data again where `java` runs and
//! fails on any difference from the committed file.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::jdk_multi::{self, MultiDump, Planned, Pool};
use crate::verify::Java;

/// Where the generated tables live, from the workspace root.
pub(crate) fn generated_path(root: &Path) -> PathBuf {
    root.join("crates/wirebytes-charset/src/jdk/generated.rs")
}

/// The charsets the crate names in constants.
const NAMED: [&str; 6] = [
    "ISO-8859-1",
    "US-ASCII",
    "UTF-16",
    "UTF-32",
    "UTF-32BE",
    "UTF-32LE",
];

/// One charset as the JDK describes it.
#[derive(Debug)]
struct Dumped {
    name: String,
    kind: String,
    replacement: Vec<u8>,
    aliases: Vec<String>,
    /// Single-byte: the char of each byte (`0xFFFF`: none) and the one-way mappings.
    b2c: Vec<u16>,
    extra: Vec<(u16, u8)>,
    /// Multi-byte: every char's bytes, the pairs, whether stateless.
    multi: MultiDump,
}

/// Parses `hex` (two digits a byte).
fn parse_hex(hex: &str) -> Result<Vec<u8>, String> {
    if !hex.len().is_multiple_of(2) {
        return Err(format!("odd hex {hex:?}"));
    }
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).map_err(|e| format!("{hex:?}: {e}")))
        .collect()
}

/// Parses the dump: the JDK's version line and every charset.
fn parse(dump: &str) -> Result<(String, Vec<Dumped>), String> {
    let mut lines = dump.lines();
    let version = lines
        .next()
        .and_then(|line| line.strip_prefix("jdk "))
        .ok_or("the dump does not start with the JDK's version")?
        .replace('_', " ");
    let mut charsets: Vec<Dumped> = Vec::new();
    for line in lines {
        let mut fields = line.split(' ');
        match fields.next() {
            Some("charset") => {
                let (Some(name), Some(kind), Some(replacement), Some(aliases)) =
                    (fields.next(), fields.next(), fields.next(), fields.next())
                else {
                    return Err(format!("short charset line {line:?}"));
                };
                charsets.push(Dumped {
                    name: name.to_owned(),
                    kind: kind.to_owned(),
                    replacement: parse_hex(replacement)?,
                    aliases: if aliases == "-" {
                        Vec::new()
                    } else {
                        aliases.split(',').map(str::to_owned).collect()
                    },
                    b2c: Vec::new(),
                    extra: Vec::new(),
                    multi: MultiDump::default(),
                });
            }
            Some("b2c") => {
                let hex = fields.next().unwrap_or_default();
                let charset = charsets.last_mut().ok_or("b2c before a charset")?;
                if hex.len() != 256 * 4 {
                    return Err(format!("{}: b2c of {} digits", charset.name, hex.len()));
                }
                charset.b2c = (0..256)
                    .map(|b| u16::from_str_radix(&hex[4 * b..4 * b + 4], 16))
                    .collect::<Result<_, _>>()
                    .map_err(|e| format!("{}: b2c: {e}", charset.name))?;
            }
            Some("extra") => {
                let charset = charsets.last_mut().ok_or("extra before a charset")?;
                for pair in fields.filter(|f| *f != "-") {
                    let (c, b) = pair
                        .split_once(':')
                        .ok_or_else(|| format!("{}: extra {pair:?}", charset.name))?;
                    let c = u16::from_str_radix(c, 16).map_err(|e| e.to_string())?;
                    let b = u8::from_str_radix(b, 16).map_err(|e| e.to_string())?;
                    charset.extra.push((c, b));
                }
            }
            Some("m") => {
                let charset = charsets.last_mut().ok_or("m before a charset")?;
                let (Some(first), Some(list)) = (fields.next(), fields.next()) else {
                    return Err(format!("{}: short m line", charset.name));
                };
                let first = u32::from_str_radix(first, 16).map_err(|e| e.to_string())?;
                for (k, hex) in list.split(',').enumerate() {
                    charset.multi.map.insert(first + k as u32, parse_hex(hex)?);
                }
            }
            Some("pair") => {
                let charset = charsets.last_mut().ok_or("pair before a charset")?;
                let (Some(base), Some(mark), Some(hex)) =
                    (fields.next(), fields.next(), fields.next())
                else {
                    return Err(format!("{}: short pair line", charset.name));
                };
                let base = u32::from_str_radix(base, 16).map_err(|e| e.to_string())?;
                let mark = u32::from_str_radix(mark, 16).map_err(|e| e.to_string())?;
                charset.multi.pairs.push((base, mark, parse_hex(hex)?));
            }
            Some(state @ ("stateless" | "stateful")) => {
                let charset = charsets.last_mut().ok_or("a state before a charset")?;
                charset.multi.stateless = Some(state == "stateless");
            }
            _ => return Err(format!("unknown line {line:?}")),
        }
    }
    if charsets.is_empty() {
        return Err("the dump lists no charset".to_owned());
    }
    Ok((version, charsets))
}

/// The `JdkKind` of a charset of the Unicode family, by its name.
fn unicode_kind(name: &str) -> Option<&'static str> {
    Some(match name {
        "UTF-8" => "JdkKind::Utf8",
        "CESU-8" => "JdkKind::Cesu8",
        "UTF-16" => "JdkKind::Utf16 { big_endian: true, bom: true }",
        "UTF-16BE" => "JdkKind::Utf16 { big_endian: true, bom: false }",
        "UTF-16LE" => "JdkKind::Utf16 { big_endian: false, bom: false }",
        "x-UTF-16LE-BOM" => "JdkKind::Utf16 { big_endian: false, bom: true }",
        "UTF-32" | "UTF-32BE" => "JdkKind::Utf32 { big_endian: true, bom: false }",
        "UTF-32LE" => "JdkKind::Utf32 { big_endian: false, bom: false }",
        "X-UTF-32BE-BOM" => "JdkKind::Utf32 { big_endian: true, bom: true }",
        "X-UTF-32LE-BOM" => "JdkKind::Utf32 { big_endian: false, bom: true }",
        _ => return None,
    })
}

/// A Rust identifier for the data of charset `name`.
fn ident(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect()
}

/// A byte string literal.
fn bytes_literal(bytes: &[u8]) -> String {
    let mut out = String::from("b\"");
    for &b in bytes {
        let _ = write!(out, "\\x{b:02X}");
    }
    out.push('"');
    out
}

/// The Rust source of the tables.
fn render(
    version: &str,
    charsets: &[Dumped],
    gb18030_2000: Option<&Dumped>,
) -> Result<(String, Vec<u8>), String> {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "//! The JDK's charsets, generated by `cargo xtask jdk-tables` from {version}: do not edit.\n\
         //!\n\
         //! Every charset `Charset.availableCharsets()` can encode, by canonical name: its aliases,\n\
         //! replacement bytes and kind; for a single-byte charset the char of each byte (where the\n\
         //! JDK decodes the byte to a char that encodes back to it, that char; else the lowest\n\
         //! char that encodes to it; `0xFFFF` where none does) and the chars that map one way."
    );
    out.push_str(
        "\nuse super::{JdkCharset, JdkKind, SingleByteData};\n\
         use super::multi::{Form, MultiByteData, Plane, Run};\n\n",
    );
    let _ = writeln!(
        out,
        "/// The JDK the tables come from.\npub(crate) const JDK_VERSION: &str = {version:?};\n"
    );
    let single: Vec<&Dumped> = charsets.iter().filter(|c| c.kind == "single").collect();
    // The multi-byte charsets (stateless and stateful), then GB18030 as the JDK writes it with
    // -Djdk.charset.GB18030=2000 (an entry after the JDK's own in `CHARSETS`).
    let mut multi: Vec<(&Dumped, Planned)> = Vec::new();
    for charset in charsets.iter().chain(gb18030_2000) {
        if charset.kind == "multi" && charset.multi.stateless.is_some() {
            multi.push((charset, jdk_multi::plan(&charset.name, &charset.multi)?));
        }
    }
    let _ = writeln!(
        out,
        "/// How many charsets `Charset.availableCharsets()` lists: the first entries of [`CHARSETS`].\n\
         pub(crate) const AVAILABLE: usize = {};\n",
        charsets.len()
    );
    // The indices the crate names in constants (`StandardCharsets` and the BOM variants).
    for name in NAMED {
        let index = charsets
            .iter()
            .position(|c| c.name == name)
            .ok_or_else(|| format!("the JDK has no {name}"))?;
        let _ = writeln!(
            out,
            "/// The index of {name} in [`CHARSETS`].
pub(crate) const {}: u16 = {index};",
            ident(name)
        );
    }
    out.push('\n');
    let _ = writeln!(
        out,
        "/// The JDK's charsets, by canonical name; after them, GB18030 with the 2005 mapping.\n\
         pub(crate) static CHARSETS: [JdkCharset; {}] = [",
        charsets.len() + usize::from(gb18030_2000.is_some())
    );
    for (i, charset) in charsets.iter().chain(gb18030_2000).enumerate() {
        let kind = match charset.kind.as_str() {
            "unicode" => unicode_kind(&charset.name)
                .ok_or_else(|| format!("{}: a Unicode charset of unknown kind", charset.name))?
                .to_owned(),
            "single" => {
                let k = single
                    .iter()
                    .position(|c| c.name == charset.name)
                    .ok_or("unreachable: a single-byte charset not in the list")?;
                format!("JdkKind::SingleByte({k})")
            }
            "multi" => match multi.iter().position(|(m, _)| std::ptr::eq(*m, charset)) {
                Some(k) => format!("JdkKind::MultiByte({k})"),
                None => {
                    return Err(format!(
                        "{}: a multi-byte charset without data",
                        charset.name
                    ));
                }
            },
            other => return Err(format!("{}: unknown kind {other:?}", charset.name)),
        };
        let aliases: Vec<String> = charset.aliases.iter().map(|a| format!("{a:?}")).collect();
        if i == charsets.len() {
            out.push_str("    // -Djdk.charset.GB18030=2000\n");
        }
        let _ = writeln!(
            out,
            "    JdkCharset {{\n        name: {:?},\n        aliases: &[{}],\n        replacement: {},\n        kind: {kind},\n    }},",
            charset.name,
            aliases.join(", "),
            bytes_literal(&charset.replacement)
        );
    }
    out.push_str("];\n\n");
    let _ = writeln!(
        out,
        "/// The single-byte charsets' data, in the order of [`CHARSETS`].\npub(crate) static SINGLE_BYTE: [&SingleByteData; {}] = [",
        single.len()
    );
    for charset in &single {
        let _ = writeln!(out, "    &MAP_{},", ident(&charset.name));
    }
    out.push_str("];\n");
    for charset in &single {
        check_single_byte(charset)?;
        let ascii = (0..0x80u16).all(|b| charset.b2c[usize::from(b)] == b);
        let _ = writeln!(
            out,
            "\n/// {}.\nstatic MAP_{}: SingleByteData = SingleByteData {{\n    ascii: {ascii},\n    b2c: [",
            charset.name,
            ident(&charset.name)
        );
        for row in charset.b2c.chunks(8) {
            let items: Vec<String> = row.iter().map(|c| format!("0x{c:04X}")).collect();
            let _ = writeln!(out, "        {},", items.join(", "));
        }
        out.push_str("    ],\n    extra: &[");
        if !charset.extra.is_empty() {
            out.push('\n');
            for row in charset.extra.chunks(6) {
                let items: Vec<String> = row
                    .iter()
                    .map(|(c, b)| format!("(0x{c:04X}, 0x{b:02X})"))
                    .collect();
                let _ = writeln!(out, "        {},", items.join(", "));
            }
            out.push_str("    ");
        }
        out.push_str("],\n};\n");
    }
    let blob = render_multi(&mut out, &multi)?;
    Ok((out, blob))
}

/// The multi-byte charsets' data and the file of their blocks.
fn render_multi(out: &mut String, multi: &[(&Dumped, Planned)]) -> Result<Vec<u8>, String> {
    let mut pool = Pool::new();
    let mut entries = Vec::new();
    for (charset, planned) in multi {
        let bmp = pool.add_plane(&planned.codes, 0)?;
        let plane2 = if planned.codes.keys().any(|&c| c >= 0x2_0000) {
            Some(pool.add_plane(&planned.codes, 0x2_0000)?)
        } else {
            None
        };
        entries.push((charset, planned, bmp, plane2));
    }
    let (blob, at) = pool.bytes();
    let _ = writeln!(
        out,
        "\n/// Where the sections of `multi_byte.bin` start (index, masks, bases, codes), and its \
         length; {} blocks.\npub(crate) const SECTIONS: [usize; 5] = [{}, {}, {}, {}, {}];",
        pool.blocks(),
        at[0],
        at[1],
        at[2],
        at[3],
        blob.len()
    );
    let _ = writeln!(
        out,
        "\n/// The multi-byte charsets' data, in the order of [`CHARSETS`].\n\
         pub(crate) static MULTI_BYTE: [MultiByteData; {}] = [",
        entries.len()
    );
    for (charset, planned, bmp, plane2) in entries {
        let pairs: Vec<String> = planned
            .pairs
            .iter()
            .map(|(b, m, c)| format!("(0x{b:04X}, 0x{m:04X}, 0x{c:04X})"))
            .collect();
        let _ = writeln!(
            out,
            "    // {}\n    MultiByteData {{\n        form: {},\n        ascii: {},\n        bmp: {bmp},\n        plane2: {},\n        pairs: &[{}],\n    }},",
            charset.name,
            jdk_multi::form_source(&planned.form),
            planned.ascii,
            plane2.map_or("None".to_owned(), |p| format!("Some({p})")),
            pairs.join(", ")
        );
    }
    out.push_str("];\n");
    Ok(blob)
}

/// What the crate's table builder relies on: no char above ASCII maps to the byte 0 (a 0
/// there means "unmappable"), no char maps twice, no surrogate maps.
fn check_single_byte(charset: &Dumped) -> Result<(), String> {
    let mut seen = std::collections::HashSet::new();
    let pairs = charset
        .b2c
        .iter()
        .enumerate()
        .filter(|&(_, &c)| c != 0xFFFF)
        .map(|(b, &c)| (c, b as u8))
        .chain(charset.extra.iter().copied());
    for (c, b) in pairs {
        if c >= 0x80 && b == 0 {
            return Err(format!("{}: U+{c:04X} maps to the byte 00", charset.name));
        }
        if (0xD800..=0xDFFF).contains(&c) {
            return Err(format!("{}: the surrogate {c:04X} maps", charset.name));
        }
        if !seen.insert(c) {
            return Err(format!("{}: U+{c:04X} maps twice", charset.name));
        }
    }
    Ok(())
}

/// Where the multi-byte charsets' blocks live, from the workspace root.
pub(crate) fn blob_path(root: &Path) -> PathBuf {
    root.join("crates/wirebytes-charset/src/jdk/multi_byte.bin")
}

/// Dumps the JDK's charsets with `java` (twice: GB18030's 2005 mapping needs a system
/// property) and renders the Rust source and the multi-byte blocks.
pub(crate) fn generate(java: &Java) -> Result<(String, Vec<u8>), String> {
    let dump = |flags: &[&str], args: &[&str]| -> Result<(String, Vec<Dumped>), String> {
        let dump = java.run_with(flags, "JdkTables.java", args, &[])?;
        let dump = String::from_utf8(dump).map_err(|e| format!("the dump is not UTF-8: {e}"))?;
        parse(&dump)
    };
    let (version, charsets) = dump(&[], &[])?;
    let (_, mut gb18030) = dump(&["-Djdk.charset.GB18030=2000"], &["only=GB18030"])?;
    let gb18030_2000 = gb18030.pop().filter(|c| c.name == "GB18030");
    if gb18030_2000.is_none() {
        return Err("the dump with -Djdk.charset.GB18030=2000 has no GB18030".to_owned());
    }
    render(&version, &charsets, gb18030_2000.as_ref())
}

/// `cargo xtask jdk-tables`: writes the generated file.
pub(crate) fn main(root: &Path, _quick: bool, names: &[String]) -> ExitCode {
    if !names.is_empty() {
        eprintln!("error: `jdk-tables` takes no names");
        return ExitCode::from(2);
    }
    let Some(java) = Java::find(root) else {
        eprintln!(
            "error: `java` is not on PATH (nor under $JAVA_HOME): the tables come from a JDK"
        );
        return ExitCode::from(2);
    };
    match generate(&java) {
        Ok((source, blob)) => {
            for (path, bytes) in [
                (generated_path(root), source.as_bytes()),
                (blob_path(root), &blob[..]),
            ] {
                let old = std::fs::read(&path).unwrap_or_default();
                if let Err(err) = std::fs::write(&path, bytes) {
                    eprintln!("error: {}: {err}", path.display());
                    return ExitCode::FAILURE;
                }
                println!(
                    "{}: {} bytes{}",
                    path.strip_prefix(root).unwrap_or(&path).display(),
                    bytes.len(),
                    if old == bytes {
                        ", unchanged"
                    } else {
                        ", written"
                    }
                );
            }
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("error: {err}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dump_parses_and_renders() {
        let mut b2c: String = (0..256).map(|b| format!("{b:04x}")).collect();
        b2c.replace_range(4 * 0xA4..4 * 0xA5, "20ac");
        let dump = format!(
            "jdk 17.0.15 Debian\n\
             charset UTF-8 unicode 3f UTF8,unicode-1-1-utf-8\n\
             charset ISO-8859-1 multi 3f -\n\
             stateless\n\
             charset US-ASCII multi 3f -\n\
             stateless\n\
             charset UTF-16 unicode fffd -\n\
             charset UTF-32 unicode 0000fffd -\n\
             charset UTF-32BE unicode 0000fffd -\n\
             charset UTF-32LE unicode fdff0000 -\n\
             charset X-LATIN single 3f -\n\
             b2c {b2c}\n\
             extra 00a4:3f\n\
             charset Big5 multi 3f csBig5\n\
             m 41 41\n\
             m 3042 c6a6\n\
             stateless\n"
        );
        let (version, charsets) = parse(&dump).unwrap();
        assert_eq!(version, "17.0.15 Debian");
        assert_eq!(charsets.len(), 9);
        assert_eq!(charsets[7].extra, [(0x00A4, 0x3F)]);
        let (source, _) = render(&version, &charsets, None).unwrap();
        assert!(source.contains("kind: JdkKind::SingleByte(0)"), "{source}");
        assert!(
            source.contains("static MAP_X_LATIN: SingleByteData"),
            "{source}"
        );
        assert!(source.contains("(0x00A4, 0x3F)"), "{source}");
        assert!(source.contains("0x20AC"), "{source}");
        assert!(source.contains("kind: JdkKind::MultiByte(2)"), "{source}");
        assert!(source.contains("form: Form::Mixed"), "{source}");
    }

    #[test]
    fn a_char_mapped_twice_is_refused() {
        let mut b2c: String = (0..256).map(|b| format!("{b:04x}")).collect();
        b2c.push_str("");
        let named: String = NAMED
            .iter()
            .map(|name| format!("charset {name} multi 3f -\nstateless\n"))
            .collect();
        let dump = format!("jdk 17\n{named}charset X single 3f -\nb2c {b2c}\nextra 0041:42\n");
        let (version, charsets) = parse(&dump).unwrap();
        assert!(
            render(&version, &charsets, None)
                .unwrap_err()
                .contains("twice")
        );
    }
}
