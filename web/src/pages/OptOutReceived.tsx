// /opt-out/received: where the opt-out form posted without JavaScript lands (the server's 303 See Other). It says what
// happens next in the words the form's "received" panel uses (content/pages/opt-out.toml), and, like the answer it
// follows, never whether the number or address was known.
import { t } from '@i18n/pages';
import { page } from '../content';
import { WhatHappensNext } from '../islands/OptOutForm';
import { pages } from '../links';
import { ButtonLink } from '../ui/Button';
import { MessageBand, ThanksHeading } from '../widgets/MessageBand';
import type { OptOutCopy } from './OptOut';

export function OptOutReceived() {
  const { received } = page<OptOutCopy>('opt-out');
  return (
    <MessageBand labelledBy="thanks-title" centred={false}>
      <div className="text-center">
        <ThanksHeading title={received.heading} text={received.text} />
      </div>
      <div className="mt-8 rounded-2xl bg-mist p-6 md:p-8">
        <WhatHappensNext copy={received} privacyHref={pages.privacy.href} level="h2" />
      </div>
      <div className="mt-8 flex flex-wrap justify-center gap-4">
        <ButtonLink href={pages.home.href}>{t('Back to Home')}</ButtonLink>
        <ButtonLink href={pages.optOut.href} variant="outline">
          {t('Stop another number or address')}
        </ButtonLink>
      </div>
    </MessageBand>
  );
}
