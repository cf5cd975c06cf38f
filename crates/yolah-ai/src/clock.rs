//! Game clocks: a [`TimeControl`] (`10s+100ms`: a base and an increment), the [`Clock`] a
//! player is shown before each move, how a clock becomes a move's time ([`Clock::allotment`]),
//! and the two clocks of a game as the arbiter keeps them ([`GameClocks`]).
//!
//! Fischer clocks, as in chess: each side starts with the base, its clock runs while it
//! thinks, and it gains the increment after each of its moves. A side whose thinking takes
//! more than the time it had left loses on time.

use crate::options::{parse_duration, parse_duration_or_zero};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;
use std::time::Duration;
use yolah_core::{Color, Position};

/// The longest base of a time control: an hour, as for a move time.
pub const MAX_BASE: Duration = Duration::from_hours(1);
/// The longest increment: a minute.
pub const MAX_INCREMENT: Duration = Duration::from_mins(1);

/// A time control: each side's time for the game, and what it gains after each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Each side's time at the start.
    pub base: Duration,
    /// Time gained after each of a side's moves.
    pub increment: Duration,
}

impl FromStr for TimeControl {
    type Err = String;

    /// `BASE[+INC]`, each a duration with its unit: `10s+100ms`, `1min`, `500ms+5ms`,
    /// `1s+0`.
    fn from_str(text: &str) -> Result<TimeControl, String> {
        let expected = "a time control is BASE[+INC], durations with units, like 10s+100ms or 1min";
        let text = text.trim();
        let (base, increment) = text.split_once('+').unwrap_or((text, "0"));
        let base =
            parse_duration(base.trim()).ok_or_else(|| format!("{}: {expected}", quote(text)))?;
        let increment = match increment.trim() {
            "0" => Duration::ZERO,
            inc => {
                parse_duration_or_zero(inc).ok_or_else(|| format!("{}: {expected}", quote(text)))?
            }
        };
        if base < Duration::from_millis(1) || base > MAX_BASE {
            return Err(format!(
                "{}: the base must be from 1ms to {}",
                quote(text),
                duration_text(MAX_BASE)
            ));
        }
        if increment > MAX_INCREMENT {
            return Err(format!(
                "{}: the increment must be at most {}",
                quote(text),
                duration_text(MAX_INCREMENT)
            ));
        }
        Ok(TimeControl { base, increment })
    }
}

fn quote(text: &str) -> String {
    yolah_core::text::quote(text)
}

/// A duration in the shortest of the units a time control is written in.
pub fn duration_text(d: Duration) -> String {
    let us = d.as_micros();
    if us == 0 {
        "0".to_string()
    } else if us.is_multiple_of(3_600_000_000) {
        format!("{}h", us / 3_600_000_000)
    } else if us.is_multiple_of(60_000_000) {
        format!("{}min", us / 60_000_000)
    } else if us.is_multiple_of(1_000_000) {
        format!("{}s", us / 1_000_000)
    } else if us.is_multiple_of(1000) {
        format!("{}ms", us / 1000)
    } else {
        format!("{us}us")
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}+{}",
            duration_text(self.base),
            duration_text(self.increment)
        )
    }
}

impl Serialize for TimeControl {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for TimeControl {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<TimeControl, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// The clock as a player sees it before a move: its time, its opponent's, the increments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// The time the side to move has left.
    pub left: Duration,
    /// What it gains after this move.
    pub increment: Duration,
    /// The time its opponent has left.
    pub opponent_left: Duration,
    /// What its opponent gains after each move.
    pub opponent_increment: Duration,
    /// Moves until the next time control, when the clock says (the protocol's `movestogo`).
    pub moves_to_go: Option<u32>,
}

/// The part of the time left that a move may take at most, so that a search that overruns
/// its allotment a little never loses on time.
const MAX_SHARE: f64 = 0.5;

/// Time kept back on every move for what the arbiter counts beyond the search: starting and
/// ending threads, and for a program behind a pipe, the pipe both ways. With it, a side whose
/// overhead stays under this plus the increment never runs out of time.
pub const MOVE_OVERHEAD: Duration = Duration::from_millis(20);

/// The shortest allotment: a search always gets to look at its moves.
const MIN_ALLOTMENT: Duration = Duration::from_millis(1);

/// The moves the time left is shared over when neither the spec (`pace=`) nor the clock
/// (`movestogo`) says: chosen by matches at 1s+10ms (`docs/notebook.md`, "Game clocks"):
/// 5 beat 3 by +70 Elo, 8 by +38; 8 beat 12 by +28; 12 beat half the free squares by +45.
pub const DEFAULT_PACE: u32 = 5;

impl Clock {
    /// How long to think on this move: the time left shared over `pace` moves when a
    /// player's spec sets it, else `moves_to_go` when the clock says, else
    /// [`DEFAULT_PACE`] (or the moves the side can still make, when fewer: half the free
    /// squares), plus three quarters of the increment; never more than half the time left,
    /// nor more than the time left less [`MOVE_OVERHEAD`] (but at least 1 ms).
    /// Spending a fifth of what is left on each move front-loads the time: the first moves
    /// matter most, and the last ones are solved quickly.
    pub fn allotment(&self, position: &Position, pace: Option<u32>) -> Duration {
        let moves = pace
            .or(self.moves_to_go)
            .unwrap_or_else(|| DEFAULT_PACE.min(moves_left(position)))
            .max(1);
        let left = self.left.as_secs_f64();
        let share = left / f64::from(moves) + 0.75 * self.increment.as_secs_f64();
        let most = (MAX_SHARE * left).min(left - MOVE_OVERHEAD.as_secs_f64());
        Duration::from_secs_f64(share.min(most).max(MIN_ALLOTMENT.as_secs_f64()))
    }
}

/// The moves the side to move can still expect to make: half the free squares (at least 1).
/// Each move fills a free square, and in our games each side makes about half of the moves
/// left until nearly every square is filled (`docs/notebook.md`, "Game clocks").
pub fn moves_left(position: &Position) -> u32 {
    let free = 64 - position.occupied().count();
    free.div_ceil(2).max(1)
}

/// The two clocks of a game, as the arbiter keeps them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameClocks {
    controls: [TimeControl; 2],
    left: [Duration; 2],
}

/// A side that thought longer than it had.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Flagged {
    /// How long it thought.
    pub used: Duration,
    /// How long it had.
    pub left: Duration,
}

impl fmt::Display for Flagged {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "lost on time: thought {:.3} s with {:.3} s left",
            self.used.as_secs_f64(),
            self.left.as_secs_f64()
        )
    }
}

impl GameClocks {
    /// Black's clock on `controls[0]`, white's on `controls[1]` (the same for a fair game,
    /// different for a time-odds match), each starting with its base.
    pub fn new(controls: [TimeControl; 2]) -> GameClocks {
        GameClocks {
            controls,
            left: controls.map(|c| c.base),
        }
    }

    /// Clocks on `controls` that show `left` (a game taken up again where it stood).
    pub fn resumed(controls: [TimeControl; 2], left: [Duration; 2]) -> GameClocks {
        GameClocks { controls, left }
    }

    /// Both sides on `control`.
    pub fn even(control: TimeControl) -> GameClocks {
        GameClocks::new([control; 2])
    }

    /// The clock `side` sees before its move.
    pub fn view(&self, side: Color) -> Clock {
        Clock {
            left: self.left[side.index()],
            increment: self.controls[side.index()].increment,
            opponent_left: self.left[side.opponent().index()],
            opponent_increment: self.controls[side.opponent().index()].increment,
            moves_to_go: None,
        }
    }

    /// Takes `used` off `side`'s clock and adds the increment, or says that it lost on time
    /// (its clock then shows zero).
    pub fn charge(&mut self, side: Color, used: Duration) -> Result<(), Flagged> {
        let left = &mut self.left[side.index()];
        if used > *left {
            let flagged = Flagged { used, left: *left };
            *left = Duration::ZERO;
            return Err(flagged);
        }
        *left = left.saturating_sub(used) + self.controls[side.index()].increment;
        Ok(())
    }

    /// The time each side has left, black's then white's.
    pub fn left(&self) -> [Duration; 2] {
        self.left
    }

    /// Black's and white's time controls.
    pub fn controls(&self) -> [TimeControl; 2] {
        self.controls
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn time_controls_parse_and_print_back() {
        let tc: TimeControl = "10s+100ms".parse().unwrap();
        assert_eq!(tc.base, Duration::from_secs(10));
        assert_eq!(tc.increment, ms(100));
        assert_eq!(tc.to_string(), "10s+100ms");
        let tc: TimeControl = "1min".parse().unwrap();
        assert_eq!(tc.increment, Duration::ZERO);
        assert_eq!(tc.to_string(), "1min+0");
        assert_eq!("1.5s+0".parse::<TimeControl>().unwrap().base, ms(1500));
        // A zero increment with its unit is a zero increment.
        for zero in ["8s+0s", "1min+0s", "8s+0ms", "8s + 0us"] {
            let tc: TimeControl = zero.parse().unwrap_or_else(|e| panic!("{zero}: {e}"));
            assert_eq!(tc.increment, Duration::ZERO, "{zero}");
        }
        for (bad, why) in [
            ("", "BASE[+INC]"),
            ("10", "BASE[+INC]"),
            ("10s+", "BASE[+INC]"),
            ("10s+5", "BASE[+INC]"),
            ("0s", "BASE[+INC]"),
            ("10s+-1ms", "BASE[+INC]"),
            ("-1s", "BASE[+INC]"),
            ("2h", "BASE[+INC]"),
            ("500us", "from 1ms"),
            ("1s+2min", "at most 1min"),
        ] {
            let error = bad.parse::<TimeControl>().unwrap_err();
            assert!(error.contains(why), "{bad}: {error}");
        }
    }

    #[test]
    fn a_clock_charges_and_gains_the_increment() {
        let mut clocks = GameClocks::even("1s+10ms".parse().unwrap());
        clocks.charge(Color::Black, ms(300)).unwrap();
        assert_eq!(clocks.left(), [ms(710), ms(1000)]);
        let view = clocks.view(Color::White);
        assert_eq!((view.left, view.opponent_left), (ms(1000), ms(710)));
        let flag = clocks.charge(Color::Black, ms(711)).unwrap_err();
        assert_eq!(flag.left, ms(710));
        assert!(flag.to_string().starts_with("lost on time"), "{flag}");
        assert_eq!(clocks.left()[0], Duration::ZERO);
    }

    #[test]
    fn the_allotment_shares_the_time_left_and_keeps_a_reserve() {
        let start = Position::start();
        assert_eq!(moves_left(&start), 28);
        let clock = Clock {
            left: ms(2800),
            increment: ms(40),
            opponent_left: ms(2800),
            opponent_increment: ms(40),
            moves_to_go: None,
        };
        assert_eq!(clock.allotment(&start, None), ms(590));
        assert_eq!(clock.allotment(&start, Some(28)), ms(130));
        assert_eq!(clock.allotment(&start, Some(10)), ms(310));
        // Near the end, the moves left when fewer than the default pace.
        let late: Position =
            "xxbxxbxx/wxxxwxxx/xxxxxxxw/xxxxxxxx/xbx1xxxx/xxxxxxxb/xxwxxxxx/xxxxxxx1 b 24 30 62"
                .parse()
                .unwrap();
        assert_eq!(moves_left(&late), 1);
        assert_eq!(clock.allotment(&late, None), ms(1400));
        let told = Clock {
            moves_to_go: Some(4),
            ..clock
        };
        assert_eq!(told.allotment(&start, None), ms(730));
        let short = Clock {
            left: ms(60),
            increment: ms(100),
            ..clock
        };
        assert_eq!(short.allotment(&start, None), ms(30));
        let shorter = Clock {
            left: ms(30),
            ..short
        };
        assert_eq!(shorter.allotment(&start, None), ms(10));
        let none = Clock {
            left: ms(15),
            ..short
        };
        assert_eq!(none.allotment(&start, None), ms(1));
    }
}
