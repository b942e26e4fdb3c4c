//! The whole game over SSH: `ssh -p 2222 host` with a terminal plays typepper with
//! nothing installed. The game is the terminal game's own ([`typepper_term::game`]),
//! drawn by the same code as the `typepper` binary; this module is only its shell:
//!
//! - **Keys** are the client's bytes, read as the local game reads its terminal's events
//!   ([`Input`]); its window size comes from the pty request and each window change.
//! - **Frames** are drawn into memory ([`Screen`]) and go out on the channel, one at a
//!   time: the next frame is drawn only once the last one has gone into the client's
//!   window. A client that stops reading holds one frame and its window, no more; the
//!   frames it missed are skipped, and the latest screen is drawn when it reads again.
//! - **Requests** (a submission, a seed, a board, a run, a link, a room) are calls on the
//!   service in-process, typed (`ask`): the same calls the `v1` commands make, logged and
//!   counted as the commands they stand for. A player here is their key, as for `v1`.
//! - **What the game keeps** (history, last round, drill, outbox) is kept per player in
//!   the database ([`Store::save`](crate::store::Store::save)) for a key linked to one. A
//!   guest (no key) keeps nothing: their game is in memory until they leave.
//!
//! Sessions are limited per address and in all ([`Games`]), ended after a time with no
//! key and at a most time, and closed with a line saying why on server shutdown. A
//! round in progress then is dropped, never submitted half-typed.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::http::StatusCode;

use crossterm::event::Event;
use ratatui::Terminal;
use russh::ChannelWriteHalf;
use russh::server::Msg;
use tokio::sync::{mpsc, watch};
use typepper_api::room::{Ask, Say};
use typepper_game::app::App;
use typepper_game::request::{Answer, Failure, Request};
use typepper_game::storage::{self, Stored};
use typepper_term::game::{self, Flow, Game, Host};
use typepper_term::net::Arrival;
use typepper_term::render::{Depth, Palette};
use typepper_term::stream::{self, Input, Screen};

use super::exec;
use crate::Shared;
use crate::limit::{Allowance, Full, Held, Hold};
use crate::players::{LinkKey, Linked};
use crate::service::ServiceError;
use crate::store::PlayerId;

/// What a game hears from its channel: the client's keys, and its window's size, the
/// latest of which is the one that counts (a flood of resizes is never queued).
pub(crate) struct Feed {
    keys: mpsc::Sender<Vec<u8>>,
    pub size: watch::Sender<(u32, u32)>,
    /// The input bytes it may still take: see [`BYTES_PER_SECOND`].
    bytes: Allowance,
}

impl Feed {
    /// A feed for a game on a terminal of `pty`'s size, and its game's ends of it.
    pub(crate) fn new(pty: &Pty) -> (Feed, mpsc::Receiver<Vec<u8>>, watch::Receiver<(u32, u32)>) {
        let (keys, keys_rx) = mpsc::channel(INPUT_QUEUE);
        let (size, size_rx) = watch::channel((pty.cols, pty.rows));
        let bytes = Allowance::new(BYTES_PER_SECOND, BYTE_BURST, std::time::Instant::now());
        (Feed { keys, size, bytes }, keys_rx, size_rx)
    }

    /// The client's bytes, for the game: dropped unread past the game's allowance, or
    /// while its queue is full.
    pub(crate) fn input(&mut self, data: &[u8]) {
        if self
            .bytes
            .take(data.len() as f64, std::time::Instant::now())
        {
            let _ = self.keys.try_send(data.to_vec());
        }
    }
}

/// Input chunks a game holds unread; past it, more are dropped (a person types a few a
/// second: this is a client flooding).
pub(crate) const INPUT_QUEUE: usize = 64;

/// Input bytes a game takes a second, in bursts of [`BYTE_BURST`]: a person's keys are a
/// few bytes each, and a paste a few KiB. Past it a chunk is dropped before it is read,
/// so a flood costs the server neither memory nor the work of reading it.
pub(crate) const BYTES_PER_SECOND: f64 = 16.0 * 1024.0;
/// See [`BYTES_PER_SECOND`].
pub(crate) const BYTE_BURST: f64 = 64.0 * 1024.0;

/// Keys a game takes a second, in bursts of [`KEY_BURST`] (a paste counts a key a
/// character): a person types under 20 a second, and a held key repeats about 30 times.
/// Past it a key is dropped; ctrl-c always gets through.
pub(crate) const KEYS_PER_SECOND: f64 = 60.0;
/// See [`KEYS_PER_SECOND`].
pub(crate) const KEY_BURST: f64 = 600.0;

/// How long a game that ended has to say its last line to a client that stopped reading;
/// its seat is free already.
const FAREWELL: Duration = Duration::from_secs(5);

/// What one input event costs of a game's [`KEYS_PER_SECOND`]: nothing for ctrl-c, which
/// always leaves, nor for what no key made (a resize, focus); a paste a key a character,
/// but one key on the custom text screen (`whole`), which takes it as one text, not as
/// typing (the bytes' allowance bounds its size).
fn cost(event: &Event, whole: bool) -> f64 {
    use crossterm::event::{KeyCode, KeyModifiers};
    match event {
        Event::Key(key)
            if key.code == KeyCode::Char('c') && key.modifiers.contains(KeyModifiers::CONTROL) =>
        {
            0.0
        }
        Event::Key(_) => 1.0,
        Event::Paste(_) if whole => 1.0,
        Event::Paste(text) => text.chars().count() as f64,
        _ => 0.0,
    }
}

/// The games being played, per address and in all, and the signal that ends them.
pub(crate) struct Games {
    playing: Arc<Held<IpAddr>>,
    /// Set once the server is shutting down.
    closing: watch::Sender<bool>,
}

/// A game's place at [`Games`], given back when dropped.
pub(crate) type GameSeat = Hold<IpAddr>;

impl Games {
    pub(crate) fn new(per_ip: usize, all: usize) -> Games {
        Games {
            playing: Arc::new(Held::new(per_ip, all)),
            closing: watch::Sender::new(false),
        }
    }

    /// A seat for a game from `ip`, or why there is none.
    pub(crate) fn sit(&self, ip: IpAddr) -> Result<GameSeat, String> {
        self.playing
            .hold(crate::client::bucket(ip))
            .map_err(|full| match full {
                Full::All(all) => format!(
                    "the server is full: {all} games are being played; try again in a few minutes"
                ),
                Full::Key(mine) => {
                    format!("your address has {mine} games open already: close one and try again")
                }
            })
    }

    /// Ends every game, each with a line saying why.
    pub(crate) fn close_all(&self) {
        self.closing.send_replace(true);
    }

    /// Games being played now.
    pub(crate) fn playing(&self) -> usize {
        self.playing.len()
    }
}

/// The client's terminal, as its pty request and environment said.
#[derive(Clone, Debug, Default)]
pub(crate) struct Pty {
    /// `TERM`.
    pub term: String,
    pub cols: u32,
    pub rows: u32,
    /// `COLORTERM`, `NO_COLOR`, `TZ`, if the client sent them.
    pub env: Vec<(String, String)>,
}

impl Pty {
    /// The variables the game reads, and only those, from a client's env request.
    pub(crate) fn set_env(&mut self, name: &str, value: &str) {
        if ["COLORTERM", "NO_COLOR", "TZ"].contains(&name) && value.len() <= 64 {
            self.env.retain(|(n, _)| n != name);
            self.env.push((name.to_owned(), value.to_owned()));
        }
    }

    fn var(&self, name: &str) -> Option<String> {
        if name == "TERM" {
            return Some(self.term.clone());
        }
        self.env
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
    }
}

/// Everything one game needs.
pub(crate) struct Setup {
    pub state: Arc<Shared>,
    pub peer: SocketAddr,
    /// The fingerprint of the client's key; `None` for a guest.
    pub key: Option<String>,
    pub pty: Pty,
    /// A live room to join at once (`ssh -t host race <code>`).
    pub room: Option<String>,
    /// The client's keys; closed when its input ends.
    pub keys: mpsc::Receiver<Vec<u8>>,
    /// The client's window's size.
    pub size: watch::Receiver<(u32, u32)>,
    pub out: ChannelWriteHalf<Msg>,
    pub seat: GameSeat,
    pub games: Arc<Games>,
    /// When the game must end at the latest (its connection's lifetime, say).
    pub ends_by: tokio::time::Instant,
}

/// Why a game ended, for the line the client is left with.
enum End {
    Quit,
    Gone,
    Idle(u64),
    Lifetime,
    Shutdown,
}

impl End {
    fn line(&self) -> Option<String> {
        Some(match self {
            End::Quit | End::Gone => return None,
            End::Idle(secs) => {
                let time = crate::limit::spell(Duration::from_secs(*secs));
                format!("typepper: closed after {time} without a key; connect again to play")
            }
            End::Lifetime => {
                "typepper: this game reached its most time; connect again to play on".into()
            }
            End::Shutdown => "typepper: the server is restarting, so your game was closed \
                              (a round in progress was not submitted); connect again in a moment"
                .into(),
        })
    }
}

/// Plays a game on the channel until the player leaves, the client goes, a limit is
/// reached or the server shuts down; then the client's terminal is put back, the reason
/// said, and the channel closed with exit status 0 (the player left) or 1.
pub(crate) async fn play(setup: Setup) {
    let Setup {
        state,
        peer,
        key,
        pty,
        room,
        mut keys,
        mut size,
        out,
        seat,
        games,
        ends_by,
    } = setup;
    let limits = state.config.ssh.clone();
    let player = match &key {
        Some(key) => state.store.player_by_key(key.clone()).await.ok().flatten(),
        None => None,
    };
    let mut stored = Stored::default();
    if let Some(player) = &player {
        match state.store.saves(player.id).await {
            Ok(saves) => stored = stored_of(saves),
            Err(e) => tracing::warn!("reading {}'s saves: {e}", player.name),
        }
        stored.player = Some(player.name.clone());
    }
    let (answers_tx, mut answers) = mpsc::unbounded_channel();
    let keeper = key
        .clone()
        .map(|key| Keeper::start(state.clone(), key, player.as_ref().map(|p| p.id)));
    let host = Remote {
        state: state.clone(),
        peer,
        key: key.clone(),
        answers: answers_tx,
        keeper,
        room: None,
    };
    let game_url = Some(format!(
        "{}/",
        state.config.public_url.trim_end_matches('/')
    ));
    let (mut app, boot) = App::new(game::entropy(peer.port().into()), &stored, game_url);
    if key.is_none() {
        app.cannot_keep(
            "you came without an SSH key, so you play as a guest and nothing is ranked",
        );
        app.cannot_link("a guest: to link, connect again with an SSH key (ssh-keygen -t ed25519)");
    } else if player.is_none() {
        app.ask_to_link();
    }
    // A player's history is kept with the player (it waits for a new key to be linked).
    app.keeps_on("on the server");
    let palette = Palette::new(Depth::from_env(|k| pty.var(k)));
    let zone = Box::new(zone_of(pty.var("TZ")));
    let mut game = Game::new(app, boot, host, palette, zone);
    if let Some(code) = room {
        game.with_app(|app, _| app.join_room(&code));
    }

    let mut terminal = match Terminal::new(Screen::new(stream::clamp(pty.cols, pty.rows))) {
        Ok(terminal) => terminal,
        Err(e) => return tracing::warn!("an SSH game's screen failed: {e}"),
    };
    terminal.backend_mut().write(stream::OPEN);
    // One frame in flight: the writer takes the next only once the last is in the
    // client's window.
    let (frames, mut to_write) = mpsc::channel::<Vec<u8>>(1);
    let writer = tokio::spawn(async move {
        while let Some(bytes) = to_write.recv().await {
            if out.data(&bytes[..]).await.is_err() {
                break;
            }
        }
        out
    });
    let mut input = Input::default();
    let mut allowance = Allowance::new(KEYS_PER_SECOND, KEY_BURST, std::time::Instant::now());
    let mut closing = games.closing.subscribe();
    let idle = Duration::from_secs(limits.game_idle_secs.max(1));
    let ends_by =
        ends_by.min(tokio::time::Instant::now() + Duration::from_secs(limits.game_max_secs.max(1)));
    let mut last_key = tokio::time::Instant::now();
    let end = loop {
        tokio::select! {
            biased;
            _ = closing.wait_for(|c| *c) => break End::Shutdown,
            bytes = keys.recv() => {
                let Some(bytes) = bytes else { break End::Gone };
                last_key = tokio::time::Instant::now();
                let now = std::time::Instant::now();
                let mut events = input.feed(&bytes).into_iter();
                // Keys past the allowance are dropped, a flood's with them.
                if events.any(|e| {
                    allowance.take(cost(&e, game.takes_text()), now) && game.event(e) == Flow::Quit
                }) {
                    break End::Quit;
                }
            }
            Ok(()) = size.changed() => {
                let (cols, rows) = *size.borrow_and_update();
                terminal.backend_mut().resize(stream::clamp(cols, rows));
                game.event(Event::Resize(0, 0));
            }
            Some(answer) = answers.recv() => game.answer(answer),
            () = tokio::time::sleep(game.wait()) => {}
            () = tokio::time::sleep_until(last_key + idle) => break End::Idle(idle.as_secs()),
            () = tokio::time::sleep_until(ends_by) => break End::Lifetime,
        }
        game.tick();
        // The writer is still sending the last frame: this one is skipped, and the
        // screen drawn once it is free.
        let Ok(permit) = frames.try_reserve() else {
            continue;
        };
        if let Err(e) = game.draw(&mut terminal) {
            tracing::warn!("an SSH game's frame failed: {e}");
            break End::Gone;
        }
        for text in game.take_writes() {
            terminal.backend_mut().write(text.as_bytes());
        }
        let bytes = terminal.backend_mut().take();
        if !bytes.is_empty() {
            permit.send(bytes);
        }
    };
    drop(game);
    // The game is over: its seat is free now, whatever its client does next. (A client
    // that stopped reading can hold the writer for ever: russh waits for a window that a
    // dead session never grants.)
    drop(seat);
    let mut last = stream::CLOSE.to_vec();
    if let Some(line) = end.line() {
        last.extend_from_slice(line.as_bytes());
        last.extend_from_slice(b"\r\n");
    }
    let status = if matches!(end, End::Quit) { 0 } else { 1 };
    // The last frame and line go out within a moment, or not at all; either way the
    // writer and the channel go with this task.
    let stop = writer.abort_handle();
    let farewell = async move {
        let _ = frames.send(last).await;
        drop(frames);
        if let Ok(out) = writer.await {
            let _ = out.exit_status(status).await;
            let _ = out.eof().await;
            let _ = out.close().await;
        }
    };
    if tokio::time::timeout(FAREWELL, farewell).await.is_err() {
        stop.abort();
    }
}

/// A time zone from a client's `TZ`, or UTC.
fn zone_of(tz: Option<String>) -> typepper_term::LocalZone {
    typepper_term::LocalZone::named(tz.as_deref())
}

/// The game's stored entries from a player's rows.
fn stored_of(saves: Vec<(String, String)>) -> Stored {
    let mut stored = Stored::default();
    for (key, value) in saves {
        match key.as_str() {
            storage::HISTORY => stored.history = value,
            storage::DRILL => stored.drill = Some(value),
            storage::LIVE => stored.live = Some(value),
            storage::ROOM => stored.room = Some(value),
            storage::MENU => stored.menu = Some(value),
            storage::SETTINGS => stored.settings = Some(value),
            storage::TEXT => stored.text = Some(value),
            k if k.starts_with(storage::OUTBOX) => stored.outbox.push((key, value)),
            // `last.replay` is for `--replay`; the player is who the key says.
            _ => {}
        }
    }
    stored
}

/// The longest entry kept for a player: 50 rounds of history, each a long ZEN round.
const MAX_SAVE: usize = 4 << 20;

/// Writes a player's entries to the database, in the order the game made them, from a
/// task of its own: the game never waits for the database. Until the key is linked they
/// are held here, and written once it is.
struct Keeper {
    tx: mpsc::UnboundedSender<Keep>,
}

enum Keep {
    Save(String, Option<String>),
    /// The key was linked: from now on, entries are the player's.
    Linked,
}

impl Keeper {
    /// A keeper for the key `key`, linked to `player` if it is.
    fn start(state: Arc<Shared>, key: String, player: Option<PlayerId>) -> Keeper {
        let (tx, mut rx) = mpsc::unbounded_channel::<Keep>();
        tokio::spawn(async move {
            let mut player = player;
            // Entries not written yet: the last of each key, in order.
            let mut held: Vec<(String, Option<String>)> = vec![];
            while let Some(keep) = rx.recv().await {
                match keep {
                    Keep::Save(key, value) => {
                        held.retain(|(k, _)| *k != key);
                        held.push((key, value));
                    }
                    Keep::Linked if player.is_none() => {
                        let linked = state.store.player_by_key(key.clone()).await;
                        player = linked.ok().flatten().map(|p| p.id);
                    }
                    Keep::Linked => {}
                }
                let Some(id) = player else { continue };
                for (key, value) in held.drain(..) {
                    let now = (state.clock)();
                    if let Err(e) = state.store.save(id, key.clone(), value, now).await {
                        tracing::warn!("keeping {key} for player {id}: {e}");
                    }
                }
            }
        });
        Keeper { tx }
    }
}

/// The game's host on the server: requests run in-process, entries kept in the database.
struct Remote {
    state: Arc<Shared>,
    peer: SocketAddr,
    key: Option<String>,
    answers: mpsc::UnboundedSender<Arrival>,
    /// A key's entries; a guest keeps none.
    keeper: Option<Keeper>,
    /// The live room's messages, while in one.
    room: Option<mpsc::Sender<crate::rooms::Wire>>,
}

impl Host for Remote {
    fn save(&mut self, key: &str, value: &str) -> Result<(), String> {
        let Some(keeper) = &self.keeper else {
            return Ok(());
        };
        if key == storage::PLAYER {
            let _ = keeper.tx.send(Keep::Linked);
            return Ok(());
        }
        if value.len() > MAX_SAVE {
            return Err(format!("{key} is over {MAX_SAVE} bytes and was not kept"));
        }
        let _ = keeper
            .tx
            .send(Keep::Save(key.to_owned(), Some(value.to_owned())));
        Ok(())
    }

    fn remove(&mut self, key: &str) -> Result<(), String> {
        if let Some(keeper) = &self.keeper {
            let _ = keeper.tx.send(Keep::Save(key.to_owned(), None));
        }
        Ok(())
    }

    fn log(&mut self, message: &str) {
        tracing::debug!("an SSH game from {}: {message}", self.peer);
    }

    fn send(&mut self, request: Request) -> Option<Answer> {
        let (state, peer, key, answers) = (
            self.state.clone(),
            self.peer,
            self.key.clone(),
            self.answers.clone(),
        );
        tokio::spawn(async move {
            let answer = ask(&state, peer.ip(), key, request).await;
            let _ = answers.send(Arrival::answer(answer));
        });
        None
    }

    fn join(&mut self, code: &str, conn: u64) -> Result<(), String> {
        let (wire, inbound) = mpsc::channel(crate::rooms::OUTBOX);
        let (out, mut outbound) =
            mpsc::channel::<axum::extract::ws::Utf8Bytes>(crate::rooms::OUTBOX);
        self.room = Some(wire);
        let (state, key, answers, ip) = (
            self.state.clone(),
            self.key.clone(),
            self.answers.clone(),
            self.peer.ip(),
        );
        let code = code.to_owned();
        tokio::spawn(async move {
            let reader = {
                let answers = answers.clone();
                tokio::spawn(async move {
                    while let Some(text) = outbound.recv().await {
                        let say = serde_json::from_str(text.as_str()).unwrap_or_else(|e| {
                            Say::Refused(format!(
                                "the room said something the game can't read ({e})"
                            ))
                        });
                        let heard = Arrival {
                            room: Some(conn),
                            answer: Answer::RoomSaid(say),
                        };
                        if answers.send(heard).is_err() {
                            return;
                        }
                    }
                })
            };
            let joined = crate::rooms::join_over_ssh(state, &code, key, ip, inbound, out).await;
            let _ = reader.await;
            let why = joined.map_or_else(|e| e.to_string(), |()| "the room closed".into());
            let _ = answers.send(Arrival {
                room: Some(conn),
                answer: Answer::RoomClosed(why),
            });
        });
        Ok(())
    }

    fn say(&mut self, ask: &Ask) {
        if let (Some(wire), Ok(text)) = (&self.room, serde_json::to_string(ask)) {
            // A room that takes no more has let this player go, and says so.
            let _ = wire.try_send(crate::rooms::Wire::Text(text));
        }
    }

    fn leave(&mut self) {
        self.room = None;
    }
}

/// Carries out the game's `request` on the service, as its player (`key`; a guest has
/// none) at `ip`: typed, as the `v1` commands are, with no command line, router or JSON
/// between. Paid from the client's allowance, within the request's time (a submission is
/// not cut off once stored), and logged and counted as the request it stands for.
async fn ask(state: &Arc<Shared>, ip: IpAddr, key: Option<String>, request: Request) -> Answer {
    let started = Instant::now();
    // A word list is the build's own: answered here, neither paid for nor counted.
    let Some(command) = exec::Command::of(&request) else {
        let missing = Failure::CantAsk("no such request".into());
        return request
            .answered_here()
            .unwrap_or_else(|| request.failed(missing));
    };
    let stands_for = exec::stands_for(&command);
    let budget = Duration::from_secs(state.config.request_timeout_secs);
    let key = key.as_deref();
    let (answer, counted) = match request {
        // What `v1 link` refuses from its words alone, before the service is asked (and
        // so neither paid for nor counted).
        Request::Link(_) if key.is_none() => {
            let why = "no key: connect with a public key to link it";
            return Answer::Linked(Err(Failure::Refused(why.into())));
        }
        // The game's own `settings` entry, which the keeper writes to the same row with
        // its other entries (`Host::save`): kept already, not written twice.
        Request::SaveSettings { .. } => return Answer::SettingsSaved(Ok(())),
        Request::Submit { body, keys, .. } => {
            let answer = async {
                state.take_request(ip)?;
                if body.len() > crate::MAX_BODY {
                    return Err(ServiceError::TooLarge(crate::MAX_BODY));
                }
                let player = exec::player(state, key).await?;
                state.submit(player.id, body.into(), started).await
            }
            .await;
            let (answer, counted) = within(Ok(answer), StatusCode::OK);
            (Answer::Submitted { answer, keys }, counted)
        }
        Request::Link(name) => {
            let linked = tokio::time::timeout(budget, async {
                state.take_request(ip)?;
                let key = key.unwrap_or_default().to_owned();
                let ask = LinkKey { name, token: None };
                state.link_key(key, ask, Some(ip)).await
            })
            .await;
            // A key linked already stays its player's: answered, not created.
            let created = matches!(linked, Ok(Ok(Linked::Now(_))));
            let ok = if created {
                StatusCode::CREATED
            } else {
                StatusCode::OK
            };
            let linked = linked.map(|linked| {
                linked.map(|linked| match linked {
                    Linked::Now(player) => player,
                    Linked::Already(name) => typepper_api::Player {
                        name,
                        token: String::new(),
                    },
                })
            });
            let (linked, counted) = within(linked, ok);
            (Answer::Linked(linked), counted)
        }
        Request::Board(mode, period) => {
            let board = tokio::time::timeout(budget, async {
                state.take_request(ip)?;
                Ok(state.board(&mode, Some(period.name()), None).await?.rows)
            })
            .await;
            let (rows, counted) = within(board, StatusCode::OK);
            (Answer::Board { mode, period, rows }, counted)
        }
        Request::Run(id) => {
            let run = tokio::time::timeout(budget, async {
                state.take_request(ip)?;
                Ok(state.watchable(&id).await?.played.replay.clone())
            })
            .await;
            let (bytes, counted) = within(run, StatusCode::OK);
            (Answer::Run { id, bytes }, counted)
        }
        Request::Seed { mode, .. } => {
            let seed = tokio::time::timeout(budget, async {
                state.take_request(ip)?;
                let player = exec::player(state, key).await?;
                state.issue_seed(player.id, &mode).await
            })
            .await;
            let (answer, counted) = within(seed, StatusCode::CREATED);
            (Answer::Seed { mode, answer }, counted)
        }
        Request::OpenRoom(open) => {
            let opened = tokio::time::timeout(budget, async {
                state.take_request(ip)?;
                state.open_room(&open, ip).await
            })
            .await;
            let (opened, counted) = within(opened, StatusCode::CREATED);
            (Answer::RoomOpened(opened), counted)
        }
        Request::Claim(code) => {
            let claimed = tokio::time::timeout(budget, async {
                state.take_request(ip)?;
                let Some(key) = key else {
                    let why = "no key: connect with a public key to add it to a player";
                    return Err(ServiceError::NotFound(why.into()));
                };
                let device = crate::store::NewDevice::Key {
                    fingerprint: key.to_owned(),
                    max_keys: state.config.max_keys,
                };
                let player = state.claim_device(&code, device, Some(ip)).await?;
                // Over SSH the key is the device: no token is said.
                Ok(typepper_api::Player {
                    name: player.name,
                    token: String::new(),
                })
            })
            .await;
            let (linked, counted) = within(claimed, StatusCode::CREATED);
            (Answer::Linked(linked), counted)
        }
        Request::DeviceCode(_) => {
            let code = tokio::time::timeout(budget, async {
                state.take_request(ip)?;
                let player = exec::player(state, key).await?;
                let asker = crate::devices::Asker::Key(key.unwrap_or_default().to_owned());
                state.device_code(&player, &asker).await
            })
            .await;
            let (code, counted) = within(code, StatusCode::CREATED);
            (Answer::DeviceCode(code), counted)
        }
        Request::Devices(_) => {
            let devices = tokio::time::timeout(budget, async {
                state.take_request(ip)?;
                let player = exec::player(state, key).await?;
                let asker = crate::devices::Asker::Key(key.unwrap_or_default().to_owned());
                state.devices(&player, &asker).await
            })
            .await;
            let (devices, counted) = within(devices, StatusCode::OK);
            (Answer::Devices(devices), counted)
        }
        Request::RemoveDevice { id, .. } => {
            let removed = tokio::time::timeout(budget, async {
                state.take_request(ip)?;
                let player = exec::player(state, key).await?;
                state.remove_device(&player, &id).await
            })
            .await;
            let (done, counted) = within(removed, StatusCode::NO_CONTENT);
            (Answer::DeviceRemoved { id, done }, counted)
        }
        Request::Profile(name) => {
            let profile = tokio::time::timeout(budget, async {
                state.take_request(ip)?;
                state.profile(&name).await.map(Arc::unwrap_or_clone)
            })
            .await;
            let (profile, counted) = within(profile, StatusCode::OK);
            (Answer::Profile { name, profile }, counted)
        }
        Request::Daily { number, .. } => {
            let daily = tokio::time::timeout(budget, async {
                state.take_request(ip)?;
                let player = match key {
                    Some(key) => state.player_of_key(key).await.ok().map(|p| p.id),
                    None => None,
                };
                state.daily(number, player).await
            })
            .await;
            let (daily, counted) = within(daily, StatusCode::OK);
            (Answer::Daily { number, daily }, counted)
        }
        Request::Settings(_) => {
            let kept = tokio::time::timeout(budget, async {
                state.take_request(ip)?;
                let player = exec::player(state, key).await?;
                state.settings(&player).await
            })
            .await;
            let (kept, counted) = within(kept, StatusCode::OK);
            (Answer::Settings(kept), counted)
        }
        // Answered above, before anything was counted.
        request @ Request::File(_) => {
            return request.failed(Failure::CantAsk("no such request".into()));
        }
    };
    let (status, detail) = counted;
    exec::counted(
        state,
        stands_for,
        status,
        detail.as_deref(),
        started.elapsed(),
    );
    answer
}

/// What the game makes of a refusal: a key linked to no player must link again; the
/// rest are the service's sentences.
fn failure(refused: ServiceError) -> Failure {
    match refused {
        ServiceError::Unauthorized(why) => Failure::NotLinked(why.into()),
        other => Failure::Refused(other.to_string().trim().to_owned()),
    }
}

/// A call that had the request's time (`Err` when it ran out): its answer for the game,
/// and what it is counted with: `ok`, or its refusal's status, and a failure's detail for
/// the log. One that ran out is told as the `v1` commands tell it.
fn within<T>(
    answer: Result<Result<T, ServiceError>, tokio::time::error::Elapsed>,
    ok: StatusCode,
) -> (Result<T, Failure>, (StatusCode, Option<String>)) {
    match answer {
        Ok(Ok(answer)) => (Ok(answer), (ok, None)),
        Ok(Err(refused)) => {
            let detail = match &refused {
                ServiceError::Internal(detail) => Some(detail.clone()),
                _ => None,
            };
            let status = refused.status();
            (Err(failure(refused)), (status, detail))
        }
        Err(_) => {
            let late = StatusCode::REQUEST_TIMEOUT;
            let why = format!("the server answered {late}");
            (Err(Failure::Refused(why)), (late, None))
        }
    }
}
