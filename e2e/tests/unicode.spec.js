// A dead-key é and a pasted 🌶 arrive through the hidden input as one character each.
import { test, expect, boot, onScreen, typeWords, cli, stored, shot } from "./fixtures.js";

test("a dead-key é and a pasted 🌶 are recorded as single characters", async ({ page, context, consoleLog }) => {
  await boot(page);
  await page.keyboard.press("z");
  await onScreen(page, "playing");
  await typeWords(page, 1);

  // A dead key is a composition: ´ pending, then é committed.
  const cdp = await context.newCDPSession(page);
  await cdp.send("Input.imeSetComposition", { text: "´", selectionStart: 1, selectionEnd: 1 });
  await cdp.send("Input.insertText", { text: "é" });
  await expect(page.locator("[data-mirror=typed]")).toHaveText("é");

  // A paste, through the clipboard and ctrl+v.
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.evaluate(() => navigator.clipboard.writeText("🌶"));
  await page.keyboard.press("Control+V");
  await expect(page.locator("[data-mirror=typed]")).toHaveText("é🌶");

  await page.keyboard.press("Escape");
  await onScreen(page, "results");
  const replay = cli(["inspect", "--json", "-"], await stored(page, "last.replay"));
  const chars = replay.inputs.filter((i) => i.op === "char").map((i) => i.char);
  expect(chars).toContain("é");
  expect(chars).toContain("🌶");
  expect(chars).not.toContain("´");
  expect(chars.filter((c) => c === "é")).toHaveLength(1);
  expect(replay.inputs.at(-1).op).toBe("end");
});

test("pasted wide characters keep the caret after them and the next word clear", async ({ page, context }) => {
  await boot(page);
  await page.keyboard.press("z");
  await onScreen(page, "playing");
  await typeWords(page, 1);
  // Wide as the page's fonts draw it: 中 where a CJK font is installed; ⟹ is over two
  // columns in DejaVu Sans, which every machine here has. The test needs one that is.
  const wide = await page.evaluate(() => {
    const c = document.createElement("canvas").getContext("2d");
    c.font = "500 28px ui-monospace, SFMono-Regular, 'DejaVu Sans Mono', Menlo, Consolas, monospace";
    const cols = (s) => c.measureText(s).width / c.measureText("m").width;
    return ["中", "⟹"].find((ch) => cols(ch) > 1.5);
  });
  expect(wide).toBeTruthy();
  // The current word typed right, then four wide extras pasted onto it.
  const word = (await page.locator("[data-mirror=words]").textContent()).split(" ")[0];
  await page.keyboard.type(word);
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.evaluate((w) => navigator.clipboard.writeText(w.repeat(4)), wide);
  await page.keyboard.press("Control+V");
  await expect(page.locator("[data-mirror=typed]")).toHaveText(word + wide.repeat(4));
  await page.waitForTimeout(600); // the caret glides to its place
  await shot(page, "wide-extras");
  // Read the canvas: the caret's colour, the extras' colour, and the words ahead (dim).
  const found = await page.evaluate(() => {
    const canvas = document.querySelector("canvas");
    const { width, height } = canvas;
    const data = canvas.getContext("2d").getImageData(0, 0, width, height).data;
    const near = (i, [r, g, b], d) =>
      Math.abs(data[i] - r) + Math.abs(data[i + 1] - g) + Math.abs(data[i + 2] - b) < d;
    const caret = [];
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) if (near((y * width + x) * 4, [0xff, 0xb0, 0x20], 12)) caret.push([x, y]);
    const ys = caret.map(([, y]) => y);
    const [top, bottom] = [Math.min(...ys), Math.max(...ys)];
    const caretX = Math.max(...caret.map(([x]) => x));
    let extra = -1;
    let ahead = width;
    for (let y = top; y <= bottom; y++)
      for (let x = 0; x < width; x++) {
        const i = (y * width + x) * 4;
        if (near(i, [0xc2, 0x6c, 0x76], 60)) extra = Math.max(extra, x);
        if (x > caretX && near(i, [0x8a, 0x84, 0x96], 30)) ahead = Math.min(ahead, x);
      }
    return { caretX, extra, ahead, caretPixels: caret.length };
  });
  expect(found.caretPixels).toBeGreaterThan(0);
  expect(found.extra).toBeGreaterThan(0);
  // The caret stands after the last wide character, and the next word starts after it.
  expect(found.caretX).toBeGreaterThan(found.extra);
  expect(found.ahead).toBeGreaterThan(found.caretX);
});
