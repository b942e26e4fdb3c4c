// Issue 42: one player on every device. A desktop linked as a player shows a code (and
// its QR code); a phone opens the link that carries it and is the same player, its round
// stored under the player's name; the desktop lists both and removes the phone, which is
// told so at its next request, and forgets the player.
import { test, expect, boot, mirror, onScreen, shot, typeWords, stored, cli } from "./fixtures.js";
import { SIZES } from "./sizes.js";

const name = `dev_${Date.now() % 1e9}`;

test("a phone becomes a desktop's player by a code's link, and the desktop removes it", async ({
  page,
  browser,
  consoleLog,
}) => {
  await boot(page);
  await page.keyboard.press("l");
  await onScreen(page, "link");
  // Tab types a code instead of a name, and back.
  await page.keyboard.press("Tab");
  await expect(page.locator("[data-mirror=status]")).toHaveText("a code from another device");
  await shot(page, "link-code");
  await page.keyboard.press("Tab");
  await page.keyboard.type(name);
  await page.keyboard.press("Enter");
  await onScreen(page, "menu");

  // Linked, l is the devices: this one alone, named by the browser.
  await page.keyboard.press("l");
  await onScreen(page, "devices");
  const list = page.locator("[data-mirror=list]");
  await expect(list).toContainText("Chrome on Linux · this device · added ");
  await page.keyboard.press("a");
  const lines = page.locator("[data-mirror=lines]");
  await expect(lines).toContainText("works once, until ");
  const shown = await mirror(page, "lines");
  const [code] = shown.match(/^[2-9A-HJKMNP-Z]{4} [2-9A-HJKMNP-Z]{4}$/m);
  const link = shown.match(/\?device=([2-9A-HJKMNP-Z]{8})/);
  expect(link[1]).toBe(code.replace(" ", ""));
  await shot(page, "devices-code");

  // The phone opens the link: it is the desktop's player, and says so.
  // A phone's browser, which says so: the server names a device by its User-Agent.
  const userAgent =
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";
  const context = await browser.newContext({ ...SIZES.phone, userAgent });
  const phone = await context.newPage();
  const phoneLog = [];
  phone.on("console", (m) => phoneLog.push(`${m.type()}: ${m.text()}`));
  await phone.goto(`/?device=${link[1]}`);
  await onScreen(phone, "menu");
  await expect(phone.locator("[data-mirror=notice]")).toHaveText(`linked: this device is ${name} now`);
  expect(await stored(phone, "player")).toMatch(new RegExp(`^${name} [0-9a-f]{64}$`));
  await shot(phone, "devices-phone-linked");

  // A ZEN round on the phone is stored under the player's name.
  await phone.keyboard.press("z");
  await onScreen(phone, "playing");
  await typeWords(phone, 8, { gap: 90 });
  await phone.waitForTimeout(1500);
  await phone.keyboard.press("Escape");
  await onScreen(phone, "results");
  await expect(phone.locator("[data-mirror=share]")).toContainText("/r/", { timeout: 30_000 });
  const id = (await mirror(phone, "share")).match(/\/r\/([0-9A-Za-z]{8})/)[1];
  const run = await phone.request.get(`/v1/runs/${id}`);
  expect(run.headers()["typepper-player"]).toBe(name);

  // The phone lists both, itself marked; the desktop too, once it asks again.
  await phone.keyboard.press("Escape");
  await onScreen(phone, "menu");
  await phone.keyboard.press("l");
  await onScreen(phone, "devices");
  await expect(phone.locator("[data-mirror=list]")).toContainText("Chrome on Android · this device");
  await shot(phone, "devices-phone-list");
  await page.keyboard.press("Escape");
  await page.keyboard.press("Escape");
  await onScreen(page, "menu");
  await page.keyboard.press("l");
  await expect(list).toContainText("Chrome on Android · browser or terminal");
  await shot(page, "devices-list");

  // The desktop removes the phone: the phone's next request is told why.
  await page.keyboard.press("ArrowDown");
  await expect.poll(async () => (await mirror(page, "list")).trim().split("\n")[1]).toMatch(/^▸ Chrome on Android/);
  await page.keyboard.press("x");
  await expect(page.locator("[data-mirror=notice]")).toHaveText(
    "x again removes Chrome on Android: it stops being you at once",
  );
  await page.keyboard.press("x");
  await expect(page.locator("[data-mirror=notice]")).toHaveText("removed: that device is a stranger now");
  await expect.poll(async () => (await mirror(page, "list")).trim().split("\n").length).toBe(1);
  await phone.keyboard.press("Escape");
  await onScreen(phone, "menu");
  // Its next request is refused, and the game is linked to no one from then on.
  await phone.keyboard.press("l");
  await expect(phone.locator("[data-mirror=notice]")).toContainText(
    "no longer linked: this device was removed from its player",
  );
  await onScreen(phone, "menu");
  expect(await stored(phone, "player")).toBeNull();
  await shot(phone, "devices-phone-removed");
  expect(phoneLog.filter((l) => l.startsWith("error") && !l.includes("401"))).toEqual([]);
  await context.close();
});
