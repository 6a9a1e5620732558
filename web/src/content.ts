// The site's content as build.rs hands it over (content/ read, checked, Markdown rendered), with the derived
// facts that pages share. Server-side only: islands get what they need through props, never this module.
import raw from '@content';

export interface Site {
  brand: string;
  legal_name: string;
  description: string;
  phone: string;
  phone_e164: string;
  email: string;
  base_url: string;
  founded: number;
  offer_valid_until: string;
  address: { street: string; city: string; region: string; postal_code: string; country: string };
  hours: { label: string; days: string[]; opens?: string; closes?: string }[];
  licenses: { state: string; state_name: string; number: string }[];
  /** A claims line that answers around the clock, when the agency has one. */
  claims?: { name: string; phone: string; phone_e164: string };
  /** How claims are reported around the clock: the claims line, or the insurer's line on the policy documents. */
  claims_text: string;
  social: Partial<Record<'facebook' | 'instagram' | 'linkedin' | 'x' | 'youtube', string>>;
}

export interface TitledText {
  title: string;
  text: string;
}

export interface Faq {
  question: string;
  answer: string;
}

export interface Product {
  slug: string;
  kind: 'vehicle' | 'coverage';
  order: number;
  title: string;
  menu_label: string;
  description: string;
  card_description: string;
  features: string[];
  min_coverage?: string;
  required_by?: string;
  on_products_page: boolean;
  insurance_type: string;
  overview: string;
  coverage_points: string[];
  benefits: string[];
  types_heading?: string;
  types?: string[];
  image: string;
  image_alt: string;
  faqs: Faq[];
}

export interface Post {
  slug: string;
  title: string;
  /** The <title> when `title` is too long for a search result. */
  seo_title?: string;
  excerpt: string;
  /** The meta description when the excerpt does not fit one. */
  description?: string;
  category: string;
  date: string;
  author: string;
  featured: boolean;
  image: string;
  image_alt: string;
  reading_minutes: number;
  html: string;
  text: string;
}

export interface Document {
  slug: string;
  title: string;
  description: string;
  updated: string;
  html: string;
}

export interface Content {
  site: Site;
  forms: { consent_version: string; consent_text: string; insurance_types: { value: string; label: string }[] };
  home: { title: string; description: string; hero: { headline: string; subtext: string }; why: TitledText[] };
  testimonials: { name: string; position: string; content: string; rating: number }[];
  faq: Faq[];
  products: Product[];
  pages: Record<string, Record<string, unknown> & { title: string; description: string }>;
  documents: Document[];
  posts: Post[];
  categories: string[];
  images: string[];
}

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
