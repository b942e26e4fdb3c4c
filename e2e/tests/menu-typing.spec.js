// A new player typed at the menu and lost their first word to its commands. Now a letter
// no command takes starts the picked mode, and the word is the round's first.
import { test, expect, boot, onScreen } from "./fixtures.js";

test("a word typed at the menu starts the picked mode and is its first word", async ({ page, consoleLog }) => {
  await boot(page);
  await page.keyboard.press("ArrowDown");
  await page.keyboard.type("the");
  await onScreen(page, "playing");
  await expect(page.locator("[data-mirror=typed]")).toHaveText("the");
  await expect(page.locator("[data-mirror=status]")).toContainText("BLITZ 30s");
});
