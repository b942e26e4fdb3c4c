// The history lists your rounds; enter plays one under the REPLAY banner, where only esc,
// tab and enter do anything, and nothing is saved.
import { test, expect, boot, mirror, onScreen, shot, typeWords, stored, pastResultsHold } from "./fixtures.js";

async function zenRound(page, words) {
  await page.keyboard.press("z");
  await onScreen(page, "playing");
  await typeWords(page, words, { gap: 50 });
  await page.keyboard.press("Escape");
  await onScreen(page, "results");
  const results = await mirror(page, "results");
  await page.keyboard.press("Escape");
  await onScreen(page, "menu");
  return results;
}

test("history lists rounds and enter plays one under REPLAY, ignoring other keys", async ({ page, consoleLog }) => {
  await boot(page);
  const older = await zenRound(page, 3);
  await zenRound(page, 5);
  const history = await stored(page, "history");
  expect(history.trim().split("\n")).toHaveLength(2);

  await pastResultsHold(page);
  await page.keyboard.press("h");
  await onScreen(page, "history");
  const rows = (await mirror(page, "list")).trim().split("\n");
  expect(rows).toHaveLength(2);
  expect(rows[0]).toMatch(/^▸ /);
  await shot(page, "history");
  await page.keyboard.press("ArrowDown");
  await expect.poll(async () => (await mirror(page, "list")).split("\n")[1]).toMatch(/^▸ /);
  await page.keyboard.press("Enter");
  await onScreen(page, "replay");
  // Whose round it is: the older of two ZEN rounds is yours, named as the menu names it.
  await expect(page.locator("[data-mirror=banner]")).toHaveText(/^REPLAY · ZEN · your (best here|\d+ wpm round)$/);
  // Esc goes back to the list it came from, its row still picked, not to the menu.
  await page.keyboard.press("Escape");
  await onScreen(page, "history");
  expect((await mirror(page, "list")).split("\n")[1]).toMatch(/^▸ /);
  await page.keyboard.press("Enter");
  await onScreen(page, "replay");
  await page.waitForTimeout(700);
  await shot(page, "replay-playing");
  // Someone else's round: typing, backspace and arrows change nothing.
  for (const key of ["x", "y", "Backspace", "ArrowUp", "h", "z", "Space"]) {
    await page.keyboard.press(key);
    await expect(page.locator("[data-mirror=screen]")).toHaveText("replay");
  }
  await onScreen(page, "results");
  await expect(page.locator("[data-mirror=banner]")).toHaveText(/^REPLAY · ZEN · your /);
  expect(await mirror(page, "results")).toBe(older);
  await shot(page, "replay-results");
  expect(await stored(page, "history")).toBe(history);

  // Enter plays that round yourself.
  await page.keyboard.press("Enter");
  await onScreen(page, "playing");
  await expect(page.locator("[data-mirror=banner]")).toHaveText("");
  await page.keyboard.press("Escape");
  await onScreen(page, "menu");
});

test.describe("in India", () => {
  test.use({ timezoneId: "Asia/Kolkata" });

  test("the history dates rounds in the player's time zone, not UTC", async ({ page }) => {
    await boot(page);
    await zenRound(page, 2);
    const line = (await stored(page, "history")).trim().split(" ");
    const ended = Number(line[1]);
    // What the player's clock read when the round ended: UTC + 5:30.
    const local = new Date(ended + 330 * 60_000).toISOString().slice(0, 16).replace("T", " ");
    await pastResultsHold(page);
    await page.keyboard.press("h");
    await onScreen(page, "history");
    const row = (await mirror(page, "list")).trim();
    expect(row.startsWith(`▸ ${local} · `)).toBe(true);
    const utc = new Date(ended).toISOString().slice(0, 16).replace("T", " ");
    expect(local).not.toBe(utc);
  });
});
