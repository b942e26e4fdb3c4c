// Typing at the menu. A new player's first word was once lost to the menu's commands;
// then it was scored against words they had not seen (`the` gave `wrong 3`, `accuracy
// 0%`), and `s` turned the live stats off without a word (issue 38, item 10). A letter no
// command takes now starts the picked mode and is nothing more; `s` says what it did.
import { test, expect, boot, onScreen, typeWords } from "./fixtures.js";

test("a word typed at the menu starts the picked mode and is not scored against unseen words", async ({ page, consoleLog }) => {
  await boot(page);
  // BLITZ's clock on to 30 s: the picked mode.
  await page.keyboard.press("ArrowRight");
  await page.keyboard.type("the");
  await onScreen(page, "playing");
  await expect(page.locator("[data-mirror=status]")).toContainText("BLITZ 30s");
  await expect(page.locator("[data-mirror=typed]")).toHaveText("");
  await expect(page.locator("[data-mirror=announce]")).toHaveText(/^BLITZ 30s · start typing/);
  // The words typed once they are on screen are the round's.
  await page.waitForTimeout(700);
  await typeWords(page, 2, { gap: 60 });
  await expect(page.locator("[data-mirror=announce]")).toHaveText("BLITZ 30s · go");
});

test("s on the menu says what it did", async ({ page, consoleLog }) => {
  await boot(page);
  await page.keyboard.press("s");
  await expect(page.locator("[data-mirror=notice]")).toHaveText(/^live stats: your speed as you type · /);
  await page.keyboard.press("s");
  await page.keyboard.press("s");
  await expect(page.locator("[data-mirror=notice]")).toHaveText(/^live stats: off: /);
});
