//! `yolah tournament`, in one place: `here.rs` plays a round robin on this machine (and shows a
//! tournament's standings), `on_slurm.rs` spreads its games over a Slurm job array.

pub mod here;
pub mod on_slurm;
