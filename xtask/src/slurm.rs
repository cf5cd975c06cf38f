//! `cargo xtask slurm up` / `down`: a single-node Slurm on this machine (Debian's `slurm-wlm`
//! and `munge`), for the tests that submit real jobs (`yolah match --slurm`). `up` installs
//! what is missing (as root, `apt-get`), writes `/etc/slurm/slurm.conf` for this host and its
//! cores, starts munge, the controller and the node daemon, and waits until the node takes
//! jobs; run again, it changes nothing that is already so. `down` stops the three daemons.

use anyhow::{Context, Result, bail};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Where Debian's Slurm reads its configuration.
const CONF: &str = "/etc/slurm/slurm.conf";
/// The first line of the configuration it writes: one without it is not touched.
const HEADER: &str = "# Written by `cargo xtask slurm up`: a single-node Slurm on this machine.";
/// How long the node may take to take jobs after the daemons start.
const READY_WITHIN: Duration = Duration::from_mins(1);

/// The configuration of a single-node cluster named `yolah` on `host` with `cpus` cores: one
/// partition `main`, cores as the unit of allocation, no accounting (so `sacct` has nothing,
/// as on clusters without it), a task's requeue allowed, and batch jobs scheduled as soon as
/// they come (Slurm's defaults delay them up to 3 s and run the main loop at most every 2 s:
/// each array of a short run waited 0.3 to 2.2 s to start; the lab runs many short arrays).
fn conf(host: &str, cpus: usize) -> String {
    format!(
        "{HEADER}
ClusterName=yolah
SlurmctldHost={host}
SlurmUser=slurm
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
ReturnToService=2
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobRequeue=1
MinJobAge=30
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
NodeName={host} CPUs={cpus} State=UNKNOWN
PartitionName=main Nodes={host} Default=YES MaxTime=INFINITE State=UP
"
    )
}

/// Runs `program` with `args`; an error names the command and what it printed.
fn run(program: &str, args: &[&str]) -> Result<String> {
    let output = Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .with_context(|| format!("cannot run {program}"))?;
    if !output.status.success() {
        bail!(
            "{program} {} failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// Whether a process of exactly this name runs.
fn running(name: &str) -> bool {
    Command::new("pgrep")
        .args(["-x", name])
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

fn installed() -> bool {
    [
        "/usr/sbin/slurmctld",
        "/usr/sbin/slurmd",
        "/usr/sbin/munged",
    ]
    .iter()
    .all(|p| Path::new(p).exists())
}

/// Starts the cluster (installing it where missing) and waits until its node takes jobs.
pub fn up() -> Result<()> {
    if !installed() {
        eprintln!("installing slurm-wlm and munge (apt-get)");
        run("apt-get", &["update", "-qq"])?;
        let status = Command::new("apt-get")
            .args(["install", "-y", "-qq", "slurm-wlm", "munge"])
            .env("DEBIAN_FRONTEND", "noninteractive")
            .stdout(Stdio::null())
            .status()
            .context("cannot run apt-get")?;
        if !status.success() {
            bail!("apt-get install slurm-wlm munge failed (run as root)");
        }
    }
    let host = run("hostname", &["-s"])?.trim().to_string();
    let cpus = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let wanted = conf(&host, cpus);
    let present = std::fs::read_to_string(CONF).ok();
    if let Some(present) = &present
        && !present.starts_with(HEADER)
    {
        bail!(
            "{CONF} exists and was not written by `cargo xtask slurm up`: this machine has a \
             Slurm of its own, which this command leaves alone"
        );
    }
    let changed = present.as_deref() != Some(wanted.as_str());
    if changed {
        std::fs::create_dir_all("/etc/slurm")?;
        std::fs::write(CONF, &wanted).with_context(|| format!("cannot write {CONF}"))?;
    }
    for dir in [
        "/var/spool/slurmctld",
        "/var/spool/slurmd",
        "/var/log/slurm",
        "/run/munge",
    ] {
        std::fs::create_dir_all(dir)?;
    }
    run(
        "chown",
        &["slurm:slurm", "/var/spool/slurmctld", "/var/log/slurm"],
    )?;
    run("chown", &["munge:munge", "/run/munge"])?;
    if !Path::new("/etc/munge/munge.key").exists() {
        run("/usr/sbin/mungekey", &["--create"])?;
        run("chown", &["munge:munge", "/etc/munge/munge.key"])?;
    }
    if !running("munged") {
        run("runuser", &["-u", "munge", "--", "/usr/sbin/munged"])?;
    }
    if changed {
        // A daemon started with another configuration reads the new one only when restarted.
        stop_daemons();
    }
    if !running("slurmctld") {
        run("/usr/sbin/slurmctld", &[])?;
    }
    if !running("slurmd") {
        run("/usr/sbin/slurmd", &[])?;
    }
    let start = Instant::now();
    loop {
        let state = run("sinfo", &["--noheader", "--nodes", &host, "--format=%T"])
            .unwrap_or_default()
            .trim()
            .to_string();
        if state.starts_with("idle") || state.starts_with("mixed") || state.starts_with("alloc") {
            println!("slurm is up: node {host} ({cpus} cores) is {state}, partition main");
            return Ok(());
        }
        if state.starts_with("drain") || state.starts_with("down") {
            let _ = run(
                "scontrol",
                &["update", &format!("nodename={host}"), "state=resume"],
            );
        }
        if start.elapsed() > READY_WITHIN {
            bail!(
                "slurm started but node {host} is '{state}' after {} s (see /var/log/slurm/)",
                READY_WITHIN.as_secs()
            );
        }
        std::thread::sleep(Duration::from_millis(500));
    }
}

/// Stops the node daemon and the controller (the jobs they ran end with them).
fn stop_daemons() {
    for name in ["slurmd", "slurmctld"] {
        let _ = Command::new("pkill").args(["-x", name]).status();
    }
    let start = Instant::now();
    while (running("slurmd") || running("slurmctld")) && start.elapsed() < READY_WITHIN {
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// Stops the cluster's daemons, munge too: only the cluster `up` made.
pub fn down() -> Result<()> {
    if !std::fs::read_to_string(CONF).is_ok_and(|c| c.starts_with(HEADER)) {
        bail!("{CONF} was not written by `cargo xtask slurm up`: its Slurm is left alone");
    }
    stop_daemons();
    let _ = Command::new("pkill").args(["-x", "munged"]).status();
    if running("slurmd") || running("slurmctld") {
        bail!("slurm's daemons did not stop");
    }
    println!("slurm is down");
    Ok(())
}
