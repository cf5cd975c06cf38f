//! The minimax search against plain, unpruned minimax: exact endgame values, fixed-depth
//! values, the table keyed on the score split, limits and determinism.

mod common;

use common::{exact_margin, move_values, positions, random_endgame};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use std::collections::HashMap;
use std::time::Duration;
use yolah_ai::eval::Weights;
use yolah_ai::players::minimax::{Minimax, Pruning, Tuning, WIN, proven_margin, terminal_value};
use yolah_ai::search::regions::{Regions, SOLVE_LIMITS};
use yolah_ai::{Limits, Player, Spec};
use yolah_core::{Move, Position};

/// Plain minimax to `depth` with the same leaf values as the search.
fn plain_minimax(position: &Position, depth: u32, weights: &Weights) -> i32 {
    if position.game_over() {
        return terminal_value(position);
    }
    if depth == 0 {
        return weights.evaluate(position).clamp(-(WIN - 1), WIN - 1);
    }
    position
        .moves()
        .iter()
        .map(|&m| {
            let mut child = *position;
            child.play(m);
            -plain_minimax(&child, depth - 1, weights)
        })
        .max()
        .unwrap()
}

#[test]
fn separated_regions_give_the_exact_margin_of_exhaustive_search() {
    let mut rng = SmallRng::seed_from_u64(17);
    let mut regions = Regions::new();
    let mut separated = 0;
    for i in 0..600 {
        let position = random_endgame(8 + i % 7, &mut rng);
        if let Some(margin) = regions.separated_margin(&position, SOLVE_LIMITS) {
            assert_eq!(margin, exact_margin(&position), "{position}");
            separated += 1;
        }
    }
    // Enough separated positions that the check means something (and not all: the sides
    // often still meet).
    assert!(
        (100..600).contains(&separated),
        "{separated} of 600 separated"
    );
}

/// The areas' bounds on the final margin hold what exhaustive search finds, and are not all
/// loose (some shared positions get a bound tighter than the free squares).
#[test]
fn the_areas_bound_the_exact_margin() {
    let mut rng = SmallRng::seed_from_u64(29);
    let mut regions = Regions::new();
    let mut tight = 0;
    for i in 0..400 {
        let position = random_endgame(7 + i % 5, &mut rng);
        let exact = exact_margin(&position);
        let (low, high) = regions.study(&position, SOLVE_LIMITS).margins(&position);
        assert!(
            (low..=high).contains(&exact),
            "{position}: {exact} outside [{low}, {high}]"
        );
        let free = 64 - position.occupied().count() as i32;
        if low < high && high - low < free {
            tight += 1;
        }
    }
    assert!(tight > 20, "{tight} of 400 shared positions with a bound");
}

fn unlimited() -> Limits {
    Limits::default()
}

#[test]
fn solving_gives_the_exact_margin_of_exhaustive_search() {
    let mut rng = SmallRng::seed_from_u64(11);
    // One table for all: entries of earlier endgames must not leak into later ones.
    let mut player = Minimax::new(Weights::tuned(), 4, 1);
    for i in 0..300 {
        let position = random_endgame(6 + i % 5, &mut rng);
        let exact = exact_margin(&position);
        let outcome = player.search(&position, unlimited());
        assert!(outcome.proven, "{position}: not proven");
        let margin = proven_margin(outcome.value).unwrap_or(0);
        assert_eq!(outcome.value == 0, exact == 0, "{position}");
        assert_eq!(margin, exact, "{position}: {outcome:?}");
        // The principal variation is legal and reaches the end with that margin.
        let mut line = position;
        for &m in &outcome.pv {
            assert_eq!(
                line.check_move(m),
                Ok(()),
                "{position}: pv {:?}",
                outcome.pv
            );
            line.play(m);
        }
        assert!(
            line.game_over(),
            "{position}: pv {:?} stops short",
            outcome.pv
        );
        let us = position.side_to_move();
        let end = i32::from(line.score(us)) - i32::from(line.score(us.opponent()));
        assert_eq!(end, exact, "{position}: pv {:?}", outcome.pv);
    }
}

/// `solve`'s search (separated regions valued exactly, and in a side's own areas one move
/// kept: `Study::own`) against exhaustive search, on positions where own areas are
/// common.
#[test]
fn solving_by_regions_and_own_areas_gives_the_exact_margin() {
    let mut rng = SmallRng::seed_from_u64(23);
    let mut player = Minimax::new(Weights::tuned(), 4, 1);
    player.regions = true;
    player.region_limits = SOLVE_LIMITS;
    let mut regions = Regions::new();
    let (mut pruned, mut tried) = (0, 0);
    while pruned < 40 {
        tried += 1;
        assert!(tried < 4_000, "only {pruned} positions with own areas");
        let position = random_endgame(8 + tried % 4, &mut rng);
        // Positions whose side to move has an own area beside a shared one: there the
        // search drops moves.
        let own = regions.study(&position, SOLVE_LIMITS).own;
        if own.is_none() || regions.separated_margin(&position, SOLVE_LIMITS).is_some() {
            continue;
        }
        let (own, keep) = own.expect("checked");
        assert!(position.moves().contains(&keep), "{position}: {keep}");
        assert_ne!(own & (1 << keep.from().index()), 0, "{position}: {keep}");
        // The move kept is worth at least every move it stands for (the dropped ones).
        let value = |m: Move| {
            let mut child = position;
            child.play(m);
            -exact_margin(&child)
        };
        let kept = value(keep);
        for &m in &position.moves() {
            if own & (1 << m.from().index()) != 0 {
                assert!(value(m) <= kept, "{position}: {m} beats the kept {keep}");
            }
        }
        pruned += 1;
        player.clear();
        let outcome = player.search(&position, unlimited());
        assert!(outcome.proven, "{position}: not proven");
        let margin = proven_margin(outcome.value).unwrap_or(0);
        assert_eq!(margin, exact_margin(&position), "{position}: {outcome:?}");
    }
}

/// Whether the side to move of `position` can end the game with a margin of at least
/// `target` (its own points minus the opponent's): exhaustive, every move of both sides, no
/// evaluation, no pruning but the answer's own (the first move that reaches the target
/// settles it), each (position, target) answered once. For endgames too large for
/// [`exact_margin`].
fn reaches(position: &Position, target: i32) -> bool {
    type Memo = HashMap<(u64, u64, u64, u16, i32), bool>;
    /// Whether the points still to come can give at least `target`.
    fn future(position: &Position, target: i32, memo: &mut Memo) -> bool {
        // A side makes at most a point a free square.
        let free = 64 - position.occupied().count() as i32;
        if position.game_over() {
            return target <= 0;
        }
        if target <= -free || target > free {
            return target <= -free;
        }
        let us = position.side_to_move();
        let key = (
            position.pieces(us).0,
            position.pieces(us.opponent()).0,
            position.holes().0,
            position.ply() % 2,
            target,
        );
        if let Some(&answer) = memo.get(&key) {
            return answer;
        }
        // A move scoring `point` reaches the target when the opponent's future from there
        // cannot reach `point - target + 1`.
        let answer = position.moves().iter().any(|&m| {
            let mut child = *position;
            child.play(m);
            let point = i32::from(!m.is_pass());
            !future(&child, point - target + 1, memo)
        });
        memo.insert(key, answer);
        answer
    }
    let us = position.side_to_move();
    let now = i32::from(position.score(us)) - i32::from(position.score(us.opponent()));
    future(position, target - now, &mut HashMap::new())
}

/// Drawn endgames of more than 20 free squares (where null moves cut under a time limit),
/// solved as `yolah solve` does (a time limit): a search deeper than the game can last has
/// proved its value, a draw included, and long before the time is out (these
/// reached depth 127 at +0.00 and were reported "not proved within 1min").
#[test]
fn solving_proves_drawn_endgames_of_exhaustive_search() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/drawn_endgames.txt"
    ))
    .unwrap();
    let positions: Vec<Position> = text
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| line.parse().unwrap())
        .collect();
    assert!(positions.len() >= 2);
    let limits = Limits {
        time: Some(Duration::from_mins(1)),
        ..Limits::default()
    };
    for position in &positions {
        assert!(64 - position.occupied().count() > 20, "{position}");
        assert!(
            reaches(position, 0) && !reaches(position, 1),
            "{position} is not a draw"
        );
        let mut player = Minimax::solver(16, 1);
        let outcome = player.search(position, limits);
        assert!(
            outcome.proven,
            "{position}: not proved at depth {} in {:?}, value {}",
            outcome.depth, outcome.time, outcome.value
        );
        assert_eq!(outcome.value, 0, "{position}");
        assert!(outcome.time < Duration::from_secs(20), "{position}");
        let mut line = *position;
        for &m in &outcome.pv {
            line.play(m);
        }
        assert!(line.game_over(), "{position}: pv {:?}", outcome.pv);
        assert_eq!(
            line.score(line.side_to_move()),
            line.score(line.side_to_move().opponent()),
            "{position}: pv {:?}",
            outcome.pv
        );
    }
}

/// A review's second endgame (22 free squares): proved a draw within the solver's
/// time, its line ending drawn. (Its exhaustive check, a minute, is left to the first.)
#[test]
fn solving_proves_the_issues_second_drawn_endgame() {
    let position: Position =
        "x2x1w1x/1xx1x1x1/b1w2xxx/2xxx1wx/1xxxxxbx/x2wx2b/1xx1xxxx/x1xx1b1x b 16 16 32"
            .parse()
            .unwrap();
    let mut player = Minimax::solver(16, 1);
    let outcome = player.search(
        &position,
        Limits {
            time: Some(Duration::from_mins(1)),
            ..Limits::default()
        },
    );
    assert!(outcome.proven && outcome.value == 0, "{outcome:?}");
    let mut line = position;
    for &m in &outcome.pv {
        line.play(m);
    }
    assert!(line.game_over(), "pv {:?}", outcome.pv);
    assert_eq!(
        line.score(yolah_core::Color::Black),
        line.score(yolah_core::Color::White)
    );
}

#[test]
fn solved_lines_reach_the_end_with_the_proved_margin() {
    let mut rng = SmallRng::seed_from_u64(5);
    for i in 0..60 {
        let position = random_endgame(11 + i % 3, &mut rng);
        let mut player = Minimax::new(Weights::tuned(), 4, 1);
        let outcome = player.search(&position, unlimited());
        let margin = proven_margin(outcome.value).unwrap_or(0);
        let mut line = position;
        for &m in &outcome.pv {
            line.play(m);
        }
        assert!(
            line.game_over(),
            "{position}: pv {:?} stops short",
            outcome.pv
        );
        let us = position.side_to_move();
        let end = i32::from(line.score(us)) - i32::from(line.score(us.opponent()));
        assert_eq!(end, margin, "{position}: pv {:?}", outcome.pv);
    }
}

#[test]
fn alpha_beta_returns_the_plain_minimax_value_at_fixed_depths() {
    let mut rng = SmallRng::seed_from_u64(12);
    let weights = Weights::tuned();
    for i in 0..40 {
        let position = random_endgame(20 + (i % 4) * 8, &mut rng);
        for depth in 1..=3 {
            let mut player = Minimax::new(weights, 1, 1);
            // Plain minimax knows no reductions, pruning or exact regions.
            player.pruning = Pruning::NONE;
            player.regions = false;
            let limits = Limits {
                depth: Some(depth),
                ..Limits::default()
            };
            let outcome = player.search(&position, limits);
            let expected = plain_minimax(&position, depth, &weights);
            assert_eq!(outcome.value, expected, "{position} depth {depth}");
        }
    }
}

/// Aspiration windows (from depth 4) narrow enough to fail high and low are searched again
/// until the value is inside: without pruning, the value is still plain minimax's.
#[test]
fn aspiration_windows_that_fail_are_searched_again_to_the_plain_minimax_value() {
    let mut rng = SmallRng::seed_from_u64(59);
    let weights = Weights::tuned();
    for i in 0..16 {
        let position = random_endgame(20 + i % 3 * 2, &mut rng);
        let mut player = Minimax::new(weights, 1, 1);
        player.pruning = Pruning::NONE;
        player.pruning.tuning.aspiration = 1 + i as i32 % 3 * 10;
        player.regions = false;
        let limits = Limits {
            depth: Some(5),
            ..Limits::default()
        };
        let outcome = player.search(&position, limits);
        let expected = plain_minimax(&position, 5, &weights);
        assert_eq!(outcome.value, expected, "{position}");
    }
}

/// Counter moves and continuation history change the order of the moves, not the value:
/// without pruning, still plain minimax's, and the search visits other nodes.
#[test]
fn counter_moves_and_continuation_history_reorder_the_moves_and_keep_the_value() {
    let weights = Weights::tuned();
    let plain = Pruning::NONE;
    let counter = Pruning {
        counter_moves: true,
        ..plain
    };
    let mut continued = plain;
    continued.tuning.cont_history = 200;
    for (name, changed) in [
        ("counter moves", counter),
        ("continuation history", continued),
    ] {
        let mut rng = SmallRng::seed_from_u64(60);
        let mut differ = 0;
        for i in 0..12 {
            let position = random_endgame(26 + i % 3 * 2, &mut rng);
            let limits = Limits {
                depth: Some(5),
                ..Limits::default()
            };
            let search = |pruning: Pruning| {
                let mut player = Minimax::new(weights, 1, 1);
                player.pruning = pruning;
                player.regions = false;
                player.search(&position, limits)
            };
            let (with, without) = (search(changed), search(plain));
            assert_eq!(
                with.value,
                plain_minimax(&position, 5, &weights),
                "{name}: {position}"
            );
            assert_eq!(with.value, without.value, "{name}: {position}");
            differ += usize::from(with.nodes != without.nodes);
        }
        assert!(
            differ >= 6,
            "{name} changed the nodes of {differ} searches of 12"
        );
    }
}

#[test]
fn the_table_keys_on_the_score_split() {
    // The same board with the points split differently: a different key, and each solved to
    // its own margin with one table.
    let mut rng = SmallRng::seed_from_u64(13);
    let mut checked = 0;
    let mut player = Minimax::new(Weights::tuned(), 1, 1);
    while checked < 40 {
        let position = random_endgame(9, &mut rng);
        let text = position.to_string();
        let fields: Vec<&str> = text.split(' ').collect();
        let (black, white): (u8, u8) = (fields[2].parse().unwrap(), fields[3].parse().unwrap());
        let shifted = format!(
            "{} {} {} {} {}",
            fields[0],
            fields[1],
            black + 1,
            white.wrapping_sub(1),
            fields[4]
        );
        let Ok(other) = shifted.parse::<Position>() else {
            continue;
        };
        assert_ne!(position.hash(), other.hash());
        for p in [position, other, position] {
            let outcome = player.search(&p, unlimited());
            assert_eq!(
                proven_margin(outcome.value).unwrap_or(0),
                exact_margin(&p),
                "{p}"
            );
        }
        checked += 1;
    }
}

#[test]
fn minimax_finds_the_only_winning_move() {
    for position in positions("only_winning_move.txt") {
        let winning = move_values(&position)
            .into_iter()
            .find(|(_, v)| *v == 1)
            .unwrap()
            .0;
        let spec: Spec = "minimax:depth=6".parse().unwrap();
        let report = spec.agent(0).choose(&position);
        assert_eq!(report.mv, winning, "{position}: {report}");
    }
}

#[test]
fn node_and_depth_limits_are_reproducible_and_honoured() {
    let mut rng = SmallRng::seed_from_u64(14);
    for _ in 0..5 {
        let position = random_endgame(40, &mut rng);
        for spec in ["minimax:nodes=20000", "minimax:depth=4"] {
            let spec: Spec = spec.parse().unwrap();
            let first = spec.agent(0).choose(&position);
            let second = spec.agent(0).choose(&position);
            let pv = |detail: &str| detail.split(" pv ").nth(1).map(str::to_string);
            assert_eq!((first.mv, first.iterations), (second.mv, second.iterations));
            assert_eq!(
                (first.value, pv(&first.detail)),
                (second.value, pv(&second.detail))
            );
        }
        let mut player = Minimax::new(Weights::tuned(), 1, 1);
        let outcome = player.search(
            &position,
            Limits {
                nodes: Some(20_000),
                ..Limits::default()
            },
        );
        // Nodes are checked at interior nodes: a few leaves past the limit at most.
        assert!(outcome.nodes < 20_000 + 200, "{}", outcome.nodes);
        let outcome = player.search(
            &position,
            Limits {
                depth: Some(3),
                ..Limits::default()
            },
        );
        assert!(outcome.depth <= 3);
    }
}

#[test]
fn a_side_without_moves_passes_and_one_with_moves_never_does() {
    let mut rng = SmallRng::seed_from_u64(15);
    let mut passes = 0;
    for _ in 0..200 {
        let position = random_endgame(12, &mut rng);
        let mut player = Minimax::new(Weights::tuned(), 1, 1);
        let report = player.choose(
            &position,
            Limits {
                depth: Some(3),
                ..Limits::default()
            },
        );
        let can_move = position.count_moves(position.side_to_move()) > 0;
        assert_eq!(report.mv == Move::PASS, !can_move, "{position}");
        assert_eq!(position.check_move(report.mv), Ok(()));
        passes += usize::from(!can_move);
    }
    assert!(passes > 0, "the sample has forced passes");
}

#[test]
fn two_threads_play_legal_moves_and_solve_alike() {
    let mut rng = SmallRng::seed_from_u64(16);
    let mut player = Minimax::new(Weights::tuned(), 4, 2);
    for _ in 0..30 {
        let position = random_endgame(9, &mut rng);
        let outcome = player.search(&position, unlimited());
        assert!(outcome.proven);
        assert_eq!(
            proven_margin(outcome.value).unwrap_or(0),
            exact_margin(&position)
        );
    }
    let outcome = player.search(
        &Position::start(),
        Limits {
            depth: Some(5),
            ..Limits::default()
        },
    );
    assert_eq!(Position::start().check_move(outcome.mv), Ok(()));
}

#[test]
fn the_report_gives_depth_score_nodes_and_line() {
    let spec: Spec = "minimax:depth=4".parse().unwrap();
    let report = spec.agent(0).choose(&Position::start());
    for word in ["depth 4/", "score ", "nodes", "M/s", "table hits", "pv "] {
        assert!(report.detail.contains(word), "{word}: {}", report.detail);
    }
    let value = report.value.unwrap();
    assert!((0.0..=1.0).contains(&value));
    assert_eq!(
        report
            .detail
            .split(" pv ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap(),
        report.mv.to_string()
    );
}

/// `depth D/S` of a report: the iteration's depth and the deepest line.
fn depth_and_deepest(detail: &str) -> (u32, u32) {
    let pair = detail
        .split("depth ")
        .nth(1)
        .and_then(|rest| rest.split(',').next())
        .unwrap_or_else(|| panic!("no depth in {detail}"));
    let (depth, deepest) = pair.split_once('/').unwrap();
    (depth.parse().unwrap(), deepest.parse().unwrap())
}

#[test]
fn the_deepest_line_is_never_shorter_than_the_depth_unless_the_game_ends() {
    // Positions with room for the depth and late ones where the game ends inside it; each
    // searched twice by one player (its table kept, as analysis and the protocol keep it), so
    // the second search meets the first one's entries and proofs near its root.
    let mut rng = SmallRng::seed_from_u64(29);
    for free in [40, 30, 20, 14, 10, 6] {
        for _ in 0..3 {
            let position = random_endgame(free, &mut rng);
            if position.moves().len() < 2 {
                continue;
            }
            for depth in [6, 12] {
                let spec: Spec = format!("minimax:depth={depth}").parse().unwrap();
                let mut agent = spec.agent(0);
                for _ in 0..2 {
                    let report = agent.choose(&position);
                    let (searched, deepest) = depth_and_deepest(&report.detail);
                    // The game ends within 2 × free plies (a move fills a square; a pass
                    // only answers one).
                    let room = 2 * (64 - position.occupied().count());
                    assert!(
                        deepest >= searched || deepest >= room,
                        "{position} at depth {depth}: {}",
                        report.detail
                    );
                    assert!(searched >= 1, "{}", report.detail);
                }
            }
        }
    }
}

#[test]
fn each_pruning_switched_off_searches_more_nodes_to_the_same_depth() {
    let nodes = |text: &str| -> u64 {
        let spec: Spec = text.parse().unwrap();
        yolah_ai::search::bench::positions()
            .iter()
            .take(6)
            .map(|p| spec.agent(0).choose(p).iterations)
            .sum()
    };
    let switches = ["lmr", "nmp", "rfp", "lmp"];
    let spec = |off: Option<&str>| {
        let options: Vec<String> = switches
            .iter()
            .map(|s| format!("{s}={}", if Some(*s) == off { "off" } else { "on" }))
            .collect();
        format!("minimax:depth=6,{}", options.join(","))
    };
    let on = nodes(&spec(None));
    for switch in switches {
        let off = nodes(&spec(Some(switch)));
        assert!(off > on, "{switch}=off {off} nodes, all on {on}");
    }
}

/// Multi-PV (`lines=N`) in solved endgames: the lines start with different moves, each is
/// legal and reaches the end with its proved margin, and their margins are the best N of the
/// moves' exact margins (exhaustive search), in order; the first is the single line's.
#[test]
fn multi_pv_lines_are_the_best_moves_with_their_exact_margins() {
    let mut rng = SmallRng::seed_from_u64(43);
    let mut player = Minimax::new(Weights::tuned(), 4, 1);
    player.lines = 3;
    let mut checked = 0;
    for i in 0..120 {
        let position = random_endgame(8 + i % 4, &mut rng);
        let mut exact: Vec<i32> = position
            .moves()
            .iter()
            .map(|&m| {
                let mut child = position;
                child.play(m);
                -exact_margin(&child)
            })
            .collect();
        exact.sort_unstable_by(|a, b| b.cmp(a));
        let outcome = player.search(&position, unlimited());
        let wanted = 3.min(exact.len());
        assert_eq!(outcome.lines.len(), wanted, "{position}: {outcome:?}");
        assert_eq!(outcome.lines[0].pv, outcome.pv, "{position}");
        assert_eq!(outcome.lines[0].value, outcome.value, "{position}");
        let mut firsts: Vec<Move> = outcome.lines.iter().map(|line| line.pv[0]).collect();
        firsts.sort_unstable();
        firsts.dedup();
        assert_eq!(firsts.len(), wanted, "{position}: a first move twice");
        for (k, line) in outcome.lines.iter().enumerate() {
            assert!(line.proven, "{position}: line {k} not proved");
            let margin = proven_margin(line.value).unwrap_or(0);
            assert_eq!(margin, exact[k], "{position}: line {k} {line:?}");
            let mut end = position;
            for &m in &line.pv {
                assert_eq!(end.check_move(m), Ok(()), "{position}: line {k} {line:?}");
                end.play(m);
            }
            assert!(end.game_over(), "{position}: line {k} stops short");
            let us = position.side_to_move();
            let reached = i32::from(end.score(us)) - i32::from(end.score(us.opponent()));
            assert_eq!(reached, margin, "{position}: line {k} {line:?}");
        }
        checked += usize::from(wanted > 1);
    }
    assert!(
        checked > 60,
        "only {checked} positions with two moves or more"
    );
}

/// Multi-PV under a time limit, through a spec as the board asks for it: three lines of
/// different first moves, the move played the first line's, the report's lines in the same
/// order; one line asked for (the default) gives no list.
#[test]
fn a_timed_multi_pv_search_reports_its_lines() {
    let position = Position::start();
    let spec: Spec = "minimax:lines=3,depth=4".parse().unwrap();
    let report = spec.player(1).choose(&position, spec.limits());
    assert_eq!(report.lines.len(), 3, "{report:?}");
    assert_eq!(report.lines[0].pv, report.pv);
    assert_eq!(report.lines[0].pv[0], report.mv);
    assert_eq!(report.lines[0].margin, report.margin.unwrap());
    let firsts: std::collections::HashSet<Move> =
        report.lines.iter().map(|line| line.pv[0]).collect();
    assert_eq!(firsts.len(), 3);
    for line in &report.lines {
        let mut end = position;
        for &m in &line.pv {
            assert_eq!(end.check_move(m), Ok(()), "{line:?}");
            end.play(m);
        }
    }
    let single: Spec = "minimax:depth=4".parse().unwrap();
    assert!(
        single
            .player(1)
            .choose(&position, single.limits())
            .lines
            .is_empty()
    );
    for bad in ["minimax:lines=0", "minimax:lines=17", "minimax:lines=x"] {
        let error = bad.parse::<Spec>().unwrap_err().to_string();
        assert!(error.contains("from 1 to 16"), "{bad}: {error}");
    }
}

/// The lines come best first, and the move played is the first line's, also when a later
/// line's search finds a move better than the first search did (late-move reductions at the
/// root), and when a node limit stops the search among the lines (the last whole iteration
/// stands: no line of a deeper, unfinished one leads lines of the depth before; nor does a
/// helper thread's deeper line).
#[test]
fn multi_pv_lines_come_best_first_under_depth_and_node_limits() {
    let mut rng = SmallRng::seed_from_u64(44);
    for i in 0..30 {
        let position = random_endgame(36 + i % 12, &mut rng);
        for spec in [
            "minimax:lines=3,depth=3",
            "minimax:lines=3,nodes=3000",
            "minimax:lines=3,nodes=3000,threads=2",
        ] {
            let spec: Spec = spec.parse().unwrap();
            let report = spec.player(1).choose(&position, spec.limits());
            let lines = &report.lines;
            assert!(!lines.is_empty(), "{spec} {position}");
            assert_eq!(lines[0].pv[0], report.mv, "{spec} {position}");
            assert_eq!(lines[0].pv, report.pv, "{spec} {position}");
            for pair in lines.windows(2) {
                assert!(
                    pair[0].margin.points >= pair[1].margin.points,
                    "{spec} {position}: {lines:?}"
                );
            }
        }
    }
}

/// Asking for lines asks for a search: the opening book, which has one move, does not answer.
#[test]
fn lines_are_searched_even_where_the_book_has_the_move() {
    let spec: Spec = "minimax:eval=nn,lines=3,time=50ms".parse().unwrap();
    let report = spec.player(1).choose(&Position::start(), spec.limits());
    assert!(!report.book, "{report:?}");
    assert_eq!(report.lines.len(), 3, "{report:?}");
    let booked: Spec = "minimax:eval=nn,time=50ms".parse().unwrap();
    assert!(
        booked
            .player(1)
            .choose(&Position::start(), booked.limits())
            .book
    );
}

/// A tunable's case in the test below: its name, the search with it and without, and the
/// least number of proofs and of limited searches (of 12 each) it changes.
type Case<'a> = (
    &'a str,
    &'a dyn Fn(&mut Tuning),
    &'a dyn Fn(&mut Tuning),
    usize,
    usize,
);

/// Singular extensions (`se_depth`), their negative and double sides (`se_negative`,
/// `se_double`), history pruning (`hp_margin`) and internal
/// iterative reductions (`iir_depth`) change the search, not its truth: a search
/// without limits with each on proves every endgame's exact margin, as exhaustive minimax
/// finds it, and a limited search with each visits other nodes.
#[test]
fn extensions_and_reductions_keep_proofs_exact_and_change_the_search() {
    let singular = |t: &mut Tuning| {
        t.se_depth = 3;
        t.se_margin = 10;
    };
    let negative = |t: &mut Tuning| {
        singular(t);
        t.se_negative = 1;
    };
    let double = |t: &mut Tuning| {
        singular(t);
        t.se_double = 10;
    };
    let iir = |t: &mut Tuning| t.iir_depth = 3;
    let history = |t: &mut Tuning| t.hp_margin = 1;
    // The negative side acts more rarely (a table move not singular whose bound still holds
    // beta); history pruning never where the search sees the end, so in no proof.
    let cases: [Case; 5] = [
        ("se_depth", &singular, &|t| t.se_depth = 0, 3, 6),
        ("se_negative", &negative, &singular, 2, 3),
        ("se_double", &double, &singular, 3, 6),
        ("iir_depth", &iir, &|t| t.iir_depth = 0, 3, 6),
        ("hp_margin", &history, &|_| (), 0, 6),
    ];
    for (name, on, off, least_proofs, least_searches) in cases {
        let player = |tune: &dyn Fn(&mut Tuning)| {
            let mut player = Minimax::new(Weights::tuned(), 1, 1);
            tune(&mut player.pruning.tuning);
            player
        };
        let mut rng = SmallRng::seed_from_u64(61);
        // The proofs with it took other paths (it was tried), to the same margins.
        let mut proved_otherwise = 0;
        for i in 0..12 {
            let position = random_endgame(9 + i % 3, &mut rng);
            let proof = player(on).search(&position, Limits::default());
            let without = player(off).search(&position, Limits::default());
            assert!(proof.proven, "{name}: {position}");
            // A proved draw is worth 0, a margin beyond every heuristic value otherwise.
            assert_eq!(
                proven_margin(proof.value).unwrap_or(proof.value),
                exact_margin(&position),
                "{name}: {position}"
            );
            proved_otherwise += usize::from(proof.nodes != without.nodes);
        }
        assert!(
            proved_otherwise >= least_proofs,
            "{name} changed {proved_otherwise} proofs of 12"
        );
        let limits = Limits {
            depth: Some(7),
            ..Limits::default()
        };
        let mut differ = 0;
        for i in 0..12 {
            let position = random_endgame(30 + i % 3 * 2, &mut rng);
            let nodes = |tune: &dyn Fn(&mut Tuning)| player(tune).search(&position, limits).nodes;
            differ += usize::from(nodes(on) != nodes(off));
        }
        assert!(
            differ >= least_searches,
            "{name} changed the nodes of {differ} searches of 12"
        );
    }
}
