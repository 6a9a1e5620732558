// The only browser entry, on every page: small and free of React. It records the visit's attribution (the forms
// send it, whichever page the visit began on), keeps the footer's copyright year current (DECISIONS 13: the year
// when the page is viewed, not when it was built), fades images in and enhances the header menus. Only a page with
// island containers ([data-island]: forms, the blog explorer, the hero's canvas) loads React (hydrate.tsx) and the
// islands' chunks, all at once, after the page's first paint.
import { enhanceNav } from './enhance/nav';
import { captureAttribution } from './enhance/attribution';
import { islands, type IslandName } from './islands/registry';

captureAttribution();

const nav = document.querySelector<HTMLElement>('[data-site-nav]');
if (nav) enhanceNav(nav);

/**
 * Runs `task` once the page has painted its first content. React and the islands are most of a page's bytes: fetched
 * earlier, on a slow connection they would share the bandwidth with the HTML still arriving and delay what the
 * visitor sees first. Until then the islands' prerendered HTML works (forms post without script). The page's `load`
 * event also starts it, whichever comes first, so the forms never wait on a paint entry a browser does not report.
 */
function afterFirstPaint(task: () => void): void {
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    observer?.disconnect();
    task();
  };
  const observer = PerformanceObserver.supportedEntryTypes?.includes('paint')
    ? new PerformanceObserver((list) => {
        if (list.getEntriesByName('first-contentful-paint').length > 0) start();
      })
    : null;
  observer?.observe({ type: 'paint', buffered: true });
  if (document.readyState === 'complete') start();
  else window.addEventListener('load', start, { once: true });
}

const containers = Array.from(document.querySelectorAll<HTMLElement>('[data-island]'));
if (containers.length > 0) {
  afterFirstPaint(() => {
    // React and every island's chunk are requested together, not one after the other.
    const react = import('./hydrate');
    for (const element of containers) {
      const name = element.dataset.island as IslandName;
      const load = islands[name];
      if (!load) {
        console.warn(`Unknown island "${name}"`);
        continue;
      }
      Promise.all([react, load()])
        .then(([{ hydrateIsland }, module]) => hydrateIsland(element, module.default))
        .catch((error: unknown) => console.error(`Island "${name}" failed to load`, error));
    }
  });
}

const year = String(new Date().getFullYear());
for (const element of document.querySelectorAll<HTMLElement>('[data-current-year]')) {
  element.textContent = year;
}

// Images are visible without script; with it, those still loading fade in when they arrive.
for (const image of document.querySelectorAll<HTMLImageElement>('img.fade-in-image')) {
  if (image.complete) continue;
  image.classList.add('is-loading');
  const reveal = () => image.classList.remove('is-loading');
  image.addEventListener('load', reveal, { once: true });
  image.addEventListener('error', reveal, { once: true });
}
