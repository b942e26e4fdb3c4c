// A screen reader's view of the game. The play-test found the whole text mirror live, so
// that in 6 s of typing the reader was handed 190 speeds and 46 typed words, and the
// buttons only on the canvas, where a reader can't find them (issue 38, item 9). Now one
// field is live and says what happens; the rest is there to be read; every button of the
// canvas is a button of the page.
import { test, expect, boot, onScreen, typeWords, pastResultsHold } from "./fixtures.js";

/** Presses `button` as a screen reader does: a click on the element itself (the canvas
 * lies over it, for a pointer). */
async function press(button) {
  await button.dispatchEvent("click");
}

/** Starts keeping, in the page, every text a live region takes. */
async function listen(page) {
  await page.evaluate(() => {
    window.announced = [];
    const live = document.querySelectorAll("[aria-live], [role=status], [role=alert], [role=log]");
    const observer = new MutationObserver((changes) => {
      for (const c of changes) {
        const region = c.target.nodeType === Node.TEXT_NODE ? c.target.parentElement : c.target;
        const text = region.closest("[aria-live], [role=status], [role=alert], [role=log]")?.textContent ?? "";
        if (text && window.announced.at(-1) !== text) window.announced.push(text);
      }
    });
    for (const region of live) observer.observe(region, { childList: true, subtree: true, characterData: true });
  });
}

test("a round is announced as it starts and ends, not at every frame", async ({ page, consoleLog }) => {
  test.setTimeout(60_000);
  await boot(page);
  // Only the live field is live: the mirror around it is not.
  await expect(page.locator("#mirror")).not.toHaveAttribute("aria-live", /.*/);
  await expect(page.locator("[aria-live], [role=status], [role=alert]")).toHaveCount(2);
  await listen(page);
  await page.keyboard.press("1");
  await onScreen(page, "playing");
  // Six seconds of typing, as the play-test's.
  const started = Date.now();
  while (Date.now() - started < 6_000) await typeWords(page, 1, { gap: 60 });
  await onScreen(page, "results");
  // On a busy machine the word list may still be on its way when 1 is pressed: that is
  // said too, once, before the round's start.
  const announced = (await page.evaluate(() => window.announced)).filter((said) => !/^loading the \S+ words…$/.test(said));
  // Its start, the first key, the results: a handful, where the play-test counted 236.
  expect(announced.length, JSON.stringify(announced)).toBeLessThanOrEqual(4);
  expect(announced[0]).toMatch(/^BLITZ 15s · start typing/);
  expect(announced).toContain("BLITZ 15s · go");
  expect(announced.at(-1)).toMatch(/^results · \d+ wpm · BLITZ 15s · /);
});

test("every button on the canvas is a button a screen reader finds, and presses", async ({ page, consoleLog }) => {
  await boot(page);
  // The menu's lines and keys are in the mirror too.
  await expect(page.locator("[data-mirror=lines]")).toContainText("every round is a replay");
  await expect(page.locator("[data-mirror=hints]")).toContainText("enter play");
  for (const name of ["rooms", "history", "boards", "your keys", "link", "settings"]) {
    await expect(page.getByRole("button", { name, exact: true })).toHaveCount(1);
  }
  await press(page.getByRole("button", { name: "history", exact: true }));
  await onScreen(page, "history");
  await press(page.getByRole("button", { name: "back", exact: true }));
  await onScreen(page, "menu");
  await expect(page.locator("[data-mirror=announce]")).toHaveText("menu · BLITZ 15s");

  // A round's way out, and the results' buttons.
  await page.keyboard.press("z");
  await onScreen(page, "playing");
  await typeWords(page, 3, { gap: 60 });
  await press(page.getByRole("button", { name: "end", exact: true }));
  await onScreen(page, "results");
  await pastResultsHold(page);
  for (const name of ["again", "watch", "race", "menu"]) {
    await expect(page.getByRole("button", { name, exact: true })).toHaveCount(1);
  }
  await press(page.getByRole("button", { name: "again", exact: true }));
  await onScreen(page, "playing");
  await expect(page.locator("[data-mirror=status]")).toContainText("ZEN");
  // Typing goes on after a button: the focus is back in the game's input.
  await typeWords(page, 1, { gap: 60 });
  await expect(page.locator("[data-mirror=announce]")).toHaveText("ZEN · go");
});
