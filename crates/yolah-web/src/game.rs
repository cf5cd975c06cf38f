//! One browser game: its sides, its moves, and the rules of what a page may ask. Pure: the
//! server does the searching and the talking.

use crate::message::{Clocks, MAX_MOVES, State};
use serde::{Deserialize, Serialize};
use std::time::{Duration, Instant};
use yolah_ai::clock::GameClocks;
use yolah_ai::{Limits, Spec, SpecError, TimeControl};
use yolah_core::text::quote;
use yolah_core::{Color, Move, Outcome, Position, play_move, play_moves};

/// The longest a machine may think per move in a browser game.
pub const MAX_MOVE_TIME: Duration = Duration::from_secs(10);
/// The largest minimax table a browser game may ask for, MiB.
pub const MAX_TT_MB: u64 = 64;
/// The largest MCTS tree a browser game may ask for, MiB.
pub const MAX_TREE_MB: u64 = 128;

/// Who plays a side.
#[derive(Clone, Debug)]
pub enum Side {
    /// The person at the page.
    Human,
    /// A player of this server, with its spec (limits checked).
    Machine(Spec),
}

impl Side {
    /// `human`, or a spec a page may ask for: no other programs, no files, one thread, at most
    /// [`MAX_MOVE_TIME`] a move (a spec without a time gets its default, capped), bounded
    /// memory. Anything else is refused with the reason.
    pub fn parse(text: &str) -> Result<Side, String> {
        let text = text.trim();
        if text == "human" {
            return Ok(Side::Human);
        }
        let refuse = |why: &str| Err(format!("player {}: {why}", quote(text)));
        // Decided on the parsed spec, before any file is read: no option that names a file,
        // in any spelling.
        let spec = match Spec::parse_without_files(text) {
            Ok(spec) => spec,
            Err(SpecError::FileRefused { .. }) => {
                return refuse("weights and network files cannot be read from a browser");
            }
            Err(e) => return Err(format!("player {}: {e}", quote(text))),
        };
        if spec.name() == "engine" {
            return refuse("other programs cannot be started from a browser");
        }
        if spec.number("threads").is_some_and(|n| n > 1) {
            return refuse("a browser game searches on one thread");
        }
        if spec.number("tt").is_some_and(|n| n > MAX_TT_MB) {
            return refuse(&format!("tt is at most {MAX_TT_MB} MiB here"));
        }
        if spec.number("tree").is_some_and(|n| n > MAX_TREE_MB) {
            return refuse(&format!("tree is at most {MAX_TREE_MB} MiB here"));
        }
        let spec = match spec.limits().time {
            Some(time) if time > MAX_MOVE_TIME => {
                return refuse("time is at most 10s a move here");
            }
            // Depth, nodes or iterations alone could run for hours: the time caps them.
            None if spec.has_option("time") => spec
                .with("time", "10s")
                .map_err(|e| format!("player {}: {e}", quote(text)))?,
            _ => spec,
        };
        Ok(Side::Machine(spec))
    }

    fn name(&self) -> String {
        match self {
            Side::Human => "human".to_string(),
            Side::Machine(spec) => spec.to_string(),
        }
    }
}

/// `black` or `white`.
pub fn colour(text: &str) -> Option<Color> {
    Color::ALL.into_iter().find(|c| c.to_string() == text)
}

/// How a result that is not the position's reads after the winner's name (`black wins on
/// time`): the page shows it, and the PGN export reads it back.
pub const WINS_ON_TIME: &str = "wins on time";
/// The same for a resignation.
pub const WINS_BY_RESIGNATION: &str = "wins by resignation";

/// A game as the server keeps it between reloads and restarts (JSON in its database).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Saved {
    /// Black's player: `human` or a spec.
    pub black: String,
    /// White's player.
    pub white: String,
    /// The position it started from, in notation.
    pub start: String,
    /// The time control, if it has a clock.
    #[serde(default)]
    pub tc: Option<String>,
    /// The moves.
    pub moves: Vec<String>,
    /// With a clock: black's and white's time left at each position, ms.
    #[serde(default)]
    pub clocks: Vec<[u64; 2]>,
    /// The side that lost on time.
    #[serde(default)]
    pub flagged: Option<String>,
    /// The side that resigned.
    #[serde(default)]
    pub resigned: Option<String>,
    /// How much of its turn the side to move had used when the game was kept, ms.
    #[serde(default)]
    pub turn_ms: u64,
    /// Whether a watched game was paused.
    #[serde(default)]
    pub paused: bool,
    /// The result as the page shows it, once the game is over.
    #[serde(default)]
    pub result: Option<String>,
}

/// A game in progress.
#[derive(Clone, Debug)]
pub struct Table {
    start: Position,
    moves: Vec<Move>,
    positions: Vec<Position>,
    sides: [Side; 2],
    /// With a time control: the clocks as they stood at each position (undo takes them back).
    clocks: Vec<Option<GameClocks>>,
    /// When the side to move's clock started running.
    turn_started: Instant,
    /// The side whose clock ran out, and how.
    flagged: Option<(Color, String)>,
    /// The side that resigned.
    resigned: Option<Color>,
    /// Analysis: both sides the person's, the engine thinking on the position as it changes.
    analysis: bool,
    /// A watched game or an analysis stopped by the person (or by an undo): no search starts
    /// until it is resumed.
    paused: bool,
    /// When it was paused: the clocks stand still from then until it is resumed.
    paused_at: Option<Instant>,
    /// Analysis: the moves of the position the page shows, when it is an earlier one; the
    /// engine thinks on that position (the last one when none).
    focus: Option<usize>,
    /// Analysis: the positions (by their moves) the engine has finished with, proved or
    /// thought its longest on: it searches them no more until Go, but goes on to any other
    /// the page shows.
    finished: Vec<usize>,
}

impl Table {
    /// A new game from `position` (the start if empty), with a clock if `tc` sets one.
    pub fn new(
        black: &str,
        white: &str,
        position: Option<&str>,
        tc: Option<TimeControl>,
    ) -> Result<Table, String> {
        let mut table = Table::fresh(black, white, position, tc)?;
        table.pass_for_human();
        Ok(table)
    }

    /// A new game before any pass is played for a person without a move.
    fn fresh(
        black: &str,
        white: &str,
        position: Option<&str>,
        tc: Option<TimeControl>,
    ) -> Result<Table, String> {
        let start = match position.map(str::trim).filter(|p| !p.is_empty()) {
            Some(text) => text
                .parse::<Position>()
                .map_err(|e| format!("position {}: {e}", quote(text)))?,
            None => Position::start(),
        };
        Ok(Table {
            start,
            moves: Vec::new(),
            positions: vec![start],
            sides: [Side::parse(black)?, Side::parse(white)?],
            clocks: vec![tc.map(GameClocks::even)],
            turn_started: Instant::now(),
            flagged: None,
            resigned: None,
            analysis: false,
            paused: false,
            paused_at: None,
            focus: None,
            finished: Vec::new(),
        })
    }

    /// An analysis board from `position`: the person moves both sides, and the engine
    /// thinks on the position shown until paused.
    pub fn analysis(position: Option<&str>) -> Result<Table, String> {
        let mut table = Table::new("human", "human", position, None)?;
        table.analysis = true;
        Ok(table)
    }

    /// The game as the server keeps it: enough to take it up again, clocks included, after a
    /// reload or a restart (not an analysis board's: those are not kept).
    pub fn saved(&self) -> Saved {
        let ms = |d: Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
        Saved {
            black: self.sides[0].name(),
            white: self.sides[1].name(),
            start: self.start.to_string(),
            tc: self.clocks().map(|c| c.controls()[0].to_string()),
            moves: self.moves.iter().map(ToString::to_string).collect(),
            clocks: self
                .clocks
                .iter()
                .flatten()
                .map(|c| c.left().map(ms))
                .collect(),
            flagged: self.flagged.as_ref().map(|(side, _)| side.to_string()),
            resigned: self.resigned.map(|side| side.to_string()),
            turn_ms: ms(self.turn_elapsed()),
            paused: self.paused,
            result: self.result(),
        }
    }

    /// A kept game taken up again where it stood: every move checked again, the clocks as
    /// they were (the side to move has used `turn_ms` of its turn), a watched game paused if
    /// it was. A record that does not hold together is refused with the reason.
    pub fn restore(saved: &Saved) -> Result<Table, String> {
        let tc = match &saved.tc {
            Some(text) => Some(
                text.parse::<TimeControl>()
                    .map_err(|e| format!("tc {}: {e}", quote(text)))?,
            ),
            None => None,
        };
        let mut table = Table::fresh(&saved.black, &saved.white, Some(&saved.start), tc)?;
        if saved.moves.len() > MAX_MOVES {
            return Err(format!("more than {MAX_MOVES} moves"));
        }
        if let Some(tc) = tc {
            if saved.clocks.len() != saved.moves.len() + 1 {
                return Err(format!(
                    "{} clock entries for {} positions",
                    saved.clocks.len(),
                    saved.moves.len() + 1
                ));
            }
            let left = |k: usize| saved.clocks[k].map(Duration::from_millis);
            table.clocks = (0..saved.clocks.len())
                .map(|k| Some(GameClocks::resumed([tc; 2], left(k))))
                .collect();
        }
        let mut position = table.position();
        let moves = play_moves(&mut position, saved.moves.iter().map(String::as_str))
            .map_err(|e| e.to_string())?;
        let mut next = table.position();
        for mv in moves {
            next.play(mv);
            table.moves.push(mv);
            table.positions.push(next);
            if tc.is_none() {
                table.clocks.push(None);
            }
        }
        let side = |text: &Option<String>, what: &str| -> Result<Option<Color>, String> {
            text.as_deref()
                .map(|t| colour(t).ok_or_else(|| format!("{what}: {} is not a side", quote(t))))
                .transpose()
        };
        table.flagged = side(&saved.flagged, "flagged")?.map(|c| (c, "lost on time".into()));
        table.resigned = side(&saved.resigned, "resigned")?;
        let now = Instant::now();
        table.turn_started = now
            .checked_sub(Duration::from_millis(saved.turn_ms))
            .unwrap_or(now);
        if saved.paused {
            table.paused = true;
            table.paused_at = Some(now);
        }
        Ok(table)
    }

    /// Plays `moves` (a shared game's) before the game goes on, each checked; the clocks do
    /// not run for them.
    pub fn replay(&mut self, moves: &[String]) -> Result<(), String> {
        if moves.len() > MAX_MOVES {
            return Err(format!("at most {MAX_MOVES} moves, not {}", moves.len()));
        }
        let mut position = self.position();
        let played = play_moves(&mut position, moves.iter().map(|text| text.trim()))
            .map_err(|e| e.to_string())?;
        for mv in played {
            self.turn_started = Instant::now();
            self.push(mv);
        }
        self.pass_for_human();
        Ok(())
    }

    /// Starts the side to move's turn now: a new game's clock starts when it is handed to its
    /// page (after it is kept), not when it was set up.
    pub fn start_turn(&mut self) {
        if self.paused_at.is_none() {
            self.turn_started = Instant::now();
        }
    }

    /// The position the engine should analyse now, if this is an analysis running on a game
    /// not over.
    pub fn to_analyse(&self) -> Option<(usize, Position)> {
        if !self.analysis || self.paused || self.finished_here() {
            return None;
        }
        let ply = self.focused();
        let position = self.positions[ply];
        (!position.game_over()).then_some((ply, position))
    }

    /// Analysis: the search of the position after `moves` moves has ended (proved, or it
    /// thought its longest). That position is not searched again until Go
    /// ([`Table::resume`]), and shows as paused; another position shown is searched.
    pub fn analysed(&mut self, moves: usize) {
        if self.analysis && moves <= self.moves.len() && !self.finished.contains(&moves) {
            self.finished.push(moves);
        }
    }

    /// The moves of the position an analysis follows.
    fn focused(&self) -> usize {
        self.focus.unwrap_or(self.moves.len())
    }

    /// Whether an analysis has finished with the position it follows.
    fn finished_here(&self) -> bool {
        self.finished.contains(&self.focused())
    }

    /// Analysis: the engine thinks on the position after `moves` moves, as the page steps back
    /// through them (none: the last position, as it changes).
    pub fn focus(&mut self, moves: Option<usize>) -> Result<(), String> {
        if !self.analysis {
            return Err("only an analysis follows the position shown".to_string());
        }
        if let Some(k) = moves.filter(|&k| k > self.moves.len()) {
            return Err(format!("the game has {} moves, not {k}", self.moves.len()));
        }
        self.focus = moves.filter(|&k| k < self.moves.len());
        Ok(())
    }

    /// Stops the searches: a watched game waits, an analysis stops thinking.
    pub fn pause(&mut self) -> Result<(), String> {
        if self.has_human() && !self.analysis {
            return Err("only a watched game or an analysis pauses".to_string());
        }
        if !self.paused {
            self.paused = true;
            self.paused_at = Some(Instant::now());
        }
        Ok(())
    }

    /// Lets a paused game or analysis go on.
    pub fn resume(&mut self) -> Result<(), String> {
        if !self.paused && !self.finished_here() {
            return Err("nothing is paused".to_string());
        }
        // An analysis searches the position it follows again, finished with or not.
        let here = self.focused();
        self.finished.retain(|&k| k != here);
        if !self.paused {
            return Ok(());
        }
        self.paused = false;
        // The turn goes on with the time it had used before the pause.
        let used = self.turn_elapsed();
        self.paused_at = None;
        self.turn_started = Instant::now()
            .checked_sub(used)
            .unwrap_or_else(Instant::now);
        Ok(())
    }

    /// The person resigns: their side, or the side to move when they play both.
    pub fn resign(&mut self) -> Result<(), String> {
        if self.over() {
            return Err("the game is over".to_string());
        }
        if self.analysis {
            return Err("there is nothing to resign in an analysis".to_string());
        }
        let to_move = self.position().side_to_move();
        let side = match &self.sides {
            [Side::Human, Side::Human] => to_move,
            [Side::Human, Side::Machine(_)] => Color::Black,
            [Side::Machine(_), Side::Human] => Color::White,
            [Side::Machine(_), Side::Machine(_)] => {
                return Err("nobody to resign for: this game is only watched".to_string());
            }
        };
        self.resign_side(side)
    }

    /// `side` resigns (a game between two people in two browsers says whose side).
    pub fn resign_side(&mut self, side: Color) -> Result<(), String> {
        if self.over() {
            return Err("the game is over".to_string());
        }
        self.resigned = Some(side);
        Ok(())
    }

    /// Whether the game is over: played out, or lost on time.
    pub fn over(&self) -> bool {
        self.flagged.is_some() || self.resigned.is_some() || self.position().game_over()
    }

    /// The clocks now (as they stood when the side to move's turn began).
    fn clocks(&self) -> Option<GameClocks> {
        *self
            .clocks
            .last()
            .expect("a game has a clock entry per position")
    }

    /// The time the side to move has used of its turn (a pause stops it).
    fn turn_elapsed(&self) -> Duration {
        match self.paused_at {
            Some(at) => at.saturating_duration_since(self.turn_started),
            None => self.turn_started.elapsed(),
        }
    }

    /// When the side to move runs out of time, if the game has a clock, is not over and is not
    /// paused (a paused clock stands still).
    pub fn deadline(&self) -> Option<Instant> {
        if self.over() || self.paused {
            return None;
        }
        let clocks = self.clocks()?;
        let side = self.position().side_to_move();
        Some(self.turn_started + clocks.left()[side.index()])
    }

    /// The side to move loses on time if its clock has run out by now; whether it has.
    pub fn check_flag(&mut self) -> bool {
        if self.deadline().is_some_and(|d| Instant::now() >= d) {
            let side = self.position().side_to_move();
            let mut clocks = self.clocks().expect("a deadline comes from a clock");
            if let Err(flag) = clocks.charge(side, self.turn_elapsed()) {
                *self.clocks.last_mut().expect("a clock entry") = Some(clocks);
                self.flagged = Some((side, flag.to_string()));
            }
        }
        self.flagged.is_some()
    }

    /// The limits of the machine to move: its spec's, and on a clock its share of the time
    /// left (measured from the start of its turn), never more than [`MAX_MOVE_TIME`].
    pub fn machine_limits(&self, spec: &Spec) -> Limits {
        let limits = spec.limits();
        let Some(clocks) = self.clocks() else {
            return limits;
        };
        let position = self.position();
        let mut clock = clocks.view(position.side_to_move());
        clock.left = clock.left.saturating_sub(self.turn_elapsed());
        let mut limits = limits.on_clock(clock, &position, spec.explicit_time(), spec.pace());
        // A long clock gives a long share; no machine move a page starts passes the cap.
        limits.time = limits.time.map(|time| time.min(MAX_MOVE_TIME));
        limits
    }

    /// The memory its machine players may hold, MiB ([`Spec::memory_mb`]).
    pub fn memory_mb(&self) -> u64 {
        self.sides
            .iter()
            .map(|side| match side {
                Side::Human => 0,
                Side::Machine(spec) => spec.memory_mb(),
            })
            .sum()
    }

    /// Whether this is an analysis board.
    pub fn is_analysis(&self) -> bool {
        self.analysis
    }

    /// Whether a person plays a side (a game that is not only watched).
    pub fn has_human(&self) -> bool {
        self.sides.iter().any(|side| matches!(side, Side::Human))
    }

    /// The moves played so far.
    pub fn moves(&self) -> usize {
        self.moves.len()
    }

    /// The position it started from and the moves played since.
    pub fn played(&self) -> (Position, &[Move]) {
        (self.start, &self.moves)
    }

    /// The position now.
    pub fn position(&self) -> Position {
        *self.positions.last().expect("a game has a position")
    }

    /// The spec of the machine to move, if a machine is to move in a game not over.
    pub fn machine_to_move(&self) -> Option<&Spec> {
        let position = self.position();
        if self.over() || self.paused {
            return None;
        }
        match &self.sides[position.side_to_move().index()] {
            Side::Machine(spec) => Some(spec),
            Side::Human => None,
        }
    }

    /// Plays `mv`, taking its time off the mover's clock; a move made after the clock ran
    /// out is not played: the mover has lost on time.
    fn push(&mut self, mv: Move) {
        let position = self.position();
        let mut clocks = self.clocks();
        if let Some(clocks) = clocks.as_mut()
            && let Err(flag) = clocks.charge(position.side_to_move(), self.turn_elapsed())
        {
            *self.clocks.last_mut().expect("a clock entry") = Some(*clocks);
            self.flagged = Some((position.side_to_move(), flag.to_string()));
            return;
        }
        let mut next = position;
        next.play(mv);
        self.moves.push(mv);
        self.positions.push(next);
        self.clocks.push(clocks);
        self.turn_started = Instant::now();
        // A move is played on the last position, which the page then shows.
        self.focus = None;
    }

    /// A human with no move passes at once, as in `yolah play`.
    fn pass_for_human(&mut self) {
        loop {
            let position = self.position();
            let human = matches!(self.sides[position.side_to_move().index()], Side::Human);
            if self.over() || !human || position.moves().as_slice() != [Move::PASS] {
                return;
            }
            self.push(Move::PASS);
        }
    }

    /// The human's move, checked: it must be a human's turn and the move legal.
    pub fn human_move(&mut self, text: &str) -> Result<(), String> {
        let mut position = self.position();
        if self.over() {
            return Err("the game is over".to_string());
        }
        if self.check_flag() {
            // Too late: the mover has lost on time, as the state it is sent says.
            return Ok(());
        }
        if self.machine_to_move().is_some() {
            return Err("it is the machine's turn".to_string());
        }
        let mv = play_move(&mut position, text.trim()).map_err(|e| e.to_string())?;
        self.push(mv);
        self.pass_for_human();
        Ok(())
    }

    /// The machine's move (legal: it comes from our players).
    pub fn machine_move(&mut self, mv: Move) {
        debug_assert_eq!(self.position().check_move(mv), Ok(()));
        self.push(mv);
        self.pass_for_human();
    }

    /// Takes moves back: to the person's previous turn (the last earlier position where they
    /// were to move and had a choice); in a watched game, one move, and the game pauses.
    pub fn undo(&mut self) -> Result<(), String> {
        let current = self.positions.len() - 1;
        let earlier = if self.has_human() {
            self.positions[..current].iter().rposition(|p| {
                matches!(self.sides[p.side_to_move().index()], Side::Human)
                    && p.moves().as_slice() != [Move::PASS]
            })
        } else {
            current.checked_sub(1)
        };
        let Some(k) = earlier else {
            return Err("nothing to undo".to_string());
        };
        self.truncate(k);
        Ok(())
    }

    /// Takes back `side`'s last move and whatever was played after it (a takeback between two
    /// people, as on lichess: the asker's own move, and the reply if there is one): back to
    /// the last earlier position where `side` was to move with a choice.
    pub fn undo_side(&mut self, side: Color) -> Result<(), String> {
        let current = self.positions.len() - 1;
        let Some(k) = self.positions[..current]
            .iter()
            .rposition(|p| p.side_to_move() == side && p.moves().as_slice() != [Move::PASS])
        else {
            return Err(format!("{side} has no move to take back"));
        };
        self.truncate(k);
        Ok(())
    }

    /// Takes moves back until `moves` are left ("take back to here"): a position where the
    /// person is to move, or any in a watched game (which pauses).
    pub fn undo_to(&mut self, moves: usize) -> Result<(), String> {
        if moves >= self.positions.len() - 1 {
            return Err(format!(
                "cannot take back to move {moves}: the game has {} moves",
                self.moves.len()
            ));
        }
        let side = self.positions[moves].side_to_move();
        if self.has_human() && !matches!(self.sides[side.index()], Side::Human) {
            return Err(format!(
                "cannot take back to move {moves}: it is the machine's turn there"
            ));
        }
        self.truncate(moves);
        self.pass_for_human();
        Ok(())
    }

    /// Keeps the first `moves` moves; a watched game pauses there.
    fn truncate(&mut self, moves: usize) {
        self.positions.truncate(moves + 1);
        self.clocks.truncate(moves + 1);
        self.moves.truncate(moves);
        self.focus = self.focus.filter(|&k| k < moves);
        self.finished.retain(|&k| k <= moves);
        self.flagged = None;
        self.resigned = None;
        self.turn_started = Instant::now();
        if !self.paused && !self.has_human() {
            self.paused = true;
            self.paused_at = Some(self.turn_started);
        }
    }

    /// The result once the game is over, as the page shows it: `white wins 31-28`,
    /// `black wins on time`, `white wins by resignation`, `draw 30-30`.
    fn result(&self) -> Option<String> {
        let position = self.position();
        match (&self.flagged, self.resigned) {
            (Some((side, _)), _) => Some(format!("{} {WINS_ON_TIME}", side.opponent())),
            (None, Some(side)) => Some(format!("{} {WINS_BY_RESIGNATION}", side.opponent())),
            (None, None) => position.outcome().map(|outcome| {
                let who = match outcome {
                    Outcome::Win(Color::Black) => "black wins",
                    Outcome::Win(Color::White) => "white wins",
                    Outcome::Draw => "draw",
                };
                let (black, white) = (position.score(Color::Black), position.score(Color::White));
                format!("{who} {black}-{white}")
            }),
        }
    }

    /// The game as the page draws it.
    pub fn state(&self, thinking: bool) -> State {
        let position = self.position();
        let scores = [position.score(Color::Black), position.score(Color::White)];
        let result = self.result();
        let clocks = self.clocks().map(|clocks| {
            let ms = |d: Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
            let [black, white] = clocks.left();
            Clocks {
                control: clocks.controls()[0].to_string(),
                black_ms: ms(black),
                white_ms: ms(white),
                running: (!self.over() && !self.paused)
                    .then(|| position.side_to_move().to_string()),
                since_ms: ms(self.turn_elapsed()),
            }
        });
        let legal = if self.over() {
            Vec::new()
        } else {
            position.moves().iter().map(ToString::to_string).collect()
        };
        State {
            position: position.to_string(),
            start: self.start.to_string(),
            moves: self.moves.iter().map(ToString::to_string).collect(),
            legal,
            players: [self.sides[0].name(), self.sides[1].name()],
            scores,
            side: position.side_to_move().to_string(),
            thinking,
            result,
            clocks,
            analysis: self.analysis,
            // An analysis finished with the position shown waits for Go, as if paused.
            paused: self.paused || self.finished_here(),
        }
    }
}

#[cfg(test)]
mod tests;
