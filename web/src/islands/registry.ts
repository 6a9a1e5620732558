// Island name -> lazy module. The client loads only the islands a page contains; the server uses the names to
// preload those chunks. Keep names equal to file names (the prerender looks the chunk up by `src/islands/<Name>.tsx`).
import type { ComponentType } from 'react';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- props are checked where <Island> is rendered
type Loader = () => Promise<{ default: ComponentType<any> }>;

export const islands = {
  SiteNav: () => import('./SiteNav'),
  Toaster: () => import('./Toaster'),
  RoadCanvas: () => import('./RoadCanvas'),
  BlogExplorer: () => import('./BlogExplorer'),
  QuoteForm: () => import('./QuoteForm'),
  ContactForm: () => import('./ContactForm'),
} satisfies Record<string, Loader>;

export type IslandName = keyof typeof islands;
