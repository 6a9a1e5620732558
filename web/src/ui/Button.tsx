// Link styled as a button, in the site's variants. Every call to action is a real link (works without script).
import type { ReactNode } from 'react';

const variants = {
  primary: 'bg-amber text-ink hover:bg-amber-light shadow-sm',
  secondary: 'bg-navy text-white hover:bg-ink',
  outline: 'border-2 border-navy text-navy hover:bg-navy hover:text-white',
  ghostLight: 'border-2 border-white/80 text-white hover:bg-white hover:text-ink',
} as const;

const sizes = { md: 'px-5 py-2.5 text-base', lg: 'px-7 py-3.5 text-lg', sm: 'px-4 py-2 text-sm' } as const;

export function ButtonLink({
  href,
  children,
  variant = 'primary',
  size = 'md',
  className = '',
}: {
  href: string;
  children: ReactNode;
  variant?: keyof typeof variants;
  size?: keyof typeof sizes;
  className?: string;
}) {
  return (
    <a
      href={href}
      className={`inline-flex items-center justify-center gap-2 rounded-lg font-semibold transition-colors ${variants[variant]} ${sizes[size]} ${className}`}
    >
      {children}
    </a>
  );
}
