//! Minimax in specs: its name, its options, how a spec builds it and which options conflict.

use super::player::Minimax;
use super::pruning::Pruning;
use super::time::DEFAULT_SOFT_PERCENT;
use crate::eval::Evaluation;
use crate::options::{Conflict, OptionInfo, Options, PACE, Value, ValueKind};
use crate::player::PlayerInfo;

/// The transposition table of a spec that sets none, in MiB.
pub const DEFAULT_TT_MB: usize = 16;

/// This player in specs: its name, options and how a spec builds it.
pub(crate) const PLAYER: PlayerInfo = PlayerInfo {
    name: "minimax",
    about: "alpha-beta minimax; leaves valued by heuristics tuned by a genetic algorithm (ch. 6) or a neural network (eval=nn, ch. 7)",
    options: &[
        OptionInfo {
            name: "time",
            kind: ValueKind::Duration,
            default: "100ms if neither depth nor nodes is given, else none",
            help: "thinking time per move (with depth or nodes: whichever ends first)",
        },
        PACE,
        OptionInfo {
            name: "soft",
            kind: ValueKind::Percent,
            default: "100",
            help: "the share of the move's time (percent) past which no new iteration starts; \
                   an iteration running at the end of the time is cut, its best move kept",
        },
        OptionInfo {
            name: "stretch",
            kind: ValueKind::Switch,
            default: "off",
            help: "under a clock, up to 1.6 times the move's share when the best move changes or \
                   the value drops, 0.6 times once it has held for 4 iterations",
        },
        OptionInfo {
            name: "depth",
            kind: ValueKind::Depth,
            default: "none",
            help: "search depth in plies (with time or nodes: whichever ends first)",
        },
        OptionInfo {
            name: "nodes",
            kind: ValueKind::Count,
            default: "none",
            help: "positions searched per move, counted by the first thread",
        },
        OptionInfo {
            name: "lines",
            kind: ValueKind::Lines,
            default: "1",
            help: "the best lines to find and show, each with its value (multi-PV: the k-th \
                   line's search leaves out the first moves of the lines before it; the move \
                   played is the first line's)",
        },
        OptionInfo {
            name: "tt",
            kind: ValueKind::Megabytes,
            default: "16",
            help: "transposition table size in MiB (rounded down to a power of two)",
        },
        OptionInfo {
            name: "eval",
            kind: ValueKind::Evaluation,
            default: "heuristic (nn if net is given)",
            help: "what values the leaves: heuristic (features and weights) or nn (the network)",
        },
        OptionInfo {
            name: "weights",
            kind: ValueKind::WeightsFile,
            default: "the tuned weights shipped in the crate",
            help: "heuristic weights file (JSON, as `yolah tune` writes)",
        },
        OptionInfo {
            name: "net",
            kind: ValueKind::NetworkFile,
            default: "the network shipped in the crate",
            help: "network file for eval=nn (as `yolah train` writes)",
        },
        OptionInfo {
            name: "threads",
            kind: ValueKind::Threads,
            default: "1",
            help: "search threads sharing one table, lazy SMP (capped at the machine's cores)",
        },
        OptionInfo {
            name: "regions",
            kind: ValueKind::Switch,
            default: "off",
            help: "exact values, without search, where the sides can no longer meet (endgames)",
        },
        OptionInfo {
            name: "book",
            kind: ValueKind::Switch,
            default: "on with the shipped network (eval=nn without net), else off",
            help: "play the opening book's move (tables/book.rs, the shipped network player's \
                   long searches) where it has the position",
        },
        OptionInfo {
            name: "lmr",
            kind: ValueKind::Switch,
            default: "on",
            help: "late-move reductions (off: every move searched to full depth)",
        },
        OptionInfo {
            name: "nmp",
            kind: ValueKind::Switch,
            default: "on",
            help: "null-move pruning (a pass searched shallower cuts a node that still holds beta)",
        },
        OptionInfo {
            name: "lmp",
            kind: ValueKind::Switch,
            default: "on",
            help: "late-move pruning (near the leaves, the moves history orders last are skipped)",
        },
        OptionInfo {
            name: "rfp",
            kind: ValueKind::Switch,
            default: "off",
            help: "reverse futility pruning (near the leaves, a static value far above beta cuts)",
        },
    ],
    seeded: false,
    build: |spec, _| {
        let evaluation = match (spec.value("weights"), spec.value("net")) {
            (Some(Value::Weights(weights)), _) => Evaluation::Heuristic(*weights),
            (_, Some(Value::Network(network))) => Evaluation::Network(network.clone()),
            _ if spec.whole("eval") == Some(1) => {
                Evaluation::Network(crate::eval::Network::shipped())
            }
            _ => Evaluation::Heuristic(crate::eval::Weights::tuned()),
        };
        let tt = spec.whole("tt").map_or(DEFAULT_TT_MB, |n| n as usize);
        let mut player = Minimax::new(evaluation, tt, spec.threads());
        player.pruning = Pruning {
            reductions: spec
                .whole("lmr")
                .map_or(Pruning::PLAY.reductions, |on| on != 0),
            null_move: spec
                .whole("nmp")
                .map_or(Pruning::PLAY.null_move, |on| on != 0),
            futility: spec
                .whole("rfp")
                .map_or(Pruning::PLAY.futility, |on| on != 0),
            move_count: spec
                .whole("lmp")
                .map_or(Pruning::PLAY.move_count, |on| on != 0),
        };
        player.regions = spec.whole("regions") == Some(1);
        // The book holds the shipped network player's choices: on by default for it alone,
        // so other weights and networks (tuning, training, comparisons) play their own moves.
        let shipped_network = spec.whole("eval") == Some(1) && spec.value("net").is_none();
        player.book = spec.whole("book").map_or(shipped_network, |on| on != 0);
        player.soft_percent = spec
            .whole("soft")
            .map_or(DEFAULT_SOFT_PERCENT, |p| p as u32);
        player.stretch = spec.whole("stretch") == Some(1);
        player.lines = spec.whole("lines").map_or(1, |n| n as usize);
        Box::new(player)
    },
    check: check_evaluation,
    memory_mb: |options| options.whole("tt").unwrap_or(DEFAULT_TT_MB as u64),
};

/// Evaluation options that cannot go together: a network with `eval=heuristic`, weights
/// with a network.
fn check_evaluation(options: &Options) -> Result<(), Conflict> {
    let has = |name: &str| options.has(name);
    let eval = options.whole("eval");
    let conflict = |first: &str, second: &str| Conflict {
        first: first.to_string(),
        second: second.to_string(),
    };
    if has("net") && eval == Some(0) {
        return Err(conflict("eval=heuristic", "net"));
    }
    if has("weights") && (has("net") || eval == Some(1)) {
        return Err(conflict(
            "weights",
            if has("net") { "net" } else { "eval=nn" },
        ));
    }
    Ok(())
}
