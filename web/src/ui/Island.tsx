// Server side of an island: renders the component inside a marked container, its props serialised beside it, and
// records which islands a page uses so the prerender can preload their chunks.
import type { ComponentProps, ComponentType } from 'react';
import type { IslandName } from '../islands/registry';

export const usedIslands = new Set<IslandName>();

interface IslandProps<C extends ComponentType<never>> {
  name: IslandName;
  component: C;
  props: ComponentProps<C>;
  className?: string;
}

export function Island<C extends ComponentType<never>>({ name, component: Component, props, className }: IslandProps<C>) {
  usedIslands.add(name);
  return (
    <div data-island={name} data-props={JSON.stringify(props)} className={className ?? 'contents'}>
      <Component {...props} />
    </div>
  );
}
