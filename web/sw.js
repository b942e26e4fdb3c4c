// typepper's service worker: the game plays with no network once a player has visited,
// and a new build replaces the old one whole, never half of each.
//
// `cargo xtask` (crates/xtask/src/web.rs) writes this file to web/pkg/sw.js with BUILD
// and FILES filled in: each build file's SHA-256, and a hash of them all. A new build is
// so a new worker, byte for byte, and the server serves it at /sw.js, revalidated on
// every check. How a build comes and goes:
//
// 1. install: each of the build's files is fetched (revalidated with the server, never a
//    stale HTTP copy), checked against its hash, and kept in the cache named after the
//    build. A file that isn't this build's (a deploy half done, an old copy in a proxy)
//    fails the install: the old build stays as it was, and the next load tries again.
// 2. The new worker then waits: a page still running the old build keeps the old one.
//    web/boot.js, at the next load and before it loads anything of the game, asks the
//    waiting worker to take over and reloads, so that load runs the new build, whole. A
//    page the change finds still loading reloads too. (A page already running goes on
//    with the build it loaded; all it fetches after that are lists and the API.)
// 3. activate: every other build's cache is deleted; the lists' cache stays. A page that
//    loaded from the network on a first visit is taken over, so that the lists it
//    fetches from then on are kept.
// 4. fetch: the page (`/`, whatever its query) and the build's files come from the
//    build's cache; a word list (/words/) or a language's quotes (/quotes/) from the
//    lists' cache, else from the network and then kept (its name is its checksum: it
//    never changes, and never expires); everything else, the /v1 API, share pages and
//    cards above all, goes to the network as if there were no worker.

const BUILD = "dev";
const FILES = {};

const PREFIX = "typepper-build-";
const CACHE = PREFIX + BUILD;
// The word lists' and the quotes' cache. (Its name is older than quotes: a new name would
// leave every player's kept lists behind, in a cache nothing deletes.)
const LISTS = "typepper-words";

self.addEventListener("install", (event) => {
  event.waitUntil(precache());
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

// boot.js's word: this worker is installed and waiting, and the page that asks has run
// nothing of the game yet.
self.addEventListener("message", (event) => {
  if (event.data === "take over") self.skipWaiting();
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/words/") || url.pathname.startsWith("/quotes/")) {
    event.respondWith(list(request));
  } else if (url.pathname === "/" && request.mode === "navigate") {
    event.respondWith(kept("/", request));
  } else if (Object.hasOwn(FILES, url.pathname) && url.search === "") {
    event.respondWith(kept(url.pathname, request));
  }
});

/** Every file of the build, checked against its hash, into the build's cache. */
async function precache() {
  const paths = ["/", ...Object.keys(FILES)];
  const fetched = await Promise.all(
    paths.map(async (path) => {
      const response = await fetch(path, { cache: "no-cache" });
      if (!response.ok) throw new Error(`${path}: the server answered ${response.status}`);
      // The page is written by the server (its API's address), so it has no fixed hash.
      if (path in FILES) {
        const digest = await crypto.subtle.digest("SHA-256", await response.clone().arrayBuffer());
        const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
        if (hex !== FILES[path]) throw new Error(`${path} is not build ${BUILD}'s`);
      }
      return [path, response];
    }),
  );
  const cache = await caches.open(CACHE);
  await Promise.all(fetched.map(([path, response]) => cache.put(path, response)));
}

/** The build's copy of `path`; the network if it was never kept. */
async function kept(path, request) {
  const cache = await caches.open(CACHE);
  return (await cache.match(path)) ?? fetch(request);
}

/** A word list or a language's quotes: kept for good once fetched. */
async function list(request) {
  const cache = await caches.open(LISTS);
  const hit = await cache.match(request);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}
