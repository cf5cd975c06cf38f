//! Minimax in specs: its name, its options, how a spec builds it and which options conflict.

use super::player::{Endgame, Minimax};
use super::pruning::{Pruning, Tuning};
use super::time::DEFAULT_SOFT_PERCENT;
use crate::eval::Evaluation;
use crate::options::{Conflict, OptionInfo, Options, PACE, SOLVE, Value, ValueKind};
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
        SOLVE,
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
            name: "counter",
            kind: ValueKind::Switch,
            default: "off",
            help: "counter moves (the last refutation of the opponent's move ordered after the killers)",
        },
        OptionInfo {
            name: "rfp",
            kind: ValueKind::Switch,
            default: "off",
            help: "reverse futility pruning (near the leaves, a static value far above beta cuts)",
        },
        tunable(
            "lmr_after",
            "3",
            (1, 16, 1),
            "late-move reductions start after this many moves",
        ),
        tunable(
            "lmr_base",
            "50",
            (0, 300, 10),
            "a late move's reduction is (lmr_base + lmr_scale × ln depth × ln index) / 100 plies, rounded down",
        ),
        tunable("lmr_scale", "50", (10, 200, 10), "see lmr_base"),
        tunable(
            "lmr_history",
            "0",
            (0, 400, 25),
            "a late move of the highest history is reduced this many hundredths of a ply less, one of the lowest as much more, in proportion between",
        ),
        tunable(
            "lmr_pv",
            "0",
            (0, 3, 1),
            "on the principal variation, late moves are reduced this many plies less",
        ),
        tunable(
            "nmp_depth",
            "3",
            (1, 12, 1),
            "null-move pruning at depths from this one",
        ),
        tunable(
            "nmp_base",
            "2",
            (1, 8, 1),
            "the null move's search is nmp_base + depth / nmp_divisor plies shallower",
        ),
        tunable("nmp_divisor", "4", (1, 16, 1), "see nmp_base"),
        tunable(
            "rfp_depth",
            "3",
            (1, 12, 1),
            "reverse futility pruning (rfp=on) at depths up to this one",
        ),
        tunable(
            "rfp_margin",
            "150",
            (10, 1000, 20),
            "reverse futility's margin a ply, hundredths of a point",
        ),
        tunable(
            "lmp_depth",
            "3",
            (1, 12, 1),
            "late-move pruning at depths up to this one",
        ),
        tunable(
            "lmp_a",
            "4",
            (0, 40, 1),
            "late-move pruning searches lmp_a + lmp_b × depth² moves, then skips those ordered by history",
        ),
        tunable("lmp_b", "2", (0, 16, 1), "see lmp_a"),
        tunable(
            "lmp_worsening",
            "100",
            (0, 100, 5),
            "where the static value is not above its value two plies before, late-move pruning searches this percentage of its moves",
        ),
        tunable(
            "hp_margin",
            "0",
            (0, 2048, 16),
            "where late-move pruning may cut, moves after the first whose ordering key (history, with continuation history if on) is below -hp_margin × depth are not searched (history pruning; 0: never; history alone runs from -16384 to 16384)",
        ),
        tunable(
            "prune_free",
            "20",
            (0, 56, 2),
            "no cut of the static value and no late-move pruning with this many free squares or fewer",
        ),
        tunable(
            "cont_history",
            "0",
            (0, 400, 25),
            "moves are ordered by history plus this percentage of their continuation histories (after a move to the same square one and two plies before)",
        ),
        tunable(
            "se_depth",
            "6",
            (0, 20, 1),
            "from this depth (0: never) a table move no other move comes near in a search to half the depth is searched a ply deeper (singular extension)",
        ),
        tunable(
            "se_margin",
            "10",
            (0, 400, 10),
            "the singular search's bound is se_margin × depth / 10 hundredths of a point below the table's value",
        ),
        tunable(
            "se_negative",
            "0",
            (0, 3, 1),
            "where another move reaches the singular bound, below beta, and the table's bound holds beta, the table move is searched this many plies shallower",
        ),
        tunable(
            "se_double",
            "0",
            (0, 400, 10),
            "a singular table move whose other moves stay this far (hundredths of a point) below the singular bound is searched two plies deeper, off the principal variation, at most six times on a line (0: never)",
        ),
        tunable(
            "iir_depth",
            "4",
            (0, 20, 1),
            "from this depth (0: never; 2 at least) a node the table knows no move for is searched a ply shallower (internal iterative reduction)",
        ),
        tunable(
            "regions_free",
            "36",
            (0, 56, 2),
            "with regions=on, positions with at most this many free squares are checked for separated regions",
        ),
        tunable(
            "aspiration",
            "50",
            (0, 500, 10),
            "from depth 4, each iteration first searches this many hundredths of a point either side of the last value (0: the whole window)",
        ),
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
        let mut player = Minimax::new(evaluation, tt, spec.threads()).solving(Endgame::free(spec));
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
            counter_moves: spec
                .whole("counter")
                .map_or(Pruning::PLAY.counter_moves, |on| on != 0),
            tuning: tuning(spec),
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
    memory_mb: |options| {
        options.whole("tt").unwrap_or(DEFAULT_TT_MB as u64) + Endgame::memory_mb(options)
    },
};

/// A tunable option: its default ([`Tuning::DEFAULT`]'s, a test checks), then `(min, max,
/// step)`.
const fn tunable(
    name: &'static str,
    default: &'static str,
    (min, max, step): (u64, u64, u64),
    help: &'static str,
) -> OptionInfo {
    OptionInfo {
        name,
        kind: ValueKind::Tunable { min, max, step },
        default,
        help,
    }
}

/// The numbers of the cuts a spec sets ([`Tuning`]), the others at their defaults.
fn tuning(spec: &Options) -> Tuning {
    let mut tuning = Tuning::DEFAULT;
    for option in PLAYER.options {
        if let ValueKind::Tunable { .. } = option.kind
            && let (Some(value), Some(field)) = (spec.whole(option.name), tuning.field(option.name))
        {
            *field = i32::try_from(value).unwrap_or(i32::MAX);
        }
    }
    tuning
}

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

#[cfg(test)]
mod tests {
    use super::*;

    /// Each tunable option's default is the search's, within its range; every field of
    /// [`Tuning`] is an option.
    #[test]
    fn tunable_defaults_are_the_searchs() {
        let mut names = Vec::new();
        for option in PLAYER.options {
            if let ValueKind::Tunable { min, max, step } = option.kind {
                let default: u64 = option.default.parse().unwrap();
                assert!(
                    min <= default && default <= max && step >= 1,
                    "{}",
                    option.name
                );
                let mut tuning = Tuning::DEFAULT;
                let field = tuning.field(option.name).expect("a field of Tuning");
                assert_eq!(i64::from(*field), default as i64, "{}", option.name);
                names.push(option.name);
            }
        }
        assert_eq!(names.len(), 24, "{names:?}");
    }
}
