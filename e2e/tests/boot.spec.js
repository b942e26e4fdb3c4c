// Boot paths: an unknown ?replay= or ?race= id, corrupted storage, and no storage at all.
import { test, expect, boot, mirror, onScreen, typeWords, synthHex } from "./fixtures.js";

test("?replay=<unknown id> warns in the console and starts normally", async ({ page, consoleLog }) => {
  test.info().annotations.push({ type: "allow-error", description: "404" });
  await boot(page, "/?replay=AAAAAAAA");
  const warnings = consoleLog.filter((m) => m.type === "warning").map((m) => m.text);
  expect(warnings.some((w) => w.includes("replay AAAAAAAA can't be played: no such run"))).toBe(true);
  expect(await mirror(page, "list")).toContain("▸ BLITZ 15s");
});

test("?race=<unknown id> warns in the console and starts normally", async ({ page, consoleLog }) => {
  test.info().annotations.push({ type: "allow-error", description: "404" });
  await boot(page, "/?race=AAAAAAAA");
  const warnings = consoleLog.filter((m) => m.type === "warning").map((m) => m.text);
  expect(warnings.some((w) => w.includes("race AAAAAAAA can't be played: no such run"))).toBe(true);
  expect(await mirror(page, "list")).toContain("▸ BLITZ 15s");
  expect(await mirror(page, "banner")).toBe("");
});

test("a malformed ?replay= id is refused without asking the server", async ({ page, consoleLog }) => {
  await boot(page, "/?replay=..%2F..%2Fetc");
  const warnings = consoleLog.filter((m) => m.type === "warning").map((m) => m.text);
  expect(warnings.some((w) => w.includes("is not a run id"))).toBe(true);
});

test("corrupted localStorage entries are skipped with a warning", async ({ page, consoleLog }) => {
  const hex = synthHex("time:30", 5);
  const history = [
    "garbage",
    `1 1764614400000 ${hex} -`,
    "1 notatime 5450 -",
    `1 1764614400001 ${hex.slice(0, 40)} -`,
    `7 1764614400002 ${hex} -`,
    "",
  ].join("\n");
  await page.addInitScript((h) => {
    if (!sessionStorage.getItem("seeded")) {
      localStorage.setItem("history", h);
      localStorage.setItem("last.replay", "not hex at all");
      sessionStorage.setItem("seeded", "1");
    }
  }, history);
  await boot(page);
  const warnings = consoleLog.filter((m) => m.type === "warning").map((m) => m.text);
  expect(warnings.filter((w) => w.includes("history line")).length).toBe(4);
  await page.keyboard.press("h");
  await onScreen(page, "history");
  const rows = (await mirror(page, "list")).trim().split("\n");
  expect(rows).toHaveLength(1);
  expect(rows[0]).toContain("BLITZ 30s");
});

test("with no storage at all the game still plays", async ({ page, consoleLog }) => {
  await page.addInitScript(() => {
    Object.defineProperty(window, "localStorage", {
      get() {
        throw new DOMException("storage is disabled", "SecurityError");
      },
    });
  });
  await boot(page);
  const warnings = consoleLog.filter((m) => m.type === "warning").map((m) => m.text);
  expect(warnings.some((w) => w.includes("no localStorage"))).toBe(true);
  await page.keyboard.press("z");
  await onScreen(page, "playing");
  await typeWords(page, 2);
  await page.keyboard.press("Escape");
  await onScreen(page, "results");
  expect(await mirror(page, "results")).toContain("· ZEN");
});
