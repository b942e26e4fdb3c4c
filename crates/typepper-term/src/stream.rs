//! A terminal at the far end of a byte stream, as an SSH server has one: the client's
//! terminal sends its keys as bytes ([`Input`] reads them as crossterm's events, the ones
//! the local game reads), and takes frames as bytes ([`Screen`], a ratatui backend of
//! the size the client says, drawing into memory). ratatui writes only the cells that
//! changed since the last frame, so a keypress costs a few dozen bytes, not a screen.

use std::io;

use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use ratatui::backend::{Backend, ClearType, CrosstermBackend, WindowSize};
use ratatui::buffer::Cell;
use ratatui::layout::{Position, Size};

/// The widest and tallest terminal drawn, in cells. A client may say any size up to
/// 65535×65535; a screen's memory is its cells (twice: ratatui keeps the last frame),
/// so a larger one is drawn at this size in its top left corner.
pub const MAX_SIZE: (u16, u16) = (320, 120);

/// The most bytes held for an escape sequence or a paste still arriving: past it, what
/// is held goes (a paste as what arrived so far).
const MAX_HELD: usize = 64 * 1024;

/// `cols`×`rows` as a client said them (0 for "unknown" too), made a size the game can
/// draw: at least 1×1, at most [`MAX_SIZE`].
pub fn clamp(cols: u32, rows: u32) -> Size {
    let fit = |n: u32, max: u16| u16::try_from(n).unwrap_or(max).clamp(1, max);
    Size::new(fit(cols, MAX_SIZE.0), fit(rows, MAX_SIZE.1))
}

/// Reads a terminal's bytes as key and paste events.
#[derive(Debug, Default)]
pub struct Input {
    /// Bytes of a sequence or character not whole yet.
    held: Vec<u8>,
    /// Inside a bracketed paste: its bytes so far.
    paste: Option<Vec<u8>>,
}

/// What the bytes at the start of a buffer are.
enum Read {
    /// An event, from this many bytes.
    Event(Event, usize),
    /// Nothing the game takes, this many bytes long.
    Skip(usize),
    /// Not whole yet: wait for more.
    More,
}

impl Input {
    /// The events in `data`, appended to what came before it.
    ///
    /// An escape byte that ends `data` is the esc key: a terminal sends a key's sequence
    /// in one write, and SSH carries it in one packet, so a lone one is a key press.
    pub fn feed(&mut self, data: &[u8]) -> Vec<Event> {
        self.held.extend_from_slice(data);
        let mut events = vec![];
        let mut at = 0;
        while at < self.held.len() {
            let rest = &self.held[at..];
            if let Some(paste) = &mut self.paste {
                const END: &[u8] = b"\x1b[201~";
                match rest.windows(END.len()).position(|w| w == END) {
                    Some(end) => {
                        paste.extend_from_slice(&rest[..end]);
                        let text = String::from_utf8_lossy(paste).into_owned();
                        events.push(Event::Paste(text));
                        self.paste = None;
                        at += end + END.len();
                        continue;
                    }
                    None => {
                        // All but what may be the start of the end marker.
                        let keep = (1..END.len())
                            .rev()
                            .find(|&n| rest.ends_with(&END[..n]))
                            .unwrap_or(0);
                        paste.extend_from_slice(&rest[..rest.len() - keep]);
                        at += rest.len() - keep;
                        if paste.len() > MAX_HELD {
                            let text = String::from_utf8_lossy(paste).into_owned();
                            events.push(Event::Paste(text));
                            paste.clear();
                        }
                        break;
                    }
                }
            }
            match read(rest) {
                Read::Event(Event::Paste(_), n) => {
                    self.paste = Some(vec![]);
                    at += n;
                }
                Read::Event(event, n) => {
                    events.push(event);
                    at += n;
                }
                Read::Skip(n) => at += n,
                // A sequence never whole: junk, let go of.
                Read::More if rest.len() > 32 => at = self.held.len(),
                Read::More => break,
            }
        }
        self.held.drain(..at);
        if self.held.len() > MAX_HELD {
            self.held.clear();
        }
        events
    }
}

fn key(code: KeyCode, modifiers: KeyModifiers) -> Event {
    Event::Key(KeyEvent::new(code, modifiers))
}

/// What starts `bytes` (never empty).
fn read(bytes: &[u8]) -> Read {
    let plain = |code| Read::Event(key(code, KeyModifiers::NONE), 1);
    match bytes[0] {
        0x1b => escape(bytes),
        // Enter is a carriage return, which some terminals follow with a line feed or NUL.
        b'\r' => {
            let n = if matches!(bytes.get(1), Some(b'\n' | 0)) {
                2
            } else {
                1
            };
            Read::Event(key(KeyCode::Enter, KeyModifiers::NONE), n)
        }
        b'\n' => plain(KeyCode::Enter),
        0x7f | 0x08 => plain(KeyCode::Backspace),
        b'\t' => plain(KeyCode::Tab),
        0 => Read::Skip(1),
        // Ctrl and a letter: ^C is 3, ^W is 0x17.
        c @ 1..=0x1a => Read::Event(
            key(KeyCode::Char(char::from(c + 0x60)), KeyModifiers::CONTROL),
            1,
        ),
        0x1c..=0x1f => Read::Skip(1),
        _ => match utf8(bytes) {
            Some((c, n)) => Read::Event(key(KeyCode::Char(c), KeyModifiers::NONE), n),
            None if bytes.len() < utf8_len(bytes[0]) => Read::More,
            None => Read::Skip(1),
        },
    }
}

/// An escape sequence, or the esc key.
fn escape(bytes: &[u8]) -> Read {
    match bytes.get(1) {
        None => Read::Event(key(KeyCode::Esc, KeyModifiers::NONE), 1),
        // CSI: parameters, then a final byte.
        Some(b'[') => {
            let Some(end) = bytes[2..].iter().position(|b| (0x40..=0x7e).contains(b)) else {
                return Read::More;
            };
            let (params, last, n) = (&bytes[2..2 + end], bytes[2 + end], end + 3);
            let arrow = |code| Read::Event(key(code, KeyModifiers::NONE), n);
            match (params, last) {
                (_, b'A') => arrow(KeyCode::Up),
                (_, b'B') => arrow(KeyCode::Down),
                (_, b'C') => arrow(KeyCode::Right),
                (_, b'D') => arrow(KeyCode::Left),
                (b"200", b'~') => Read::Event(Event::Paste(String::new()), n),
                _ => Read::Skip(n),
            }
        }
        // SS3: the arrows in a terminal's application mode.
        Some(b'O') => match bytes.get(2) {
            None => Read::More,
            Some(b'A') => Read::Event(key(KeyCode::Up, KeyModifiers::NONE), 3),
            Some(b'B') => Read::Event(key(KeyCode::Down, KeyModifiers::NONE), 3),
            Some(b'C') => Read::Event(key(KeyCode::Right, KeyModifiers::NONE), 3),
            Some(b'D') => Read::Event(key(KeyCode::Left, KeyModifiers::NONE), 3),
            Some(_) => Read::Skip(3),
        },
        // Esc pressed twice.
        Some(0x1b) => Read::Event(key(KeyCode::Esc, KeyModifiers::NONE), 1),
        // Alt and backspace: deletes a word, as ^W does.
        Some(0x7f | 0x08) => Read::Event(key(KeyCode::Backspace, KeyModifiers::ALT), 2),
        // Alt and a key: the game takes none.
        Some(_) => match utf8(&bytes[1..]) {
            Some((c, n)) => Read::Event(key(KeyCode::Char(c), KeyModifiers::ALT), 1 + n),
            None if bytes.len() - 1 < utf8_len(bytes[1]) => Read::More,
            None => Read::Skip(2),
        },
    }
}

/// The bytes a UTF-8 character starting with `first` takes.
fn utf8_len(first: u8) -> usize {
    match first {
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf7 => 4,
        _ => 1,
    }
}

/// The character at the start of `bytes`, and its length, if it is whole and valid.
fn utf8(bytes: &[u8]) -> Option<(char, usize)> {
    let n = utf8_len(bytes[0]);
    let text = std::str::from_utf8(bytes.get(..n)?).ok()?;
    text.chars().next().map(|c| (c, n))
}

/// A terminal of a given size whose frames are bytes in memory, for the shell to send.
pub struct Screen {
    out: CrosstermBackend<Vec<u8>>,
    size: Size,
}

impl Screen {
    /// A `size` screen.
    pub fn new(size: Size) -> Screen {
        Screen {
            out: CrosstermBackend::new(vec![]),
            size,
        }
    }

    /// The client's terminal is now `size`.
    pub fn resize(&mut self, size: Size) {
        self.size = size;
    }

    /// The bytes written since this was last asked.
    pub fn take(&mut self) -> Vec<u8> {
        std::mem::take(self.out.writer_mut())
    }

    /// Writes `bytes` as they are (the clipboard's escape, a closing line).
    pub fn write(&mut self, bytes: &[u8]) {
        self.out.writer_mut().extend_from_slice(bytes);
    }
}

/// What a game's terminal is sent first: the alternate screen (the client's scrollback is
/// left as it was), no cursor until a frame places it, and pastes bracketed.
pub const OPEN: &[u8] = b"\x1b[?1049h\x1b[?25l\x1b[?2004h\x1b[2J";

/// What it is sent last: everything [`OPEN`] did, undone, and the colours and the
/// cursor's shape (which the caret setting chose) reset.
pub const CLOSE: &[u8] = b"\x1b[0m\x1b[0 q\x1b[?2004l\x1b[?25h\x1b[?1049l";

impl Backend for Screen {
    fn draw<'a, I>(&mut self, content: I) -> io::Result<()>
    where
        I: Iterator<Item = (u16, u16, &'a Cell)>,
    {
        self.out.draw(content)
    }

    fn hide_cursor(&mut self) -> io::Result<()> {
        self.out.hide_cursor()
    }

    fn show_cursor(&mut self) -> io::Result<()> {
        self.out.show_cursor()
    }

    fn get_cursor_position(&mut self) -> io::Result<Position> {
        // Asking the terminal takes a round trip; a full-screen game never needs to.
        Ok(Position::ORIGIN)
    }

    fn set_cursor_position<P: Into<Position>>(&mut self, position: P) -> io::Result<()> {
        self.out.set_cursor_position(position)
    }

    fn clear(&mut self) -> io::Result<()> {
        self.out.clear()
    }

    fn clear_region(&mut self, clear_type: ClearType) -> io::Result<()> {
        self.out.clear_region(clear_type)
    }

    fn size(&self) -> io::Result<Size> {
        Ok(self.size)
    }

    fn window_size(&mut self) -> io::Result<WindowSize> {
        Ok(WindowSize {
            columns_rows: self.size,
            pixels: Size::default(),
        })
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(input: &mut Input, bytes: &[u8]) -> Vec<(KeyCode, KeyModifiers)> {
        input
            .feed(bytes)
            .into_iter()
            .map(|e| match e {
                Event::Key(k) => (k.code, k.modifiers),
                other => panic!("{other:?}"),
            })
            .collect()
    }

    #[test]
    fn a_terminal_s_bytes_read_as_its_keys() {
        let none = KeyModifiers::NONE;
        let mut input = Input::default();
        assert_eq!(
            keys(&mut input, "aé🌶\r\x7f\x08\t".as_bytes()),
            vec![
                (KeyCode::Char('a'), none),
                (KeyCode::Char('é'), none),
                (KeyCode::Char('🌶'), none),
                (KeyCode::Enter, none),
                (KeyCode::Backspace, none),
                (KeyCode::Backspace, none),
                (KeyCode::Tab, none),
            ]
        );
        assert_eq!(
            keys(&mut input, b"\x1b[A\x1b[B\x1bOC\x1b[1;5D\x1b[3~\x03\x17"),
            vec![
                (KeyCode::Up, none),
                (KeyCode::Down, none),
                (KeyCode::Right, none),
                (KeyCode::Left, none),
                (KeyCode::Char('c'), KeyModifiers::CONTROL),
                (KeyCode::Char('w'), KeyModifiers::CONTROL),
            ]
        );
        // A lone esc is the key; esc and a letter is alt and the letter.
        assert_eq!(keys(&mut input, b"\x1b"), vec![(KeyCode::Esc, none)]);
        assert_eq!(
            keys(&mut input, b"\x1bx"),
            vec![(KeyCode::Char('x'), KeyModifiers::ALT)]
        );
        // Alt-backspace, as xterm and VTE send it: a word deleted, over `ssh` too.
        assert_eq!(
            keys(&mut input, b"\x1b\x7f\x1b\x08"),
            vec![(KeyCode::Backspace, KeyModifiers::ALT); 2]
        );
        // \r\n is one enter.
        assert_eq!(keys(&mut input, b"\r\n"), vec![(KeyCode::Enter, none)]);
    }

    /// Every letter a round's text can hold (each list's, their capitals, punctuation and
    /// digits) reads as one key, its own character, however the bytes are cut up.
    #[test]
    fn every_letter_of_every_list_reads_as_one_key() {
        let mut letters: Vec<char> = typepper_engine::Language::ALL
            .into_iter()
            .flat_map(|l| l.words().unwrap_or_default())
            .flat_map(|w| {
                format!("{w}{}", w.to_uppercase())
                    .chars()
                    .collect::<Vec<_>>()
            })
            .chain("0123456789,.;:!?'\"-()".chars())
            .collect();
        letters.sort_unstable();
        letters.dedup();
        assert!(
            letters.contains(&'ї') && letters.contains(&'Ł'),
            "{letters:?}"
        );
        let text: String = letters.iter().collect();
        let want: Vec<_> = letters
            .iter()
            .map(|&c| (KeyCode::Char(c), KeyModifiers::NONE))
            .collect();
        assert_eq!(keys(&mut Input::default(), text.as_bytes()), want);
        // A byte at a time, as a slow link might carry them.
        let mut input = Input::default();
        let got: Vec<_> = text.bytes().flat_map(|b| keys(&mut input, &[b])).collect();
        assert_eq!(got, want);
    }

    #[test]
    fn a_character_or_sequence_split_between_reads_is_read_whole() {
        let mut input = Input::default();
        let pepper = "🌶".as_bytes();
        assert!(keys(&mut input, &pepper[..2]).is_empty());
        assert_eq!(
            keys(&mut input, &pepper[2..]),
            vec![(KeyCode::Char('🌶'), KeyModifiers::NONE)]
        );
        assert!(keys(&mut input, b"\x1b[1;").is_empty());
        assert_eq!(
            keys(&mut input, b"5A"),
            vec![(KeyCode::Up, KeyModifiers::NONE)]
        );
        // Junk never whole is let go of, not held for ever.
        assert!(keys(&mut input, b"\x1b[").is_empty());
        assert!(keys(&mut input, &[b'1'; 40]).is_empty());
        assert_eq!(
            keys(&mut input, b"\xffz"),
            vec![(KeyCode::Char('z'), KeyModifiers::NONE)]
        );
    }

    #[test]
    fn a_bracketed_paste_is_one_event_even_in_pieces() {
        let mut input = Input::default();
        assert!(input.feed(b"\x1b[200~hello wo").is_empty());
        assert!(input.feed(b"rld\x1b[2").is_empty());
        let events = input.feed(b"01~x");
        assert_eq!(
            events,
            vec![
                Event::Paste("hello world".into()),
                key(KeyCode::Char('x'), KeyModifiers::NONE)
            ]
        );
    }

    #[test]
    fn any_size_a_client_says_is_one_that_can_be_drawn() {
        assert_eq!(clamp(0, 0), Size::new(1, 1));
        assert_eq!(clamp(80, 24), Size::new(80, 24));
        assert_eq!(clamp(65535, 65535), Size::new(320, 120));
        assert_eq!(clamp(u32::MAX, 7), Size::new(320, 7));
    }

    #[test]
    fn a_screen_sends_only_what_changed() {
        use ratatui::widgets::Paragraph;
        let mut terminal = ratatui::Terminal::new(Screen::new(Size::new(40, 10))).unwrap();
        terminal
            .draw(|f| f.render_widget(Paragraph::new("every round is a replay"), f.area()))
            .unwrap();
        let first = terminal.backend_mut().take();
        let first = String::from_utf8_lossy(&first).into_owned();
        // Blank cells are blank already: the words are placed, the spaces skipped.
        assert!(
            first.contains("every") && first.contains("replay"),
            "{first:?}"
        );
        terminal
            .draw(|f| f.render_widget(Paragraph::new("every round is a replax"), f.area()))
            .unwrap();
        let second = String::from_utf8_lossy(&terminal.backend_mut().take()).into_owned();
        // The one cell that changed: placed, and written.
        assert!(second.starts_with("\x1b[1;23Hx"), "{second:?}");
        assert!(!second.contains("every"), "{second:?}");
    }
}
