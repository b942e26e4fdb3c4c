// A ranked 97 wpm round said "a personal best!" while the menu offered "g races your
// best: 116 wpm", from unranked rounds (issue 21, item 3). There are two bests, named
// apart everywhere: your ranked best, the server's, of your ranked rounds; and your best
// here, this device's, of the rounds its history keeps, ranked or not.
import { test, expect, boot, mirror, onScreen, typeWords, synthHex, cli, seedHistory } from "./fixtures.js";

test("one best: your ranked best on the server and your best here are named apart", async ({ page, consoleLog }) => {
  // A fast BLITZ 15s round this device played before it was linked: never ranked.
  const hex = synthHex("time:15", 7, ["--wpm", "160", "--accuracy", "99"]);
  const here = cli(["score", "--json", "-"], hex).headline.text;
  await seedHistory(page, `1 1796154720000 ${hex} -\n`);
  await boot(page);
  await page.keyboard.press("l");
  await onScreen(page, "link");
  await page.keyboard.type(`best_${Date.now() % 1e9}`);
  await page.keyboard.press("Enter");
  await onScreen(page, "menu");
  await expect(page.locator("[data-mirror=list]")).toContainText("BLITZ 15s · RANKED");

  // A slower ranked round: the server's first, so its ranked best. The clock ends it.
  await page.keyboard.press("1");
  await onScreen(page, "playing");
  await typeWords(page, 14, { gap: 110 });
  await onScreen(page, "results");
  await expect(page.locator("[data-mirror=notice]")).toHaveText("ranked · your ranked best!");
  const ranked = (await mirror(page, "results")).split(" · ")[0];
  expect(Number.parseInt(ranked)).toBeLessThan(Number.parseInt(here));

  // The menu races the faster round, this device's best, and says so.
  await page.keyboard.press("Escape");
  await onScreen(page, "menu");
  await expect(page.locator("[data-mirror=status]")).toHaveText(`g races your best here: ${here}`);
  await page.keyboard.press("g");
  await onScreen(page, "playing");
  await expect(page.locator("[data-mirror=banner]")).toHaveText("RACE · BLITZ 15s · vs your best here");
});
