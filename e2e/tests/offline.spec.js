// Issue 40: once a player has visited, the game loads and plays with no network, the
// service worker keeping the build and every list the player used; and a new build
// replaces the old one at the next load, whole.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test, expect, boot, mirror, onScreen, shot, typeWords, cli, stored, pickLanguage } from "./fixtures.js";

/** The caches the page's origin has, each with the paths it holds. */
function caches(page) {
  return page.evaluate(async () => {
    const out = {};
    for (const name of await self.caches.keys()) {
      const keys = await (await self.caches.open(name)).keys();
      out[name] = keys.map((r) => new URL(r.url).pathname).sort();
    }
    return out;
  });
}

const builds = (kept) => Object.keys(kept).filter((k) => k.startsWith("typepper-build-"));

test("offline, the game loads from its service worker and plays a German WORDS 25 round", async ({
  page,
  context,
  consoleLog,
}) => {
  test.info().annotations.push({ type: "allow-error", description: "ERR_INTERNET_DISCONNECTED" });
  await boot(page);
  // The worker comes once the game is up, keeps the build, and takes the page over.
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await expect.poll(async () => builds(await caches(page))).toHaveLength(1);
  const [build] = builds(await caches(page));
  expect((await caches(page))[build]).toEqual([
    "/",
    "/web/boot.js",
    "/web/icon.svg",
    "/web/pkg/typepper_web.js",
    "/web/pkg/typepper_web_bg.wasm",
    "/web/style.css",
  ]);
  // German, picked on the menu: its list is fetched then, and kept.
  await pickLanguage(page, "deutsch");
  await expect
    .poll(async () => (await caches(page))["typepper-words"] ?? [])
    .toContainEqual(expect.stringMatching(/^\/words\/de\.[0-9a-f]{16}\.txt$/));

  await context.setOffline(true);
  await page.reload();
  await onScreen(page, "menu");
  expect(await mirror(page, "list")).toContain("WORDS 25 · deutsch");
  await page.keyboard.press("w");
  await onScreen(page, "playing");
  await expect(page.locator("[data-mirror=status]")).toContainText("WORDS 25 · deutsch");
  await typeWords(page, 25, { gap: 30 });
  await onScreen(page, "results");
  await shot(page, "offline-german-results");
  const s = cli(["score", "--json", "-"], await stored(page, "last.replay"));
  expect(s.mode).toBe("words:25@de");
  expect(s.words).toBe(25);
  expect(await mirror(page, "results")).toContain(`${s.headline.text} · WORDS 25 · deutsch`);
  // The build it played is the one kept, and nothing of the network was asked for.
  expect(builds(await caches(page))).toEqual([build]);
});

// The build's worker is its output (web/pkg/sw.js, which `cargo xtask` writes, and the
// server reads at each request): a new build is simulated by its worker with another
// build's name over the same files, and put back after.
const worker = join(import.meta.dirname, "..", "..", "web", "pkg", "sw.js");

test.describe("a new build", () => {
  // The build's own worker, as the build wrote it: put back after the test, one that
  // timed out too (its `finally` never runs), so that the next test starts from the build.
  const original = readFileSync(worker, "utf8");
  test.afterEach(() => writeFileSync(worker, original));

  test("a new build is fetched in the background and replaces the old one whole at the next load", async ({
    page,
    consoleLog,
  }) => {
    const built = readFileSync(worker, "utf8");
    const next = built.replace(/const BUILD = "[0-9a-f]{16}";/, 'const BUILD = "0000000000000001";');
    expect(next).not.toBe(built);
    try {
      await boot(page);
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
      await expect.poll(async () => builds(await caches(page))).toHaveLength(1);
      const [old] = builds(await caches(page));

      writeFileSync(worker, next);
      // This load runs the old build, and finds the new one, which waits.
      await page.reload();
      await onScreen(page, "menu");
      const waiting = () => page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting?.state ?? null);
      await expect.poll(waiting, { timeout: 20_000 }).toBe("installed");
      expect(builds(await caches(page)).sort()).toEqual([old, "typepper-build-0000000000000001"].sort());

      // The next load asks it to take over before any of the game is loaded, and reloads:
      // the new build runs, and the old one is gone. (Chromium may let it take over itself
      // as the old page unloads, when the load is the new build's from its start and needs
      // no reload.) Either way the page that runs was the new worker's from its start: its
      // worker never changed under it. (Once, an icon the page fetched through the old
      // worker as the new one took over kept the new one waiting until the page closed,
      // in a load in three: the page carries its icon since.)
      await page.addInitScript(() => {
        navigator.serviceWorker?.addEventListener("controllerchange", () => (window.changedUnder = true));
      });
      // (The page may reload itself before its load ends, which aborts this one.)
      await page.goto("/", { waitUntil: "commit" }).catch(() => {});
      // (Asked while the page may reload under the question.)
      await expect.poll(() => caches(page).then(builds, () => null), { timeout: 10_000 }).toEqual(["typepper-build-0000000000000001"]);
      await onScreen(page, "menu");
      expect(await page.evaluate(() => window.changedUnder ?? false)).toBe(false);
      expect(await page.evaluate(() => navigator.serviceWorker.controller?.state)).toBe("activated");
      await page.keyboard.press("1");
      await onScreen(page, "playing");
    } finally {
      writeFileSync(worker, built);
    }
  });
});
