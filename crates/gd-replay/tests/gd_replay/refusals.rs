//! Every refusal: the string, the error's kind, and the byte it points at.

use gd_replay::{ItemPersData, Replay};

const T: &str = "4|4&1.5&1&1&0&10&1&20&33&0&0&";

/// (what is wrong, string, kind, offset).
fn rows() -> Vec<(&'static str, String, &'static str, usize)> {
    let m = "#1234,1,22,47,1,";
    let cp = "1,1,2,2,3,3,4,4,5,5,6,6,7,7,8,";
    let s = |t: &str| t.to_owned();
    vec![
        ("empty string", s(""), "End", 0),
        ("no leading 0", format!("460{m}"), "Syntax", 0),
        ("a leading 1", format!("1;460{m}"), "Syntax", 0),
        ("a leading -5", format!("-5{m}"), "Syntax", 0),
        ("a leading zero with zeros", format!("00{m}"), "Syntax", 1),
        ("a key on the leading 0", format!("-0,2{m}"), "Syntax", 2),
        ("no # at all", s("0;460;-120"), "End", 10),
        ("a trailing ;", format!("0;460;{m}"), "Syntax", 6),
        ("an empty input", format!("0;;460{m}"), "Syntax", 2),
        ("a + sign", format!("0;+460{m}"), "Syntax", 2),
        (
            "a fraction of a half-step",
            format!("0;4.5{m}"),
            "Syntax",
            3,
        ),
        ("a delta past u32", format!("0;4294967296{m}"), "Number", 2),
        (
            "a step past u32",
            format!("0;-99999999999,99{m}"),
            "Number",
            3,
        ),
        ("P1 jump written with ,0", format!("0;460,0{m}"), "Key", 6),
        ("key 1 isn't in the table", format!("0;460,1{m}"), "Key", 6),
        (
            "key 11 isn't in the table",
            format!("0;460,11{m}"),
            "Key",
            6,
        ),
        (
            "key 97 isn't in the table",
            format!("0;-460,97{m}"),
            "Key",
            7,
        ),
        (
            "a key with a leading zero",
            format!("0;460,07{m}"),
            "Key",
            6,
        ),
        ("a key of three digits", format!("0;-460,099{m}"), "Key", 7),
        ("a comma and no key", format!("0;460,{m}"), "Syntax", 6),
        (
            "a pressed respawn",
            format!("0;800,99:{cp},{m}"),
            "PressedCheckpoint",
            2,
        ),
        (
            "a pressed load",
            format!("0;460;800,98{m}"),
            "PressedCheckpoint",
            6,
        ),
        ("metadata on P1 jump", format!("0;460:1,1,{m}"), "Syntax", 5),
        ("metadata on a key", format!("0;460,3:1,1,{m}"), "Syntax", 7),
        (
            "checkpoint data starting at key 2",
            format!("0;-8,99:2,2,{m}"),
            "Syntax",
            8,
        ),
        (
            "checkpoint data skipping key 3",
            format!("0;-8,99:1,1,2,2,4,4{m}"),
            "Syntax",
            16,
        ),
        (
            "checkpoint key with a leading zero",
            format!("0;-8,99:01,1,{m}"),
            "Syntax",
            8,
        ),
        (
            "checkpoint data without its trailing ,",
            format!("0;-8,99:{cp}{m}"),
            "Syntax",
            38,
        ),
        (
            "checkpoint data with a ninth key",
            format!("0;-8,99:{cp},9,1,{m}"),
            "Syntax",
            39,
        ),
        ("checkpoint data cut short", s("0;-8,99:1,1,2"), "End", 13),
        (
            "an empty checkpoint value",
            format!("0;-8,99:1,,2,2{m}"),
            "Syntax",
            10,
        ),
        (
            "a : with no checkpoint data",
            format!("0;-8,99:{m}"),
            "Syntax",
            8,
        ),
        ("five metadata values", s("0#1234,1,22,47,1"), "End", 16),
        (
            "seven metadata values",
            s("0#1234,1,22,47,1,,7"),
            "Syntax",
            17,
        ),
        ("an empty seed", s("0#,1,22,47,1,"), "Syntax", 2),
        (
            "a seed past i64",
            s("0#9223372036854775808,1,22,47,1,"),
            "Number",
            2,
        ),
        (
            "a seed below i64",
            s("0#-9223372036854775809,1,22,47,1,"),
            "Number",
            2,
        ),
        (
            "a game version with a bare .",
            s("0#1,1,2.,47,1,"),
            "Syntax",
            8,
        ),
        ("a game version of text", s("0#1,1,v22,47,1,"), "Syntax", 6),
        (
            "a fractional level version",
            s("0#1,1,22,47,1.5,"),
            "Syntax",
            13,
        ),
        ("a trailing newline", s("0#1234,1,22,47,1,\n"), "Syntax", 17),
        ("a second #", s("0#1234,1,22,47,1,#"), "Syntax", 17),
        (
            "a byte outside ASCII",
            s("0#1234,1,22,47,1,é"),
            "Syntax",
            17,
        ),
        ("a lone @", s("0#1234,1,22,47,1,@"), "LoneAt", 17),
        (
            "a lone @ in checkpoint data",
            format!("0;-8,99:{cp}@,{m}"),
            "LoneAt",
            38,
        ),
        (
            "items and timers without an @ between them",
            s("0#1234,1,22,47,1,1|5|3|3&0"),
            "Syntax",
            20,
        ),
        (
            "an item without its value",
            s("0#1234,1,22,47,1,1@"),
            "Syntax",
            18,
        ),
        (
            "a trailing | after items",
            s("0#1234,1,22,47,1,1|5|@"),
            "Syntax",
            21,
        ),
        (
            "eleven timer fields",
            s("0#1,1,22,47,1,4|4&1&1&1&0&10&1&20&33&0&0"),
            "End",
            40,
        ),
        (
            "a timer flag of 2",
            s("0#1,1,22,47,1,4|4&1.5&2&1&0&10&1&20&33&0&0&"),
            "Syntax",
            22,
        ),
        (
            "a timer flag of 10",
            s("0#1,1,22,47,1,4|4&1.5&10&1&0&10&1&20&33&0&0&"),
            "Syntax",
            23,
        ),
        (
            "remaps without a runtime ID",
            format!("0#1,1,22,47,1,{T}3_7"),
            "End",
            46,
        ),
        (
            "remaps with an empty runtime ID",
            format!("0#1,1,22,47,1,{T}3_-"),
            "End",
            46,
        ),
        (
            "remaps with a signed remap ID",
            format!("0#1,1,22,47,1,{T}3_-7_-9"),
            "Syntax",
            47,
        ),
        (
            "a second timer with no data",
            format!("0#1,1,22,47,1,{T}|5"),
            "End",
            45,
        ),
    ]
}

#[test]
fn every_refusal_is_its_kind_at_its_byte() {
    let mut wrong = Vec::new();
    for (what, text, kind, offset) in rows() {
        let err = Replay::parse(&text).expect_err(what);
        if (err.kind(), err.offset()) != (kind, offset) {
            wrong.push(format!("{what}: {text:?}: {} {err}", err.kind()));
            continue;
        }
        // The message names the byte and what would have fit there.
        let message = err.to_string();
        assert!(
            message.contains(&format!("at offset {offset}: expected ")),
            "{message}"
        );
        assert!(!err.expected().is_empty());
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn item_pers_alone_counts_offsets_from_its_start() {
    let err = "1|5|3|3&0".parse::<ItemPersData>().unwrap_err();
    assert_eq!(err.offset(), 3);
    assert_eq!(
        err.expected(),
        "`&` (item pers data with `&` and no `@` is timers alone, which have twelve fields)"
    );
    assert_eq!("@".parse::<ItemPersData>().unwrap_err().kind(), "LoneAt");
    assert_eq!("1|5@x".parse::<ItemPersData>().unwrap_err().offset(), 4);
}

#[test]
fn errors_say_what_was_expected() {
    let err = Replay::parse("0;460,0#1,1,22,47,1,").unwrap_err();
    assert_eq!(
        err.to_string(),
        "unknown input key at offset 6: expected 2 to 10, 98 or 99, without leading zeros \
         (P1 jump, 0, is written without a key)"
    );
    let err = Replay::parse("0;460").unwrap_err();
    assert_eq!(
        err.to_string(),
        "the string ends at offset 5: expected `,` and a key, `;` or `#`"
    );
}
