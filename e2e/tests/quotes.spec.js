// Issue 41: a QUOTE round in the browser. The wasm carries no passages: the language's are
// fetched from /quotes/ when a quote is first played, as a word list is from /words/, and
// the service worker keeps them, so a quote plays offline after. The results credit the
// passage's author and work (the canvas draws them under the title; the mirror says
// them), and `b` there opens the passage's own board.
import {
  test,
  expect,
  boot,
  cli,
  drawnText,
  layoutFaults,
  mirror,
  onScreen,
  pastResultsHold,
  recordText,
  shotBoth,
  stored,
  typeWords,
} from "./fixtures.js";

async function link(page, who) {
  await page.keyboard.press("l");
  await onScreen(page, "link");
  await page.keyboard.type(who);
  await page.keyboard.press("Enter");
  await onScreen(page, "menu");
  await expect(page.locator("[data-mirror=notice]")).toHaveText("linked: your rounds will be sent, scored and shared");
}

/** The paths the origin's lists' cache holds. */
function kept(page) {
  return page.evaluate(async () => {
    if (!(await caches.has("typepper-words"))) return [];
    const keys = await (await caches.open("typepper-words")).keys();
    return keys.map((r) => new URL(r.url).pathname);
  });
}

const QUOTES = /^\/quotes\/en\.[0-9a-f]{16}\.txt$/;

test("a QUOTE round fetches its passages, credits its author on the results, ranks on its own board, and a quote plays offline after", async ({
  page,
  context,
  consoleLog,
}) => {
  test.info().annotations.push({ type: "allow-error", description: "ERR_INTERNET_DISCONNECTED" });
  const who = `qt_${Date.now() % 1e8}`;
  const fetched = [];
  page.on("request", (r) => new URL(r.url()).pathname.startsWith("/quotes/") && fetched.push(new URL(r.url()).pathname));
  await recordText(page);
  await boot(page);
  await link(page, who);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  // A linked game asks for a seed for a short quote once QUOTE is picked (each one shows
  // its player a passage for good, so none is held for a player who plays no quotes):
  // the server picks the passage, and the round on it is ranked.
  await expect(page.locator("[data-mirror=list]")).toContainText("QUOTE short · english\n");
  for (let i = 0; i < 4; i++) await page.keyboard.press("ArrowDown");
  await expect(page.locator("[data-mirror=list]")).toContainText("QUOTE short · english · RANKED");
  expect(fetched).toEqual([]);

  // A quote mark plays it: its language's passages come first.
  await page.keyboard.press("'");
  await onScreen(page, "playing");
  expect(fetched).toContainEqual(expect.stringMatching(QUOTES));
  await expect(page.locator("[data-mirror=status]")).toContainText("QUOTE #");
  // A short quote is under 100 characters: the mirror shows all its words.
  const words = (await mirror(page, "words")).split(" ");
  await typeWords(page, words.length, { gap: 80, mistake: (i) => (i === 1 ? "fix" : null) });
  await onScreen(page, "results");

  // Its author and work, in the mirror and on the canvas under the title.
  const lines = await mirror(page, "lines");
  const source = lines.split("\n").find((l) => l.startsWith("— "));
  expect(source, lines).toBeTruthy();
  const drawn = (await drawnText(page)).map((t) => t.text).join(" ");
  expect(drawn).toContain(source.split(" ").slice(0, 3).join(" "));
  expect(await layoutFaults(page)).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await layoutFaults(page), "at a phone's size").toEqual([]);
  await page.setViewportSize({ width: 1280, height: 800 });

  // Sent and ranked, on the passage's own board.
  const share = page.locator("[data-mirror=share]");
  await expect(share).toHaveText(/\/r\/[0-9A-Za-z]{8}$/);
  await expect(page.locator("[data-mirror=notice]")).toHaveText("ranked · your ranked best!");
  await shotBoth(page, "quote-results");
  const id = (await share.textContent()).split("/").pop();
  const run = await (await page.request.get(`/v1/runs/${id}`)).body();
  expect(run.toString("hex")).toBe(await stored(page, "last.replay"));
  const { mode, title } = cli(["score", "--json", "-"], run.toString("hex"));
  expect(mode).toMatch(/^quote:\d+$/);
  const board = await page.request.get(`/v1/boards/${encodeURIComponent(mode)}`);
  expect(board.status()).toBe(200);
  expect((await board.json()).rows.map((r) => r.run)).toContain(id);
  // `b` on the results opens the passage's own board.
  await pastResultsHold(page);
  await page.keyboard.press("b");
  await onScreen(page, "boards");
  await expect(page.locator("[data-mirror=status]")).toHaveText(`${title} · this month's bests · UTC`);
  await expect(page.locator("[data-mirror=list]")).toContainText(who);
  expect(await layoutFaults(page), "its board").toEqual([]);
  await shotBoth(page, "quote-board");

  // Kept by the service worker: offline, a new load plays another quote.
  await expect.poll(() => kept(page)).toContainEqual(expect.stringMatching(QUOTES));
  await context.setOffline(true);
  await page.reload();
  await onScreen(page, "menu");
  await page.keyboard.press("'");
  await onScreen(page, "playing");
  await expect(page.locator("[data-mirror=status]")).toContainText("QUOTE #");
  await page.keyboard.press("Escape");
  await onScreen(page, "menu");
});
