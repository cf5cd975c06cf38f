//! `yolah random-games`: uniformly random games, results and rate.

use super::usage;
use anyhow::Result;

use std::io::Write;
use std::time::Instant;
use yolah_ai::arena::tournament::game_pool;
use yolah_core::random_games::{MAX_GAMES, Path, random_games_on};

/// The options of `yolah random-games`, as its command line gives them.
#[derive(clap::Args)]
pub struct Options {
    /// Games, 1 to 100000000000.
    #[arg(long, short, value_name = "N")]
    pub games: u64,
    /// Seed; the same seed gives the same results whatever the thread count [default: 1].
    #[arg(long, short, value_name = "SEED")]
    pub seed: Option<u64>,
    /// Worker threads, 1 to 1024 [default: one per core].
    #[arg(long, short, value_name = "N")]
    pub threads: Option<usize>,
    /// How to play them: `avx512` (eight games in the lanes of a register), `avx2` (four) or
    /// `portable` (four interleaved, any CPU) [default: the fastest this CPU runs].
    #[arg(long, value_name = "PATH")]
    pub path: Option<String>,
}

pub fn run(out: &mut impl Write, options: &Options) -> Result<()> {
    let Options {
        games,
        seed,
        threads,
        ref path,
    } = *options;
    let path = match path.as_deref() {
        None => Path::best(),
        Some(name) => {
            let path = Path::named(name).ok_or_else(|| {
                super::UsageError(format!(
                    "--path {}: expected avx512, avx2 or portable",
                    super::quote(name)
                ))
            })?;
            anyhow::ensure!(
                path.available(),
                "--path {name}: this CPU lacks its instructions ({}); use portable",
                match path {
                    Path::Avx512 => "AVX-512 F, DQ, BW, VPOPCNTDQ, GFNI, BMI2",
                    _ => "AVX2, BMI2",
                }
            );
            path
        }
    };
    usage!(
        (1..=MAX_GAMES).contains(&games),
        "--games must be from 1 to {MAX_GAMES}, not {games}"
    );
    let threads = super::threads(threads)?;
    let seed = seed.unwrap_or(super::DEFAULT_SEED);
    let pool = game_pool(threads).map_err(anyhow::Error::msg)?;
    let bar = super::progress_bar(games, "games");
    let start = Instant::now();
    let tally = pool.install(|| random_games_on(path, games, seed, &|done| bar.inc(done)));
    let seconds = start.elapsed().as_secs_f64();
    bar.finish_and_clear();
    let percent = |n: u64| 100.0 * n as f64 / games as f64;
    writeln!(
        out,
        "games:      {games} (seed {seed}, {}, {} path)",
        if threads == 1 {
            "1 thread".to_string()
        } else {
            format!("{threads} threads")
        },
        path.name()
    )?;
    writeln!(
        out,
        "black wins: {} ({:.1} %)",
        tally.black_wins,
        percent(tally.black_wins)
    )?;
    writeln!(
        out,
        "white wins: {} ({:.1} %)",
        tally.white_wins,
        percent(tally.white_wins)
    )?;
    writeln!(
        out,
        "draws:      {} ({:.1} %)",
        tally.draws,
        percent(tally.draws)
    )?;
    writeln!(
        out,
        "time:       {seconds:.3} s, {:.0} games/s",
        games as f64 / seconds.max(1e-9)
    )?;
    Ok(())
}
