// /sitemap: every page of the site in the groups of sitemap.xml (routes.tsx hands over the groups).
import { t } from '@i18n/pages';
import type { Link } from '../links';
import { PageHero } from '../widgets/PageHero';

export function SitemapPage({ groups }: { groups: { title: string; links: Link[] }[] }) {
  return (
    <>
      <PageHero title={t('Sitemap')} intro={t('Every page of the site.')} />
      <div className="container-site grid gap-10 py-14 md:grid-cols-2 lg:grid-cols-3">
        {groups.map((group) => (
          <section key={group.title} aria-label={group.title}>
            <h2 className="text-xl font-bold">{group.title}</h2>
            <ul className="mt-4 space-y-2">
              {group.links.map((link) => (
                <li key={link.href}>
                  <a href={link.href} className="text-steel underline-offset-2 hover:underline">
                    {link.label}
                  </a>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
    </>
  );
}
