// A link that leads on to more of the same ("View all ...", "Compare all ..."): bold, in the link colour, an arrow after it.
import type { ReactNode } from 'react';
import { Icon } from './Icon';

export function ArrowLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <a href={href} className="inline-flex items-center gap-1 font-semibold text-steel hover:text-navy">
      {children}{' '}<Icon name="arrowRight" className="size-4" />
    </a>
  );
}
