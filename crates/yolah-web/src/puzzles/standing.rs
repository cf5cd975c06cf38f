//! What the store keeps of puzzles: each browser's standing (its Glicko-2 rating, streak and
//! counts), each puzzle's rating, and which puzzles each browser tried. An attempt is one
//! transaction: both ratings, the streak and the attempt are written together or not at all,
//! and a puzzle a browser already tried moves nothing.

use super::glicko::{self, Rating};
use crate::store::{Store, now, sql};
use rusqlite::{OptionalExtension, params};
use serde::Serialize;
use std::collections::{HashMap, HashSet};

/// A browser's standing at puzzles.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Standing {
    /// Its rating, rounded.
    pub rating: i64,
    /// The rating's deviation, rounded.
    pub deviation: i64,
    /// Puzzles solved in a row, now.
    pub streak: i64,
    /// Its longest streak.
    pub best: i64,
    /// Puzzles solved.
    pub solved: i64,
    /// Puzzles failed.
    pub failed: i64,
    /// Whether its rating is still provisional (a deviation above 110, as lichess says).
    pub provisional: bool,
}

impl Standing {
    fn of(rating: Rating, streak: i64, best: i64, solved: i64, failed: i64) -> Standing {
        #[allow(clippy::cast_possible_truncation)]
        let round = |x: f64| x.round() as i64;
        Standing {
            rating: round(rating.rating),
            deviation: round(rating.deviation),
            streak,
            best,
            solved,
            failed,
            provisional: rating.deviation > PROVISIONAL,
        }
    }

    /// A browser that has tried nothing.
    pub fn new() -> Standing {
        Standing::of(glicko::START, 0, 0, 0, 0)
    }
}

impl Default for Standing {
    fn default() -> Standing {
        Standing::new()
    }
}

/// What an attempt did.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Counted {
    /// The browser's standing after it.
    pub standing: Standing,
    /// Whether it counted: a puzzle tried before moves nothing.
    pub counted: bool,
    /// The rating it gained or lost.
    pub change: i64,
}

type SolverRow = (Rating, i64, i64, i64, i64);

/// A rating whose deviation is above this is provisional (as lichess says): shown with a
/// mark, and its holder's attempts do not move the puzzles' ratings (a flood of new browsers
/// cannot push a puzzle's rating about).
pub const PROVISIONAL: f64 = 110.0;

impl Store {
    /// Whether `solver` has a standing kept.
    pub fn has_solver(&self, solver: &str) -> Result<bool, String> {
        self.read()
            .query_row(
                "SELECT 1 FROM solvers WHERE id = ?1",
                params![solver],
                |_| Ok(()),
            )
            .optional()
            .map(|row| row.is_some())
            .map_err(|e| format!("cannot read the puzzles' standings: {}", sql(&e)))
    }

    /// `solver`'s standing (a new one's if it has none).
    pub fn standing(&self, solver: &str) -> Result<Standing, String> {
        let row = solver_row(&self.read(), solver)
            .map_err(|e| format!("cannot read the puzzles' standings: {}", sql(&e)))?;
        Ok(
            row.map_or_else(Standing::new, |(r, streak, best, solved, failed)| {
                Standing::of(r, streak, best, solved, failed)
            }),
        )
    }

    /// `solver`'s rating and the puzzles it has tried.
    pub fn tried(&self, solver: &str) -> Result<(f64, HashSet<String>), String> {
        let db = self.read();
        let fail = |e: rusqlite::Error| format!("cannot read the puzzles' standings: {}", sql(&e));
        let rating = solver_row(&db, solver)
            .map_err(fail)?
            .map_or(glicko::START.rating, |row| row.0.rating);
        let mut statement = db
            .prepare("SELECT puzzle FROM attempts WHERE solver = ?1")
            .map_err(fail)?;
        let tried = statement
            .query_map(params![solver], |row| row.get::<_, String>(0))
            .and_then(Iterator::collect)
            .map_err(fail)?;
        Ok((rating, tried))
    }

    /// Every rated puzzle's rating.
    pub fn puzzle_ratings(&self) -> Result<HashMap<String, f64>, String> {
        let db = self.read();
        let fail = |e: rusqlite::Error| format!("cannot read the puzzles' ratings: {}", sql(&e));
        let mut statement = db
            .prepare("SELECT id, rating FROM puzzle_ratings")
            .map_err(fail)?;
        statement
            .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))
            .and_then(Iterator::collect)
            .map_err(fail)
    }

    /// Counts `solver`'s attempt at `puzzle`, `won` (solved) or not: both ratings move and
    /// the streak goes on or ends, in one transaction. A puzzle the solver tried before moves
    /// nothing.
    pub fn attempt(&self, solver: &str, puzzle: &str, won: bool) -> Result<Counted, String> {
        let fail = |e: rusqlite::Error| format!("cannot keep the attempt: {}", sql(&e));
        let mut db = self.lock();
        let tx = db.transaction().map_err(fail)?;
        let before = solver_row(&tx, solver).map_err(fail)?;
        let (rating, streak, best, solved_count, failed) =
            before.unwrap_or((glicko::START, 0, 0, 0, 0));
        let tried = tx
            .query_row(
                "SELECT 1 FROM attempts WHERE solver = ?1 AND puzzle = ?2",
                params![solver, puzzle],
                |_| Ok(()),
            )
            .optional()
            .map_err(fail)?
            .is_some();
        if tried {
            return Ok(Counted {
                standing: Standing::of(rating, streak, best, solved_count, failed),
                counted: false,
                change: 0,
            });
        }
        let puzzle_rating = tx
            .query_row(
                "SELECT rating, deviation, volatility FROM puzzle_ratings WHERE id = ?1",
                params![puzzle],
                |row| {
                    Ok(Rating {
                        rating: row.get(0)?,
                        deviation: row.get(1)?,
                        volatility: row.get(2)?,
                    })
                },
            )
            .optional()
            .map_err(fail)?
            .unwrap_or(glicko::START);
        let (after, moved) = Rating::attempt(rating, puzzle_rating, won);
        let puzzle_after = if rating.deviation > PROVISIONAL {
            puzzle_rating
        } else {
            moved
        };
        let (streak, solved_count, failed) = if won {
            (streak + 1, solved_count + 1, failed)
        } else {
            (0, solved_count, failed + 1)
        };
        let best = best.max(streak);
        tx.execute(
            "INSERT INTO solvers (id, rating, deviation, volatility, streak, best, solved, failed, created)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
             ON CONFLICT (id) DO UPDATE SET rating = ?2, deviation = ?3, volatility = ?4,
                 streak = ?5, best = ?6, solved = ?7, failed = ?8",
            params![
                solver,
                after.rating,
                after.deviation,
                after.volatility,
                streak,
                best,
                solved_count,
                failed,
                now()
            ],
        )
        .map_err(fail)?;
        tx.execute(
            "INSERT INTO puzzle_ratings (id, rating, deviation, volatility, attempts)
             VALUES (?1, ?2, ?3, ?4, 1)
             ON CONFLICT (id) DO UPDATE SET rating = ?2, deviation = ?3, volatility = ?4,
                 attempts = attempts + 1",
            params![
                puzzle,
                puzzle_after.rating,
                puzzle_after.deviation,
                puzzle_after.volatility
            ],
        )
        .map_err(fail)?;
        tx.execute(
            "INSERT INTO attempts (solver, puzzle, solved, at) VALUES (?1, ?2, ?3, ?4)",
            params![solver, puzzle, won, now()],
        )
        .map_err(fail)?;
        tx.commit().map_err(fail)?;
        let standing = Standing::of(after, streak, best, solved_count, failed);
        #[allow(clippy::cast_possible_truncation)]
        let change = (after.rating.round() - rating.rating.round()) as i64;
        Ok(Counted {
            standing,
            counted: true,
            change,
        })
    }
}

fn solver_row(db: &rusqlite::Connection, solver: &str) -> rusqlite::Result<Option<SolverRow>> {
    db.query_row(
        "SELECT rating, deviation, volatility, streak, best, solved, failed FROM solvers WHERE id = ?1",
        params![solver],
        |row| {
            Ok((
                Rating {
                    rating: row.get(0)?,
                    deviation: row.get(1)?,
                    volatility: row.get(2)?,
                },
                row.get(3)?,
                row.get(4)?,
                row.get(5)?,
                row.get(6)?,
            ))
        },
    )
    .optional()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_attempt_counts_once_and_keeps_the_streak() {
        let store = Store::memory();
        assert!(!store.has_solver("a").unwrap());
        assert_eq!(store.standing("a").unwrap(), Standing::new());
        let first = store.attempt("a", "p1", true).unwrap();
        assert!(first.counted && first.change > 0);
        assert_eq!((first.standing.streak, first.standing.solved), (1, 1));
        assert!(store.has_solver("a").unwrap());
        // Tried before: nothing moves.
        let again = store.attempt("a", "p1", false).unwrap();
        assert!(!again.counted);
        assert_eq!(again.standing, first.standing);
        let second = store.attempt("a", "p2", true).unwrap();
        assert_eq!((second.standing.streak, second.standing.best), (2, 2));
        let failed = store.attempt("a", "p3", false).unwrap();
        assert!(failed.change < 0);
        assert_eq!(
            (
                failed.standing.streak,
                failed.standing.best,
                failed.standing.failed
            ),
            (0, 2, 1)
        );
        let (rating, tried) = store.tried("a").unwrap();
        assert_eq!(rating.round() as i64, failed.standing.rating);
        assert_eq!(tried.len(), 3);
        // A provisional solver's attempts do not move the puzzles' ratings.
        assert!((store.puzzle_ratings().unwrap()["p1"] - 1500.0).abs() < 1e-9);
        // An established one's do: solved falls, failed rises.
        let mut attempts = 0;
        while store.standing("a").unwrap().provisional {
            store
                .attempt("a", &format!("q{attempts}"), attempts % 2 == 0)
                .unwrap();
            attempts += 1;
            assert!(attempts < 100, "still provisional after 100 attempts");
        }
        store.attempt("a", "p4", true).unwrap();
        store.attempt("a", "p5", false).unwrap();
        let ratings = store.puzzle_ratings().unwrap();
        assert!(
            ratings["p4"] < 1500.0 && ratings["p5"] > 1500.0,
            "{ratings:?}"
        );
        // Another browser is apart.
        assert_eq!(store.standing("b").unwrap(), Standing::new());
    }
}
