//! A linked player's settings, kept with the player, so that a second device and an
//! `ssh` session play as the first was set: the game's own settings file
//! ([`typepper_game::settings`]), in the `saves` row the `ssh` game keeps it in (key
//! `settings`). A file sent is read as the game reads one, as far as it goes, and kept
//! whole as the game writes it: what is kept is always a file every game reads.

use typepper_game::settings::Settings;
use typepper_game::storage;

use crate::store::Player;
use crate::{ServiceError, Shared};

/// The most a settings file sent may be: every setting's line is a few dozen bytes.
pub(crate) const MAX_SETTINGS: usize = 4096;

impl Shared {
    /// `player`'s settings as a device or an `ssh` session kept them; empty if none
    /// has (an empty file is every setting's default, as the game reads it).
    pub(crate) async fn settings(&self, player: &Player) -> Result<String, ServiceError> {
        let kept = self
            .store
            .saved(player.id, storage::SETTINGS.into())
            .await?;
        Ok(kept.unwrap_or_default())
    }

    /// Keeps `body` as `player`'s settings, as the game reads it (the lines that don't
    /// read keep their defaults); the file kept.
    pub(crate) async fn save_settings(
        &self,
        player: &Player,
        body: &[u8],
    ) -> Result<String, ServiceError> {
        if body.len() > MAX_SETTINGS {
            return Err(ServiceError::TooLarge(MAX_SETTINGS));
        }
        let text = std::str::from_utf8(body)
            .map_err(|_| ServiceError::BadRequest("a settings file is UTF-8 text".into()))?;
        let kept = Settings::read(text, None).write();
        self.store
            .save(
                player.id,
                storage::SETTINGS.into(),
                Some(kept.clone()),
                self.now_ms(),
            )
            .await?;
        Ok(kept)
    }
}
