//! `yolah serve` as a user starts it: it says where it serves, serves the page, and refuses
//! bad settings and a busy port in one line.

mod common;

use common::{assert_clean_error, yolah};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};

#[test]
fn serve_says_where_and_serves_the_page() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_yolah"))
        .args(["serve", "--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let address = first
        .strip_prefix("serving the board on http://")
        .and_then(|rest| rest.split('/').next())
        .unwrap_or_else(|| panic!("{first}"))
        .to_string();
    assert!(address.starts_with("127.0.0.1:"), "loopback: {address}");
    let mut stream = std::net::TcpStream::connect(&address).unwrap();
    stream
        .write_all(b"GET / HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut page = String::new();
    stream.read_to_string(&mut page).unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    assert!(page.contains("<title>Yolah</title>"));
}

#[test]
fn bad_settings_and_a_busy_port_are_one_line_errors() {
    for (args, expected, code) in [
        (vec!["serve", "--port", "70000"], "70000", 2),
        (vec!["serve", "--bind", "localhost:1"], "--bind", 2),
        (
            vec!["serve", "--max-games", "0"],
            "--max-games must be from 1 to 10000",
            2,
        ),
        (
            vec!["serve", "--max-searches", "5000"],
            "--max-searches must be from 1 to 1024",
            2,
        ),
    ] {
        let output = yolah(&args, "");
        assert_clean_error(&output, expected);
        assert_eq!(output.status.code(), Some(code), "{args:?}");
    }
    let busy = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = busy.local_addr().unwrap().port().to_string();
    let output = yolah(&["serve", "--port", &port], "");
    assert_clean_error(&output, "cannot listen on 127.0.0.1:");
    assert_eq!(output.status.code(), Some(1));
}
