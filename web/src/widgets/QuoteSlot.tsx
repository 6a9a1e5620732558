// Where a page asks for a quote: the hero panel (full) and the product sidebar (compact). Both lead to the quote
// page or a phone call; the quote form itself takes this place when the leads API lands.
import { site, telHref } from '../content';
import { ButtonLink } from '../ui/Button';
import { Icon } from '../ui/Icon';

const steps = [
  'Tell us about your trucks, drivers and operation',
  'We shop your risk with several carriers',
  'Most quotes within 24 hours, many the same day',
];

export function QuoteSlot({ compact = false, heading = 'Get Your Free Quote' }: { compact?: boolean; heading?: string }) {
  const id = compact ? 'quote-sidebar-heading' : 'quote-panel-heading';
  if (compact) {
    return (
      <aside aria-labelledby={id} className="rounded-2xl border border-slate-200 bg-white p-6 shadow-lg">
        <h2 id={id} className="text-xl font-bold">
          {heading}
        </h2>
        <p className="mt-2 text-sm text-muted">Free, with no obligation. Most quotes within 24 hours.</p>
        <ButtonLink href="/get-quote" className="mt-5 w-full">
          Get a Quote
        </ButtonLink>
        <a href={telHref} className="mt-4 flex items-center justify-center gap-2 font-semibold text-navy hover:text-steel">
          <Icon name="phone" className="size-4" /> {site.phone}
        </a>
      </aside>
    );
  }
  return (
    <aside aria-labelledby={id} className="rounded-2xl bg-white p-7 text-ink shadow-2xl md:p-9">
      <h2 id={id} className="text-2xl font-bold">
        {heading}
      </h2>
      <p className="mt-2 text-muted">No obligation, and no cost to compare.</p>
      <ol className="mt-6 space-y-4">
        {steps.map((step, i) => (
          <li key={step} className="flex items-start gap-3">
            <span className="flex size-8 shrink-0 items-center justify-center rounded-full bg-navy font-bold text-white">{i + 1}</span>
            <span className="pt-1">{step}</span>
          </li>
        ))}
      </ol>
      <ButtonLink href="/get-quote" size="lg" className="mt-8 w-full">
        Start My Quote <Icon name="arrowRight" />
      </ButtonLink>
      <a href={telHref} className="mt-4 flex items-center justify-center gap-2 font-semibold text-navy hover:text-steel">
        <Icon name="phone" className="size-4" /> Or call {site.phone}
      </a>
    </aside>
  );
}
