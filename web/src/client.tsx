// Browser entry: hydrates the islands present on the page, each from its own chunk, and keeps the footer's
// copyright year current (DECISIONS 13: the year when the page is viewed, not when it was built).
import { createElement, useEffect, type ComponentType, type ReactNode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { captureAttribution } from './islands/formSupport';
import { islands, type IslandName } from './islands/registry';
import './styles.css';

captureAttribution();

/** Marks the island's container once React has hydrated it (effects run after hydration), for tests and tools. */
function MarkHydrated({ element, children }: { element: HTMLElement; children?: ReactNode }) {
  useEffect(() => {
    element.dataset.hydrated = '';
  }, [element]);
  return children;
}

for (const element of document.querySelectorAll<HTMLElement>('[data-island]')) {
  const name = element.dataset.island as IslandName;
  const load = islands[name];
  if (!load) {
    console.warn(`Unknown island "${name}"`);
    continue;
  }
  const props = JSON.parse(element.dataset.props ?? '{}') as Record<string, unknown>;
  load()
    .then((module) => {
      // The props were serialised from this island's own props type on the server.
      const component = module.default as ComponentType<never> as ComponentType<Record<string, unknown>>;
      hydrateRoot(element, createElement(MarkHydrated, { element }, createElement(component, props)));
    })
    .catch((error: unknown) => console.error(`Island "${name}" failed to load`, error));
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
