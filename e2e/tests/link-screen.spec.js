// The link screen as a new player met it: a refused name's error stayed while they typed,
// and "linked" came in the same red as an error.
import { test, expect, boot, onScreen, shot } from "./fixtures.js";

/** How many of the canvas's pixels are exactly the red of an error (Tone::Wrong). */
async function redPixels(page) {
  return page.evaluate(() => {
    const canvas = document.getElementById("screen");
    const data = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
    let red = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (data[i] === 0xff && data[i + 1] === 0x4d && data[i + 2] === 0x5e) red++;
    }
    return red;
  });
}

test("a refused name's error goes as you type, and linked is not said in an error's red", async ({ page, consoleLog }) => {
  await boot(page);
  await page.keyboard.press("l");
  await onScreen(page, "link");
  const notice = page.locator("[data-mirror=notice]");
  await page.keyboard.type("ab");
  await page.keyboard.press("Enter");
  await expect(notice).toContainText("3 to 20");
  await expect.poll(() => redPixels(page)).toBeGreaterThan(0);
  await page.keyboard.type("c");
  await expect(notice).toHaveText("");

  await page.keyboard.type(`_${Date.now() % 1e9}`);
  await page.keyboard.press("Enter");
  await onScreen(page, "menu");
  await expect(notice).toHaveText("linked: your rounds will be sent, scored and shared");
  await page.waitForTimeout(200);
  expect(await redPixels(page)).toBe(0);
  await shot(page, "menu-linked");
});
