// Waiting for the first key, the canvas redrew every frame (about 740 draw calls a
// second) for a caret that blinks twice a second. It now draws when the blink turns.
import { test, expect, boot, onScreen } from "./fixtures.js";

test("a round waiting for its first key draws at the caret's blink, not every frame", async ({ page, consoleLog }) => {
  await boot(page);
  await page.keyboard.press("1");
  await onScreen(page, "playing");
  await page.evaluate(() => window.typepper.clearTimes());
  await page.waitForTimeout(2_000);
  const { frames, draws } = await page.evaluate(() => ({
    frames: window.typepper.frameTimes().length,
    draws: window.typepper.drawTimes().length,
  }));
  // A ratio in one run, not a time: a blink turns every 530 ms, a frame comes every 16.
  expect(frames).toBeGreaterThan(20);
  expect(draws / frames, `${draws} draws in ${frames} frames`).toBeLessThan(0.2);
  expect(draws).toBeGreaterThan(0);
});
