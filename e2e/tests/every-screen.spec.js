// Every screen at a desktop's size and a phone's, got to as a player would: taps on a
// phone (its keyboard has letters but no esc or tab), clicks on a desktop. On each, no
// text is drawn over other text or off the screen, and a screenshot is kept to look at.
// A new player found the phone's menu hints cut at both edges, the keys screen's lines
// run together, and no way out of the results but keys a phone lacks (issue 21, item 2).
import { test, expect, boot, onScreen, shot, typeWords, recordText, layoutFaults, tapText, pastResultsHold } from "./fixtures.js";
import { SIZES } from "./sizes.js";

for (const [size, use] of Object.entries(SIZES)) {
  test.describe(size, () => {
    test.use(use);

    test(`every screen can be reached and left by tapping, and none draws text over text (${size})`, async ({ page, consoleLog }) => {
      const touch = Boolean(use.hasTouch);
      const tap = (text) => tapText(page, text, touch);
      const look = async (name) => {
        expect(await layoutFaults(page), `${name} at ${size}`).toEqual([]);
        await shot(page, `${size}-${name}`);
      };
      await recordText(page);
      await boot(page);
      await look("menu");

      // ZEN, ended with its button, as a phone must.
      await tap("ZEN");
      await onScreen(page, "playing");
      await look("playing-before-the-first-key");
      await typeWords(page, 4, { gap: 60, mistake: (i) => (i === 1 ? "leave" : null) });
      await look("playing-zen");
      await tap("end");
      await onScreen(page, "results");
      await look("results-zen");

      // Watched from the results, and left by its button.
      await pastResultsHold(page);
      await tap("watch");
      await onScreen(page, "replay");
      await look("replay");
      await tap("menu");
      await onScreen(page, "menu");

      // Raced: the menu's ZEN against the round just played.
      await page.keyboard.press("g");
      await onScreen(page, "playing");
      await typeWords(page, 3, { gap: 60 });
      await look("playing-a-race");
      await tap("end");
      await onScreen(page, "results");
      await look("results-a-race");
      await pastResultsHold(page);
      await tap("race again");
      await onScreen(page, "playing");
      await tap("end");
      await onScreen(page, "menu");

      // HOT PURSUIT's status, with the flame's lead.
      await page.keyboard.press("r");
      await onScreen(page, "playing");
      await typeWords(page, 3, { gap: 60 });
      await look("playing-hot-pursuit");
      await page.keyboard.press("Escape");
      await onScreen(page, "menu");

      // The lists, each left by its back button.
      for (const [key, screen] of [["h", "history"], ["k", "keys"], ["b", "boards"], ["l", "link"]]) {
        await page.keyboard.press(key);
        await onScreen(page, screen);
        if (screen === "boards") await page.waitForTimeout(500);
        await look(screen);
        await tap("back");
        await onScreen(page, "menu");
      }

      // A name linked by its button.
      await page.keyboard.press("l");
      await onScreen(page, "link");
      await page.keyboard.type(`tap${size}${Date.now() % 100000}`);
      await tap("link");
      await onScreen(page, "menu");
      await expect(page.locator("[data-mirror=notice]")).toContainText("linked:");
      await look("menu-just-linked");

      // A round watched from the history, and back to the history by its button.
      await page.keyboard.press("h");
      await onScreen(page, "history");
      await page.keyboard.press("Enter");
      await onScreen(page, "replay");
      await tap("back");
      await onScreen(page, "history");
      await look("history-after-watching");
    });
  });
}
