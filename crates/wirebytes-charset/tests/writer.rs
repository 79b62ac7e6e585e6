//! `EncodingWriter`: text written in pieces (through `write!` and `write_text`) reaches the
//! sink as the bytes `encode` writes for the whole, for every charset and both replacements,
//! whether the writer is finished, flushed on the way or dropped; large texts go out in
//! writes of about 8 KiB; a failing sink's error comes back, and nothing more is written.
//! Every charset: the WHATWG encodings and the JDK's, stateful ones included.

use std::fmt::Write as _;
use std::io;

use wirebytes_charset::{Charset, Replacement};
use wirebytes_testkit::Rng;
use wirebytes_testkit::text::random_text;

/// `text` cut at random char boundaries.
fn pieces<'a>(rng: &mut Rng, text: &'a str) -> Vec<&'a str> {
    let mut cuts: Vec<usize> = (1..text.len())
        .filter(|&i| text.is_char_boundary(i) && rng.one_in(7))
        .collect();
    cuts.insert(0, 0);
    cuts.push(text.len());
    cuts.windows(2).map(|w| &text[w[0]..w[1]]).collect()
}

/// Writes `pieces` into a writer of `charset`, alternately through `write!` and
/// `write_text`, flushing now and then, and ends it by `finish` or by dropping it.
fn written(charset: Charset, replacement: Replacement, pieces: &[&str], rng: &mut Rng) -> Vec<u8> {
    let mut sink = Vec::new();
    let mut writer = charset.new_writer(replacement, &mut sink);
    for (i, piece) in pieces.iter().enumerate() {
        if i % 2 == 0 {
            write!(writer, "{piece}").unwrap();
        } else {
            writer.write_text(piece).unwrap();
        }
        if rng.one_in(5) {
            writer.flush().unwrap();
        }
    }
    if rng.one_in(2) {
        writer.finish().unwrap();
    } else {
        drop(writer);
    }
    sink
}

#[test]
fn pieces_make_the_whole_text_in_every_charset() {
    let mut rng = Rng::new(0x003A_17E4);
    let texts: Vec<String> = (0..wirebytes_testkit::scale(12, 4))
        .map(|_| random_text(&mut rng, 6))
        .chain([
            String::new(),
            "\u{65E5}\u{672C}\u{8A9E} a\u{1F600}b \u{E9}".to_owned(),
        ])
        .collect();
    let charsets = Charset::whatwg_charsets().chain(Charset::java_charsets());
    for charset in charsets {
        for replacement in [Replacement::Jdk, Replacement::Whatwg] {
            for text in &texts {
                let pieces = pieces(&mut rng, text);
                assert_eq!(
                    written(charset, replacement, &pieces, &mut rng),
                    charset.encode(text, replacement),
                    "{charset} {replacement:?} {pieces:?}"
                );
            }
        }
    }
}

/// A sink that records the length of each write.
#[derive(Debug, Default)]
struct Recorder {
    bytes: Vec<u8>,
    writes: Vec<usize>,
    flushes: usize,
}

impl io::Write for Recorder {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.bytes.extend_from_slice(buf);
        self.writes.push(buf.len());
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.flushes += 1;
        Ok(())
    }
}

/// 100 KiB written 10 bytes at a time goes out in writes of 8 KiB and a little more, and the
/// last one at `finish`, which flushes the sink once.
#[test]
fn a_large_text_goes_out_in_writes_of_about_8_kib() {
    let charset = Charset::for_java_name("windows-1251").unwrap();
    let text = "\u{436}abcdefgh\n".repeat(10_240);
    let mut writer = charset.new_writer(Replacement::Jdk, Recorder::default());
    for line in text.split_inclusive('\n') {
        writer.write_text(line).unwrap();
    }
    assert!(
        writer.get_ref().writes.len() == 12,
        "{:?}",
        writer.get_ref().writes
    );
    let sink = writer.finish().unwrap();
    assert_eq!(sink.bytes, charset.encode(&text, Replacement::Jdk));
    assert_eq!(sink.writes.len(), 13);
    assert!(
        sink.writes[..12]
            .iter()
            .all(|&n| (8192..8192 + 10).contains(&n))
    );
    assert_eq!(sink.flushes, 1);
}

/// `flush` writes what is held but does not end the text: ISO-2022-JP (WHATWG's, and the
/// JDK's where its tables are built in) stays in JIS X 0208 across it, and only the end
/// returns to ASCII.
#[test]
fn flush_does_not_end_the_text() {
    let mut charsets = vec![Charset::from(encoding_rs::ISO_2022_JP)];
    charsets.extend(Charset::for_java_name("ISO-2022-JP"));
    assert_eq!(
        charsets.len(),
        1 + usize::from(cfg!(feature = "jdk-multi-byte"))
    );
    for charset in charsets {
        let mut writer = charset.new_writer(Replacement::Jdk, Recorder::default());
        writer.write_text("\u{65E5}").unwrap();
        writer.flush().unwrap();
        assert_eq!(writer.get_ref().bytes, b"\x1B$BF|", "{charset}");
        assert_eq!(writer.get_ref().flushes, 1);
        writer.write_text("\u{672C}").unwrap();
        let sink = writer.finish().unwrap();
        assert_eq!(sink.bytes, b"\x1B$BF|K\\\x1B(B", "{charset}");
        assert_eq!(
            sink.bytes,
            charset.encode("\u{65E5}\u{672C}", Replacement::Jdk)
        );
    }
}

/// A sink that takes `room` bytes, then fails.
#[derive(Debug)]
struct Full {
    room: usize,
    bytes: Vec<u8>,
}

impl io::Write for Full {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.room == 0 {
            return Err(io::Error::new(
                io::ErrorKind::StorageFull,
                "the sink is full",
            ));
        }
        let n = buf.len().min(self.room);
        self.bytes.extend_from_slice(&buf[..n]);
        self.room -= n;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The sink's error comes back from the call that met it, and again from every later one;
/// through `write!` (which can only say `fmt::Error`) it comes back from the next call.
#[test]
fn a_failing_sink_error_comes_back_and_stops_the_writer() {
    let big = "x".repeat(10_000);
    let mut writer = Charset::UTF_8.new_writer(
        Replacement::Jdk,
        Full {
            room: 100,
            bytes: Vec::new(),
        },
    );
    let err = writer.write_text(&big).unwrap_err();
    assert_eq!(err.kind(), io::ErrorKind::StorageFull);
    assert_eq!(err.to_string(), "the sink is full");
    assert!(write!(writer, "more").is_err());
    assert_eq!(
        writer.flush().unwrap_err().kind(),
        io::ErrorKind::StorageFull
    );
    assert_eq!(writer.get_ref().bytes.len(), 100);
    let err = writer.finish().unwrap_err();
    assert_eq!(err.kind(), io::ErrorKind::StorageFull);

    let mut writer = Charset::UTF_8.new_writer(
        Replacement::Jdk,
        Full {
            room: 0,
            bytes: Vec::new(),
        },
    );
    assert!(write!(writer, "{big}").is_err());
    let err = writer.finish().unwrap_err();
    assert_eq!(
        (err.kind(), err.to_string().as_str()),
        (io::ErrorKind::StorageFull, "the sink is full")
    );
}

#[test]
fn the_writer_says_what_it_is() {
    let mut writer = Charset::UTF_16.new_writer(Replacement::Jdk, Vec::new());
    assert_eq!(writer.charset(), Charset::UTF_16);
    writer.write_text("a").unwrap();
    assert_eq!(
        format!("{writer:?}"),
        "EncodingWriter { charset: Charset(UTF-16), held: 4, error: None, sink: Some([]) }"
    );
    writer.get_mut().push(b'!');
    assert_eq!(writer.finish().unwrap(), b"!\xFE\xFF\0a");
}

#[test]
fn the_writer_goes_to_other_threads() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<wirebytes_charset::EncodingWriter<Vec<u8>>>();
}
