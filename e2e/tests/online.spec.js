// Against the real server: link, play, submit, share; a friend opens the link and
// watches; a board row plays; offline rounds wait in the outbox and go when back online.
import { test, expect, boot, mirror, onScreen, shot, typeWords, stored } from "./fixtures.js";

const name = `e2e_${Date.now() % 1e9}`;

async function link(page, who) {
  await page.keyboard.press("l");
  await onScreen(page, "link");
  await page.keyboard.type(who);
  await shot(page, "link");
  await page.keyboard.press("Enter");
  await onScreen(page, "menu");
  await expect(page.locator("[data-mirror=notice]")).toHaveText(`linked as ${who}: your rounds will be sent`);
}

/** A ZEN round long enough for the server (over 3 s), at a human pace. */
async function zen(page, words = 6) {
  await page.keyboard.press("z");
  await onScreen(page, "playing");
  await typeWords(page, words, { gap: 80 });
  await page.waitForTimeout(1500);
  await page.keyboard.press("Escape");
  await onScreen(page, "results");
}

test("link, play, share, and a friend watches the round", async ({ page, browser, consoleLog }) => {
  await boot(page);
  await link(page, name);
  expect(await stored(page, "player")).toMatch(new RegExp(`^${name} [0-9a-f]{64}$`));
  await zen(page);
  const share = page.locator("[data-mirror=share]");
  await expect(share).toHaveText(/\/r\/[0-9A-Za-z]{8}$/);
  await expect(page.locator("[data-mirror=notice]")).toHaveText("a personal best!");
  await shot(page, "results-shared");
  const link_ = await share.textContent();
  const results = await mirror(page, "results");
  const headline = results.split(" · ")[0];
  expect(await stored(page, "history")).toContain(link_);
  expect(Object.keys(await page.evaluate(() => ({ ...localStorage }))).filter((k) => k.startsWith("outbox/"))).toEqual([]);

  // The share page says what happened, for link previews.
  const html = await (await page.request.get(link_)).text();
  expect(html).toContain(`<title>${headline} · ZEN · typepper</title>`);
  expect(html).toContain(`<meta property="og:title" content="${headline} · ZEN · typepper">`);
  expect(html).toMatch(/<meta property="og:image" content="[^"]+\/web\/og\.png">/);

  // A friend, with their own empty browser, opens the link.
  const friend = await browser.newContext();
  const theirs = await friend.newPage();
  const friendLog = [];
  theirs.on("console", (m) => friendLog.push(`${m.type()}: ${m.text()}`));
  await theirs.goto(link_);
  await onScreen(theirs, "replay");
  await expect(theirs.locator("[data-mirror=banner]")).toHaveText("REPLAY · ZEN");
  await theirs.waitForTimeout(1200);
  await shot(theirs, "friend-watching");
  await onScreen(theirs, "results");
  expect(await mirror(theirs, "results")).toBe(results);
  expect(await theirs.evaluate(() => localStorage.getItem("history"))).toBeNull();
  expect(friendLog.filter((l) => l.startsWith("error"))).toEqual([]);
  await friend.close();
});

test("a board row plays its run", async ({ page, consoleLog }) => {
  await boot(page);
  await link(page, `${name}b`);
  await zen(page, 7);
  await expect(page.locator("[data-mirror=share]")).toHaveText(/\/r\//);
  const results = await mirror(page, "results");
  await page.keyboard.press("Escape");
  await onScreen(page, "menu");
  await page.keyboard.press("b");
  await onScreen(page, "boards");
  for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowRight");
  await expect(page.locator("[data-mirror=status]")).toHaveText("ZEN · this month");
  const list = page.locator("[data-mirror=list]");
  await expect(list).toContainText(`${name}b`);
  await shot(page, "boards");
  const rows = (await list.textContent()).trim().split("\n");
  const mine = rows.findIndex((r) => r.includes(`${name}b`));
  for (let i = 0; i < mine; i++) await page.keyboard.press("ArrowDown");
  await expect.poll(async () => (await mirror(page, "list")).trim().split("\n")[mine]).toMatch(/^▸ /);
  await page.keyboard.press("Enter");
  await onScreen(page, "replay");
  await onScreen(page, "results");
  expect(await mirror(page, "results")).toBe(results);
});

test("offline, the round waits in the outbox; back online, it is sent", async ({ page, context, consoleLog }) => {
  test.info().annotations.push({ type: "allow-error", description: "ERR_INTERNET_DISCONNECTED" });
  await boot(page);
  await link(page, `${name}c`);
  await context.setOffline(true);
  await zen(page);
  await expect(page.locator("[data-mirror=notice]")).toContainText("offline");
  const outbox = async () =>
    page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith("outbox/")));
  expect(await outbox()).toHaveLength(1);
  expect(await stored(page, "history")).toMatch(/ -\n$/);
  await shot(page, "offline-results");
  await context.setOffline(false);
  await expect.poll(outbox).toEqual([]);
  await expect.poll(() => stored(page, "history")).toMatch(/ http:\/\/[^ ]+\/r\/[0-9A-Za-z]{8}\n$/);
});
