// Issue 41: your own text in the browser. The text screen is the page's own text area over
// the canvas: a paragraph is pasted into it (accents, one of them decomposed as some
// keyboards and PDFs give it, an em dash, an ellipsis, a line break), a line is typed
// after it as a person types, played to its end and submitted; a friend's empty browser
// opens its share link and watches the same text. On a phone's 390×844, the screen is
// reached and left by taps, its text area lies clear of what the canvas draws, and it
// goes when the screen does, the hidden input taking the keys again.
import {
  test,
  expect,
  boot,
  cli,
  drawnText,
  layoutFaults,
  mirror,
  onScreen,
  recordText,
  shot,
  stored,
  tapText,
  typeText,
  typeWords,
} from "./fixtures.js";
import { SIZES } from "./sizes.js";

/** What is pasted: é decomposed twice (e and U+0301), and a line break. */
const PASTED = "Là-bas — près de la forêt, l'e\u0301te\u0301 dernier…\nNous marchions sans fin.";
/** What is typed after it, on a line of its own, with a slip fixed by backspace. */
const TYPED = "\nFin.";
/** The round's text: NFC, each run of whitespace one space. */
const READY = "Là-bas — près de la forêt, l'été dernier… Nous marchions sans fin. Fin.";

async function link(page, who) {
  await page.keyboard.press("l");
  await onScreen(page, "link");
  await page.keyboard.type(who);
  await page.keyboard.press("Enter");
  await onScreen(page, "menu");
  await expect(page.locator("[data-mirror=notice]")).toHaveText("linked: your rounds will be sent, scored and shared");
}

/** Keeps, in the page, every text the mirror's `words` has shown. Call before `goto`. */
async function recordWords(page) {
  await page.addInitScript(() => {
    window.wordsSeen = [];
    document.addEventListener("DOMContentLoaded", () => {
      // (The share page, which refreshes to the game, has no mirror.)
      const words = document.querySelector("[data-mirror=words]");
      if (!words) return;
      new MutationObserver(() => window.wordsSeen.push(words.textContent)).observe(words, {
        childList: true,
        characterData: true,
        subtree: true,
      });
    });
  });
}

test("a pasted paragraph with accents, a dash and a line break is played to its end, submitted, and watched from its link by a friend", async ({
  page,
  context,
  browser,
  consoleLog,
}) => {
  const who = `tx_${Date.now() % 1e8}`;
  await boot(page);
  await link(page, who);
  await page.keyboard.press("c");
  await onScreen(page, "text");
  const area = page.locator("#draft");
  await expect(area).toBeFocused();
  await expect(page.locator("[data-mirror=status]")).toHaveText("paste or type a text");

  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.evaluate((text) => navigator.clipboard.writeText(text), PASTED);
  await page.keyboard.press("Control+V");
  // A slip, fixed: backspace is the text area's, not the game's.
  await typeText(page, TYPED.slice(0, -1) + "x");
  await page.keyboard.press("Backspace");
  await typeText(page, TYPED.slice(-1));
  // The text area keeps what was pasted; the game holds it in NFC, lines and all.
  await expect(area).toHaveValue(PASTED + TYPED);
  await expect.poll(() => mirror(page, "typed")).toBe((PASTED + TYPED).normalize("NFC"));
  const words = READY.split(" ").length;
  await expect(page.locator("[data-mirror=status]")).toHaveText(`${[...READY].length} characters · ${words} words`);
  await shot(page, "text-pasted");

  await page.keyboard.press("Enter");
  await onScreen(page, "playing");
  // The text area is gone, and the hidden input takes the keys again.
  await expect(area).toHaveCount(0);
  await expect(page.locator("#keys")).toBeFocused();
  expect(await mirror(page, "words")).toBe(READY);
  expect(await stored(page, "text")).toBe(READY);
  await typeWords(page, 3, { gap: 90 });
  await shot(page, "text-playing");
  await typeWords(page, words - 3, { gap: 90 });
  await onScreen(page, "results");
  expect(await mirror(page, "results")).toContain(" · CUSTOM TEXT · ");

  // Sent and kept, unranked: a custom text is on no board.
  const share = page.locator("[data-mirror=share]");
  await expect(share).toHaveText(/\/r\/[0-9A-Za-z]{8}$/);
  await expect(page.locator("[data-mirror=notice]")).toContainText("unranked: custom texts are never ranked");
  await shot(page, "text-results");
  const link_ = await share.textContent();
  const id = link_.split("/").pop();
  const run = await (await page.request.get(`/v1/runs/${id}`)).body();
  expect(run.toString("hex")).toBe(await stored(page, "last.replay"));
  expect(cli(["inspect", "--json", "-"], run.toString("hex")).text).toBe(READY);
  const results = await mirror(page, "results");

  // A friend, with an empty browser, opens the link and watches the same text.
  const friend = await browser.newContext();
  const theirs = await friend.newPage();
  const errors = [];
  theirs.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  theirs.on("pageerror", (e) => errors.push(e.message));
  await recordWords(theirs);
  await theirs.goto(link_);
  await theirs.waitForURL(new RegExp(`/\\?replay=${id}$`));
  await onScreen(theirs, "replay");
  await expect(theirs.locator("[data-mirror=banner]")).toHaveText(`REPLAY · CUSTOM TEXT · ${who}`);
  await onScreen(theirs, "results");
  expect(await mirror(theirs, "results")).toBe(results);
  // The words it showed, from the first: the text, whole, then less of it each word.
  const seen = (await theirs.evaluate(() => window.wordsSeen)).filter((w) => w !== "");
  expect(seen[0]).toBe(READY);
  for (const w of seen) expect(READY.endsWith(w)).toBe(true);
  expect(errors).toEqual([]);
  await friend.close();
});

test("keys typed the moment the text screen opens are added to the text kept from before, not put in its place", async ({ page, consoleLog }) => {
  await page.addInitScript(() => localStorage.getItem("text") ?? localStorage.setItem("text", "Kept from before."));
  await boot(page);
  // No wait: the keys may come before the frame that fills the text area in.
  await page.keyboard.type("c and more", { delay: 0 });
  await onScreen(page, "text");
  await expect(page.locator("#draft")).toHaveValue("Kept from before. and more");
  await expect.poll(() => mirror(page, "typed")).toBe("Kept from before. and more");
});

test.describe("phone", () => {
  test.use(SIZES.phone);

  test("the text screen at 390×844: reached by a tap, its text area clear of the canvas's words, refused when too long, played, and gone with its screen", async ({
    page,
    consoleLog,
  }) => {
    await recordText(page);
    await boot(page);
    // The menu's QUOTE and CUSTOM TEXT rows fit beside everything else.
    expect(await layoutFaults(page), "the menu").toEqual([]);
    await shot(page, "phone-menu-quote-custom");

    await tapText(page, "CUSTOM TEXT", true);
    await onScreen(page, "text");
    const area = page.locator("#draft");
    await expect(area).toBeFocused();
    const clear = async (what) => {
      expect(await layoutFaults(page), what).toEqual([]);
      const box = await area.boundingBox();
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
      expect(box.height).toBeGreaterThanOrEqual(120);
      const inside = (await drawnText(page)).filter(
        (t) => t.text.trim() !== "" && t.right > box.x && t.left < box.x + box.width && t.bottom > box.y && t.top < box.y + box.height,
      );
      expect(inside.map((t) => t.text), `${what}: drawn under the text area`).toEqual([]);
    };
    await clear("empty");
    await shot(page, "phone-text-empty");

    await typeText(page, "Ein kurzer Text,\ngetippt.");
    await expect(page.locator("[data-mirror=status]")).toHaveText("25 characters · 4 words");
    await clear("typed");
    await shot(page, "phone-text-typed");

    // A paste over the limit: the count says so, and play says why not.
    await area.fill("abc ".repeat(2_600));
    await expect(page.locator("[data-mirror=status]")).toHaveText("10399 characters: 399 over the limit");
    await tapText(page, "play", true);
    await expect(page.locator("[data-mirror=notice]")).toHaveText("the text is over 10000 characters");
    await onScreen(page, "text");
    await clear("over the limit, refused");
    await shot(page, "phone-text-over");

    await area.fill("Kurz und gut.");
    await tapText(page, "play", true);
    await onScreen(page, "playing");
    await expect(area).toHaveCount(0);
    await expect(page.locator("#keys")).toBeFocused();
    await typeWords(page, 3, { gap: 60 });
    await onScreen(page, "results");

    // Back on the menu, `c` opens the screen on the text last played; back leaves it.
    await page.keyboard.press("Escape");
    await onScreen(page, "menu");
    await page.keyboard.press("c");
    await onScreen(page, "text");
    await expect(area).toHaveValue("Kurz und gut.");
    await expect(area).toBeFocused();
    await tapText(page, "back", true);
    await onScreen(page, "menu");
    await expect(area).toHaveCount(0);
    await expect(page.locator("#keys")).toBeFocused();
    // Keys are the menu's again: `1` plays BLITZ 15s.
    await page.keyboard.press("1");
    await onScreen(page, "playing");
  });
});
