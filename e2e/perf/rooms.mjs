// A live room's key-to-screen latency in headless Chromium, for docs/PERFORMANCE.md: two
// racers in two browser contexts race through a room on the server; ada types about
// 100 wpm while bob watches her caret. For each of ada's keys: from its keydown on her
// page to the frame on bob's page whose model has her caret past it, beside the same key's
// keydown to ada's own frame (the single-player figure, in the same run).
//
//   TYPEPPER_URL=http://127.0.0.1:8080 node e2e/perf/rooms.mjs
//
// Both pages run in one browser on one machine, so their clocks are one:
// `performance.timeOrigin + performance.now()` on each.
import { launch, pct, url } from "./chromium.mjs";

const browser = await launch();
const ms = (x) => `${x.toFixed(1)} ms`;

/** A page of its own context (its own storage and socket), on the menu. */
async function racer() {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 2 });
  const page = await context.newPage();
  page.on("pageerror", (e) => console.error(`page error: ${e.message}`));
  return page;
}
const mirror = async (page, name) => (await page.locator(`[data-mirror=${name}]`).textContent()) ?? "";
const screen = (page, name) => page.waitForSelector(`[data-mirror=screen]:has-text('${name}')`, { timeout: 30_000 });

const ada = await racer();
const bob = await racer();
await ada.goto(url);
await screen(ada, "menu");
// Neither is linked: each names itself for the room.
await ada.keyboard.press("f");
await screen(ada, "room");
await ada.keyboard.type("ada");
await ada.keyboard.press("Enter");
await ada.waitForFunction(() => /\?room=/.test(document.querySelector("[data-mirror=share]")?.textContent ?? ""));
const link = await mirror(ada, "share");
await bob.goto(link);
await screen(bob, "room");
await bob.keyboard.type("bob");
await bob.keyboard.press("Enter");
await ada.waitForFunction(() => /bob \(guest\) · waiting/.test(document.querySelector("[data-mirror=room]")?.textContent ?? ""));

// ada: each keydown's moment, and the moment of her own frame after it (a rAF queued
// from the handler runs after the game's in the same frame).
await ada.evaluate(() => {
  window.downs = [];
  window.ownFrames = [];
  addEventListener("keydown", (e) => {
    if (e.key.length !== 1) return;
    const at = performance.timeOrigin + e.timeStamp;
    downs.push(at);
    requestAnimationFrame(() => ownFrames.push(performance.timeOrigin + performance.now() - at));
  }, { capture: true });
});
// bob: each change of how far ada leads him, as his frame writes it to the mirror.
await bob.evaluate(() => {
  window.seen = [];
  const room = document.querySelector("[data-mirror=room]");
  new MutationObserver(() => {
    const lead = /ada leads you by (\d+) chars?/.exec(room.textContent);
    if (lead) seen.push([Number(lead[1]), performance.timeOrigin + performance.now()]);
  }).observe(room, { childList: true, characterData: true, subtree: true });
});

await ada.keyboard.press("Enter");
await screen(ada, "playing");
await screen(bob, "playing");
// About 100 wpm (120 ms a key) for 12 s, every letter right: her place in the text is her
// count of keys.
const started = Date.now();
let typed = 0;
while (Date.now() - started < 12_000) {
  const word = (await mirror(ada, "words")).split(" ")[0];
  if (!word) break;
  for (const c of `${word} `) {
    await ada.keyboard.type(c);
    typed += 1;
    await ada.waitForTimeout(120);
  }
}
await ada.waitForTimeout(500);
const downs = await ada.evaluate(() => window.downs);
const ownFrames = await ada.evaluate(() => window.ownFrames);
const seen = await bob.evaluate(() => window.seen);

// Key k (1-based) is the first moment bob's screen had ada at k characters or more.
const across = [];
for (const [k, down] of downs.entries()) {
  const shown = seen.find(([chars]) => chars >= k + 1);
  if (shown) across.push(shown[1] - down);
}
console.log(`keys typed: ${typed}; seen on bob's screen: ${across.length}`);
console.log(`keydown → ada's own frame:            p50 ${ms(pct(ownFrames, 50))}, p99 ${ms(pct(ownFrames, 99))}, max ${ms(Math.max(...ownFrames))}`);
console.log(`keydown → bob's frame with her caret: p50 ${ms(pct(across, 50))}, p99 ${ms(pct(across, 99))}, max ${ms(Math.max(...across))}`);
console.log(`ratio, p50: ${(pct(across, 50) / pct(ownFrames, 50)).toFixed(1)}×`);
await browser.close();
