// What every scenario shares: console collection, the text mirror, the CLI.
import { test as base, expect } from "@playwright/test";
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export { expect };

const shots = join(import.meta.dirname, "..", "screenshots");
mkdirSync(shots, { recursive: true });

export const test = base.extend({
  // Every console message and page error; a test fails on an error it didn't expect.
  consoleLog: async ({ page }, use, testInfo) => {
    const log = [];
    page.on("console", (m) => log.push({ type: m.type(), text: m.text() }));
    page.on("pageerror", (e) => log.push({ type: "pageerror", text: e.message }));
    await use(log);
    const errors = log.filter((m) => m.type === "error" || m.type === "pageerror");
    const allowed = testInfo.annotations.filter((a) => a.type === "allow-error").map((a) => a.description);
    const unexpected = errors.filter((e) => !allowed.some((a) => e.text.includes(a)));
    expect(unexpected, "console errors").toEqual([]);
  },
});

/** The mirror's field `name` as text. */
export async function mirror(page, name) {
  return (await page.locator(`[data-mirror=${name}]`).textContent()) ?? "";
}

/** Presses `@` until the menu's text is in `language` (as the menu names it). Each press
 * is seen on the mirror before the next: the mirror is drawn a frame after a key, and
 * keys pressed faster than frames ran past the language and round the list. */
export async function pickLanguage(page, language) {
  const list = page.locator("[data-mirror=list]");
  for (let i = 0; i < 14; i++) {
    const shown = (await list.textContent()) ?? "";
    if (shown.includes(`language: ${language}`)) return;
    await page.keyboard.press("@");
    await expect(list).not.toHaveText(shown);
  }
  await expect(list).toContainText(`language: ${language}`);
}

/** Waits until the mirror's screen is `screen`. */
export async function onScreen(page, screen) {
  await expect(page.locator("[data-mirror=screen]")).toHaveText(screen, { timeout: 30_000 });
}

/** Waits out the moment the results ignore letters after a round (1 s, `RESULTS_HOLD_MS`). */
export async function pastResultsHold(page) {
  await page.waitForTimeout(1_100);
}

/** Opens the game with empty storage and waits for its menu. */
export async function boot(page, path = "/") {
  await page.goto(path);
  await onScreen(page, "menu");
}

/** Saves a screenshot for a person to look at (never asserted on). */
export async function shot(page, name) {
  await page.screenshot({ path: join(shots, `${name}.png`) });
}

/** [`shot`] as `name`, and again as `name-phone` with the window at a phone's 390×844,
 * as a phone turned or a window narrowed would draw it; then the size it had. */
export async function shotBoth(page, name) {
  await shot(page, name);
  const size = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  await nextFrames(page);
  await shot(page, `${name}-phone`);
  await page.setViewportSize(size);
  await nextFrames(page);
}

/** Two animation frames from now: a resize is drawn by then. */
const nextFrames = (page) =>
  page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));

/** A person's gap of about `gap` ms between keys: log-normal (σ 0.35), so most keys
 * come near it and a few much later. The server refuses timing as even as a metronome,
 * and these rounds are submitted. */
export function humanGap(gap) {
  const u = 1 - Math.random();
  const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * Math.random());
  return Math.max(5, Math.round(gap * Math.exp(0.35 * z)));
}

/** Types the words the mirror shows, one key at a time, about `gap` ms apart (as a
 * person's rhythm varies); `mistake(i)` says whether to slip on word i (a wrong letter
 * typed, then left or fixed). */
export async function typeWords(page, count, { gap = 40, mistake = () => null } = {}) {
  for (let i = 0; i < count; i++) {
    const words = (await mirror(page, "words")).split(" ");
    const word = words[0];
    if (!word) return;
    const slip = mistake(i);
    for (const [k, c] of [...word].entries()) {
      if (slip && k === 1) {
        await page.keyboard.type("q", { delay: 0 });
        if (slip === "fix") await page.keyboard.press("Backspace");
      }
      await page.keyboard.type(c, { delay: 0 });
      await page.waitForTimeout(humanGap(gap));
    }
    await page.keyboard.type(" ");
    await page.waitForTimeout(humanGap(gap));
  }
}

/** Types `text` into whatever has the focus, a key at a time about `gap` ms apart, as a
 * person does; a line break is shift+enter (a text area's new line, where enter would
 * play). */
export async function typeText(page, text, gap = 70) {
  for (const c of text) {
    if (c === "\n") await page.keyboard.press("Shift+Enter");
    else await page.keyboard.type(c, { delay: 0 });
    await page.waitForTimeout(humanGap(gap));
  }
}

const cliBin = process.env.TYPEPPER_CLI ?? join(import.meta.dirname, "..", "..", "target", "debug", "typepper");

/** `typepper <args>` with `input` on stdin, parsed as JSON. */
export function cli(args, input) {
  return JSON.parse(execFileSync(cliBin, args, { input, encoding: "utf8" }));
}

/** A synthetic round of `mode` and `seed` as the hex the game stores. */
export function synthHex(mode, seed, extra = []) {
  const args = ["synth", "--mode", mode, "--seed", String(seed), "--hex", "--out", "-", ...extra];
  return execFileSync(cliBin, args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
}

/** localStorage's `key` in the page. */
export async function stored(page, key) {
  return page.evaluate((k) => localStorage.getItem(k), key);
}

export function save(name, text) {
  writeFileSync(join(shots, name), text);
}

/** Keeps, in the page, the text of the canvas's last frame: each `fillText` with the box
 * its ink takes (its advance across, its glyphs' extent up and down), in CSS pixels. A
 * frame begins where the background is painted over the whole canvas. Call before
 * `boot`. */
export async function recordText(page) {
  await page.addInitScript(() => {
    const proto = CanvasRenderingContext2D.prototype;
    const { fillText, fillRect } = proto;
    let frame = [];
    window.typepperText = () => frame;
    proto.fillRect = function (x, y, w, h) {
      if (x === 0 && y === 0 && w >= this.canvas.clientWidth && h >= this.canvas.clientHeight) frame = [];
      return fillRect.call(this, x, y, w, h);
    };
    proto.fillText = function (text, x, y) {
      const m = this.measureText(text);
      const left = { center: x - m.width / 2, right: x - m.width }[this.textAlign] ?? x;
      frame.push({ text, left, right: left + m.width, top: y - m.actualBoundingBoxAscent, bottom: y + m.actualBoundingBoxDescent });
      return fillText.call(this, text, x, y);
    };
  });
}

/** The canvas's text now, once two frames have passed. */
export async function drawnText(page) {
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  return page.evaluate(() => window.typepperText());
}

/** What is wrong with the text drawn now: a text over another, or past the viewport's
 * edges (half a pixel of ink is let pass: antialiasing). */
export async function layoutFaults(page) {
  const texts = (await drawnText(page)).filter((t) => t.text.trim() !== "");
  const { width, height } = page.viewportSize();
  const slack = 0.5;
  const faults = [];
  texts.forEach((a, i) => {
    if (a.left < -slack || a.top < -slack || a.right > width + slack || a.bottom > height + slack) {
      faults.push(`${JSON.stringify(a.text)} leaves the screen`);
    }
    for (const b of texts.slice(i + 1)) {
      const apart = a.right <= b.left + slack || b.right <= a.left + slack || a.bottom <= b.top + slack || b.bottom <= a.top + slack;
      if (!apart) faults.push(`${JSON.stringify(a.text)} is drawn over ${JSON.stringify(b.text)}`);
    }
  });
  return faults;
}

/** Taps (`touch`) or clicks the middle of the canvas text that reads `text`. */
export async function tapText(page, text, touch = false) {
  const found = (await drawnText(page)).find((t) => t.text === text);
  expect(found, `${JSON.stringify(text)} is drawn`).toBeTruthy();
  const [x, y] = [(found.left + found.right) / 2, (found.top + found.bottom) / 2];
  if (touch) await page.touchscreen.tap(x, y);
  else await page.mouse.click(x, y);
}

/** Stores `history` (its lines, as the game keeps them) before the page's first load,
 * and not again on a reload. Call before `boot`. */
export async function seedHistory(page, history) {
  await page.addInitScript((h) => {
    if (!sessionStorage.getItem("seeded")) {
      localStorage.setItem("history", h);
      sessionStorage.setItem("seeded", "1");
    }
  }, history);
}
