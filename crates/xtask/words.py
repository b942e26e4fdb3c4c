"""Dumps wordfreq's most frequent words for `cargo xtask words`, which filters them.

Usage: words.py OUT_DIR LANG:COUNT...

For each LANG, writes OUT_DIR/LANG.tsv: its COUNT most frequent words, most frequent first,
one a line, NFC-normalised, each followed by a tab, its Zipf frequency in LANG, a tab and
its Zipf frequency in English. Every rule that picks words lives in crates/xtask/src/words.rs;
this only reads wordfreq's data, so the Rust side needs no Unicode tables.
"""

import math
import sys
import unicodedata

from wordfreq import get_frequency_dict, top_n_list

# 'best' is wordfreq's 'large' list where a language has one (all ours but Turkish) and its
# 'small' list elsewhere.
WORDLIST = "best"


def zipf(freqs, word):
    """wordfreq's own scale: log10 of the frequency per billion words, to 2 decimals; 0 when
    the word is not in the list."""
    f = freqs.get(word, 0.0)
    return round(math.log10(f) + 9, 2) if f > 0 else 0.0


def main():
    out = sys.argv[1]
    english = get_frequency_dict("en", WORDLIST)
    for spec in sys.argv[2:]:
        lang, count = spec.split(":")
        own = get_frequency_dict(lang, WORDLIST)
        with open(f"{out}/{lang}.tsv", "w", encoding="utf-8", newline="\n") as f:
            for word in top_n_list(lang, int(count), wordlist=WORDLIST):
                nfc = unicodedata.normalize("NFC", word)
                f.write(f"{nfc}\t{zipf(own, word):.2f}\t{zipf(english, word):.2f}\n")


if __name__ == "__main__":
    main()
