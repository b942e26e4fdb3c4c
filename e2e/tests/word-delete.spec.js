// Ctrl+Backspace deletes the word being typed, as in Monkeytype, and Alt+Backspace (a
// Mac's) does too; the replay holds backspaces, so the engine plays it to the same score.
import { test, expect, boot, onScreen, typeWords, cli, stored } from "./fixtures.js";

test("ctrl+backspace and alt+backspace delete the word being typed", async ({ page, consoleLog }) => {
  await boot(page);
  await page.keyboard.press("z");
  await onScreen(page, "playing");
  await typeWords(page, 1);
  const typed = page.locator("[data-mirror=typed]");
  await page.keyboard.type("qqq");
  await expect(typed).toHaveText("qqq");
  await page.keyboard.press("Control+Backspace");
  await expect(typed).toHaveText("");
  await page.keyboard.type("zz");
  await expect(typed).toHaveText("zz");
  await page.keyboard.press("Alt+Backspace");
  await expect(typed).toHaveText("");

  await page.keyboard.press("Escape");
  await onScreen(page, "results");
  const replay = cli(["inspect", "--json", "-"], await stored(page, "last.replay"));
  const ops = replay.inputs.map((i) => i.op);
  expect(ops.filter((op) => op === "backspace")).toHaveLength(5);
  expect(ops.every((op) => ["char", "backspace", "end"].includes(op))).toBe(true);
});
