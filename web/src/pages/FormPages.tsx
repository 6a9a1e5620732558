// The pages a form post without JavaScript lands on: a thank-you page per form (after a 303 See Other), and the
// form page the server fills in when something needs correcting (markers replaced with what was typed and the
// errors; see src/leads/mod.rs).
import { content, site, telHref } from '../content';
import ContactForm from '../islands/ContactForm';
import QuoteForm from '../islands/QuoteForm';
import { ButtonLink } from '../ui/Button';
import { Icon } from '../ui/Icon';

export function ThankYou({ title, text }: { title: string; text: string }) {
  return (
    <section aria-labelledby="thanks-title" className="py-20 md:py-28">
      <div className="container-site max-w-2xl text-center">
        <Icon name="checkCircle" className="mx-auto size-16 text-success" />
        <h1 id="thanks-title" className="mt-6 text-3xl font-bold md:text-4xl">
          {title}
        </h1>
        <p className="mt-4 text-lg text-muted">{text}</p>
        <p className="mt-2 text-muted">
          Need us sooner? Call{' '}
          <a href={telHref} className="font-semibold text-steel underline underline-offset-2">
            {site.phone}
          </a>
          .
        </p>
        <div className="mt-8 flex flex-wrap justify-center gap-4">
          <ButtonLink href="/">Back to Home</ButtonLink>
          <ButtonLink href="/blog" variant="outline">
            Read Our Guides
          </ButtonLink>
        </div>
      </div>
    </section>
  );
}

export function FormCorrection({ form }: { form: 'quote' | 'contact' }) {
  return (
    <section aria-labelledby="correction-title" className="bg-mist py-14 md:py-20">
      <div className="container-site max-w-3xl">
        <h1 id="correction-title" className="text-3xl font-bold md:text-4xl">
          Please Check Your Details
        </h1>
        <p role="alert" className="mt-4 flex gap-3 rounded-xl border-l-4 border-danger bg-white p-4 font-medium text-danger">
          <Icon name="alert" className="size-5 shrink-0" />
          TRUCKINS_FORM_MESSAGE
        </p>
        <div className="mt-8">
          {form === 'quote' ? (
            <QuoteForm idPrefix="correction" variant="full" heading="Your Quote Request" consentText={content.forms.consent_text} insuranceOptions={content.forms.insurance_types} template />
          ) : (
            <ContactForm template />
          )}
        </div>
      </div>
    </section>
  );
}
