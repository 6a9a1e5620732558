// Every page of the site, in one list: its path, the file the prerender writes, its <head> and its component.
// sitemap.xml and the human-readable /sitemap are built from this list, so a page cannot be left out of either.
import { changeForm, changeMessages, claimForm, coiForm, contactForm, detailsForm, markers, optOutForm, quoteForm, routes as addresses, type FormId } from '@contract';
import { locale } from '@i18n/locale';
import { t } from '@i18n/pages';
import type { ReactElement } from 'react';
import { content, document, page as pageCopy, site } from './content';
import { englishPath } from './i18n/paths';
import { blogPosting, breadcrumbs, faqPage, insuranceAgency, insuranceService, type JsonLd } from './jsonld';
import { pages, postHref, productHref, thankYouPaths, type Link } from './links';
import { About } from './pages/About';
import { BlogList } from './pages/BlogList';
import { BlogPost } from './pages/BlogPost';
import { BlogPostNotFound } from './pages/BlogPostNotFound';
import { CertificateRequest } from './pages/CertificateRequest';
import { Contact } from './pages/Contact';
import { CoverageTypes } from './pages/CoverageTypes';
import { DocumentPage } from './pages/DocumentPage';
import { ErrorPage } from './pages/ErrorPage';
import { FaqPage } from './pages/FaqPage';
import { FormCorrection } from './pages/FormCorrection';
import { GetQuote } from './pages/GetQuote';
import { Home } from './pages/Home';
import { NotFound } from './pages/NotFound';
import { OptOut, type OptOutCopy } from './pages/OptOut';
import { OptOutReceived } from './pages/OptOutReceived';
import { PolicyChange, type ChangeCopy } from './pages/PolicyChange';
import { ProductPage } from './pages/ProductPage';
import { ProductsOverview } from './pages/ProductsOverview';
import { QuoteDetailsOffer } from './pages/QuoteDetailsOffer';
import { ReportAClaim, type ClaimCopy } from './pages/ReportAClaim';
import { SitemapPage } from './pages/SitemapPage';
import { ThankYou } from './pages/ThankYou';

export interface Head {
  title: string;
  description: string;
  /** Where the title and description are written, for the build's message when one does not fit. */
  source: HeadSource;
  path: string;
  jsonLd?: JsonLd[];
  noindex?: boolean;
  type?: 'website' | 'article';
}

export interface HeadSource {
  file: string;
  title: string;
  description: string;
}

/** The fields of a content file, or this file for the few titles written here. */
const fields = (file: string, title = 'title', description = 'description'): HeadSource => ({
  file: locale.code === 'es' ? file.replace(/^content\//, 'content/es/') : file,
  title,
  description,
});
const THIS_FILE: HeadSource = {
  file: locale.code === 'es' ? 'web/src/i18n/es/pages.ts' : 'web/src/routes.tsx',
  title: 'page title',
  description: 'page description',
};

export interface Route {
  path: string;
  /** Where the prerendered HTML goes, relative to the site root. */
  file: string;
  head: Head;
  render: () => ReactElement;
  /** The page whose other-language version the language switch leads to, when not this one (a form's correction
   * page, which only a post answers with, switches to the form's own page). */
  languageSwitch?: string;
  /** For sitemap.xml; pages without it (the error pages) are not listed. */
  sitemap?: { lastmod?: string; group: string; label: string };
}

const fileFor = (path: string) => (path === '/' ? 'index.html' : `${path.slice(1)}/index.html`);
const titled = (title: string) => `${title} | ${site.short_brand}`;

/** The page `link` leads to, listed in the sitemap under `group` with the link's label. */
function page(link: Link, title: string, description: string, source: HeadSource, render: () => ReactElement, group: string, extra: Partial<Head> = {}): Route {
  const path = link.href;
  return { path, file: fileFor(path), head: { title: titled(title), description, source, path, ...extra }, render, sitemap: { group, label: link.label } };
}

const crumbs = (...trail: Link[]) => breadcrumbs([pages.home, ...trail].map((link) => ({ name: link.label, path: link.href })));

/** A page whose title and description come from content/pages/<name>.toml. */
function copyPage(link: Link, name: string, render: () => ReactElement, group: string, jsonLd: JsonLd[] = []): Route {
  const copy = pageCopy<object>(name);
  return page(link, copy.title, copy.description, fields(`content/pages/${name}.toml`), render, group, { jsonLd: [...jsonLd, crumbs(link)] });
}

export function routes(): Route[] {
  const list: Route[] = [
    page(pages.home, content.home.title, content.home.description, fields('content/home.toml'), () => <Home />, t('Main pages'), { jsonLd: [insuranceAgency()] }),
    copyPage(pages.quote, 'get-quote', () => <GetQuote />, t('Main pages')),
    copyPage(pages.products, 'products', () => <ProductsOverview />, t('Main pages')),
    copyPage(pages.coverageTypes, 'coverage-types', () => <CoverageTypes />, t('Main pages'), [
      faqPage((content.pages['coverage-types']?.faq as { question: string; answer: string }[] | undefined) ?? []),
    ]),
    copyPage(pages.about, 'about', () => <About />, t('Company')),
    copyPage(pages.contact, 'contact', () => <Contact />, t('Company'), [insuranceAgency()]),
    copyPage(pages.certificateRequest, 'certificate-request', () => <CertificateRequest />, t('Company')),
    copyPage(pages.reportAClaim, 'report-a-claim', () => <ReportAClaim />, t('Company')),
    copyPage(pages.policyChange, 'policy-change', () => <PolicyChange />, t('Company')),
    copyPage(pages.optOut, 'opt-out', () => <OptOut />, t('Company')),
    page(pages.faq, t('Frequently Asked Questions'), t('Answers to common questions about trucking insurance, filings, quotes and claims from {brand}.', { brand: site.brand }), THIS_FILE, () => <FaqPage />, t('Company'), {
      jsonLd: [faqPage(content.faq), crumbs(pages.faq)],
    }),
  ];
  for (const { href } of [pages.partners, pages.privacy, pages.terms]) {
    const slug = englishPath(href).slice(1);
    const doc = document(slug);
    const link = { href, label: doc.title };
    list.push(page(link, doc.title, doc.description, fields(`content/pages/${slug}.md`), () => <DocumentPage slug={slug} />, t('Company'), { jsonLd: [crumbs(link)] }));
  }
  for (const product of content.products) {
    const link = { href: productHref(product), label: product.title };
    const group = product.kind === 'vehicle' ? t('Insurance by vehicle type') : t('Insurance by coverage type');
    list.push(
      page(link, product.title, product.description, fields(`content/products/${product.slug}.toml`), () => <ProductPage product={product} />, group, {
        jsonLd: [
          insuranceService(product, link.href),
          crumbs({ ...pages.products, label: t('Products') }, link),
          ...(product.faqs.length > 0 ? [faqPage(product.faqs)] : []),
        ],
      }),
    );
  }
  const blog = content.pages.blog!;
  list.push(page(pages.blog, blog.title, blog.description, fields('content/pages/blog.toml'), () => <BlogList />, t('Blog articles'), { jsonLd: [crumbs(pages.blog)] }));
  for (const post of content.posts) {
    const link = { href: postHref(post), label: post.title };
    const source = fields(`content/blog/${post.slug}.md`, post.seo_title ? 'seo_title' : 'title', post.description ? 'description' : 'excerpt');
    const route = page(link, post.seo_title ?? post.title, post.description ?? post.excerpt, source, () => <BlogPost post={post} />, t('Blog articles'), {
      type: 'article',
      jsonLd: [blogPosting(post, link.href), crumbs(pages.blog, link)],
    });
    route.sitemap!.lastmod = post.date;
    list.push(route);
  }
  // The human-readable sitemap lists every page above, itself included, grouped as in sitemap.xml.
  const sitemapRoute = page(pages.sitemap, t('Sitemap'), t('Every page of the {brand} website: insurance by vehicle and coverage type, company pages and blog articles.', { brand: site.brand }), THIS_FILE, () => <SitemapPage groups={groups} />, t('Company'));
  list.push(sitemapRoute);
  const groups = sitemapGroups(list);
  return list;
}

function sitemapGroups(list: Route[]) {
  const order: string[] = [];
  const byGroup = new Map<string, Link[]>();
  for (const route of list) {
    if (!route.sitemap) continue;
    const { group, label } = route.sitemap;
    if (!byGroup.has(group)) {
      byGroup.set(group, []);
      order.push(group);
    }
    byGroup.get(group)!.push({ href: route.path, label });
  }
  return order.map((title) => ({ title, links: byGroup.get(title)! }));
}

const errorPages = addresses.errorPages;

/** Pages outside the sitemap, never indexed: form results and the pages the server answers errors with. */
export function errorRoutes(): Route[] {
  const error = (file: string, title: string, render: () => ReactElement): Route => ({
    path: `/${file}`,
    file,
    head: { title: titled(title), description: site.description, source: { file: 'content/site.toml', title: 'brand (in content/facts.toml, with the title in web/src/routes.tsx)', description: 'description' }, path: '/', noindex: true },
    render,
  });
  const thanks = (path: string, englishTitle: string, englishText: string): Route => {
    const [title, text] = [t(englishTitle), t(englishText)];
    return { ...error(`${path.slice(1)}/index.html`, title, () => <ThankYou title={title} text={text} />), path };
  };
  const optOutReceived = pageCopy<OptOutCopy>('opt-out').received;
  // The clients' requests (issue 28), in their pages' words: a claim's reference goes by e-mail (this page cannot
  // know it), and a change is not in force until the agency confirms it.
  const claimReceived = pageCopy<ClaimCopy>('report-a-claim').received;
  const change = pageCopy<ChangeCopy>('policy-change');
  // A form's correction page: its language switch leads to the form's page in the other language.
  const correction = (file: string, form: FormId | 'optOut', formPage: Link): Route => ({
    ...error(file, t('Please Check Your Details'), () => <FormCorrection form={form} />),
    languageSwitch: formPage.href,
  });
  const landing = (path: string, title: string, render: () => ReactElement): Route => ({ ...error(`${path.slice(1)}/index.html`, title, render), path });
  // The request's reference, which the server fills in after a plain form post (`?reference=`); hidden when empty.
  const reference = (
    <p className="mt-4 text-lg has-[strong:empty]:hidden">
      {t('Your reference:')} <strong className="font-mono">{markers.reference}</strong>
    </p>
  );
  return [
    thanks(thankYouPaths.quote, 'Quote request submitted!', 'A trucking insurance specialist will contact you shortly.'),
    thanks(thankYouPaths.contact, 'Message received!', "Thank you for contacting us. We'll respond shortly."),
    thanks(thankYouPaths.coi, 'Certificate request received!', 'We will e-mail the certificate, usually the same business day. If a load is waiting on it, call us too.'),
    correction(quoteForm.correctionPage, 'quote', pages.quote),
    correction(contactForm.correctionPage, 'contact', pages.contact),
    correction(coiForm.correctionPage, 'coi', pages.certificateRequest),
    landing(thankYouPaths.claim, claimReceived.heading, () => (
      <ThankYou title={claimReceived.heading} text={claimReceived.text}>
        {reference}
        <p className="mt-4 text-muted">{claimReceived.emailed}</p>
      </ThankYou>
    )),
    correction(claimForm.correctionPage, 'claim', pages.reportAClaim),
    landing(thankYouPaths.change, change.received.heading, () => (
      <ThankYou title={change.received.heading} text={change.received.text}>
        {reference}
        <p className="mt-4 text-lg font-semibold">{changeMessages.notInForceUntilConfirmed}</p>
        <p className="mt-2 text-muted">{change.after_hours}</p>
      </ThankYou>
    )),
    correction(changeForm.correctionPage, 'change', pages.policyChange),
    // What happens after an opt-out, in content/pages/opt-out.toml's words (the form's "received" panel shows them too).
    { ...error(`${thankYouPaths.optOut.slice(1)}/index.html`, optOutReceived.heading, () => <OptOutReceived />), path: thankYouPaths.optOut },
    correction(optOutForm.correctionPage, 'optOut', pages.optOut),
    error(detailsForm.correctionPage, t('Quote request submitted!'), () => <QuoteDetailsOffer />),
    thanks(detailsForm.thankYou, 'Details received!', 'Thank you: your specialist has what the underwriters ask for, and will call you soon.'),
    error(errorPages.notFound, t('Page Not Found'), () => <NotFound />),
    error(errorPages.blogPostNotFound, t('Blog Post Not Found'), () => <BlogPostNotFound />),
    error(errorPages.badRequest, t('Bad Request'), () => <ErrorPage status={400} />),
    error(errorPages.serverError, t('Something Went Wrong'), () => <ErrorPage status={500} />),
  ];
}

/** The longest `<title>` and the range of meta descriptions that a search result shows whole. */
export const TITLE_MAX = 60;
export const DESCRIPTION_RANGE = [70, 160] as const;

/** Every page's title and description fit a search result; otherwise one line per misfit, naming file and field. */
export function headProblems(list: Route[]): string[] {
  const problems: string[] = [];
  for (const { path, head } of list) {
    const titleLength = [...head.title].length;
    if (titleLength > TITLE_MAX) {
      problems.push(
        `${head.source.file}: field \`${head.source.title}\` (${path}): the title "${head.title}" is ${titleLength} characters with the brand; at most ${TITLE_MAX} fit a search result: shorten the title, or set a shorter \`short_brand\` in content/facts.toml for the titles`,
      );
    }
    const descriptionLength = [...head.description].length;
    const [least, most] = DESCRIPTION_RANGE;
    if (descriptionLength < least || descriptionLength > most) {
      problems.push(
        `${head.source.file}: field \`${head.source.description}\` (${path}): the meta description is ${descriptionLength} characters; it must be ${least} to ${most}`,
      );
    }
  }
  return problems;
}
