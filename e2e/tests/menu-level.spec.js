// A new player clicked the "›" beside HOT PURSUIT's level and the round started instead.
// The arrows are targets of their own: a click moves the level and starts nothing.
import { test, expect, boot, recordText, drawnText } from "./fixtures.js";

test("a click on the › beside HOT PURSUIT's level moves the level and starts nothing", async ({ page, consoleLog }) => {
  await recordText(page);
  await boot(page);
  // The item ends in its level's `›`: a click just inside its right end.
  const item = (await drawnText(page)).find((t) => t.text.startsWith("HOT PURSUIT") && t.text.endsWith("›"));
  expect(item).toBeTruthy();
  await page.mouse.click(item.right - 3, (item.top + item.bottom) / 2);
  await expect(page.locator("[data-mirror=list]")).toContainText("▸ HOT PURSUIT from lv8");
  await expect(page.locator("[data-mirror=screen]")).toHaveText("menu");
});
