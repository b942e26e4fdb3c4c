// A share link as Lighthouse meets it: a stored run's link, audited for accessibility,
// best practices and SEO in Debian's Chromium. The page refreshes to the game watching
// the round, so Lighthouse audits what a person lands on (the game itself), and says it
// was sent on: each must score 1.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test, expect, save } from "./fixtures.js";

const base = process.env.TYPEPPER_URL ?? "http://127.0.0.1:8080";
const cli = process.env.TYPEPPER_CLI ?? "typepper";

/** Stores a synthetic BLITZ 15s round as a new player's run: its share link. */
async function storedRun(request, dir) {
  const name = `lh_${Date.now() % 1e9}`;
  const linked = await request.post(`${base}/v1/players`, { data: { name } });
  expect(linked.status()).toBe(201);
  const { token } = await linked.json();
  const file = join(dir, "round.replay");
  execFileSync(cli, ["synth", "--mode", "time:15", "--seed", "11", "--out", file]);
  const claim = Number(execFileSync(cli, ["score", file]).toString().match(/^headline (\d+) wpm$/m)[1]);
  const body = Buffer.alloc(4);
  body.writeUInt32LE(claim);
  const answer = await request.post(`${base}/v1/submit`, {
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/octet-stream" },
    data: Buffer.concat([body, readFileSync(file)]),
  });
  const line = (await answer.text()).trim();
  expect(line).toMatch(/^ok /);
  return line.split(" ")[4];
}

test("a share link, and the game it lands on, score 1 for accessibility, best practices and SEO in Lighthouse", async ({ request }) => {
  test.setTimeout(180_000);
  const dir = mkdtempSync(join(tmpdir(), "typepper-lighthouse-"));
  try {
    const link = await storedRun(request, dir);
    const report = join(dir, "report.json");
    // Lighthouse starts its own Chromium and ends it when it is done.
    execFileSync(
      "npx",
      [
        "lighthouse",
        link,
        "--quiet",
        "--output=json",
        `--output-path=${report}`,
        "--only-categories=accessibility,best-practices,seo",
        "--chrome-flags=--headless=new --no-sandbox --disable-gpu --no-first-run --disable-background-networking --disable-component-update --disable-sync",
      ],
      { env: { ...process.env, CHROME_PATH: process.env.TYPEPPER_CHROMIUM ?? "/usr/bin/chromium" }, timeout: 150_000 },
    );
    const result = JSON.parse(readFileSync(report, "utf8"));
    const failing = Object.values(result.categories).flatMap((c) =>
      c.auditRefs
        .filter((a) => a.weight > 0 && result.audits[a.id].score !== null && result.audits[a.id].score < 1)
        .map((a) => `${c.id}: ${a.id} (${result.audits[a.id].title})`),
    );
    const scores = Object.fromEntries(Object.entries(result.categories).map(([k, c]) => [k, c.score]));
    save("lighthouse-share.json", JSON.stringify({ link, final: result.finalDisplayedUrl, scores, failing }, null, 2));
    // The refresh took it to the game, watching the round.
    expect(result.finalDisplayedUrl).toBe(`${base}/?replay=${link.split("/").pop()}`);
    expect(failing).toEqual([]);
    expect(scores).toEqual({ accessibility: 1, "best-practices": 1, seo: 1 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
