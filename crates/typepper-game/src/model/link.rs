//! What the link screen shows.

/// Choosing a name to link this game to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link {
    /// `link this game`.
    pub title: &'static str,
    /// The name so far.
    pub name: String,
    /// What linking does, or who is linked now.
    pub about: String,
    /// `linked as ada` or `not linked`.
    pub status: String,
}
