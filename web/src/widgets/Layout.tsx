// The shared layout of every page: skip link, sticky header with the logo and navigation, the page, the footer and,
// on pages with a form, the forms' notification area (the Toaster island).
import { t } from '@i18n/pages';
import { otherLocale } from '@i18n/locale';
import type { ReactNode } from 'react';
import { englishPath, pathIn } from '../i18n/paths';
import { site } from '../content';
import Toaster from '../islands/Toaster';
import { header, pages, telHref } from '../links';
import { imageUrl } from '../ui/Image';
import { Island } from '../ui/Island';
import { Footer } from './Footer';
import { SiteNav } from './SiteNav';

/** The page at `path` in the other language; for a page that only the server answers with (an error), that
 * language's home page. (A form's correction page names its form's page instead: `languageSwitch`.) */
function counterpart(path: string): string {
  const english = englishPath(path);
  return pathIn(otherLocale.code, english.startsWith('/_') ? '/' : english);
}

/** `toaster`: whether the page has a form island; only forms show toasts, so other pages need no React for it.
 * `languageSwitch`: the page the language switch leads to the other version of, when not `path` (routes.tsx). */
export function Layout({ path, languageSwitch = path, toaster, children }: { path: string; languageSwitch?: string; toaster: boolean; children: ReactNode }) {
  return (
    <>
      <a href="#main" className="skip-link">
        {t('Skip to content')}
      </a>
      {/* Solid, without a backdrop filter (a filter would change how the mobile menu's panel is placed). Sticky only
          on a screen tall enough (`tall:`, styles.css); relative otherwise, as the panel is placed below it. Its
          height is a minimum: with a reader's own text spacing the logo's words or the menus wrap and it grows. */}
      <header className="relative top-0 z-40 border-b border-slate-200 bg-white tall:sticky">
        <div className="container-site flex min-h-16 items-center gap-3 py-2 md:gap-4">
          {/* The logo's words wrap rather than push the menu off a narrow screen (min-w-0). From 768 px, where the menu
              may wrap to a second row, the logo's words wrap first (shrink-[100]) but no word is cut (min-w-auto). */}
          <a href={pages.home.href} className="flex min-w-0 items-center gap-2 font-extrabold tracking-tight text-ink sm:gap-2.5 md:min-w-auto md:shrink-[100]" aria-label={t('{brand}, home', { brand: site.brand })}>
            <img src={imageUrl('logo.svg')} alt="" width={36} height={36} className="size-9 shrink-0" />
            {/* From 768 to 1023 px the logo alone leads home: the full menu needs the room; from 1024 px its words
                take two lines, leaving the menu its one row in both languages. */}
            <span className="min-w-0 text-base leading-tight sm:text-lg md:hidden lg:inline lg:max-w-[8.75rem] lg:text-base xl:max-w-[11rem] xl:text-lg">{site.brand}</span>
          </a>
          <SiteNav
            vehicles={header.vehicles}
            coverages={header.coverages}
            links={header.links}
            clients={header.clients}
            quote={header.quote}
            phone={site.phone}
            phoneHref={telHref}
            currentPath={path}
            otherLanguage={{ href: counterpart(languageSwitch), name: otherLocale.name, code: otherLocale.htmlLang }}
          />
        </div>
      </header>
      <main id="main" tabIndex={-1} className="focus:outline-none">
        {children}
      </main>
      <Footer />
      {toaster && <Island name="Toaster" component={Toaster} props={{}} />}
    </>
  );
}
