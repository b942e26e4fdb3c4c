// typepper's JavaScript glue: make sure this load runs one build, load the wasm, hand it
// the page. Everything else is Rust.
//
// A load runs one build, whole (web/sw.js says how a build is kept). Every load asks the
// server for a newer build once the game is up (registering the service worker checks
// it); a newer one is fetched and kept in the background. The next load finds it
// waiting: before it loads anything of the game, it asks that worker to take over, and
// reloads to run it. A page whose worker changes before the game is loaded (another tab
// let a new build take over) reloads too.

const api = document.querySelector('meta[name="typepper-api"]')?.content ?? "";
const sw = navigator.serviceWorker;
const controlled = Boolean(sw?.controller);
let booted = false;

sw?.addEventListener("controllerchange", () => {
  if (controlled && !booted) location.reload();
  // A first visit, taken over once the game was kept: the lists and quotes fetched before
  // are fetched again through the worker (from the browser's cache), which keeps them.
  else if (!controlled) keepListsFetched();
});

const next = controlled ? await tookOver() : null;
if (next && (await begins(next))) {
  // The reload comes with the new worker, once it has activated: a busy machine took
  // over 3 s. If it never comes, this build plays.
  await wait(10000);
}
// The game's sound, when its settings turn it on: a soft click a key, a low knock for a
// mistake, each made here with Web Audio (no sound file), at volume 1 to 5.
let audio;
window.typepperClick = (wrong, volume) => {
  audio ??= new AudioContext();
  const t = audio.currentTime;
  const tone = audio.createOscillator();
  const gain = audio.createGain();
  tone.type = wrong ? "triangle" : "sine";
  tone.frequency.setValueAtTime(wrong ? 190 : 1500, t);
  tone.frequency.exponentialRampToValueAtTime(wrong ? 120 : 700, t + 0.03);
  const length = wrong ? 0.12 : 0.035;
  gain.gain.setValueAtTime(0.03 * volume, t);
  gain.gain.exponentialRampToValueAtTime(0.0001, t + length);
  tone.connect(gain).connect(audio.destination);
  tone.start(t);
  tone.stop(t + length);
};
const { default: init, start } = await import("./pkg/typepper_web.js");
await init();
booted = true;
window.typepper = await start(api);
// A first visit's registration, and on every visit a check for a newer build.
sw?.register("/sw.js").catch((e) => console.warn(`the game won't play offline: ${e.message}`));

/** A newer build's worker that was waiting, and was asked to take over. */
async function tookOver() {
  const next = (await sw.getRegistration())?.waiting;
  next?.postMessage("take over");
  return next;
}

/** Whether `next` begins to take over within a second and a half. Chromium holds a new
 * worker back while the old one is still answering a fetch of this page's: the page's
 * icon, fetched just as the take-over began, held it until the page closed, in a load in
 * three (index.html carries its icon since). Rather than stay blank, a load so held plays
 * the build it has; the new one takes over once the old one is free. */
function begins(next) {
  if (next.state !== "installed") return Promise.resolve(true);
  return new Promise((done) => {
    next.addEventListener("statechange", () => done(true), { once: true });
    setTimeout(() => done(next.state !== "installed"), 1500);
  });
}

function wait(ms) {
  return new Promise((done) => setTimeout(done, ms));
}

function keepListsFetched() {
  // Those fetched before it came, and any still on their way.
  const again = new Set();
  new PerformanceObserver((entries) => {
    for (const { name } of entries.getEntries()) {
      const path = new URL(name).pathname;
      if (!again.has(name) && (path.startsWith("/words/") || path.startsWith("/quotes/"))) {
        again.add(name);
        fetch(name).catch(() => {});
      }
    }
  }).observe({ type: "resource", buffered: true });
}
