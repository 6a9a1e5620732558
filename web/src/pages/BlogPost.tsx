// /blog/<slug>: back link, title and meta, hero image, excerpt, body, author box, related posts, call to action.
import { t } from '@i18n/pages';
import { content, formatDate, type Post } from '../content';
import { pages } from '../links';
import { Icon } from '../ui/Icon';
import { Image } from '../ui/Image';
import { PostCard } from '../ui/PostCard';
import { CtaBanner } from '../widgets/CtaBanner';
import { postCard } from './postCards';

/** Where the reader goes next: up to 2 related articles (same category, as the spec says) or, when the category
 * has no other article, the 2 newest others under a heading that says so. */
export function nextReading(post: Post): { heading: string; posts: Post[] } {
  const others = content.posts.filter((p) => p.slug !== post.slug);
  const related = others.filter((p) => p.category === post.category).slice(0, 2);
  return related.length > 0 ? { heading: t('Related Articles'), posts: related } : { heading: t('More from the Blog'), posts: others.slice(0, 2) };
}

export function BlogPost({ post }: { post: Post }) {
  const next = nextReading(post);
  return (
    <>
      <article aria-labelledby="post-title">
        <header className="bg-mist pb-10 pt-10 md:pt-14">
          <div className="container-site max-w-3xl">
            <a href={pages.blog.href} className="inline-flex items-center gap-2 font-semibold text-steel hover:text-navy">
              <Icon name="arrowLeft" className="size-4" />{' '}{t('Back to all articles')}
            </a>
            {/* The category as a label (kicker), not a pill that would read as a button. */}
            <p className="kicker mt-6">{t(post.category)}</p>
            <h1 id="post-title" className="mt-4 text-3xl font-extrabold tracking-tight text-balance md:text-5xl">
              {post.title}
            </h1>
            <p className="mt-5 flex flex-wrap items-center gap-x-5 gap-y-2 text-muted">
              <span className="flex items-center gap-1.5">
                <Icon name="user" className="size-4" /> {post.author}
              </span>
              <span className="flex items-center gap-1.5">
                <Icon name="calendar" className="size-4" />
                <time dateTime={post.date}>{formatDate(post.date)}</time>
              </span>
              <span className="flex items-center gap-1.5">
                <Icon name="clock" className="size-4" /> {post.reading_minutes}{' '}{t('min read')}
              </span>
            </p>
          </div>
        </header>
        <div className="container-site max-w-3xl">
          <div className="-mt-2 overflow-hidden rounded-2xl bg-sky shadow-lg">
            <Image path={post.image} alt={post.image_alt} width={1200} height={630} eager className="h-auto w-full" />
          </div>
          <p className="mt-10 text-xl leading-relaxed text-ink">{post.excerpt}</p>
          <div className="prose mt-8" dangerouslySetInnerHTML={{ __html: post.html }} />
          <aside aria-label={t('About the author')} className="mt-14 flex items-center gap-5 rounded-2xl border border-slate-200 bg-mist p-6">
            <span className="flex size-14 shrink-0 items-center justify-center rounded-full bg-navy text-xl font-bold text-white" aria-hidden="true">
              {post.author
                .split(' ')
                .map((part) => part[0])
                .join('')}
            </span>
            <div>
              <p className="font-bold text-ink">{post.author}</p>
              <p className="text-muted">{t('Insurance Specialist')}</p>
            </div>
          </aside>
        </div>
      </article>
      {next.posts.length > 0 && (
        <section aria-labelledby="related-heading" className="py-16">
          <div className="container-site max-w-5xl">
            <h2 id="related-heading" className="mb-6 text-2xl font-bold">
              {next.heading}
            </h2>
            <div className="grid gap-8 md:grid-cols-2">
              {next.posts.map((p) => (
                <PostCard key={p.slug} post={postCard(p)} />
              ))}
            </div>
          </div>
        </section>
      )}
      <CtaBanner variant="secondary" />
    </>
  );
}
