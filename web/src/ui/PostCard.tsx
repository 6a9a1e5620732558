// A blog post card, used by pages on the server and by the BlogExplorer island: plain data in, no content import.
import { t } from '@i18n/islands';
import { Card } from './Card';
import { Icon } from './Icon';

export interface PostCardData {
  href: string;
  title: string;
  excerpt: string;
  category: string;
  date: string;
  dateIso: string;
  author: string;
  image: string;
  imageAlt: string;
  readingMinutes: number;
}

export function PostCard({ post, headingLevel = 3, featured = false }: { post: PostCardData; headingLevel?: 2 | 3; featured?: boolean }) {
  const Heading = `h${headingLevel}` as const;
  return (
    <Card as="article" variant="link" padding="none" className={`group relative flex ${featured ? 'flex-col md:flex-row' : 'flex-col'} overflow-hidden`}>
      <div className={`overflow-hidden bg-sky ${featured ? 'md:w-1/2' : ''}`}>
        <img
          src={post.image}
          alt={post.imageAlt}
          width={1200}
          height={630}
          loading="lazy"
          decoding="async"
          className="fade-in-image aspect-[1200/630] h-auto w-full object-cover transition-transform duration-300 group-hover:scale-105"
        />
      </div>
      <div className={`flex flex-1 flex-col p-6 ${featured ? 'md:justify-center md:p-10' : ''}`}>
        <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
          {/* The category as a label, not a pill: a pill reads as a button, and this is not one. */}
          <span className="text-xs font-bold uppercase tracking-wider text-steel">{post.category}</span>
          <time dateTime={post.dateIso} className="text-muted">
            {post.date}
          </time>
        </p>
        <Heading className={`mt-3 font-bold leading-snug text-ink ${featured ? 'text-2xl md:text-3xl' : 'text-xl'}`}>
          <a href={post.href} className="after:absolute after:inset-0 hover:text-steel">
            {post.title}
          </a>
        </Heading>
        <p className="mt-3 flex-1 text-muted">{post.excerpt}</p>
        <p className="mt-5 flex items-center justify-between text-sm">
          <span className="flex items-center gap-1.5 text-muted">
            <Icon name="user" className="size-4" />
            {post.author}
          </span>
          <span className="flex items-center gap-1 font-semibold text-steel" aria-hidden="true">
            {`${t('Read More')} `}
            <Icon name="arrowRight" className="size-4" />
          </span>
        </p>
      </div>
    </Card>
  );
}
