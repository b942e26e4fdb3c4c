//! The keys the game takes, as every shell turns its own events into them.

/// A key as the game understands it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    /// A typed character (space included), from a key, a dead key, an IME or a paste.
    Char(char),
    /// Backspace.
    Backspace,
    /// Ctrl-backspace (alt-backspace on a Mac): the word being typed goes.
    DeleteWord,
    /// Enter.
    Enter,
    /// Esc.
    Escape,
    /// Tab.
    Tab,
    /// ↑.
    Up,
    /// ↓.
    Down,
    /// ←.
    Left,
    /// →.
    Right,
}
