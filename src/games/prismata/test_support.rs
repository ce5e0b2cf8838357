//! What the Prismata unit tests share: the built-in library and unit lookups by name.

use super::library::Library;

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
