//! One player on many devices: the one-time code a linked device shows, and the list of a
//! player's devices (docs/spec/players.md, "Devices").

/// The characters a code is drawn from: digits and capitals without the look-alikes
/// (`0` `O`, `1` `I` `L`), 31 of them.
pub const CODE_ALPHABET: &[u8; 31] = b"23456789ABCDEFGHJKMNPQRSTUVWXYZ";

/// How many characters a code has: 31⁸, about 8.5 × 10¹¹ codes.
pub const CODE_LEN: usize = 8;

/// How long a code may be used, from when it was shown: ten minutes.
pub const CODE_MS: i64 = 10 * 60 * 1000;

/// A code as a person may type it (`k3fq 7m2x`, `K3FQ-7M2X`) as the server keeps it:
/// upper case, without spaces or dashes; `None` if it can't be one.
pub fn read_code(typed: &str) -> Option<String> {
    let code: String = typed
        .chars()
        .filter(|c| !matches!(c, ' ' | '-'))
        .map(|c| c.to_ascii_uppercase())
        .collect();
    let ok = code.len() == CODE_LEN && code.bytes().all(|b| CODE_ALPHABET.contains(&b));
    ok.then_some(code)
}

/// `POST /v1/devices/code`'s answer: a code another device enters (or opens `link`) to
/// become the same player.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DeviceCode {
    /// [`CODE_LEN`] characters of [`CODE_ALPHABET`].
    pub code: String,
    /// The game's address with the code: `https://typepper.com/?device=K3FQ7M2X`.
    pub link: String,
    /// When it stops working, Unix milliseconds.
    pub expires_ms: i64,
    /// `link` as a QR code, a row of modules a string, `1` dark and `0` light, without
    /// the quiet zone (four light modules round it, which whoever draws it adds).
    pub qr: Vec<String>,
}

/// The body of `POST /v1/devices/claim`: the code, and what to call this device.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Claim {
    /// The code, as typed ([`read_code`] reads it).
    pub code: String,
    /// What its player will see this device as: `Firefox on Linux`.
    #[serde(default)]
    pub device: Option<String>,
}

/// One of a player's devices, in `GET /v1/devices`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Device {
    /// What `DELETE /v1/devices/<id>` takes: `web-12` for a browser or a terminal game's
    /// token, the key's fingerprint (`SHA256:…`) for an SSH key.
    pub id: String,
    /// `token` or `key`.
    pub kind: String,
    /// What it is called: the name it was given, or the key's type and fingerprint.
    pub name: String,
    /// When it was added, RFC 3339 in UTC.
    pub added: String,
    /// Whether it is the device that asked.
    pub this: bool,
}

/// `GET /v1/devices`: a player's devices, the oldest first.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Devices {
    /// The player's name.
    pub name: String,
    /// Every device that is the player now.
    pub devices: Vec<Device>,
}

/// What a device is called when it doesn't say (`device` left out) and its `User-Agent`
/// names no browser.
pub const UNNAMED: &str = "a device";

/// What a browser is called by its `User-Agent`: `Firefox on Linux`, `Chrome on
/// Android`; `None` for one that names no browser or system known here.
pub fn named_by(user_agent: &str) -> Option<String> {
    let first = |names: &[(&str, &'static str)]| {
        (names.iter())
            .find(|(mark, _)| user_agent.contains(mark))
            .map(|&(_, name)| name)
    };
    // Edge and Opera say Chrome too, and Chrome says Safari: the rarer first.
    let browser = first(&[
        ("Firefox/", "Firefox"),
        ("Edg/", "Edge"),
        ("OPR/", "Opera"),
        ("Chrome/", "Chrome"),
        ("Safari/", "Safari"),
    ]);
    // Android says Linux, and an iPhone Mac OS: likewise.
    let os = first(&[
        ("Android", "Android"),
        ("iPhone", "iPhone"),
        ("iPad", "iPad"),
        ("Windows", "Windows"),
        ("CrOS", "ChromeOS"),
        ("Mac OS", "macOS"),
        ("Linux", "Linux"),
    ]);
    match (browser, os) {
        (Some(b), Some(o)) => Some(format!("{b} on {o}")),
        (Some(name), None) | (None, Some(name)) => Some(name.into()),
        (None, None) => None,
    }
}

/// A device's name as given: trimmed, control characters out, at most 40 characters;
/// [`UNNAMED`] for nothing.
pub fn device_name(given: Option<&str>) -> String {
    let name: String = given
        .unwrap_or_default()
        .chars()
        .filter(|c| !c.is_control())
        .take(40)
        .collect();
    match name.trim() {
        "" => UNNAMED.into(),
        name => name.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_reads_as_typed_and_nothing_else_does() {
        assert_eq!(read_code("k3fq 7m2x").as_deref(), Some("K3FQ7M2X"));
        assert_eq!(read_code("K3FQ-7M2X").as_deref(), Some("K3FQ7M2X"));
        for not in [
            "",
            "K3FQ7M2",
            "K3FQ7M2XY",
            "K3FQ7M2O",
            "K3FQ7M21",
            "K3FQ7M2I",
            "é3FQ7M2X",
        ] {
            assert_eq!(read_code(not), None, "{not:?}");
        }
        assert!(!CODE_ALPHABET.iter().any(|b| b"01OIL".contains(b)));
    }

    #[test]
    fn a_browser_is_named_by_its_user_agent() {
        for (agent, name) in [
            (
                "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
                Some("Firefox on Linux"),
            ),
            (
                "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) \
                 Chrome/131.0.0.0 Mobile Safari/537.36",
                Some("Chrome on Android"),
            ),
            (
                "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 \
                 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
                Some("Safari on iPhone"),
            ),
            (
                "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like \
                 Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
                Some("Edge on Windows"),
            ),
            ("curl/8.5.0", None),
        ] {
            assert_eq!(named_by(agent).as_deref(), name, "{agent}");
        }
    }

    #[test]
    fn a_device_s_name_is_kept_short_and_printable() {
        assert_eq!(device_name(None), UNNAMED);
        assert_eq!(device_name(Some("  \n ")), UNNAMED);
        assert_eq!(
            device_name(Some(" Firefox\u{7} on Linux ")),
            "Firefox on Linux"
        );
        assert_eq!(device_name(Some(&"x".repeat(99))).len(), 40);
    }
}
