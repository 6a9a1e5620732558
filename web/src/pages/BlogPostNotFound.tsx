// The blog's not-found page, served with status 404 for /blog/<unknown>.
import { t } from '@i18n/pages';
import { pages } from '../links';
import { ButtonLink } from '../ui/Button';
import { Icon } from '../ui/Icon';

export function BlogPostNotFound() {
  return (
    <section aria-labelledby="post-not-found-title" className="py-20 md:py-28">
      <div className="container-site max-w-2xl text-center">
        <Icon name="file" className="mx-auto size-14 text-steel" />
        <h1 id="post-not-found-title" className="mt-6 text-3xl font-bold md:text-4xl">
          {t('Blog Post Not Found')}
        </h1>
        <p className="mt-4 text-lg text-muted">
          {t('We couldn\'t find the article you\'re looking for. It may have been moved or removed. Browse our latest articles to find other helpful resources.')}
        </p>
        <ButtonLink href={pages.blog.href} size="lg" className="mt-8">
          {t('Browse All Articles')}{' '}<Icon name="arrowRight" />
        </ButtonLink>
      </div>
    </section>
  );
}
