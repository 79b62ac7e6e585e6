//! Serves a few pages on `127.0.0.1:PORT` (8080, or the first argument) until stopped:
//! `/` in UTF-8, `/sjis` in Shift_JIS, `/latin1` in ISO-8859-1 with a Latin-1 header
//! value, anything else a `404`.

use std::net::TcpListener;

use wirebytes_charset::Charset;
use wirebytes_example_http1::{Response, serve};

fn main() -> std::io::Result<()> {
    let port = std::env::args().nth(1).unwrap_or_else(|| "8080".to_owned());
    let listener = TcpListener::bind(format!("127.0.0.1:{port}"))?;
    println!("listening on http://{}", listener.local_addr()?);
    serve(&listener, None, page)
}

/// The response to `path`.
fn page(path: &str) -> Response {
    let charset = |name| Charset::for_java_name(name).unwrap_or(Charset::UTF_8);
    match path {
        "/" => Response::new(
            200,
            "OK",
            "text/plain",
            "Hello, wörld! 👋\n",
            Charset::UTF_8,
        ),
        "/sjis" => Response::new(
            200,
            "OK",
            "text/plain",
            "日本語のテキスト\n",
            charset("Shift_JIS"),
        ),
        "/latin1" => Response::new(
            200,
            "OK",
            "text/plain",
            "Grüße aus Köln\n",
            charset("ISO-8859-1"),
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
