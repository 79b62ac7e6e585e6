//! The server's responses read by hyper's HTTP/1.1 client over TCP loopback: the status,
//! the reason, every header (name and value bytes) and the body bytes arrive as the test
//! expects them, the expectations computed here from the text (Latin-1 bytes for header
//! values, the charset's encoder or literal bytes for bodies), not from the server's code.

use std::io;
use std::net::TcpListener;
use std::pin::Pin;
use std::task::{Context, Poll, ready};

use http_body_util::{BodyExt, Empty};
use hyper::Request;
use hyper::body::Bytes;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use wirebytes_charset::{Charset, Replacement};
use wirebytes_example_http1::{Response, demo_page, serve};

/// A tokio stream as hyper's I/O traits want it.
struct Io(tokio::net::TcpStream);

impl hyper::rt::Read for Io {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        mut buf: hyper::rt::ReadBufCursor<'_>,
    ) -> Poll<io::Result<()>> {
        let mut tmp = [0u8; 4096];
        let room = buf.remaining().min(tmp.len());
        let mut read = ReadBuf::new(&mut tmp[..room]);
        ready!(Pin::new(&mut self.0).poll_read(cx, &mut read))?;
        buf.put_slice(read.filled());
        Poll::Ready(Ok(()))
    }
}

impl hyper::rt::Write for Io {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.0).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.0).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.0).poll_shutdown(cx)
    }
}

/// What hyper read: status, reason phrase, headers in order, body.
#[derive(Debug, PartialEq)]
struct Received {
    status: u16,
    reason: Vec<u8>,
    headers: Vec<(String, Vec<u8>)>,
    body: Vec<u8>,
}

/// One GET of `path` on a fresh connection to `port`.
async fn get(port: u16, path: &str) -> Result<Received, Box<dyn std::error::Error>> {
    let stream = tokio::net::TcpStream::connect(("127.0.0.1", port)).await?;
    let (mut sender, connection) = hyper::client::conn::http1::handshake(Io(stream)).await?;
    let driver = tokio::spawn(connection);
    let request = Request::get(path)
        .header("Host", "localhost")
        .body(Empty::<Bytes>::new())?;
    let response = sender.send_request(request).await?;
    let status = response.status();
    // hyper keeps a reason phrase only where it is not the status's canonical one (and
    // drops a reason with non-ASCII bytes, as its parser does: the reasons here are ASCII).
    let reason = match response.extensions().get::<hyper::ext::ReasonPhrase>() {
        Some(reason) => reason.as_bytes().to_vec(),
        None => status.canonical_reason().unwrap_or("").as_bytes().to_vec(),
    };
    let headers = response
        .headers()
        .iter()
        .map(|(name, value)| (name.as_str().to_owned(), value.as_bytes().to_vec()))
        .collect();
    let body = response.into_body().collect().await?.to_bytes().to_vec();
    driver.await??;
    Ok(Received {
        status: status.as_u16(),
        reason,
        headers,
        body,
    })
}

/// Latin-1 text as its bytes, each char's code point (the test's own conversion).
fn latin1(text: &str) -> Vec<u8> {
    text.chars()
        .map(|c| u8::try_from(u32::from(c)).expect("Latin-1 text"))
        .collect()
}

/// The headers the server adds after the page's own.
fn expected_headers(
    own: &[(&str, &str)],
    media: &str,
    charset: &str,
    body_len: usize,
) -> Vec<(String, Vec<u8>)> {
    own.iter()
        .map(|(name, value)| (name.to_ascii_lowercase(), latin1(value)))
        .chain([
            (
                "content-type".to_owned(),
                format!("{media}; charset={charset}").into_bytes(),
            ),
            (
                "content-length".to_owned(),
                body_len.to_string().into_bytes(),
            ),
            ("connection".to_owned(), b"close".to_vec()),
        ])
        .collect()
}

fn charset(name: &str) -> Charset {
    Charset::for_java_name(name).expect("a JDK charset")
}

/// A long body of mixed text: several reads on the client's side.
fn long_text() -> String {
    let mut text = String::new();
    for i in 0..4000 {
        text.push_str(&format!("{i}: 中文文本, ASCII, Ünïcödé, 😀\n"));
    }
    text
}

/// The demo pages, and three of the test's own. The `/smuggle` page's header would end its
/// line early: it is never sent, a `500` is.
fn page(path: &str) -> Response {
    match path {
        "/custom" => Response::new(
            299,
            "Tres Bien",
            "text/plain",
            "5 €, Grüße\n",
            charset("ISO-8859-1"),
        )
        .with_header("Cache-Control", "no-store"),
        "/gb18030" => Response::new(200, "OK", "text/csv", &long_text(), charset("GB18030"))
            .with_header("X-Rows", "4000"),
        "/smuggle" => Response::new(200, "OK", "text/plain", "x", Charset::UTF_8)
            .with_header("X-Name", "a\r\nSet-Cookie: stolen=1"),
        _ => demo_page(path),
    }
}

/// A path, then what GET on it must give: status, reason, the page's own headers, media
/// type, charset name, body.
type Case<'a> = (
    &'a str,
    u16,
    &'a str,
    Vec<(&'a str, &'a str)>,
    &'a str,
    &'a str,
    Vec<u8>,
);

#[test]
fn hyper_reads_what_the_server_rendered() {
    let long = long_text();
    let cases: Vec<Case<'_>> = vec![
        (
            "/",
            200,
            "OK",
            vec![],
            "text/plain",
            "UTF-8",
            "Hello, wörld! 👋\n".as_bytes().to_vec(),
        ),
        // "日本語" in Shift_JIS, byte for byte.
        (
            "/sjis",
            200,
            "OK",
            vec![],
            "text/plain",
            "Shift_JIS",
            b"\x93\xFA\x96\x7B\x8C\xEA".to_vec(),
        ),
        (
            "/latin1",
            200,
            "OK",
            vec![("X-Greeting", "Grüße")],
            "text/plain",
            "ISO-8859-1",
            b"Gr\xFC\xDFe aus K\xF6ln\n".to_vec(),
        ),
        (
            "/custom",
            299,
            "Tres Bien",
            vec![("Cache-Control", "no-store")],
            "text/plain",
            "ISO-8859-1",
            // The euro sign is not in Latin-1: Java writes '?'.
            b"5 ?, Gr\xFC\xDFe\n".to_vec(),
        ),
        (
            "/gb18030",
            200,
            "OK",
            vec![("X-Rows", "4000")],
            "text/csv",
            "GB18030",
            charset("GB18030").encode(&long, Replacement::Jdk),
        ),
        (
            "/smuggle",
            500,
            "Internal Server Error",
            vec![],
            "text/plain",
            "UTF-8",
            Vec::new(),
        ),
        (
            "/nothing",
            404,
            "Not Found",
            vec![],
            "text/plain",
            "UTF-8",
            b"no such page\n".to_vec(),
        ),
    ];
    assert!(cases[4].6.len() > 100_000, "a body of many reads");

    let listener = TcpListener::bind("127.0.0.1:0").expect("a loopback port");
    let port = listener.local_addr().expect("its address").port();
    let count = cases.len();
    let server = std::thread::spawn(move || serve(&listener, Some(count), page));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .build()
        .expect("a runtime");
    for (path, status, reason, own, media, charset_name, body) in &cases {
        let received = runtime
            .block_on(get(port, path))
            .unwrap_or_else(|e| panic!("GET {path}: {e}"));
        let expected = Received {
            status: *status,
            reason: latin1(reason),
            headers: expected_headers(own, media, charset_name, body.len()),
            body: body.clone(),
        };
        assert_eq!(received, expected, "GET {path}");
    }
    server
        .join()
        .expect("the server thread")
        .expect("the listener");
}

/// The rendering itself refuses the smuggled header, saying where.
#[test]
fn a_header_that_would_split_its_line_is_refused() {
    let err = page("/smuggle").render().unwrap_err();
    assert!(
        matches!(err, wirebytes_ascii::InvalidHeader::Value(e) if e.offset() == 1 && e.byte() == b'\r'),
        "{err:?}"
    );
}
