// The wasm's download began only once boot.js had run. The page now preloads it: one
// request, begun before boot.js has even arrived, and no "preloaded but not used" warning.
import { test, expect, boot } from "./fixtures.js";

test("the wasm is preloaded by the page and fetched once", async ({ page, consoleLog }) => {
  await boot(page);
  const entries = await page.evaluate(() =>
    performance.getEntriesByType("resource").map((r) => ({
      name: new URL(r.name).pathname,
      start: r.startTime,
      end: r.responseEnd,
      initiator: r.initiatorType,
    })),
  );
  const wasm = entries.filter((e) => e.name.endsWith("/typepper_web_bg.wasm"));
  expect(wasm, JSON.stringify(entries)).toHaveLength(1);
  expect(wasm[0].initiator).toBe("link");
  const bootJs = entries.find((e) => e.name.endsWith("/web/boot.js"));
  expect(wasm[0].start).toBeLessThan(bootJs.end);
  // Chromium warns when a preload goes unused (a request that doesn't match it).
  await page.waitForTimeout(3_500);
  expect(consoleLog.filter((m) => m.text.includes("preload"))).toEqual([]);
});
