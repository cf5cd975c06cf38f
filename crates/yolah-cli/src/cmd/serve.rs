//! `yolah serve`: the board in the browser (`yolah-web`).

use super::usage;
use anyhow::{Context, Result};
use std::io::Write;
use std::net::{IpAddr, SocketAddr};

pub fn run(
    out: &mut impl Write,
    bind: IpAddr,
    port: u16,
    max_games: usize,
    max_searches: Option<usize>,
) -> Result<()> {
    usage!(
        (1..=10_000).contains(&max_games),
        "--max-games must be from 1 to 10000, not {max_games}"
    );
    let mut config = yolah_web::Config {
        max_games,
        ..yolah_web::Config::default()
    };
    if let Some(n) = max_searches {
        usage!(
            (1..=1024).contains(&n),
            "--max-searches must be from 1 to 1024, not {n}"
        );
        config.max_searches = n;
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the server's threads")?;
    runtime.block_on(async {
        let address = SocketAddr::new(bind, port);
        let listener = tokio::net::TcpListener::bind(address)
            .await
            .with_context(|| format!("cannot listen on {address}"))?;
        let address = listener.local_addr()?;
        writeln!(
            out,
            "serving the board on http://{address}/ (Ctrl-C to stop)"
        )?;
        out.flush()?;
        yolah_web::serve(listener, config)
            .await
            .context("the server stopped")
    })
}
