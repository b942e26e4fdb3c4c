// The game's numbers in headless Chromium, for docs/PERFORMANCE.md: the first load's
// bytes, navigation to first drawn frame, the renderer's time per frame while typing a
// BLITZ round at about 100 wpm, and keydown-to-paint latency; then the same round raced
// against its own ghost, for the whole frame's cost with a ghost against without.
//
//   TYPEPPER_URL=http://127.0.0.1:8080 node e2e/perf/frames.mjs
import { launch, pct, url } from "./chromium.mjs";

const browser = await launch();

const loads = [];
for (let i = 0; i < 5; i++) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 2 });
  await page.goto(url);
  await page.waitForFunction(() => performance.getEntriesByName("typepper:first-frame").length > 0);
  loads.push(await page.evaluate(() => ({
    firstFrame: performance.getEntriesByName("typepper:first-frame")[0].startTime,
    transferred: performance.getEntriesByType("resource").reduce((n, r) => n + r.transferSize, 0)
      + performance.getEntriesByType("navigation")[0].transferSize,
  })));
  await page.close();
}

const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 2 });
await page.goto(url);
await page.waitForSelector("[data-mirror=screen]:has-text('menu')");
await page.evaluate(() => {
  window.latencies = [];
  window.toFrame = [];
  // The frame clock itself, to read the latencies against.
  window.intervals = [];
  let last = 0;
  const tick = (t) => {
    if (last) intervals.push(t - last);
    last = t;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  addEventListener("keydown", (e) => {
    const t0 = e.timeStamp;
    // Our frame callback runs after the game's in the same frame; a message posted from
    // it is handled after that frame is painted.
    requestAnimationFrame(() => {
      toFrame.push(performance.now() - t0);
      const c = new MessageChannel();
      c.port1.onmessage = () => latencies.push(performance.now() - t0);
      c.port2.postMessage(0);
    });
  }, { capture: true });
});
/** Types the round on screen at about 100 wpm until its 15 s are up; the frame times of
 * the round, from its screen opening to its results. */
async function typeRound() {
  await page.waitForSelector("[data-mirror=screen]:has-text('playing')");
  await page.evaluate(() => window.typepper.clearTimes());
  const started = Date.now();
  while (Date.now() - started < 14_000) {
    const word = (await page.locator("[data-mirror=words]").textContent()).split(" ")[0];
    for (const c of word + " ") {
      await page.keyboard.type(c);
      await page.waitForTimeout(100);
    }
  }
  await page.waitForSelector("[data-mirror=screen]:has-text('results')", { timeout: 10_000 });
  return page.evaluate(() => window.typepper.frameTimes());
}
await page.keyboard.press("1");
const alone = await typeRound();
const draws = await page.evaluate(() => window.typepper.drawTimes());
const latencies = await page.evaluate(() => window.latencies);
const intervals = await page.evaluate(() => window.intervals);
const toFrame = await page.evaluate(() => window.toFrame);
// The same mode against your best: the round just played, now a ghost.
await page.keyboard.press("Escape");
await page.waitForSelector("[data-mirror=screen]:has-text('menu')");
await page.keyboard.press("g");
const raced = await typeRound();
const raceDraws = await page.evaluate(() => window.typepper.drawTimes());
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const frames = (xs) => ({ frames: xs.length, mean: +mean(xs).toFixed(4), p50: pct(xs, 50), p99: pct(xs, 99) });
const out = {
  first_load_bytes_transferred: pct(loads.map((l) => l.transferred), 50),
  first_frame_ms: { p50: pct(loads.map((l) => l.firstFrame), 50), all: loads.map((l) => Math.round(l.firstFrame)) },
  draw_ms: { frames: draws.length, p50: pct(draws, 50), p99: pct(draws, 99), max: Math.max(...draws) },
  keydown_to_paint_ms: { keys: latencies.length, p50: pct(latencies, 50), p99: pct(latencies, 99) },
  keydown_to_drawing_frame_ms: { p50: pct(toFrame, 50), p99: pct(toFrame, 99), max: Math.max(...toFrame) },
  frame_interval_ms: { frames: intervals.length, p50: pct(intervals, 50), p99: pct(intervals, 99) },
  within_one_frame: latencies.filter((l) => l <= pct(intervals, 50)).length / latencies.length,
  whole_frame_ms: { alone: frames(alone), raced: frames(raced) },
  draw_ms_raced: { frames: raceDraws.length, p50: pct(raceDraws, 50), p99: pct(raceDraws, 99) },
  ghost_frame_ratio: { mean: +(mean(raced) / mean(alone)).toFixed(2), p99: +(pct(raced, 99) / pct(alone, 99)).toFixed(2) },
};
console.log(JSON.stringify(out, null, 2));
await browser.close();
