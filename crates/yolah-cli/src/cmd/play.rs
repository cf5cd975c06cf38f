//! `yolah play`: a game in the terminal, human or machine on each side. Input is read line by
//! line, so it can come from a pipe as well as a keyboard.

use super::PositionArg;
use super::quote;
use anyhow::{Context, Result};
use std::io::{BufRead, IsTerminal, Write};
use std::time::Instant;
use yolah_ai::catalogue::DEFAULT_PLAYER;
use yolah_ai::clock::GameClocks;
use yolah_ai::{Agent, Spec};
use yolah_core::{Color, Diagram, Move, Outcome, Position};

/// The options of `yolah play`, as its command line gives them.
#[derive(clap::Args)]
pub struct Options {
    /// Black: `human` or a player spec.
    #[arg(long, value_name = "SPEC", default_value = "human")]
    pub black: String,
    /// White: `human` or a player spec.
    #[arg(long, value_name = "SPEC", default_value = DEFAULT_PLAYER)]
    pub white: String,
    #[command(flatten)]
    pub position: PositionArg,
    /// Seed of machine players without a seed [default: 1].
    #[arg(long, short, value_name = "SEED")]
    pub seed: Option<u64>,
    /// A game clock for each side, BASE+INC like 5min+3s: it runs while the side thinks
    /// (you too), and a side whose clock runs out loses on time.
    #[arg(long, value_name = "BASE+INC")]
    pub tc: Option<String>,
}

// The first line starts on the quote's line: a `\` continuation would eat its indent.
const HELP: &str = "  e4:g2   move the piece on e4 to g2 (a1:a1 passes, only when you have no move)
  moves   list your legal moves
  undo    take back your last move (and the machine's reply)
  help    this text
  quit    leave the game";

/// Who moves for one side.
enum Side {
    Human,
    Machine(Box<Agent>),
}

impl Side {
    fn parse(text: &str, seed: u64) -> Result<Side> {
        if text == "human" {
            return Ok(Side::Human);
        }
        let spec: Spec = super::parse_spec(text).context("a side is human or a player spec")?;
        Ok(Side::Machine(Box::new(spec.agent(seed))))
    }
}

/// What a human's line asks for.
enum Action {
    Play(Move),
    Undo,
    Quit,
    /// A machine forfeited (said already): the game is over.
    Forfeited,
}

pub fn run(out: &mut impl Write, options: &Options) -> Result<()> {
    let (black, white, tc) = (&options.black, &options.white, options.tc.as_deref());
    let seed = options.seed.unwrap_or(super::DEFAULT_SEED);
    let clocks = super::time_control(tc)?.map(GameClocks::even);
    let mut sides = [
        Side::parse(black, seed)?,
        Side::parse(white, seed.wrapping_add(1))?,
    ];
    // Each position with the clocks as they stood there (undo takes both back).
    let mut history = vec![(options.position.get()?, clocks)];
    let mut input = std::io::stdin().lock();
    if sides.iter().any(|s| matches!(s, Side::Human)) {
        writeln!(out, "Type a move like e4:g2, or help.")?;
    }
    loop {
        let (position, clocks) = *history.last().expect("the history starts with a position");
        if let Some(outcome) = position.outcome() {
            return print_end(out, &position, outcome);
        }
        let color = position.side_to_move();
        if let Some(clocks) = clocks {
            writeln!(out, "{}", clock_line(&clocks))?;
        }
        let started = Instant::now();
        let action = match &mut sides[color.index()] {
            Side::Machine(agent) => {
                machine_move(out, agent, &position, clocks.map(|c| c.view(color)))?
            }
            Side::Human if position.moves()[0].is_pass() => {
                writeln!(out, "{color} has no move and passes")?;
                Action::Play(Move::PASS)
            }
            Side::Human => {
                writeln!(out, "{}", Diagram::with_targets(&position))?;
                let Some(action) = ask(out, &mut input, &position)? else {
                    writeln!(out, "\nend of input: the game is left unfinished")?;
                    return Ok(());
                };
                action
            }
        };
        match action {
            Action::Play(m) => {
                let mut clocks = clocks;
                if let Some(clocks) = clocks.as_mut()
                    && let Err(flag) = clocks.charge(color, started.elapsed())
                {
                    writeln!(
                        out,
                        "{color} {flag}\ngame over: {} wins on time",
                        color.opponent()
                    )?;
                    return Ok(());
                }
                let mut next = position;
                next.play(m);
                history.push((next, clocks));
            }
            Action::Undo => {
                // Back to the human's previous turn: the last earlier position where a human
                // was to move.
                let earlier = history[..history.len() - 1].iter().rposition(|(p, _)| {
                    matches!(sides[p.side_to_move().index()], Side::Human)
                        && !p.moves()[0].is_pass()
                });
                match earlier {
                    Some(k) => {
                        history.truncate(k + 1);
                        writeln!(out, "taken back")?;
                    }
                    None => writeln!(out, "nothing to undo")?,
                }
            }
            Action::Quit => {
                writeln!(out, "bye")?;
                return Ok(());
            }
            Action::Forfeited => return Ok(()),
        }
    }
}

/// The final board, the result and the position.
fn print_end(out: &mut impl Write, position: &Position, outcome: Outcome) -> Result<()> {
    writeln!(out, "{}", Diagram::new(position))?;
    let result = match outcome {
        Outcome::Win(color) => format!("{color} wins"),
        Outcome::Draw => "draw".to_string(),
    };
    writeln!(
        out,
        "game over: {result}, black {} white {}",
        position.score(Color::Black),
        position.score(Color::White)
    )?;
    writeln!(out, "{position}")?;
    Ok(())
}

/// The machine's move, said with its report; or its forfeit, said (an error if its program
/// never ran).
fn machine_move(
    out: &mut impl Write,
    agent: &mut Agent,
    position: &Position,
    clock: Option<yolah_ai::Clock>,
) -> Result<Action> {
    let color = position.side_to_move();
    match agent.try_choose_on(position, clock) {
        Ok(report) => {
            writeln!(out, "{color} ({}) plays {report}", agent.spec())?;
            Ok(Action::Play(report.mv))
        }
        Err(forfeit) => {
            writeln!(
                out,
                "{color} ({}) forfeits: {forfeit}\ngame over: {} wins by forfeit",
                agent.spec(),
                color.opponent()
            )?;
            anyhow::ensure!(
                !forfeit
                    .reason
                    .starts_with(yolah_ai::players::engine::CANNOT_START),
                "{} never ran: {forfeit}",
                agent.spec()
            );
            eprintln!("warning: {} forfeits: {forfeit}", agent.spec());
            Ok(Action::Forfeited)
        }
    }
}

/// Both clocks, `clock: black 0:58.3, white 1:00.0`.
fn clock_line(clocks: &GameClocks) -> String {
    let text = |d: std::time::Duration| {
        let tenths = d.as_millis() / 100;
        format!("{}:{:02}.{}", tenths / 600, tenths / 10 % 60, tenths % 10)
    };
    let [black, white] = clocks.left();
    format!("clock: black {}, white {}", text(black), text(white))
}

/// Prompts until the human gives a legal move or a command that changes the game; `None` at
/// the end of input.
fn ask(
    out: &mut impl Write,
    input: &mut impl BufRead,
    position: &Position,
) -> Result<Option<Action>> {
    let color = position.side_to_move();
    loop {
        write!(out, "{color} to move> ")?;
        out.flush()?;
        let mut bytes = Vec::new();
        if input
            .read_until(b'\n', &mut bytes)
            .context("reading your move")?
            == 0
        {
            return Ok(None);
        }
        let Ok(line) = std::str::from_utf8(&bytes) else {
            writeln!(out, "that line is not text (invalid UTF-8); type help")?;
            continue;
        };
        let text = line.trim();
        if !std::io::stdin().is_terminal() {
            // Piped input is not echoed by a terminal: echo it so the transcript reads well
            // (at most 40 characters of it, as everywhere a typed text is shown back).
            writeln!(out, "{}", yolah_core::text::clip(text))?;
        }
        match text {
            "" => {}
            "help" => writeln!(out, "{HELP}")?,
            "moves" => writeln!(out, "{}", super::sorted_moves(position))?,
            "undo" => return Ok(Some(Action::Undo)),
            "quit" | "exit" => return Ok(Some(Action::Quit)),
            _ => match text.parse::<Move>() {
                Err(error) => writeln!(
                    out,
                    "{} is neither a move nor a command ({error}); type help",
                    quote(text)
                )?,
                Ok(m) => match position.check_move(m) {
                    Ok(()) => return Ok(Some(Action::Play(m))),
                    Err(reason) => writeln!(out, "{m} is illegal: {reason}")?,
                },
            },
        }
    }
}
