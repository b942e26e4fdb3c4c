//! What the custom text screen shows.

use crate::model::Tone;

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

impl TextEntry {
    /// The count's colour: wrong once the text doesn't fit a round; an empty draft's
    /// prompt is no fault.
    pub fn count_tone(&self) -> Tone {
        if self.fits || self.draft.trim().is_empty() {
            Tone::Dim
        } else {
            Tone::Wrong
        }
    }
}
