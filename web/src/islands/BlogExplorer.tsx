// The blog list's search box, category filter, featured card and grid. Search ignores case and accents ("camion"
// finds "camión") over the title and the full text (fetched once, on first use, from the build's search index); the
// category must match too. The state lives in the URL (?q=...&category=...) so a filtered list can be shared.
import { t } from '@i18n/islands';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Icon } from '../ui/Icon';
import { PostCard, type PostCardData } from '../ui/PostCard';

export interface BlogExplorerProps {
  posts: (PostCardData & { slug: string; featured: boolean })[];
  /** The categories' labels in the page's language, as each post's `category` shows them (compared as they are). */
  categories: string[];
  searchIndexUrl: string;
}

/** Text as search compares it: lower case, accents and other combining marks dropped (NFD splits them off). */
function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

export default function BlogExplorer({ posts, categories, searchIndexUrl }: BlogExplorerProps) {
  // null: every category. A label of its own would be a value a category's label could take, in some language.
  const [category, setCategory] = useState<string | null>(null);
  const [query, setQuery] = useState('');
  const [texts, setTexts] = useState<Record<string, string> | null>(null);
  const indexRequested = useRef(false);
  const ready = useRef(false);

  const loadIndex = () => {
    if (indexRequested.current) return;
    indexRequested.current = true;
    fetch(searchIndexUrl)
      .then((response) => (response.ok ? (response.json() as Promise<Record<string, string>>) : Promise.reject(response.status)))
      .then(setTexts)
      .catch((error: unknown) => {
        indexRequested.current = false;
        console.warn('Blog search index unavailable; searching titles and excerpts only', error);
      });
  };

  // Start from the URL (after hydration, so the first render matches the prerendered HTML).
  useEffect(() => {
    const params = new URLSearchParams(window.location.search);
    const fromUrl = params.get('category');
    if (fromUrl && categories.includes(fromUrl)) setCategory(fromUrl);
    const q = params.get('q');
    if (q) {
      setQuery(q);
      loadIndex();
    }
    ready.current = true;
  }, []);

  useEffect(() => {
    if (!ready.current) return;
    const url = new URL(window.location.href);
    if (query) url.searchParams.set('q', query);
    else url.searchParams.delete('q');
    if (category !== null) url.searchParams.set('category', category);
    else url.searchParams.delete('category');
    window.history.replaceState(null, '', url);
  }, [query, category]);

  const needle = fold(query.trim());
  const isDefault = category === null && needle === '';
  const featured = isDefault ? posts.find((p) => p.featured) : undefined;

  // Each post's title and text folded once (the full texts are long), not at every keystroke.
  const haystacks = useMemo(
    () => new Map(posts.map((post) => [post.slug, { title: fold(post.title), body: fold(texts?.[post.slug] ?? post.excerpt) }])),
    [posts, texts],
  );
  const matches = useMemo(
    () =>
      posts.filter((post) => {
        if (category !== null && post.category !== category) return false;
        if (!needle) return true;
        const folded = haystacks.get(post.slug);
        return Boolean(folded && (folded.title.includes(needle) || folded.body.includes(needle)));
      }),
    [posts, category, needle, haystacks],
  );
  const grid = featured ? matches.filter((p) => p !== featured) : matches;

  const reset = () => {
    setCategory(null);
    setQuery('');
  };

  return (
    <>
      <div className="bg-ink pb-10 text-white">
        <div className="container-site">
          <form role="search" className="mx-auto max-w-2xl" onSubmit={(event) => event.preventDefault()}>
            <label htmlFor="blog-search" className="sr-only">
              {t('Search articles')}
            </label>
            <div className="relative">
              <Icon name="search" className="pointer-events-none absolute left-4 top-1/2 size-5 -translate-y-1/2 text-muted" />
              <input
                id="blog-search"
                type="search"
                name="q"
                value={query}
                placeholder={t('Search articles...')}
                autoComplete="off"
                onFocus={loadIndex}
                onChange={(event) => {
                  loadIndex();
                  setQuery(event.target.value);
                }}
                className="w-full rounded-xl border-0 bg-white py-3.5 pl-12 pr-4 text-lg text-ink shadow-lg placeholder:text-muted"
              />
            </div>
          </form>
        </div>
      </div>

      <div className="container-site py-10">
        <div role="group" aria-label={t('Filter by category')} className="flex flex-wrap justify-center gap-2">
          {[{ label: t('All Categories'), value: null }, ...categories.map((name) => ({ label: name, value: name }))].map(({ label, value }) => (
            <button
              key={value ?? ''}
              type="button"
              aria-pressed={category === value}
              onClick={() => setCategory(value)}
              className="rounded-full border border-slate-300 px-4 py-2 text-sm font-semibold text-ink hover:border-navy aria-pressed:border-navy aria-pressed:bg-navy aria-pressed:text-white"
            >
              {label}
            </button>
          ))}
        </div>
        <p role="status" className="mt-6 text-center text-sm text-muted">
          {isDefault ? t('{count} articles', { count: posts.length }) : t('Showing {shown} of {total} articles', { shown: matches.length, total: posts.length })}
        </p>

        {featured && (
          <section aria-labelledby="featured-heading" className="mt-8">
            <h2 id="featured-heading" className="mb-4 text-2xl font-bold">
              {t('Featured Article')}
            </h2>
            <PostCard post={featured} featured />
          </section>
        )}

        {matches.length === 0 ? (
          <div className="mx-auto mt-12 max-w-md rounded-2xl border border-dashed border-slate-300 p-10 text-center">
            <Icon name="search" className="mx-auto size-10 text-muted" />
            <h2 className="mt-4 text-2xl font-bold">{t('No articles found')}</h2>
            <p className="mt-2 text-muted">{t('Try adjusting your search or category filter')}</p>
            <button type="button" onClick={reset} className="mt-6 rounded-lg bg-navy px-5 py-2.5 font-semibold text-white hover:bg-ink">
              {t('Reset Filters')}
            </button>
          </div>
        ) : (
          <section aria-labelledby="latest-heading" className="mt-12">
            <h2 id="latest-heading" className="mb-4 text-2xl font-bold">
              {isDefault ? t('Latest Articles') : t('Matching Articles')}
            </h2>
            <div className="grid gap-8 sm:grid-cols-2 lg:grid-cols-3">
              {grid.map((post) => (
                <PostCard key={post.slug} post={post} />
              ))}
            </div>
          </section>
        )}
      </div>
    </>
  );
}
