// The quote form island as pages place it: in a hero (full) or a sidebar (compact), with the consent text from
// content/forms.toml (its words naming the opt-out page linked to it) and, on product pages, the product's insurance
// type chosen in advance.
import { t } from '@i18n/pages';
import { content } from '../content';
import QuoteForm from '../islands/QuoteForm';
import { pages } from '../links';
import { Island } from '../ui/Island';

export function QuoteFormIsland({ idPrefix, compact = false, heading = t('Get Your Free Quote'), insuranceType }: { idPrefix: string; compact?: boolean; heading?: string; insuranceType?: string }) {
  return (
    <Island
      name="QuoteForm"
      component={QuoteForm}
      className="block"
      props={{ idPrefix, variant: compact ? 'compact' : 'full', heading, consentText: content.forms.consent_text, consentLink: { words: content.forms.opt_out_link, href: pages.optOut.href }, insuranceOptions: content.forms.insurance_types, ...(insuranceType ? { insuranceType } : {}) }}
    />
  );
}
