//! Puzzles on the board (`/puzzles`): a set of proven puzzles (`yolah puzzles`; one ships
//! with the server, `yolah serve --puzzles FILE` gives another), each browser's rating and
//! streak in the store.
//!
//! - `GET /puzzles.json?count=N&from=K`: puzzles whole (solution and proof), for scripts;
//! - `POST /puzzles/next` `{"solver"}`: the next puzzle for that browser, without its
//!   solution: the untried one whose rating is nearest the browser's;
//! - `POST /puzzles/ID/attempt` `{"solver", "moves", "give_up"}`: the moves played so far
//!   (the browser's and the replies it was given) checked against the solution: the next
//!   reply, or the end (solved or failed) with the solution, its proof and the standing.
//!
//! A browser is a random 32-hex-digit name it keeps (`localStorage`); its first counted
//! attempt is a new row, bounded by address as new games are.

pub mod glicko;
pub mod standing;

use crate::store::Store;
use serde::{Deserialize, Serialize};
use standing::{Counted, Standing};
use std::collections::HashMap;
use std::path::Path;
use yolah_ai::puzzle::{Checked, Puzzle};
use yolah_core::{Move, Position};

/// The shipped set.
const SHIPPED: &str = include_str!("../../data/puzzles.jsonl");
/// The largest puzzles file read.
const MAX_FILE: u64 = 64 << 20;
/// The most puzzles one `/puzzles.json` gives.
pub const MAX_COUNT: usize = 1000;

/// A set of puzzles.
#[derive(Debug)]
pub struct Set {
    entries: Vec<Checked>,
    by_id: HashMap<String, usize>,
}

/// Why a request was refused: an HTTP status and one line.
#[derive(Debug)]
pub struct Refused {
    /// 400, 404, 429 or 500.
    pub status: u16,
    /// Why.
    pub reason: String,
}

fn refused(status: u16, reason: impl Into<String>) -> Refused {
    Refused {
        status,
        reason: reason.into(),
    }
}

impl Set {
    /// The set of a puzzles file's text, every puzzle checked.
    pub fn parse(text: &str) -> Result<Set, String> {
        let entries = yolah_ai::puzzle::read_set(text)?;
        let by_id = (0..)
            .zip(&entries)
            .map(|(k, entry)| (entry.puzzle.id.clone(), k))
            .collect();
        Ok(Set { entries, by_id })
    }

    /// The set in the file at `path`.
    pub fn load(path: &Path) -> Result<Set, String> {
        let shown = yolah_core::text::quote(&path.display().to_string());
        let bytes = yolah_ai::files::read_bounded(path, MAX_FILE)
            .map_err(|e| format!("--puzzles {shown}: {e}"))?;
        let text = String::from_utf8(bytes)
            .map_err(|_| format!("--puzzles {shown}: not UTF-8 text: not a puzzles file"))?;
        Set::parse(&text).map_err(|e| format!("--puzzles {shown}: {e}"))
    }

    /// The set that ships with the server.
    pub fn shipped() -> Set {
        Set::parse(SHIPPED).expect("the shipped puzzles check")
    }

    /// How many puzzles it has.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether it has none (a set read from a file never is).
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// `/puzzles.json`: `count` puzzles whole from the `from`-th, in the set's order.
    pub fn list(&self, from: usize, count: usize) -> Result<Vec<&Puzzle>, Refused> {
        if !(1..=MAX_COUNT).contains(&count) {
            return Err(refused(
                400,
                format!("count must be from 1 to {MAX_COUNT}, not {count}"),
            ));
        }
        Ok(self
            .entries
            .iter()
            .skip(from)
            .take(count)
            .map(|e| &e.puzzle)
            .collect())
    }

    /// The next puzzle for `solver`: the untried one whose rating is nearest its own (the
    /// first in the set among equals), or none when it has tried them all.
    pub fn next(&self, store: &Store, solver: &str) -> Result<Next, Refused> {
        check_solver(solver)?;
        let (rating, tried) = store.tried(solver).map_err(|e| refused(500, e))?;
        let ratings = store.puzzle_ratings().map_err(|e| refused(500, e))?;
        let rating_of = |id: &str| ratings.get(id).copied().unwrap_or(glicko::START.rating);
        let standing = store.standing(solver).map_err(|e| refused(500, e))?;
        let chosen = self
            .entries
            .iter()
            .filter(|e| !tried.contains(&e.puzzle.id))
            .min_by(|a, b| {
                let distance = |e: &Checked| (rating_of(&e.puzzle.id) - rating).abs();
                distance(a).total_cmp(&distance(b))
            });
        Ok(Next {
            puzzle: chosen.map(|e| Shown::of(e, rating_of(&e.puzzle.id))),
            standing,
            left: self.entries.len()
                - tried
                    .iter()
                    .filter(|id| self.by_id.contains_key(*id))
                    .count(),
        })
    }

    /// Checks an attempt at puzzle `id`: the moves so far against the solution. The first
    /// move of the solver's that is not the solution's ends it, failed, whatever follows (so
    /// a guess costs the attempt: no answer tells a right move from a wrong one for free).
    /// `limit(new)` is asked before an attempt is counted (`new`: the browser's first).
    pub fn attempt(
        &self,
        store: &Store,
        id: &str,
        attempt: &Attempt,
        limit: impl FnOnce(bool) -> Result<(), String>,
    ) -> Result<Answer, Refused> {
        check_solver(&attempt.solver)?;
        let entry = self
            .by_id
            .get(id)
            .map(|&k| &self.entries[k])
            .ok_or_else(|| refused(404, format!("no puzzle {}", yolah_core::text::quote(id))))?;
        let solution = &entry.solution;
        if attempt.moves.is_empty() && !attempt.give_up {
            return Err(refused(400, "no move given: moves, or give_up"));
        }
        if attempt.moves.len() > solution.len() {
            return Err(refused(400, "more moves than the solution has"));
        }
        // Each move's text first, whatever the solution.
        let moves = attempt
            .moves
            .iter()
            .enumerate()
            .map(|(k, text)| {
                text.parse::<Move>()
                    .map_err(|e| refused(400, format!("move {}: {e}", k + 1)))
            })
            .collect::<Result<Vec<Move>, Refused>>()?;
        let mut position = entry.position;
        let mut wrong = attempt.give_up;
        let mut upto = 0;
        for (k, &m) in moves.iter().enumerate() {
            upto = k + 1;
            if m != solution[k] {
                if k % 2 == 1 {
                    return Err(refused(
                        400,
                        format!("move {} is not the reply given", k + 1),
                    ));
                }
                position
                    .check_move(m)
                    .map_err(|e| refused(400, format!("move {} {m}: {e}", k + 1)))?;
                wrong = true;
                break;
            }
            position.play(m);
        }
        if !wrong && upto.is_multiple_of(2) {
            return Err(refused(
                400,
                "the moves end with a reply: the solver's move is next",
            ));
        }
        if !wrong && upto < solution.len() {
            let reply = solution[upto];
            let mut after = position;
            after.play(reply);
            return Ok(Answer {
                result: "continue",
                reply: Some(reply.to_string()),
                legal: legal(&after),
                end: None,
            });
        }
        let solved = !wrong;
        let new = !store
            .has_solver(&attempt.solver)
            .map_err(|e| refused(500, e))?;
        limit(new).map_err(|e| refused(429, e))?;
        let counted = store
            .attempt(&attempt.solver, id, solved)
            .map_err(|e| refused(500, e))?;
        Ok(Answer {
            result: if solved { "solved" } else { "failed" },
            reply: None,
            legal: Vec::new(),
            end: Some(End {
                solution: entry.puzzle.solution.clone(),
                value: entry.puzzle.value,
                proof: entry.puzzle.moves.clone(),
                counted,
            }),
        })
    }
}

/// A browser's name: 32 lowercase hex digits.
fn check_solver(solver: &str) -> Result<(), Refused> {
    if solver.len() == 32
        && solver
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    {
        Ok(())
    } else {
        Err(refused(400, "solver must be 32 lowercase hex digits"))
    }
}

/// The legal moves of `position`, as text.
fn legal(position: &Position) -> Vec<String> {
    position.moves().iter().map(Move::to_string).collect()
}

/// A puzzle as a browser is given it: without its solution.
#[derive(Debug, Serialize)]
pub struct Shown {
    /// Its id.
    pub id: String,
    /// Its position, in notation.
    pub position: String,
    /// `black` or `white`: whose move it is.
    pub side: &'static str,
    /// `win` or `draw`.
    pub goal: yolah_ai::puzzle::Goal,
    /// What to find, in words.
    pub task: &'static str,
    /// Its rating.
    pub rating: i64,
    /// The legal moves.
    pub legal: Vec<String>,
}

impl Shown {
    fn of(entry: &Checked, rating: f64) -> Shown {
        #[allow(clippy::cast_possible_truncation)]
        let rating = rating.round() as i64;
        Shown {
            id: entry.puzzle.id.clone(),
            position: entry.puzzle.position.clone(),
            side: entry.position.side_to_move().name(),
            goal: entry.puzzle.goal,
            task: entry.puzzle.goal.task(),
            rating,
            legal: legal(&entry.position),
        }
    }
}

/// `POST /puzzles/next`'s answer.
#[derive(Debug, Serialize)]
pub struct Next {
    /// The puzzle, none when the browser has tried them all.
    pub puzzle: Option<Shown>,
    /// The browser's standing.
    pub standing: Standing,
    /// The puzzles it has not tried.
    pub left: usize,
}

/// `POST /puzzles/next`'s request.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Asker {
    /// The browser's name.
    pub solver: String,
}

/// `POST /puzzles/ID/attempt`'s request.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Attempt {
    /// The browser's name.
    pub solver: String,
    /// The moves so far: the browser's, the replies it was given, ending with its own.
    #[serde(default)]
    pub moves: Vec<String>,
    /// The browser asks for the solution: the puzzle is failed.
    #[serde(default)]
    pub give_up: bool,
}

/// `POST /puzzles/ID/attempt`'s answer.
#[derive(Debug, Serialize)]
pub struct Answer {
    /// `continue`, `solved` or `failed`.
    pub result: &'static str,
    /// The reply to the browser's move, while the line goes on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reply: Option<String>,
    /// The legal moves after the reply.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub legal: Vec<String>,
    /// At the end: the solution, its proof and the standing.
    #[serde(skip_serializing_if = "Option::is_none", flatten)]
    pub end: Option<End>,
}

/// The end of a puzzle.
#[derive(Debug, Serialize)]
pub struct End {
    /// The solution.
    pub solution: Vec<String>,
    /// The final margin it proves for the side to move.
    pub value: i32,
    /// Every legal move with its proved final margin, best first.
    pub proof: Vec<(String, i32)>,
    /// The attempt as counted, and the standing after it.
    #[serde(flatten)]
    pub counted: Counted,
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOLVER: &str = "0123456789abcdef0123456789abcdef";

    fn attempt(moves: &[&str]) -> Attempt {
        Attempt {
            solver: SOLVER.into(),
            moves: moves.iter().map(|m| (*m).to_string()).collect(),
            give_up: false,
        }
    }

    #[test]
    fn the_shipped_set_reads_and_a_puzzle_is_solved_by_its_solution() {
        let set = Set::shipped();
        assert!(set.len() >= 50, "{} puzzles", set.len());
        let store = Store::memory();
        let next = set.next(&store, SOLVER).unwrap();
        let shown = next.puzzle.unwrap();
        assert_eq!(next.left, set.len());
        let entry = &set.entries[set.by_id[&shown.id]];
        // Played move by move, each reply given is the solution's.
        let solution: Vec<String> = entry.puzzle.solution.clone();
        let mut played: Vec<&str> = Vec::new();
        for (k, m) in solution.iter().enumerate().step_by(2) {
            played.push(m);
            let answer = set
                .attempt(&store, &shown.id, &attempt(&played), |_| Ok(()))
                .unwrap();
            if k + 1 < solution.len() {
                assert_eq!(answer.result, "continue");
                assert_eq!(answer.reply.as_deref(), Some(solution[k + 1].as_str()));
                played.push(&solution[k + 1]);
            } else {
                assert_eq!(answer.result, "solved");
                let end = answer.end.unwrap();
                assert!(end.counted.counted && end.counted.standing.streak == 1);
            }
        }
        // The next puzzle is another; the one solved is not offered again.
        let next = set.next(&store, SOLVER).unwrap();
        assert_ne!(next.puzzle.unwrap().id, shown.id);
        assert_eq!(next.left, set.len() - 1);
    }

    #[test]
    fn a_wrong_move_fails_and_bad_attempts_are_refused() {
        let set = Set::shipped();
        let store = Store::memory();
        let entry = &set.entries[0];
        let id = entry.puzzle.id.clone();
        let wrong = entry.puzzle.moves[1].0.clone();
        let error = set
            .attempt(&store, &id, &attempt(&["zz"]), |_| Ok(()))
            .unwrap_err();
        assert_eq!(error.status, 400);
        assert!(error.reason.contains("move 1"), "{}", error.reason);
        let too_many: Vec<&str> = entry
            .puzzle
            .solution
            .iter()
            .map(String::as_str)
            .chain(["a1:a1"])
            .collect();
        let error = set
            .attempt(&store, &id, &attempt(&too_many), |_| Ok(()))
            .unwrap_err();
        assert!(error.reason.contains("more moves"), "{}", error.reason);
        let bad_solver = Attempt {
            solver: "me".into(),
            ..attempt(&[])
        };
        assert_eq!(
            set.attempt(&store, &id, &bad_solver, |_| Ok(()))
                .unwrap_err()
                .status,
            400
        );
        assert_eq!(
            set.attempt(&store, "nope", &attempt(&[]), |_| Ok(()))
                .unwrap_err()
                .status,
            404
        );
        // A new browser the address may not add: refused, nothing kept.
        let error = set
            .attempt(&store, &id, &attempt(&[&wrong]), |_| Err("too many".into()))
            .unwrap_err();
        assert_eq!(error.status, 429);
        assert!(!store.has_solver(SOLVER).unwrap());
        let answer = set
            .attempt(&store, &id, &attempt(&[&wrong]), |_| Ok(()))
            .unwrap();
        assert_eq!(answer.result, "failed");
        let end = answer.end.unwrap();
        assert_eq!(end.solution, entry.puzzle.solution);
        assert!(end.counted.counted && end.counted.change < 0);
        assert_eq!(end.proof, entry.puzzle.moves);
        // Giving up a puzzle already failed counts nothing more.
        let give_up = Attempt {
            give_up: true,
            ..attempt(&[])
        };
        let again = set.attempt(&store, &id, &give_up, |_| Ok(())).unwrap();
        assert_eq!(again.result, "failed");
        assert!(!again.end.unwrap().counted.counted);
        assert_eq!(set.list(0, 0).unwrap_err().status, 400);
        assert_eq!(set.list(0, 3).unwrap().len(), 3.min(set.len()));
    }

    /// A guess costs the attempt: a wrong move of the solver's with anything after it is a
    /// failure counted, never an error that would tell it from a right one.
    #[test]
    fn a_guess_costs_the_attempt() {
        let set = Set::shipped();
        let store = Store::memory();
        let long = set
            .entries
            .iter()
            .find(|e| e.solution.len() >= 3)
            .expect("a puzzle of three moves or more");
        let id = long.puzzle.id.clone();
        let right = long.puzzle.solution[0].clone();
        let wrong = long.puzzle.moves[1].0.clone();
        // Right, then a reply that is not the one given: refused, nothing counted.
        let error = set
            .attempt(&store, &id, &attempt(&[&right, "a1:a1"]), |_| Ok(()))
            .unwrap_err();
        assert!(
            error.reason.contains("not the reply given"),
            "{}",
            error.reason
        );
        assert!(!store.has_solver(SOLVER).unwrap());
        // Wrong, then anything: failed and counted.
        let mut news = Vec::new();
        let answer = set
            .attempt(&store, &id, &attempt(&[&wrong, "a1:a1"]), |new| {
                news.push(new);
                Ok(())
            })
            .unwrap();
        assert_eq!(answer.result, "failed");
        assert!(answer.end.unwrap().counted.counted);
        assert_eq!(news, [true], "the browser's first attempt is its row's");
        let error = set
            .attempt(&store, &id, &attempt(&[]), |_| Ok(()))
            .unwrap_err();
        assert!(error.reason.contains("no move given"), "{}", error.reason);
        // Its second attempt is no new browser's; the address's limit still applies.
        let other = &set
            .entries
            .iter()
            .find(|e| e.puzzle.id != id)
            .unwrap()
            .puzzle;
        let give_up = Attempt {
            give_up: true,
            ..attempt(&[])
        };
        let error = set
            .attempt(&store, &other.id, &give_up, |new| {
                assert!(!new);
                Err("too many puzzle attempts".into())
            })
            .unwrap_err();
        assert_eq!(error.status, 429);
    }

    #[test]
    fn a_foreign_or_forged_set_is_refused_with_the_line() {
        let shipped: Vec<&str> = SHIPPED.lines().collect();
        for (text, why) in [
            (String::new(), "no puzzle"),
            ("hello\n".to_string(), "line 1"),
            (format!("{}\n{}\n", shipped[1], shipped[0]), "line 1"),
            (
                format!("{}\n{}\n{}\n", shipped[0], shipped[1], shipped[1]),
                "again",
            ),
            (
                format!(
                    "{}\n{}\n",
                    shipped[0],
                    shipped[1].replacen("\"value\":", "\"value\":1", 1)
                ),
                "line 2",
            ),
        ] {
            let error = Set::parse(&text).unwrap_err();
            assert!(error.contains(why), "{why}: {error}");
        }
    }
}
