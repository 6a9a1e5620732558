// The site's card: the rounded panel that holds one item (a feature, a value, a way to reach us, a product, a post,
// a testimonial). Its look is a variant; the caller's layout classes (`className`) come first. With `href` the whole
// card is one link.
import type { ReactNode } from 'react';

const variants = {
  /** Bordered and white, on any band. */
  outline: { surface: 'border border-slate-200 bg-white', lift: '' },
  /** Bordered, without a fill of its own: on a white band. */
  flat: { surface: 'border border-slate-200', lift: '' },
  /** White and lifted by a shadow, on a tinted band. */
  raised: { surface: 'bg-white', lift: 'shadow-sm' },
  /** A card that leads somewhere (a product, a post): lifted, and more so under the pointer. */
  link: { surface: 'border border-slate-200 bg-white', lift: 'shadow-sm transition-shadow hover:shadow-lg' },
  /** A shortcut tile: bordered, outlined in navy and lifted under the pointer. */
  tile: { surface: 'border border-slate-200', lift: 'hover:border-navy hover:shadow-md' },
} as const;

const paddings = { none: '', sm: 'p-5', md: 'p-7', lg: 'p-8' } as const;

export type CardVariant = keyof typeof variants;

export function Card({
  variant = 'outline',
  padding = 'md',
  as: Tag = 'div',
  href,
  className = '',
  children,
}: {
  variant?: CardVariant;
  padding?: keyof typeof paddings;
  as?: 'div' | 'article' | 'figure';
  /** Makes the card a link (rendered as `<a>`). */
  href?: string;
  className?: string;
  children: ReactNode;
}) {
  const { surface, lift } = variants[variant];
  const classes = [className, 'rounded-2xl', surface, paddings[padding], lift].filter(Boolean).join(' ');
  if (href !== undefined) {
    return (
      <a href={href} className={classes}>
        {children}
      </a>
    );
  }
  return <Tag className={classes}>{children}</Tag>;
}
