//! `yolah match`, in one place: `recorded.rs` chooses where a match is played (the command's
//! entry, and the one way `learn` and `zero` play theirs), `versus.rs` plays it here,
//! `on_slurm.rs` spreads it over a Slurm job array.

pub mod on_slurm;
pub mod recorded;
pub mod versus;
