//! One WebSocket, one game: the connection's loop, its game, its searches and its room.

use super::shared::{
    AddressSlot, CLOSE_IDLE, CLOSE_TRY_LATER, Counted, MAX_ANALYSIS_TIME, MAX_HOSTED, MAX_MESSAGE,
    RETRY_AFTER, Reservation, Shared, blocking, total,
};
use super::socket::{
    SEND_TIMEOUT, analysis_spec, close, next_update, raised, report_message, send,
};
use crate::game::Table;
use crate::message::{
    ClientMessage, Focus, GameMessage, HostGame, JoinRoom, NewGame, OpenGame, PlayMove,
    ServerMessage, Undo,
};
use crate::room::{Room, Seat};
use crate::slots::share;
use crate::store::{FORGET_EMPTY_AFTER, Kept, Kind, Pin, Playing, Written, secret};
use axum::extract::ws::{Message, WebSocket};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;
use tokio::sync::{broadcast, mpsc};
use tokio::time::Instant;
use yolah_ai::limits::StopFlag;
use yolah_ai::{Player, Report};
use yolah_core::Color;

/// What a search thread tells its connection.
pub(super) enum Event {
    Progress {
        generation: u64,
        side: Color,
        ply: usize,
        report: Report,
    },
    Done {
        generation: u64,
        side: Color,
        ply: usize,
        report: Report,
        player: Box<dyn Player>,
        stop: StopFlag,
        /// An analysis that gave its slot to another search: it goes on when its turn comes.
        preempted: bool,
    },
    /// A search abandoned before it had a slot: its flag, for the next.
    Dropped { stop: StopFlag },
}

/// One connection's game.
pub(super) struct Connection {
    shared: Arc<Shared>,
    events: mpsc::UnboundedSender<Event>,
    table: Option<Table>,
    /// The memory the table's players may hold, reserved from the server's budget.
    reservation: Option<Reservation>,
    /// Each side's player, kept between its moves (MCTS reuses its tree); `None` while it
    /// searches.
    players: [Option<Box<dyn Player>>; 2],
    /// The running search's number; a result of another number is stale.
    generation: u64,
    /// The running search's stop flag.
    running: Option<StopFlag>,
    /// Stop flags of finished searches, for the next ones.
    flags: Vec<StopFlag>,
    /// Whether the running search is an analysis (its move is not played).
    analysing: bool,
    /// The game between two browsers this connection is in, instead of a game of its own.
    member: Option<Member>,
    /// The rooms this connection has hosted (at most [`MAX_HOSTED`] still open).
    hosted: Vec<std::sync::Weak<Room>>,
    /// How the store keeps the table's game (none for an analysis).
    kept: Option<KeptGame>,
    /// Messages for the page besides the state (the kept game's id and token).
    outbox: Vec<ServerMessage>,
    /// Whether the table changed since the store last wrote it (a new or opened game is
    /// written as it is kept or taken).
    unsaved: bool,
    /// When the machine searches again after a move the store could not keep.
    retry_at: Option<std::time::Instant>,
    /// The client's address: what it may keep is bounded by address.
    peer: Option<std::net::IpAddr>,
    /// The position the analysis thinks on (its ply), and the time it has spent on it.
    analysed: Option<(usize, yolah_core::Position, Duration)>,
}

/// A connection's game as the store keeps it.
pub(super) struct KeptGame {
    id: String,
    /// The token that gives it back; none for a game only shown (from the archive): it is
    /// not played here and not written.
    token: Option<String>,
    /// This connection's mark on the row: a page that opens the game elsewhere takes it.
    holder: String,
    /// Keeps the game from being forgotten while this page has it open.
    _pin: Pin,
    /// The archive's "playing" while this page plays it (none for a game only shown).
    _playing: Option<Playing>,
}

/// A connection's place in a room.
pub(super) struct Member {
    room: Arc<Room>,
    seat: Seat,
    token: Option<String>,
    /// The room's news, until the connection's loop takes it.
    updates: Option<broadcast::Receiver<ServerMessage>>,
}

impl Member {
    /// A room message as this member sees it (its own seat and token).
    pub(super) fn own(&self, message: ServerMessage) -> ServerMessage {
        match message {
            ServerMessage::Room(mut room) => {
                room.seat = match self.seat {
                    Seat::Side(side) => side.to_string(),
                    Seat::Spectator => "spectator".to_string(),
                };
                room.token.clone_from(&self.token);
                room.key = matches!(self.seat, Seat::Side(_)).then(|| self.room.key().to_string());
                ServerMessage::Room(room)
            }
            other => other,
        }
    }
}

impl Connection {
    pub(super) fn new(shared: Arc<Shared>, events: mpsc::UnboundedSender<Event>) -> Connection {
        Connection {
            shared,
            events,
            table: None,
            reservation: None,
            players: [None, None],
            generation: 0,
            running: None,
            flags: Vec::new(),
            analysing: false,
            member: None,
            hosted: Vec::new(),
            kept: None,
            outbox: Vec::new(),
            unsaved: false,
            retry_at: None,
            peer: None,
            analysed: None,
        }
    }

    /// Whether this connection plays a game that is not over: a seat in a room, or its own
    /// game with a person's side. As on lichess, it is given no analysis, evaluation or engine
    /// line of it until it ends.
    pub(super) fn playing_live(&self) -> bool {
        match &self.member {
            Some(member) => member.seat != Seat::Spectator && !member.room.over(),
            None => {
                !self.shown_only()
                    && self
                        .table
                        .as_ref()
                        .is_some_and(|t| t.has_human() && !t.is_analysis() && !t.over())
            }
        }
    }

    /// Refuses an analysis to a connection that plays a game not over (see
    /// [`Connection::playing_live`]); a seat in a room is checked before the message takes
    /// the connection out of it.
    pub(super) fn may_analyse(&self, message: &ClientMessage) -> Result<(), String> {
        if matches!(message, ClientMessage::New(NewGame { analysis: true, .. }))
            && self.playing_live()
        {
            return Err(
                "no analysis while you play a game, as on lichess: Analyse opens when \
                        it ends (resign or start a new game to leave it)"
                    .to_string(),
            );
        }
        Ok(())
    }

    /// How long this connection may idle: the server's idle timeout, or its empty timeout
    /// ([`Config::empty_timeout`]) if less while it holds no game with a move (a person's first
    /// move, or the friend a room waits for, is a reason to wait; an empty socket is not).
    pub(super) fn idle_timeout(&self) -> Duration {
        let idle = self.shared.config.idle_timeout;
        if self.empty() {
            idle.min(self.shared.config.empty_timeout)
        } else {
            idle
        }
    }

    /// Whether this connection holds no game with a move: no game, or a new one (not an
    /// analysis, not a friends' game) in which nobody has moved.
    pub(super) fn empty(&self) -> bool {
        self.member.is_none()
            && self
                .table
                .as_ref()
                .is_none_or(|t| t.moves() == 0 && !t.is_analysis())
    }

    /// Whether the game shown is only shown (opened from the archive without its token).
    pub(super) fn shown_only(&self) -> bool {
        self.kept.as_ref().is_some_and(|kept| kept.token.is_none())
    }

    pub(super) fn state(&self) -> Option<ServerMessage> {
        let shown_only = self.shown_only();
        self.table.as_ref().map(|t| {
            let mut state = t.state(self.running.is_some());
            if shown_only {
                state.legal.clear();
                if let Some(clocks) = state.clocks.as_mut() {
                    clocks.running = None;
                }
            }
            ServerMessage::State(Box::new(state))
        })
    }

    /// When the side to move of this connection's own game runs out of time.
    pub(super) fn deadline(&self) -> Option<std::time::Instant> {
        match &self.member {
            Some(member) => member.room.deadline(),
            None if self.shown_only() => None,
            None => self.table.as_ref().and_then(Table::deadline),
        }
    }

    /// Writes the game as it stands to the store (an analysis or a game only shown is not
    /// written); the messages if another page has taken the game; an error if the store
    /// could not keep it.
    pub(super) fn persist(&mut self) -> Result<Vec<ServerMessage>, String> {
        let (Some(kept), Some(table)) = (&self.kept, &self.table) else {
            return Ok(Vec::new());
        };
        if kept.token.is_none() || !std::mem::take(&mut self.unsaved) {
            return Ok(Vec::new());
        }
        match self
            .shared
            .store
            .save(&kept.id, Some(&kept.holder), &table.saved())
        {
            Ok(Written::Kept) => Ok(Vec::new()),
            Ok(Written::Taken) => {
                self.drop_game();
                Ok(vec![ServerMessage::Error {
                    message: "this game is open in another tab or window now; reload to take \
                              it back here"
                        .to_string(),
                }])
            }
            Err(message) => {
                self.unsaved = true;
                Err(message)
            }
        }
    }

    /// Keeps the change a message made; if the store cannot keep it, the game is put back
    /// as it was (`before`) and the change refused: nothing the page is shown as played is
    /// unkept.
    pub(super) fn keep_or_undo(
        &mut self,
        before: Option<Table>,
    ) -> Result<Vec<ServerMessage>, String> {
        self.persist().inspect_err(|_| {
            self.abandon();
            self.table = before;
            self.unsaved = false;
        })
    }

    /// A message from the page, handled and kept: the messages for the page, and whether it
    /// was taken.
    pub(super) fn receive(&mut self, text: &str) -> (Vec<ServerMessage>, bool) {
        let before = self.table.clone();
        let handled = self.handle(text);
        // The kept game's id and token first, then what came of the message.
        let mut messages = std::mem::take(&mut self.outbox);
        if let Err(message) = handled {
            messages.push(ServerMessage::Error { message });
            return (messages, false);
        }
        match self.keep_or_undo(before) {
            Ok(news) => messages.extend(news),
            // Undone: the page is shown the game as it was, and why.
            Err(message) => messages.push(ServerMessage::Error { message }),
        }
        // A machine to move searches (again, after an undone change).
        self.think();
        messages.extend(self.state());
        (messages, true)
    }

    /// Forgets this connection's game (the store keeps it as last written).
    pub(super) fn drop_game(&mut self) {
        self.abandon();
        self.players = [None, None];
        self.reservation = None;
        self.table = None;
        self.kept = None;
    }

    /// Keeps a new game of this page's own, and tells the page its id and token.
    pub(super) fn keep(&mut self, table: &Table) -> Result<(), String> {
        let token = secret(2);
        let kept = Kept {
            id: secret(1),
            kind: Kind::Own,
            tokens: [Some(token.clone()), Some(token.clone())],
            key: None,
            saved: table.saved(),
        };
        let holder = secret(1);
        let pin = self
            .shared
            .store
            .create(&kept, Some(&holder), FORGET_EMPTY_AFTER)?;
        self.outbox.push(ServerMessage::Game(GameMessage {
            id: kept.id.clone(),
            token: Some(token.clone()),
        }));
        self.kept = Some(KeptGame {
            _playing: Some(self.shared.store.play(&kept.id, Some(&holder))),
            id: kept.id,
            token: Some(token),
            holder,
            _pin: pin,
        });
        Ok(())
    }

    /// Opens the kept game `id`: a shared game as [`JoinRoom`] without its join secret (the
    /// side `token` holds, else watching); a page's own game played on with its token (read
    /// and taken from the page that held it in one step), else only shown.
    pub(super) fn open(&mut self, id: &str, token: Option<&str>) -> Result<(), String> {
        let id = id.trim();
        let holder = secret(1);
        let missing = || {
            format!(
                "no game {}: its link is wrong, or it never had a move",
                yolah_core::text::quote(id)
            )
        };
        let kept = self.shared.store.load(id)?.ok_or_else(missing)?;
        let config = &self.shared.config;
        if kept.kind == Kind::Friends {
            // Its room holds it: a side only with a side's token.
            let room = self
                .shared
                .rooms
                .find(id, config.max_games, config.idle_timeout)?;
            self.enter(room, token, None, None);
            return Ok(());
        }
        let owner = token.filter(|t| kept.tokens.iter().flatten().any(|k| k == t));
        // Checked before it is taken: a game that cannot be played here is not taken from
        // the page that has it.
        let memory = Table::restore(&kept.saved)
            .map_err(|e| format!("game {id} cannot be taken up: {e}"))?
            .memory_mb();
        self.drop_game();
        if owner.is_some() {
            self.reservation = Some(Reservation::take(&self.shared, memory, self.peer)?);
        }
        // Pinned before it is read: the forgetting of games with no move cannot take it now.
        let pin = self.shared.store.pin(id);
        let (game, owns) = self
            .shared
            .store
            .take(id, owner, &holder)?
            .ok_or_else(missing)?;
        // The game as it was taken (a write of the page before may have come since the check).
        let table = Table::restore(&game.saved)
            .map_err(|e| format!("game {id} cannot be taken up: {e}"))?;
        let token = owns.then(|| owner.map(str::to_string)).flatten();
        self.outbox.push(ServerMessage::Game(GameMessage {
            id: id.to_string(),
            token: token.clone(),
        }));
        self.kept = Some(KeptGame {
            id: id.to_string(),
            _playing: token
                .is_some()
                .then(|| self.shared.store.play(id, Some(&holder))),
            token,
            holder,
            _pin: pin,
        });
        self.table = Some(table);
        Ok(())
    }

    /// At the side to move's deadline: the messages if it has lost on time (a room tells its
    /// members itself).
    pub(super) fn flag(&mut self) -> Vec<ServerMessage> {
        if let Some(member) = &self.member {
            if member.room.check_flag() {
                member.room.publish();
            }
            return Vec::new();
        }
        let flagged = self.table.as_mut().is_some_and(Table::check_flag);
        if !flagged {
            return Vec::new();
        }
        self.abandon();
        self.unsaved = true;
        let mut messages = self
            .persist()
            .unwrap_or_else(|message| vec![ServerMessage::Error { message }]);
        messages.extend(self.state());
        messages
    }

    /// Stops and forgets the running search.
    pub(super) fn abandon(&mut self) {
        if let Some(stop) = self.running.take() {
            stop.raise();
            self.generation += 1;
        }
    }

    /// A page's time control: none asked for is the server's, `none` is none.
    pub(super) fn time_control(
        &self,
        tc: Option<&str>,
    ) -> Result<Option<yolah_ai::TimeControl>, String> {
        Ok(match tc.map(str::trim) {
            None | Some("") => self.shared.config.time_control,
            Some("none") => None,
            Some(text) => Some(text.parse().map_err(|e| format!("tc {e}"))?),
        })
    }

    /// Sits down in `room` (this connection's own game ends), and tells everyone there.
    pub(super) fn enter(
        &mut self,
        room: Arc<Room>,
        token: Option<&str>,
        key: Option<&str>,
        prefer: Option<Color>,
    ) {
        self.drop_game();
        let updates = room.subscribe();
        let (seat, token) = room.join(token, key, prefer);
        room.publish();
        self.member = Some(Member {
            room,
            seat,
            token,
            updates: Some(updates),
        });
    }

    /// Hosts a game between two browsers and sits down in it.
    pub(super) fn host(&mut self, host: HostGame) -> Result<(), String> {
        let HostGame {
            colour,
            position,
            tc,
        } = host;
        let prefer = match colour.trim() {
            "black" => Color::Black,
            "random" if rand::random::<bool>() => Color::Black,
            "white" | "random" => Color::White,
            other => {
                return Err(format!(
                    "colour {} is not black, white or random",
                    yolah_core::text::quote(other)
                ));
            }
        };
        let tc = self.time_control(tc.as_deref())?;
        let config = &self.shared.config;
        let grace = config.idle_timeout;
        self.hosted.retain(|room| {
            room.upgrade()
                .is_some_and(|room| !room.forgotten(grace) && self.shared.rooms.holds(&room))
        });
        if self.hosted.len() >= MAX_HOSTED {
            return Err(format!(
                "this page has hosted {MAX_HOSTED} shared games still open; finish or leave \
                 one first"
            ));
        }
        self.shared.creations.take(self.peer, "new games")?;
        let room = self.shared.rooms.create(
            position.as_deref(),
            tc,
            config.max_games,
            config.idle_timeout,
        )?;
        self.hosted.push(Arc::downgrade(&room));
        let key = room.key().to_string();
        self.enter(room, None, Some(&key), Some(prefer));
        Ok(())
    }

    /// Leaves the room this connection is in, if any, and tells those left.
    pub(super) fn leave_room(&mut self) {
        if let Some(member) = self.member.take() {
            member.room.leave(member.seat);
            member.room.publish();
        }
    }

    /// The table, to change: the store writes it after the message.
    pub(super) fn table_mut(&mut self) -> Result<&mut Table, String> {
        self.unsaved = true;
        self.table
            .as_mut()
            .ok_or_else(|| "no game: start one first".to_string())
    }

    /// Stops an analysis whose position has changed (a new one starts on the new position).
    pub(super) fn abandon_analysis(&mut self) {
        if self.analysing {
            self.abandon();
        }
    }

    /// A message of a game between two browsers, if this connection is in one and the
    /// message is the room's; any other message takes the connection out of its room.
    pub(super) fn handle_in_room(&mut self, message: &ClientMessage) -> Option<Result<(), String>> {
        let member = self.member.as_ref()?;
        let (room, seat) = (Arc::clone(&member.room), member.seat);
        let done = match message {
            ClientMessage::Play(PlayMove { mv }) => Some(room.play(seat, mv)),
            ClientMessage::Resign(_) => Some(room.resign(seat)),
            ClientMessage::Undo(Undo { to: None }) => Some(room.takeback(seat)),
            ClientMessage::Decline(_) => Some(room.decline(seat)),
            ClientMessage::Undo(Undo { to: Some(_) }) => Some(Err(
                "in a game between two browsers, take back one move (both must ask)".to_string(),
            )),
            ClientMessage::Pause(_) | ClientMessage::Resume(_) => {
                Some(Err("a game between people does not pause".to_string()))
            }
            _ => None,
        };
        if let Some(done) = done {
            return Some(done.map(|()| room.publish()));
        }
        self.leave_room();
        None
    }

    pub(super) fn handle(&mut self, text: &str) -> Result<(), String> {
        if text.len() > MAX_MESSAGE {
            return Err(format!("message longer than {MAX_MESSAGE} bytes"));
        }
        let message: ClientMessage =
            serde_json::from_str(text).map_err(|e| format!("bad message: {e}"))?;
        self.may_analyse(&message)?;
        if let Some(done) = self.handle_in_room(&message) {
            return done;
        }
        if self.shown_only()
            && matches!(
                message,
                ClientMessage::Play(_)
                    | ClientMessage::Undo(_)
                    | ClientMessage::Resign(_)
                    | ClientMessage::Pause(_)
                    | ClientMessage::Resume(_)
            )
        {
            return Err(
                "this game is shown from the archive, not played here: Analyse to study it"
                    .to_string(),
            );
        }
        match message {
            ClientMessage::New(NewGame {
                black,
                white,
                position,
                tc,
                moves,
                analysis,
            }) => {
                let tc = self.time_control(tc.as_deref())?;
                let mut table = if analysis {
                    Table::analysis(position.as_deref())?
                } else {
                    Table::new(&black, &white, position.as_deref(), tc)?
                };
                table.replay(&moves)?;
                if !analysis {
                    self.shared.creations.take(self.peer, "new games")?;
                }
                // The old game is kept as it stands, its clocks too (Back brings it back);
                // its players and memory go before the new game's are reserved.
                self.unsaved = true;
                let _ = self.persist();
                self.drop_game();
                let memory = if analysis {
                    analysis_spec().memory_mb()
                } else {
                    table.memory_mb()
                };
                self.reservation = Some(Reservation::take(&self.shared, memory, self.peer)?);
                if !analysis {
                    self.keep(&table)?;
                }
                table.start_turn();
                self.table = Some(table);
            }
            ClientMessage::Play(PlayMove { mv }) => {
                self.table_mut()?.human_move(&mv)?;
                self.abandon_analysis();
            }
            ClientMessage::Undo(Undo { to }) => {
                let table = self.table_mut()?;
                let mut trial = table.clone();
                match to {
                    Some(moves) => trial.undo_to(moves)?,
                    None => trial.undo()?,
                }
                *table = trial;
                self.abandon();
            }
            ClientMessage::Resign(_) => {
                self.table_mut()?.resign()?;
                self.abandon();
            }
            ClientMessage::Pause(_) => {
                self.table_mut()?.pause()?;
                self.abandon();
            }
            ClientMessage::Resume(_) => self.table_mut()?.resume()?,
            ClientMessage::Focus(Focus { ply }) => {
                self.table_mut()?.focus(ply)?;
                // The search on the position before stops; the next starts on this one.
                self.abandon_analysis();
            }
            ClientMessage::Decline(_) => {
                return Err("only a game between two browsers has takebacks to decline".into());
            }
            ClientMessage::Host(host) => self.host(host)?,
            ClientMessage::Join(JoinRoom { room, key, token }) => {
                let config = &self.shared.config;
                let room = self
                    .shared
                    .rooms
                    .find(&room, config.max_games, config.idle_timeout)?;
                self.enter(room, token.as_deref(), key.as_deref(), None);
            }
            ClientMessage::Open(OpenGame { game, token }) => self.open(&game, token.as_deref())?,
        }
        Ok(())
    }

    /// The limits of an analysis of `position` (after `ply` moves): it thinks at most
    /// [`MAX_ANALYSIS_TIME`] on a position over all its turns; none once that is spent.
    pub(super) fn analysis_limits(
        &mut self,
        ply: usize,
        position: yolah_core::Position,
    ) -> Option<yolah_ai::Limits> {
        if self
            .analysed
            .as_ref()
            .is_none_or(|(p, q, _)| (*p, *q) != (ply, position))
        {
            self.analysed = Some((ply, position, Duration::ZERO));
        }
        let spent = self.analysed.as_ref().map_or(Duration::ZERO, |a| a.2);
        let left = MAX_ANALYSIS_TIME
            .checked_sub(spent)
            .filter(|t| !t.is_zero())?;
        Some(yolah_ai::Limits {
            time: Some(left),
            ..yolah_ai::Limits::default()
        })
    }

    /// Starts the machine's search if a machine is to move and none runs.
    pub(super) fn think(&mut self) {
        if self.running.is_some() || self.shown_only() || self.retry_at.is_some() {
            return;
        }
        let Some(table) = &self.table else { return };
        let has_human = table.has_human();
        // The reports say which position they are of: an analysis's may be an earlier one.
        let (spec, ply, position, limits, analysing) = if let Some(spec) = table.machine_to_move() {
            let limits = table.machine_limits(spec);
            (spec.clone(), table.moves(), table.position(), limits, false)
        } else if let Some((ply, position)) = table.to_analyse() {
            let Some(limits) = self.analysis_limits(ply, position) else {
                return;
            };
            (analysis_spec(), ply, position, limits, true)
        } else {
            return;
        };
        self.analysing = analysing;
        let side = position.side_to_move();
        // A player kept from the side's last move (MCTS's tree); else one is made once the
        // search has its slot, so that a search waiting for one holds no table.
        let kept = self.players[side.index()].take();
        let seed: u64 = rand::random();
        let stop = self.flags.pop().unwrap_or_default();
        self.running = Some(stop);
        let generation = self.generation;
        let events = self.events.clone();
        let shared = Arc::clone(&self.shared);
        let client = self.peer;
        // An analysis is a search no person waits on for a move, like a watched game's.
        let watched = !has_human || analysing;
        tokio::spawn(async move {
            // Watched games and analyses share their slots; a person's game takes one of its
            // own kind, so it never waits behind them. Each client has its share, in turn.
            let slots = if watched {
                &shared.watch_searches
            } else {
                &shared.play_searches
            };
            // A search abandoned while it waits (its page moved on) leaves the queue at once.
            let permit = tokio::select! {
                permit = slots.acquire(client) => permit,
                () = raised(stop) => {
                    let _ = events.send(Event::Dropped { stop });
                    return;
                }
            };
            // An analysis gives its slot up after a turn if anyone waits, and queues again.
            let preempted = Arc::new(std::sync::atomic::AtomicBool::new(false));
            let turns = analysing.then(|| {
                let (slots, preempted) = (Arc::clone(slots), Arc::clone(&preempted));
                tokio::spawn(async move {
                    loop {
                        tokio::time::sleep(crate::slots::TURN).await;
                        if slots.anyone_waiting() {
                            preempted.store(true, Ordering::Relaxed);
                            stop.raise();
                            return;
                        }
                    }
                })
            });
            let limits = yolah_ai::Limits {
                stop: Some(stop),
                ..limits
            };
            let _ = tokio::task::spawn_blocking(move || {
                shared.searching.fetch_add(1, Ordering::Relaxed);
                let _counted = Counted(&shared.searching);
                let mut player = kept.unwrap_or_else(|| spec.player(seed));
                let report = if stop.is_raised() {
                    // Abandoned while it waited: no search.
                    Report::new(position.moves()[0], std::time::Duration::ZERO)
                } else {
                    player.choose_observed(&position, limits, &mut |report| {
                        let _ = events.send(Event::Progress {
                            generation,
                            side,
                            ply,
                            report: report.clone(),
                        });
                    })
                };
                if let Some(turns) = turns {
                    turns.abort();
                }
                drop(permit);
                let _ = events.send(Event::Done {
                    generation,
                    side,
                    ply,
                    report,
                    player,
                    stop,
                    preempted: preempted.load(Ordering::Relaxed),
                });
            })
            .await;
        });
    }

    /// A search's news; the messages for the page.
    pub(super) fn event(&mut self, event: Event) -> Vec<ServerMessage> {
        match event {
            Event::Progress {
                generation,
                side,
                ply,
                report,
            } if generation == self.generation => {
                vec![report_message(
                    side,
                    ply,
                    &report,
                    false,
                    !self.playing_live(),
                )]
            }
            Event::Progress { .. } => Vec::new(),
            Event::Dropped { stop } => {
                stop.lower();
                self.flags.push(stop);
                Vec::new()
            }
            Event::Done {
                generation,
                side,
                ply,
                report,
                player,
                stop,
                preempted,
            } => {
                stop.lower();
                self.flags.push(stop);
                if generation != self.generation {
                    return Vec::new();
                }
                self.running = None;
                let Some(table) = self.table.as_mut() else {
                    return Vec::new();
                };
                self.players[side.index()] = Some(player);
                let mut before = None;
                if self.analysing {
                    if let Some((.., spent)) = self.analysed.as_mut() {
                        *spent += report.time;
                    }
                    let spent = self.analysed.as_ref().map_or(Duration::ZERO, |a| a.2);
                    if preempted && spent < MAX_ANALYSIS_TIME {
                        // Its turn is over: what it found is shown, and it queues again.
                        self.generation += 1;
                        return vec![report_message(side, ply, &report, false, true)];
                    }
                    // Proved, or thought its longest: this position waits for Go; another
                    // position shown is searched.
                    table.analysed(ply);
                } else {
                    before = Some(table.clone());
                    table.machine_move(report.mv);
                    self.unsaved = true;
                }
                self.generation += 1;
                let evaluation = !self.playing_live();
                let mut messages = vec![report_message(side, ply, &report, true, evaluation)];
                if before.is_some() {
                    match self.keep_or_undo(before) {
                        Ok(news) => messages.extend(news),
                        Err(message) => {
                            // Not played: the machine tries again a little later.
                            messages.push(ServerMessage::Error { message });
                            self.retry_at = Some(std::time::Instant::now() + RETRY_AFTER);
                        }
                    }
                }
                messages
            }
        }
    }
}

impl Drop for Connection {
    /// A connection that goes (closed, or its task dropped) stops its search and leaves its
    /// room.
    fn drop(&mut self) {
        self.abandon();
        // The game is kept with the time its side to move has used: its clock stands still
        // until the page comes back.
        self.unsaved = true;
        let _ = self.persist();
        self.leave_room();
    }
}

/// One connection, until the page goes away or idles: its game and its searches die with it.
pub(super) async fn play(
    mut socket: WebSocket,
    shared: Arc<Shared>,
    peer: Option<std::net::IpAddr>,
) {
    let max = shared.config.max_games;
    let Some(_game) = AddressSlot::take(&shared.games, peer, (share(max), max)) else {
        let reason = if total(&shared.games) >= max {
            format!("the server has {max} games already; try later")
        } else {
            format!(
                "this address has {} games open, its share of the server's {max}; close one",
                share(max)
            )
        };
        close(&mut socket, CLOSE_TRY_LATER, &reason).await;
        return;
    };
    let (events, mut news) = mpsc::unbounded_channel();
    let mut connection = Connection::new(Arc::clone(&shared), events);
    connection.peer = peer;
    // The news of the room the connection is in (taken from it when it joins one).
    let mut updates: Option<broadcast::Receiver<ServerMessage>> = None;
    let mut last_activity = Instant::now();
    loop {
        let idle_timeout = connection.idle_timeout();
        let idle_at = last_activity + idle_timeout;
        if let Some(receiver) = connection.member.as_mut().and_then(|m| m.updates.take()) {
            updates = Some(receiver);
        }
        if connection.member.is_none() {
            updates = None;
        }
        let flag_at = connection.deadline().map(Instant::from_std);
        let retry_at = connection.retry_at.map(Instant::from_std);
        let outgoing = tokio::select! {
            () = tokio::time::sleep_until(flag_at.unwrap_or(idle_at)), if flag_at.is_some() => {
                last_activity = Instant::now();
                blocking(|| connection.flag())
            }
            update = next_update(&mut updates), if updates.is_some() => {
                last_activity = Instant::now();
                match (update, &connection.member) {
                    (Ok(message), Some(member)) => vec![member.own(message)],
                    // Too far behind: the whole state again.
                    (Err(_), Some(member)) => member
                        .room
                        .messages(member.seat, member.token.clone()),
                    (_, None) => Vec::new(),
                }
            }
            () = tokio::time::sleep_until(idle_at), if connection.running.is_none() => {
                let reason = format!("idle for {} s: the game is closed", idle_timeout.as_secs());
                close(&mut socket, CLOSE_IDLE, &reason).await;
                break;
            }
            incoming = socket.recv() => match incoming {
                Some(Ok(Message::Text(text))) => {
                    let (messages, taken) = blocking(|| connection.receive(text.as_str()));
                    // A refused message keeps no empty connection open (`"x"` every minute
                    // would hold a game slot for ever); a game's page may send what it likes.
                    if taken || !connection.empty() {
                        last_activity = Instant::now();
                    }
                    messages
                }
                Some(Ok(Message::Binary(_))) => vec![ServerMessage::Error {
                    message: "messages are JSON text".to_string(),
                }],
                Some(Ok(_)) => Vec::new(),
                // Closed, or broken (a frame over the limit): the game ends.
                Some(Err(_)) | None => break,
            },
            Some(event) = news.recv() => {
                last_activity = Instant::now();
                let mut messages = blocking(|| connection.event(event));
                if !messages.is_empty() && connection.running.is_none() {
                    connection.think();
                    messages.extend(connection.state());
                }
                messages
            }
            () = tokio::time::sleep_until(retry_at.unwrap_or(idle_at)), if retry_at.is_some() => {
                connection.retry_at = None;
                connection.think();
                connection.state().into_iter().collect()
            }
        };
        let within = SEND_TIMEOUT.min(shared.config.idle_timeout);
        for message in &outgoing {
            if !send(&mut socket, message, within).await {
                connection.abandon();
                return;
            }
        }
    }
    connection.abandon();
}
