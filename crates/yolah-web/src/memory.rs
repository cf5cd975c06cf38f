//! The memory the server's process holds, as the system counts it: what `/health` reports
//! beside the players' reservations (which bound what the players may take, and are not what
//! the process holds: the binary, the network, the connections and the store are not in them).

/// The process's resident memory, MiB, from `/proc/self/status` (Linux); `None` where the
/// system does not say.
pub fn resident_mb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resident_memory_grows_with_what_the_process_touches() {
        let before = resident_mb().expect("Linux says");
        // 256 MiB written, so every page is resident.
        let block = vec![1u8; 256 << 20];
        let during = resident_mb().expect("Linux says");
        assert!(
            during >= before + 200,
            "{before} MiB, then {during} MiB with 256 MiB more"
        );
        drop(block);
    }
}
