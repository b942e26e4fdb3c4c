// Issue 44: rules change without breaking a replay. A browser whose history is full of
// VERSION 1 rounds (an older game's) watches, races and analyses every one, each scored by
// VERSION 1's rules as the CLI scores it, and says which rules played it.
import { test, expect, boot, mirror, onScreen, shot, typeWords, synthHex, cli, seedHistory } from "./fixtures.js";

const OLD = [
  { mode: "time:15", title: "BLITZ 15s", extra: [] },
  { mode: "words:10", title: "WORDS 10", extra: [] },
  { mode: "zen", title: "ZEN", extra: ["--zen-secs", "8"] },
  { mode: "pursuit:7", title: "HOT PURSUIT from lv7", extra: [] },
];

/** Presses esc until the menu is up. */
async function toMenu(page) {
  for (let i = 0; i < 4 && (await mirror(page, "screen")) !== "menu"; i++) {
    await page.keyboard.press("Escape");
    await page.waitForTimeout(100);
  }
  await onScreen(page, "menu");
}

test("an old history of VERSION 1 rounds watches, races and analyses every one", async ({ page, consoleLog }) => {
  const hexes = OLD.map((r, i) => synthHex(r.mode, 30 + i, ["--wpm", "45", "--rules", "1", ...r.extra]));
  const lines = hexes.map((hex, i) => `1 ${1796154720000 + i} ${hex} -`);
  await seedHistory(page, lines.join("\n") + "\n");
  await page.clock.install();
  await boot(page);
  for (const [i, round] of OLD.entries()) {
    const own = cli(["score", "--json", "-"], hexes[i]);
    expect(own.engine).toBe(1);
    expect(own.rules).toBe(1);
    // Watched, picked from the history by its line (a race run to its end is kept too).
    await page.keyboard.press("h");
    await onScreen(page, "history");
    const line = ` · ${own.headline.text} · ${round.title}`;
    const picked = async () => (await mirror(page, "list")).split("\n").find((l) => l.startsWith("▸")) ?? "";
    for (let n = 0; n < 8 && !(await picked()).endsWith(line); n++) {
      const before = await picked();
      await page.keyboard.press("ArrowDown");
      await expect.poll(picked).not.toBe(before);
    }
    expect(await picked()).toMatch(new RegExp(`^▸ 2026-12-0[12] .*${line}$`));
    await page.keyboard.press("Enter");
    await onScreen(page, "replay");
    await page.clock.fastForward(120_000);
    await onScreen(page, "results");
    const results = await mirror(page, "results");
    // Scored by its own rules, as the CLI scores it, and saying which they were.
    expect(results).toContain(`${own.headline.text} · ${round.title}`);
    expect(results).toContain(`peak heat ${own.peak_heat} ${own.peak_tier}`);
    expect(results).toContain("rules VERSION 1");
    if (round.mode.startsWith("pursuit")) expect(own.peak_heat).toBe(100);
    await shot(page, `version-1-${round.mode.replace(":", "")}-results`);
    // Raced: its ghost runs by its rules beside a round of today's.
    await page.clock.fastForward(1_500);
    await page.keyboard.press("g");
    await onScreen(page, "playing");
    await expect(page.locator("[data-mirror=banner]")).toHaveText(new RegExp(`^RACE · ${round.title}`));
    await typeWords(page, 2, { gap: 60 });
    await expect(page.locator("[data-mirror=ghost]")).toHaveText(/lead|tied/);
    await toMenu(page);
  }
  // Analysed: the keys screen reads every one, and the ZEN race (esc ended it: a round of
  // yours, by today's rules).
  await page.keyboard.press("k");
  await onScreen(page, "keys");
  await expect(page.locator("[data-mirror=status]")).toHaveText(`by errors · from your last ${OLD.length + 1} rounds, on this device`);
  expect(await mirror(page, "list")).toMatch(/^worst keys:\n/);
});
