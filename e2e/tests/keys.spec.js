// The keys screen after a few rounds, through the mirror; then the drill it offers, whose
// score in the browser is the native engine's.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test, expect, boot, mirror, onScreen, shot, typeWords, synthHex, cli, stored, seedHistory } from "./fixtures.js";

test("k shows what the history says about each key, and d drills the worst", async ({ page, consoleLog }) => {
  // Three sloppy rounds, so some keys go wrong.
  const lines = [0, 1, 2].map((i) => {
    const hex = synthHex("time:30", 20 + i, ["--wpm", "60", "--accuracy", "88", "--typist-seed", String(i + 1)]);
    return `1 ${1796154720000 + i} ${hex} -`;
  });
  await seedHistory(page, lines.join("\n") + "\n");
  await boot(page);
  await page.keyboard.press("k");
  await onScreen(page, "keys");
  await expect(page.locator("[data-mirror=status]")).toHaveText("by errors · from your last 3 rounds, on this device");
  const list = await mirror(page, "list");
  expect(list).toMatch(/^worst keys:\n {2}[a-z] +\d+\.\d% wrong · \d+ ms · p90 \d+ ms · \d+×\n/);
  expect(list).toContain("worst pairs:");
  // No rounds before them: their numbers alone, not "against the 0 before".
  expect(await mirror(page, "results")).toMatch(/^the last 3 rounds: errors \d+\.\d% · median \d+ ms$/);
  const letters = list.match(/d drills these: DRILL ([a-z]{1,5})/)[1];
  // The same analysis as the CLI's, from the same rounds.
  const dir = mkdtempSync(join(tmpdir(), "typepper-keys-"));
  const files = lines.map((l, i) => {
    const f = join(dir, `${i}.replay`);
    writeFileSync(f, l.split(" ")[2]);
    return f;
  });
  const native = cli(["keys", "--json", ...files]);
  expect(native.rounds).toBe(3);
  const first = native.keys.find((k) => k.key === native.worst_by_errors[0]);
  expect(list.split("\n")[1]).toMatch(new RegExp(`^  ${first.key} +${first.error_pct.toFixed(2).slice(0, -1)}% wrong · ${first.median_ms} ms · p90 ${first.p90_ms} ms · ${first.seen}×$`));
  expect(letters).toBe(native.drill);
  await shot(page, "keys");
  await page.keyboard.press("t");
  await expect(page.locator("[data-mirror=status]")).toHaveText(/^by time · /);
  await shot(page, "keys-by-time");

  await page.keyboard.press("d");
  await onScreen(page, "playing");
  await expect(page.locator("[data-mirror=status]")).toContainText(`DRILL ${letters} · 30 s left`);
  const words = (await mirror(page, "words")).split(" ");
  for (const w of words) expect([...w].some((c) => letters.includes(c)), `${w} holds one of ${letters}`).toBe(true);
  await typeWords(page, 6, { gap: 60, mistake: (i) => (i === 1 ? "fix" : null) });
  await shot(page, "drill-playing");
  await onScreen(page, "results");
  const results = await mirror(page, "results");
  const s = cli(["score", "--json", "-"], await stored(page, "last.replay"));
  expect(s.mode).toBe(`drill2:${letters}`);
  expect(s.duration_ms).toBe(30000);
  for (const w of [`${s.headline.text} · DRILL ${letters}`, `wpm ${s.wpm.toFixed(2)} `, `accuracy ${s.accuracy}%`, "time 30.0 s"]) {
    expect(results).toContain(w);
  }
  // The menu offers the drill again.
  await page.keyboard.press("Escape");
  await onScreen(page, "menu");
  expect(await mirror(page, "list")).toContain(`DRILL ${letters}`);
  await shot(page, "menu-drill");
  expect(await stored(page, "drill")).toBe(letters);
});
