// A link inside running text: bold, in the link colour and underlined, so it reads as a link without colour alone.
import type { ReactNode } from 'react';

export function TextLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <a href={href} className="font-semibold text-steel underline underline-offset-2">
      {children}
    </a>
  );
}
