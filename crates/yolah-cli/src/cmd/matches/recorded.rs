//! A match of a run (the learning loops' tests and gauntlets), here or on the cluster: the one
//! way `learn` and `zero` play a match, and the `yolah match` command's choice between the two.

use super::versus::{Options, Tested};
use crate::cmd::Pairing;
use anyhow::Result;
use std::io::Write;
use std::path::PathBuf;
use yolah_ai::arena::sprt::Sprt;

/// `yolah match`: on the cluster with `--slurm` ([`super::on_slurm`]), else here
/// ([`super::versus`]).
pub fn run(out: &mut impl Write, options: &Options) -> Result<()> {
    if options.cluster.slurm {
        let (config, _) = super::versus::prepare(options)?;
        super::on_slurm::run(out, options, &config, options.sprt)
    } else {
        super::versus::run(out, options)
    }
}

/// A match of a run: its games in `record`, resumed from it (or from its run on the cluster,
/// with `cluster`'s `--slurm`; a match begun here goes on here). Its result, and as `yolah
/// match --json` prints it.
pub fn recorded(
    players: [String; 2],
    games: u32,
    sprt: Option<Sprt>,
    pairing: Pairing,
    record: PathBuf,
    cluster: &crate::slurm::ClusterOptions,
) -> Result<(Tested, String)> {
    let [first, second] = players;
    let on_slurm_before = crate::slurm::tasks_folder(&record)
        .join("state.json")
        .exists();
    let here = crate::slurm::ClusterOptions::default();
    let cluster = if record.exists() && !on_slurm_before {
        &here
    } else {
        cluster
    };
    let options = Options {
        first,
        second,
        games: Some(games),
        sprt,
        pairing,
        resume: record.exists() || (cluster.slurm && on_slurm_before),
        out: Some(record),
        json: true,
        shard: None,
        cluster: cluster.clone(),
    };
    let mut json = Vec::new();
    run(&mut json, &options)?;
    let tested = serde_json::from_slice(&json)
        .map_err(|e| anyhow::anyhow!("reading a match's result: {e}"))?;
    Ok((tested, String::from_utf8_lossy(&json).into_owned()))
}
