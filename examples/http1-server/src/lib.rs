//! A small HTTP/1.1 server on `std::net` whose responses are rendered by the wirebytes
//! crates: the status line and the header lines by `wirebytes-ascii` (each line checked for
//! bytes that could split or smuggle a header as it is written), the body by
//! `wirebytes-charset` (the bytes Java's `String.getBytes(charset)` writes, streamed through
//! an [`EncodingWriter`](wirebytes_charset::EncodingWriter)).
//!
//! Its tests read the responses with hyper's HTTP/1.1 client over TCP loopback.
//!
//! # Examples
//!
//! ```
//! use wirebytes_charset::Charset;
//! use wirebytes_example_http1::Response;
//!
//! let charset = Charset::for_java_name("Shift_JIS").unwrap();
//! let response = Response::new(200, "OK", "text/plain", "日本語", charset)
//!     .with_header("Server", "wirebytes");
//! let bytes = response.render()?;
//! assert_eq!(
//!     bytes,
//!     b"HTTP/1.1 200 OK\r\n\
//!       Server: wirebytes\r\n\
//!       Content-Type: text/plain; charset=Shift_JIS\r\n\
//!       Content-Length: 6\r\n\
//!       Connection: close\r\n\
//!       \r\n\
//!       \x93\xFA\x96\x7B\x8C\xEA"
//! );
//! # Ok::<(), wirebytes_ascii::InvalidHeader>(())
//! ```

use std::io::{self, BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};

use wirebytes_ascii::InvalidHeader;
use wirebytes_charset::{Charset, Replacement};

/// One response: a status, header lines, and a text body encoded in a charset.
#[derive(Debug, Clone)]
pub struct Response {
    status: u16,
    reason: String,
    headers: Vec<(String, String)>,
    media_type: String,
    body: String,
    charset: Charset,
}

impl Response {
    /// A response with `status` and `reason`, whose body is `body` in `charset`, sent as
    /// `Content-Type: <media_type>; charset=<the charset's name>`.
    #[must_use]
    pub fn new(status: u16, reason: &str, media_type: &str, body: &str, charset: Charset) -> Self {
        Response {
            status,
            reason: reason.to_owned(),
            headers: Vec::new(),
            media_type: media_type.to_owned(),
            body: body.to_owned(),
            charset,
        }
    }

    /// The response with one more header line, before the ones the server adds
    /// (`Content-Type`, `Content-Length`, `Connection`). The value is written as Java's
    /// `String.getBytes(int, int, byte[], int)` writes a `String`: each char's low 8 bits,
    /// so Latin-1 text becomes its Latin-1 bytes.
    #[must_use]
    pub fn with_header(mut self, name: &str, value: &str) -> Self {
        self.headers.push((name.to_owned(), value.to_owned()));
        self
    }

    /// The body's bytes: the text in the response's charset, as Java's
    /// `String.getBytes(charset)` writes it (replacements included).
    #[must_use]
    pub fn body_bytes(&self) -> Vec<u8> {
        let mut writer = self.charset.new_writer(Replacement::Jdk, Vec::new());
        // Writing into a `Vec` cannot fail.
        let body = writer.write_text(&self.body).and_then(|()| writer.finish());
        body.unwrap_or_default()
    }

    /// The whole response as it goes on the wire.
    ///
    /// # Errors
    ///
    /// [`InvalidHeader`] when the status is not three digits, a header name is not a token,
    /// or the reason or a header value holds a byte that would end or split the line (CR,
    /// LF, NUL or another control byte once truncated to 8 bits).
    pub fn render(&self) -> Result<Vec<u8>, InvalidHeader> {
        let body = self.body_bytes();
        let mut out = Vec::with_capacity(128 + body.len());
        wirebytes_ascii::render_status_line(self.status, &self.reason, &mut out)?;
        for (name, value) in &self.headers {
            wirebytes_ascii::render_header(name, value, &mut out)?;
        }
        let content_type = format!("{}; charset={}", self.media_type, self.charset.name());
        wirebytes_ascii::render_header("Content-Type", &content_type, &mut out)?;
        wirebytes_ascii::render_header("Content-Length", &body.len().to_string(), &mut out)?;
        wirebytes_ascii::render_header("Connection", "close", &mut out)?;
        out.extend_from_slice(b"\r\n");
        out.extend_from_slice(&body);
        Ok(out)
    }
}

/// The demo server's page at `path`: `/` in UTF-8, `/sjis` in Shift_JIS, `/latin1` in
/// ISO-8859-1 with a Latin-1 header value, anything else a `404`.
#[must_use]
pub fn demo_page(path: &str) -> Response {
    let jdk = |name| Charset::for_java_name(name).unwrap_or(Charset::UTF_8);
    match path {
        "/" => Response::new(
            200,
            "OK",
            "text/plain",
            "Hello, wörld! 👋\n",
            Charset::UTF_8,
        ),
        "/sjis" => Response::new(200, "OK", "text/plain", "日本語", jdk("Shift_JIS")),
        "/latin1" => Response::new(
            200,
            "OK",
            "text/plain",
            "Grüße aus Köln\n",
            jdk("ISO-8859-1"),
        )
        .with_header("X-Greeting", "Grüße"),
        _ => Response::new(
            404,
            "Not Found",
            "text/plain",
            "no such page\n",
            Charset::UTF_8,
        ),
    }
}

/// Serves `connections` connections from `listener` (all of them when `None`), one request
/// each: reads the request head, answers with `respond(path)` rendered, and closes the
/// connection. A response that does not render is answered with `500` instead.
///
/// # Errors
///
/// The listener's errors. A connection's own errors (a client gone before its answer)
/// end that connection only.
pub fn serve(
    listener: &TcpListener,
    connections: Option<usize>,
    respond: impl Fn(&str) -> Response,
) -> io::Result<()> {
    let mut served = 0;
    while connections.is_none_or(|n| served < n) {
        let (stream, _) = listener.accept()?;
        served += 1;
        // A client that vanished or sent no request head gets nothing.
        let _ = answer(stream, &respond);
    }
    Ok(())
}

/// Reads one request head from `stream` and writes the response to its path.
fn answer(stream: TcpStream, respond: &impl Fn(&str) -> Response) -> io::Result<()> {
    let mut reader = BufReader::new(stream);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    // "GET /path HTTP/1.1": the path is the second word.
    let path = request_line.split(' ').nth(1).unwrap_or("/").to_owned();
    // The header lines, up to the empty one.
    let mut line = String::new();
    loop {
        line.clear();
        if reader.read_line(&mut line)? == 0 || line == "\r\n" || line == "\n" {
            break;
        }
    }
    let bytes = match respond(&path).render() {
        Ok(bytes) => bytes,
        Err(_) => Response::new(
            500,
            "Internal Server Error",
            "text/plain",
            "",
            Charset::UTF_8,
        )
        .render()
        .unwrap_or_default(),
    };
    let mut stream = reader.into_inner();
    stream.write_all(&bytes)?;
    stream.flush()
}
