// BLITZ 15s played by typing what the mirror shows: the browser's score is the engine's.
import { test, expect, boot, mirror, onScreen, shot, typeWords, cli, stored, pastResultsHold } from "./fixtures.js";

test("a BLITZ 15s round typed with mistakes scores the same in the browser and natively", async ({ page, consoleLog }) => {
  await boot(page);
  await shot(page, "menu");
  expect(await mirror(page, "list")).toContain("▸ BLITZ 15s");
  await page.keyboard.press("Enter");
  await onScreen(page, "playing");
  expect(await mirror(page, "status")).toContain("BLITZ 15s · 15 s left");
  await typeWords(page, 14, { gap: 35, mistake: (i) => (i === 2 ? "leave" : i === 5 ? "fix" : null) });
  // The live wpm and accuracy, as the canvas draws them beside the clock.
  expect(await mirror(page, "status")).toMatch(/ · \d+ wpm · \d+%$/);
  await shot(page, "blitz-playing");
  await onScreen(page, "results");
  await shot(page, "blitz-results");

  const results = await mirror(page, "results");
  const hex = await stored(page, "last.replay");
  expect(hex).toMatch(/^54505201/);
  const s = cli(["score", "--json", "-"], hex);
  expect(s.mode).toBe("time:15");
  expect(s.duration_ms).toBe(15000);
  // Every stat the results screen shows, against the native engine's.
  const want = [
    `${s.headline.text} · BLITZ 15s`,
    `wpm ${s.wpm.toFixed(2)} `,
    `raw ${s.raw.toFixed(2)} `,
    `accuracy ${s.accuracy}%`,
    `consistency ${s.consistency}%`,
    `correct ${s.chars.correct} · wrong ${s.chars.wrong} · extra ${s.chars.extra} · missed ${s.chars.missed} · `,
    `words ${s.words} `,
    `peak heat ${s.peak_heat} ${s.peak_tier}`,
    "time 15.0 s",
  ];
  for (const w of want) expect(results).toContain(w);
  expect(s.words).toBeGreaterThanOrEqual(10);
  expect(s.chars.wrong + s.chars.extra).toBeGreaterThan(0);
  expect(s.accuracy).toBeLessThan(100);

  // The history has it, with the same headline.
  await pastResultsHold(page);
  await page.keyboard.press("h");
  await onScreen(page, "history");
  expect(await mirror(page, "list")).toContain(`${s.headline.text} · BLITZ 15s`);
});

test("letters typed through the end of a round stay on the results", async ({ page }) => {
  await boot(page);
  await page.keyboard.press("Enter");
  await onScreen(page, "playing");
  // Typing on as the round ends: h, r and g are history, watch and race on the results.
  const screen = page.locator("[data-mirror=screen]");
  for (let i = 0; i < 400 && (await screen.textContent()) === "playing"; i++) {
    await page.keyboard.type("hrg ", { delay: 45 });
  }
  await page.keyboard.type("hrghrg", { delay: 45 });
  await expect(screen).toHaveText("results");
  await shot(page, "results-after-typing-through");
  // A moment on, they are commands again.
  await pastResultsHold(page);
  await page.keyboard.press("h");
  await onScreen(page, "history");
});

test("live stats show while typing, and s on the menu steps them to none for good", async ({ page }) => {
  await boot(page);
  await page.keyboard.press("Enter");
  await onScreen(page, "playing");
  await typeWords(page, 6, { gap: 60 });
  expect(await mirror(page, "status")).toMatch(/ · \d+ wpm · \d+%$/);
  await page.keyboard.press("Escape");
  await onScreen(page, "menu");
  // Speed only, accuracy only, then neither: kept in the settings.
  for (const key of "sss") await page.keyboard.press(key);
  expect(await stored(page, "settings")).toContain("\nlive off\n");
  await page.reload();
  await onScreen(page, "menu");
  await page.keyboard.press("Enter");
  await onScreen(page, "playing");
  await typeWords(page, 6, { gap: 60 });
  expect(await mirror(page, "status")).not.toContain("wpm");
  await shot(page, "blitz-playing-no-live-stats");
});
