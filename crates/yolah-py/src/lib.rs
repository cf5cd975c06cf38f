//! Python bindings for Yolah, importable as `yolah` (`docs/python.md`): the rules
//! ([`position`], [`rules`]), the players ([`players`]), planes for networks ([`planes`], [`batch`]) and the
//! training data ([`data`]) and the opening explorer ([`explorer`]). A thin layer: it converts types and releases the interpreter
//! around long work; the game logic is yolah-core's and yolah-ai's.

mod actions;
mod batch;
mod data;
mod explorer;
mod move_names;
mod network;
mod numpy;
mod planes;
mod players;
mod position;
mod rules;
mod search;
mod svg;
mod vector;

use pyo3::prelude::*;

/// The native module; the package `yolah` re-exports it.
#[pymodule]
fn _yolah(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<position::Position>()?;
    module.add_class::<players::Player>()?;
    module.add_class::<network::Network>()?;
    module.add_class::<vector::VectorEnv>()?;
    module.add_class::<explorer::Explorer>()?;
    module.add_function(wrap_pyfunction!(rules::perft, module)?)?;
    module.add_function(wrap_pyfunction!(rules::random_games, module)?)?;
    module.add_function(wrap_pyfunction!(batch::planes_batch, module)?)?;
    module.add_function(wrap_pyfunction!(actions::move_to_action, module)?)?;
    module.add_function(wrap_pyfunction!(actions::action_to_move, module)?)?;
    module.add_function(wrap_pyfunction!(batch::legal_action_masks, module)?)?;
    module.add_function(wrap_pyfunction!(batch::observations, module)?)?;
    module.add("NUM_ACTIONS", actions::ACTIONS)?;
    module.add("OBSERVATION_SHAPE", (actions::OBSERVATION_PLANES, 8, 8))?;
    module.add_function(wrap_pyfunction!(players::think, module)?)?;
    module.add_function(wrap_pyfunction!(search::puct, module)?)?;
    module.add_function(wrap_pyfunction!(data::read_data, module)?)?;
    module.add_function(wrap_pyfunction!(data::selfplay, module)?)?;
    let names: Vec<&str> = yolah_ai::PLAYERS.iter().map(|p| p.name).collect();
    module.add("PLAYERS", names)?;
    module.add("RECORD_DTYPE", numpy::record_dtype(module.py())?)?;
    module.add("START", yolah_core::START)?;
    Ok(())
}
