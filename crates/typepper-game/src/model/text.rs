//! What the custom text screen shows.

/// A text of the player's own, being pasted or typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextEntry {
    /// `your own text`.
    pub title: &'static str,
    /// The text as pasted or typed so far (newlines and all): what a text area shows.
    pub draft: String,
    /// What the round will be: `312 characters · 58 words`, or how far over the limit.
    pub count: String,
    /// The text fits a round (whatever else may be wrong with it, said when played).
    pub fits: bool,
    /// How the text is made ready, for the player to know before they play.
    pub about: &'static str,
}
