// The blog list's search box, category filter, featured card and grid. Search is case-insensitive over the title
// and the full text (fetched once, on first use, from the build's search index); the category must match too.
// The state lives in the URL (?q=...&category=...) so a filtered list can be shared.
import { useEffect, useMemo, useRef, useState } from 'react';
import { Icon } from '../ui/Icon';
import { PostCard, type PostCardData } from '../ui/PostCard';

export const ALL_CATEGORIES = 'All Categories';

export interface BlogExplorerProps {
  posts: (PostCardData & { slug: string; featured: boolean })[];
  categories: string[];
  searchIndexUrl: string;
}

export default function BlogExplorer({ posts, categories, searchIndexUrl }: BlogExplorerProps) {
  const [category, setCategory] = useState(ALL_CATEGORIES);
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
    if (category !== ALL_CATEGORIES) url.searchParams.set('category', category);
    else url.searchParams.delete('category');
    window.history.replaceState(null, '', url);
  }, [query, category]);

  const needle = query.trim().toLowerCase();
  const isDefault = category === ALL_CATEGORIES && needle === '';
  const featured = isDefault ? posts.find((p) => p.featured) : undefined;

  const matches = useMemo(
    () =>
      posts.filter((post) => {
        if (category !== ALL_CATEGORIES && post.category !== category) return false;
        if (!needle) return true;
        const body = texts?.[post.slug] ?? post.excerpt;
        return post.title.toLowerCase().includes(needle) || body.toLowerCase().includes(needle);
      }),
    [posts, category, needle, texts],
  );
  const grid = featured ? matches.filter((p) => p !== featured) : matches;

  const reset = () => {
    setCategory(ALL_CATEGORIES);
    setQuery('');
  };

  return (
    <>
      <div className="bg-ink pb-10 text-white">
        <div className="container-site">
          <form role="search" className="mx-auto max-w-2xl" onSubmit={(event) => event.preventDefault()}>
            <label htmlFor="blog-search" className="sr-only">
              Search articles
            </label>
            <div className="relative">
              <Icon name="search" className="pointer-events-none absolute left-4 top-1/2 size-5 -translate-y-1/2 text-muted" />
              <input
                id="blog-search"
                type="search"
                name="q"
                value={query}
                placeholder="Search articles..."
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
        <div role="group" aria-label="Filter by category" className="flex flex-wrap justify-center gap-2">
          {[ALL_CATEGORIES, ...categories].map((name) => (
            <button
              key={name}
              type="button"
              aria-pressed={category === name}
              onClick={() => setCategory(name)}
              className="rounded-full border border-slate-300 px-4 py-2 text-sm font-semibold text-ink hover:border-navy aria-pressed:border-navy aria-pressed:bg-navy aria-pressed:text-white"
            >
              {name}
            </button>
          ))}
        </div>
        <p role="status" className="mt-6 text-center text-sm text-muted">
          {isDefault ? `${posts.length} articles` : `Showing ${matches.length} of ${posts.length} articles`}
        </p>

        {featured && (
          <section aria-labelledby="featured-heading" className="mt-8">
            <h2 id="featured-heading" className="mb-4 text-2xl font-bold">
              Featured Article
            </h2>
            <PostCard post={featured} featured />
          </section>
        )}

        {matches.length === 0 ? (
          <div className="mx-auto mt-12 max-w-md rounded-2xl border border-dashed border-slate-300 p-10 text-center">
            <Icon name="search" className="mx-auto size-10 text-muted" />
            <h2 className="mt-4 text-2xl font-bold">No articles found</h2>
            <p className="mt-2 text-muted">Try adjusting your search or category filter</p>
            <button type="button" onClick={reset} className="mt-6 rounded-lg bg-navy px-5 py-2.5 font-semibold text-white hover:bg-ink">
              Reset Filters
            </button>
          </div>
        ) : (
          <section aria-labelledby="latest-heading" className="mt-12">
            <h2 id="latest-heading" className="mb-4 text-2xl font-bold">
              {isDefault ? 'Latest Articles' : 'Matching Articles'}
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
