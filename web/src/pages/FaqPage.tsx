// /faq: every question of content/faq.toml, then where to ask one that is not there.
import { t } from '@i18n/pages';
import { content, site } from '../content';
import { pages, telHref } from '../links';
import { Section } from '../ui/Section';
import { TextLink } from '../ui/TextLink';
import { CtaBanner } from '../widgets/CtaBanner';
import { Faq } from '../widgets/Faq';
import { PageHero } from '../widgets/PageHero';

export function FaqPage() {
  return (
    <>
      <PageHero kicker={t('FAQ')} title={t('Frequently Asked Questions')} intro={t('Straight answers about trucking insurance, filings, quotes and claims.')} />
      <Section labelledBy="faq-list-heading">
        <h2 id="faq-list-heading" className="sr-only">
          {t('All questions')}
        </h2>
        <Faq items={content.faq} group="faq" />
        <p className="mt-10 text-center text-muted">
          {t('Still have a question?')}{' '}
          <TextLink href={pages.contact.href}>{t('Contact us')}</TextLink>{' '}
          {t('or call')}{' '}
          <TextLink href={telHref}>{site.phone}</TextLink>
          .
        </p>
      </Section>
      <CtaBanner variant="secondary" />
    </>
  );
}
