//! The JDK's own charsets, as the JDK describes them: names, aliases, replacement bytes,
//! kinds, and the single-byte charsets' mappings (`generated.rs`, written by
//! `cargo xtask jdk-tables` from a JDK 17).

#[rustfmt::skip]
mod generated;
pub(crate) mod multi;

pub(crate) use generated::{
    AVAILABLE, CHARSETS, ISO_8859_1, MULTI_BYTE, SINGLE_BYTE, US_ASCII, UTF_16, UTF_32, UTF_32BE,
    UTF_32LE,
};

/// The JDK the tables come from.
#[cfg(any(test, feature = "__internal"))]
pub(crate) const JDK_VERSION: &str = generated::JDK_VERSION;

/// One charset of the JDK.
#[derive(Debug)]
pub(crate) struct JdkCharset {
    /// The canonical name, `Charset.name()`.
    pub(crate) name: &'static str,
    /// `Charset.aliases()`, sorted.
    pub(crate) aliases: &'static [&'static str],
    /// What `String.getBytes` writes for a char the charset cannot encode: the encoder's
    /// `replacement()`.
    pub(crate) replacement: &'static [u8],
    pub(crate) kind: JdkKind,
}

/// How a JDK charset writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum JdkKind {
    Utf8,
    /// The JDK's "CESU-8": a supplementary char as its two surrogates, three bytes each.
    Cesu8,
    /// UTF-16 in the byte order; with `bom`, the byte order mark before non-empty output.
    Utf16 {
        big_endian: bool,
        bom: bool,
    },
    /// UTF-32 in the byte order; with `bom`, the byte order mark before non-empty output.
    Utf32 {
        big_endian: bool,
        bom: bool,
    },
    /// One byte per char: the index of its data in [`SINGLE_BYTE`].
    SingleByte(usize),
    /// Several bytes per char (stateless, or with a state: ISO-2022, EBCDIC shift-out and
    /// shift-in): the index of its data in [`MULTI_BYTE`].
    MultiByte(usize),
}

/// A single-byte charset's mapping, in the JDK's encode direction.
#[derive(Debug)]
pub(crate) struct SingleByteData {
    /// Every ASCII char is its own byte.
    pub(crate) ascii: bool,
    /// For each byte, a char that maps to it (`0xFFFF`: none does).
    pub(crate) b2c: [u16; 256],
    /// The other chars that map, and their bytes.
    pub(crate) extra: &'static [(u16, u8)],
}

impl SingleByteData {
    /// Every char that maps, with its byte.
    pub(crate) fn pairs(&self) -> impl Iterator<Item = (u32, u8)> + '_ {
        (0..=255u8)
            .filter_map(|b| {
                let c = self.b2c[usize::from(b)];
                (c != 0xFFFF).then_some((u32::from(c), b))
            })
            .chain(self.extra.iter().map(|&(c, b)| (u32::from(c), b)))
    }

    /// The byte of `c`, looked up the slow way.
    #[cfg(test)]
    fn byte(&self, c: u32) -> Option<u8> {
        self.pairs()
            .find(|&(mapped, _)| mapped == c)
            .map(|(_, b)| b)
    }
}

/// The index of the JDK charset named `name` (a canonical name or an alias, ASCII
/// case-insensitive), if the JDK has one.
pub(crate) fn index_of(name: &str) -> Option<u16> {
    let index = CHARSETS.iter().position(|charset| {
        charset.name.eq_ignore_ascii_case(name)
            || charset.aliases.iter().any(|a| a.eq_ignore_ascii_case(name))
    })?;
    u16::try_from(index).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// No name belongs to two charsets; the named constants point at their names.
    #[test]
    #[cfg_attr(
        miri,
        ignore = "quadratic in the JDK's names, no unsafe code on its path"
    )]
    fn names_are_unique_and_the_constants_right() {
        let mut seen: Vec<(String, &str)> = Vec::new();
        for charset in &CHARSETS {
            for name in std::iter::once(&charset.name).chain(charset.aliases) {
                let lower = name.to_ascii_lowercase();
                assert!(
                    seen.iter()
                        .all(|(other, owner)| *other != lower || *owner == charset.name),
                    "{name} in two charsets"
                );
                seen.push((lower, charset.name));
            }
        }
        for (index, name) in [
            (ISO_8859_1, "ISO-8859-1"),
            (US_ASCII, "US-ASCII"),
            (UTF_16, "UTF-16"),
            (UTF_32, "UTF-32"),
            (UTF_32BE, "UTF-32BE"),
            (UTF_32LE, "UTF-32LE"),
        ] {
            assert_eq!(CHARSETS[usize::from(index)].name, name);
            assert_eq!(index_of(name), Some(index));
        }
        assert!(JDK_VERSION.starts_with("17"), "{JDK_VERSION}");
    }

    /// The data every table is built from holds what the builder relies on: no char above
    /// ASCII maps to the byte 0, no char maps twice, `ascii` is true exactly when every ASCII
    /// char maps to itself.
    #[test]
    fn single_byte_data_is_well_formed() {
        for (k, data) in SINGLE_BYTE.iter().enumerate() {
            let mut seen = std::collections::HashSet::new();
            for (c, b) in data.pairs() {
                assert!(c < 0x80 || b != 0, "table {k}: U+{c:04X} maps to 00");
                assert!(seen.insert(c), "table {k}: U+{c:04X} twice");
            }
            let identity = (0..0x80u32).all(|c| data.byte(c) == Some(c as u8));
            assert_eq!(data.ascii, identity, "table {k}");
        }
    }
}
