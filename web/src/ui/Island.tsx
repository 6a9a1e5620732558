// Server side of an island: renders the component inside a marked container, its props serialised beside it, and
// adds its name to the islands of the render it is part of. Each page render makes its own collection
// (<IslandCollector> in prerender.tsx) and reads it afterwards; nothing outlives a render, so renders cannot mix.
import { createContext, createElement, useContext, type ComponentType, type ReactNode } from 'react';
import type { IslandName } from '../islands/registry';

const Collected = createContext<Set<IslandName> | null>(null);

/** Gathers into `islands` the name of every island rendered inside it. */
export function IslandCollector({ islands, children }: { islands: Set<IslandName>; children: ReactNode }) {
  return <Collected.Provider value={islands}>{children}</Collected.Provider>;
}

interface IslandProps<P extends object> {
  name: IslandName;
  component: ComponentType<P>;
  props: P;
  className?: string;
}

export function Island<P extends object>({ name, component, props, className }: IslandProps<P>) {
  const islands = useContext(Collected);
  // Without a collection the page would not know it has a form, and would go without the Toaster.
  if (!islands) throw new Error(`<Island name="${name}"> was rendered outside an <IslandCollector>`);
  islands.add(name);
  return (
    <div data-island={name} data-props={JSON.stringify(props)} className={className ?? 'contents'}>
      {createElement(component, props)}
    </div>
  );
}
