// Structured data (schema.org JSON-LD) built from the content: one phone, one set of hours, everywhere.
import { locale } from '@i18n/locale';
import { t } from '@i18n/pages';
import { site, type Post } from './content';
import { pages } from './links';
import { imageUrl } from './ui/Image';

/** The states the agency is licensed in (content/facts.toml), the only places it may sell. */
const areaServed = site.licenses.map((license) => ({ '@type': 'State', name: license.state_name }));

export type JsonLd = Record<string, unknown>;

export const absoluteUrl = (path: string) => `${site.base_url}${path === '/' ? '/' : path}`;

export function insuranceAgency(): JsonLd {
  return {
    '@context': 'https://schema.org',
    '@type': 'InsuranceAgency',
    '@id': `${site.base_url}/#agency`,
    name: site.brand,
    legalName: site.legal_name,
    description: site.description,
    url: absoluteUrl(pages.home.href),
    logo: absoluteUrl(imageUrl('logo.svg')),
    telephone: site.phone_e164,
    email: site.email,
    foundingDate: String(site.founded),
    areaServed,
    address: {
      '@type': 'PostalAddress',
      streetAddress: site.address.street,
      addressLocality: site.address.city,
      addressRegion: site.address.region,
      postalCode: site.address.postal_code,
      addressCountry: site.address.country,
    },
    openingHoursSpecification: site.hours
      .filter((h) => h.opens && h.closes)
      .map((h) => ({ '@type': 'OpeningHoursSpecification', dayOfWeek: h.days, opens: h.opens, closes: h.closes })),
    sameAs: Object.values(site.social).filter(Boolean),
  };
}

export function blogPosting(post: Post, path: string): JsonLd {
  return {
    '@context': 'https://schema.org',
    '@type': 'BlogPosting',
    headline: post.title,
    description: post.excerpt,
    articleSection: t(post.category),
    inLanguage: locale.htmlLang,
    datePublished: post.date,
    dateModified: post.date,
    author: { '@type': 'Person', name: post.author, jobTitle: t('Insurance Specialist') },
    publisher: { '@id': `${site.base_url}/#agency`, '@type': 'InsuranceAgency', name: site.brand },
    image: absoluteUrl(imageUrl(post.image)),
    mainEntityOfPage: absoluteUrl(path),
    wordCount: post.text.split(/\s+/).length,
  };
}

export function breadcrumbs(trail: { name: string; path: string }[]): JsonLd {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: trail.map((step, i) => ({
      '@type': 'ListItem',
      position: i + 1,
      name: step.name,
      item: absoluteUrl(step.path),
    })),
  };
}

/** A product page as a Service, with the offer fields of the spec (USD, valid until the date in content/facts.toml). */
export function insuranceService(product: { title: string; description: string; slug: string; menu_label: string }, path: string): JsonLd {
  return {
    '@context': 'https://schema.org',
    '@type': 'Service',
    name: product.title,
    serviceType: t('{product} insurance', { product: product.menu_label }),
    description: product.description,
    url: absoluteUrl(path),
    areaServed,
    provider: { '@type': 'InsuranceAgency', '@id': `${site.base_url}/#agency`, name: site.brand, telephone: site.phone_e164 },
    offers: {
      '@type': 'Offer',
      url: absoluteUrl(pages.quote.href),
      priceCurrency: 'USD',
      price: '0',
      description: t('Free, no-obligation quote'),
      priceValidUntil: site.offer_valid_until,
      validThrough: site.offer_valid_until,
      availability: 'https://schema.org/InStock',
    },
  };
}

export function faqPage(items: { question: string; answer: string }[]): JsonLd {
  return {
    '@context': 'https://schema.org',
    '@type': 'FAQPage',
    inLanguage: locale.htmlLang,
    mainEntity: items.map((item) => ({
      '@type': 'Question',
      name: item.question,
      acceptedAnswer: { '@type': 'Answer', text: item.answer },
    })),
  };
}
