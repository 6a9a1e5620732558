// The form page the server answers a form posted without JavaScript with when something needs correcting: the
// form rendered as a template, whose markers the server replaces with what was typed and the errors (see
// src/leads/mod.rs).
import { t } from '@i18n/pages';
import { markers, quoteForm, type FormId } from '@contract';
import { content } from '../content';
import CoiForm from '../islands/CoiForm';
import ContactForm from '../islands/ContactForm';
import QuoteForm from '../islands/QuoteForm';
import { Icon } from '../ui/Icon';

export function FormCorrection({ form }: { form: FormId }) {
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
            <QuoteForm idPrefix={quoteForm.correctionIdPrefix} variant="full" heading={t('Your Quote Request')} consentText={content.forms.consent_text} insuranceOptions={content.forms.insurance_types} template />
          ) : form === 'coi' ? (
            <CoiForm template />
          ) : (
            <ContactForm template />
          )}
        </div>
      </div>
    </section>
  );
}
