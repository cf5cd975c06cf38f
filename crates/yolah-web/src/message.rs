//! The messages of the page's WebSocket, as JSON objects with a `type`.

use serde::{Deserialize, Serialize};

/// The most moves a new game may bring (a game has at most 120 and some passes).
pub const MAX_MOVES: usize = 256;

/// From the page. Fields a message does not have are refused.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum ClientMessage {
    /// A new game.
    New(NewGame),
    /// The human's move.
    Play(PlayMove),
    /// Back to the person's previous turn, or to a given move (a machine's search is
    /// stopped).
    Undo(Undo),
    /// The person resigns the game.
    Resign(Nothing),
    /// In a game between two browsers: the other side's request to take the last move back
    /// is declined.
    Decline(Nothing),
    /// A watched game waits, an analysis stops thinking.
    Pause(Nothing),
    /// A paused game or analysis goes on.
    Resume(Nothing),
    /// An analysis: the engine thinks on the position the page shows.
    Focus(Focus),
    /// A game against a person in another browser: this page takes a side and gets a link to
    /// send.
    Host(HostGame),
    /// Joins a hosted game: the side `token` holds (after a reconnect), a free side with the
    /// link's join secret `key`, or else a spectator's seat.
    Join(JoinRoom),
    /// Opens a kept game: with its token, to play on where it stood (after a reload, a
    /// dropped connection or a restart); without, to look at it (the archive).
    Open(OpenGame),
}

/// The position an analysis page shows.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Focus {
    /// Its moves from the start; absent or null: the last position.
    #[serde(default)]
    pub ply: Option<usize>,
}

/// A kept game to open.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct OpenGame {
    /// The game's id.
    pub game: String,
    /// The token this browser was given for it, if any.
    #[serde(default)]
    pub token: Option<String>,
}

/// A game to share.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct HostGame {
    /// The host's side: `black`, `white` or `random`.
    pub colour: String,
    /// The position to start from; the start if absent or empty.
    #[serde(default)]
    pub position: Option<String>,
    /// A time control like `5min+3s`, `none`, or absent for the server's.
    #[serde(default)]
    pub tc: Option<String>,
}

/// Joining a hosted game.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct JoinRoom {
    /// The game's id (from its link).
    pub room: String,
    /// The join secret (from its invitation link): without it, or a side's token, one only
    /// watches.
    #[serde(default)]
    pub key: Option<String>,
    /// The secret of a side this browser held before (kept by the page).
    #[serde(default)]
    pub token: Option<String>,
}

/// Taking moves back.
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Undo {
    /// The moves to keep ("take back to here"); absent: back to the person's previous turn.
    #[serde(default)]
    pub to: Option<usize>,
}

/// A new game: each side `human` or a player spec; from `position` (notation) or the start.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// Black: `human` or a spec.
    pub black: String,
    /// White: `human` or a spec.
    pub white: String,
    /// The position to start from; the start if absent or empty.
    #[serde(default)]
    pub position: Option<String>,
    /// A time control, `BASE+INC` like `5min+3s`; `none` for no clock; absent: the server's
    /// (`yolah serve --tc`, none by default).
    #[serde(default)]
    pub tc: Option<String>,
    /// Moves played from `position` before the game goes on (a shared game), at most
    /// [`MAX_MOVES`].
    #[serde(default)]
    pub moves: Vec<String>,
    /// An analysis board instead of a game: the person moves both sides and the engine
    /// thinks on the position shown (`black` and `white` are then ignored).
    #[serde(default)]
    pub analysis: bool,
}

/// The human's move, like `e4:g2`.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct PlayMove {
    /// The move.
    #[serde(rename = "move")]
    pub mv: String,
}

/// A message with no fields.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Nothing {}

/// To the page.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum ServerMessage {
    /// The game as it stands.
    State(Box<State>),
    /// What a machine has found so far, while it thinks, and of the move it played.
    Report(Box<ReportMessage>),
    /// This page's place in a hosted game, and who is there.
    Room(RoomMessage),
    /// The game this page shows is kept by the server under this id.
    Game(GameMessage),
    /// A message the server could not use, and why; nothing changed.
    Error {
        /// Why.
        message: String,
    },
}

/// A page's place in a game between two browsers.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct RoomMessage {
    /// The game's id: `/?join=<id>` watches it.
    pub id: String,
    /// The join secret, told to those who sit: the invitation link is
    /// `/?join=<id>&key=<key>`, and gives a free side.
    pub key: Option<String>,
    /// `black`, `white`, or `spectator`.
    pub seat: String,
    /// The secret that gives this side back after a reconnect (none for a spectator).
    pub token: Option<String>,
    /// Whether black's and white's players are connected.
    pub present: [bool; 2],
    /// How many watch.
    pub spectators: usize,
    /// The side that asked to take the last move back, until the other agrees or a move is
    /// played.
    pub takeback: Option<String>,
}

/// A kept game, as its page holds it.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct GameMessage {
    /// The game's id: `/?game=ID` opens it.
    pub id: String,
    /// The secret that gives the game back to this page (after a reload, a dropped
    /// connection, a restart of the server); none for a game only shown (from the archive).
    pub token: Option<String>,
}

/// What a machine has found, in words and in numbers (the numbers for the side to move).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ReportMessage {
    /// `black` or `white`: the side it searched for.
    pub side: String,
    /// The number of moves of the game before the position searched.
    pub ply: usize,
    /// The report in words: move, value, depth or iterations, principal variation.
    pub text: String,
    /// The move it chose or would choose.
    #[serde(rename = "move")]
    pub mv: String,
    /// Its expected score for `side`, 0 (loss) to 1 (win), if it has one.
    pub value: Option<f64>,
    /// The final margin it expects for `side`, in points (minimax).
    pub points: Option<f64>,
    /// Whether `points` is proved (searched to the end of the game).
    pub proved: bool,
    /// Depth of its last finished iteration (minimax).
    pub depth: Option<u32>,
    /// The principal variation, from the move.
    pub pv: Vec<String>,
    /// An analysis's best lines, best first (the first is `pv`), each with its value; empty
    /// in a game.
    pub lines: Vec<LineMessage>,
    /// Whether this is its last word on the position (the search has ended).
    pub done: bool,
    /// How long it has thought, ms.
    pub time_ms: f64,
    /// Positions searched (minimax), if it counts them.
    pub nodes: Option<u64>,
    /// Iterations or playouts (the tree searches), else 0.
    pub iterations: u64,
}

/// One of an analysis's best lines (multi-PV), its numbers for the side searched.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct LineMessage {
    /// The moves, from a move of the position searched.
    pub pv: Vec<String>,
    /// The final margin it leads to, in points.
    pub points: f64,
    /// Whether `points` is proved.
    pub proved: bool,
    /// The expected score, 0 (loss) to 1 (win).
    pub value: f64,
}

/// The game as the page draws it.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct State {
    /// The position in notation (the board, side, scores and ply).
    pub position: String,
    /// The position the game started from.
    pub start: String,
    /// The moves since `start`.
    pub moves: Vec<String>,
    /// The legal moves now (empty when the game is over; `a1:a1` alone for a forced pass).
    pub legal: Vec<String>,
    /// Black's and White's players (`human` or a spec).
    pub players: [String; 2],
    /// Black's and White's points.
    pub scores: [u8; 2],
    /// `black` or `white`.
    pub side: String,
    /// Whether a machine is thinking.
    pub thinking: bool,
    /// The result once the game is over, like `white wins 31-28` or `black wins on time`.
    pub result: Option<String>,
    /// The clocks, in a game with a time control.
    pub clocks: Option<Clocks>,
    /// Whether this is an analysis board.
    pub analysis: bool,
    /// Whether the game or analysis is paused.
    pub paused: bool,
}

/// Both clocks as they stood when the side to move's turn began.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Clocks {
    /// The time control, like `5min+3s`.
    pub control: String,
    /// Black's time left, ms.
    pub black_ms: u64,
    /// White's time left, ms.
    pub white_ms: u64,
    /// The side whose clock runs (`black` or `white`); none once the game is over.
    pub running: Option<String>,
    /// How long it has been running, ms.
    pub since_ms: u64,
}
