//! A live room on screen: opening and joining it, the server's messages, keys and
//! ticks there, as effects like every other network call (the room's state is
//! [`crate::room`]).

use core::fmt::Write as _;
use typepper_api::room::{Ask, Opened, Phase, ROOM_TEXT_CHARS, Say, State, is_code};

use typepper_engine::said::quoted;
use typepper_engine::{Decimal, Mode, Op};

use crate::app::{App, Effect, Key, Now, RESULTS_HOLD_MS, Screen, delete_word, ms_since, type_key};
use crate::model::Room;
use crate::model::RoomRow;
use crate::model::{BACK, Body, END, Ghost, Kind, LEAVE, Model, Play, Tap, tap};
use crate::palette::Tone;
use crate::race;
use crate::request::{Failure, Request};
use crate::room::{Live, Naming, RETRIES, RETRY_MS, Seat};
use crate::storage::{self, Entry};
use typepper_api::daily::ordinal;

/// `ROOM k3fq7m2x · BLITZ 15s` over a room's race; `· watching` for a spectator's.
fn room_banner(live: &Live) -> String {
    let watching = if live.racing() { "" } else { " · watching" };
    format!(
        "ROOM {} · {}{watching}",
        live.code.as_deref().unwrap_or(""),
        live.mode.title()
    )
}

/// A racer's name as a room lists it: `ada (you)` for yours, `ada (guest)` for a racer
/// who never linked, so that no guest passes for the player who holds the name.
fn racer_name(name: &str, you: bool, guest: bool) -> String {
    match (you, guest) {
        (true, _) => format!("{name} (you)"),
        (false, true) => format!("{name} (guest)"),
        (false, false) => name.to_owned(),
    }
}

/// A racer's state in words.
fn state_word(state: State) -> &'static str {
    match state {
        State::Waiting => "waiting",
        State::Ready => "ready",
        State::Typing => "typing",
        State::Done => "done",
        State::Gone => "gone",
        State::Out => "out",
    }
}

impl App {
    /// The room on screen, or the one a round watched from its results returns to.
    fn live_mut(&mut self) -> Option<&mut Live> {
        match (&mut self.screen, &mut self.list) {
            (Screen::Room(live), _) | (_, Some(Screen::Room(live))) => Some(live),
            _ => None,
        }
    }

    /// `f` on the menu: a room for the picked mode, or on your own text when CUSTOM
    /// TEXT is picked. A player who never linked names themselves for it first.
    pub(crate) fn open_room(&mut self) -> Vec<Effect> {
        let custom = self.menu_row(self.menu_item) == Some(super::menu::Row::Custom);
        let mut live = match (custom, &self.custom) {
            (false, _) => Live::new(self.menu_mode(), None),
            (true, Some(text)) if text.chars().count() <= ROOM_TEXT_CHARS => {
                let mode = self.with_prose(typepper_engine::Base::Custom);
                let mut live = Live::new(mode, None);
                live.text = Some(text.clone());
                live
            }
            (true, Some(_)) => {
                let most = typepper_api::profile::grouped(ROOM_TEXT_CHARS as u32);
                let why = format!(
                    "a room's text is at most {most} characters: shorten yours, or play it alone"
                );
                self.notice = Some((why, Tone::Wrong));
                return vec![];
            }
            (true, None) => {
                let how = "no text of yours yet: enter on CUSTOM TEXT to paste one, then f";
                self.notice = Some((how.into(), Tone::Dim));
                return vec![];
            }
        };
        self.want_list(live.mode);
        let fx = if self.player.is_some() {
            vec![Effect::Request(Request::OpenRoom(live.open()))]
        } else {
            live.naming = Some(self.naming());
            vec![]
        };
        self.notice = None;
        self.screen = Screen::Room(Box::new(live));
        fx
    }

    /// The name prompt, with the name this game last raced under.
    fn naming(&self) -> Naming {
        Naming {
            name: self
                .room_seat
                .as_ref()
                .map_or_else(String::new, |s| s.name.clone()),
            error: None,
        }
    }

    /// Joins room `code`: a `?room=` link, `typepper --room`. A seat this game held in
    /// it is taken back; a player who never linked names themselves first.
    pub fn join_room(&mut self, code: &str) -> Vec<Effect> {
        let code = code.trim().to_ascii_lowercase();
        if !is_code(&code) {
            let why = format!("{} is not a room code: 8 letters and digits", quoted(&code));
            self.notice = Some((why, Tone::Wrong));
            self.screen = Screen::Menu;
            return vec![];
        }
        let mut live = Live::new(self.menu_mode(), Some(code.clone()));
        live.link = self.game_url.as_ref().map(|g| format!("{g}?room={code}"));
        if let Some(seat) = self.room_seat.as_ref().filter(|s| s.code == code) {
            live.resume = Some(seat.secret.clone());
            live.name = Some(seat.name.clone()).filter(|n| !n.is_empty());
        }
        let fx = if self.player.is_none() && live.resume.is_none() {
            live.naming = Some(self.naming());
            vec![]
        } else {
            live.say(Some(("joining…".into(), Tone::Dim)));
            vec![Effect::JoinRoom(code)]
        };
        self.notice = None;
        self.screen = Screen::Room(Box::new(live));
        fx
    }

    /// The server's answer to [`Request::OpenRoom`]: the room, which the game joins.
    pub(crate) fn room_opened(&mut self, answer: Result<Opened, Failure>) -> Vec<Effect> {
        let Screen::Room(live) = &mut self.screen else {
            return vec![];
        };
        if live.code.is_some() {
            return vec![];
        }
        match answer {
            Ok(opened) => {
                live.link = Some(match &self.game_url {
                    Some(game) => format!("{game}?room={}", opened.code),
                    None => opened.link,
                });
                live.say(Some(("joining…".into(), Tone::Dim)));
                live.code = Some(opened.code.clone());
                vec![Effect::JoinRoom(opened.code)]
            }
            Err(why) => {
                self.notice = Some((format!("no room: {why}"), Tone::Wrong));
                self.screen = Screen::Menu;
                vec![]
            }
        }
    }

    /// The connection [`Effect::JoinRoom`] asked for is up: the hello goes.
    pub(crate) fn room_connected(&mut self) -> Vec<Effect> {
        let token = self.player.as_ref().map(|p| p.token.clone());
        let Some(live) = self.live_mut() else {
            return vec![Effect::LeaveRoom];
        };
        live.connected = true;
        live.retry = None;
        vec![Effect::RoomSay(live.hello(token.as_deref()))]
    }

    /// The room's connection closed (`why`, from the shell) at `now`. A racer in a race
    /// tries to come back; anyone else is told.
    pub(crate) fn room_closed(&mut self, why: &str, now: Now) -> Vec<Effect> {
        let Some(live) = self.live_mut() else {
            return vec![];
        };
        if live.naming.is_some() {
            // Its hello was refused: the refusal is on screen, with the name to change.
            live.lost();
            return vec![];
        }
        let was = live.connected;
        live.lost();
        let comes_back = live.resume.is_some()
            && matches!(live.phase, Phase::Countdown | Phase::Racing)
            && live.results.is_none();
        let tries = live.retry.map_or(RETRIES, |(_, left)| left);
        if comes_back && tries > 0 {
            live.retry = Some((now.mono + RETRY_MS, tries));
            live.say(Some((
                format!("connection lost ({why}): coming back…"),
                Tone::Wrong,
            )));
        } else if was || live.results.is_none() {
            live.retry = None;
            live.say(Some((
                format!("the room's connection closed: {why}"),
                Tone::Wrong,
            )));
        }
        vec![]
    }

    /// What the room says, at `now`.
    pub(crate) fn room_said(&mut self, say: Say, now: Now) -> Vec<Effect> {
        if self.room_waits(&say) {
            return vec![];
        }
        if let Say::Welcome { mode, .. } = &say
            && let Ok(mode) = mode.parse::<Mode>()
        {
            // The room's words: fetched during its lobby, where the build lacks them.
            self.want_list(mode);
        }
        let Some(live) = self.live_mut() else {
            return vec![Effect::LeaveRoom];
        };
        let mut fx = vec![];
        match say {
            Say::Welcome {
                room,
                mode,
                you,
                resume,
                owner,
                link,
                text,
            } => {
                if let Ok(mode) = mode.parse() {
                    live.mode = mode;
                }
                if live.mode.base() == typepper_engine::Base::Custom {
                    // Every round of the room is on its text: one that doesn't play (from
                    // a server of other rules) is no room to race in.
                    match text.as_deref().map(typepper_engine::text::check) {
                        Some(Ok(())) => live.text = text,
                        Some(Err(why)) => {
                            let why = format!("the room's text can't be played: {why}");
                            live.say(Some((why, Tone::Wrong)));
                            return vec![Effect::LeaveRoom];
                        }
                        None => {
                            let why = "the room is on a text of its own, and it sent none";
                            live.say(Some((why.into(), Tone::Wrong)));
                            return vec![Effect::LeaveRoom];
                        }
                    }
                }
                live.you = you;
                live.owner = owner;
                live.welcomed = true;
                live.say(None);
                // A game that knows its own address says its own link; one joined by
                // code alone (the terminal's `--room`) takes the server's.
                if live.link.is_none() {
                    live.link = link;
                }
                if let Some(secret) = &resume {
                    live.resume = Some(secret.clone());
                    let seat = Seat {
                        code: room.clone(),
                        secret: secret.clone(),
                        name: live.name.clone().unwrap_or_default(),
                    };
                    fx.push(Effect::Save {
                        key: storage::ROOM.into(),
                        value: seat.to_string(),
                    });
                    self.room_seat = Some(seat);
                }
                let Some(live) = self.live_mut() else {
                    return fx;
                };
                live.code = Some(room);
                if you.is_none() {
                    let note = "the race is full or has begun: you are watching, and race the \
                                next one";
                    live.say(Some((note.into(), Tone::Dim)));
                }
            }
            Say::Lobby {
                phase,
                racers,
                owner,
            } => {
                if phase == Phase::Lobby && live.phase != Phase::Lobby {
                    // A rematch: the results stay a while for each racer to finish
                    // reading them (tab goes sooner), and what was said of the last race
                    // goes.
                    if live.results.is_some() && !live.rematching {
                        live.lobby_at = Some(now.mono + crate::room::REMATCH_HOLD_MS);
                        let note = "a rematch: tab joins the lobby, or it opens in 15 s";
                        live.say(Some((note.into(), Tone::Accent)));
                    } else {
                        live.back_to_lobby();
                        live.say(None);
                    }
                }
                // The room passed on: say to whom.
                if owner != live.owner && live.owner != 0 && owner != 0 {
                    let gone = live.name_of(live.owner).to_owned();
                    let note = match live.you == Some(owner) {
                        true => format!("{gone} left: the room is yours, enter starts the race"),
                        false => {
                            let next = racers.iter().find(|r| r.id == owner);
                            let next = next.map_or("someone", |r| r.name.as_str());
                            format!("{gone} left: {next} owns the room now")
                        }
                    };
                    live.say(Some((note, Tone::Accent)));
                }
                live.owner = owner;
                live.phase = phase;
                live.racers = racers;
            }
            Say::Countdown(ms) => {
                // The next race begins: its lobby takes the results' place now.
                live.back_to_lobby();
                live.go_at = Some(now.mono + f64::from(ms));
                live.phase = Phase::Countdown;
                live.say(None);
            }
            Say::Go(seed) => {
                live.go(seed, now.mono);
                live.say(None);
                self.sessions += 1;
            }
            Say::Resume { seed, at, keys } => {
                live.resumed(seed, at, &keys, now.mono);
                self.sessions += 1;
            }
            Say::Keys { racer, keys } => live.keys(racer, &keys),
            Say::Out { racer, why } => {
                if live.you == Some(racer) {
                    live.say(Some((format!("you are out: {why}"), Tone::Wrong)));
                } else {
                    let note = format!("{} is out: {why}", live.name_of(racer));
                    live.say(Some((note, Tone::Dim)));
                }
            }
            Say::Results(finishes) => {
                live.phase = Phase::Over;
                live.since = now.mono;
                live.row = 0;
                let mine = live.you.and_then(|you| {
                    let finish = finishes.iter().find(|f| f.racer == you)?;
                    let (replay, score) = live.race.as_ref()?.scored(you)?;
                    Some((replay, score, finish.share.clone()))
                });
                live.results = Some(finishes);
                // Your round is yours like any other: in the history, with its link.
                // The server stored it already; nothing goes to the outbox.
                if let Some((replay, score, share)) = mine {
                    self.history.push(Entry {
                        unix_ms: now.unix_ms,
                        replay,
                        score,
                        share,
                        room: true,
                    });
                    let excess = self.history.len().saturating_sub(storage::HISTORY_MAX);
                    self.history.drain(..excess);
                    fx.push(self.save_history());
                }
            }
            // A hello refused (a name taken, say): the name again, with why.
            Say::Refused(why) if !live.welcomed && live.name.is_some() => {
                live.naming = Some(Naming {
                    name: live.name.take().unwrap_or_default(),
                    error: Some(why),
                });
                live.say(None);
                fx.push(Effect::LeaveRoom);
            }
            Say::Refused(why) => live.say(Some((why, Tone::Wrong))),
        }
        fx
    }

    /// A frame at `now` in a room: your keys out, a lost connection tried again, your
    /// round's end.
    pub(crate) fn tick_room(&mut self, now: Now) -> Vec<Effect> {
        let Some(live) = self.live_mut() else {
            return vec![];
        };
        let mut fx = vec![];
        if live.note_until.is_some_and(|until| now.mono >= until) {
            live.say(None);
        }
        if live.lobby_at.is_some_and(|at| now.mono >= at) {
            live.back_to_lobby();
            live.say(None);
        }
        if let Some((at, left)) = live.retry
            && now.mono >= at
            && let Some(code) = live.code.clone()
        {
            live.retry = Some((now.mono + RETRY_MS * 4.0, left - 1));
            fx.push(Effect::JoinRoom(code));
        }
        if let Some(ask) = live.outgoing() {
            fx.push(Effect::RoomSay(ask));
        }
        fx
    }

    /// A key in a room.
    pub(crate) fn room_key(&mut self, key: Key, now: Now) -> Vec<Effect> {
        let Screen::Room(live) = &mut self.screen else {
            return vec![];
        };
        if live.naming.is_some() {
            return self.naming_key(key);
        }
        let leave = |app: &mut App| {
            app.screen = Screen::Menu;
            app.list = None;
            vec![Effect::RoomSay(Ask::Leave), Effect::LeaveRoom]
        };
        match live.phase {
            Phase::Racing if live.racing() && live.results.is_none() => {
                let Some(race) = live.race.as_mut() else {
                    return vec![];
                };
                let you = live.you.unwrap_or_default();
                let t = ms_since(race.origin, now.mono);
                let Some(mine) = race.of_mut(you) else {
                    return vec![];
                };
                let round = &mut mine.round;
                let started = round.started().is_some();
                let zen = round.mode().is_zen();
                let op = match key {
                    Key::Char(' ') | Key::Backspace | Key::DeleteWord if !started => None,
                    Key::Char(c) => Some(Op::Char(c)),
                    Key::Backspace | Key::DeleteWord => Some(Op::Backspace),
                    Key::Escape if zen && started && !round.is_over(t) => Some(Op::End),
                    Key::Escape => return leave(self),
                    _ => None,
                };
                if let Some(op) = op {
                    let t = t.max(round.last_input());
                    let judged = if key == Key::DeleteWord {
                        delete_word(round, t);
                        None
                    } else {
                        type_key(round, t, op)
                    };
                    mine.trail.mark(race::progress(&mine.round), t);
                    // Out as it is typed, not at the next frame: the others see it a frame
                    // sooner. Keys typed faster than they go (a burst) still go together.
                    let out = live.outgoing().map(Effect::RoomSay);
                    return out
                        .into_iter()
                        .chain(super::settings::keystroke(&self.settings, judged))
                        .collect();
                }
                vec![]
            }
            _ if live.results.is_some() => {
                let rows = live.results.as_ref().map_or(0, Vec::len);
                let held = now.mono - live.since < RESULTS_HOLD_MS;
                match key {
                    Key::Char(_) if held => vec![],
                    Key::Up if rows > 0 => {
                        live.row = (live.row + rows - 1) % rows;
                        vec![]
                    }
                    Key::Down if rows > 0 => {
                        live.row = (live.row + 1) % rows;
                        vec![]
                    }
                    // A rematch, or into the one asked for already.
                    Key::Tab if live.lobby_at.is_some() => {
                        live.back_to_lobby();
                        live.say(None);
                        vec![]
                    }
                    Key::Tab => {
                        live.rematching = true;
                        vec![Effect::RoomSay(Ask::Rematch)]
                    }
                    Key::Enter | Key::Char('r') | Key::Char('g') => {
                        let race = key == Key::Char('g');
                        self.watch_finisher(race, now);
                        vec![]
                    }
                    Key::Char('c') => live.link.clone().map_or_else(Vec::new, |link| {
                        live.flash("room link copied", now.mono);
                        vec![Effect::Copy(link)]
                    }),
                    Key::Escape => leave(self),
                    _ => vec![],
                }
            }
            Phase::Lobby => match key {
                Key::Enter if live.you.is_some() && live.you == Some(live.owner) => {
                    vec![Effect::RoomSay(Ask::Start)]
                }
                Key::Enter | Key::Char(' ') | Key::Char('r') if live.you.is_some() => {
                    vec![Effect::RoomSay(Ask::Ready)]
                }
                Key::Char('c') => live.link.clone().map_or_else(Vec::new, |link| {
                    live.flash("room link copied", now.mono);
                    vec![Effect::Copy(link)]
                }),
                Key::Escape => leave(self),
                _ => vec![],
            },
            _ => match key {
                Key::Escape => leave(self),
                _ => vec![],
            },
        }
    }

    fn naming_key(&mut self, key: Key) -> Vec<Effect> {
        let Screen::Room(live) = &mut self.screen else {
            return vec![];
        };
        let Some(naming) = &mut live.naming else {
            return vec![];
        };
        match key {
            Key::Escape => self.screen = Screen::Menu,
            Key::Backspace => {
                naming.name.pop();
                naming.error = None;
            }
            Key::DeleteWord => {
                naming.name.clear();
                naming.error = None;
            }
            Key::Char(c) if naming.name.chars().count() < 20 && !c.is_whitespace() => {
                naming.name.push(c);
                naming.error = None;
            }
            Key::Enter => match typepper_api::check_name(&naming.name) {
                Ok(()) => {
                    live.name = Some(naming.name.clone());
                    live.naming = None;
                    live.say(Some(("joining…".into(), Tone::Dim)));
                    return vec![match &live.code {
                        Some(code) => Effect::JoinRoom(code.clone()),
                        None => Effect::Request(Request::OpenRoom(live.open())),
                    }];
                }
                Err(why) => naming.error = Some(why.into()),
            },
            _ => {}
        }
        vec![]
    }

    /// Watches (or races) the picked row's round of a room's results, from the keys this
    /// game saw; esc comes back to the results.
    fn watch_finisher(&mut self, race: bool, now: Now) {
        let Screen::Room(live) = &self.screen else {
            return;
        };
        let Some(finish) = live.results.as_ref().and_then(|r| r.get(live.row)) else {
            return;
        };
        let name = live.name_of(finish.racer).to_owned();
        let Some((replay, _)) = live.race.as_ref().and_then(|r| r.scored(finish.racer)) else {
            return;
        };
        let room = core::mem::replace(&mut self.screen, Screen::Menu);
        let opened = if race {
            self.race(replay, name)
        } else {
            self.watch(replay, Some(name), now.mono)
        };
        match opened {
            // Esc from the round, or its results, goes back to the room.
            Ok(()) => self.list = Some(room),
            Err(why) => {
                self.screen = room;
                if let Some(live) = self.live_mut() {
                    live.say(Some((why, Tone::Wrong)));
                }
            }
        }
    }

    /// A room's race at `now`: your round with every other racer's caret on it, and the
    /// standing; a spectator follows the leader's round.
    pub(crate) fn room_race(&self, live: &Live, race: &crate::room::Race, now: f64) -> Play {
        let t = ms_since(race.origin, now);
        let order = race.order(&live.out());
        // Whose text it is: yours, or the leader's.
        let Some(me) = live.you.or(order.first().map(|&(id, _)| id)) else {
            return self.play_of(&live.blank(0), t, true);
        };
        let Some(mine) = race.of(me) else {
            return self.play_of(&live.blank(0), t, true);
        };
        let mut play = self.play_of(&mine.round, t, !live.racing());
        if play.prompt.is_some() {
            play.prompt = Some("the race is on: start typing");
        }
        let place = |id: u32| order.iter().position(|&(o, _)| o == id);
        for rival in race.rounds.iter().filter(|r| r.id != me) {
            let them = rival.round.view(t);
            let Some(lead) = race.lead(me, rival.id, t) else {
                continue;
            };
            let place = place(rival.id).map_or_else(|| "out".into(), |at| ordinal(at + 1));
            let wpm = them.live().map_or(0, |(wpm, _)| wpm / 100);
            play.ghosts.push(Ghost {
                name: live.name_of(rival.id).to_owned(),
                tag: Some(format!("{place} · {wpm} wpm")),
                caret: them.caret(),
                level: them.level(),
                over: them.over(),
                lead,
                // A spectator follows the leader: the leads are theirs, not "yours".
                from: live.you.is_none().then(|| live.name_of(me).to_owned()),
            });
        }
        play.lead = place(me).map(|at| {
            let of = order.len();
            // Against the one just ahead; the leader, against the one just behind.
            let other = if at == 0 {
                order.get(1)
            } else {
                order.get(at - 1)
            };
            let mut line = format!("{} of {of}", ordinal(at + 1));
            let mut tone = Tone::Even;
            if let Some(&(other, _)) = other
                && let Some(lead) = race.lead(me, other, t)
            {
                let gap = race::Seconds(lead.ms.unsigned_abs());
                let name = live.name_of(other);
                let _ = if lead.chars == 0 {
                    write!(line, " · tied with {name}")
                } else if at == 0 {
                    write!(line, " · +{gap} on {name}")
                } else {
                    write!(line, " · +{gap} to {name}")
                };
                tone = Tone::lead(lead.chars);
            }
            if !live.racing() {
                line = format!("{} leads · {line}", live.name_of(me));
            }
            (line, tone)
        });
        play
    }

    /// A room, but for its race: naming yourself, its lobby and countdown, its results.
    pub(crate) fn room_model(&self, live: &Live, now: f64) -> Room {
        let title = match &live.code {
            Some(code) => {
                // A room's code is ASCII (`is_code`): its halves are whole.
                let (a, b) = code.split_at_checked(code.len() / 2).unwrap_or((code, ""));
                format!("room {a} {b} · {}", live.mode.title())
            }
            None => format!("a room for {}", live.mode.title()),
        };
        let mut rows = vec![];
        let mut big = None;
        let mut selected = None;
        let caption;
        if let Some(naming) = &live.naming {
            caption = "pick a name for this room: 3 to 20 letters, digits, _ or -".into();
            return Room {
                title,
                link: live.link.clone(),
                big: None,
                name: Some(naming.name.clone()),
                caption,
                rows,
                selected,
            };
        }
        if let Some(finishes) = &live.results {
            for (i, f) in finishes.iter().enumerate() {
                // The score alone: a frame has no use for the round's replay.
                let scored = live
                    .race
                    .as_ref()
                    .and_then(|r| r.of(f.racer)?.round.score());
                let score = scored.map_or(live.headline(f).to_string(), |s| {
                    // The mode is the title's: each row says the racer's own numbers.
                    format!("{} · {}%", s.headline(), Decimal(s.accuracy_x100.into()))
                });
                let you = live.you == Some(f.racer);
                let (state, state_tone) = crate::room::kept(&f.kept);
                rows.push(RoomRow {
                    place: ordinal(i + 1),
                    name: racer_name(live.name_of(f.racer), you, live.is_guest(f.racer)),
                    state,
                    state_tone,
                    score,
                    share: f.share.clone(),
                    tone: if you { Tone::Accent } else { Tone::Text },
                });
            }
            selected = Some(live.row);
            big = live
                .you
                .and_then(|you| finishes.iter().position(|f| f.racer == you))
                .map(|at| format!("{} of {}", ordinal(at + 1), finishes.len()));
            caption = if finishes.is_empty() {
                "no one finished".into()
            } else {
                "the finishers, best first".into()
            };
        } else {
            for r in &live.racers {
                let you = live.you == Some(r.id);
                let state = state_word(r.state);
                rows.push(RoomRow {
                    place: String::new(),
                    name: racer_name(&r.name, you, r.guest),
                    state: if r.id == live.owner {
                        format!("owner · {state}")
                    } else {
                        state.into()
                    },
                    state_tone: Tone::Dim,
                    score: String::new(),
                    share: None,
                    tone: match r.state {
                        State::Gone | State::Out => Tone::Dim,
                        _ if you => Tone::Accent,
                        _ => Tone::Text,
                    },
                });
            }
            if let Some(go_at) = live.go_at {
                // Whole seconds: printing a float would bring float formatting into the wasm.
                let left = ((go_at - now) / 1000.0).ceil().max(1.0) as u32;
                big = Some(left.to_string());
            }
            let owner = live.name_of(live.owner).to_owned();
            caption = match (live.phase, live.you) {
                _ if !live.connected && live.code.is_none() => "opening the room…".into(),
                (Phase::Countdown, _) => "the text comes when the count ends".into(),
                (Phase::Racing | Phase::Over, _) => "the race is on: it shows when it ends".into(),
                (_, None) if !live.connected => "joining…".into(),
                (_, None) => "you are watching: the race shows when it starts".into(),
                (_, Some(you)) if you == live.owner => {
                    "enter starts the race, or it starts once everyone is ready: send the link"
                        .into()
                }
                _ => format!("waiting for {owner} to start, or for everyone to be ready"),
            };
        }
        Room {
            title,
            link: live.link.clone(),
            big,
            name: None,
            caption,
            rows,
            selected,
        }
    }

    /// A live room's model: its race, or its lobby, countdown and results.
    pub(crate) fn room_screen(
        &self,
        live: &Live,
        now: f64,
        mut notice: Option<(String, Tone)>,
    ) -> Model {
        let (kind, banner, hints, taps, body): (_, _, _, &[Tap], _) = match &live.race {
            Some(race) if live.results.is_none() => {
                let play = self.room_race(live, race, now);
                let zen = live.mode.is_zen()
                    && live
                        .mine()
                        .is_some_and(|m| !m.round.is_over(ms_since(race.origin, now)));
                if let Some(note) = &live.note {
                    notice = Some(note.clone());
                }
                (
                    if live.racing() {
                        Kind::Playing
                    } else {
                        Kind::Replay
                    },
                    Some(room_banner(live)),
                    if zen {
                        "esc ends your round"
                    } else {
                        "esc leaves the room"
                    },
                    if zen { &[END] } else { &[LEAVE] },
                    Body::Play(play),
                )
            }
            _ => {
                if let Some(note) = &live.note {
                    notice = Some(note.clone());
                }
                if let Some(error) = live.naming.as_ref().and_then(|n| n.error.as_ref()) {
                    notice = Some((error.clone(), Tone::Wrong));
                }
                const JOIN: Tap = tap("join", Key::Enter);
                const START: Tap = tap("start", Key::Enter);
                const READY: Tap = tap("ready", Key::Char('r'));
                const COPY_ROOM: Tap = tap("copy link", Key::Char('c'));
                const REMATCH: Tap = tap("rematch", Key::Tab);
                const WATCH: Tap = tap("watch", Key::Enter);
                const RACE: Tap = tap("race", Key::Char('g'));
                let owner = live.you.is_some() && live.you == Some(live.owner);
                let (hints, taps): (_, &[Tap]) = if live.naming.is_some() {
                    (
                        "3 to 20 letters, digits, _ or - · enter join · esc back",
                        &[JOIN, BACK],
                    )
                } else if live.results.is_some() {
                    (
                        "tab rematch · ↑↓ pick · enter watch · g race · c copy link · esc leave",
                        &[REMATCH, WATCH, RACE, COPY_ROOM, LEAVE],
                    )
                } else if live.phase != Phase::Lobby {
                    ("esc leave", &[LEAVE])
                } else if owner {
                    (
                        "enter start · r ready · c copy link · esc leave",
                        &[START, READY, COPY_ROOM, LEAVE],
                    )
                } else if live.racing() {
                    (
                        "r or enter ready · c copy link · esc leave",
                        &[READY, COPY_ROOM, LEAVE],
                    )
                } else {
                    ("c copy link · esc leave", &[COPY_ROOM, LEAVE])
                };
                (
                    Kind::Room,
                    None,
                    hints,
                    taps,
                    Body::Room(self.room_model(live, now)),
                )
            }
        };
        Model {
            kind,
            banner,
            notice,
            hints,
            taps,
            body,
        }
    }
}
