// How long a language the game has not loaded takes from being picked to its first word
// on screen, for docs/PERFORMANCE.md. The wasm carries English alone: a list is fetched
// when its language is picked on the menu, and a round started at once waits for it.
//
// Each run: the menu starts on English 10k (its stored picks), `@` moves it on to
// français, and enter follows at once (a few ms: the worst case, a player who doesn't
// wait). Timed in the page, from the `@` keydown's timestamp to the frame that puts the
// round's words in the text mirror (the canvas draws them in the same frame). Seven fresh
// browsers with nothing kept (the list comes from the server); then, in each, a reload
// served by the service worker, the list already in its cache (the worst case offline);
// and a third, enter pressed once the list is in, timed from enter: a round's own start.
//
//   TYPEPPER_URL=http://127.0.0.1:8080 node e2e/perf/lists.mjs
import { launch, pct, url } from "./chromium.mjs";

const browser = await launch();
const RUNS = 7;

/** One pick of français, then enter: ms from the pick to its words on screen (from
 * enter's, if `wait`: enter pressed once the list is in), and the list's fetch as the
 * page saw it (ms, bytes over the wire). */
async function pickAndPlay(page, wait = false) {
  await page.waitForSelector("[data-mirror=screen]:has-text('menu')");
  await page.evaluate((key) => {
    window.picked = new Promise((done) => {
      const on = (e) => e.key === key && (removeEventListener("keydown", on, true), done(e.timeStamp));
      addEventListener("keydown", on, true);
    });
    window.entered = new Promise((done) => {
      const on = (e) => e.key === "Enter" && (removeEventListener("keydown", on, true), done(e.timeStamp));
      addEventListener("keydown", on, true);
    });
    const words = document.querySelector("[data-mirror=words]");
    window.shown = new Promise((done) => {
      new MutationObserver((_, o) => {
        if (words.textContent !== "") {
          o.disconnect();
          done(performance.now());
        }
      }).observe(words, { childList: true, characterData: true, subtree: true });
    });
  }, wait ? "Enter" : "@");
  await page.keyboard.press("@");
  if (wait) {
    await page.waitForFunction(() => performance.getEntriesByType("resource").some((r) => r.name.includes("/words/fr.")));
    await page.waitForTimeout(300);
  }
  await page.keyboard.press("Enter");
  const ms = await page.evaluate(async () => (await window.shown) - (await window.picked));
  // The list's first fetch this load (a first visit fetches it again through the worker
  // once it takes over), from the pick.
  const fetch = await page.evaluate(async () => {
    const first = performance.getEntriesByType("resource").find((r) => r.name.includes("/words/fr."));
    const picked = await window.picked;
    const entered = (await window.entered) - picked;
    return first && { ms: first.responseEnd - first.startTime, in: first.responseEnd - picked, entered };
  });
  const status = await page.locator("[data-mirror=status]").textContent();
  if (!status.includes("français")) throw new Error(`not a French round: ${status}`);
  return { ms, fetch };
}

const fresh = [];
const kept = [];
const waited = [];
for (let i = 0; i < RUNS; i++) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 2 });
  await context.addInitScript(() => localStorage.setItem("menu", "15 25 7 @en10k"));
  const page = await context.newPage();
  await page.goto(url);
  fresh.push(await pickAndPlay(page));
  // The worker takes the page over and keeps the list; the next load is its.
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await page.waitForFunction(async () => {
    const lists = await (await caches.open("typepper-words")).keys();
    return lists.some((r) => r.url.includes("/words/fr."));
  });
  await page.reload();
  kept.push(await pickAndPlay(page));
  // And once more, enter pressed only once the list is in: what a round costs to start.
  await page.reload();
  waited.push(await pickAndPlay(page, true));
  await context.close();
}
await browser.close();

const report = (name, runs) => {
  const ms = runs.map((r) => r.ms);
  const fetched = runs.map((r) => r.fetch?.ms ?? NaN);
  const listIn = runs.map((r) => r.fetch?.in ?? NaN);
  console.log(
    `${name}: to first word p50 ${pct(ms, 50).toFixed(1)} ms (${Math.min(...ms).toFixed(1)}–${Math.max(...ms).toFixed(1)}); ` +
      `pick to list in p50 ${pct(listIn, 50).toFixed(1)} ms; the fetch p50 ${pct(fetched, 50).toFixed(1)} ms; ` +
      `enter came ${pct(runs.map((r) => r.fetch?.entered ?? NaN), 50).toFixed(1)} ms after the pick; runs: ${ms.map((m) => m.toFixed(1)).join(", ")}`,
  );
};
report("from the server, nothing kept", fresh);
report("from the service worker's cache", kept);
report("enter once the list is in (timed from enter)", waited);
