// The footer: what the agency is, how to reach it, the spec's footer links (their columns are in links.ts),
// licences and social links (only those configured), and the copyright year (kept current in the browser by
// client.ts).
import { t } from '@i18n/pages';
import { site } from '../content';
import { footerColumns, mailHref, telHref } from '../links';
import { Icon, type IconName } from '../ui/Icon';

const socialNames: Record<string, string> = {
  facebook: 'Facebook',
  instagram: 'Instagram',
  linkedin: 'LinkedIn',
  x: 'X',
  youtube: 'YouTube',
};

export function Footer() {
  const social = Object.entries(site.social).filter(([, url]) => Boolean(url));
  const buildYear = new Date().getFullYear();
  return (
    <footer className="bg-ink text-slate-200">
      <div className="container-site grid gap-10 py-14 md:grid-cols-2 lg:grid-cols-6">
        <div className="lg:col-span-2">
          <p className="text-xl font-extrabold text-white">{site.brand}</p>
          <p className="mt-3 max-w-md">{site.description}</p>
          <ul className="mt-6 space-y-3">
            <li>
              <a href={telHref} className="inline-flex items-center gap-2 font-semibold text-white hover:text-amber">
                <Icon name="phone" className="size-4" /> {site.phone}
              </a>
            </li>
            <li>
              <a href={mailHref} className="inline-flex items-center gap-2 hover:text-amber">
                <Icon name="mail" className="size-4" /> {site.email}
              </a>
            </li>
            <li className="flex items-start gap-2">
              <Icon name="mapPin" className="mt-1 size-4 shrink-0" />
              <address className="not-italic">
                {site.address.street}, {site.address.city}, {site.address.region} {site.address.postal_code}
              </address>
            </li>
          </ul>
          {social.length > 0 && (
            <ul className="mt-6 flex gap-3" aria-label={t('Social media')}>
              {social.map(([network, url]) => (
                <li key={network}>
                  <a
                    href={url}
                    rel="noopener"
                    className="flex size-10 items-center justify-center rounded-full bg-white/10 hover:bg-amber hover:text-ink"
                    aria-label={socialNames[network] ?? network}
                  >
                    <Icon name={network as IconName} />
                  </a>
                </li>
              ))}
            </ul>
          )}
        </div>
        {footerColumns.map((column) => (
          <nav key={column.title} aria-label={column.title}>
            <p className="font-bold text-white">{column.title}</p>
            <ul className="mt-4 space-y-2.5">
              {column.links.map((link) => (
                <li key={link.href}>
                  <a href={link.href} className="hover:text-amber hover:underline">
                    {link.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <div className="border-t border-white/15">
        <div className="container-site flex flex-col gap-2 py-6 text-sm text-slate-300 md:flex-row md:justify-between">
          <p>
            &copy; <span data-current-year="">{buildYear}</span> {site.legal_name}. {t('All rights reserved.')}
          </p>
          {site.licenses.length > 0 && (
            <p>
              {t('Licensed insurance agency.')}{' '}
              {site.licenses.map((l) => t('{state} License {number}', { state: l.state, number: l.number })).join(' · ')}
            </p>
          )}
        </div>
      </div>
    </footer>
  );
}
