//! `yolah engine`: the engine protocol on stdin and stdout (`docs/protocol.md`).

use anyhow::{Context, Result};
use std::io::BufReader;
use yolah_ai::Spec;
use yolah_ai::protocol::server;

pub fn run(player: &str) -> Result<()> {
    let spec: Spec = player
        .parse()
        .with_context(|| format!("bad player {}", super::quote(player)))?;
    server::serve(BufReader::new(std::io::stdin()), std::io::stdout(), spec)?;
    Ok(())
}
