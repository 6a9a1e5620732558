// /blog: hero, then the BlogExplorer island (search, category filter, featured post, grid, empty state).
import { t } from '@i18n/pages';
import { content, page } from '../content';
import { pages } from '../links';
import BlogExplorer from '../islands/BlogExplorer';
import { Island } from '../ui/Island';
import { CtaBanner } from '../widgets/CtaBanner';
import { postCard } from './postCards';

/** Where the search index of this language's posts is served: below its blog page. */
export const searchIndexPath = () => `${pages.blog.href}/search.json`;

export function BlogList() {
  const copy = page<{ heading: string; intro: string }>('blog');
  return (
    <>
      <section aria-labelledby="blog-title" className="bg-ink pb-8 pt-16 text-center text-white md:pt-20">
        <div className="container-site max-w-3xl">
          <p className="kicker !text-amber">Blog</p>
          <h1 id="blog-title" className="mt-3 text-4xl font-extrabold tracking-tight md:text-5xl">
            {copy.heading}
          </h1>
          <p className="mt-4 text-lg text-slate-200">{copy.intro}</p>
        </div>
      </section>
      <Island
        name="BlogExplorer"
        component={BlogExplorer}
        props={{ posts: content.posts.map(postCard), categories: content.categories.map((category) => t(category)), searchIndexUrl: searchIndexPath() }}
      />
      <CtaBanner
        variant="secondary"
        title={t('Questions About Your Coverage?')}
        text={t('A trucking insurance specialist can review your operation and compare quotes from several carriers.')}
      />
    </>
  );
}

/** The search index fetched by BlogExplorer on first use: slug -> the post's full text. */
export function searchIndex(): string {
  return JSON.stringify(Object.fromEntries(content.posts.map((p) => [p.slug, `${p.title} ${p.text}`])));
}
