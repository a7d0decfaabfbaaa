// The portal's service worker (spec 01 section 9), built by vite.config.ts, which puts BUILD (this build's id) and
// PRECACHE (the shell's hashed files: entry script, its chunks, styles, language texts, regular fonts) before this
// code. Registered by web/src/session/service-worker.ts once the page has been stable for 30 s.
//  - /assets/* (hashed, never changing): from the cache, else the network (and then cached): a returning user's
//    pages load their scripts, styles and fonts without the network.
//  - Pages (navigations): the network first, so a new build's index.html (and with it its scripts and the
//    new-version check) is always what a user gets online; the last copy only when the network fails.
//  - /api and /simulators: never touched, never cached.
/* global BUILD, PRECACHE */
const CACHE = `halal-${BUILD}`;
const SHELL = '/__shell';

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(PRECACHE)));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      // Earlier builds' files are dropped once no page of theirs is left (a waiting worker activates only then).
      for (const key of await caches.keys()) if (key.startsWith('halal-') && key !== CACHE) await caches.delete(key);
      await self.clients.claim();
    })(),
  );
});

async function fromCacheFirst(request) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(request);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

async function fromNetworkFirst(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(SHELL, response.clone());
    return response;
  } catch (error) {
    const copy = await cache.match(SHELL);
    if (copy) return copy;
    throw error;
  }
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || /^\/(api|simulators)(\/|$)/.test(url.pathname)) return;
  if (url.pathname.startsWith('/assets/')) event.respondWith(fromCacheFirst(request));
  else if (request.mode === 'navigate') event.respondWith(fromNetworkFirst(request));
});
