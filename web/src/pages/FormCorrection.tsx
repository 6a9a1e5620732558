// The form page the server answers a form posted without JavaScript with when something needs correcting: the
// form rendered as a template, whose markers the server replaces with what was typed and the errors (see
// src/leads/mod.rs).
import { t } from '@i18n/pages';
import { markers, quoteForm, type FormId } from '@contract';
import { content, page, site } from '../content';
import ClaimForm from '../islands/ClaimForm';
import CoiForm from '../islands/CoiForm';
import ContactForm from '../islands/ContactForm';
import OptOutForm from '../islands/OptOutForm';
import PolicyChangeForm from '../islands/PolicyChangeForm';
import QuoteForm from '../islands/QuoteForm';
import { pages } from '../links';
import { Icon } from '../ui/Icon';
import type { OptOutCopy } from './OptOut';
import type { ChangeCopy } from './PolicyChange';
import type { ClaimCopy } from './ReportAClaim';

/** A lead form's, or the opt-out form's (not a lead form, so not a `FormId`): its correction page is made the same way. */
export function FormCorrection({ form }: { form: FormId | 'optOut' }) {
  return (
    <section aria-labelledby="correction-title" className="bg-mist py-14 md:py-20">
      <div className="container-site max-w-3xl">
        <h1 id="correction-title" className="text-3xl font-bold md:text-4xl">
          {t('Please Check Your Details')}
        </h1>
        <p role="alert" className="mt-4 flex gap-3 rounded-xl border-l-4 border-danger bg-white p-4 font-medium text-danger">
          <Icon name="alert" className="size-5 shrink-0" />
          {markers.message}
        </p>
        <div className="mt-8">
          {form === 'quote' ? (
            <QuoteForm idPrefix={quoteForm.correctionIdPrefix} variant="full" heading={t('Your Quote Request')} consentText={content.forms.consent_text} consentLink={{ words: content.forms.opt_out_link, href: pages.optOut.href }} insuranceOptions={content.forms.insurance_types} template />
          ) : form === 'coi' ? (
            <CoiForm template />
          ) : form === 'claim' ? (
            <ClaimForm insurers={site.insurers} received={page<ClaimCopy>('report-a-claim').received} template />
          ) : form === 'change' ? (
            <PolicyChangeForm received={page<ChangeCopy>('policy-change').received} afterHours={page<ChangeCopy>('policy-change').after_hours} template />
          ) : form === 'optOut' ? (
            <OptOutForm received={page<OptOutCopy>('opt-out').received} privacyHref={pages.privacy.href} template />
          ) : (
            <ContactForm template />
          )}
        </div>
      </div>
    </section>
  );
}
