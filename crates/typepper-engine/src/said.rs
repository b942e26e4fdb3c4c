//! What a message says back of what it was given: a key, a code, a line of a file.

/// `s` in double quotes, its quotes, backslashes and control characters escaped as `{:?}`
/// escapes them (`"a\"b\n"`), for a sentence that says back what it refused. `{:?}` on a
/// string would do it and bring Unicode's tables of printable characters into the
/// browser's wasm with it; other characters (an invisible space, a combining accent) are
/// said as they are.
pub fn quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.extend(c.escape_unicode()),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn it_quotes_as_debug_does_for_what_a_person_types_and_what_an_attacker_sends() {
        for s in [
            "time:15",
            "a\"b",
            "back\\slash",
            "new\nline\r\ttab",
            "bell\u{7}",
            "é 中",
        ] {
            assert_eq!(quoted(s), format!("{s:?}"), "{s:?}");
        }
    }
}
