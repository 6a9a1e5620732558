// Server side of an island: renders the component inside a marked container, its props serialised beside it, and
// records which islands a page uses so the prerender knows whether the page has a form (and so the Toaster).
import { createElement, type ComponentType } from 'react';
import type { IslandName } from '../islands/registry';

export const usedIslands = new Set<IslandName>();

interface IslandProps<P extends object> {
  name: IslandName;
  component: ComponentType<P>;
  props: P;
  className?: string;
}

export function Island<P extends object>({ name, component, props, className }: IslandProps<P>) {
  usedIslands.add(name);
  return (
    <div data-island={name} data-props={JSON.stringify(props)} className={className ?? 'contents'}>
      {createElement(component, props)}
    </div>
  );
}
