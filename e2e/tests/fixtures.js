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
