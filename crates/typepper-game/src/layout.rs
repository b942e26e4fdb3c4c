//! A round's words in lines, scrolled as the caret moves. The canvas and the terminal lay
//! out the same way, each in its own number of columns, each glyph as many columns wide
//! as the shell draws it: `中` and `🌶` take two in a terminal, a combining mark drawn on
//! its own one.

use crate::model::{Play, Width};

/// Lines of text shown while typing.
pub const LINES: usize = 3;

/// A laid-out line: each word's index in the round, and its first column.
pub type Line = Vec<(usize, usize)>;

/// Every character one column: ASCII's widths.
pub fn one_column(_: char) -> usize {
    1
}

/// `s` broken into lines that each `fit`: after a space, and after the last that starts
/// a ` · ` where one does (the ` · ` dropped), so a line of hints breaks between two of
/// them. A word that fits on no line is left whole. Each shell measures its own way:
/// the canvas in pixels, the terminal in columns.
pub fn wrap(s: &str, fits: impl Fn(&str) -> bool) -> Vec<&str> {
    let mut lines = vec![];
    let mut rest = s;
    // Cut with `split_at_checked`, never by indexing: a string's index panic brings
    // Unicode's tables into the browser's wasm (docs/PERFORMANCE.md). Every cut is at a
    // space, a char boundary.
    while !fits(rest) {
        let (mut space, mut dot) = (None, None);
        for (i, b) in rest.bytes().enumerate().skip(1) {
            let Some((line, after)) = rest.split_at_checked(i).filter(|_| b == b' ') else {
                continue;
            };
            if !fits(line) {
                break;
            }
            space = Some(i);
            if after.starts_with(" · ") {
                dot = Some(i);
            }
        }
        let skip = if dot.is_some() { " · ".len() } else { 1 };
        let Some((line, after)) = dot.or(space).and_then(|i| rest.split_at_checked(i)) else {
            break;
        };
        lines.push(line);
        rest = after.get(skip..).unwrap_or_default();
    }
    lines.push(rest);
    lines
}

/// Where a renderer has scrolled a round to, kept between frames.
#[derive(Clone, Debug, Default)]
pub struct Scroll {
    round: u64,
    cols: usize,
    /// The first words of the lines scrolled past, then of the first line shown.
    anchors: Vec<usize>,
}

impl Scroll {
    /// The [`LINES`] lines of `play` to show in `cols` columns. The text scrolls a line
    /// when the caret reaches the third, and back when it steps above the first.
    pub fn lines(&mut self, play: &Play, cols: usize, width: Width) -> Vec<Line> {
        let cols = cols.max(1);
        if self.round != play.round || self.cols != cols || self.anchors.is_empty() {
            // A new round, or new widths: lay out again from the oldest word at hand.
            *self = Scroll {
                round: play.round,
                cols,
                anchors: vec![play.first],
            };
        }
        let current = play.caret.0;
        self.anchors.retain(|&a| a >= play.first);
        while self.anchors.len() > 1 && self.anchors.last().is_some_and(|&a| current < a) {
            self.anchors.pop();
        }
        if self.anchors.is_empty() || self.anchors.last().is_some_and(|&a| current < a) {
            self.anchors = vec![play.first.min(current)];
        }
        loop {
            let start = self.anchors.last().copied().unwrap_or(play.first);
            let lines = lay_out(play, start, cols, LINES + 1, width);
            let caret_line = lines
                .iter()
                .position(|l| l.iter().any(|&(w, _)| w == current));
            match caret_line {
                Some(n) if n >= 2 && lines.len() > 1 => {
                    let next = lines[1].first().map_or(start + 1, |&(w, _)| w);
                    self.anchors.push(next);
                }
                Some(_) => return lines.into_iter().take(LINES).collect(),
                // The caret is past every laid-out line (a very long word): start at it.
                None if start != current => self.anchors.push(current),
                None => return lines.into_iter().take(LINES).collect(),
            }
        }
    }
}

/// The words of `play` from round index `start`, in at most `max_lines` lines of `cols`.
fn lay_out(play: &Play, start: usize, cols: usize, max_lines: usize, width: Width) -> Vec<Line> {
    let mut lines: Vec<Line> = vec![vec![]];
    let mut col = 0;
    let mut i = start;
    while let Some(word) = play.word(i) {
        let len = word.cols(width);
        if col > 0 && col + len > cols {
            if lines.len() == max_lines {
                break;
            }
            lines.push(vec![]);
            col = 0;
        }
        if let Some(line) = lines.last_mut() {
            line.push((i, col));
        }
        col += len + 1;
        i += 1;
    }
    lines
}

/// Rows of labels at a line of text: one over it and one under it, in the gaps between
/// lines; a third would lie on the next line's letters.
pub const LABEL_ROWS: usize = 2;

/// Where labels go at a line of text so that none overlaps another: each of `want`
/// (its centre and width) wants to be centred over its caret, within `lo..hi`, `gap`
/// apart from the next. Each goes on the row ([`LABEL_ROWS`] of them) and at the place
/// nearest its caret that is free, the lowest row first of two as near. The left edge and
/// row of each, in `want`'s order; `None` if one fits nowhere (too many, too long: the
/// caller shortens them). The canvas lays racers' names out this way (the terminal lists
/// them under the text instead).
pub fn labels(want: &[(f64, f64)], lo: f64, hi: f64, gap: f64) -> Option<Vec<(f64, usize)>> {
    // Left to right. An insertion sort of at most sixteen: the library's sort would
    // carry its whole algorithm into the wasm for this one use.
    let mut order: Vec<usize> = Vec::with_capacity(want.len());
    for i in 0..want.len() {
        let at = order.partition_point(|&o| want[o].0 <= want[i].0);
        order.insert(at, i);
    }
    let mut rows: [Vec<(f64, f64)>; LABEL_ROWS] = Default::default();
    let mut out = vec![(0.0, 0); want.len()];
    for i in order {
        let (centre, width) = want[i];
        let last = hi - width;
        if last < lo {
            return None;
        }
        // Not `f64::clamp`: its check formats floats, which the wasm would carry.
        let ideal = (centre - width / 2.0).max(lo).min(last);
        let free = |row: &[(f64, f64)], x: f64| {
            (lo..=last).contains(&x)
                && row
                    .iter()
                    .all(|&(a, b)| x + width + gap <= a || b + gap <= x)
        };
        // The places worth trying on a row: where it wants to be, and just past either
        // side of each label there.
        let best = rows.iter().enumerate().filter_map(|(r, row)| {
            let sides = row.iter().flat_map(|&(a, b)| [b + gap, a - gap - width]);
            std::iter::once(ideal)
                .chain(sides)
                .filter(|&x| free(row, x))
                .map(|x| ((x - ideal).abs(), r, x))
                .min_by(|a, b| a.0.total_cmp(&b.0))
        });
        let (_, row, left) = best.min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)))?;
        rows[row].push((left, left + width));
        out[i] = (left, row);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    /// The play-test: racers' labels overlapped into unreadable text when their carets
    /// were close, on a desktop's width and a phone's. Laid out, none overlaps another,
    /// each stays inside the column, and one alone sits right over its caret.
    #[test]
    fn labels_over_close_carets_never_overlap() {
        let overlap = |a: (f64, usize, f64), b: (f64, usize, f64)| {
            a.1 == b.1 && a.0 < b.0 + b.2 && b.0 < a.0 + a.2
        };
        // A desktop's column with up to six labels, a phone's with up to four (more are
        // shortened to names): carets a few cells apart.
        for (lo, hi, most) in [(0.0, 760.0, 6), (0.0, 350.0, 4)] {
            for n in 2..=most {
                for spacing in [0.0, 3.0, 9.0, 40.0] {
                    let want: Vec<(f64, f64)> = (0..n)
                        .map(|i| (hi / 2.0 + spacing * f64::from(i), 70.0 + 9.0 * f64::from(i)))
                        .collect();
                    let placed = labels(&want, lo, hi, 6.0).expect("room for them all");
                    let boxes: Vec<_> = placed
                        .iter()
                        .zip(&want)
                        .map(|(&(x, r), &(_, w))| (x, r, w))
                        .collect();
                    for (i, a) in boxes.iter().enumerate() {
                        assert!(a.0 >= lo && a.0 + a.2 <= hi, "{a:?} out of {lo}..{hi}");
                        for b in &boxes[i + 1..] {
                            assert!(!overlap(*a, *b), "{a:?} and {b:?} of {want:?}");
                        }
                    }
                }
            }
        }
        assert_eq!(
            labels(&[(100.0, 40.0)], 0.0, 760.0, 6.0),
            Some(vec![(80.0, 0)])
        );
        // At the column's edge: inside it.
        assert_eq!(
            labels(&[(5.0, 40.0)], 0.0, 760.0, 6.0),
            Some(vec![(0.0, 0)])
        );
        // Sixteen long labels on a phone don't fit: the caller shortens them.
        assert_eq!(labels(&[(100.0, 200.0); 16], 0.0, 350.0, 6.0), None);
    }

    use super::*;

    #[test]
    fn wrap_breaks_between_hints_then_at_spaces() {
        let fits = |n: usize| move |t: &str| t.chars().count() <= n;
        let hints = "tab again · r watch it · esc menu";
        assert_eq!(wrap(hints, fits(40)), [hints]);
        assert_eq!(
            wrap(hints, fits(24)),
            ["tab again · r watch it", "esc menu"]
        );
        assert_eq!(
            wrap(hints, fits(12)),
            ["tab again", "r watch it", "esc menu"]
        );
        assert_eq!(
            wrap("a sentence with no dots", fits(12)),
            ["a sentence", "with no dots"]
        );
        assert_eq!(wrap("unbreakable", fits(4)), ["unbreakable"]);
    }
    use crate::app::{App, Key, Now};
    use crate::model::Body;
    use crate::storage::Stored;
    use crate::zone::Fixed;

    fn at(mono: f64) -> Now {
        Now {
            mono,
            unix_ms: 1_796_154_720_000,
        }
    }

    fn play(app: &App, t: f64) -> Play {
        match app.model(t, &Fixed(0)).body {
            Body::Play(p) => p,
            _ => panic!("not playing"),
        }
    }

    #[test]
    fn the_text_scrolls_a_line_when_the_caret_reaches_the_third() {
        let mut app = App::new(7, &Stored::default(), None).0;
        app.key(Key::Char('3'), at(0.0));
        let mut scroll = Scroll::default();
        let (mut t, mut firsts) = (0.0, vec![]);
        for _ in 0..40 {
            let p = play(&app, t);
            let lines = scroll.lines(&p, 24, &one_column);
            assert_eq!(lines.len(), LINES);
            let caret_line = lines
                .iter()
                .position(|l| l.iter().any(|&(w, _)| w == p.caret.0));
            assert!(matches!(caret_line, Some(0 | 1)), "{caret_line:?}");
            for line in &lines {
                let &(w, col) = line.last().unwrap();
                assert!(
                    col + p.word(w).unwrap().cols(&one_column) <= 24,
                    "fits in 24 columns"
                );
                let words: Vec<usize> = line.iter().map(|&(w, _)| w).collect();
                assert!(words.windows(2).all(|w| w[1] == w[0] + 1), "in order");
            }
            firsts.push(lines[0][0].0);
            let word = p.word(p.caret.0).unwrap().target();
            for c in word.chars().chain([' ']) {
                app.key(Key::Char(c), at(t));
                t += 50.0;
            }
        }
        assert!(firsts.windows(2).all(|f| f[0] <= f[1]), "never back");
        assert!(firsts.last() > Some(&20), "scrolled on: {firsts:?}");

        // A new round starts at its first word.
        app.key(Key::Tab, at(t));
        let lines = scroll.lines(&play(&app, t), 24, &one_column);
        assert_eq!(lines[0][0], (0, 0));
    }

    #[test]
    fn wide_characters_take_their_columns_and_the_words_after_them_move_over() {
        let mut app = App::new(7, &Stored::default(), None).0;
        app.key(Key::Char('z'), at(0.0));
        let first = play(&app, 0.0).word(0).unwrap().target();
        for c in first.chars().chain("中文中文".chars()) {
            app.key(Key::Char(c), at(0.0));
        }
        let p = play(&app, 0.0);
        let wide = |c: char| if c.is_ascii() { 1 } else { 2 };
        let word = p.word(0).unwrap();
        let n = first.chars().count();
        assert_eq!(word.cols(&wide), n + 8);
        assert_eq!(word.col_of(n + 1, &wide), n + 2, "after one wide extra");
        let lines = Scroll::default().lines(&p, 40, &wide);
        assert_eq!(lines[0][1], (1, n + 9), "the next word, a space after");
        for line in &lines {
            let &(w, col) = line.last().unwrap();
            assert!(col + p.word(w).unwrap().cols(&wide) <= 40, "fits");
        }
    }

    #[test]
    fn a_word_wider_than_the_column_still_shows_with_the_caret() {
        let mut app = App::new(7, &Stored::default(), None).0;
        app.key(Key::Char('z'), at(0.0));
        for _ in 0..30 {
            app.key(Key::Char('x'), at(0.0));
        }
        let p = play(&app, 0.0);
        let lines = Scroll::default().lines(&p, 8, &one_column);
        assert_eq!(lines[0][0], (0, 0));
        assert!(p.word(0).unwrap().cols(&one_column) > 8);
    }
}
