// Issue 42: the daily text. A desktop linked as a player sees today's daily announced on
// the menu, plays it with j (its first try, on the day's board), and its results say its
// place; a phone linked to the same player by a code plays it too, and is told that a
// second try counts for nothing; the day's rounds are not served until the day is over.
import { test, expect, boot, mirror, onScreen, shot, typeWords, stored, pastResultsHold } from "./fixtures.js";
import { SIZES } from "./sizes.js";
import { writeFileSync } from "node:fs";

const name = `day_${Date.now() % 1e9}`;

/** Plays the daily on `page`, typing what is shown until the 30 s are up. */
async function playDaily(page) {
  await page.keyboard.press("j");
  await onScreen(page, "playing");
  expect(await mirror(page, "status")).toContain("BLITZ 30s");
  await typeWords(page, 50, { gap: 90 });
  await expect(page.locator("[data-mirror=screen]")).toHaveText("results", { timeout: 40_000 });
}

test("the daily is played on a desktop and on a phone of one player, the first try placed", async ({
  page,
  browser,
  consoleLog,
}) => {
  test.setTimeout(180_000);
  await boot(page);
  await page.keyboard.press("l");
  await onScreen(page, "link");
  await page.keyboard.type(name);
  await page.keyboard.press("Enter");
  await onScreen(page, "menu");
  // The menu says today's daily once the server has.
  const lines = page.locator("[data-mirror=lines]");
  await expect(lines).toContainText(/daily #\d+ · BLITZ 30s · [\d,]+ played · j plays it/);
  const number = (await mirror(page, "lines")).match(/daily #(\d+)/)[1];
  await shot(page, "daily-menu");

  await playDaily(page);
  expect(await mirror(page, "results")).toContain(`daily #${number} · BLITZ 30s`);
  const notice = page.locator("[data-mirror=notice]");
  await expect(notice).toHaveText(new RegExp(`^daily #${number} · \\d+ wpm · \\d+(st|nd|rd|th) of [\\d,]+$`), {
    timeout: 30_000,
  });
  await shot(page, "daily-results");
  const id = (await mirror(page, "share")).match(/\/r\/([0-9A-Za-z]{8})/)[1];
  // Nobody gets its keys while the day is on; its score is on the day's board.
  const withheld = await page.request.get(`/v1/runs/${id}`);
  expect(withheld.status()).toBe(403);
  expect(await withheld.text()).toContain(`is a round of daily #${number}`);
  const board = await (await page.request.get(`/v1/daily/${number}`)).json();
  expect(board.board.map((r) => r.run)).toContain(id);
  expect(board.seed ?? null).toBeNull();
  // Its share page and card say its place too.
  const share = await (await page.request.get(`/r/${id}`)).text();
  expect(share).toMatch(new RegExp(`<title>daily #${number} · \\d+ wpm · \\d+(st|nd|rd|th) of [\\d,]+ · typepper</title>`));
  // Its card is kept minutes, while its place can still move.
  const image = share.match(/<meta property="og:image" content="([^"]+)"/)[1].replaceAll("&amp;", "&");
  const card = await page.request.get(image);
  expect(card.status()).toBe(200);
  expect(card.headers()["cache-control"]).toBe("public, max-age=300");
  writeFileSync(new URL("../screenshots/daily-card.png", import.meta.url), await card.body());
  // b: the day's board, where the round is, and which keeps its rounds from view.
  await pastResultsHold(page);
  await page.keyboard.press("b");
  await onScreen(page, "boards");
  expect(await mirror(page, "status")).toBe(`daily #${number} · today's first tries · ends 00:00 UTC`);
  await expect(page.locator("[data-mirror=list]")).toContainText(name);
  expect(await mirror(page, "hints")).not.toContain("enter watch");
  await shot(page, "daily-board");

  // A phone becomes the same player by a code, and plays the daily: a second try.
  await page.keyboard.press("Escape");
  await onScreen(page, "menu");
  await page.keyboard.press("l");
  await onScreen(page, "devices");
  await page.keyboard.press("a");
  await expect(lines).toContainText("works once, until ");
  const code = (await mirror(page, "lines")).match(/\?device=([2-9A-HJKMNP-Z]{8})/)[1];
  const context = await browser.newContext({ ...SIZES.phone });
  const phone = await context.newPage();
  const phoneLog = [];
  phone.on("console", (m) => phoneLog.push(`${m.type()}: ${m.text()}`));
  await phone.goto(`/?device=${code}`);
  await onScreen(phone, "menu");
  expect(await stored(phone, "player")).toMatch(new RegExp(`^${name} [0-9a-f]{64}$`));
  // The menu knows the player's place already: it is the player's, not the device's.
  await expect(phone.locator("[data-mirror=lines]")).toContainText(
    new RegExp(`daily #${number} · \\d+ wpm · \\d+(st|nd|rd|th) of [\\d,]+ · j plays it again, unranked`),
  );
  await shot(phone, "daily-phone-menu");
  await phone.keyboard.press("j");
  await onScreen(phone, "playing");
  await expect(phone.locator("[data-mirror=notice]")).toContainText(`you tried daily #${number} at `);
  await typeWords(phone, 50, { gap: 90 });
  await expect(phone.locator("[data-mirror=screen]")).toHaveText("results", { timeout: 40_000 });
  await expect(phone.locator("[data-mirror=notice]")).toContainText(
    `unranked: daily #${number} counted your first try already (run ${id})`,
    { timeout: 30_000 },
  );
  await shot(phone, "daily-phone-results");
  const after = await (await phone.request.get(`/v1/daily/${number}`)).json();
  expect(after.board.filter((r) => r.name === name).map((r) => r.run)).toEqual([id]);
  expect(phoneLog.filter((l) => l.startsWith("error") && !l.includes("403"))).toEqual([]);
  await context.close();
});
