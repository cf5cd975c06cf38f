//! `yolah serve`: the board in the browser (`yolah-web`).

use super::usage;
use anyhow::{Context, Result};
use std::io::Write;
use std::net::{SocketAddr, ToSocketAddrs};

/// `yolah serve`'s options, as given.
pub struct Options {
    pub bind: String,
    pub port: u16,
    pub max_games: usize,
    pub max_searches: Option<usize>,
    pub max_memory: u64,
    pub idle_timeout: String,
    pub allow_origins: Vec<String>,
    pub tc: Option<String>,
}

pub fn run(out: &mut impl Write, options: &Options) -> Result<()> {
    usage!(
        (1..=10_000).contains(&options.max_games),
        "--max-games must be from 1 to 10000, not {}",
        options.max_games
    );
    usage!(
        (16..=1 << 20).contains(&options.max_memory),
        "--max-memory must be from 16 to 1048576 MiB, not {}",
        options.max_memory
    );
    let idle_timeout = yolah_ai::spec::parse_duration(&options.idle_timeout)
        .filter(|d| d.as_secs() >= 1)
        .ok_or_else(|| {
            super::UsageError(format!(
                "--idle-timeout {}: expected a duration from 1s to 1h, like 15min",
                super::quote(&options.idle_timeout)
            ))
        })?;
    for origin in &options.allow_origins {
        let authority = origin
            .strip_prefix("http://")
            .or_else(|| origin.strip_prefix("https://"));
        usage!(
            authority.is_some_and(|a| !a.is_empty() && !a.trim_end_matches('/').contains('/')),
            "--allow-origin {}: expected an origin like http://example.com:8080 (scheme, host, \
             port; no path)",
            super::quote(origin)
        );
    }
    let mut config = yolah_web::Config {
        max_games: options.max_games,
        max_memory_mb: options.max_memory,
        idle_timeout,
        allowed_origins: options.allow_origins.clone(),
        time_control: super::time_control(options.tc.as_deref())?,
        ..yolah_web::Config::default()
    };
    if let Some(n) = options.max_searches {
        usage!(
            (1..=1024).contains(&n),
            "--max-searches must be from 1 to 1024, not {n}"
        );
        config.max_searches = n;
    }
    let address: SocketAddr = (options.bind.as_str(), options.port)
        .to_socket_addrs()
        .ok()
        .and_then(|mut addresses| addresses.next())
        .ok_or_else(|| {
            super::UsageError(format!(
                "--bind {}: not an address or a host name of this machine",
                super::quote(&options.bind)
            ))
        })?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the server's threads")?;
    runtime.block_on(async {
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
