// Every page of the site, in one list: its path, the file the prerender writes, its <head> and its component.
// sitemap.xml and the human-readable /sitemap are built from this list, so a page cannot be left out of either.
import type { ReactElement } from 'react';
import { content, site } from './content';
import { blogPosting, breadcrumbs, insuranceAgency, type JsonLd } from './jsonld';
import { BlogList } from './pages/BlogList';
import { BlogPost } from './pages/BlogPost';
import { Home } from './pages/Home';
import { BlogPostNotFound, ErrorPage, NotFound } from './pages/NotFound';

export interface Head {
  title: string;
  description: string;
  path: string;
  jsonLd?: JsonLd[];
  noindex?: boolean;
  type?: 'website' | 'article';
}

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

function page(path: string, title: string, description: string, render: () => ReactElement, group: string, label: string, extra: Partial<Head> = {}): Route {
  return { path, file: fileFor(path), head: { title: titled(title), description, path, ...extra }, render, sitemap: { group, label } };
}

export function routes(): Route[] {
  const blog = content.pages.blog!;
  const list: Route[] = [
    page('/', content.home.title, content.home.description, () => <Home />, 'Main pages', 'Home', { jsonLd: [insuranceAgency()] }),
    page('/blog', blog.title, blog.description, () => <BlogList />, 'Main pages', 'Blog', {
      jsonLd: [breadcrumbs([{ name: 'Home', path: '/' }, { name: 'Blog', path: '/blog' }])],
    }),
  ];
  for (const post of content.posts) {
    const path = `/blog/${post.slug}`;
    const route = page(path, post.title, post.excerpt, () => <BlogPost post={post} />, 'Blog articles', post.title, {
      type: 'article',
      jsonLd: [
        blogPosting(post, path),
        breadcrumbs([{ name: 'Home', path: '/' }, { name: 'Blog', path: '/blog' }, { name: post.title, path }]),
      ],
    });
    route.sitemap!.lastmod = post.date;
    list.push(route);
  }
  return list;
}

/** Pages the server answers with an error status; never listed, never indexed. */
export function errorRoutes(): Route[] {
  const error = (file: string, title: string, render: () => ReactElement): Route => ({
    path: `/${file}`,
    file,
    head: { title: titled(title), description: site.description, path: '/', noindex: true },
    render,
  });
  return [
    error('_errors/404.html', 'Page Not Found', () => <NotFound />),
    error('_errors/blog-404.html', 'Blog Post Not Found', () => <BlogPostNotFound />),
    error('_errors/400.html', 'Bad Request', () => <ErrorPage status={400} />),
    error('_errors/500.html', 'Something Went Wrong', () => <ErrorPage status={500} />),
  ];
}
