// Header navigation: desktop dropdown menus and the mobile menu panel, plus a tap-to-call link on phones.
// Plain HTML rendered at build time, not an island: the menus are <details> elements, so they open by click, Enter
// or Space with or without JavaScript, and `name` keeps one open at a time where the browser supports it.
// src/enhance/nav.ts adds what the platform lacks (Escape, outside clicks, closing on a link or when focus leaves,
// hover on a mouse) without React, so a page whose only interactive part is this menu ships no React at all.
import { t } from '@i18n/pages';
import type { Link } from '../links';
import { Icon } from '../ui/Icon';

export interface SiteNavProps {
  vehicles: Link[];
  coverages: Link[];
  links: Link[];
  /** Pages for existing clients, in the mobile menu only: the desktop header has no room (measured: from 768 to 1440 px
   * a "For Clients" menu, even as an icon, pushes its items onto a second row); the footer's For Clients column and
   * the contact page lead to them there. */
  clients: Link[];
  /** The call to action beside the menus (the quote page). */
  quote: Link;
  phone: string;
  phoneHref: string;
  currentPath: string;
  /** The same page in the site's other language. */
  otherLanguage: LanguageLink;
}

export interface LanguageLink {
  href: string;
  /** The language's name in itself ("Español"), and its code for `lang` and `hreflang`. */
  name: string;
  code: string;
}

/** The language switch: the other language's name, in that language (so a screen reader says it in it too). */
function LanguageSwitch({ link, className, short }: { link: LanguageLink; className: string; short?: boolean }) {
  return (
    <a href={link.href} hrefLang={link.code} lang={link.code} className={className} title={short ? link.name : undefined} data-language-switch="">
      <Icon name="globe" className="size-4 shrink-0" />
      {short ? (
        <>
          {/* The header is narrow: below 1440 px the language's code shows ("ES"), the start of its name, which stays
              the link's name at every width (a speech user saying "ES" still finds it). */}
          <span aria-hidden="true" className="min-[1440px]:hidden">
            {link.code.toUpperCase()}
          </span>
          <span className="sr-only min-[1440px]:not-sr-only">{link.name}</span>
        </>
      ) : (
        link.name
      )}
    </a>
  );
}

export function SiteNav({ vehicles, coverages, links, clients, quote, phone, phoneHref, currentPath, otherLanguage }: SiteNavProps) {
  const current = (href: string) => (href === currentPath ? ('page' as const) : undefined);
  // The links of a menu, marked when they lead to this page; desktop and mobile menus differ only in look.
  const menuItems = (items: Link[], linkClass: string) =>
    items.map((item) => (
      <li key={item.href}>
        <a href={item.href} aria-current={current(item.href)} className={linkClass}>
          {item.label}
        </a>
      </li>
    ));

  // data-hover-menu: desktop menus also open while a mouse points at them (src/enhance/nav.ts).
  const dropdown = (label: string, items: Link[]) => (
    <details className="nav-menu relative" name="site-menu" data-hover-menu="">
      <summary className="flex items-center gap-1 whitespace-nowrap rounded-md px-1.5 py-2 font-medium text-ink hover:text-steel lg:px-2 xl:px-2.5">
        {label}
        <Icon name="chevronDown" className="nav-chevron size-4 transition-transform" />
      </summary>
      <ul className="absolute left-0 top-full z-50 w-64 rounded-xl border border-slate-200 bg-white p-2 shadow-xl">
        {menuItems(items, 'block rounded-lg px-3 py-2 text-ink hover:bg-mist aria-[current=page]:font-semibold aria-[current=page]:text-steel')}
      </ul>
    </details>
  );

  const mobileGroup = (title: string, items: Link[]) => (
    <div>
      <p className="px-3 pb-1 pt-4 text-sm font-bold uppercase tracking-wide text-muted">{title}</p>
      <ul>{menuItems(items, 'block rounded-lg px-3 py-2.5 text-lg text-ink hover:bg-mist aria-[current=page]:font-semibold')}</ul>
    </div>
  );

  return (
    <div data-site-nav="" className="ml-auto flex shrink-0 items-center md:min-w-0 md:shrink">
      {/* Its items wrap to a second row rather than leave the screen when they need more room than they have (a
          reader's own text spacing); at the site's own spacing they hold one row from 768 px up, in 14 px type
          below 1024 px. */}
      <nav aria-label={t('Main')} className="hidden flex-wrap items-center justify-end text-sm md:flex lg:gap-0.5 lg:text-base xl:gap-1">
        {dropdown(t('Vehicle Types'), vehicles)}
        {dropdown(t('Coverage Types'), coverages)}
        {links.map((link) => (
          <a
            key={link.href}
            href={link.href}
            aria-current={current(link.href)}
            className="rounded-md px-1.5 py-2 font-medium text-ink hover:text-steel aria-[current=page]:text-steel lg:px-2 xl:px-2.5"
          >
            {link.label}
          </a>
        ))}
        <LanguageSwitch
          link={otherLanguage}
          short
          className="flex items-center gap-1.5 whitespace-nowrap rounded-md px-1.5 py-2 font-medium text-ink hover:text-steel lg:px-2"
        />
        {/* The phone is always in the header: the number from 1280 px, an icon with the number as its name below. */}
        <a
          href={phoneHref}
          aria-label={t('Call us at {phone}', { phone })}
          title={phone}
          className="ml-1 flex size-10 items-center justify-center rounded-md text-navy hover:bg-mist xl:hidden"
        >
          <Icon name="phone" className="size-5" />
        </a>
        <a href={phoneHref} className="ml-2 hidden items-center gap-2 whitespace-nowrap rounded-md px-3 py-2 font-semibold text-navy xl:flex">
          <Icon name="phone" className="size-4" />
          {phone}
        </a>
        <a href={quote.href} className="ml-1 whitespace-nowrap rounded-lg bg-amber px-3 py-2 font-semibold text-ink shadow-sm hover:bg-amber-light lg:ml-2 lg:px-4">
          {quote.label}
        </a>
      </nav>

      <div className="flex items-center gap-1.5 md:hidden min-[360px]:gap-2">
        <a
          href={phoneHref}
          className="flex size-11 items-center justify-center rounded-lg bg-navy text-white"
          aria-label={t('Call us at {phone}', { phone })}
        >
          <Icon name="phone" />
        </a>
        {/* One of the two icons shows, by CSS on details[open] (styles.css), so the swap needs no script. */}
        <details className="nav-menu" name="site-menu">
          <summary className="flex min-h-11 min-w-11 items-center justify-center gap-2 rounded-lg border border-slate-300 px-2.5 font-semibold text-ink min-[360px]:px-3">
            <Icon name="menu" className="nav-icon-closed size-5" />
            <Icon name="close" className="nav-icon-open size-5" />
            {/* Below 360 px (a small phone, or 400 % zoom) the icon alone shows, so the logo keeps its room; the word
                stays its name. */}
            <span className="sr-only min-[360px]:not-sr-only">{t('Menu')}</span>
          </summary>
          <nav
            aria-label={t('Mobile')}
            className="absolute inset-x-0 top-full z-50 h-[calc(100dvh-100%)] overflow-y-auto border-t border-slate-200 bg-white px-4 pb-10"
          >
            {mobileGroup(t('Vehicle Types'), vehicles)}
            {mobileGroup(t('Coverage Types'), coverages)}
            {mobileGroup(t('Company'), links)}
            {mobileGroup(t('For Clients'), clients)}
            <div className="mt-6 grid gap-3 px-3">
              <LanguageSwitch
                link={otherLanguage}
                className="flex items-center justify-center gap-2 rounded-lg border border-slate-300 px-4 py-3 text-lg font-semibold text-ink"
              />
              <a href={quote.href} className="rounded-lg bg-amber px-4 py-3 text-center text-lg font-semibold text-ink">
                {quote.label}
              </a>
              <a href={phoneHref} className="flex items-center justify-center gap-2 rounded-lg border-2 border-navy px-4 py-3 text-lg font-semibold text-navy">
                <Icon name="phone" />
                {t('Call {phone}', { phone: phone })}
              </a>
            </div>
          </nav>
        </details>
      </div>
    </div>
  );
}
