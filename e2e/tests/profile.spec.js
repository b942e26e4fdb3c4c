// Issue 42: a profile. A linked player plays a round; `p` on the menu is their profile,
// with the round among their latest, watched with enter and back; the boards' `o` opens
// a row's player's; `/p/<name>` is the same as a page, with its own card, and in the
// player's own browser their archive and deleting their account.
import { test, expect, boot, mirror, onScreen, shot, shotBoth, typeWords } from "./fixtures.js";

const name = `pro_${Date.now() % 1e9}`;

test("a player's profile lists their rounds, plays them, and is a page of its own", async ({ page, consoleLog }) => {
  await boot(page);
  // Linked to no one, `p` says why there is no profile.
  await page.keyboard.press("p");
  await expect(page.locator("[data-mirror=notice]")).toHaveText("a profile is a linked player's: l links this game");
  await page.keyboard.press("l");
  await onScreen(page, "link");
  await page.keyboard.type(name);
  await page.keyboard.press("Enter");
  await onScreen(page, "menu");

  // A ZEN round, stored under the player.
  await page.keyboard.press("z");
  await onScreen(page, "playing");
  await typeWords(page, 8, { gap: 90 });
  await page.waitForTimeout(1500);
  await page.keyboard.press("Escape");
  await onScreen(page, "results");
  await expect(page.locator("[data-mirror=share]")).toContainText("/r/", { timeout: 30_000 });
  const id = (await mirror(page, "share")).match(/\/r\/([0-9A-Za-z]{8})/)[1];
  await page.keyboard.press("Escape");
  await onScreen(page, "menu");

  // `p`: the profile, the round among the latest, and the counts.
  await page.keyboard.press("p");
  await onScreen(page, "profile");
  const list = page.locator("[data-mirror=list]");
  await expect(list).toContainText("latest rounds:");
  await expect(list).toContainText("▸ ZEN · ");
  await expect(page.locator("[data-mirror=status]")).toContainText("1 round · ");
  await shotBoth(page, "profile");

  // Enter watches it; esc comes back to the profile.
  await page.keyboard.press("Enter");
  await onScreen(page, "replay");
  await expect(page.locator("[data-mirror=banner]")).toHaveText(`REPLAY · ZEN · ${name}`);
  await page.keyboard.press("Escape");
  await onScreen(page, "profile");
  await page.keyboard.press("Escape");
  await onScreen(page, "menu");

  // The page: its title, its card, the round to watch and race.
  const profilePage = await page.context().newPage();
  await profilePage.goto(`/p/${name.toUpperCase()}`);
  await expect(profilePage).toHaveTitle(`${name} · typepper`);
  await expect(profilePage.locator(`a[href$="?replay=${id}"]`)).toHaveCount(1);
  await expect(profilePage.locator(`a[href$="?race=${id}"]`)).toHaveCount(1);
  await expect(profilePage.locator("svg.chart")).toHaveCount(1);
  await shot(profilePage, "profile-page");
  const card = await profilePage.request.get(`/p/${name}/card.png`);
  expect(card.status()).toBe(200);
  expect(card.headers()["content-type"]).toBe("image/png");
  const gone = await profilePage.request.get("/v1/players/no_one_here");
  expect(gone.status()).toBe(404);

  // In the browser the player plays on, the page is theirs to take away: their archive…
  const yours = profilePage.locator("#yours");
  await expect(yours).toBeVisible();
  const [download] = await Promise.all([
    profilePage.waitForEvent("download"),
    profilePage.getByRole("button", { name: "Download your data" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`typepper-${name}.tar`);
  const said = profilePage.locator("#yours-said");
  await expect(said).toContainText(`saved as typepper-${name}.tar`);
  // …and the account, once they say so.
  profilePage.once("dialog", (d) => d.accept());
  await profilePage.getByRole("button", { name: "Delete your account" }).click();
  await expect(said).toContainText(`deleted: ${name}'s runs are off the boards and links`);
  await shot(profilePage, "profile-page-deleted");
  expect((await profilePage.request.get(`/v1/players/${name}`)).status()).toBe(404);
  expect((await profilePage.request.get(`/v1/runs/${id}`)).status()).toBe(404);
  // The game in this browser is linked to no one now.
  await profilePage.close();
  await page.reload();
  await onScreen(page, "menu");
  await page.keyboard.press("p");
  await expect(page.locator("[data-mirror=notice]")).toHaveText("a profile is a linked player's: l links this game");
});
