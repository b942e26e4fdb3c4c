// ZEN ends with esc; HOT PURSUIT from a high level gets caught.
import { test, expect, boot, mirror, onScreen, shot, typeWords, cli, stored } from "./fixtures.js";

test("ZEN ends with esc", async ({ page, consoleLog }) => {
  await boot(page);
  await page.keyboard.press("z");
  await onScreen(page, "playing");
  await typeWords(page, 4);
  expect(await mirror(page, "status")).toMatch(/^ZEN · \d+ s · heat/);
  await page.keyboard.press("Escape");
  await onScreen(page, "results");
  await shot(page, "zen-results");
  const s = cli(["score", "--json", "-"], await stored(page, "last.replay"));
  expect(s.words).toBe(4);
  expect(await mirror(page, "results")).toContain(`${s.headline.text} · ZEN`);
});

test("HOT PURSUIT from lv20 gets caught", async ({ page, consoleLog }) => {
  await boot(page);
  // HOT PURSUIT, under BLITZ, WORDS and ZEN.
  for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowDown");
  for (let i = 0; i < 13; i++) await page.keyboard.press("ArrowRight");
  // The mirror follows on the next frame: wait for it rather than read it at once.
  await expect(page.locator("[data-mirror=list]")).toContainText("▸ HOT PURSUIT from lv20");
  await shot(page, "menu-pursuit");
  await page.keyboard.press("Enter");
  await onScreen(page, "playing");
  await typeWords(page, 2, { gap: 60 });
  expect(await mirror(page, "status")).toContain("HOT PURSUIT from lv20 · lv20");
  await page.waitForTimeout(600);
  await shot(page, "pursuit-playing");
  // At 115 wpm from 30 characters behind, the flame arrives within seconds.
  await onScreen(page, "results");
  await shot(page, "pursuit-results");
  const results = await mirror(page, "results");
  const s = cli(["score", "--json", "-"], await stored(page, "last.replay"));
  expect(s.headline.unit).toBe("words");
  expect(s.level).toBe(20);
  expect(results).toContain(`${s.headline.text} · HOT PURSUIT from lv20`);
  expect(results).toContain("reached lv20");
  // VERSION 2: heat is the streak, HOT PURSUIT's too (VERSION 1's was the flame's
  // closeness, 100 at every catch): two quick words heat a little, and not to the top.
  expect(s.engine).toBe(2);
  expect(s.peak_heat).toBeGreaterThan(0);
  expect(s.peak_heat).toBeLessThan(100);
});
