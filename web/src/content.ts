// The site's content as build.rs hands it over (content/ read, checked, Markdown rendered), with the derived
// facts that pages share. Server-side only: islands get what they need through props, never this module.
import raw from '@content';
import { formatClock } from '@i18n/locale';
import { t } from '@i18n/pages';
// The document's types are generated from the Rust model that writes it (crates/content/src/model.rs).
import type { Content, Document, Site } from '@content-types';
export type { Content, Document, Faq, Post, Product, Site, TitledText } from '@content-types';

export const content: Content = raw;
export const site = content.site;

export const vehicles = content.products.filter((p) => p.kind === 'vehicle');
export const coverages = content.products.filter((p) => p.kind === 'coverage');
/** The six coverages of the header menu and of /products. */
export const menuCoverages = coverages.filter((p) => p.on_products_page);

/** A page's structured copy from content/pages/<name>.toml, typed by the page that reads it. */
export function page<T>(name: string): T & { title: string; description: string } {
  const found = content.pages[name];
  if (!found) throw new Error(`content/pages/${name}.toml is missing`);
  return found as T & { title: string; description: string };
}

export function document(slug: string): Document {
  const found = content.documents.find((d) => d.slug === slug);
  if (!found) throw new Error(`content/pages/${slug}.md is missing`);
  return found;
}

// Dates and clock times in the build's language (web/src/i18n/<language>/locale.ts).
export { formatClock, formatDate } from '@i18n/locale';

export function hoursText(entry: Site['hours'][number]): string {
  return entry.opens && entry.closes ? `${formatClock(entry.opens)} - ${formatClock(entry.closes)}` : t('Closed');
}

/** Paragraphs of a plain-text field, split on blank lines. */
export function paragraphs(text: string): string[] {
  return text.split(/\n\s*\n/).map((p) => p.trim()).filter(Boolean);
}
