// The form page the server answers a form posted without JavaScript with when something needs correcting: the
// form rendered as a template, whose markers the server replaces with what was typed and the errors (see
// src/leads/nojs.rs). Above it the error summary, focused as the page loads (autofocus: no script runs here): the
// server's message, and a link to each field with an error, its message as the link's words. The links are the
// form's fields in its order, found in the form's own markup (each field's error element holds its marker); the
// server fills in the markers of the fields it flagged, and a link left empty is hidden.
import { t } from '@i18n/pages';
import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
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
  const body = correctionForm(form);
  return (
    <section aria-labelledby="correction-title" className="bg-mist py-14 md:py-20">
      <div className="container-site max-w-3xl">
        <h1 id="correction-title" className="text-3xl font-bold md:text-4xl">
          {t('Please Check Your Details')}
        </h1>
        <div role="alert" tabIndex={-1} autoFocus className="mt-4 rounded-xl border-l-4 border-danger bg-white p-4 font-medium text-danger">
          <p className="flex gap-3">
            <Icon name="alert" className="size-5 shrink-0" />
            {markers.message}
          </p>
          <ul className="mt-2 hidden list-disc pl-12 has-[a:not(:empty)]:block">
            {errorLinks(body).map(({ field, name }) => (
              <li key={name} className="has-[a:empty]:hidden">
                <a href={`#${field}`} className="underline underline-offset-2">
                  {`${markers.error}${name}`}
                </a>
              </li>
            ))}
          </ul>
        </div>
        <div className="mt-8">{body}</div>
      </div>
    </section>
  );
}

function correctionForm(form: FormId | 'optOut'): ReactElement {
  if (form === 'quote') {
    return <QuoteForm idPrefix={quoteForm.correctionIdPrefix} variant="full" heading={t('Your Quote Request')} consentText={content.forms.consent_text} consentLink={{ words: content.forms.opt_out_link, href: pages.optOut.href }} insuranceOptions={content.forms.insurance_types} template />;
  }
  if (form === 'coi') return <CoiForm template />;
  if (form === 'claim') return <ClaimForm insurers={site.insurers} received={page<ClaimCopy>('report-a-claim').received} template />;
  if (form === 'change') return <PolicyChangeForm received={page<ChangeCopy>('policy-change').received} afterHours={page<ChangeCopy>('policy-change').after_hours} template />;
  if (form === 'optOut') return <OptOutForm received={page<OptOutCopy>('opt-out').received} privacyHref={pages.privacy.href} template />;
  return <ContactForm template />;
}

/** The form's fields that can show an error, in its order: each error element (`<field id>-error`) holds its marker. */
function errorLinks(form: ReactElement): { field: string; name: string }[] {
  const found = new Map<string, string>();
  const errorElement = new RegExp(`id="([^"]+)-error"[^>]*>${markers.error}(\\w+)<`, 'g');
  for (const [, field, name] of renderToStaticMarkup(form).matchAll(errorElement)) {
    if (field && name && !found.has(name)) found.set(name, field);
  }
  return [...found].map(([name, field]) => ({ field, name }));
}
