//! `yolah engine`: the engine protocol on stdin and stdout (`docs/protocol.md`).

use anyhow::Result;
use std::io::BufReader;
use yolah_ai::protocol::server;

pub fn run(player: &str) -> Result<()> {
    let spec = super::parse_spec(player)?;
    server::serve(BufReader::new(std::io::stdin()), std::io::stdout(), spec)?;
    Ok(())
}
