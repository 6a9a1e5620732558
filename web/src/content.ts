// The site's content as build.rs hands it over (content/ read, checked, Markdown rendered), with the derived
// facts that pages share. Server-side only: islands get what they need through props, never this module.
import raw from '@content';
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

const months = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October',
  'November', 'December'];

/** "2026-03-14" as "March 14, 2026" (no Intl: the same text on every machine that builds). */
export function formatDate(iso: string): string {
  const [year, month, day] = iso.split('-').map(Number);
  return `${months[(month ?? 1) - 1]} ${day}, ${year}`;
}

/** "08:00" as "8:00 AM". */
export function formatClock(time: string): string {
  const [h = 0, m = 0] = time.split(':').map(Number);
  const suffix = h < 12 ? 'AM' : 'PM';
  const hour = h % 12 === 0 ? 12 : h % 12;
  return `${hour}:${String(m).padStart(2, '0')} ${suffix}`;
}

export function hoursText(entry: Site['hours'][number]): string {
  return entry.opens && entry.closes ? `${formatClock(entry.opens)} - ${formatClock(entry.closes)}` : 'Closed';
}

/** Paragraphs of a plain-text field, split on blank lines. */
export function paragraphs(text: string): string[] {
  return text.split(/\n\s*\n/).map((p) => p.trim()).filter(Boolean);
}
