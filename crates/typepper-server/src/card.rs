//! Each run's own card: the 1200×630 PNG a share link unfurls as in a chat.
//!
//! How it is made:
//! 1. [`Card::of`] plays the run's replay and takes what the card says: the headline, the
//!    mode's title, the player, accuracy and consistency, the date, and the results
//!    chart's model from the game crate (its lines, errors, scale and legend), so the card
//!    draws the one chart the results screen draws, in the game's colours. A quote's card
//!    says whose the passage is, and a custom text's how it starts ([`source`]), on a line
//!    of their own.
//! 2. [`Card::svg`] lays it out as an SVG. The font is monospace, so a text's width is
//!    its length times the font's advance: each text is fitted to its room by shrinking
//!    its size, never by running past the edge or into another.
//! 3. [`Cards::draw`] renders the SVG to a PNG with resvg. The only font is the one
//!    embedded in the binary (JetBrains Mono Bold, SIL OFL 1.1: `fonts/OFL.txt`), loaded
//!    once: no system font, file or network is read at draw time.
//! 4. [`Cards`] keeps the PNGs drawn, within a byte budget, the oldest going first, and
//!    draws each run's once however many ask at the same moment.

use std::collections::{HashMap, VecDeque};
use std::fmt::Write as _;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use tokio::sync::OnceCell;
use typepper_engine::{Base, Decimal, Mode, Replay};
use typepper_game::model::Chart;
use typepper_game::palette::Tone;

/// The card's size in pixels: the size link previews ask for (1.91:1).
pub const WIDTH: u32 = 1200;
/// The card's height.
pub const HEIGHT: u32 = 630;
/// Bumped when the card's drawing changes. A card is cached for good, so the version is
/// in the URL share pages give for it (`?v=`), and in its `ETag`. 2: the title takes the
/// room the player's name leaves, for the long titles of a text's settings.
pub const VERSION: u32 = 2;

/// The one font a card is drawn with.
static FONT: &[u8] = include_bytes!("../fonts/JetBrainsMono-Bold.ttf");
/// Its family name, as the SVG asks for it.
const FAMILY: &str = "JetBrains Mono";
/// Every glyph of the font is this wide, in ems.
const ADVANCE: f64 = 0.6;
/// The space around everything.
const MARGIN: f64 = 64.0;
/// Room between two texts on one line.
const GAP: f64 = 40.0;
// The lines' baselines are set so that each text's line box (the font's ascent, 1.02 em,
// over its descent, 0.3 em) ends above the next one's: the layout test checks the boxes
// resvg lays out.

/// What a run's card says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Card {
    /// `108 wpm`, `31 words`.
    pub headline: String,
    /// `BLITZ 15s`.
    pub title: String,
    /// Whose: `ada`, `ada (guest)`.
    pub player: String,
    /// `97.5% accuracy · 81.2% consistency`.
    pub stats: String,
    /// `2026-12-03`, UTC.
    pub date: String,
    /// Whose a quote is (`— Jane Austen, Pride and Prejudice`), or how a custom text
    /// starts, as far as the font has its letters ([`source`]); `None` for a drawn text.
    pub source: Option<String>,
    /// The results chart.
    pub chart: Chart,
}

/// The most characters of a custom text a card shows: a line at a size still read in a
/// chat's preview.
pub const CARD_EXCERPT: usize = 56;

/// What a round's text is, when it is a given one, in a line: a quote's author and work
/// (`— Jane Austen, Pride and Prejudice`), or the start of a custom `text` in quotation
/// marks, cut at a word within `chars` characters (`“It was a dark and stormy…”`). `None`
/// for a text the seed draws.
pub fn source(mode: Mode, text: Option<&str>, chars: usize) -> Option<String> {
    match (mode.base(), text) {
        (Base::Quote(n), _) => {
            let passage = typepper_engine::quotes::passage(mode.prose().language, n)?;
            Some(match passage.work {
                "" => format!("— {}", passage.author),
                work => format!("— {}, {work}", passage.author),
            })
        }
        (Base::Custom, Some(text)) => Some(format!("“{}”", excerpt(text, chars))),
        _ => None,
    }
}

/// The start of `text`, at most `chars` characters: whole, or cut after its last whole
/// word that fits (or mid-word if the first is longer), with `…`.
pub fn excerpt(text: &str, chars: usize) -> String {
    if text.chars().count() <= chars {
        return text.to_owned();
    }
    let room = chars.saturating_sub(1);
    let cut: String = text.chars().take(room).collect();
    // The cut's last word is whole only if a space follows it in the text.
    let whole = match text.chars().nth(room) {
        Some(' ') => cut.as_str(),
        _ => cut
            .rsplit_once(' ')
            .map_or(cut.as_str(), |(words, _)| words),
    };
    format!("{}…", whole.trim_end())
}

/// `line` as far as the card's font has its letters (a letter it lacks would be drawn as
/// a box): whole, or cut before the first it lacks, with `…`; `None` if that leaves no
/// word.
fn drawable(line: &str) -> Option<String> {
    use skrifa::MetadataProvider as _;
    let font = skrifa::FontRef::new(FONT).ok()?;
    let charmap = font.charmap();
    let Some(at) = line.char_indices().find(|&(_, c)| charmap.map(c).is_none()) else {
        return Some(line.to_owned());
    };
    let kept = line[..at.0].trim_end();
    kept.chars()
        .any(char::is_alphanumeric)
        .then(|| format!("{kept}…"))
}

/// A text placed on the card.
#[derive(Clone, Debug, PartialEq)]
struct Label<'a> {
    text: &'a str,
    /// Where its baseline starts (or, for [`Anchor::End`], ends).
    x: f64,
    y: f64,
    size: f64,
    tone: Tone,
    anchor: Anchor,
}

/// The baselines of the lines below the title, and the top of the chart.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Lines {
    source: f64,
    stats: f64,
    chart: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Anchor {
    Start,
    End,
}

impl Card {
    /// The card of a run of `player`'s, stored at `created_ms`, with `replay` bytes;
    /// `None` if the replay doesn't play.
    pub fn of(replay: &[u8], player: String, created_ms: i64) -> Option<Card> {
        let replay = Replay::decode(replay).ok()?;
        let (_, score) = replay.play().ok()?;
        let source = source(score.mode, replay.text.as_deref(), CARD_EXCERPT);
        Some(Card {
            source: source.as_deref().and_then(drawable),
            headline: score.headline().to_string(),
            title: score.mode.title(),
            player,
            stats: format!(
                "{}% accuracy · {}% consistency",
                Decimal(score.accuracy_x100.into()),
                Decimal(score.consistency_x100.into())
            ),
            date: typepper_api::Utc::of(created_ms).day(),
            chart: Chart::new(&score.samples, None),
        })
    }

    /// The card of a player's profile, on `today_ms`: their best wpm (or their rounds,
    /// with no best), their rounds and time typed, and their chart over every round.
    pub fn profile(profile: &typepper_api::profile::Profile, today_ms: i64) -> Card {
        let best = profile.best_wpm();
        let joined = profile.joined_day();
        Card {
            headline: match best {
                Some(b) => format!("{} wpm", b.score),
                None => profile.all.said(),
            },
            title: match best {
                Some(b) => format!("best · {}", b.title),
                None => "typepper".into(),
            },
            player: profile.name.clone(),
            stats: format!("{} · since {joined}", profile.all.said()),
            date: typepper_api::Utc::of(today_ms).day(),
            source: None,
            chart: Chart::rounds(&profile.chart),
        }
    }

    /// The card as an SVG of [`WIDTH`] × [`HEIGHT`].
    pub fn svg(&self) -> String {
        let (w, h) = (f64::from(WIDTH), f64::from(HEIGHT));
        let inner = w - 2.0 * MARGIN;
        let mut svg = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="{FAMILY}"><rect width="{WIDTH}" height="{HEIGHT}" fill="{}"/>"#,
            css(Tone::Background)
        );
        // The flame along the top edge, in the game's HOT PURSUIT colours.
        svg.push_str(r#"<linearGradient id="flame">"#);
        let flame = typepper_game::theme::Theme::TYPEPPER.flame();
        for (i, rgb) in flame.iter().enumerate() {
            let at = i * 100 / (flame.len() - 1);
            let _ = write!(svg, r##"<stop offset="{at}%" stop-color="#{rgb:06x}"/>"##);
        }
        let _ = write!(
            svg,
            r#"</linearGradient><rect width="{WIDTH}" height="10" fill="url(#flame)"/>"#
        );
        for label in self.labels(inner) {
            let _ = write!(
                svg,
                r#"<text x="{:.1}" y="{:.1}" font-size="{:.1}" fill="{}"{}>{}</text>"#,
                label.x,
                label.y,
                label.size,
                css(label.tone),
                match label.anchor {
                    Anchor::Start => "",
                    Anchor::End => r#" text-anchor="end""#,
                },
                crate::escape_markup(label.text)
            );
        }
        let chart = self.lines().chart;
        self.draw_chart(&mut svg, MARGIN, chart, inner, h - chart - 34.0);
        svg.push_str("</svg>");
        svg
    }

    /// The card's chart alone, as an SVG of `width` × `height` for a page.
    pub fn chart_svg(&self, width: u32, height: u32) -> String {
        let mut svg = format!(
            r#"<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" font-family="{FAMILY}" role="img" aria-label="wpm and accuracy over every round">"#
        );
        self.draw_chart(
            &mut svg,
            0.0,
            4.0,
            f64::from(width),
            f64::from(height) - 8.0,
        );
        svg.push_str("</svg>");
        svg
    }

    /// Where the lines below the title go: with a source line, the stats and the chart
    /// move down to make room for it.
    fn lines(&self) -> Lines {
        match self.source {
            None => Lines {
                source: 0.0,
                stats: 400.0,
                chart: 436.0,
            },
            Some(_) => Lines {
                source: 398.0,
                stats: 442.0,
                chart: 466.0,
            },
        }
    }

    /// Every text but the chart's, fitted to its room.
    fn labels(&self, inner: f64) -> Vec<Label<'_>> {
        let lines = self.lines();
        let right = MARGIN + inner;
        let half = (inner - GAP) / 2.0;
        let label = |text, x, y, size, tone, anchor| Label {
            text,
            x,
            y,
            size,
            tone,
            anchor,
        };
        use Anchor::{End, Start};
        let wordmark = label("typepper", MARGIN, 78.0, 44.0, Tone::Accent, Start);
        let date = label(&self.date, right, 78.0, 30.0, Tone::Dim, End);
        let headline = label(
            &self.headline,
            MARGIN,
            256.0,
            fit(&self.headline, 160.0, inner),
            Tone::Accent,
            Start,
        );
        // The title and the player share a line: the player takes at most half, and the
        // title the rest (a title with its text's settings, `WORDS 100 · punctuation ·
        // numbers · українська`, is long; most names are short).
        let player_size = fit(&self.player, 46.0, half);
        let player = label(&self.player, right, 352.0, player_size, Tone::Caret, End);
        let title_room = inner - GAP - width(&self.player, player_size);
        let title = label(
            &self.title,
            MARGIN,
            352.0,
            fit(&self.title, 46.0, title_room),
            Tone::Text,
            Start,
        );
        // The stats on the left and the chart's legend on the right, read from the right.
        let legend: Vec<_> = self.chart.legend().collect();
        let legend_size = 24.0;
        let legend_width: f64 = legend
            .iter()
            .map(|(text, _)| width(text, legend_size) + GAP / 2.0)
            .sum();
        let stats = label(
            &self.stats,
            MARGIN,
            lines.stats,
            fit(&self.stats, 30.0, inner - legend_width - GAP),
            Tone::Dim,
            Start,
        );
        let mut labels = vec![wordmark, date, headline, title, player, stats];
        if let Some(source) = &self.source {
            let size = fit(source, 28.0, inner);
            labels.push(label(source, MARGIN, lines.source, size, Tone::Dim, Start));
        }
        let mut x = right;
        for (text, tone) in legend {
            labels.push(label(text, x, lines.stats, legend_size, tone, End));
            x -= width(text, legend_size) + GAP / 2.0;
        }
        labels
    }

    /// The results chart in the box at (`x`, `y`) of `width` × `height`: grid lines at the
    /// chart's ticks, raw and wpm each second, and a dot on each second with errors.
    fn draw_chart(&self, svg: &mut String, x: f64, y: f64, width: f64, height: f64) {
        let chart = &self.chart;
        let top = f64::from(chart.top.max(1)) * 100.0;
        let bottom = y + height;
        let step = width / (chart.seconds.max(2) - 1) as f64;
        // A long round's seconds are close together: its marks thin out with them, so
        // an hour's chart reads as lines, not as a wall of dots.
        let thin = |most: f64, least: f64| (step * most / 24.0).clamp(least, most);
        let at = |i: usize, v: u32| {
            let v = f64::from(v).min(top);
            (x + i as f64 * step, bottom - v / top * height)
        };
        for tick in chart.ticks() {
            let ty = bottom - f64::from(tick) * 100.0 / top * height;
            let _ = write!(
                svg,
                r#"<line x1="{x:.1}" y1="{ty:.1}" x2="{:.1}" y2="{ty:.1}" stroke="{}" stroke-width="2"/>"#,
                x + width,
                css(Tone::Faint)
            );
        }
        for line in chart.lines() {
            // A line of one point (a profile's first round) is a dot.
            if chart.seconds == 1
                && let Some(v) = line.points().next()
            {
                let (px, py) = at(0, v);
                let _ = write!(
                    svg,
                    r#"<circle cx="{:.1}" cy="{py:.1}" r="8" fill="{}"/>"#,
                    px + width / 2.0,
                    css(line.tone)
                );
            }
            let mut points = String::new();
            for (i, v) in line.points().enumerate() {
                let (px, py) = at(i, v);
                let _ = write!(points, "{px:.1},{py:.1} ");
            }
            let _ = write!(
                svg,
                r#"<polyline points="{}" fill="none" stroke="{}" stroke-width="{:.1}" stroke-linejoin="round" stroke-linecap="round"/>"#,
                points.trim_end(),
                css(line.tone),
                if line.bold {
                    thin(6.0, 3.0)
                } else {
                    thin(3.0, 1.0)
                }
            );
        }
        for (i, raw) in chart.errors() {
            let (px, py) = at(i, raw);
            let _ = write!(
                svg,
                r#"<circle cx="{px:.1}" cy="{py:.1}" r="{:.1}" fill="{}"/>"#,
                thin(6.0, 1.5),
                css(Tone::Wrong)
            );
        }
    }
}

/// How wide `text` is at `size`, in pixels.
fn width(text: &str, size: f64) -> f64 {
    text.chars().count() as f64 * ADVANCE * size
}

/// `size`, or as much smaller as `text` needs to be at most `room` wide.
fn fit(text: &str, size: f64, room: f64) -> f64 {
    let wide = width(text, size);
    if wide <= room {
        size
    } else {
        size * room / wide
    }
}

/// `pixmap` as a PNG of RGB: the card is opaque, so its alpha would be a quarter of the
/// bytes to compress for nothing. Unfiltered rows suit a picture of flat colours: deflate
/// finds their runs as they are, and filtering them only costs time (docs/PERFORMANCE.md
/// has the sizes and times of each choice).
pub fn encode(pixmap: &resvg::tiny_skia::Pixmap) -> Result<Vec<u8>, String> {
    let mut rgb = Vec::with_capacity(pixmap.pixels().len() * 3);
    for pixel in pixmap.pixels() {
        let c = pixel.demultiply();
        rgb.extend([c.red(), c.green(), c.blue()]);
    }
    let mut png = Vec::new();
    let mut encoder = png::Encoder::new(&mut png, pixmap.width(), pixmap.height());
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Balanced);
    encoder.set_filter(png::Filter::NoFilter);
    let wrote = encoder
        .write_header()
        .and_then(|mut w| w.write_image_data(&rgb).and_then(|()| w.finish()));
    wrote.map_err(|e| format!("the card doesn't encode: {e}"))?;
    Ok(png)
}

/// A tone's colour as SVG writes it.
fn css(tone: Tone) -> String {
    format!("#{:06x}", typepper_game::theme::Theme::TYPEPPER.rgb(tone))
}

/// Draws that may wait for a core at once; past them a card is refused as busy.
const QUEUED: usize = 64;

/// Cards drawn, by run id, within a byte budget; and the font, loaded once.
pub struct Cards {
    fonts: Arc<resvg::usvg::fontdb::Database>,
    budget: usize,
    inner: Mutex<Held>,
    /// A draw holds a permit: as many draw at once as the machine has cores, so a burst
    /// of cold cards waits its turn rather than each holding a canvas's megabytes.
    drawing: tokio::sync::Semaphore,
    /// Draws waiting for a permit or drawing.
    queued: AtomicUsize,
    /// Cards drawn so far.
    drawn: AtomicU64,
}

#[derive(Default)]
struct Held {
    /// Each run's card, drawn or being drawn: everyone who asks meanwhile waits on the
    /// one drawing.
    cards: HashMap<String, Kept>,
    /// Ids in the order they were put in, with their entry's generation, for eviction:
    /// an id evicted and asked for again is a new entry, which its old place in the
    /// order must not evict.
    order: VecDeque<(String, u64)>,
    /// The next entry's generation.
    next: u64,
    /// Bytes of the cards drawn.
    bytes: usize,
}

/// One run's card.
struct Kept {
    cell: Arc<OnceCell<Arc<[u8]>>>,
    generation: u64,
    /// Its size once drawn and counted in [`Held::bytes`].
    bytes: Option<usize>,
}

/// Why there is no card.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CardError {
    /// Too many cards are waiting to be drawn: ask again in a moment.
    Busy,
    /// The run's card can't be drawn (its replay doesn't play, or resvg failed).
    Broken(String),
}

/// What the cards hold and have done, for the metrics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Cards held.
    pub cards: usize,
    /// Bytes of them.
    pub bytes: usize,
    /// Cards drawn since the server started.
    pub drawn: u64,
}

impl Cards {
    /// No cards yet, at most `budget` bytes of them; the font loaded.
    pub fn new(budget: usize) -> Cards {
        let mut fonts = resvg::usvg::fontdb::Database::new();
        fonts.load_font_data(FONT.to_vec());
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        Cards {
            fonts: Arc::new(fonts),
            budget,
            inner: Mutex::default(),
            drawing: tokio::sync::Semaphore::new(cores),
            queued: AtomicUsize::new(0),
            drawn: AtomicU64::new(0),
        }
    }

    /// `svg` drawn as a PNG.
    pub fn draw(&self, svg: &str) -> Result<Vec<u8>, String> {
        encode(&self.render(svg)?)
    }

    /// `svg` drawn in pixels.
    pub fn render(&self, svg: &str) -> Result<resvg::tiny_skia::Pixmap, String> {
        let options = resvg::usvg::Options {
            font_family: FAMILY.into(),
            fontdb: self.fonts.clone(),
            ..resvg::usvg::Options::default()
        };
        let tree = resvg::usvg::Tree::from_str(svg, &options)
            .map_err(|e| format!("the card's SVG doesn't parse: {e}"))?;
        let mut pixmap =
            resvg::tiny_skia::Pixmap::new(WIDTH, HEIGHT).ok_or("no pixmap of the card's size")?;
        resvg::render(
            &tree,
            resvg::tiny_skia::Transform::identity(),
            &mut pixmap.as_mut(),
        );
        Ok(pixmap)
    }

    /// The card of run `id`, drawn from `card` the first time it is asked for, and kept.
    pub async fn get_or_draw(
        self: &Arc<Self>,
        id: &str,
        card: impl FnOnce() -> Option<Card> + Send + 'static,
    ) -> Result<Arc<[u8]>, CardError> {
        let (cell, generation) = {
            let mut held = self.held();
            let Held {
                cards, order, next, ..
            } = &mut *held;
            let kept = cards.entry(id.to_owned()).or_insert_with(|| {
                *next += 1;
                order.push_back((id.to_owned(), *next));
                Kept {
                    cell: Arc::new(OnceCell::new()),
                    generation: *next,
                    bytes: None,
                }
            });
            (kept.cell.clone(), kept.generation)
        };
        if let Some(png) = cell.get() {
            return Ok(png.clone());
        }
        // The drawing is a task of its own: a request that gives up (its timeout, its
        // client gone) leaves it to finish, rather than throwing away what the next ask
        // would draw again.
        let (cards, id) = (self.clone(), id.to_owned());
        let drawing = tokio::spawn(async move {
            let drawn = cell
                .get_or_try_init(|| cards.clone().png(card))
                .await
                .cloned();
            match &drawn {
                Ok(png) => cards.account(&id, generation, png.len()),
                // Nothing is kept of a card that failed: the next ask tries again.
                Err(_) => cards.forget(&id, generation),
            }
            drawn
        });
        drawing
            .await
            .map_err(|e| CardError::Broken(format!("drawing the card stopped: {e}")))?
    }

    /// `card` drawn as a PNG on a blocking thread (it takes milliseconds of CPU), once a
    /// core is free for it.
    async fn png(
        self: Arc<Self>,
        card: impl FnOnce() -> Option<Card> + Send + 'static,
    ) -> Result<Arc<[u8]>, CardError> {
        if self.queued.fetch_add(1, Ordering::SeqCst) >= QUEUED {
            self.queued.fetch_sub(1, Ordering::SeqCst);
            return Err(CardError::Busy);
        }
        let drawn = async {
            let _permit = self.drawing.acquire().await.map_err(|_| CardError::Busy)?;
            let cards = self.clone();
            tokio::task::spawn_blocking(move || {
                let card = card().ok_or("the run's replay doesn't play")?;
                cards.drawn.fetch_add(1, Ordering::Relaxed);
                cards.draw(&card.svg())
            })
            .await
            .map_err(|e| format!("drawing the card stopped: {e}"))
            .flatten()
            .map(Arc::from)
            .map_err(CardError::Broken)
        }
        .await;
        self.queued.fetch_sub(1, Ordering::SeqCst);
        drawn
    }

    /// Counts the card drawn for entry `generation` of `id`, if it is still held, and
    /// drops the oldest cards past the budget.
    fn account(&self, id: &str, generation: u64, bytes: usize) {
        let mut held = self.held();
        let Held {
            cards,
            order,
            bytes: total,
            ..
        } = &mut *held;
        match cards.get_mut(id) {
            Some(kept) if kept.generation == generation && kept.bytes.is_none() => {
                kept.bytes = Some(bytes);
            }
            _ => return,
        }
        *total += bytes;
        while *total > self.budget {
            let Some((victim, generation)) = order.pop_front() else {
                break;
            };
            if cards
                .get(&victim)
                .is_some_and(|k| k.generation == generation)
                && let Some(kept) = cards.remove(&victim)
            {
                *total -= kept.bytes.unwrap_or(0);
            }
        }
    }

    /// Lets go of entry `generation` of `id`, whose card could not be drawn.
    fn forget(&self, id: &str, generation: u64) {
        let mut held = self.held();
        if held
            .cards
            .get(id)
            .is_some_and(|k| k.generation == generation)
        {
            held.cards.remove(id);
        }
        // The order keeps its place until eviction reaches it; don't let failures grow
        // it past the cards it stands for.
        if held.order.len() > 2 * held.cards.len() + 64 {
            let Held { cards, order, .. } = &mut *held;
            order.retain(|(id, g)| cards.get(id).is_some_and(|k| k.generation == *g));
        }
    }

    /// What the cards hold.
    pub fn stats(&self) -> Stats {
        let held = self.held();
        Stats {
            cards: held.cards.len(),
            bytes: held.bytes,
            drawn: self.drawn.load(Ordering::Relaxed),
        }
    }

    fn held(&self) -> std::sync::MutexGuard<'_, Held> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use typepper_engine::Mode;
    use typepper_engine::synth::{Typist, synth};

    fn replay(seed: u64) -> Vec<u8> {
        synth(Mode::BLITZ_15, seed, &Typist::default()).encode()
    }

    #[tokio::test]
    async fn cards_are_kept_within_their_budget_the_oldest_going_first() {
        let one = Cards::new(1 << 20)
            .draw(&Card::of(&replay(1), "ada".into(), 0).unwrap().svg())
            .unwrap()
            .len();
        // Room for two cards and a half.
        let cards = Arc::new(Cards::new(one * 5 / 2));
        for seed in 1..=4 {
            let bytes = replay(seed);
            let id = format!("run{seed:05}");
            cards
                .get_or_draw(&id, move || Card::of(&bytes, "ada".into(), 0))
                .await
                .unwrap();
            assert!(cards.stats().bytes <= one * 5 / 2, "{:?}", cards.stats());
        }
        assert_eq!(cards.stats().cards, 2);
        assert_eq!(cards.stats().drawn, 4);
        // The newest is kept; the oldest was let go, and is drawn again when asked for.
        let again = || Card::of(&replay(4), "ada".into(), 0);
        cards.get_or_draw("run00004", again).await.unwrap();
        assert_eq!(cards.stats().drawn, 4);
        let first = || Card::of(&replay(1), "ada".into(), 0);
        cards.get_or_draw("run00001", first).await.unwrap();
        assert_eq!(cards.stats().drawn, 5);
    }

    /// A request that gives up leaves its card to be drawn, once, for the next.
    #[tokio::test]
    async fn a_card_asked_for_and_given_up_on_is_drawn_once_all_the_same() {
        let cards = Arc::new(Cards::new(1 << 20));
        let bytes = replay(1);
        let given_up = tokio::time::timeout(
            std::time::Duration::ZERO,
            cards.get_or_draw("run00001", move || Card::of(&bytes, "ada".into(), 0)),
        )
        .await;
        assert!(
            given_up.is_err(),
            "the request gave up before the card was drawn"
        );
        let bytes = replay(1);
        let png = cards
            .get_or_draw("run00001", move || Card::of(&bytes, "ada".into(), 0))
            .await
            .unwrap();
        assert_eq!(cards.stats().drawn, 1);
        assert_eq!(cards.stats().bytes, png.len());
    }

    #[tokio::test]
    async fn a_replay_that_does_not_play_draws_no_card_and_keeps_nothing() {
        let cards = Arc::new(Cards::new(1 << 20));
        let drawn = cards
            .get_or_draw("junk0000", || Card::of(b"junk", "ada".into(), 0))
            .await;
        assert_eq!(
            drawn,
            Err(CardError::Broken("the run's replay doesn't play".into()))
        );
        assert_eq!(cards.stats().cards, 0);
    }
}
