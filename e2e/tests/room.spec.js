// Live rooms: friends race through a room link, key by key, each on their own browser.
// Every racer is a context of its own (its own storage, its own socket), all on the one
// real server; the standing and the carets come from the keys the server passes on.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test, expect, boot, mirror, onScreen, shot, shotBoth, humanGap, cli, save } from "./fixtures.js";

/** A fresh browser context's page, its console errors gathered into `errors`. */
async function newRacer(browser, errors) {
  const context = await browser.newContext();
  const page = await context.newPage();
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  page.on("pageerror", (e) => errors.push(e.message));
  return page;
}

/** A name no earlier run of the tests took: names are unique per server. */
const unique = (name) => `${name}${Date.now().toString(36).slice(-5)}`;

/** Links the game on `page` as `name`, from the menu. */
async function link(page, name) {
  await page.keyboard.press("l");
  await onScreen(page, "link");
  await page.keyboard.type(name);
  await page.keyboard.press("Enter");
  await onScreen(page, "menu");
  await expect(page.locator("[data-mirror=notice]")).toHaveText(/^linked/);
}

/** The room's lines in the mirror. */
async function room(page) {
  return (await mirror(page, "room")).split("\n").filter((l) => l !== "");
}

/** Types `count` words off the mirror, about `gap` ms a key. */
async function typeWords(page, count, gap = 35) {
  for (let i = 0; i < count; i++) {
    const [word] = (await mirror(page, "words")).split(" ");
    if (!word) return;
    for (const c of word) {
      await page.keyboard.type(c);
      await page.waitForTimeout(humanGap(gap));
    }
    await page.keyboard.type(" ");
    await page.waitForTimeout(humanGap(gap));
  }
}

/** `page`'s standing line: `1st of 2 · +0.8 s on bob`. */
const standing = async (page) => (await room(page))[0] ?? "";

/** Opens a room on `owner`'s menu (BLITZ 15s, the first item) and joins `others` to it by
 * its link; returns the link. */
async function gather(owner, others) {
  await owner.keyboard.press("f");
  await onScreen(owner, "room");
  await expect(owner.locator("[data-mirror=share]")).toHaveText(/\?room=[0-9a-z]{8}$/);
  const link = await mirror(owner, "share");
  for (const page of others) {
    await page.goto(link.replace(/^https?:\/\/[^/]+/, ""));
    await onScreen(page, "room");
  }
  return link;
}

/** A room's results row of `name`: `1st · ada (you) · ranked · 92 wpm · 97.5% · <share>`. */
function rowOf(lines, name) {
  return lines.find((l) => /^(▸ | {2})\d+(st|nd|rd|th) · /.test(l) && l.includes(` ${name} `));
}

/** The results' rows, as anyone reads them: no `(you)`. */
async function rows(page) {
  const lines = await room(page);
  return lines.filter((l) => /^(▸ | {2})\d+(st|nd|rd|th) · /.test(l)).map((l) => l.replace(" (you)", ""));
}

/** Checks that `row`'s numbers are what `typepper score` makes of the run it links. */
async function matchesStoredRun(page, row) {
  const share = row.match(/ · https?:\/\/\S+\/([0-9A-Za-z]+)$/);
  expect(share, `a share link in ${row}`).toBeTruthy();
  const bytes = await (await page.request.get(`/v1/runs/${share[1]}`)).body();
  const score = cli(["score", "--json", "-"], bytes.toString("hex"));
  const [, wpm, acc] = row.match(/ · (\d+ wpm) · ([\d.]+)%/);
  expect(wpm).toBe(score.headline.text);
  expect(Number(acc)).toBeCloseTo(score.accuracy, 2);
}

test("two browsers race through a room link: each sees the other's caret, the standing changes hands, a late friend watches, and both rounds are on both results", async ({
  browser,
  page,
  consoleLog,
}) => {
  const errors = [];
  const [ada, bob] = [unique("ada"), unique("bob")];
  await boot(page);
  await link(page, ada);
  const other = await newRacer(browser, errors);
  await boot(other);
  await link(other, bob);
  const roomLink = await gather(page, [other]);

  // The lobby lists both, the owner first; the link is said for a screen reader.
  await expect(page.locator("[data-mirror=room]")).toContainText(`${bob} · waiting`);
  expect((await room(page))[1]).toBe(`link ${roomLink}`);
  await expect(other.locator("[data-mirror=room]")).toContainText(`${ada} · owner · waiting`);
  await shotBoth(page, "room-lobby");
  // Bob is ready; Ada starts it.
  await other.keyboard.press("r");
  await expect(page.locator("[data-mirror=room]")).toContainText(`${bob} · ready`);
  await page.keyboard.press("Enter");
  await expect(page.locator("[data-mirror=room]")).toContainText(/\n[123]\n/);
  await shotBoth(page, "room-countdown");
  // No text before the count ends.
  expect(await mirror(page, "words")).toBe("");
  await onScreen(page, "playing");
  await onScreen(other, "playing");
  await expect(page.locator("[data-mirror=banner]")).toHaveText(/^ROOM [0-9a-z]{8} · BLITZ 15s$/);
  // One text for both.
  expect(await mirror(other, "words")).toBe(await mirror(page, "words"));

  // Ada types three words while Bob waits: Ada leads, on both screens, and Bob's screen
  // shows her caret ahead.
  await typeWords(page, 3);
  await expect.poll(() => standing(page)).toMatch(new RegExp(`^1st of 2 · \\+\\d+\\.\\d s on ${bob}$`));
  await expect.poll(() => standing(other)).toMatch(new RegExp(`^2nd of 2 · \\+\\d+\\.\\d s to ${ada}$`));
  await expect(other.locator("[data-mirror=room]")).toContainText(new RegExp(`${ada} leads you by \\d+ chars`));
  await shotBoth(other, "room-race-behind");
  await shotBoth(page, "room-race-ahead");

  // A friend arrives after the start: watching, not racing, from the keys so far.
  const late = await newRacer(browser, errors);
  await late.goto(roomLink.replace(/^https?:\/\/[^/]+/, ""));
  await onScreen(late, "room");
  await shotBoth(late, "room-naming");
  await late.keyboard.type("cat");
  await late.keyboard.press("Enter");
  await onScreen(late, "replay");
  await expect.poll(() => standing(late)).toMatch(new RegExp(`^${ada} leads · 1st of 2`));

  // Bob types faster and longer: the standing changes hands.
  await typeWords(other, 9, 25);
  await expect.poll(() => standing(other)).toMatch(new RegExp(`^1st of 2 · \\+\\d+\\.\\d s on ${ada}$`));
  await expect.poll(() => standing(page)).toMatch(new RegExp(`^2nd of 2 · \\+\\d+\\.\\d s to ${bob}$`));
  await expect.poll(() => standing(late)).toMatch(new RegExp(`^${bob} leads · 1st of 2`));
  await shotBoth(late, "room-spectator");
  // Ada types on, still behind, so that her round is long enough to keep.
  await typeWords(page, 3);

  // The clock ends both rounds; the server's results come to all three.
  for (const p of [page, other, late]) {
    await expect(p.locator("[data-mirror=room]")).toContainText("the finishers, best first", { timeout: 30_000 });
  }
  await shotBoth(page, "room-results");
  const lines = await room(page);
  const [first, second] = [rowOf(lines, bob), rowOf(lines, ada)];
  expect(first, lines.join("\n")).toMatch(/^▸ 1st · /);
  expect(second, lines.join("\n")).toMatch(/^ {2}2nd · /);
  // Each racer's numbers are their stored run's.
  await matchesStoredRun(page, first);
  await matchesStoredRun(page, second);
  // Both linked, on the room's seed: ranked as rounds on issued seeds are.
  expect(first).toMatch(/^▸ 1st · \S+ · ranked · /);
  expect(second).toMatch(/^ {2}2nd · \S+ (\(you\) )?· ranked · /);
  // Both screens list the same rounds.
  expect(await rows(other)).toEqual(await rows(page));
  // Results that sit there ask for no frames: they redrew ten times a second (issue 38,
  // item 12).
  const idle = await other.evaluate(async () => {
    window.typepper.clearTimes();
    await new Promise((done) => setTimeout(done, 1_500));
    return window.typepper.frameTimes().length;
  });
  expect(idle).toBeLessThanOrEqual(1);
  // Linked racers' rounds go to their history, with their links.
  const history = await page.evaluate(() => localStorage.getItem("history"));
  expect(history).toContain(first.includes("(you)") ? first.split(" ").pop() : second.split(" ").pop());
  // Marked as a room's race, on the history screen too (issue 38, item 13).
  expect(history.trim().split("\n").at(-1)).toMatch(/ room$/);

  // Tab asks for a rematch: the same room, back in its lobby.
  await page.waitForTimeout(1_100);
  await page.keyboard.press("Tab");
  await expect(page.locator("[data-mirror=room]")).toContainText(`${bob} · waiting`);
  await shotBoth(page, "room-rematch-lobby");
  await shotBoth(other, "room-results-other");
  expect(errors).toEqual([]);
});

test("a racer who reloads mid-race comes back to their seat, with their keys, and finishes", async ({
  browser,
  page,
  consoleLog,
}) => {
  const errors = [];
  await boot(page);
  const other = await newRacer(browser, errors);
  // Neither is linked: each picks a name for the room.
  await page.keyboard.press("f");
  await onScreen(page, "room");
  await page.keyboard.type("ada");
  await page.keyboard.press("Enter");
  await expect(page.locator("[data-mirror=share]")).toHaveText(/\?room=[0-9a-z]{8}$/);
  const roomLink = (await mirror(page, "share")).replace(/^https?:\/\/[^/]+/, "");
  await other.goto(roomLink);
  await onScreen(other, "room");
  await other.keyboard.type("bob");
  await other.keyboard.press("Enter");
  // A racer who never linked is marked as a guest, so none passes for a player.
  await expect(page.locator("[data-mirror=room]")).toContainText("bob (guest) · waiting");
  await page.keyboard.press("Enter");
  await onScreen(other, "playing");
  // Ada starts too: a racer with no key 15 s after the text is out.
  await typeWords(page, 1);

  await typeWords(other, 4);
  const typedBefore = await mirror(other, "words");
  await expect.poll(() => standing(page)).toMatch(/^2nd of 2 · /);
  await other.reload();
  // Back in the race, where it was: the same words ahead, and still ahead of Ada.
  await onScreen(other, "playing");
  expect(await mirror(other, "words")).toBe(typedBefore);
  await expect.poll(() => standing(other)).toMatch(/^1st of 2 · \+\d+\.\d s on ada$/);
  await typeWords(other, 2);
  await expect(other.locator("[data-mirror=room]")).toContainText("the finishers, best first", { timeout: 30_000 });
  const lines = await room(other);
  // Bob never linked: his round is stored as a guest's, unranked, with its share link.
  expect(lines.find((l) => l.includes("bob (you)"))).toMatch(
    /^▸ 1st · bob \(you\) · unranked: raced as a guest: .* · \d+ wpm · [\d.]+% · http\S+\/r\/[0-9A-Za-z]{8}$/,
  );
  expect(lines.find((l) => l.includes("· ada (guest) ·"))).toMatch(/^ {2}2nd · ada \(guest\) · /);
  await shot(other, "room-resumed-results");
  expect(errors).toEqual([]);
});

/** The terminal game in a tmux server of its own, 100×30, reaching the test's server
 * over SSH with OpenSSH's client and a key of its own: `close` ends it all. */
class Terminal {
  constructor(dir, args) {
    execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", join(dir, "key")]);
    const ssh = `ssh -F /dev/null -i ${join(dir, "key")} -o IdentitiesOnly=yes -o UserKnownHostsFile=${join(dir, "known_hosts")}`;
    this.socket = `typepper-e2e-${process.pid}-${Date.now()}`;
    const bin = process.env.TYPEPPER_CLI ?? join(import.meta.dirname, "..", "..", "target", "debug", "typepper");
    const server = `ssh://${process.env.TYPEPPER_SSH_ADDR}`;
    this.tmux([
      "new-session", "-d", "-s", "game", "-x", "100", "-y", "30",
      "-e", `TYPEPPER_SSH=${ssh}`, "-e", `TYPEPPER_DATA_DIR=${join(dir, "data")}`, "-e", "TERM=xterm-256color",
      bin, "--server", server, ...args,
    ]);
  }

  tmux(args) {
    return execFileSync("tmux", ["-L", this.socket, ...args], { encoding: "utf8" });
  }

  screen() {
    return this.tmux(["capture-pane", "-p", "-t", "game"]);
  }

  /** Keys by tmux's names (`Enter`), or text as typed with `literal`. */
  keys(keys, literal = false) {
    this.tmux(["send-keys", "-t", "game", ...(literal ? ["-l", keys] : [keys])]);
  }

  /** Waits until the screen matches `pattern`; the screen then. */
  async waitFor(pattern, timeout = 30_000) {
    let screen = "";
    await expect.poll(() => (screen = this.screen()), { timeout, message: `the terminal shows ${pattern}` }).toMatch(pattern);
    return screen;
  }

  close() {
    try {
      this.tmux(["kill-server"]);
    } catch {
      // Gone already.
    }
  }
}

test("a terminal racer, over SSH, races a browser racer: each sees the other's caret and both finish on both screens", async ({
  page,
  consoleLog,
}) => {
  const dir = mkdtempSync(join(tmpdir(), "typepper-room-"));
  let term;
  try {
    await boot(page);
    const ada = unique("ada");
    await link(page, ada);
    const code = (await gather(page, [])).split("room=")[1];
    // The terminal joins by the link's code, and names itself: its key is no player's.
    term = new Terminal(dir, ["--room", code]);
    await term.waitFor(/pick a name for this room/);
    term.keys("tess", true);
    term.keys("Enter");
    await term.waitFor(/tess \(you\)/);
    await expect(page.locator("[data-mirror=room]")).toContainText("tess (guest) · waiting");
    await page.keyboard.press("Enter");
    await onScreen(page, "playing");
    const words = (await mirror(page, "words")).split(" ");
    // The same text on both: the terminal's first line is the browser's first words.
    const shown = await term.waitFor(/esc leaves the room/);
    expect(shown).toContain(words.slice(0, 4).join(" "));

    // The terminal types six words while ada waits: it leads on both screens.
    for (const word of words.slice(0, 6)) {
      for (const c of `${word} `) {
        term.keys(c, true);
        await page.waitForTimeout(humanGap(60));
      }
    }
    await expect.poll(() => standing(page)).toMatch(/^2nd of 2 · \+\d+\.\d s to tess$/);
    await expect(page.locator("[data-mirror=room]")).toContainText(/tess leads you by \d+ chars/);
    await term.waitFor(/1st of 2 · \+\d+\.\d s on ada/);
    await shot(page, "room-terminal-ahead");
    save("room-terminal-ahead.txt", term.screen());

    // Ada types on: both rounds end by the clock, and both screens list both.
    await typeWords(page, 10, 30);
    await expect(page.locator("[data-mirror=room]")).toContainText("the finishers, best first", { timeout: 30_000 });
    const results = await term.waitFor(/the finishers, best first/);
    save("room-terminal-results.txt", results);
    const lines = await room(page);
    expect(rowOf(lines, "tess"), lines.join("\n")).toContain("unranked: raced as a guest: link a game to rank your rounds");
    expect(rowOf(lines, ada), lines.join("\n")).toContain(" · ranked · ");
    expect(results).toContain("tess (you)");
    expect(results).toContain(ada);
    await shot(page, "room-terminal-results");
  } finally {
    term?.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a room on the owner's own text: pasted, left with esc, opened with f, and a second racer who never saw it races on it to its end", async ({
  browser,
  page,
  context,
  consoleLog,
}) => {
  const errors = [];
  const [ada, bob] = [unique("ada"), unique("bob")];
  // Accents, one decomposed, an em dash and a line break, as a paste brings them.
  const pasted = "Là-bas — près de la forêt,\nl'e\u0301te\u0301 dernier.";
  const text = "Là-bas — près de la forêt, l'été dernier.";
  await boot(page);
  await link(page, ada);
  await page.keyboard.press("c");
  await onScreen(page, "text");
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.evaluate((t) => navigator.clipboard.writeText(t), pasted);
  await page.keyboard.press("Control+V");
  await expect.poll(() => mirror(page, "typed")).toBe(pasted.normalize("NFC"));
  // Esc keeps it on the menu, unplayed, for a room.
  await page.keyboard.press("Escape");
  await onScreen(page, "menu");
  await expect(page.locator("[data-mirror=notice]")).toHaveText(
    "your text is on CUSTOM TEXT: enter plays it, f races friends on it",
  );
  const other = await newRacer(browser, errors);
  await boot(other);
  await link(other, bob);
  await gather(page, [other]);
  // Both in the lobby, each seeing the other, before Bob says he is ready.
  await expect(page.locator("[data-mirror=room]")).toContainText(`${bob} · waiting`);
  await expect(other.locator("[data-mirror=room]")).toContainText(`${ada} · owner · waiting`);
  await other.keyboard.press("r");
  await expect(page.locator("[data-mirror=room]")).toContainText(`${bob} · ready`);
  await page.keyboard.press("Enter");
  await onScreen(page, "playing");
  await onScreen(other, "playing");
  await expect(other.locator("[data-mirror=banner]")).toHaveText(/^ROOM [0-9a-z]{8} · CUSTOM TEXT$/);
  // Bob's browser never had the text: the room gave it, whole, in NFC.
  expect(await mirror(other, "words")).toBe(text);
  expect(await mirror(page, "words")).toBe(text);
  await shotBoth(other, "room-custom-text");
  const words = text.split(" ").length;
  await typeWords(other, words, 45);
  await typeWords(page, words, 60);
  for (const p of [page, other]) {
    await expect(p.locator("[data-mirror=room]")).toContainText("the finishers, best first", { timeout: 30_000 });
  }
  const lines = await room(page);
  const row = rowOf(lines, bob);
  expect(row, lines.join("\n")).toBeTruthy();
  // Never ranked; stored with its text, which any build reads back.
  expect(row).toMatch(/ · unranked: custom texts are never ranked/);
  const share = row.match(/ · https?:\/\/\S+\/([0-9A-Za-z]+)$/);
  const run = await (await page.request.get(`/v1/runs/${share[1]}`)).body();
  expect(cli(["inspect", "--json", "-"], run.toString("hex")).text).toBe(text);
  await matchesStoredRun(page, row);
  expect(await rows(other)).toEqual(await rows(page));
  expect(errors).toEqual([]);
});
