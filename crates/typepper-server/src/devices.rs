//! One player on many devices: a linked device asks for a one-time code, another device
//! claims it and becomes the same player; a player lists their devices and removes any.
//! Every door (HTTP, `v1` over SSH, the SSH game) calls these (docs/spec/players.md,
//! "Devices").

use std::net::IpAddr;
use std::time::Instant;

use typepper_api::devices::{self as api, CODE_ALPHABET, CODE_LEN, CODE_MS};

use crate::store::{NewDevice, Player, StoreError};
use crate::{ServiceError, Shared, client, secrets};

/// Codes a player may hold live at once: asking for another past them is refused until
/// one is used or expires.
pub const MAX_LIVE_CODES: u32 = 3;
/// Codes a player may ask for in an hour (and at once).
pub const CODES_PER_HOUR: u32 = 12;
/// Claims an address may try in an hour (and at once): a person mistypes a code a few
/// times; a guesser gets a few dozen tries an hour against 31⁸ codes.
pub const CLAIMS_PER_HOUR: u32 = 30;

/// The device a request came from: what asks for a code, and what the list marks `this`.
#[derive(Clone, Debug)]
pub enum Asker {
    /// A browser or terminal game, by its token's hash.
    Token([u8; 32]),
    /// An SSH key, by its fingerprint.
    Key(String),
}

/// A new code: [`CODE_LEN`] characters of [`CODE_ALPHABET`], from the OS's randomness.
fn new_code() -> String {
    let n = CODE_ALPHABET.len() as u8;
    // The largest multiple of 31 a byte holds: bytes above it would favour some letters.
    let fair = u8::MAX - u8::MAX % n;
    let mut code = String::with_capacity(CODE_LEN);
    while code.len() < CODE_LEN {
        let mut bytes = [0u8; 16];
        secrets::random(&mut bytes);
        for b in bytes.into_iter().filter(|&b| b < fair) {
            if code.len() < CODE_LEN {
                code.push(char::from(CODE_ALPHABET[usize::from(b % n)]));
            }
        }
    }
    code
}

/// `text` as a QR code's modules, a row a string of `1` (dark) and `0` (light), without
/// the quiet zone; none if it can't be one (it always can: a link is short).
fn qr_rows(text: &str) -> Vec<String> {
    let Ok(qr) = qrcode::QrCode::new(text.as_bytes()) else {
        return vec![];
    };
    let width = qr.width();
    let colors = qr.to_colors();
    colors
        .chunks(width)
        .map(|row| {
            row.iter()
                .map(|&c| if c == qrcode::Color::Dark { '1' } else { '0' })
                .collect()
        })
        .collect()
}

impl Shared {
    /// The id ([`crate::store::DeviceRow::id`]) of the device `asker` among `player`'s.
    async fn device_id(&self, player: &Player, asker: &Asker) -> Result<String, ServiceError> {
        match asker {
            Asker::Key(fingerprint) => Ok(fingerprint.clone()),
            Asker::Token(hash) => {
                let devices = self.store.devices(player.id).await?;
                (devices.into_iter())
                    .find(|d| d.token_hash.as_ref() == Some(hash))
                    .map(|d| d.id)
                    .ok_or(ServiceError::Unauthorized(crate::service::REMOVED))
            }
        }
    }

    /// A one-time code that makes another device `player`, asked for by their device
    /// `asker`: valid ten minutes, used once.
    pub(crate) async fn device_code(
        &self,
        player: &Player,
        asker: &Asker,
    ) -> Result<api::DeviceCode, ServiceError> {
        self.code_limit
            .take(&player.id, Instant::now())
            .map_err(ServiceError::RateLimited)?;
        let asked_by = self.device_id(player, asker).await?;
        let now = self.now_ms();
        let expires_ms = now + CODE_MS;
        let code = new_code();
        let hash = secrets::token_hash(&code);
        let issued = self
            .store
            .issue_code(player.id, hash, asked_by, now, expires_ms, MAX_LIVE_CODES)
            .await;
        match issued {
            Ok(()) => {}
            Err(StoreError::TooManyCodes(n)) => {
                return Err(ServiceError::Conflict(format!(
                    "{n} codes are waiting to be used already: use one, or wait ten \
                     minutes for them to expire"
                )));
            }
            Err(StoreError::Banned) => return Err(banned()),
            Err(e) => return Err(e.into()),
        }
        let link = format!("{}/?device={code}", self.config.public_url);
        Ok(api::DeviceCode {
            qr: qr_rows(&link),
            code,
            link,
            expires_ms,
        })
    }

    /// Claims a code typed on a new device, from the client at `ip`: `device` becomes the
    /// code's player, who is answered. A code that can't be one, is unknown, used or
    /// expired is told the same, so that a guess learns nothing.
    pub(crate) async fn claim_device(
        &self,
        typed: &str,
        device: NewDevice,
        ip: Option<IpAddr>,
    ) -> Result<Player, ServiceError> {
        if let Some(ip) = ip {
            self.claim_limit
                .take(&client::bucket(ip), Instant::now())
                .map_err(ServiceError::RateLimited)?;
        }
        let no_such = || {
            ServiceError::NotFound(
                "no such code, or it was used, or it expired: codes last ten minutes and \
                 work once; ask your linked device for a new one"
                    .into(),
            )
        };
        let code = api::read_code(typed).ok_or_else(no_such)?;
        let hash = secrets::token_hash(&code);
        match self.store.claim_code(hash, self.now_ms(), device).await {
            Ok(player) => Ok(player),
            // A banned player's code is told as any other wrong one: a guess that found
            // one learns nothing (a ban deletes them; this is one shown since).
            Err(StoreError::NoSuchCode | StoreError::Banned) => Err(no_such()),
            Err(e) => Err(e.into()),
        }
    }

    /// Claims a code for a new browser or terminal game called `name`: its player, with
    /// the new device's token, said this once.
    pub(crate) async fn claim_token(
        &self,
        typed: &str,
        name: Option<&str>,
        ip: Option<IpAddr>,
    ) -> Result<typepper_api::Player, ServiceError> {
        let token = secrets::token();
        let device = NewDevice::Token {
            hash: secrets::token_hash(&token),
            name: api::device_name(name),
        };
        let player = self.claim_device(typed, device, ip).await?;
        Ok(typepper_api::Player {
            name: player.name,
            token,
        })
    }

    /// `player`'s devices, `asker` marked as the one that asked.
    pub(crate) async fn devices(
        &self,
        player: &Player,
        asker: &Asker,
    ) -> Result<api::Devices, ServiceError> {
        let rows = self.store.devices(player.id).await?;
        let devices = rows
            .into_iter()
            .map(|d| {
                let this = match asker {
                    Asker::Token(hash) => d.token_hash.as_ref() == Some(hash),
                    Asker::Key(fingerprint) => d.token_hash.is_none() && d.id == *fingerprint,
                };
                api::Device {
                    kind: if d.token_hash.is_some() {
                        "token"
                    } else {
                        "key"
                    }
                    .into(),
                    added: typepper_api::Utc::of(d.created_ms).rfc3339(),
                    id: d.id,
                    name: d.name,
                    this,
                }
            })
            .collect();
        Ok(api::Devices {
            name: player.name.clone(),
            devices,
        })
    }

    /// Takes the device `id` from `player`: its token or key stops working at once.
    pub(crate) async fn remove_device(
        &self,
        player: &Player,
        id: &str,
    ) -> Result<(), ServiceError> {
        let removed = self
            .store
            .remove_device(player.id, id.to_owned(), self.now_ms())
            .await;
        let removed = match removed {
            Err(StoreError::LastDevice) => {
                return Err(ServiceError::Conflict(format!(
                    "{id} is {}'s last device: removing it would lock the account for good; \
                     delete the account instead (DELETE /v1/players/me)",
                    player.name
                )));
            }
            removed => removed?,
        };
        match removed {
            true => Ok(()),
            false => Err(ServiceError::NotFound(format!(
                "{} has no device {id:?}: GET /v1/devices lists them",
                player.name
            ))),
        }
    }
}

/// What a banned player's code, or a code for one, is told.
fn banned() -> ServiceError {
    ServiceError::Forbidden("that player was banned: no device can be added to them".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_eight_of_the_alphabet_and_read_back() {
        for _ in 0..200 {
            let code = new_code();
            assert_eq!(api::read_code(&code).as_deref(), Some(code.as_str()));
        }
        assert_ne!(new_code(), new_code());
    }

    /// docs/TRUST.md's sum: an address's tries in a code's ten minutes (its burst, then
    /// the hourly rate) against 10,000 players each holding every code they may.
    #[test]
    fn a_code_is_too_rare_to_guess_in_its_lifetime() {
        let space = (CODE_ALPHABET.len() as f64).powi(CODE_LEN as i32);
        let tries = f64::from(CLAIMS_PER_HOUR / 3)
            + f64::from(CLAIMS_PER_HOUR) * (CODE_MS as f64 / 3_600_000.0);
        let live = 10_000.0 * f64::from(MAX_LIVE_CODES);
        assert_eq!(tries, 15.0);
        assert!(tries * live / space < 1e-6, "{}", tries * live / space);
    }

    #[test]
    fn a_link_s_qr_code_is_square() {
        let rows = qr_rows("https://typepper.example/?device=K3FQ7M2X");
        assert!(rows.len() >= 21 && rows.iter().all(|r| r.len() == rows.len()));
        // A finder pattern's top row in the corner: seven dark modules.
        assert!(rows[0].starts_with("1111111"));
    }
}
