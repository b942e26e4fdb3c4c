// A new player clicked the "›" beside HOT PURSUIT's level and the round started instead.
// The arrows are targets of their own: a click moves the level and starts nothing.
import { test, expect, boot, mirror } from "./fixtures.js";

/** The CSS pixel of the rightmost bright text pixel right of the canvas's middle, within
 *  the menu's items: the "›" of HOT PURSUIT, its widest item. */
async function rightArrow(page) {
  return page.evaluate(() => {
    const canvas = document.getElementById("screen");
    const scale = canvas.width / canvas.clientWidth;
    const { data, width, height } = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height);
    const [from, to] = [Math.round(width / 2), Math.round(width / 2 + 170 * scale)];
    let best = null;
    for (let y = 0; y < height; y++) {
      for (let x = to; x > from; x--) {
        const i = (y * width + x) * 4;
        if (data[i] + data[i + 1] + data[i + 2] > 600) {
          if (!best || x > best.x) best = { x, y };
          break;
        }
      }
    }
    return best && { x: best.x / scale, y: best.y / scale };
  });
}

test("a click on the › beside HOT PURSUIT's level moves the level and starts nothing", async ({ page, consoleLog }) => {
  await boot(page);
  await page.waitForTimeout(300);
  const arrow = await rightArrow(page);
  expect(arrow).not.toBeNull();
  await page.mouse.click(arrow.x - 3, arrow.y);
  await expect(page.locator("[data-mirror=list]")).toContainText("▸ HOT PURSUIT from lv8");
  await expect(page.locator("[data-mirror=screen]")).toHaveText("menu");
});
