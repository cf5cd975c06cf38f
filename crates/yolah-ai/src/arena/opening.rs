//! Openings: a few uniformly random plies from the start, or the lines of a suite file, so
//! that the games of a match differ; each is played twice with colours swapped (book
//! chapter 8).
//!
//! A suite file has one opening a line: a position in notation, or `startpos moves m1 m2 …`
//! (`#` starts a comment; blank lines are skipped).

use rand::SeedableRng;
use rand::rngs::SmallRng;
use yolah_core::{Move, Position, play_moves};

/// Where a game starts: a position, and moves played from it before the players take over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The first position (the start, or a suite's position).
    pub start: Position,
    /// The moves played from it.
    pub moves: Vec<Move>,
}

impl Opening {
    /// An opening from one line of a suite (without its comment), checked.
    pub fn parse(line: &str) -> Result<Opening, String> {
        let line = line.trim();
        if let Some(rest) = line.strip_prefix("startpos") {
            let rest = rest.trim();
            let moves_text = match rest.strip_prefix("moves") {
                Some(moves) => moves,
                None if rest.is_empty() => "",
                None => return Err("expected `startpos moves m1 m2 …`".to_string()),
            };
            let mut position = Position::start();
            let moves = play_moves(&mut position, moves_text.split_whitespace())
                .map_err(|e| e.to_string())?;
            if position.game_over() {
                return Err("the game is over after these moves".to_string());
            }
            return Ok(Opening {
                start: Position::start(),
                moves,
            });
        }
        let start: Position = line.parse().map_err(|e| format!("bad position: {e}"))?;
        if start.game_over() {
            return Err("the game is over in this position".to_string());
        }
        Ok(Opening {
            start,
            moves: Vec::new(),
        })
    }

    /// The line as a suite writes it: `startpos moves …` from the start, else the position.
    pub fn to_line(&self) -> String {
        if self.start == Position::start() && self.moves.is_empty() {
            "startpos".to_string()
        } else if self.start == Position::start() {
            let moves: Vec<String> = self.moves.iter().map(ToString::to_string).collect();
            format!("startpos moves {}", moves.join(" "))
        } else {
            self.start.to_string()
        }
    }
}

/// The most openings a suite may hold.
pub const MAX_SUITE: usize = 100_000;

/// Reads a suite's text: every opening line checked, in file order. A bad line is an error
/// with its number.
pub fn parse_suite(text: &str) -> Result<Vec<Opening>, String> {
    let mut suite = Vec::new();
    for (number, line) in (1..).zip(text.lines()) {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        if suite.len() == MAX_SUITE {
            return Err(format!("more than {MAX_SUITE} openings"));
        }
        let opening = Opening::parse(line).map_err(|e| format!("line {number}: {e}"))?;
        suite.push(opening);
    }
    if suite.is_empty() {
        return Err("no opening in it".to_string());
    }
    Ok(suite)
}

/// `plies` random moves from the start drawn from `seed` (fewer if the game ends first).
pub fn random_opening(plies: u32, seed: u64) -> Vec<Move> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut position = Position::start();
    let mut moves = Vec::new();
    for _ in 0..plies {
        if position.game_over() {
            break;
        }
        let m = position.random_move(&mut rng);
        position.play(m);
        moves.push(m);
    }
    moves
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openings_are_legal_and_reproducible() {
        for seed in 0..50 {
            let opening = random_opening(6, seed);
            assert_eq!(opening, random_opening(6, seed));
            assert_eq!(opening.len(), 6);
            let mut position = Position::start();
            for &m in &opening {
                assert_eq!(position.check_move(m), Ok(()));
                position.play(m);
            }
        }
        assert_ne!(random_opening(6, 1), random_opening(6, 2));
    }

    #[test]
    fn a_suite_reads_both_forms_and_names_a_bad_line() {
        let text = "# a suite\n\nstartpos moves a1:c3 h1:h4\nstartpos\n\
                    w6b/8/8/3bw3/3wb3/8/8/b6w b 0 0 0  # the start, as a position\n";
        let suite = parse_suite(text).unwrap();
        assert_eq!(suite.len(), 3);
        assert_eq!(suite[0].moves.len(), 2);
        assert_eq!(suite[0].to_line(), "startpos moves a1:c3 h1:h4");
        assert_eq!(suite[1].to_line(), "startpos");
        for (bad, expected) in [
            (
                "startpos moves a1:a1",
                "line 1: move 1 'a1:a1' (black to play) is illegal",
            ),
            ("startpos moves e4:e9", "line 1: move 1"),
            ("\n8/8 b 0 0 0", "line 2: bad position"),
            ("startpos a1:c3", "line 1: expected `startpos moves"),
            ("# nothing\n", "no opening"),
        ] {
            let error = parse_suite(bad).unwrap_err();
            assert!(error.contains(expected), "{bad}: {error}");
        }
    }
}
