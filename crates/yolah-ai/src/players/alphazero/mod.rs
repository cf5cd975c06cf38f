//! `AlphaZero` on a CPU: a policy-value network ([`network`]), PUCT search guided by it
//! ([`search`]) and the `alphazero` player ([`player`]). The loop that trains the network from
//! zero is `yolah zero` (yolah-train's `zero`).

pub mod network;
pub mod player;
pub mod quantized;
pub mod search;

pub(crate) use player::PLAYER;
