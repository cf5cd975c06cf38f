//! `yolah engine`: the engine protocol on stdin and stdout (`docs/protocol.md`).

use anyhow::Result;
use std::io::BufReader;
use yolah_ai::catalogue::DEFAULT_PLAYER;
use yolah_ai::protocol::server;

/// The options of `yolah engine`, as its command line gives them.
#[derive(clap::Args)]
pub struct Options {
    /// The player to start with (the protocol's `Player` option; see `yolah players`).
    #[arg(long, value_name = "SPEC", default_value = DEFAULT_PLAYER)]
    pub player: String,
}

pub fn run(options: &Options) -> Result<()> {
    let spec = super::parse_spec(&options.player)?;
    server::serve(BufReader::new(std::io::stdin()), std::io::stdout(), spec)?;
    Ok(())
}
