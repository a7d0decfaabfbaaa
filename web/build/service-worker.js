/*
 * The portal's service worker (spec 01 section 9: registered 30 s after the page has loaded, by web/src/service-worker.ts).
 * The build (web/build/shell-plugins.ts) writes it to /sw.js with BUILD (this build's id) and SHELL (index.html, the entry
 * script and its static imports, the shell's lazy dialogs and toasts, the entry CSS and the fonts it names) filled in.
 *
 * - Hashed files (/assets/...) never change: from the cache first, cached when first fetched.
 * - Pages (navigations) from the network first, so a new build is seen at once (and the new-version dialog's reload
 *   gets it); the cached copy, or the cached shell, only when the network does not answer within 4 s.
 * - The API, the simulators and other origins are never touched: answers about people are never cached.
 * A new worker waits until no page of the old build is open (no skipWaiting): an open page of the old build may
 * still load its own lazy chunks from the old cache, which the new worker deletes when it takes over.
 */
const BUILD = '__BUILD__';
const SHELL = __SHELL__;
const CACHE = `halal-${BUILD}`;
const NAVIGATION_TIMEOUT_MS = 4000;

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key.startsWith('halal-') && key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || /^\/(api|simulators)(\/|$)/.test(url.pathname)) return;
  if (request.mode === 'navigate') event.respondWith(page(request));
  else if (url.pathname.startsWith('/assets/')) event.respondWith(hashedFile(request));
});

async function hashedFile(request) {
  const cache = await caches.open(CACHE);
  const cached = await cache.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  // Only the file itself: a page answered in its place (a server of another build) must not be kept as the file.
  if (response.ok && !(response.headers.get('content-type') ?? '').startsWith('text/html')) await cache.put(request, response.clone());
  return response;
}

async function page(request) {
  const network = fetch(request);
  const timeout = new Promise((resolve) => setTimeout(resolve, NAVIGATION_TIMEOUT_MS, null));
  try {
    const response = await Promise.race([network, timeout]);
    if (response) return response;
  } catch {
    // offline: the cached shell below
  }
  const cache = await caches.open(CACHE);
  const cached = (await cache.match(request)) ?? (await cache.match('/index.html'));
  return cached ?? network;
}
