// Against the real server: link, play a ranked round on a seed the server issued, share
// it; a friend opens the link and watches; its board row plays; rounds played without
// an issued seed, offline, wait in the outbox, go when back online, and come back
// unranked.
import {
  test,
  expect,
  boot,
  mirror,
  onScreen,
  pastResultsHold,
  recordText,
  save,
  shot,
  tapText,
  typeWords,
  stored,
} from "./fixtures.js";

const name = `e2e_${Date.now() % 1e9}`;

async function link(page, who) {
  await page.keyboard.press("l");
  await onScreen(page, "link");
  await page.keyboard.type(who);
  await shot(page, "link");
  await page.keyboard.press("Enter");
  await onScreen(page, "menu");
  await expect(page.locator("[data-mirror=notice]")).toHaveText("linked: your rounds will be sent, scored and shared");
}

/** A ZEN round long enough for the server (over 20 keys and 3 s), at a human pace. */
async function zen(page, words = 6) {
  await page.keyboard.press("z");
  await onScreen(page, "playing");
  await typeWords(page, words, { gap: 80 });
  await page.waitForTimeout(1500);
  await page.keyboard.press("Escape");
  await onScreen(page, "results");
}

test("a ranked round on an issued seed is shared, watched by a friend, and on the board", async ({
  page,
  browser,
  consoleLog,
}) => {
  await recordText(page);
  await boot(page);
  await link(page, name);
  expect(await stored(page, "player")).toMatch(new RegExp(`^${name} [0-9a-f]{64}$`));
  // The game asks for a seed for each mode in the background; the menu says which next
  // round will count.
  const list = page.locator("[data-mirror=list]");
  await expect(list).toContainText("BLITZ 15s · RANKED");
  await expect(list).toContainText("ZEN · RANKED");
  await shot(page, "menu-ranked");
  await page.keyboard.press("1");
  await onScreen(page, "playing");
  // Fourteen words at a person's pace fit in the 15 s; the clock ends the round.
  await typeWords(page, 14, { gap: 110 });
  await onScreen(page, "results");
  const share = page.locator("[data-mirror=share]");
  await expect(share).toHaveText(/\/r\/[0-9A-Za-z]{8}$/);
  await expect(page.locator("[data-mirror=notice]")).toHaveText("ranked · your ranked best!");
  await shot(page, "results-ranked");
  const link_ = await share.textContent();
  const results = await mirror(page, "results");
  const headline = results.split(" · ")[0];
  expect(await stored(page, "history")).toContain(link_);
  expect(Object.keys(await page.evaluate(() => ({ ...localStorage }))).filter((k) => k.startsWith("outbox/"))).toEqual([]);

  // The share page says what happened, for link previews.
  const html = await (await page.request.get(link_)).text();
  expect(html).toContain(`<title>${headline} · BLITZ 15s · typepper</title>`);
  expect(html).toContain(`<meta property="og:title" content="${headline} · BLITZ 15s · typepper">`);
  const id = link_.split("/").pop();
  const card = html.match(/<meta property="og:image" content="([^"]+)">/)[1];
  expect(card).toMatch(new RegExp(`/r/${id}/card\\.png\\?v=\\d+$`));
  // The card the preview shows: this round's own PNG, looked at in the screenshots.
  const png = await page.request.get(card);
  expect(png.headers()["content-type"]).toBe("image/png");
  save("share-card.png", await png.body());

  // A friend, with their own empty browser, opens the link: the page refreshes to the
  // game, watching the round at once. `g` races it: the ghost bears the player's name.
  const friend = await browser.newContext();
  const theirs = await friend.newPage();
  const friendLog = [];
  theirs.on("console", (m) => friendLog.push(`${m.type()}: ${m.text()}`));
  await theirs.goto(link_);
  await theirs.waitForURL(new RegExp(`/\\?replay=${id}$`));
  await onScreen(theirs, "replay");
  await expect(theirs.locator("[data-mirror=banner]")).toHaveText(`REPLAY · BLITZ 15s · ${name}`);
  await theirs.waitForTimeout(1200);
  await shot(theirs, "friend-watching");
  await onScreen(theirs, "results");
  expect(await mirror(theirs, "results")).toBe(results);
  await pastResultsHold(theirs);
  await theirs.keyboard.press("g");
  await onScreen(theirs, "playing");
  await expect(theirs.locator("[data-mirror=banner]")).toHaveText(`RACE · BLITZ 15s · vs ${name}`);
  await expect(theirs.locator("[data-mirror=ghost]")).toHaveText(`tied with ${name}`);
  expect(await theirs.evaluate(() => localStorage.getItem("history"))).toBeNull();
  expect(friendLog.filter((l) => l.startsWith("error"))).toEqual([]);
  await friend.close();

  // The round ranks on this month's board, and its row plays it.
  await page.keyboard.press("Escape");
  await onScreen(page, "menu");
  await page.keyboard.press("b");
  await onScreen(page, "boards");
  const status = page.locator("[data-mirror=status]");
  await expect(status).toHaveText("BLITZ 15s · this month's bests · UTC");
  const board = page.locator("[data-mirror=list]");
  await expect(board).toContainText(name);
  // It is today's best, this week's and all time's too: p goes round the periods, each
  // asked of the server, back to this month's.
  for (const period of ["all-time bests", "today's bests · from 00:00 UTC", "this week's bests · from Monday, UTC"]) {
    await page.keyboard.press("p");
    await expect(status).toHaveText(`BLITZ 15s · ${period}`);
    await expect(board).toContainText(name);
  }
  await page.keyboard.press("p");
  await expect(status).toHaveText("BLITZ 15s · this month's bests · UTC");
  await expect(board).toContainText(name);
  await shot(page, "boards");
  const rows = (await board.textContent()).trim().split("\n");
  const mine = rows.findIndex((r) => r.includes(name));
  for (let i = 0; i < mine; i++) await page.keyboard.press("ArrowDown");
  await expect.poll(async () => (await mirror(page, "list")).trim().split("\n")[mine]).toMatch(/^▸ /);
  await page.keyboard.press("Enter");
  await onScreen(page, "replay");
  // Whose row is being watched; esc goes back to the board, its row still picked.
  await expect(page.locator("[data-mirror=banner]")).toHaveText(`REPLAY · BLITZ 15s · ${name}`);
  await page.keyboard.press("Escape");
  await onScreen(page, "boards");
  expect((await mirror(page, "list")).trim().split("\n")[mine]).toMatch(/^▸ /);
  await page.keyboard.press("Enter");
  await onScreen(page, "replay");
  await onScreen(page, "results");
  expect(await mirror(page, "results")).toBe(results);
  await page.keyboard.press("Escape");
  await onScreen(page, "boards");
  // The row's player: their profile, the round their best; esc comes back to the board.
  await page.keyboard.press("o");
  await onScreen(page, "profile");
  await expect(page.locator("[data-mirror=list]")).toContainText("personal bests:");
  await expect(page.locator("[data-mirror=list]")).toContainText("BLITZ 15s · ");
  await page.keyboard.press("Escape");
  await onScreen(page, "boards");
  // A click on the row's name does the same.
  await tapText(page, name);
  await onScreen(page, "profile");
  await page.keyboard.press("Escape");
  await onScreen(page, "boards");
});

test("offline, the round waits in the outbox; back online, it is sent and comes back unranked", async ({
  page,
  context,
  consoleLog,
}) => {
  test.info().annotations.push({ type: "allow-error", description: "ERR_INTERNET_DISCONNECTED" });
  test.info().annotations.push({ type: "allow-error", description: "ERR_FAILED" });
  // No seed ever comes: the round is played on a seed of the game's own.
  await page.route("**/v1/seeds", (route) => route.abort());
  await boot(page);
  await link(page, `${name}c`);
  await context.setOffline(true);
  expect(await mirror(page, "list")).not.toContain("RANKED");
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
  await expect(page.locator("[data-mirror=notice]")).toHaveText(
    "unranked: not played on a seed the server issued to you",
  );
  await shot(page, "offline-unranked");
});
