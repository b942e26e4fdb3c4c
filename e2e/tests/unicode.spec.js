// A dead-key é and a pasted 🌶 arrive through the hidden input as one character each.
import { test, expect, boot, onScreen, typeWords, cli, stored } from "./fixtures.js";

test("a dead-key é and a pasted 🌶 are recorded as single characters", async ({ page, context, consoleLog }) => {
  await boot(page);
  await page.keyboard.press("z");
  await onScreen(page, "playing");
  await typeWords(page, 1);

  // A dead key is a composition: ´ pending, then é committed.
  const cdp = await context.newCDPSession(page);
  await cdp.send("Input.imeSetComposition", { text: "´", selectionStart: 1, selectionEnd: 1 });
  await cdp.send("Input.insertText", { text: "é" });
  await expect(page.locator("[data-mirror=typed]")).toHaveText("é");

  // A paste, through the clipboard and ctrl+v.
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.evaluate(() => navigator.clipboard.writeText("🌶"));
  await page.keyboard.press("Control+V");
  await expect(page.locator("[data-mirror=typed]")).toHaveText("é🌶");

  await page.keyboard.press("Escape");
  await onScreen(page, "results");
  const replay = cli(["inspect", "--json", "-"], await stored(page, "last.replay"));
  const chars = replay.inputs.filter((i) => i.op === "char").map((i) => i.char);
  expect(chars).toContain("é");
  expect(chars).toContain("🌶");
  expect(chars).not.toContain("´");
  expect(chars.filter((c) => c === "é")).toHaveLength(1);
  expect(replay.inputs.at(-1).op).toBe("end");
});
