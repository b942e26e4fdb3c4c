//! The terminal game's data dir: the files the browser keeps in localStorage, under the
//! same names and with the same texts (`typepper_game::storage`).
//!
//! | file | holds |
//! |---|---|
//! | `last.replay` | the last round of yours, as hex |
//! | `history` | your last 50 rounds, one line each |
//! | `outbox/<unix ms>` | a round not yet sent, as hex |
//! | `player` | `<name> <token>`, once linked |
//! | `drill` | the last drill's letters |
//! | `live` | `off` when the live stats are hidden |
//! | `menu` | the menu's picks: BLITZ's clock, WORDS' count, HOT PURSUIT's level, the text's settings (`15 25 7 /p@fr`) |
//! | `room` | the seat last held in a live room |
//! | `log` | warnings, one a line, newest last |
//!
//! Every write goes to a temporary file in the same dir first, which is then renamed over
//! the old one: a crash or a full disk leaves the old file or the new one, never half.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use typepper_game::storage::{self, Stored};

/// Where the game keeps its files.
#[derive(Clone, Debug)]
pub struct DataDir {
    root: PathBuf,
    /// Why nothing can be kept there, if it can't (a read-only dir, say): the game still
    /// reads what it can, and plays.
    unwritable: Option<String>,
}

/// The variable that puts the data dir elsewhere.
pub const DATA_DIR_VAR: &str = "TYPEPPER_DATA_DIR";

impl DataDir {
    /// `TYPEPPER_DATA_DIR`, else the platform's data dir (`$XDG_DATA_HOME/typepper`,
    /// `~/.local/share/typepper` on Linux), made if missing.
    pub fn open() -> Result<DataDir, String> {
        let root = match std::env::var_os(DATA_DIR_VAR) {
            Some(dir) if !dir.is_empty() => PathBuf::from(dir),
            _ => dirs::data_dir()
                .ok_or("no data dir on this system: set TYPEPPER_DATA_DIR")?
                .join("typepper"),
        };
        Ok(DataDir::at(root))
    }

    /// The data dir at `root`, made if missing. One that can't be made or written to is
    /// still read (see [`DataDir::unwritable`]).
    pub fn at(root: PathBuf) -> DataDir {
        let unwritable = match writable(&root) {
            Ok(()) => None,
            Err(e) => Some(format!("{} can't be written to ({e})", root.display())),
        };
        DataDir { root, unwritable }
    }

    /// Why nothing can be kept, if it can't.
    pub fn unwritable(&self) -> Option<&str> {
        self.unwritable.as_deref()
    }

    /// Its path.
    pub fn path(&self) -> &Path {
        &self.root
    }

    /// The file for a storage key (`outbox/<ms>` is a file in `outbox/`). Keys are the
    /// game's own; one that could climb out of the dir is refused.
    fn file(&self, key: &str) -> Result<PathBuf, String> {
        let safe = !key.is_empty()
            && key.split('/').all(|part| {
                !part.is_empty() && part != ".." && part != "." && !part.contains('\\')
            });
        if !safe {
            return Err(format!("{key:?} is not a file name of the game's"));
        }
        Ok(self.root.join(key))
    }

    /// What a storage key holds, if anything.
    pub fn read(&self, key: &str) -> Option<String> {
        std::fs::read_to_string(self.file(key).ok()?).ok()
    }

    /// Keeps `value` under `key`, atomically. In a dir that can't be written to, nothing
    /// is kept and nothing is said again: the player was told once.
    pub fn save(&self, key: &str, value: &str) -> Result<(), String> {
        let path = self.file(key)?;
        if self.unwritable.is_some() {
            return Ok(());
        }
        let dir = path.parent().unwrap_or(&self.root);
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("file");
        let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
        let written = std::fs::File::create(&tmp).and_then(|mut f| {
            f.write_all(value.as_bytes())?;
            f.sync_all()
        });
        let result = written.and_then(|()| std::fs::rename(&tmp, &path));
        if let Err(e) = result {
            let _ = std::fs::remove_file(&tmp);
            return Err(format!(
                "could not keep {key} in {}: {e}",
                self.root.display()
            ));
        }
        Ok(())
    }

    /// Forgets `key`.
    pub fn remove(&self, key: &str) -> Result<(), String> {
        if self.unwritable.is_some() {
            return Ok(());
        }
        match std::fs::remove_file(self.file(key)?) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(format!("could not remove {key}: {e}")),
        }
    }

    /// What the game reads at start: the history, every outbox entry, the player.
    pub fn stored(&self) -> Stored {
        let mut outbox: Vec<(String, String)> = std::fs::read_dir(self.root.join("outbox"))
            .into_iter()
            .flatten()
            .filter_map(|e| {
                let name = e.ok()?.file_name().into_string().ok()?;
                // Temporary files of a write that didn't finish are not entries.
                if name.starts_with('.') {
                    return None;
                }
                let key = format!("{}{name}", storage::OUTBOX);
                let value = self.read(&key)?;
                Some((key, value))
            })
            .collect();
        outbox.sort();
        Stored {
            history: self.read(storage::HISTORY).unwrap_or_default(),
            outbox,
            player: self.read(storage::PLAYER),
            drill: self.read(storage::DRILL),
            live: self.read(storage::LIVE),
            settings: self.read(storage::SETTINGS),
            room: self.read(storage::ROOM),
            menu: self.read(storage::MENU),
            text: self.read(storage::TEXT),
        }
    }

    /// Appends a warning to `log`.
    pub fn log(&self, line: &str) {
        if self.unwritable.is_some() {
            return;
        }
        let appended = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.root.join("log"))
            .and_then(|mut f| writeln!(f, "{line}"));
        // With no log there is nowhere left to say it; the game goes on.
        let _ = appended;
    }
}

/// Whether the dir at `root` (made if missing, with its `outbox`) takes a file.
fn writable(root: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(root.join("outbox"))?;
    // Made and gone at once: a dir can exist and still refuse files (read-only).
    let probe = root.join(format!(".probe.{}", std::process::id()));
    std::fs::File::create(&probe)?;
    std::fs::remove_file(&probe)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> DataDir {
        let dir = std::env::temp_dir().join(format!("typepper-data-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        DataDir::at(dir)
    }

    #[test]
    fn keys_are_files_and_writes_leave_no_temporary_behind() {
        let data = temp("keys");
        data.save("history", "1 2 3 -\n").unwrap();
        data.save("outbox/20", "5450").unwrap();
        data.save("outbox/10", "5451").unwrap();
        data.save("player", "ada 0af3").unwrap();
        data.save("history", "replaced\n").unwrap();
        let stored = data.stored();
        assert_eq!(stored.history, "replaced\n");
        assert_eq!(
            stored.outbox,
            [
                ("outbox/10".to_owned(), "5451".to_owned()),
                ("outbox/20".to_owned(), "5450".to_owned())
            ]
        );
        assert_eq!(stored.player.as_deref(), Some("ada 0af3"));
        data.remove("outbox/10").unwrap();
        data.remove("outbox/10").unwrap();
        assert_eq!(data.stored().outbox.len(), 1);
        let names: Vec<String> = std::fs::read_dir(data.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert!(names.iter().all(|n| !n.ends_with(".tmp")), "{names:?}");
        std::fs::remove_dir_all(data.path()).unwrap();
    }

    #[test]
    fn a_key_cannot_leave_the_dir() {
        let data = temp("escape");
        for key in ["../x", "outbox/../../x", "", "/etc/passwd", "a//b", "."] {
            assert!(data.save(key, "x").is_err(), "{key:?}");
        }
        std::fs::remove_dir_all(data.path()).unwrap();
    }
}
