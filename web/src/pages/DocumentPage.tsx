// A document page (content/pages/<slug>.md: the partners page, the privacy policy, the terms of use): its date,
// its Markdown rendered by build.rs, and where to ask about it.
import { t } from '@i18n/pages';
import { document, formatDate, site } from '../content';
import { mailHref, telHref } from '../links';
import { TextLink } from '../ui/TextLink';
import { PageHero } from '../widgets/PageHero';

export function DocumentPage({ slug }: { slug: string }) {
  const doc = document(slug);
  return (
    <>
      <PageHero title={doc.title} intro={t('Last updated {date}', { date: formatDate(doc.updated) })} />
      <div className="container-site max-w-3xl py-14">
        <div className="prose" dangerouslySetInnerHTML={{ __html: doc.html }} />
        <p className="mt-12 rounded-2xl bg-mist p-6 text-muted">
          {t('Questions about this page? Write to')}{' '}
          <TextLink href={mailHref}>{site.email}</TextLink>{' '}
          {t('or call')}{' '}
          <TextLink href={telHref}>{site.phone}</TextLink>
          .
        </p>
      </div>
    </>
  );
}
