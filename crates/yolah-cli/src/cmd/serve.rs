//! `yolah serve`: the board in the browser (`yolah-web`).

use super::usage;
use anyhow::{Context, Result};
use std::io::Write;
use std::net::{SocketAddr, ToSocketAddrs};

/// The options of `yolah serve`, as its command line gives them.
#[derive(clap::Args)]
pub struct Options {
    /// Port to listen on.
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Address or host name to listen on (loopback: only this machine can connect).
    #[arg(long, value_name = "ADDRESS", default_value = "127.0.0.1")]
    pub bind: String,
    /// Games at once, 1 to 10000; more connections are refused. One client address may hold
    /// an eighth of them (at least four).
    #[arg(long, value_name = "N", default_value_t = 200)]
    pub max_games: usize,
    /// Connections at once, of all clients, 8 to 65536 (one client address may hold 64).
    #[arg(long, value_name = "N", default_value_t = yolah_web::server::MAX_CONNECTIONS)]
    pub max_connections: usize,
    /// Searches of watched games (machine against machine) and analyses at once, 1 to 1024;
    /// more wait. Games a person plays have four slots for each of these, and never wait for
    /// watchers [default: one per core].
    #[arg(long, value_name = "N")]
    pub max_searches: Option<usize>,
    /// Memory for all games' machine players together (tables and trees), 16 to 1048576
    /// MiB; a game that does not fit is refused.
    #[arg(long, value_name = "MIB", default_value_t = yolah_web::server::DEFAULT_MAX_MEMORY_MB)]
    pub max_memory: u64,
    /// Close a game after this long without a message or a search, 1s to 1h.
    #[arg(long, value_name = "DURATION", default_value = "15min")]
    pub idle_timeout: String,
    /// Let pages of this origin open games too, besides the page's own (like
    /// `http://example.com:8080`); repeat for several.
    #[arg(long = "allow-origin", value_name = "URL")]
    pub allow_origins: Vec<String>,
    /// The game clock of games whose page sets none: BASE+INC like 5min+3s. The page can
    /// choose another, or none.
    #[arg(long, value_name = "BASE+INC")]
    pub tc: Option<String>,
    /// The SQLite file that keeps the games (made if missing; `:memory:` keeps them only while
    /// the server runs) [default: games.sqlite in the user's data folder, like
    /// ~/.local/share/yolah/games.sqlite].
    #[arg(long, value_name = "PATH")]
    pub db: Option<std::path::PathBuf>,
    /// Nodes the engine searches in each position of a finished game's review (the page's
    /// Review, /games/ID/review.json), 1 to 100000000.
    #[arg(long, value_name = "N", default_value_t = yolah_ai::review::Settings::default().nodes)]
    pub review_nodes: u64,
    /// The puzzles of /puzzles: a file `yolah puzzles` wrote [default: the shipped set].
    #[arg(long, value_name = "FILE")]
    pub puzzles: Option<std::path::PathBuf>,
    /// The opening explorer of the analysis board: a database `yolah explorer build` wrote,
    /// read once at the start [default: none].
    #[arg(long, value_name = "DB")]
    pub explorer: Option<std::path::PathBuf>,
}

/// Where the games are kept when `--db` does not say.
fn default_db() -> Result<std::path::PathBuf> {
    dirs::data_dir()
        .map(|dir| dir.join("yolah").join("games.sqlite"))
        .ok_or_else(|| {
            super::UsageError(
                "no data folder is known for this user (HOME unset?): give --db PATH".to_string(),
            )
            .into()
        })
}

/// The server's settings from the options, each number checked.
fn config(options: &Options) -> Result<yolah_web::Config> {
    usage!(
        (1..=10_000).contains(&options.max_games),
        "--max-games must be from 1 to 10000, not {}",
        options.max_games
    );
    usage!(
        (8..=65_536).contains(&options.max_connections),
        "--max-connections must be from 8 to 65536, not {}",
        options.max_connections
    );
    usage!(
        (16..=1 << 20).contains(&options.max_memory),
        "--max-memory must be from 16 to 1048576 MiB, not {}",
        options.max_memory
    );
    usage!(
        (1..=yolah_ai::review::MAX_NODES).contains(&options.review_nodes),
        "--review-nodes must be from 1 to {}, not {}",
        yolah_ai::review::MAX_NODES,
        options.review_nodes
    );
    let idle_timeout = yolah_ai::options::parse_duration(&options.idle_timeout)
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
        max_connections: options.max_connections,
        max_memory_mb: options.max_memory,
        idle_timeout,
        allowed_origins: options.allow_origins.clone(),
        time_control: super::time_control(options.tc.as_deref())?,
        review: yolah_ai::review::Settings {
            nodes: options.review_nodes,
            ..yolah_ai::review::Settings::default()
        },
        ..yolah_web::Config::default()
    };
    if let Some(path) = &options.puzzles {
        config.puzzles =
            std::sync::Arc::new(yolah_web::puzzles::Set::load(path).map_err(anyhow::Error::msg)?);
    }
    if let Some(path) = &options.explorer {
        config.explorer = Some(std::sync::Arc::new(
            yolah_ai::explorer::Explorer::open(path)
                .map_err(|e| anyhow::anyhow!("--explorer: {e}"))?,
        ));
    }
    if let Some(n) = options.max_searches {
        usage!(
            (1..=1024).contains(&n),
            "--max-searches must be from 1 to 1024, not {n}"
        );
        config.max_searches = n;
    }
    Ok(config)
}

pub fn run(out: &mut impl Write, options: &Options) -> Result<()> {
    let config = config(options)?;
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
    let db = match &options.db {
        Some(path) => path.clone(),
        None => default_db()?,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the server's threads")?;
    // The port first: a busy one is refused before the database is made.
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind(address))
        .with_context(|| format!("cannot listen on {address}"))?;
    // Folders made for the file are said on the first line: a mistyped --db shows at once.
    let made = db
        .parent()
        .filter(|p| !p.as_os_str().is_empty() && !p.exists())
        .map(std::path::Path::to_path_buf);
    let store = std::sync::Arc::new(yolah_web::Store::open(&db).map_err(anyhow::Error::msg)?);
    let served = runtime.block_on(async {
        let address = listener.local_addr()?;
        let made = made.map_or_else(String::new, |folder| {
            format!(" (folder {} made)", folder.display())
        });
        writeln!(
            out,
            "serving the board on http://{address}/ (Ctrl-C to stop); games kept in {}{made}",
            if db.as_os_str() == ":memory:" {
                "memory only (--db :memory:): gone when the server stops".to_string()
            } else {
                db.display().to_string()
            }
        )?;
        out.flush()?;
        tokio::select! {
            served = yolah_web::serve(listener, config, std::sync::Arc::clone(&store)) => {
                served.context("the server stopped")
            }
            signal = stop_signal() => signal.context("cannot wait for Ctrl-C or SIGTERM"),
        }
    });
    // The connections go (each writes its game as it stands), then the write-ahead log is
    // folded into the file, so that the file alone holds every game.
    runtime.shutdown_timeout(std::time::Duration::from_secs(5));
    yolah_ai::players::engine::end_all();
    served?;
    store.checkpoint().map_err(anyhow::Error::msg)?;
    if db.as_os_str() == ":memory:" {
        writeln!(
            out,
            "stopped; the games were kept in memory only (--db :memory:) and are gone"
        )?;
    } else {
        writeln!(out, "stopped; every game is in {}", db.display())?;
    }
    Ok(())
}

/// Ctrl-C (SIGINT) or SIGTERM.
async fn stop_signal() -> std::io::Result<()> {
    #[cfg(unix)]
    {
        let mut terminate =
            tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
        tokio::select! {
            interrupted = tokio::signal::ctrl_c() => interrupted,
            _ = terminate.recv() => Ok(()),
        }
    }
    #[cfg(not(unix))]
    {
        tokio::signal::ctrl_c().await
    }
}
