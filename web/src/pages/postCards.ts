// Post card data for pages and the BlogExplorer island.
import { t } from '@i18n/pages';
import { formatDate, type Post } from '../content';
import { postHref } from '../links';
import { imageUrl } from '../ui/Image';
import type { PostCardData } from '../ui/PostCard';

export function postCard(post: Post): PostCardData & { slug: string; featured: boolean } {
  return {
    slug: post.slug,
    featured: post.featured,
    href: postHref(post),
    title: post.title,
    excerpt: post.excerpt,
    // Categories are English keys in content/; each language shows its own name for them.
    category: t(post.category),
    date: formatDate(post.date),
    dateIso: post.date,
    author: post.author,
    image: imageUrl(post.image),
    imageAlt: post.image_alt,
    readingMinutes: post.reading_minutes,
  };
}
