//! The typing rules of RULES.md, one behaviour a test.

use typepper_engine::{
    CharState, Language, Mode, Op, PlayError, Refusal, Replay, Round, Rules, STEPS_PER_CHAR, Tier,
    flame_wpm,
};

/// The round's text, as a player reads it off the screen.
fn word(round: &Round, i: usize) -> String {
    round.view(0).word(i).unwrap().target().to_owned()
}

/// Types `text` one key every `gap` ms from `*t`.
fn type_text(round: &mut Round, t: &mut u32, text: &str, gap: u32) {
    for c in text.chars() {
        round.apply(*t, Op::Char(c)).unwrap();
        *t += gap;
    }
}

/// Types the current word correctly and commits it.
fn type_word(round: &mut Round, t: &mut u32, gap: u32) {
    let w = word(round, round.view(*t).current());
    type_text(round, t, &format!("{w} "), gap);
}

#[test]
fn blitz_ends_exactly_n_seconds_after_the_first_key() {
    let mut round = Round::new(Mode::BLITZ_15, 1);
    assert_eq!(round.ends_at(), None);
    round.apply(1000, Op::Char('x')).unwrap();
    assert_eq!(round.ends_at(), Some(16_000));
    assert!(!round.is_over(15_999));
    round.apply(15_999, Op::Backspace).unwrap();
    assert!(round.is_over(16_000));
    assert_eq!(
        round.apply(16_000, Op::Char('a')),
        Err(Refusal::Late { ended_at: 16_000 })
    );
    assert_eq!(round.score().unwrap().duration_ms, 15_000);
}

#[test]
fn time_never_goes_back() {
    let mut round = Round::new(Mode::ZEN, 1);
    round.apply(50, Op::Char('a')).unwrap();
    assert_eq!(
        round.apply(49, Op::Char('a')),
        Err(Refusal::Backwards { last: 50 })
    );
}

#[test]
fn space_on_an_empty_word_is_ignored() {
    let mut round = Round::new(Mode::BLITZ_15, 1);
    let fx = round.apply(0, Op::Char(' ')).unwrap();
    assert!(fx.ignored && fx.started);
    assert_eq!(round.view(0).current(), 0);
    assert_eq!(
        round.score().unwrap().keys,
        0,
        "an ignored key is not judged"
    );
}

#[test]
fn committing_early_misses_the_rest_and_wrong_letters_are_wrong() {
    let mut round = Round::new(Mode::BLITZ_15, 1);
    let w = word(&round, 0);
    let mut t = 0;
    // First letter wrong, second right, then space.
    let wrong = if w.starts_with('z') { 'y' } else { 'z' };
    type_text(&mut round, &mut t, &format!("{wrong}{} ", &w[1..2]), 100);
    let view = round.view(t);
    let states: Vec<_> = view.word(0).unwrap().glyphs().map(|g| g.state).collect();
    assert_eq!(states[0], CharState::Wrong);
    assert_eq!(states[1], CharState::Correct);
    assert!(states[2..].iter().all(|&s| s == CharState::Missed));
    let score = round.score().unwrap();
    assert_eq!(score.chars.wrong, 1);
    assert_eq!(score.chars.correct, 1);
    assert_eq!(score.chars.missed as usize, w.len() - 2);
    assert_eq!(score.words, 0);
    // wrong letter, right letter, space on a wrong word: one of three.
    assert_eq!(score.keys, 3);
    assert_eq!(score.accuracy_x100, 3333);
}

#[test]
fn backspace_steps_back_into_a_wrong_word_but_not_a_right_one() {
    let mut round = Round::new(Mode::BLITZ_30, 2);
    let mut t = 0;
    type_word(&mut round, &mut t, 100);
    assert!(
        round.apply(t, Op::Backspace).unwrap().ignored,
        "a correct word stays done"
    );
    assert_eq!(round.view(t).current(), 1);
    type_text(&mut round, &mut t, "q ", 100);
    assert_eq!(round.view(t).current(), 2);
    let fx = round.apply(t, Op::Backspace).unwrap();
    assert!(!fx.ignored);
    assert_eq!(
        round.view(t).caret(),
        (1, 1),
        "back at the end of the wrong word"
    );
    round.apply(t, Op::Backspace).unwrap();
    type_word(&mut round, &mut t, 100);
    let score = round.score().unwrap();
    assert_eq!(score.words, 2, "the fixed word counts");
    assert_eq!(score.chars.wrong, 0);
}

#[test]
fn a_word_takes_twenty_extra_characters() {
    let mut round = Round::new(Mode::BLITZ_15, 3);
    let w = word(&round, 0);
    let mut t = 0;
    type_text(&mut round, &mut t, &w, 10);
    for _ in 0..20 {
        assert!(!round.apply(t, Op::Char('x')).unwrap().ignored);
    }
    assert!(round.apply(t, Op::Char('x')).unwrap().ignored);
    assert_eq!(round.score().unwrap().chars.extra, 20);
}

#[test]
fn end_is_zen_only_and_zen_needs_it() {
    let mut blitz = Round::new(Mode::BLITZ_15, 1);
    assert_eq!(blitz.apply(0, Op::End), Err(Refusal::EndOutsideZen));

    let mut zen = Round::new(Mode::ZEN, 1);
    let mut t = 0;
    type_word(&mut zen, &mut t, 200);
    assert_eq!(zen.score(), None, "ZEN has no end before End");
    let no_end = zen.replay();
    assert_eq!(no_end.play().unwrap_err(), PlayError::NotOver);
    assert!(zen.apply(t, Op::End).unwrap().finished);
    assert!(zen.is_over(t));
    assert!(matches!(
        zen.apply(t, Op::Char('a')),
        Err(Refusal::Late { .. })
    ));
    assert_eq!(zen.score().unwrap().words, 1);
}

#[test]
fn wpm_counts_correct_words_with_their_spaces() {
    let mut round = Round::new(Mode::BLITZ_15, 4);
    let mut t = 0;
    let mut chars = 0;
    for i in 0..5 {
        chars += word(&round, i).len() as u64 + 1;
        type_word(&mut round, &mut t, 100);
    }
    let score = round.score().unwrap();
    assert_eq!(u64::from(score.wpm_x100), chars * 1_200_000 / 15_000);
    assert_eq!(score.accuracy_x100, 10_000);
    assert_eq!(score.samples.len(), 15);
    assert_eq!(
        score.headline().to_string(),
        format!("{} wpm", score.wpm_x100 / 100)
    );
}

#[test]
fn the_last_word_counts_while_it_is_right() {
    let mut round = Round::new(Mode::BLITZ_15, 5);
    let w = word(&round, 0);
    let mut t = 0;
    type_text(&mut round, &mut t, &w[..2], 100);
    assert_eq!(round.score().unwrap().wpm_x100, 2 * 1_200_000 / 15_000);
    round.apply(t, Op::Char('#')).unwrap();
    assert_eq!(round.score().unwrap().wpm_x100, 0);
    assert_eq!(
        round.score().unwrap().chars.missed,
        0,
        "uncommitted letters aren't missed"
    );
}

/// VERSION 1's streak (VERSION 2's is `version_2_heats_a_slow_typists_streak`).
#[test]
fn heat_rises_with_fast_clean_typing_and_cools_when_idle() {
    let mut round = Round::under(Rules::V1, Mode::BLITZ_60, 6);
    let mut t = 0;
    for _ in 0..20 {
        type_word(&mut round, &mut t, 80);
    }
    let hot = round.view(t).heat();
    assert!(hot >= 60, "{hot}");
    assert!(round.view(t).tier() >= Tier::Habanero);
    assert_eq!(round.view(t + 1000).heat(), hot - 4, "4 a second");
    assert_eq!(round.view(t + 30_000).heat(), 0);
    round.apply(t, Op::Char('#')).unwrap();
    assert!(round.view(t).heat() < hot, "a mistake cools");
    assert!(round.score().unwrap().peak_heat >= hot);
}

#[test]
fn looking_at_a_round_never_changes_it() {
    let replay = typepper_engine::synth::synth(
        Mode::BLITZ_15,
        9,
        &typepper_engine::synth::Typist::default(),
    );
    let (_, want) = replay.play().unwrap();
    let mut round = replay.setup().unwrap();
    for (at, op) in replay.timeline() {
        let at = at.unwrap();
        // A renderer looks at every millisecond in between; the score must not move.
        for probe in at.saturating_sub(3)..=at {
            let _ = round.view(probe).heat();
            let _ = round.score();
        }
        round.apply(at, op).unwrap();
    }
    assert_eq!(round.score().unwrap(), want);
}

#[test]
fn pursuit_moves_on_only_from_a_correct_word() {
    let mut round = Round::new(Mode::pursuit(1).unwrap(), 7);
    let mut t = 0;
    type_text(&mut round, &mut t, "# ", 100);
    assert_eq!(
        round.view(t).current(),
        0,
        "space on a wrong word doesn't commit"
    );
    assert_eq!(round.score().unwrap().chars.wrong, 1);
    round.apply(t, Op::Backspace).unwrap();
    type_word(&mut round, &mut t, 100);
    assert_eq!(round.view(t).current(), 1);
}

#[test]
fn pursuit_levels_rise_every_ten_words() {
    let mut round = Round::new(Mode::pursuit(3).unwrap(), 8);
    let mut t = 0;
    let mut ups = vec![];
    for _ in 0..21 {
        let w = word(&round, round.view(t).current());
        for c in w.chars().chain([' ']) {
            if let Some(l) = round.apply(t, Op::Char(c)).unwrap().level_up {
                ups.push(l);
            }
            t += 60;
        }
    }
    assert_eq!(ups, [4, 5]);
    assert_eq!(round.level(), Some(5));
}

#[test]
fn the_flame_catches_an_idle_caret_at_the_exact_millisecond() {
    let mode = Mode::pursuit(7).unwrap();
    // VERSION 1's, whose heat is the flame's closeness: 100 at the catch.
    let mut round = Round::under(Rules::V1, mode, 10);
    let w = word(&round, 0);
    // The flame waits for the first key, then runs from 30 characters behind.
    assert_eq!(round.view(100_000).flame(), Some(-30_000));
    round
        .apply(500, Op::Char(w.chars().next().unwrap()))
        .unwrap();
    let gap = 31 * STEPS_PER_CHAR;
    let speed = flame_wpm(7);
    let caught = 500 + (gap + speed - 1) / speed;
    assert_eq!(round.ends_at(), Some(caught as u64));
    assert!(!round.is_over(caught as u32 - 1));
    assert!(round.is_over(caught as u32));
    assert_eq!(round.view(caught as u32).heat(), 100);
    let score = round.score().unwrap();
    assert_eq!(score.duration_ms as i64, caught - 500);
    assert_eq!(score.headline().to_string(), "0 words");
    assert_eq!(score.level, Some(7));
}

#[test]
fn the_flame_is_dragged_to_forty_characters_behind() {
    // VERSION 1's, whose heat is the flame's closeness: near 0 forty characters away.
    let mut round = Round::under(Rules::V1, Mode::pursuit(1).unwrap(), 11);
    let mut t = 0;
    for _ in 0..15 {
        type_word(&mut round, &mut t, 20);
    }
    let view = round.view(t);
    let caret = i64::from(view.word(view.current()).unwrap().offset) * 1000;
    let behind = caret - view.flame().unwrap();
    assert!(behind <= 40_000, "{behind}");
    assert!(view.heat() <= 5);
}

#[test]
fn inputs_after_the_end_make_a_replay_unplayable() {
    let mut round = Round::new(Mode::BLITZ_15, 12);
    round.apply(0, Op::Char('a')).unwrap();
    let mut replay = round.replay();
    replay.inputs.push(typepper_engine::Input {
        dt: 15_000,
        op: Op::Char('b'),
    });
    assert_eq!(
        replay.play().unwrap_err(),
        PlayError::Refused {
            index: 1,
            at: 15_000,
            why: Refusal::Late { ended_at: 15_000 }
        }
    );
}

#[test]
fn other_rules_and_modes_are_refused_by_name() {
    let mut replay = Replay {
        engine: 3,
        mode: "time:15".into(),
        seed: 0,
        text: None,
        inputs: vec![],
    };
    let err = replay.play().unwrap_err();
    assert_eq!(
        err.to_string(),
        "recorded by rules VERSION 3, which this engine doesn't have: it plays VERSION 1 and 2"
    );
    replay.engine = 0;
    assert_eq!(
        replay.play().unwrap_err().to_string(),
        "recorded by rules VERSION 0, which this engine doesn't have: it plays VERSION 1 and 2"
    );
    replay.engine = 1;
    replay.mode = "time:10".into();
    assert!(
        replay
            .play()
            .unwrap_err()
            .to_string()
            .contains("no mode \"time:10\"")
    );
}

/// A flood of keys: a round stops taking inputs at what a replay can hold, and what it
/// took still encodes, decodes and plays. A full ZEN round keeps room to end.
#[test]
fn a_round_holds_what_a_replay_can_and_no_more() {
    let mut round = Round::new(Mode::ZEN, 3);
    let mut taken = 0u32;
    let refused = loop {
        match round.apply(taken / 64, Op::Char('a')) {
            Ok(_) => taken += 1,
            Err(why) => break why,
        }
    };
    assert_eq!(refused, Refusal::Full);
    assert_eq!(round.apply(taken / 64, Op::Backspace), Err(Refusal::Full));
    round.apply(taken / 64, Op::End).unwrap();
    let bytes = round.replay().encode();
    assert!(
        bytes.len() <= typepper_engine::MAX_BYTES && bytes.len() + 3 > typepper_engine::MAX_BYTES,
        "{} bytes",
        bytes.len()
    );
    let (_, score) = Replay::decode(&bytes).unwrap().play().unwrap();
    assert!(score.keys > 0);
    // A BLITZ round's clock ends it first: a flood inside fifteen seconds fills it too.
    let mut blitz = Round::new(Mode::BLITZ_15, 3);
    let mut t = 0;
    while blitz.apply(t / 40, Op::Char('a')).is_ok() {
        t += 1;
    }
    assert!(blitz.replay().encode().len() <= typepper_engine::MAX_BYTES);
    // The longest custom text counts too: a flood of wrong keys on it fills all but the
    // last input's two bytes.
    let text = ["typepper"; 1111].join(" ");
    let mut custom = Round::custom(&text, 3).unwrap();
    let mut t = 0;
    let refused = loop {
        match custom.apply(t / 64, Op::Char('z')) {
            Ok(_) => t += 1,
            Err(why) => break why,
        }
    };
    assert_eq!(refused, Refusal::Full);
    let bytes = custom.replay().encode().len();
    assert!(
        bytes <= typepper_engine::MAX_BYTES && bytes + 2 > typepper_engine::MAX_BYTES,
        "{bytes} bytes"
    );
    assert_eq!(
        Refusal::Full.to_string(),
        "the round holds all a replay can (1048576 bytes)"
    );
}

fn mode(key: &str) -> Mode {
    key.parse().unwrap()
}

#[test]
fn words_has_its_count_and_ends_the_moment_the_last_word_is_typed_right() {
    let mut round = Round::new(mode("words:10"), 5);
    assert_eq!(round.view(0).drawn(), 10, "the text is ten words, no more");
    let mut t = 1_000;
    for _ in 0..9 {
        type_word(&mut round, &mut t, 100);
    }
    let last = word(&round, 9);
    let (head, tail) = last.split_at(last.len() - 1);
    type_text(&mut round, &mut t, head, 100);
    assert_eq!(round.ends_at(), None, "not over before its last letter");
    let fx = round
        .apply(t, Op::Char(tail.chars().next().unwrap()))
        .unwrap();
    assert!(fx.finished && fx.committed == Some(true));
    assert_eq!(round.ends_at(), Some(u64::from(t)));
    assert_eq!(
        round.apply(t, Op::Char(' ')),
        Err(Refusal::Late {
            ended_at: u64::from(t)
        }),
        "no space after it"
    );
    let score = round.score().unwrap();
    assert_eq!(score.words, 10);
    assert_eq!(score.duration_ms, t - 1_000);
    // Every word's letters, the nine spaces typed, and none after the last word.
    let letters: usize = (0..10).map(|i| word(&round, i).chars().count()).sum();
    assert_eq!(score.chars.correct as usize, letters);
    let want = (letters as u64 + 9) * 12_000 * 100 / u64::from(score.duration_ms);
    assert_eq!(u64::from(score.wpm_x100), want);
    assert!(
        round.view(t).word(9).unwrap().status
            == typepper_engine::WordStatus::Done { correct: true }
    );
}

#[test]
fn a_space_after_a_wrong_last_word_ends_words_and_its_letters_are_missed() {
    let mut round = Round::new(mode("words:10"), 6);
    let mut t = 0;
    for _ in 0..9 {
        type_word(&mut round, &mut t, 100);
    }
    let last = word(&round, 9);
    type_text(&mut round, &mut t, "#", 100);
    let fx = round.apply(t, Op::Char(' ')).unwrap();
    assert!(fx.finished && fx.committed == Some(false));
    let score = round.score().unwrap();
    assert_eq!(score.words, 9);
    assert_eq!(score.chars.wrong, 1);
    assert_eq!(score.chars.missed as usize, last.chars().count() - 1);
    // A replay of it plays to the same; one with a key after the end is refused.
    let mut replay = round.replay();
    assert_eq!(replay.play().unwrap().1, score);
    replay.inputs.push(typepper_engine::Input {
        dt: 0,
        op: Op::Backspace,
    });
    assert!(matches!(replay.play(), Err(PlayError::Refused { .. })));
}

#[test]
fn letters_beyond_ascii_are_judged_as_one_character_each() {
    // Russian: every letter is two bytes, and the caret moves a letter a key.
    let mut round = Round::new(mode("zen@ru"), 8);
    let first = word(&round, 0);
    let mut t = 0;
    let mut chars = first.chars();
    let a = chars.next().unwrap();
    round.apply(t, Op::Char(a)).unwrap();
    assert_eq!(round.view(t).caret(), (0, 1));
    let glyphs: Vec<CharState> = round
        .view(t)
        .word(0)
        .unwrap()
        .glyphs()
        .map(|g| g.state)
        .collect();
    assert_eq!(glyphs[0], CharState::Correct);
    t += 100;
    type_text(&mut round, &mut t, &format!("{} ", chars.as_str()), 100);
    assert!(
        round.view(t).word(0).unwrap().status
            == typepper_engine::WordStatus::Done { correct: true }
    );
    // French: é is its own key; e in its place is wrong.
    let mut round = Round::new(mode("zen@fr"), 1);
    let mut t = 0;
    let i = (0..64)
        .find(|&i| word(&round, i).contains('é'))
        .expect("an é ahead");
    for _ in 0..i {
        type_word(&mut round, &mut t, 100);
    }
    let w = word(&round, i);
    let typed: String = w.chars().map(|c| if c == 'é' { 'e' } else { c }).collect();
    type_text(&mut round, &mut t, &format!("{typed} "), 100);
    let status = round.view(t).word(i).unwrap().status;
    assert_eq!(status, typepper_engine::WordStatus::Done { correct: false });
    round.apply(t, Op::End).unwrap();
    let score = round.score().unwrap();
    assert_eq!(score.chars.wrong as usize, w.matches('é').count());
    assert_eq!(score.words as usize, i);
}

#[test]
fn a_custom_text_is_its_words_and_ends_with_its_last_character() {
    let text = "Né à Paris — « oui », dit-il.";
    let mut round = Round::custom(text, 3).unwrap();
    assert_eq!(round.mode(), Mode::CUSTOM);
    // Né, à, Paris, —, «, oui, » and dit-il.: a mark between spaces is a word.
    assert_eq!(round.word_count(), Some(8));
    assert_eq!(round.view(0).drawn(), 8, "the text, and nothing after it");
    let words: Vec<_> = (0..8).map(|i| word(&round, i)).collect();
    assert_eq!(words.join(" "), text);
    let mut t = 0;
    for _ in 0..7 {
        type_word(&mut round, &mut t, 120);
    }
    type_text(&mut round, &mut t, "dit-il", 120);
    assert_eq!(round.ends_at(), None, "not over before its last character");
    let fx = round.apply(t, Op::Char('.')).unwrap();
    assert!(fx.finished && fx.committed == Some(true));
    let score = round.score().unwrap();
    assert_eq!(score.words, 8);
    assert_eq!(score.chars.correct as usize, text.chars().count() - 7);
    // Its replay carries the text, and plays to the same anywhere.
    let replay = round.replay();
    assert_eq!(replay.text.as_deref(), Some(text));
    assert_eq!(replay.encode()[3], 2, "format 2");
    let (_, again) = Replay::decode(&replay.encode()).unwrap().play().unwrap();
    assert_eq!(again, score);
    assert!(Round::custom("two  spaces", 1).is_err());
}

#[test]
fn a_quote_is_its_passage_and_ends_with_its_last_character() {
    use typepper_engine::quotes;
    let n = typepper_engine::QuoteNo::new(1).unwrap();
    let passage = quotes::passage(Language::English, n).unwrap();
    let round = Round::new(mode("quote:1"), 99);
    let count = passage.text.split(' ').count();
    assert_eq!(round.word_count(), Some(count as u32));
    let words: Vec<_> = (0..count).map(|i| word(&round, i)).collect();
    assert_eq!(words.join(" "), passage.text);
    // The seed draws nothing: another seed is the same passage.
    assert_eq!(word(&Round::new(mode("quote:1"), 1), 0), words[0]);
    // It ends with its last character, not at a space after it; the headline is wpm.
    let mut round = round;
    let mut t = 0;
    for _ in 0..count - 1 {
        type_word(&mut round, &mut t, 120);
    }
    let last = &words[count - 1];
    let (body, end) = last.split_at(last.len() - last.chars().last().unwrap().len_utf8());
    type_text(&mut round, &mut t, body, 120);
    assert_eq!(round.ends_at(), None, "not over before its last character");
    let fx = round
        .apply(t, Op::Char(end.chars().next().unwrap()))
        .unwrap();
    assert!(fx.finished && fx.committed == Some(true));
    let score = round.score().unwrap();
    assert_eq!(score.words as usize, count);
    assert_eq!(score.headline().unit, typepper_engine::Unit::Wpm);
    // A quote its corpus doesn't have is refused by name, and the replay says so.
    let replay: Replay = "typepper replay\nengine 1\nmode quote:65535\nseed 1\n+0 'a'"
        .parse()
        .unwrap();
    let err = replay.play().unwrap_err();
    assert!(
        matches!(err, PlayError::NoQuote(Language::English, _)),
        "{err}"
    );
    assert!(
        err.to_string()
            .starts_with("there is no quote #65535 in english: it has ")
    );
}

/// `/s`, stop on error: a wrong letter, a space before the word is done and a letter past
/// its end are judged wrong and not typed; the caret waits, and the right letter goes on.
/// The text's characters hold no mistake; the keys and accuracy count each one.
#[test]
fn stop_on_error_keeps_the_caret_until_the_right_key() {
    let mut round = Round::new(mode("words:10/s"), 5);
    let first = word(&round, 0);
    let mut chars = first.chars();
    let (a, b) = (chars.next().unwrap(), chars.next().unwrap());
    let wrong = if a == 'x' { 'y' } else { 'x' };
    round.apply(0, Op::Char(a)).unwrap();
    let fx = round.apply(100, Op::Char(wrong)).unwrap();
    assert_eq!(fx.judged, Some(false), "judged");
    assert_eq!(round.view(100).caret(), (0, 1), "the caret waits");
    let fx = round.apply(200, Op::Char(' ')).unwrap();
    assert_eq!(fx.judged, Some(false));
    assert_eq!(
        fx.committed, None,
        "a space before the word is done types nothing"
    );
    assert_eq!(round.view(200).caret(), (0, 1));
    round.apply(300, Op::Char(b)).unwrap();
    assert_eq!(round.view(300).caret(), (0, 2), "the right key goes on");
    let mut t = 400;
    type_text(
        &mut round,
        &mut t,
        &first[a.len_utf8() + b.len_utf8()..],
        100,
    );
    // Past the word's end, a letter is wrong too, and not typed.
    let fx = round.apply(t, Op::Char('q')).unwrap();
    assert_eq!(fx.judged, Some(false));
    let fx = round.apply(t + 100, Op::Char(' ')).unwrap();
    assert_eq!(fx.committed, Some(true), "the word is right: it always is");
    let mut t = t + 200;
    for _ in 1..9 {
        type_word(&mut round, &mut t, 100);
    }
    // WORDS ends with its last word's last letter.
    let last = word(&round, 9);
    type_text(&mut round, &mut t, &last, 100);
    let score = round.score().unwrap();
    assert_eq!(
        (score.chars.wrong, score.chars.extra, score.words),
        (0, 0, 10)
    );
    assert_eq!(score.keys, round.replay().inputs.len() as u32);
    assert!(score.accuracy_x100 < 10_000, "three wrong keys: {score}");
    // And it plays back so from its replay, whose key says /s.
    let replay = round.replay();
    assert_eq!(replay.mode, "words:10/s");
    assert_eq!(replay.play().unwrap().1, score);
    // The same keys without /s type the slips into the text: another round (here one
    // that ends before its last keys).
    let loose = Replay {
        mode: "words:10".into(),
        ..replay
    };
    assert_ne!(loose.play().map(|(_, s)| s).ok(), Some(score));
}

/// `/b`, no backspace: backspace does nothing, kept in the replay as typed; a mistake
/// stays a mistake.
#[test]
fn no_backspace_leaves_every_mistake_where_it_is() {
    let mut round = Round::new(mode("time:15/b"), 5);
    let first = word(&round, 0);
    let mut t = 0;
    type_text(&mut round, &mut t, "#", 100);
    let fx = round.apply(t, Op::Backspace).unwrap();
    assert!(fx.ignored && fx.judged.is_none());
    assert_eq!(round.view(t).caret(), (0, 1), "the # stays");
    t += 100;
    type_text(&mut round, &mut t, &format!("{} ", &first[1..]), 100);
    // Back into the mistyped word: not without a backspace.
    let fx = round.apply(t, Op::Backspace).unwrap();
    assert!(fx.ignored);
    assert_eq!(round.view(t).current(), 1);
    round.apply(t + 15_000, Op::Char('a')).unwrap_err();
    let replay = round.replay();
    assert_eq!(replay.mode, "time:15/b");
    assert_eq!(
        replay
            .inputs
            .iter()
            .filter(|i| i.op == Op::Backspace)
            .count(),
        2,
        "kept as typed"
    );
    let (_, score) = replay.play().unwrap();
    assert_eq!(score.words, 0, "the first word stays wrong");
}

/// RULES.md, "VERSION 2" 1: a slow typist's streak heats. The same keys at 40 wpm stay in
/// BELL PEPPER by VERSION 1's rules and reach JALAPEÑO by VERSION 2's.
#[test]
fn version_2_heats_a_slow_typists_streak() {
    use typepper_engine::synth::{Typist, synth};
    let typist = Typist {
        wpm: 40,
        accuracy: 100,
        ..Typist::default()
    };
    let mut replay = synth(Mode::BLITZ_30, 4, &typist);
    assert_eq!(replay.engine, 2, "new rounds record VERSION 2");
    let (_, v2) = replay.play().unwrap();
    replay.engine = 1;
    let (_, v1) = replay.play().unwrap();
    assert_eq!(Tier::of(v1.peak_heat), Tier::Bell, "{}", v1.peak_heat);
    assert!(Tier::of(v2.peak_heat) >= Tier::Jalapeno, "{}", v2.peak_heat);
    assert_eq!(replay.play_under(Rules::V2).unwrap().1, v2);
}

/// RULES.md, "VERSION 2" 2: HOT PURSUIT's heat is the streak, not the flame. One wrong key
/// and nothing more is caught at 100 heat by VERSION 1, and at 0 by VERSION 2.
#[test]
fn version_2_pursuit_heat_is_the_streak_not_the_flame() {
    for (rules, peak) in [(Rules::V1, 100), (Rules::V2, 0)] {
        let mut round = Round::under(rules, Mode::pursuit(1).unwrap(), 8);
        round.apply(0, Op::Char('x')).unwrap();
        let end = round.ends_at().expect("the flame arrives");
        let score = round.score().unwrap();
        assert_eq!(
            (score.peak_heat, score.duration_ms),
            (peak, end as u32),
            "{rules}"
        );
        assert_eq!(round.replay().engine, rules.version());
    }
}

/// VERSION 2 changes heat and nothing else: on any round of any mode, every number of
/// the score but peak heat is VERSION 1's, so both versions' rounds share a board.
#[test]
fn version_2_changes_nothing_but_heat() {
    let keys = [
        "time:15",
        "time:60/p/n",
        "words:25",
        "zen",
        "pursuit:3",
        "pursuit:12@de",
        "drill2:qz",
        "quote:12",
        "time:30/s@fr",
        "words:10/b",
    ];
    for (key, seed, replay) in typed(&keys, 4, |seed| (30 + 25 * seed, 90 + seed, 12_000)) {
        let (_, mut v1) = replay.play_under(Rules::V1).unwrap();
        let (_, v2) = replay.play_under(Rules::V2).unwrap();
        v1.peak_heat = v2.peak_heat;
        assert_eq!(v1, v2, "{key} seed {seed}");
    }
}

/// Each of `keys` typed by `typists` synthetic typists, typist `n` (from 0) at the
/// (wpm, accuracy, ZEN's ms) `like(n)` says, on seed `n`.
fn typed<'k>(
    keys: &[&'k str],
    typists: u32,
    like: impl Fn(u32) -> (u32, u32, u32),
) -> Vec<(&'k str, u32, Replay)> {
    use typepper_engine::synth::{Typist, synth};
    let mut out = vec![];
    for &key in keys {
        for n in 0..typists {
            let (wpm, accuracy, zen_ms) = like(n);
            let typist = Typist {
                wpm,
                accuracy,
                seed: n.into(),
                zen_ms,
            };
            out.push((key, n, synth(key.parse().unwrap(), n.into(), &typist)));
        }
    }
    out
}

/// Peak heat is the highest heat the meter shows at any moment of the round. The engine
/// looks at the streak only when a key strokes it (it cools between): the same peak as
/// looking just before and after every input, as a renderer sees it, and at the end.
#[test]
fn peak_heat_is_the_highest_heat_shown_at_any_input() {
    let keys = [
        "time:15",
        "words:25",
        "zen",
        "pursuit:3",
        "pursuit:9",
        "time:30/s",
    ];
    for (key, seed, replay) in typed(&keys, 3, |seed| (35 + 40 * seed, 88 + 5 * seed, 9_000)) {
        for rules in Rules::ALL {
            let mut round = replay.setup_under(rules).unwrap();
            let mut seen = round.heat(0);
            for (t, op) in replay.timeline() {
                let t = t.unwrap();
                seen = seen.max(round.heat(t));
                round.apply(t, op).unwrap();
                seen = seen.max(round.heat(t));
            }
            let end = round.ends_at().unwrap() as u32;
            seen = seen.max(round.heat(end));
            let (_, score) = replay.play_under(rules).unwrap();
            assert_eq!(score.peak_heat, seen, "{key} {rules} seed {seed}");
            assert_eq!(round.score().unwrap(), score);
        }
    }
}

/// A round counts its characters as words are committed (and uncounts a word reopened by
/// backspace): the counts are those of reading every word off the screen at the end.
#[test]
fn char_counts_are_those_of_the_words_on_screen() {
    let keys = [
        "time:30",
        "words:25",
        "zen",
        "pursuit:2",
        "time:15/p@fr",
        "time:30/s",
    ];
    for (key, seed, replay) in typed(&keys, 4, |seed| (50 + 20 * seed, 75 + 5 * seed, 20_000)) {
        let (round, score) = replay.play().unwrap();
        assert_eq!(score.chars, on_screen(&round), "{key} seed {seed}");
    }
    // A wrong word committed, reopened by backspace and put right; then one left wrong.
    let mut round = Round::new(Mode::ZEN, 5);
    let mut t = 0;
    type_text(&mut round, &mut t, "qq ", 150);
    for _ in 0..3 {
        round.apply(t, Op::Backspace).unwrap();
        t += 150;
    }
    type_word(&mut round, &mut t, 150);
    type_text(&mut round, &mut t, "zz ", 150);
    round.apply(t, Op::End).unwrap();
    assert_eq!(round.score().unwrap().chars, on_screen(&round));
    assert_eq!(round.score().unwrap().words, 1);
}

/// The round's characters by what became of them, read off the screen at its end.
fn on_screen(round: &Round) -> typepper_engine::CharCounts {
    use typepper_engine::WordStatus;
    let view = round.view(round.ends_at().unwrap() as u32);
    let mut counts = typepper_engine::CharCounts::default();
    for i in 0..=view.current() {
        let word = view.word(i).unwrap();
        let target: Vec<char> = word.target().chars().collect();
        let typed = word.typed();
        // A word done (committed, or WORDS' last) misses what it left untyped.
        let done = matches!(word.status, WordStatus::Done { .. });
        for (k, t) in target.iter().enumerate() {
            match typed.get(k) {
                Some(c) if c == t => counts.correct += 1,
                Some(_) => counts.wrong += 1,
                None if done => counts.missed += 1,
                None => {}
            }
        }
        counts.extra += typed.len().saturating_sub(target.len()) as u32;
    }
    counts
}
