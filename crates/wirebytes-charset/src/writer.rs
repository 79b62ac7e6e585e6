//! [`EncodingWriter`]: text in through [`fmt::Write`], charset bytes out to any
//! [`io::Write`], through an [`Encoder`] and a buffer.

use std::fmt;
use std::io;

use crate::{Charset, Encoder};

/// How many encoded bytes the writer holds before it writes them to its sink.
const CAPACITY: usize = 8 * 1024;

/// Writes text into an [`io::Write`] in a charset: the text comes in through
/// [`fmt::Write`] (so `write!` works) or [`write_text`](Self::write_text), and the sink
/// gets the bytes [`Charset::encode`] writes for the whole text, in writes of about 8 KiB.
///
/// Made by [`Charset::new_writer`]. [`finish`](Self::finish) ends the text (a stateful
/// charset returns to its initial state, a BOM charset has written its BOM if the text was
/// not empty), writes what is buffered and hands the sink back. Dropped without `finish`,
/// the writer ends the text and writes the rest as `finish` does, ignoring errors, as
/// [`io::BufWriter`] does.
///
/// An error of the sink is kept: [`fmt::Write`] can only say [`fmt::Error`], so the next
/// [`write_text`](Self::write_text), [`flush`](Self::flush) or
/// [`finish`](Self::finish) returns the [`io::Error`] itself, and nothing more is written.
///
/// # Examples
///
/// ```
/// use std::fmt::Write as _;
/// use wirebytes_charset::{Charset, Replacement};
///
/// let charset = Charset::from(encoding_rs::ISO_2022_JP);
/// let mut writer = charset.new_writer(Replacement::Jdk, Vec::new());
/// for (i, word) in ["日本", "語"].iter().enumerate() {
///     write!(writer, "{i}:{word} ")?;
/// }
/// let body = writer.finish()?;
/// assert_eq!(body, charset.encode("0:日本 1:語 ", Replacement::Jdk));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct EncodingWriter<W: io::Write> {
    encoder: Encoder,
    buf: Vec<u8>,
    error: Option<io::Error>,
    /// `None` once [`finish`](Self::finish) took it.
    sink: Option<W>,
}

impl Charset {
    /// An [`EncodingWriter`] into `sink`: text written to it comes out in this charset, as
    /// [`encode`](Self::encode) writes the whole text.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::fmt::Write as _;
    /// use wirebytes_charset::{Charset, Replacement};
    ///
    /// let mut writer = Charset::ISO_8859_1.new_writer(Replacement::Jdk, Vec::new());
    /// write!(writer, "Gr\u{FC}\u{DF}e, {}!", "\u{1F600}")?;
    /// assert_eq!(writer.finish()?, b"Gr\xFC\xDFe, ?!");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn new_writer<W: io::Write>(
        self,
        replacement: crate::Replacement,
        sink: W,
    ) -> EncodingWriter<W> {
        EncodingWriter {
            encoder: self.new_encoder(replacement),
            buf: Vec::new(),
            error: None,
            sink: Some(sink),
        }
    }
}

impl<W: io::Write> EncodingWriter<W> {
    /// The charset the writer writes.
    #[must_use]
    pub fn charset(&self) -> Charset {
        self.encoder.charset()
    }

    /// The sink.
    #[must_use]
    pub fn get_ref(&self) -> &W {
        self.sink
            .as_ref()
            .expect("the sink is taken only by finish, which consumes the writer")
    }

    /// The sink, mutably. Writing to it directly puts those bytes before the ones the writer
    /// still holds.
    #[must_use]
    pub fn get_mut(&mut self) -> &mut W {
        self.sink
            .as_mut()
            .expect("the sink is taken only by finish, which consumes the writer")
    }

    /// Encodes `text` as the next part of the text; the bytes go to the sink once about 8 KiB
    /// are held.
    ///
    /// # Errors
    ///
    /// The sink's error, or the one kept from an earlier write; then nothing more is
    /// written.
    pub fn write_text(&mut self, text: &str) -> io::Result<()> {
        self.check()?;
        self.encoder.encode_to_vec(text, false, &mut self.buf);
        if self.buf.len() >= CAPACITY {
            self.drain()?;
        }
        Ok(())
    }

    /// Writes the bytes held so far to the sink and flushes it. The text does not end: a
    /// stateful charset stays in its state, and a surrogate pair or char the encoder holds
    /// is written with what follows.
    ///
    /// # Errors
    ///
    /// The sink's error, or the one kept from an earlier write.
    pub fn flush(&mut self) -> io::Result<()> {
        self.check()?;
        self.drain()?;
        self.get_mut().flush()
    }

    /// Ends the text, writes the rest to the sink, flushes it and returns it.
    ///
    /// # Errors
    ///
    /// The sink's error, or the one kept from an earlier write.
    pub fn finish(mut self) -> io::Result<W> {
        self.end()?;
        Ok(self.sink.take().expect("the sink is taken only here, once"))
    }

    /// Ends the text and writes it all: what [`finish`](Self::finish) and `drop` share.
    fn end(&mut self) -> io::Result<()> {
        self.check()?;
        self.encoder.encode_to_vec("", true, &mut self.buf);
        self.drain()?;
        self.get_mut().flush()
    }

    /// The kept error, if any: the sink's own error the first time, when no call could
    /// return it yet, and a copy of it (its kind and message) after that.
    fn check(&mut self) -> io::Result<()> {
        match self.error.take() {
            Some(err) => {
                self.error = Some(copy(&err));
                Err(err)
            }
            None => Ok(()),
        }
    }

    /// Writes the held bytes to the sink; a copy of an error is kept.
    fn drain(&mut self) -> io::Result<()> {
        let Some(sink) = self.sink.as_mut() else {
            return Ok(());
        };
        let result = sink.write_all(&self.buf);
        self.buf.clear();
        if let Err(err) = &result {
            self.error = Some(copy(err));
        }
        result
    }
}

/// An error of the same kind and message as `err`.
fn copy(err: &io::Error) -> io::Error {
    io::Error::new(err.kind(), err.to_string())
}

impl<W: io::Write> fmt::Write for EncodingWriter<W> {
    /// [`write_text`](EncodingWriter::write_text); its error, which `fmt` cannot carry, is
    /// kept for the next call that can return it.
    fn write_str(&mut self, text: &str) -> fmt::Result {
        self.write_text(text).map_err(|err| {
            self.error = Some(err);
            fmt::Error
        })
    }
}

impl<W: io::Write> Drop for EncodingWriter<W> {
    fn drop(&mut self) {
        if self.sink.is_some() && !std::thread::panicking() {
            let _ = self.end();
        }
    }
}

impl<W: io::Write + fmt::Debug> fmt::Debug for EncodingWriter<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EncodingWriter")
            .field("charset", &self.encoder.charset())
            .field("held", &self.buf.len())
            .field("error", &self.error)
            .field("sink", &self.sink)
            .finish()
    }
}
