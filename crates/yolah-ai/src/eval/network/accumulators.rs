//! The accumulators along a search's line, brought up to date only when a position is
//! evaluated (Stockfish's lazy updates): a move pushes itself, its undo pops it, and
//! [`Accumulators::current`] applies the moves not yet applied, each from the accumulator before it
//! into its own. So an undo costs nothing, and a node the search leaves without evaluating
//! it or anything below (a table cut, say) costs no update.

use super::inference::{Accumulator, Network};
use yolah_core::{Color, Move, Position};

/// One accumulator a ply from the root down to the position being searched.
#[derive(Clone, Debug)]
pub struct Accumulators {
    /// `levels[i]`: the accumulator `i` moves below the root, valid up to `fresh`.
    levels: Vec<Accumulator>,
    /// `moves[i]`: the move (and its mover) into level `i + 1`.
    moves: Vec<(Color, Move)>,
    /// Levels `0..=fresh` are up to date.
    fresh: usize,
}

impl Accumulators {
    /// The line at `root`.
    pub fn new(network: &Network, root: &Position) -> Accumulators {
        Accumulators {
            levels: vec![network.accumulator(root)],
            moves: Vec::new(),
            fresh: 0,
        }
    }

    /// Back to the root, which is now `root` (the levels' memory kept).
    pub fn reset(&mut self, network: &Network, root: &Position) {
        self.levels[0] = network.accumulator(root);
        if self.levels[1..]
            .iter()
            .any(|l| l.units() != self.levels[0].units())
        {
            // Another network's size.
            self.levels.truncate(1);
        }
        self.moves.clear();
        self.fresh = 0;
    }

    /// `mover` plays `m` from the position at the line's end.
    #[inline]
    pub fn push(&mut self, mover: Color, m: Move) {
        self.moves.push((mover, m));
    }

    /// Undoes the last [`Accumulators::push`].
    #[inline]
    pub fn pop(&mut self) {
        self.moves.pop();
        self.fresh = self.fresh.min(self.moves.len());
    }

    /// The accumulator of the position at the line's end (for `network`, the one the line
    /// was made with).
    #[inline]
    pub fn current(&mut self, network: &Network) -> &Accumulator {
        let end = self.moves.len();
        while self.levels.len() <= end {
            self.levels.push(self.levels[0].clone());
        }
        while self.fresh < end {
            let (before, after) = self.levels.split_at_mut(self.fresh + 1);
            let (mover, m) = self.moves[self.fresh];
            network.played(&before[self.fresh], &mut after[0], mover, m);
            self.fresh += 1;
        }
        &self.levels[end]
    }
}
