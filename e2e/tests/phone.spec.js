// A phone, by touch alone. The play-test found the boards' `‹ mode ›` arrows deaf to a
// finger, no touch way from the menu into history, boards, links, keys or rooms, and a
// BLITZ round with no way out but esc, which a phone's keyboard lacks (issue 38, item 11).
import { test, expect, boot, onScreen, shot, recordText, tapText, drawnText } from "./fixtures.js";
import { SIZES } from "./sizes.js";

test.use(SIZES.phone);

/** Taps the canvas at `(x, y)`, and waits for what it drew. */
async function tapAt(page, x, y) {
  await page.touchscreen.tap(x, y);
  await drawnText(page);
}

test("the boards' arrows, the menu's screens and a BLITZ round's way out take a finger", async ({ page, consoleLog }) => {
  const tap = (text) => tapText(page, text, true);
  await recordText(page);
  await boot(page);
  await shot(page, "phone-menu-buttons");

  // Every screen the menu's letters open, by its button, and back.
  for (const [button, screen] of [["history", "history"], ["your keys", "keys"], ["link", "link"], ["boards", "boards"]]) {
    await tap(button);
    await onScreen(page, screen);
    if (screen === "boards") {
      await expect(page.locator("[data-mirror=status]")).toHaveText("BLITZ 15s · this month's bests · UTC");
      // The picker's halves are its arrows: the right one, then the left.
      const picker = (await drawnText(page)).find((t) => t.text.startsWith("‹ "));
      const y = (picker.top + picker.bottom) / 2;
      await tapAt(page, picker.right - 4, y);
      await expect(page.locator("[data-mirror=status]")).toHaveText("BLITZ 30s · this month's bests · UTC");
      await tapAt(page, picker.left + 4, y);
      await expect(page.locator("[data-mirror=status]")).toHaveText("BLITZ 15s · this month's bests · UTC");
      // The period, by its button.
      await tap("period");
      await expect(page.locator("[data-mirror=status]")).toHaveText("BLITZ 15s · all-time bests");
      await shot(page, "phone-boards");
    }
    await tap("back");
    await onScreen(page, "menu");
  }
  // Rooms: a player with no name is asked for one, and can go back.
  await tap("rooms");
  await onScreen(page, "room");
  await tap("back");
  await onScreen(page, "menu");

  // A BLITZ round, started by a finger on its name (its clock's arrows are their own
  // targets), and left by its button.
  const blitz = (await drawnText(page)).find((t) => t.text.startsWith("BLITZ "));
  await tapAt(page, blitz.left + 12, (blitz.top + blitz.bottom) / 2);
  await onScreen(page, "playing");
  await shot(page, "phone-blitz");
  await tap("menu");
  await onScreen(page, "menu");
});
