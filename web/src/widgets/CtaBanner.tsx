// The call-to-action banner: "primary" (two buttons and three benefit badges) or "secondary" (centred, one button).
// Also its two buttons, a quote and the contact page, which close /about too.
import { t } from '@i18n/pages';
import { site } from '../content';
import { pages, telHref } from '../links';
import { ButtonLink } from '../ui/Button';
import { Icon } from '../ui/Icon';
import { IconList } from '../ui/IconList';

const badges = [t('Specialized Trucking Coverage'), t('Same-Day Quotes'), t('Competitive Rates')];

/** A quote and the contact page, side by side: `onDark` on a dark band (the banner), outlined on a light one. */
export function QuoteAndContactButtons({ quoteLabel, onDark = false, className }: { quoteLabel: string; onDark?: boolean; className: string }) {
  return (
    <div className={className}>
      <ButtonLink href={pages.quote.href} size="lg">
        {quoteLabel}
      </ButtonLink>
      <ButtonLink href={pages.contact.href} size="lg" variant={onDark ? 'ghostLight' : 'outline'}>
        {t('Contact Us')}
      </ButtonLink>
    </div>
  );
}

export function CtaBanner({
  variant = 'primary',
  title = t('Ready to Protect Your Trucking Business?'),
  text = t('Tell us about your trucks and operation. We shop several carriers and most quotes are ready within 24 hours, many the same day.'),
}: {
  variant?: 'primary' | 'secondary';
  title?: string;
  text?: string;
}) {
  if (variant === 'secondary') {
    return (
      <section aria-labelledby="cta-heading" className="bg-navy py-16 text-center text-white">
        <div className="container-site max-w-3xl">
          <h2 id="cta-heading" className="text-3xl font-bold text-balance">
            {title}
          </h2>
          <p className="mt-4 text-lg text-slate-200">{text}</p>
          <ButtonLink href={pages.quote.href} size="lg" className="mt-8">
            {t('Get Your Free Quote')}{' '}<Icon name="arrowRight" />
          </ButtonLink>
        </div>
      </section>
    );
  }
  return (
    <section aria-labelledby="cta-heading" className="bg-gradient-to-br from-navy to-ink py-16 text-white md:py-20">
      <div className="container-site grid items-center gap-10 lg:grid-cols-[3fr_2fr]">
        <div>
          <h2 id="cta-heading" className="text-3xl font-bold text-balance md:text-4xl">
            {title}
          </h2>
          <p className="mt-4 max-w-2xl text-lg text-slate-200">{text}</p>
          <QuoteAndContactButtons quoteLabel={t('Get Free Quote')} onDark className="mt-8 flex flex-wrap gap-4" />
          <p className="mt-6 text-slate-200">
            {t('Prefer to talk?')}{' '}
            <a href={telHref} className="font-semibold text-white underline underline-offset-2 hover:text-amber">
              {t('Call {phone}', { phone: site.phone })}
            </a>
          </p>
        </div>
        <IconList items={badges} icon="checkCircle" className="grid gap-3" itemClassName="flex items-center gap-3 rounded-xl bg-white/10 px-5 py-4 font-semibold" iconClassName="size-6 text-amber" />
      </div>
    </section>
  );
}
