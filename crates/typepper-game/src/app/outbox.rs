//! The outbox: your rounds kept until the server has them, sent a body's worth at a time,
//! one submission out at once; and what its answer lines make of each round.

use typepper_api::{Line, RANKED_BEST, Ranked};

use crate::app::{App, Effect, Screen};
use crate::request::{Failure, Request};
use crate::storage::Outgoing;

/// Rounds not yet sent, oldest first, and whether a submission is out.
#[derive(Clone, Debug, Default)]
pub struct Outbox {
    rounds: Vec<Outgoing>,
    /// A submission is out: new rounds wait until it answers.
    sending: bool,
}

impl Outbox {
    /// The rounds the shell kept.
    pub fn new(rounds: Vec<Outgoing>) -> Outbox {
        Outbox {
            rounds,
            sending: false,
        }
    }

    /// The rounds, oldest first.
    pub fn rounds(&self) -> &[Outgoing] {
        &self.rounds
    }

    /// Keeps a round to send.
    pub fn keep(&mut self, round: Outgoing) {
        self.rounds.push(round);
    }

    /// The next submission, as `token`'s player: up to a body's worth of the oldest
    /// rounds, unless one is out already or there are none.
    fn next(&mut self, token: String) -> Option<Request> {
        if self.sending || self.rounds.is_empty() {
            return None;
        }
        self.sending = true;
        // A body carries at most MAX_ENTRIES rounds; the rest go when it is answered.
        let batch = &self.rounds[..self.rounds.len().min(typepper_api::MAX_ENTRIES)];
        let body = typepper_api::submission(batch.iter().map(|o| (o.claim, &o.replay[..])));
        Some(Request::Submit {
            token,
            body,
            keys: batch.iter().map(Outgoing::key).collect(),
        })
    }

    /// The submission out was answered (or failed): the next may go.
    fn answered(&mut self) {
        self.sending = false;
    }

    /// The round under `key`, out of the outbox: the server answered for it.
    fn take(&mut self, key: &str) -> Option<Outgoing> {
        let at = self.rounds.iter().position(|o| o.key() == key)?;
        Some(self.rounds.remove(at))
    }
}

impl App {
    /// Sends the rounds in the outbox (up to a body's worth), unless a submission is out
    /// already or the game isn't linked.
    pub fn flush(&mut self) -> Vec<Effect> {
        let Some(player) = &self.player else {
            return vec![];
        };
        let token = player.token.clone();
        self.outbox
            .next(token)
            .into_iter()
            .map(Effect::Request)
            .collect()
    }

    /// The answer to a [`Request::Submit`] of the rounds `keys`: share links into the
    /// history and the results screen, the outbox emptied of every answered round, and
    /// the rest (rounds kept meanwhile) sent next.
    pub(crate) fn submitted(
        &mut self,
        keys: &[String],
        answer: Result<String, Failure>,
    ) -> Vec<Effect> {
        self.outbox.answered();
        let mut fx = vec![];
        let text = match answer {
            Ok(text) => text,
            Err(e) => {
                let note = match e {
                    Failure::Unreachable(why) | Failure::CantAsk(why) => {
                        format!("offline ({why}): kept, to send later")
                    }
                    Failure::NotLinked(why) => format!("not sent: {why} (l links again)"),
                    other => format!("not sent: {other}; kept, to send later"),
                };
                self.note_results(keys, &note);
                fx.push(Effect::Warn(note));
                return fx;
            }
        };
        let mut history_changed = false;
        // A daily's round on the day's board: its place is asked for once it is stored.
        let mut placing = None;
        for (key, line) in keys.iter().zip(text.lines()) {
            let Some(out) = self.outbox.take(key) else {
                continue;
            };
            fx.push(Effect::Remove(key.clone()));
            match line.parse::<Line>() {
                Ok(Line::Ok {
                    id,
                    share,
                    pb,
                    ranked,
                    ..
                }) => {
                    if let Some(e) = self.history.iter_mut().find(|e| e.unix_ms == out.unix_ms) {
                        e.share = Some(share.clone());
                        history_changed = true;
                    }
                    if let Screen::Results(r) = &mut self.screen
                        && r.unix_ms == Some(out.unix_ms)
                    {
                        r.share = Some(share);
                        r.run = Some(id);
                        r.note = Some(match (ranked, pb, r.daily) {
                            // Its place on the day's board comes next.
                            (Ranked::Yes, _, Some(number)) => {
                                placing = Some(number);
                                format!("on {}'s board", typepper_api::daily::name(number))
                            }
                            (Ranked::Yes, true, None) => format!("ranked · {RANKED_BEST}!"),
                            (Ranked::Yes, false, None) => "ranked".into(),
                            (Ranked::No(why), ..) => format!("unranked: {why}"),
                            (Ranked::Pending(why), ..) => format!("pending: {why}"),
                        });
                    }
                }
                Ok(Line::No { why, .. }) => {
                    self.note_results(
                        std::slice::from_ref(key),
                        &format!("not kept by the server: {why}"),
                    );
                    fx.push(Effect::Warn(format!("the server refused a round: {why}")));
                }
                Err(e) => fx.push(Effect::Warn(e.to_string())),
            }
        }
        if history_changed {
            fx.push(self.save_history());
        }
        if let Some(number) = placing {
            fx.extend(self.ask_place(number));
        }
        fx.extend(self.flush());
        fx
    }

    pub(crate) fn note_results(&mut self, keys: &[String], note: &str) {
        if let Screen::Results(r) = &mut self.screen
            && let Some(ms) = r.unix_ms
            && keys.iter().any(|k| k.ends_with(&ms.to_string()))
        {
            r.note = Some(note.to_owned());
        }
    }
}
