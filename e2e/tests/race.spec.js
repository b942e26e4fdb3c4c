// Racing a replay: the menu races your best from the history, the lead changes sign as
// you type faster and then slower than it, the results show both rounds, and the ghost is
// where watching the same replay is at the same time.
import { test, expect, boot, mirror, onScreen, shot, typeWords, synthHex, cli, seedHistory } from "./fixtures.js";

/** A ZEN round at 40 wpm for 20 s, as the game stores it. */
const ghostHex = () => synthHex("zen", 5, ["--wpm", "40", "--zen-secs", "20"]);

/** Opens the game with `hex` as the only round of the history. */
async function withHistory(page, hex) {
  await seedHistory(page, `1 1796154720000 ${hex} -\n`);
  await boot(page);
}

/** The menu's ZEN, then `g`: a race against your best ZEN round. */
async function raceBestZen(page) {
  // ZEN, under BLITZ and WORDS.
  for (let i = 0; i < 2; i++) await page.keyboard.press("ArrowDown");
  await expect(page.locator("[data-mirror=status]")).toHaveText(/^g races your best here: \d+ wpm$/);
  await page.keyboard.press("g");
  await onScreen(page, "playing");
  await expect(page.locator("[data-mirror=banner]")).toHaveText("RACE · ZEN · vs your best here");
  await expect(page.locator("[data-mirror=ghost]")).toHaveText("tied with your best here");
}

test("racing your best: ahead, then behind, then both rounds side by side", async ({ page, consoleLog }) => {
  const hex = ghostHex();
  const ghost = cli(["score", "--json", "-"], hex);
  await withHistory(page, hex);
  await raceBestZen(page);
  // Four words far faster than 40 wpm: you lead.
  await typeWords(page, 4, { gap: 30 });
  await expect(page.locator("[data-mirror=ghost]")).toHaveText(/^you lead your best here by \d+ chars? \(\d+\.\d s\)$/);
  await shot(page, "race-ahead");
  // Then nothing: the ghost passes you.
  await expect(page.locator("[data-mirror=ghost]")).toHaveText(/^your best here leads you by \d+ chars? \(\d+\.\d s\)$/, {
    timeout: 15_000,
  });
  await shot(page, "race-behind");
  await page.keyboard.press("Escape");
  await onScreen(page, "results");
  await expect(page.locator("[data-mirror=banner]")).toHaveText("RACE · ZEN · vs your best here");
  const results = await mirror(page, "results");
  const race = await mirror(page, "ghost");
  const wpm = results.match(/ · wpm ([\d.]+) · /)[1];
  const theirs = ghost.wpm.toFixed(2);
  expect(race).toMatch(/^(you won by \d+ wpm|your best here won by \d+ wpm|a tie at \d+ wpm) · score /);
  expect(race).toContain(` · wpm ${wpm} vs ${theirs} (`);
  expect(race).toMatch(/ · accuracy [\d.]+% vs [\d.]+% \([−+±][\d.]+%\)/);
  expect(race).toMatch(/ · the lead changed hands at \d+ s$/);
  await shot(page, "race-results");
  // A race is your own round: kept in the history.
  const history = await page.evaluate(() => localStorage.getItem("history"));
  expect(history.trim().split("\n")).toHaveLength(2);
});

/** The text's words from the first, as the race's mirror shows them before any key. */
async function words(page) {
  return (await mirror(page, "words")).split(" ");
}

/** A caret's place in characters: the words before the one the mirror shows first, with
 * their spaces, and what is typed of it. */
function place(text, shown, typed) {
  const ahead = shown.split(" ").slice(0, 6).join(" ");
  for (let i = 0; i < text.length; i++) {
    if (text.slice(i, i + 6).join(" ") === ahead) {
      return text.slice(0, i).reduce((n, w) => n + w.length + 1, 0) + [...typed].length;
    }
  }
  throw new Error(`"${ahead}" is not in the text`);
}

/** Reads the mirror each few ms until `until` is true: each read's clock second and
 * caret place, by `read`. */
async function sample(page, read, until) {
  const out = [];
  for (let i = 0; i < 2000; i++) {
    const fields = await page.evaluate(() =>
      Object.fromEntries([...document.querySelectorAll("[data-mirror]")].map((e) => [e.dataset.mirror, e.textContent])),
    );
    if (until(fields)) break;
    const second = Number(fields.status.match(/ · (\d+) s · /)?.[1]);
    if (!Number.isNaN(second)) out.push([second, read(fields)]);
    await page.waitForTimeout(15);
  }
  return out;
}

/** The lowest and highest place seen in each second. */
function ranges(samples) {
  const by = new Map();
  for (const [s, p] of samples) {
    const [lo, hi] = by.get(s) ?? [p, p];
    by.set(s, [Math.min(lo, p), Math.max(hi, p)]);
  }
  return by;
}

test("the ghost is where watching the replay is at the same time", async ({ page, consoleLog }) => {
  const hex = synthHex("zen", 5, ["--wpm", "50", "--zen-secs", "8"]);
  await withHistory(page, hex);
  await raceBestZen(page);
  const text = await words(page);
  // One right key starts the race; then you stand still at 1 character, so the lead
  // says where the ghost is.
  await page.keyboard.type(text[0][0]);
  const raced = await sample(
    page,
    (f) => {
      const m = f.ghost.match(/^(?:you lead your best here|your best here leads you) by (\d+) chars?|^tied/);
      const lead = f.ghost.startsWith("you lead") ? Number(m[1]) : -Number(m[1] ?? 0);
      return 1 - lead;
    },
    (f) => f.ghost.includes("round is over"),
  );
  await page.keyboard.press("Escape");
  await onScreen(page, "results");
  await page.keyboard.press("Escape");
  await onScreen(page, "menu");
  // The same round, watched.
  await page.keyboard.press("h");
  await onScreen(page, "history");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  await onScreen(page, "replay");
  const watched = await sample(
    page,
    (f) => place(text, f.words, f.typed),
    (f) => f.screen !== "replay",
  );
  const [r, w] = [ranges(raced), ranges(watched)];
  let compared = 0;
  for (const [s, [lo, hi]] of r) {
    const seen = w.get(s);
    if (!seen) continue;
    compared++;
    // Within one second of the round both carets pass through the same places: frames
    // land at different moments of it, so the ranges overlap rather than match.
    expect(lo <= seen[1] && seen[0] <= hi, `second ${s}: raced ${lo}–${hi}, watched ${seen[0]}–${seen[1]}`).toBe(true);
  }
  expect(compared).toBeGreaterThanOrEqual(6);
  // Both end on the same place: where the replay's round ended.
  const last = (m) => m.get(Math.max(...m.keys()))[1];
  expect(last(r)).toBeGreaterThan(20);
  expect(Math.abs(last(r) - last(w))).toBeLessThanOrEqual(3);
});
