// React's side of the islands: hydrates one island container with its component. Loaded by client.ts only on pages
// that have island containers, so React (the bulk of the site's script) is downloaded only where an island needs it.
import { createElement, useEffect, type ComponentType, type ReactNode } from 'react';
import { hydrateRoot } from 'react-dom/client';

/** Marks the island's container once React has hydrated it (effects run after hydration), for tests and tools. */
function MarkHydrated({ element, children }: { element: HTMLElement; children?: ReactNode }) {
  useEffect(() => {
    element.dataset.hydrated = '';
  }, [element]);
  return children;
}

/** Hydrates `element` (an <Island> container) with `component` and the props serialised beside it. */
export function hydrateIsland(element: HTMLElement, component: ComponentType<never>): void {
  const props = JSON.parse(element.dataset.props ?? '{}') as Record<string, unknown>;
  // The props were serialised from this island's own props type on the server.
  const typed = component as ComponentType<Record<string, unknown>>;
  hydrateRoot(element, createElement(MarkHydrated, { element }, createElement(typed, props)));
}
