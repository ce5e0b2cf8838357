//! What the Prismata unit tests share: the built-in library, unit lookups by name, games on
//! a chosen pool, and counting and turn helpers.

use super::level::Level;
use super::library::Library;
use super::state::State;

/// The built-in unit library.
pub(crate) fn lib() -> &'static Library {
    Library::builtin()
}

/// The library index of the unit named `name` (display or internal name).
pub(crate) fn id(name: &str) -> u16 {
    lib()
        .id(name)
        .unwrap_or_else(|| panic!("no unit named {name}"))
}

/// The starting position of a game whose random units are `units` (comma-separated names).
pub(crate) fn game(units: &str) -> State {
    State::new(
        lib(),
        &Level::load(lib(), &format!("units:{units}")).unwrap(),
    )
}

/// The buy index of the unit named `name` in `s`.
pub(crate) fn buy_index(s: &State, name: &str) -> u16 {
    s.buyable.iter().position(|&k| k == id(name)).unwrap() as u16
}

/// Player `p`'s live units named `name`.
pub(crate) fn count(s: &State, p: u8, name: &str) -> usize {
    s.sides[p as usize]
        .units
        .iter()
        .filter(|u| u.alive && u.kind == id(name))
        .count()
}

/// Player 0's next turn start (player 1's turn skipped).
pub(crate) fn next_own_turn(s: &mut State) {
    s.ply += 2;
    s.begin_turn(lib());
}
