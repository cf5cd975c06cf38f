//! What the server's tests share: a machine's game, a move, the health page, a closed socket.

use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

pub(crate) async fn health(address: std::net::SocketAddr) -> Value {
    let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
    stream
        .write_all(b"GET /health HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).await.unwrap();
    let body = response.split("\r\n\r\n").nth(1).unwrap();
    serde_json::from_str(body).unwrap()
}
