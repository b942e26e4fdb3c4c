"""Reads the quote sources for `cargo xtask quotes`, which cleans and picks the passages.

Usage: quotes.py OUT_FILE KIND:PATH...

KIND is `fortune` (a fortune file: entries separated by lines holding only `%`) or
`chapter` (a JSON object whose `text` is a chapter of a book, paragraphs separated by blank
lines). For each entry or paragraph, in file order, writes one JSON object a line to
OUT_FILE: {"path": PATH, "n": its number in the file from 1, "text": the entry as it is,
lines and all, NFC-normalised}. Every rule that cleans or picks passages lives in
crates/xtask/src/quotes.rs; this only reads the files and normalises, so the Rust side
needs no Unicode tables.
"""

import json
import sys
import unicodedata


def fortune_entries(text):
    """A fortune file's entries: the text between lines that hold only `%`."""
    entry = []
    for line in text.split("\n"):
        if line.rstrip() == "%":
            yield "\n".join(entry)
            entry = []
        else:
            entry.append(line)
    yield "\n".join(entry)


def chapter_paragraphs(text):
    """A chapter's paragraphs: the text between blank lines."""
    chapter = json.loads(text)
    paragraph = []
    for line in chapter["text"].split("\n"):
        if line.strip():
            paragraph.append(line)
        else:
            yield "\n".join(paragraph)
            paragraph = []
    yield "\n".join(paragraph)


READERS = {"fortune": fortune_entries, "chapter": chapter_paragraphs}


def main():
    out = sys.argv[1]
    with open(out, "w", encoding="utf-8", newline="\n") as f:
        for spec in sys.argv[2:]:
            kind, path = spec.split(":", 1)
            with open(path, encoding="utf-8") as source:
                text = source.read()
            n = 0
            for entry in READERS[kind](text):
                if not entry.strip():
                    continue
                n += 1
                nfc = unicodedata.normalize("NFC", entry)
                record = {"path": path, "n": n, "text": nfc}
                f.write(json.dumps(record, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
