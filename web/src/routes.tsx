// Every page of the site, in one list: its path, the file the prerender writes, its <head> and its component.
// sitemap.xml and the human-readable /sitemap are built from this list, so a page cannot be left out of either.
import type { ReactElement } from 'react';
import { content, document, page as pageCopy, productHref, site } from './content';
import { blogPosting, breadcrumbs, faqPage, insuranceAgency, insuranceService, type JsonLd } from './jsonld';
import { BlogList } from './pages/BlogList';
import { BlogPost } from './pages/BlogPost';
import { Home } from './pages/Home';
import { About, Contact, CoverageTypes, DocumentPage, FaqPage, GetQuote, ProductsOverview, SitemapPage } from './pages/InfoPages';
import { FormCorrection, ThankYou } from './pages/FormPages';
import { BlogPostNotFound, ErrorPage, NotFound } from './pages/NotFound';
import { ProductPage } from './pages/ProductPage';

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
const fields = (file: string, title = 'title', description = 'description'): HeadSource => ({ file, title, description });
const THIS_FILE = fields('web/src/routes.tsx', 'page title', 'page description');

export interface Route {
  path: string;
  /** Where the prerendered HTML goes, relative to the site root. */
  file: string;
  head: Head;
  render: () => ReactElement;
  /** For sitemap.xml; pages without it (the error pages) are not listed. */
  sitemap?: { lastmod?: string; group: string; label: string };
}

const fileFor = (path: string) => (path === '/' ? 'index.html' : `${path.slice(1)}/index.html`);
const titled = (title: string) => `${title} | ${site.brand}`;

function page(path: string, title: string, description: string, source: HeadSource, render: () => ReactElement, group: string, label: string, extra: Partial<Head> = {}): Route {
  return { path, file: fileFor(path), head: { title: titled(title), description, source, path, ...extra }, render, sitemap: { group, label } };
}

const crumbs = (...trail: { name: string; path: string }[]) => breadcrumbs([{ name: 'Home', path: '/' }, ...trail]);

/** A page whose title and description come from content/pages/<name>.toml. */
function copyPage(path: string, name: string, render: () => ReactElement, group: string, label: string, jsonLd: JsonLd[] = []): Route {
  const copy = pageCopy<object>(name);
  return page(path, copy.title, copy.description, fields(`content/pages/${name}.toml`), render, group, label, { jsonLd: [...jsonLd, crumbs({ name: label, path })] });
}

export function routes(): Route[] {
  const list: Route[] = [
    page('/', content.home.title, content.home.description, fields('content/home.toml'), () => <Home />, 'Main pages', 'Home', { jsonLd: [insuranceAgency()] }),
    copyPage('/get-quote', 'get-quote', () => <GetQuote />, 'Main pages', 'Get a Quote'),
    copyPage('/products', 'products', () => <ProductsOverview />, 'Main pages', 'Insurance Products'),
    copyPage('/coverage-types', 'coverage-types', () => <CoverageTypes />, 'Main pages', 'Coverage Types', [
      faqPage((content.pages['coverage-types']?.faq as { question: string; answer: string }[] | undefined) ?? []),
    ]),
    copyPage('/about', 'about', () => <About />, 'Company', 'About Us'),
    copyPage('/contact', 'contact', () => <Contact />, 'Company', 'Contact Us', [insuranceAgency()]),
    page('/faq', 'Frequently Asked Questions', `Answers to common questions about trucking insurance, filings, quotes and claims from ${site.brand}.`, THIS_FILE, () => <FaqPage />, 'Company', 'FAQ', {
      jsonLd: [faqPage(content.faq), crumbs({ name: 'FAQ', path: '/faq' })],
    }),
  ];
  for (const slug of ['partners', 'privacy', 'terms']) {
    const doc = document(slug);
    const path = `/${slug}`;
    list.push(page(path, doc.title, doc.description, fields(`content/pages/${slug}.md`), () => <DocumentPage slug={slug} />, 'Company', doc.title, { jsonLd: [crumbs({ name: doc.title, path })] }));
  }
  for (const product of content.products) {
    const path = productHref(product);
    const group = product.kind === 'vehicle' ? 'Insurance by vehicle type' : 'Insurance by coverage type';
    list.push(
      page(path, product.title, product.description, fields(`content/products/${product.slug}.toml`), () => <ProductPage product={product} />, group, product.title, {
        jsonLd: [
          insuranceService(product, path),
          crumbs({ name: 'Products', path: '/products' }, { name: product.title, path }),
          ...(product.faqs.length > 0 ? [faqPage(product.faqs)] : []),
        ],
      }),
    );
  }
  const blog = content.pages.blog!;
  list.push(page('/blog', blog.title, blog.description, fields('content/pages/blog.toml'), () => <BlogList />, 'Blog articles', 'Blog', { jsonLd: [crumbs({ name: 'Blog', path: '/blog' })] }));
  for (const post of content.posts) {
    const path = `/blog/${post.slug}`;
    const source = fields(`content/blog/${post.slug}.md`, post.seo_title ? 'seo_title' : 'title', post.description ? 'description' : 'excerpt');
    const route = page(path, post.seo_title ?? post.title, post.description ?? post.excerpt, source, () => <BlogPost post={post} />, 'Blog articles', post.title, {
      type: 'article',
      jsonLd: [blogPosting(post, path), crumbs({ name: 'Blog', path: '/blog' }, { name: post.title, path })],
    });
    route.sitemap!.lastmod = post.date;
    list.push(route);
  }
  // The human-readable sitemap lists every page above, itself included, grouped as in sitemap.xml.
  const sitemapRoute = page('/sitemap', 'Sitemap', `Every page of the ${site.brand} website: insurance by vehicle and coverage type, company pages and blog articles.`, THIS_FILE, () => <SitemapPage groups={groups} />, 'Company', 'Sitemap');
  list.push(sitemapRoute);
  const groups = sitemapGroups(list);
  return list;
}

function sitemapGroups(list: Route[]) {
  const order: string[] = [];
  const byGroup = new Map<string, { href: string; label: string }[]>();
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

/** Pages outside the sitemap, never indexed: form results and the pages the server answers errors with. */
export function errorRoutes(): Route[] {
  const error = (file: string, title: string, render: () => ReactElement): Route => ({
    path: `/${file}`,
    file,
    head: { title: titled(title), description: site.description, source: { file: 'content/site.toml', title: 'brand (with the title in web/src/routes.tsx)', description: 'description' }, path: '/', noindex: true },
    render,
  });
  const thanks = (path: string, title: string, text: string): Route => ({
    ...error(`${path.slice(1)}/index.html`, title, () => <ThankYou title={title} text={text} />),
    path,
  });
  return [
    thanks('/get-quote/thank-you', 'Quote request submitted!', 'A trucking insurance specialist will contact you shortly.'),
    thanks('/contact/thank-you', 'Message received!', "Thank you for contacting us. We'll respond shortly."),
    error('_forms/quote.html', 'Please Check Your Details', () => <FormCorrection form="quote" />),
    error('_forms/contact.html', 'Please Check Your Details', () => <FormCorrection form="contact" />),
    error('_errors/404.html', 'Page Not Found', () => <NotFound />),
    error('_errors/blog-404.html', 'Blog Post Not Found', () => <BlogPostNotFound />),
    error('_errors/400.html', 'Bad Request', () => <ErrorPage status={400} />),
    error('_errors/500.html', 'Something Went Wrong', () => <ErrorPage status={500} />),
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
        `${head.source.file}: field \`${head.source.title}\` (${path}): the title "${head.title}" is ${titleLength} characters with the brand; at most ${TITLE_MAX} fit a search result`,
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
