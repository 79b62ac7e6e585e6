//! Serves the demo pages (`demo_page`) on `127.0.0.1:PORT` (8080, or the first argument)
//! until stopped.

use std::net::TcpListener;

use wirebytes_example_http1::{demo_page, serve};

fn main() -> std::io::Result<()> {
    let port = std::env::args().nth(1).unwrap_or_else(|| "8080".to_owned());
    let listener = TcpListener::bind(format!("127.0.0.1:{port}"))?;
    println!("listening on http://{}", listener.local_addr()?);
    serve(&listener, None, demo_page)
}
