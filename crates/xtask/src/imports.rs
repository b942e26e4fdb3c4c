//! Short names for the functions the browser's wasm imports from its JavaScript glue.
//!
//! wasm-bindgen names each one after its Rust item and a hash
//! (`__wbg_fillText_a347b807c468785d`): 165 names, 5.6 KB of the wasm, whose hex gzip
//! can't shrink. The names mean nothing at run time, only that the wasm's import section
//! and the glue's import object agree, so both are renamed, `a`, `b`, …, `Z`, `aa`, …:
//! 3.5 KB gzip less (docs/PERFORMANCE.md, issue 41). How it works:
//! 1. the wasm's import section is read (every import a function, from one module);
//! 2. each import's name is found exactly once in the glue, as a key (`name:`), or
//!    nothing is changed and the build stops saying which one wasn't;
//! 3. the section is written back with the new names, the rest of the wasm as it was.

use anyhow::{Context, Result, bail};

/// The wasm with its imports renamed, and the glue with its import object's keys
/// renamed to match.
pub fn shorten(wasm: &[u8], glue: &str) -> Result<(Vec<u8>, String)> {
    let (section, range) = import_section(wasm)?;
    let imports = read_imports(section)?;
    let mut glue = glue.to_owned();
    let mut renamed = Vec::with_capacity(section.len());
    leb(imports.len() as u64, &mut renamed);
    for (i, import) in imports.iter().enumerate() {
        let short = short_name(i);
        glue = rename_key(&glue, &import.name, &short)?;
        name(&import.module, &mut renamed);
        name(&short, &mut renamed);
        renamed.extend_from_slice(&import.desc);
    }
    let mut out = wasm[..range.start].to_vec();
    out.push(IMPORT_SECTION);
    leb(renamed.len() as u64, &mut out);
    out.extend_from_slice(&renamed);
    out.extend_from_slice(&wasm[range.end..]);
    Ok((out, glue))
}

const IMPORT_SECTION: u8 = 2;

/// The `i`th short name: `a`–`z`, `A`–`Z`, then two letters, and so on. Letters only:
/// each is a key of a JavaScript object, and no key the glue has itself.
fn short_name(mut i: usize) -> String {
    const LETTERS: &[u8; 52] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    let mut name = vec![LETTERS[i % 52]];
    while i >= 52 {
        i = i / 52 - 1;
        name.push(LETTERS[i % 52]);
    }
    name.reverse();
    String::from_utf8(name).unwrap_or_default()
}

/// One import: the module and name it is imported by, and the rest of its entry as read.
struct Import {
    module: String,
    name: String,
    desc: Vec<u8>,
}

/// The import section's contents, and where the whole section (id and size included)
/// lies in `wasm`.
fn import_section(wasm: &[u8]) -> Result<(&[u8], std::ops::Range<usize>)> {
    if wasm.get(..8) != Some(b"\0asm\x01\0\0\0".as_slice()) {
        bail!("not a wasm module (version 1)");
    }
    let mut at = 8;
    while at < wasm.len() {
        let start = at;
        let id = wasm[at];
        at += 1;
        let size = read_leb(wasm, &mut at)? as usize;
        let end = at.checked_add(size).filter(|&e| e <= wasm.len());
        let end = end.context("a section runs past the end of the wasm")?;
        if id == IMPORT_SECTION {
            return Ok((&wasm[at..end], start..end));
        }
        at = end;
    }
    bail!("the wasm imports nothing")
}

fn read_imports(section: &[u8]) -> Result<Vec<Import>> {
    let mut at = 0;
    let count = read_leb(section, &mut at)?;
    let mut imports = vec![];
    for _ in 0..count {
        let module = read_name(section, &mut at)?;
        let name = read_name(section, &mut at)?;
        let kind = *section.get(at).context("the import section ends early")?;
        // wasm-bindgen's wasm imports only functions (kind 0, then a type index): its
        // memory and tables are exports.
        if kind != 0 {
            bail!("import {module} {name} is not a function (kind {kind})");
        }
        let desc_start = at;
        at += 1;
        read_leb(section, &mut at)?;
        imports.push(Import {
            module,
            name,
            desc: section[desc_start..at].to_vec(),
        });
    }
    if at != section.len() {
        bail!("the import section has bytes after its last import");
    }
    if let Some(other) = imports.iter().find(|i| i.module != imports[0].module) {
        bail!(
            "the wasm imports from {} and {}",
            imports[0].module,
            other.module
        );
    }
    Ok(imports)
}

/// `glue` with the key `old:` renamed `new:`, where `old` stands exactly once as a whole
/// word; an error otherwise (the glue is not laid out as this was written for).
fn rename_key(glue: &str, old: &str, new: &str) -> Result<String> {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    let whole: Vec<usize> = glue
        .match_indices(old)
        .map(|(at, _)| at)
        .filter(|&at| {
            let before = glue[..at].chars().next_back().is_none_or(|c| !word(c));
            let after = glue[at + old.len()..]
                .chars()
                .next()
                .is_none_or(|c| !word(c));
            before && after
        })
        .collect();
    match whole[..] {
        [at] if glue[at + old.len()..].starts_with(':') => {
            Ok(format!("{}{new}{}", &glue[..at], &glue[at + old.len()..]))
        }
        _ => bail!(
            "the JavaScript glue has import {old} {} times, not once as a key: \
             wasm-bindgen's glue has changed",
            whole.len()
        ),
    }
}

fn read_leb(bytes: &[u8], at: &mut usize) -> Result<u64> {
    let mut value = 0u64;
    for shift in (0..64).step_by(7) {
        let byte = *bytes.get(*at).context("a number runs past the end")?;
        *at += 1;
        value |= u64::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            return Ok(value);
        }
    }
    bail!("a number of more than 64 bits")
}

fn read_name(bytes: &[u8], at: &mut usize) -> Result<String> {
    let len = read_leb(bytes, at)? as usize;
    let end = at.checked_add(len).filter(|&e| e <= bytes.len());
    let text = &bytes[*at..end.context("a name runs past the end")?];
    *at += len;
    String::from_utf8(text.to_vec()).context("a name is not UTF-8")
}

fn leb(mut value: u64, out: &mut Vec<u8>) {
    loop {
        let byte = (value & 0x7f) as u8;
        value >>= 7;
        if value == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

fn name(text: &str, out: &mut Vec<u8>) {
    leb(text.len() as u64, out);
    out.extend_from_slice(text.as_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A module importing `names` from `./m_bg.js`, each of type 0, with a type section
    /// before and a custom section after.
    fn module(names: &[&str]) -> Vec<u8> {
        let mut wasm = b"\0asm\x01\0\0\0".to_vec();
        wasm.extend_from_slice(&[1, 4, 1, 0x60, 0, 0]);
        let mut section = vec![];
        leb(names.len() as u64, &mut section);
        for n in names {
            name("./m_bg.js", &mut section);
            name(n, &mut section);
            section.extend_from_slice(&[0, 0]);
        }
        wasm.push(IMPORT_SECTION);
        leb(section.len() as u64, &mut wasm);
        wasm.extend_from_slice(&section);
        wasm.extend_from_slice(&[0, 4, 1, b'x', 7, 7]);
        wasm
    }

    #[test]
    fn imports_and_keys_are_renamed_together() -> Result<()> {
        let glue = "const import0 = {\n    __wbg_f_1a: function() { g(); },\n    \
                    __wbg_g_2b: function() {},\n};\nwasm.__wbg_ptr = 0;\n";
        let (wasm, glue) = shorten(&module(&["__wbg_f_1a", "__wbg_g_2b"]), glue)?;
        assert_eq!(wasm, module(&["a", "b"]));
        assert_eq!(
            glue,
            "const import0 = {\n    a: function() { g(); },\n    \
             b: function() {},\n};\nwasm.__wbg_ptr = 0;\n"
        );
        Ok(())
    }

    #[test]
    fn a_glue_that_does_not_match_changes_nothing() {
        let wasm = module(&["__wbg_f_1a"]);
        assert!(shorten(&wasm, "{ other: 1 }").is_err());
        assert!(shorten(&wasm, "{ __wbg_f_1a: 1, x: __wbg_f_1a }").is_err());
        assert!(shorten(&wasm, "{ __wbg_f_1a_longer: 1 }").is_err());
        assert!(shorten(&module(&[]), "").is_ok());
    }

    #[test]
    fn short_names_are_letters_and_distinct() {
        let names: Vec<String> = (0..52 * 53 + 5).map(short_name).collect();
        assert_eq!(&names[..3], ["a", "b", "c"]);
        assert_eq!(names[51], "Z");
        assert_eq!(&names[52..54], ["aa", "ab"]);
        assert_eq!(names[52 * 53 - 1], "ZZ");
        assert_eq!(names[52 * 53], "aaa");
        let distinct: std::collections::BTreeSet<&String> = names.iter().collect();
        assert_eq!(distinct.len(), names.len());
        assert!(
            names
                .iter()
                .all(|n| n.bytes().all(|b| b.is_ascii_alphabetic()))
        );
    }
}
