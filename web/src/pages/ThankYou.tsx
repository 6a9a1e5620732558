// The page a form posted without JavaScript lands on once stored (after the server's 303 See Other), one per form.
import { t } from '@i18n/pages';
import type { ReactNode } from 'react';
import { site } from '../content';
import { pages, telHref } from '../links';
import { ButtonLink } from '../ui/Button';
import { TextLink } from '../ui/TextLink';
import { MessageBand, ThanksHeading } from '../widgets/MessageBand';

/** `children`: more to read under the text (what a client's request is and is not yet). */
export function ThankYou({ title, text, children }: { title: string; text: string; children?: ReactNode }) {
  return (
    <MessageBand labelledBy="thanks-title">
      <ThanksHeading title={title} text={text} />
      {children}
      <p className="mt-2 text-muted">
        {t('Need us sooner? Call')}{' '}
        <TextLink href={telHref}>{site.phone}</TextLink>
        .
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-4">
        <ButtonLink href={pages.home.href}>{t('Back to Home')}</ButtonLink>
        <ButtonLink href={pages.blog.href} variant="outline">
          {t('Read Our Guides')}
        </ButtonLink>
      </div>
    </MessageBand>
  );
}
