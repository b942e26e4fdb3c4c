//! `gd-replay` as a person runs it: the built binary on files and standard input.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

const TIMER: &str = "4|4&1.5&1&1&0&10&1&20&33&0&0&3_7_-99";

/// Valid replay strings of every shape `fmt` must give back unchanged.
fn valid() -> Vec<String> {
    vec![
        "0#1234,1,22,47,1,".to_owned(),
        "-0;460;-120;340,7;-60,3#1234,1,22,47,1,".to_owned(),
        format!(
            "0;460;-120;-800,99:1,5,2,1,3,4,4,1600,5,17,6,0,7,635833,8,1|5@,;30;-60,3;-900,98\
             #1234,3,22,47,1,1|5|2|-3.5@{TIMER}"
        ),
        format!("0;0460;-00,3#-0,007,2.208,047,-01,{TIMER}"),
        // Items with no timers and no `@`: items, since timers always hold `&`.
        "0;460#1234,2,22,47,2,1|10|2|5".to_owned(),
    ]
}

/// A file of its own in the temp dir, removed when dropped.
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str, contents: &[u8]) -> TempFile {
        let path =
            std::env::temp_dir().join(format!("gd-replay-{}-{name}.txt", std::process::id()));
        std::fs::write(&path, contents).expect("the temp dir is writable");
        TempFile(path)
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn run(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gd-replay"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut pipe = child.stdin.take().expect("stdin is piped");
    pipe.write_all(stdin.unwrap_or_default())
        .expect("the binary reads its input");
    drop(pipe);
    child.wait_with_output().expect("the binary exits")
}

fn on_file(name: &str, contents: &[u8], args: &[&str]) -> Output {
    let file = TempFile::new(name, contents);
    let path = file.0.to_str().expect("the temp dir is UTF-8").to_owned();
    let mut all = args.to_vec();
    all.push(&path);
    run(&all, None)
}

#[test]
fn fmt_is_the_identity_on_valid_strings() {
    for (i, text) in valid().iter().enumerate() {
        for ending in ["", "\n", "\r\n"] {
            let contents = format!("{text}{ending}");
            let out = on_file(
                &format!("fmt{i}-{}", ending.len()),
                contents.as_bytes(),
                &["fmt"],
            );
            assert!(
                out.status.success(),
                "{text}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            assert_eq!(String::from_utf8(out.stdout).unwrap(), contents);
        }
    }
}

#[test]
fn fmt_reads_standard_input() {
    let text = valid().remove(1);
    let out = run(&["fmt", "-"], Some(text.as_bytes()));
    assert!(out.status.success());
    assert_eq!(out.stdout, text.as_bytes());
}

#[test]
fn inspect_json_has_the_documented_shape() {
    let out = on_file("inspect", valid()[2].as_bytes(), &["inspect", "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["holding"], true);
    assert_eq!(v["meta"]["seed"], 1234);
    assert_eq!(v["meta"]["attempts"], 3);
    assert_eq!(v["meta"]["game_version"], "22");
    assert_eq!(v["meta"]["item_pers"]["items"][1]["value"], "-3.5");
    assert_eq!(v["meta"]["item_pers"]["timers"][0]["remaps"]["trigger"], 99);
    assert_eq!(v["counts"]["p1"]["jump"]["presses"], 2);
    assert_eq!(v["counts"]["p1"]["jump"]["releases"], 1);
    assert_eq!(v["counts"]["p1"]["right"]["releases"], 1);
    assert_eq!(v["counts"]["p2"]["left"]["presses"], 0);
    assert_eq!(v["presses"], 2);
    assert_eq!(v["releases"], 2);
    assert_eq!(v["checkpoints"]["respawns"], 1);
    assert_eq!(v["checkpoints"]["loads"], 1);
    let respawn = &v["checkpoints"]["list"][0];
    assert_eq!(respawn["kind"], "respawn");
    assert_eq!(respawn["step"], 800);
    assert_eq!(respawn["data"]["time"], 635833);
    assert_eq!(respawn["data"]["item_pers"]["at"], true);
    assert_eq!(v["checkpoints"]["list"][1]["data"], Value::Null);
    // The input after a checkpoint counts from its step: 800 + 30.
    let at: Vec<u64> = v["timeline"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["at"].as_u64().unwrap())
        .collect();
    assert_eq!(at, [460, 580, 800, 830, 890, 900]);
    let first = &v["timeline"][0];
    assert_eq!(first["action"], "press");
    assert_eq!(
        (first["player"].clone(), first["key"].clone()),
        (1.into(), "jump".into())
    );
    assert_eq!(first["delta"], 460);
    assert_eq!(first["seconds"], 460.0 / 480.0);
    assert_eq!(v["timeline"][2]["action"], "respawn");
    assert_eq!(v["timeline"][2]["id"], 99);
    assert_eq!(v["duration"]["half_steps"], 900);
    assert_eq!(v["duration"]["seconds"], 900.0 / 480.0);
}

#[test]
fn inspect_text_shows_counts_and_the_timeline() {
    let out = on_file("text", valid()[2].as_bytes(), &["inspect"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    for line in [
        "seed         1234",
        "inputs       6: 2 presses, 2 releases, 2 checkpoint actions",
        "  P1 jump    2 presses, 1 release",
        "checkpoints  1 load, 1 respawn",
        "duration     900 half-steps (1.875 s)",
    ] {
        assert!(text.lines().any(|l| l == line), "no {line:?} in\n{text}");
    }
    assert!(
        text.contains("99 respawn (checkpoint 1, attempt 4)"),
        "{text}"
    );
}

#[test]
fn refusals_are_reported_as_text_or_json() {
    let bad = b"0;460,0#1234,1,22,47,1,";
    let out = on_file("bad-json", bad, &["inspect", "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["error"], "Key");
    assert!(v["message"].as_str().unwrap().contains("offset 6"), "{v}");

    let out = on_file("bad-text", bad, &["inspect"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.starts_with("gd-replay: unknown input key at offset 6"),
        "{err}"
    );
    assert!(err.trim_end().ends_with("(Key)"), "{err}");

    let out = run(&["fmt", "-"], Some(b"0;460;#1,1,22,47,1,"));
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty(), "fmt writes nothing it refused");
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .ends_with("(Syntax)\n")
    );

    let out = run(&["inspect", "--json", "/no/such/replay"], None);
    assert_eq!(out.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["error"], "Io");
}

#[test]
fn a_byte_that_is_not_utf8_is_refused_where_it_stands() {
    let out = run(&["inspect", "--json", "-"], Some(b"0;46\xff0#1,1,22,47,1,"));
    assert_eq!(out.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["error"], "Syntax");
    assert!(v["message"].as_str().unwrap().contains("offset 4"), "{v}");
}

#[test]
fn strings_as_the_game_stores_them_are_inflated_and_said_so() {
    for (i, text) in valid().iter().enumerate() {
        let name = format!("enc-{i}");
        let out = on_file(&name, text.as_bytes(), &["fmt", "--encoded"]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let encoded = String::from_utf8(out.stdout).unwrap();
        assert!(encoded.starts_with("H4sI"), "{encoded}");
        // Read back: the same plain string, and the output says it was inflated.
        let out = on_file(&name, encoded.as_bytes(), &["fmt"]);
        assert_eq!(String::from_utf8(out.stdout).unwrap(), *text);
        assert!(String::from_utf8_lossy(&out.stderr).contains("inflated from base64-gzip"));
        let out = on_file(&name, encoded.as_bytes(), &["inspect", "--json"]);
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["encoding"], "base64-gzip");
        assert_eq!(v["bytes"], text.len());
        assert_eq!(v["stored_bytes"], encoded.len());
        let out = on_file(&name, text.as_bytes(), &["inspect", "--json"]);
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["encoding"], "plain");
    }
    let out = on_file("enc-text", valid()[1].as_bytes(), &["fmt", "--encoded"]);
    let out = on_file("enc-text", &out.stdout, &["inspect"]);
    let shown = String::from_utf8(out.stdout).unwrap();
    assert!(
        shown.contains("encoding     base64-gzip: inflated from "),
        "{shown}"
    );
}

#[test]
fn broken_stored_strings_are_refused_clearly() {
    let out = on_file("enc-good", valid()[1].as_bytes(), &["fmt", "--encoded"]);
    let encoded = String::from_utf8(out.stdout).unwrap();
    let cases = [
        (
            "junk",
            format!("{}!{}", &encoded[..10], &encoded[10..]),
            "Base64",
            "not base64 at byte 10",
        ),
        (
            "cut",
            encoded[..encoded.len() / 2].to_owned(),
            "Gzip",
            "cut short",
        ),
        (
            "cut-mid-byte",
            encoded[..13].to_owned(),
            "Base64",
            "cut short",
        ),
    ];
    for (name, text, kind, says) in cases {
        let out = on_file(name, text.as_bytes(), &["inspect", "--json"]);
        assert!(!out.status.success(), "{name}");
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["error"], kind, "{name}: {v}");
        let message = v["message"].as_str().unwrap();
        assert!(message.contains(says), "{name}: {message}");
    }
    // A valid stream of a string that doesn't parse: the offset is in the inflated one.
    let out = on_file("enc-bad", b"0;460;#1,1,22,47,1,", &["fmt", "--encoded"]);
    assert!(!out.status.success(), "fmt refuses before it encodes");
    let bad = gd_encode("0;460;#1,1,22,47,1,");
    let out = on_file("enc-bad", bad.as_bytes(), &["inspect"]);
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("inflated from base64-gzip"), "{said}");
}

/// `text` as the game stores it, by the crate's own encoder.
fn gd_encode(text: &str) -> String {
    gd_replay::stored::encode(text)
}

/// The attack: `typepper score --json /dev/zero` grew to 23.8 GB before the kernel ended
/// it. `gd-replay` reads no further than the longest string it may inflate to, and a line
/// break, so `/dev/zero` is refused at once, under a 400 MB address space.
#[test]
fn dev_zero_is_refused_at_once() {
    for args in ["inspect /dev/zero", "inspect --json -", "fmt -"] {
        let out = Command::new("sh")
            .arg("-c")
            .arg(format!(
                "ulimit -v 400000; exec {} {args} < /dev/zero",
                env!("CARGO_BIN_EXE_gd-replay")
            ))
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&[out.stderr, out.stdout].concat()).into_owned();
        assert_eq!(out.status.code(), Some(1), "{args}: {said}");
        assert!(said.contains("holds more than"), "{args}: {said}");
    }
}
