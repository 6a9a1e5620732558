// Island name -> lazy module. The client entry loads only the islands a page contains, each from its own chunk.
// Keep names equal to file names: a chunk is named after its island (tests/integration/budget.rs counts a page's chunks by it).
import type { ComponentType } from 'react';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- props are checked where <Island> is rendered
type Loader = () => Promise<{ default: ComponentType<any> }>;

export const islands = {
  Toaster: () => import('./Toaster'),
  RoadCanvas: () => import('./RoadCanvas'),
  BlogExplorer: () => import('./BlogExplorer'),
  QuoteForm: () => import('./QuoteForm'),
  ContactForm: () => import('./ContactForm'),
  CoiForm: () => import('./CoiForm'),
  OptOutForm: () => import('./OptOutForm'),
  ClaimForm: () => import('./ClaimForm'),
  PolicyChangeForm: () => import('./PolicyChangeForm'),
} satisfies Record<string, Loader>;

export type IslandName = keyof typeof islands;
