// The blog's not-found page, served with status 404 for /blog/<unknown>.
import { t } from '@i18n/pages';
import { pages } from '../links';
import { ButtonLink } from '../ui/Button';
import { Icon } from '../ui/Icon';
import { MessageBand, MessageHeading } from '../widgets/MessageBand';

export function BlogPostNotFound() {
  return (
    <MessageBand labelledBy="post-not-found-title">
      <MessageHeading
        id="post-not-found-title"
        mark={<Icon name="file" className="mx-auto size-14 text-steel" />}
        title={t('Blog Post Not Found')}
        text={t('We couldn\'t find the article you\'re looking for. It may have been moved or removed. Browse our latest articles to find other helpful resources.')}
      />
      <ButtonLink href={pages.blog.href} size="lg" className="mt-8">
        {t('Browse All Articles')}{' '}<Icon name="arrowRight" />
      </ButtonLink>
    </MessageBand>
  );
}
