// Every address the pages link to, typed once: the site's own pages (with the name a link to each shows), a
// product's and a post's address, the phone and e-mail links, and the link lists built from them: the header's
// menus, the footer's columns. Products come from the content, so a product added there joins the menus and the
// sitemap without an edit here. Server-side only (it reads content.ts); islands get addresses through props.
import { changeForm, claimForm, coiForm, contactForm, optOutForm, quoteForm, routes } from '@contract';
import { t } from '@i18n/pages';
import { coverages, menuCoverages, site, vehicles, type Post, type Product } from './content';

/** The addresses the server knows too (crates/contract). */
const paths = routes.pages;

export interface Link {
  href: string;
  label: string;
}

/** The site's own pages; the label is how a list of links (footer, sitemap, 404 page) names the page. */
export const pages = {
  home: { href: paths.home, label: t('Home') },
  quote: { href: paths.quote, label: t('Get a Quote') },
  products: { href: paths.products, label: t('Insurance Products') },
  coverageTypes: { href: paths.coverageTypes, label: t('Coverage Types') },
  about: { href: paths.about, label: t('About Us') },
  contact: { href: paths.contact, label: t('Contact Us') },
  faq: { href: paths.faq, label: t('FAQ') },
  blog: { href: paths.blog, label: t('Blog') },
  partners: { href: paths.partners, label: t('Partners') },
  privacy: { href: paths.privacy, label: t('Privacy Policy') },
  terms: { href: paths.terms, label: t('Terms of Use') },
  sitemap: { href: paths.sitemap, label: t('Sitemap') },
  certificateRequest: { href: paths.certificateRequest, label: t('Certificate Request') },
  optOut: { href: paths.optOut, label: t('Opt Out') },
  reportAClaim: { href: paths.reportAClaim, label: t('Report a Claim') },
  policyChange: { href: paths.policyChange, label: t('Policy Change') },
} as const satisfies Record<string, Link>;

/** Where a form posted without JavaScript lands once stored (the server's 303 goes there). */
export const thankYouPaths = {
  quote: quoteForm.thankYou,
  contact: contactForm.thankYou,
  coi: coiForm.thankYou,
  claim: claimForm.thankYou,
  change: changeForm.thankYou,
  optOut: optOutForm.thankYou,
} as const;

export const productHref = (p: Pick<Product, 'slug'>) => `${paths.products}/${p.slug}`;
export const postHref = (p: Pick<Post, 'slug'>) => `${pages.blog.href}/${p.slug}`;
/** A phone link, from the number in E.164 form. */
export const tel = (e164: string) => `tel:${e164}`;
export const telHref = tel(site.phone_e164);
export const mailHref = `mailto:${site.email}`;

const menuLink = (p: Product): Link => ({ href: productHref(p), label: p.menu_label });

/** The header: two product menus, the company pages (short names: the header is narrow) and the call to action;
 * the mobile menu, which has room, also lists what existing clients come for (`clients`). */
export const header: { vehicles: Link[]; coverages: Link[]; links: Link[]; clients: Link[]; quote: Link } = {
  vehicles: vehicles.map(menuLink),
  coverages: menuCoverages.map(menuLink),
  links: [{ ...pages.about, label: t('About') }, pages.blog, { ...pages.contact, label: t('Contact') }],
  clients: [pages.reportAClaim, pages.policyChange, pages.certificateRequest],
  quote: { ...pages.quote, label: t('Get Quote') },
};

/** The footer's link columns: the three leading products of each kind, the company pages, the next steps (with the
 * visitor's choices beside the privacy policy and terms: the opt-out page), and what existing clients come for. */
export const footerColumns: { title: string; links: Link[] }[] = [
  {
    title: t('Insurance'),
    links: [...vehicles.slice(0, 3), ...coverages.slice(0, 3)].map((p) => ({ href: productHref(p), label: p.title })),
  },
  { title: t('Company'), links: [pages.home, pages.about, pages.partners, pages.blog, pages.faq] },
  { title: t('Get Started'), links: [pages.quote, pages.contact, pages.privacy, pages.terms, pages.optOut, pages.sitemap] },
  { title: t('For Clients'), links: [pages.reportAClaim, pages.policyChange, pages.certificateRequest] },
];
