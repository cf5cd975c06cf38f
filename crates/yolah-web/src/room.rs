//! Games between two people in two browsers (and whoever watches): a registry of rooms, each a
//! [`Table`] of two humans shared by the connections that joined it. A side is held by a
//! secret token, so a page that reconnects (a reload, a dropped network) gets its side back;
//! a room nobody is connected to is forgotten after a grace period (it stays in the
//! [`Store`], which brings it back when its link is opened again, after a restart too).

use crate::game::Table;
use crate::message::{RoomMessage, ServerMessage};
use crate::store::{Kept, Kind, Store, secret};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use tokio::sync::broadcast;
use yolah_ai::TimeControl;
use yolah_core::Color;

/// Messages a room keeps for a slow member before it must catch up from the state.
const BACKLOG: usize = 64;

/// Where a connection sits in a room.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    /// Plays this side.
    Side(Color),
    /// Watches.
    Spectator,
}

/// A game between two browsers.
pub struct Room {
    id: String,
    inner: Mutex<Inner>,
    updates: broadcast::Sender<ServerMessage>,
    store: Arc<Store>,
}

struct Inner {
    table: Table,
    /// Each side's secret, once a page has taken it.
    tokens: [Option<String>; 2],
    /// Connections holding each side now.
    present: [usize; 2],
    spectators: usize,
    /// The side that asked to take the last move back.
    takeback: Option<Color>,
    /// Since when nobody has been connected.
    empty_since: Option<Instant>,
}

impl Room {
    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The room's id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// Keeps the game as it stands in the store.
    fn save(&self, inner: &Inner) -> Result<(), String> {
        self.store
            .save(&self.id, None, &inner.table.saved())
            .map(|_| ())
    }

    /// Takes a seat: the side `token` holds, else a free side (`prefer`red first), else a
    /// spectator's. Returns the seat and the side's token.
    pub fn join(&self, token: Option<&str>, prefer: Option<Color>) -> (Seat, Option<String>) {
        let mut inner = self.lock();
        inner.empty_since = None;
        let held = Color::ALL
            .into_iter()
            .find(|c| token.is_some() && inner.tokens[c.index()].as_deref() == token);
        let free = || {
            let order = match prefer {
                Some(Color::White) => [Color::White, Color::Black],
                _ => [Color::Black, Color::White],
            };
            order
                .into_iter()
                .find(|c| inner.tokens[c.index()].is_none())
        };
        if let Some(side) = held.or_else(free) {
            let new = inner.tokens[side.index()].is_none();
            let token = inner.tokens[side.index()]
                .get_or_insert_with(|| secret(2))
                .clone();
            inner.present[side.index()] += 1;
            if new {
                // A side taken but not kept would be lost to a restart: the page still plays,
                // and the next move tries again.
                let _ = self.store.set_tokens(&self.id, &inner.tokens);
            }
            (Seat::Side(side), Some(token))
        } else {
            inner.spectators += 1;
            (Seat::Spectator, None)
        }
    }

    /// A connection leaves its seat (its side stays held by its token).
    pub fn leave(&self, seat: Seat) {
        let mut inner = self.lock();
        match seat {
            Seat::Side(side) => inner.present[side.index()] -= 1,
            Seat::Spectator => inner.spectators -= 1,
        }
        if inner.present == [0, 0] && inner.spectators == 0 {
            inner.empty_since = Some(Instant::now());
        }
        let _ = self.save(&inner);
    }

    /// `seat`'s move.
    pub fn play(&self, seat: Seat, text: &str) -> Result<(), String> {
        let mut inner = self.lock();
        let Seat::Side(side) = seat else {
            return Err("spectators do not move".to_string());
        };
        if !inner.table.over() && inner.table.position().side_to_move() != side {
            return Err(format!("it is {}'s turn", side.opponent()));
        }
        inner.table.human_move(text)?;
        inner.takeback = None;
        self.save(&inner)
    }

    /// `seat` resigns.
    pub fn resign(&self, seat: Seat) -> Result<(), String> {
        let Seat::Side(side) = seat else {
            return Err("spectators do not resign".to_string());
        };
        let mut inner = self.lock();
        inner.table.resign_side(side)?;
        self.save(&inner)
    }

    /// `seat` asks to take the last move back; when the other side has asked too, it is.
    pub fn takeback(&self, seat: Seat) -> Result<(), String> {
        let Seat::Side(side) = seat else {
            return Err("spectators do not take moves back".to_string());
        };
        let mut inner = self.lock();
        match inner.takeback {
            Some(asker) if asker != side => {
                inner.table.undo()?;
                inner.takeback = None;
                self.save(&inner)?;
            }
            _ if inner.table.moves() == 0 => return Err("nothing to undo".to_string()),
            _ => inner.takeback = Some(side),
        }
        Ok(())
    }

    /// `seat` declines the other side's request to take the last move back.
    pub fn decline(&self, seat: Seat) -> Result<(), String> {
        let Seat::Side(side) = seat else {
            return Err("spectators do not answer takebacks".to_string());
        };
        let mut inner = self.lock();
        match inner.takeback {
            Some(asker) if asker != side => {
                inner.takeback = None;
                Ok(())
            }
            _ => Err("there is no takeback to decline".to_string()),
        }
    }

    /// When the side to move runs out of time.
    pub fn deadline(&self) -> Option<Instant> {
        self.lock().table.deadline()
    }

    /// Flags the side to move if its time is out; whether the game ended so just now.
    pub fn check_flag(&self) -> bool {
        let mut inner = self.lock();
        let over = inner.table.over();
        let flagged = inner.table.check_flag() && !over;
        if flagged {
            let _ = self.save(&inner);
        }
        flagged
    }

    /// The state and who is there, for a member in `seat` with `token`.
    pub fn messages(&self, seat: Seat, token: Option<String>) -> Vec<ServerMessage> {
        let inner = self.lock();
        vec![
            ServerMessage::Room(self.room_message(&inner, seat, token)),
            ServerMessage::State(Box::new(inner.table.state(false))),
        ]
    }

    fn room_message(&self, inner: &Inner, seat: Seat, token: Option<String>) -> RoomMessage {
        RoomMessage {
            id: self.id.clone(),
            seat: match seat {
                Seat::Side(side) => side.to_string(),
                Seat::Spectator => "spectator".to_string(),
            },
            token,
            present: [inner.present[0] > 0, inner.present[1] > 0],
            spectators: inner.spectators,
            takeback: inner.takeback.map(|side| side.to_string()),
        }
    }

    /// Tells every member the state and who is there (each member adds its own seat).
    pub fn publish(&self) {
        let inner = self.lock();
        let presence = self.room_message(&inner, Seat::Spectator, None);
        let _ = self.updates.send(ServerMessage::Room(presence));
        let _ = self
            .updates
            .send(ServerMessage::State(Box::new(inner.table.state(false))));
    }

    /// The room's news, for a member.
    pub fn subscribe(&self) -> broadcast::Receiver<ServerMessage> {
        self.updates.subscribe()
    }

    /// Whether nobody has sat in it for `grace`: then it is dropped.
    pub fn forgotten(&self, grace: Duration) -> bool {
        self.lock()
            .empty_since
            .is_some_and(|t| t.elapsed() >= grace)
    }
}

/// Every room of a server.
pub struct Rooms {
    rooms: Mutex<HashMap<String, Arc<Room>>>,
    store: Arc<Store>,
}

impl Rooms {
    /// No rooms in memory yet; those kept in `store` come back when their link is opened.
    pub fn new(store: Arc<Store>) -> Rooms {
        Rooms {
            rooms: Mutex::default(),
            store,
        }
    }

    fn room(&self, id: String, table: Table, tokens: [Option<String>; 2]) -> Arc<Room> {
        Arc::new(Room {
            id,
            inner: Mutex::new(Inner {
                table,
                tokens,
                present: [0, 0],
                spectators: 0,
                takeback: None,
                empty_since: Some(Instant::now()),
            }),
            updates: broadcast::channel(BACKLOG).0,
            store: Arc::clone(&self.store),
        })
    }

    /// A new room for a game between two people from `position`, with a clock if `tc` sets
    /// one; at most `max` rooms, those nobody has been in for `grace` forgotten first.
    pub fn create(
        &self,
        position: Option<&str>,
        tc: Option<TimeControl>,
        max: usize,
        grace: Duration,
    ) -> Result<Arc<Room>, String> {
        let table = Table::new("human", "human", position, tc)?;
        let mut rooms = self
            .rooms
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        rooms.retain(|_, room| !room.forgotten(grace));
        if rooms.len() >= max {
            return Err(format!(
                "the server has {max} shared games already; try later"
            ));
        }
        let kept = Kept {
            id: secret(1),
            kind: Kind::Friends,
            tokens: [None, None],
            saved: table.saved(),
        };
        let forget = i64::try_from(grace.as_secs()).unwrap_or(i64::MAX);
        self.store.create(&kept, None, forget)?;
        let room = self.room(kept.id, table, [None, None]);
        rooms.insert(room.id.clone(), Arc::clone(&room));
        Ok(room)
    }

    /// Whether `room` is still one of the server's (not forgotten and dropped).
    pub fn holds(&self, room: &Arc<Room>) -> bool {
        self.rooms
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(&room.id)
            .is_some_and(|kept| Arc::ptr_eq(kept, room))
    }

    /// The room `id`: in memory, or taken up again from the store (at most `max` rooms in
    /// memory, those nobody has been in for `grace` forgotten first).
    pub fn find(&self, id: &str, max: usize, grace: Duration) -> Result<Arc<Room>, String> {
        let id = id.trim();
        let mut rooms = self
            .rooms
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        rooms.retain(|_, room| !room.forgotten(grace));
        if let Some(room) = rooms.get(id) {
            return Ok(Arc::clone(room));
        }
        let missing = || {
            format!(
                "no shared game {}: its link is wrong, or its game was never played",
                yolah_core::text::quote(id)
            )
        };
        let kept = self
            .store
            .load(id)?
            .filter(|kept| kept.kind == Kind::Friends)
            .ok_or_else(missing)?;
        if rooms.len() >= max {
            return Err(format!("the server has {max} shared games open; try later"));
        }
        let table = Table::restore(&kept.saved)
            .map_err(|e| format!("shared game {id} cannot be taken up: {e}"))?;
        let room = self.room(kept.id, table, kept.tokens);
        rooms.insert(room.id.clone(), Arc::clone(&room));
        Ok(room)
    }
}
