// A new player saw results' stats drawn over each other: "100 CAROLINA REAPER" on
// "reached lv5", on "30.0 s" after a 131 wpm BLITZ 30s, "17 BELL PEPPER" on "15.0 s" on a
// phone (issue 21, item 1). The canvas now measures its text and lays it out. Here the
// results at the longest each stat gets — a three-digit wpm, 100 CAROLINA REAPER, HOT
// PURSUIT from lv20 reaching past lv80, an hour of ZEN's counts and time — are watched at
// a desktop's size and a phone's, and no text is over another or off the screen.
import { test, expect, boot, mirror, onScreen, shot, synthHex, recordText, layoutFaults, seedHistory } from "./fixtures.js";
import { SIZES } from "./sizes.js";

const ROUNDS = [
  { mode: "time:60", title: "BLITZ 60s", extra: [], says: ["100 CAROLINA REAPER"] },
  { mode: "pursuit:20", title: "HOT PURSUIT from lv20", extra: [], says: ["100 CAROLINA REAPER", "reached lv"] },
  { mode: "zen", title: "ZEN", extra: ["--zen-secs", "3600"], says: ["time 3600.0 s"] },
];

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
