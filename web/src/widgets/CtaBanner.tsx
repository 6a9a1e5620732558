// The call-to-action banner: "primary" (two buttons and three benefit badges) or "secondary" (centred, one button).
import { t } from '@i18n/pages';
import { site } from '../content';
import { pages, telHref } from '../links';
import { ButtonLink } from '../ui/Button';
import { Icon } from '../ui/Icon';

const badges = [t('Specialized Trucking Coverage'), t('Same-Day Quotes'), t('Competitive Rates')];

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
          <div className="mt-8 flex flex-wrap gap-4">
            <ButtonLink href={pages.quote.href} size="lg">
              {t('Get Free Quote')}
            </ButtonLink>
            <ButtonLink href={pages.contact.href} size="lg" variant="ghostLight">
              {t('Contact Us')}
            </ButtonLink>
          </div>
          <p className="mt-6 text-slate-200">
            {t('Prefer to talk?')}{' '}
            <a href={telHref} className="font-semibold text-white underline underline-offset-2 hover:text-amber">
              {t('Call {phone}', { phone: site.phone })}
            </a>
          </p>
        </div>
        <ul className="grid gap-3">
          {badges.map((badge) => (
            <li key={badge} className="flex items-center gap-3 rounded-xl bg-white/10 px-5 py-4 font-semibold">
              <Icon name="checkCircle" className="size-6 text-amber" />
              {badge}
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
