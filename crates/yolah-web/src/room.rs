//! Games between two people in two browsers (and whoever watches): a registry of rooms, each a
//! [`Table`] of two humans shared by the connections that joined it. A side is held by a
//! secret token, so a page that reconnects (a reload, a dropped network) gets its side back;
//! a room nobody is connected to is forgotten after a grace period (it stays in the
//! [`Store`], which brings it back when its link is opened again, after a restart too).
//!
//! A room's id is public (the archive lists its game, anyone may watch); a free side is given
//! only to whoever brings the room's join secret, which only its invitation link carries.
//! Every change is kept before anyone is told of it: a change the store cannot keep is undone
//! and refused.

use crate::game::Table;
use crate::message::{RoomMessage, ServerMessage};
use crate::store::{FORGET_EMPTY_AFTER, Kept, Kind, Pin, Playing, Store, Written, secret};
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
    /// The join secret: a free side is given only with it.
    key: String,
    /// Holds the game in the store while the room lives.
    _pin: Pin,
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
    /// The archive's "playing" while a player sits here.
    playing: Option<Playing>,
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

    /// The join secret, for the link a seated member sends.
    pub fn key(&self) -> &str {
        &self.key
    }

    /// Keeps the game as it stands in the store; a room's row that is gone is an error.
    fn save(&self, inner: &Inner) -> Result<(), String> {
        match self.store.save(&self.id, None, &inner.table.saved())? {
            Written::Kept => Ok(()),
            Written::Taken => Err(format!(
                "cannot keep the game: game {} is held by another server's page",
                self.id
            )),
        }
    }

    /// Applies `change` to the table and keeps the result; if it cannot be kept, the table is
    /// as before and the error says why.
    fn change(
        &self,
        inner: &mut Inner,
        change: impl FnOnce(&mut Table) -> Result<(), String>,
    ) -> Result<(), String> {
        let before = inner.table.clone();
        change(&mut inner.table)?;
        if let Err(e) = self.save(inner) {
            inner.table = before;
            return Err(e);
        }
        Ok(())
    }

    /// Takes a seat: the side `token` holds; else, with the room's join secret (`key`), a
    /// free side (`prefer`red first); else a spectator's. Returns the seat and the side's
    /// token. A side taken is kept before it is given: if the store cannot keep it, the
    /// member watches.
    pub fn join(
        &self,
        token: Option<&str>,
        key: Option<&str>,
        prefer: Option<Color>,
    ) -> (Seat, Option<String>) {
        let mut inner = self.lock();
        inner.empty_since = None;
        let held = Color::ALL
            .into_iter()
            .find(|c| token.is_some() && inner.tokens[c.index()].as_deref() == token);
        let invited = key.is_some_and(|k| k == self.key);
        let free = || {
            let order = match prefer {
                Some(Color::White) => [Color::White, Color::Black],
                _ => [Color::Black, Color::White],
            };
            order
                .into_iter()
                .find(|c| invited && inner.tokens[c.index()].is_none())
        };
        let side = held.or_else(free).filter(|side| {
            if inner.tokens[side.index()].is_some() {
                return true;
            }
            let mut tokens = inner.tokens.clone();
            tokens[side.index()] = Some(secret(2));
            let kept = self.store.set_tokens(&self.id, &tokens, &self.key).is_ok();
            if kept {
                inner.tokens = tokens;
            }
            kept
        });
        if let Some(side) = side {
            if inner.present == [0, 0] {
                inner.playing = Some(self.store.play(&self.id, None));
            }
            inner.present[side.index()] += 1;
            (Seat::Side(side), inner.tokens[side.index()].clone())
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
        // The archive's "playing" while a player sits here.
        if inner.present == [0, 0] {
            inner.playing = None;
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
        self.change(&mut inner, |table| table.human_move(text))?;
        inner.takeback = None;
        Ok(())
    }

    /// `seat` resigns.
    pub fn resign(&self, seat: Seat) -> Result<(), String> {
        let Seat::Side(side) = seat else {
            return Err("spectators do not resign".to_string());
        };
        let mut inner = self.lock();
        self.change(&mut inner, |table| table.resign_side(side))
    }

    /// `seat` asks to take its own last move back (and the reply after it, if any); when the
    /// other side agrees (asks too), the asker's move is taken back.
    pub fn takeback(&self, seat: Seat) -> Result<(), String> {
        let Seat::Side(side) = seat else {
            return Err("spectators do not take moves back".to_string());
        };
        let mut inner = self.lock();
        match inner.takeback {
            Some(asker) if asker != side => {
                self.change(&mut inner, |table| table.undo_side(asker))?;
                inner.takeback = None;
            }
            _ => {
                // Checked on a copy: asking for a move one has not played is refused at once.
                inner.table.clone().undo_side(side)?;
                inner.takeback = Some(side);
            }
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

    /// Whether the game is over.
    pub fn over(&self) -> bool {
        self.lock().table.over()
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
            key: matches!(seat, Seat::Side(_)).then(|| self.key.clone()),
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

    /// Starts the grace of a room nobody is in again (it is about to be joined).
    fn refresh(&self) {
        let mut inner = self.lock();
        if inner.empty_since.is_some() {
            inner.empty_since = Some(Instant::now());
        }
    }

    /// Whether nobody has sat in it for `grace`: then it is dropped.
    pub fn forgotten(&self, grace: Duration) -> bool {
        self.lock()
            .empty_since
            .is_some_and(|t| t.elapsed() >= grace)
    }
}

/// Makes room for one more room among `rooms` (at most `max`): the room nobody has been in
/// for longest leaves memory (its game stays in the store, and its link brings it back); only
/// when someone is in every room is the new one refused.
fn make_room(rooms: &mut HashMap<String, Arc<Room>>, max: usize) -> Result<(), String> {
    if rooms.len() < max {
        return Ok(());
    }
    let emptiest = rooms
        .iter()
        .filter_map(|(id, room)| room.lock().empty_since.map(|since| (since, id.clone())))
        .min();
    match emptiest {
        Some((_, id)) => {
            rooms.remove(&id);
            Ok(())
        }
        None => Err(format!(
            "the server has {max} shared games with people in them; try later"
        )),
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

    fn room(&self, pin: Pin, kept: Kept, table: Table) -> Arc<Room> {
        let Kept {
            id, tokens, key, ..
        } = kept;
        Arc::new(Room {
            // A room kept before join secrets has one made; it is kept with the next change
            // of the sides.
            key: key.unwrap_or_else(|| secret(2)),
            _pin: pin,
            id,
            inner: Mutex::new(Inner {
                table,
                tokens,
                present: [0, 0],
                spectators: 0,
                takeback: None,
                empty_since: Some(Instant::now()),
                playing: None,
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
        make_room(&mut rooms, max)?;
        let kept = Kept {
            id: secret(1),
            kind: Kind::Friends,
            tokens: [None, None],
            key: Some(secret(2)),
            saved: table.saved(),
        };
        let pin = self.store.create(&kept, None, FORGET_EMPTY_AFTER)?;
        let room = self.room(pin, kept, table);
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
            // Its grace starts again, under the registry's lock: it cannot be dropped between
            // here and its member's sitting down (and made twice by the next find).
            room.refresh();
            return Ok(Arc::clone(room));
        }
        let missing = || {
            format!(
                "no shared game {}: its link is wrong, or its game was never played",
                yolah_core::text::quote(id)
            )
        };
        // Pinned before it is read: the forgetting of games with no move cannot take it now.
        let pin = self.store.pin(id);
        let kept = self
            .store
            .load(id)?
            .filter(|kept| kept.kind == Kind::Friends)
            .ok_or_else(missing)?;
        make_room(&mut rooms, max)?;
        let table = Table::restore(&kept.saved)
            .map_err(|e| format!("shared game {id} cannot be taken up: {e}"))?;
        let room = self.room(pin, kept, table);
        rooms.insert(room.id.clone(), Arc::clone(&room));
        Ok(room)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(room: &Room) -> Vec<String> {
        room.lock().table.state(false).moves
    }

    /// A takeback takes back the asker's own last move (and the reply
    /// after it), never the other side's.
    #[test]
    fn a_takeback_undoes_the_askers_move_not_the_opponents() {
        let rooms = Rooms::new(Arc::new(Store::memory()));
        let room = rooms
            .create(None, None, 10, Duration::from_mins(1))
            .unwrap();
        let black = Seat::Side(Color::Black);
        let white = Seat::Side(Color::White);
        room.play(black, "a1:c3").unwrap();
        room.play(white, "h1:f3").unwrap();
        // Black asks on its own turn: black's move and white's reply go.
        room.takeback(black).unwrap();
        room.takeback(white).unwrap();
        assert!(moves(&room).is_empty(), "{:?}", moves(&room));
        // White asks on black's turn, right after its move: only white's move goes.
        room.play(black, "a1:c3").unwrap();
        room.play(white, "h1:f3").unwrap();
        room.play(black, "c3:c2").unwrap();
        room.takeback(white).unwrap();
        room.takeback(black).unwrap();
        assert_eq!(moves(&room), ["a1:c3"]);
        // Black asks right after its move: only its move goes.
        room.play(white, "h1:f3").unwrap();
        room.play(black, "c3:c2").unwrap();
        room.takeback(black).unwrap();
        room.takeback(white).unwrap();
        assert_eq!(moves(&room), ["a1:c3", "h1:f3"]);
        // A side that has not moved has nothing to take back.
        let fresh = rooms
            .create(None, None, 10, Duration::from_mins(1))
            .unwrap();
        fresh.play(black, "a1:c3").unwrap();
        let refused = fresh.takeback(white).unwrap_err();
        assert!(refused.contains("white has no move"), "{refused}");
    }
}
