//! The custom text screen's text area: a real `<textarea>` of the page, laid over the field
//! the canvas draws, for as long as the screen is open.
//!
//! A canvas edits no text: selection, the caret moved by a finger or the arrows, undo,
//! paste, spell-checking and a phone's keyboard with its IME are the browser's. So the
//! browser edits the draft, and the game is told the whole of it after every change
//! ([`typepper_game::app::App::set_draft`]), in NFC: the wasm carries no composition
//! tables, and `String.prototype.normalize` is the browser's own. The game's draft is
//! written back only when the game changed it itself (cut at its limit, or a key typed
//! while the area wasn't focused), so the caret stays where the player put it.

use wasm_bindgen::JsCast;
use web_sys::{EventTarget, HtmlElement, HtmlTextAreaElement};

use crate::dom::{self, Context, DomError};
use typepper_game::theme::Theme;

use crate::render::{Css, Rect};
use typepper_game::model::{TextEntry, Tone};

/// The text area, removed from the page when dropped. Its `input` events are heard by
/// the page's one listener for them (lib.rs), as they bubble: a listener of its own
/// would cost the wasm a closure's glue.
pub struct TextArea {
    el: HtmlTextAreaElement,
    /// The draft as last handed to the game, or shown from it; `None` until a frame first
    /// shows the game's draft in it.
    handed: Option<String>,
}

impl TextArea {
    /// An empty text area, put in the page after `after` (the hidden input, so a screen
    /// reader meets it before the mirror): the next frame labels it and fills it in
    /// ([`TextArea::follow`]).
    pub fn open(after: &HtmlElement) -> Result<TextArea, DomError> {
        let el: HtmlTextAreaElement = dom::document()?
            .create_element("textarea")
            .ok()
            .and_then(|el| el.dyn_into().ok())
            .context("the page can't make a text area")?;
        el.set_id("draft");
        // Prose is typed as written: no capitals or corrections the player didn't type.
        // (Attributes with these names can't be refused.)
        for (name, value) in [
            ("autocapitalize", "off"),
            ("autocomplete", "off"),
            ("enterkeyhint", "go"),
        ] {
            let _ = el.set_attribute(name, value);
        }
        after
            .after_with_node_1(&el)
            .context("putting the text area in the page")?;
        Ok(TextArea { el, handed: None })
    }

    /// Whether `target` (an event's) is this text area.
    pub fn is(&self, target: Option<EventTarget>) -> bool {
        target == Some(self.el.clone().into())
    }

    /// What the text area holds, in NFC, for the game: the whole draft (`true`); or,
    /// before a frame first showed the game's draft in it, what was typed into it since
    /// it opened (`false`), to add to the draft, and then emptied.
    pub fn take(&mut self) -> (String, bool) {
        let value: String = js_sys::JsString::from(self.el.value())
            .normalize("NFC")
            .into();
        let whole = self.handed.is_some();
        if whole {
            self.handed = Some(value.clone());
        } else {
            self.el.set_value("");
        }
        (value, whole)
    }

    /// Shows the text screen's `entry`: its title as the label, the first time, and its
    /// draft, if the game changed it since it was last handed over (or never showed it).
    pub fn follow(&mut self, entry: &TextEntry) {
        if self.handed.is_none() {
            let _ = self.el.set_attribute("aria-label", entry.title);
        }
        if self.handed.as_deref() != Some(entry.draft.as_str()) {
            self.el.set_value(&entry.draft);
            self.handed = Some(entry.draft.clone());
        }
    }

    /// Lays the text area over `field`, in `theme`'s colours for text and caret.
    pub fn place(&self, field: Rect, theme: &Theme) {
        let px = |v: f64| v.round() as i32;
        let style = format!(
            "left:{}px;top:{}px;width:{}px;height:{}px;color:{};caret-color:{}",
            px(field.x),
            px(field.y),
            px(field.w),
            px(field.h),
            Css::of(theme.rgb(Tone::Text)).str(),
            Css::of(theme.rgb(Tone::Caret)).str(),
        );
        // Through the CSSOM: the page's Content-Security-Policy refuses style attributes.
        self.el.style().set_css_text(&style);
    }

    pub fn focus(&self) {
        let _ = self.el.focus();
    }
}

impl Drop for TextArea {
    fn drop(&mut self) {
        self.el.remove();
    }
}
