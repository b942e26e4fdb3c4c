// A new player saw results' stats drawn over each other: "100 CAROLINA REAPER" on
// "reached lv5", on "30.0 s" after a 131 wpm BLITZ 30s, "17 BELL PEPPER" on "15.0 s" on a
// phone (issue 21, item 1). The canvas now measures its text and lays it out. Here the
// results at the longest each stat gets — a three-digit wpm, 100 CAROLINA REAPER, HOT
// PURSUIT from lv20 reaching past lv80, an hour of ZEN's counts and time — are watched at
// a desktop's size and a phone's, and no text is over another or off the screen. The
// stats are a table: HOT PURSUIT's `time` sat mid-row and ZEN's alone on a line (issue 38,
// item 13), so its rows are as even as can be and a later row's stats stand under the
// first row's.
import { test, expect, boot, mirror, onScreen, shot, synthHex, recordText, layoutFaults, seedHistory, drawnText } from "./fixtures.js";
import { SIZES } from "./sizes.js";

const ROUNDS = [
  { mode: "time:60", title: "BLITZ 60s", extra: [], says: ["100 CAROLINA REAPER"] },
  { mode: "pursuit:20", title: "HOT PURSUIT from lv20", extra: [], says: ["100 CAROLINA REAPER", "reached lv"] },
  { mode: "zen", title: "ZEN", extra: ["--zen-secs", "3600"], says: ["time 3600.0 s"] },
];

const LABELS = ["wpm", "raw", "accuracy", "consistency", "words", "correct", "wrong", "extra", "missed", "peak heat", "reached", "time"];

/** The stats' rows as drawn, top to bottom: each its labels' left edges. */
async function statRows(page) {
  const texts = await drawnText(page);
  // The chart's legend says `raw` and `wpm` too, under the stats.
  const legend = texts.find((t) => t.text.startsWith("errors"))?.top ?? Infinity;
  // A row's labels share a baseline; their ink reaches up and down by their letters.
  const labels = texts.filter((t) => LABELS.includes(t.text) && t.top < legend).sort((a, b) => a.bottom - b.bottom);
  const rows = [];
  for (const t of labels) {
    const row = rows.at(-1);
    if (row && t.bottom - row.bottom < 10) row.lefts.push(t.left);
    else rows.push({ bottom: t.bottom, lefts: [t.left] });
  }
  return rows.map((r) => r.lefts.sort((a, b) => a - b));
}

for (const [size, use] of Object.entries(SIZES)) {
  test.describe(size, () => {
    test.use(use);

    test(`results stats are never drawn over each other, at their longest (${size})`, async ({ page, consoleLog }) => {
      const fastest = ["--wpm", "400", "--accuracy", "100", "--typist-seed", "3"];
      const lines = ROUNDS.map((r, i) => `1 ${1796154720000 + i} ${synthHex(r.mode, 11, [...fastest, ...r.extra])} -`);
      await seedHistory(page, lines.join("\n") + "\n");
      await recordText(page);
      // Watching an hour of ZEN takes a jump of the page's clock, not an hour.
      await page.clock.install();
      await boot(page);
      await page.keyboard.press("h");
      await onScreen(page, "history");
      for (const round of ROUNDS) {
        // The history is newest first: the last round played is its first row.
        for (let n = 0; n < ROUNDS.length - 1 - ROUNDS.indexOf(round); n++) await page.keyboard.press("ArrowDown");
        await expect.poll(async () => (await mirror(page, "list")).split("\n").find((l) => l.startsWith("▸"))).toMatch(new RegExp(`${round.title}$`));
        await page.keyboard.press("Enter");
        await onScreen(page, "replay");
        await page.clock.fastForward(3_700_000);
        await onScreen(page, "results");
        const results = await mirror(page, "results");
        for (const says of round.says) expect(results).toContain(says);
        expect(await layoutFaults(page), `${round.title} at ${size}`).toEqual([]);
        const rows = await statRows(page);
        const counts = rows.map((r) => r.length);
        expect(Math.max(...counts) - Math.min(...counts), `${round.title} at ${size}: ${counts}`).toBeLessThanOrEqual(1);
        for (const row of rows.slice(1)) {
          row.forEach((left, k) => expect(Math.abs(left - rows[0][k]), `${round.title} at ${size}: ${JSON.stringify(rows)}`).toBeLessThan(1));
        }
        await shot(page, `results-longest-${round.mode.replace(":", "")}-${size}`);
        await page.keyboard.press("Escape");
        await onScreen(page, "history");
        await page.keyboard.press("Escape");
        await onScreen(page, "menu");
        await page.keyboard.press("h");
        await onScreen(page, "history");
      }
    });
  });
}
