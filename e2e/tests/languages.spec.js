// Issue 40: a French, a Russian and a punctuation round, each picked on the menu with
// keys, typed from the text mirror with keyboard.type (é, ç, ж and ё arrive as the
// browser sends them: an input event, no key of a US layout), ranked on a seed the server
// issued, and on its board; the run the server keeps scores the same in the CLI. The
// wasm carries no list, English's included: a list is fetched from /words/ when its
// language is picked (English's at the first load).
import { test, expect, boot, mirror, onScreen, pastResultsHold, shot, typeWords, cli, stored, pickLanguage } from "./fixtures.js";

const unique = (who) => `${who}_${Date.now() % 1e8}`;

async function link(page, who) {
  await page.keyboard.press("l");
  await onScreen(page, "link");
  await page.keyboard.type(who);
  await page.keyboard.press("Enter");
  await onScreen(page, "menu");
  await expect(page.locator("[data-mirror=notice]")).toHaveText("linked: your rounds will be sent, scored and shared");
}

/** Plays the menu's picked mode, `title`, to its results: ranked, shared, and scored by
 * the CLI on the run the server keeps as the browser scored it. Returns the run's id,
 * its headline, and the words the round showed first. */
async function rankedRound(page, { title, mode, words, gap, playing }) {
  await expect(page.locator("[data-mirror=list]")).toContainText(`▸ ${title} · RANKED`);
  await page.keyboard.press("Enter");
  await onScreen(page, "playing");
  await expect(page.locator("[data-mirror=status]")).toContainText(title);
  const text = await mirror(page, "words");
  // A slip fixed in the second word; a look at the round three words in.
  await typeWords(page, 3, { gap, mistake: (i) => (i === 1 ? "fix" : null) });
  if (playing) await shot(page, playing);
  await typeWords(page, words - 3, { gap });
  await onScreen(page, "results");
  const share = page.locator("[data-mirror=share]");
  await expect(share).toHaveText(/\/r\/[0-9A-Za-z]{8}$/);
  await expect(page.locator("[data-mirror=notice]")).toHaveText("ranked · your ranked best!");
  const id = (await share.textContent()).split("/").pop();
  const run = await (await page.request.get(`/v1/runs/${id}`)).body();
  expect(run.toString("hex")).toBe(await stored(page, "last.replay"));
  const s = cli(["score", "--json", "-"], run.toString("hex"));
  expect(s.mode).toBe(mode);
  expect(s.title).toBe(title);
  const results = await mirror(page, "results");
  for (const want of [
    `${s.headline.text} · ${title}`,
    `wpm ${s.wpm.toFixed(2)} `,
    `accuracy ${s.accuracy}%`,
    `correct ${s.chars.correct} · wrong ${s.chars.wrong} · extra ${s.chars.extra} · missed ${s.chars.missed} · `,
    `words ${s.words} `,
  ]) {
    expect(results).toContain(want);
  }
  return { id, headline: s.headline.text, text };
}

/** The round's board (the menu's picked mode), with `who` on it. */
async function onItsBoard(page, title, who) {
  await pastResultsHold(page);
  await page.keyboard.press("Escape");
  await onScreen(page, "menu");
  await page.keyboard.press("b");
  await onScreen(page, "boards");
  await expect(page.locator("[data-mirror=status]")).toHaveText(`${title} · this month's bests · UTC`);
  await expect(page.locator("[data-mirror=list]")).toContainText(who);
}

test("a French WORDS 10 round: its list is fetched when picked, it ranks, is on its board, and a friend's empty browser watches its link", async ({
  page,
  browser,
  consoleLog,
}) => {
  const who = unique("fr");
  const lists = [];
  page.on("request", (r) => r.url().includes("/words/") && lists.push(new URL(r.url()).pathname));
  await boot(page);
  await link(page, who);
  // WORDS' count down to 10, then the text's language on to français.
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowLeft");
  await pickLanguage(page, "français");
  await shot(page, "menu-francais");
  await expect.poll(() => lists).toContainEqual(expect.stringMatching(/^\/words\/fr\.[0-9a-f]{16}\.txt$/));
  const { id, headline } = await rankedRound(page, {
    title: "WORDS 10 · français",
    mode: "words:10@fr",
    words: 10,
    gap: 90,
    playing: "francais-playing",
  });
  await shot(page, "francais-results");
  await onItsBoard(page, "WORDS 10 · français", who);

  // A friend with an empty browser opens the link: the game waits for the French list,
  // then plays the round back.
  const friend = await browser.newContext();
  const theirs = await friend.newPage();
  const errors = [];
  theirs.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  await theirs.goto(`/?replay=${id}`);
  await onScreen(theirs, "replay");
  await expect(theirs.locator("[data-mirror=banner]")).toHaveText(`REPLAY · WORDS 10 · français · ${who}`);
  await onScreen(theirs, "results");
  expect(await mirror(theirs, "results")).toContain(`${headline} · WORDS 10 · français`);
  expect(errors).toEqual([]);
  await friend.close();
});

test("a Russian BLITZ 15s round, typed in Cyrillic, ranks and is on its board", async ({ page, consoleLog }) => {
  const who = unique("ru");
  await boot(page);
  await link(page, who);
  await pickLanguage(page, "русский");
  expect(await mirror(page, "list")).toContain("BLITZ 15s · русский");
  await rankedRound(page, {
    title: "BLITZ 15s · русский",
    mode: "time:15@ru",
    words: 11,
    gap: 110,
    playing: "russian-playing",
  });
  await shot(page, "russian-results");
  await onItsBoard(page, "BLITZ 15s · русский", who);
});

test("a punctuation round, capitals and marks typed as shown, ranks and is on its board", async ({ page, consoleLog }) => {
  const who = unique("p");
  await boot(page);
  await link(page, who);
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press(".");
  await expect(page.locator("[data-mirror=notice]")).toHaveText("text: punctuation · english");
  await expect(page.locator("[data-mirror=list]")).toContainText("punctuation: on");
  const { text } = await rankedRound(page, {
    title: "WORDS 10 · punctuation",
    mode: "words:10/p",
    words: 10,
    gap: 90,
    playing: "punctuation-playing",
  });
  await shot(page, "punctuation-results");
  // A sentence starts with a capital (after an opening bracket or quote, if it has one),
  // and ends with its mark.
  expect(text).toMatch(/^[("']?[A-Z]/);
  expect(text).toMatch(/[.,;:!?'"()-]/);
  await onItsBoard(page, "WORDS 10 · punctuation", who);
});
