//! Every shipped puzzle is unique, proved again here by the solver: the proof's value of each
//! legal move is the solver's, exactly one move keeps the best result (its goal's), and along
//! the solution each reply is the one the solver proves best for the defender and each move
//! of the solver's is again the only one keeping the result.

use yolah_ai::players::minimax::Minimax;
use yolah_ai::puzzle::{Goal, read_set};
use yolah_core::{Move, Position};

const SHIPPED: &str = include_str!("../data/puzzles.jsonl");
const NODES: u64 = 50_000_000;

/// Every legal move of `position` with its proved final margin for the side to move.
fn values(solver: &mut Minimax, position: &Position) -> Vec<(Move, i32)> {
    position
        .moves()
        .iter()
        .map(|&m| {
            let mut child = *position;
            child.play(m);
            let value = solver.prove(&child, NODES).expect("proved");
            (m, -value)
        })
        .collect()
}

/// The one move of `values` keeping the best result, if there is one.
fn only_keeper(values: &[(Move, i32)]) -> Option<Move> {
    let best = values.iter().map(|&(_, v)| v.signum()).max()?;
    let keepers: Vec<Move> = values
        .iter()
        .filter(|&&(_, v)| v.signum() == best)
        .map(|&(m, _)| m)
        .collect();
    (keepers.len() == 1).then(|| keepers[0])
}

#[test]
fn every_shipped_puzzle_is_proved_unique_again() {
    let puzzles = read_set(SHIPPED).unwrap();
    assert!(puzzles.len() >= 50, "{} puzzles", puzzles.len());
    let mut solver = Minimax::solver(64, 1);
    for checked in &puzzles {
        let (puzzle, position, solution) = (&checked.puzzle, checked.position, &checked.solution);
        let id = &puzzle.id;
        let proved = values(&mut solver, &position);
        let mut claimed: Vec<(String, i32)> = puzzle.moves.clone();
        let mut found: Vec<(String, i32)> =
            proved.iter().map(|&(m, v)| (m.to_string(), v)).collect();
        claimed.sort();
        found.sort();
        assert_eq!(found, claimed, "puzzle {id}: the proof");
        assert_eq!(only_keeper(&proved), Some(solution[0]), "puzzle {id}");
        let best = proved.iter().map(|&(_, v)| v).max().unwrap();
        assert_eq!(puzzle.value, best, "puzzle {id}");
        assert_eq!(
            puzzle.goal,
            if best > 0 { Goal::Win } else { Goal::Draw },
            "puzzle {id}"
        );
        let mut now = position;
        for (k, &m) in solution.iter().enumerate() {
            if k % 2 == 1 {
                // The defender's best reply: the least for the solver, the first among equals.
                let replies = values(&mut solver, &now);
                let least = replies.iter().map(|&(_, v)| v).max().unwrap();
                let first = replies.iter().find(|&&(_, v)| v == least).unwrap().0;
                assert_eq!(m, first, "puzzle {id}: reply {k}");
            } else if k > 0 {
                assert_eq!(
                    only_keeper(&values(&mut solver, &now)),
                    Some(m),
                    "puzzle {id}: move {k}"
                );
            }
            now.play(m);
        }
    }
}
