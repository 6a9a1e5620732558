// Header navigation: desktop dropdown menus and the mobile menu panel, plus a tap-to-call link on phones.
// Menus are <details> elements, so they open by click, Enter or Space even before (or without) hydration; the
// island adds what the platform lacks: Escape closes and returns focus, an outside click closes, choosing a link
// closes, and a mouse hovering a desktop menu opens it.
import { useEffect, useRef, useState, type KeyboardEvent, type MouseEvent, type PointerEvent } from 'react';
import { Icon } from '../ui/Icon';

export interface NavLink {
  href: string;
  label: string;
}

export interface SiteNavProps {
  vehicles: NavLink[];
  coverages: NavLink[];
  links: NavLink[];
  phone: string;
  phoneHref: string;
  currentPath: string;
}

type MenuId = 'vehicles' | 'coverages' | 'mobile';

export default function SiteNav({ vehicles, coverages, links, phone, phoneHref, currentPath }: SiteNavProps) {
  const [open, setOpen] = useState<MenuId | null>(null);
  const navRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const closeOnOutsideClick = (event: globalThis.MouseEvent) => {
      if (!navRef.current?.contains(event.target as Node)) setOpen(null);
    };
    document.addEventListener('click', closeOnOutsideClick);
    return () => document.removeEventListener('click', closeOnOutsideClick);
  }, [open]);

  const toggled = (id: MenuId) => (event: { currentTarget: HTMLDetailsElement }) => {
    const isOpen = event.currentTarget.open;
    setOpen((current) => (isOpen ? id : current === id ? null : current));
  };

  const closeOnEscape = (event: KeyboardEvent<HTMLDetailsElement>) => {
    if (event.key !== 'Escape' || !event.currentTarget.open) return;
    event.preventDefault();
    // Closed on the element itself, not only through state: the toggle event of an opening is queued as a task,
    // so a quick Escape can come before React has heard the menu was opened at all.
    event.currentTarget.open = false;
    setOpen(null);
    event.currentTarget.querySelector('summary')?.focus();
  };

  // A menu opened by hovering stays open when its summary is then clicked (a click would otherwise toggle it shut).
  const openedByHover = useRef<MenuId | null>(null);
  const hover = (id: MenuId, entering: boolean) => (event: PointerEvent) => {
    if (event.pointerType !== 'mouse') return;
    openedByHover.current = entering && open !== id ? id : null;
    setOpen((current) => (entering ? id : current === id ? null : current));
  };
  const keepHoverOpen = (id: MenuId) => (event: MouseEvent<HTMLElement>) => {
    if (openedByHover.current !== id) return;
    openedByHover.current = null;
    event.preventDefault();
  };

  const current = (href: string) => (href === currentPath ? ('page' as const) : undefined);

  const dropdown = (id: 'vehicles' | 'coverages', label: string, items: NavLink[]) => (
    <details
      className="nav-menu relative"
      name="site-menu"
      open={open === id}
      onToggle={toggled(id)}
      onKeyDown={closeOnEscape}
      onPointerEnter={hover(id, true)}
      onPointerLeave={hover(id, false)}
    >
      <summary onClick={keepHoverOpen(id)} className="flex items-center gap-1 whitespace-nowrap rounded-md px-2 py-2 font-medium text-ink hover:text-steel lg:px-3">
        {label}
        <Icon name="chevronDown" className="size-4 transition-transform" />
      </summary>
      <ul className="absolute left-0 top-full z-50 w-64 rounded-xl border border-slate-200 bg-white p-2 shadow-xl">
        {items.map((item) => (
          <li key={item.href}>
            <a
              href={item.href}
              aria-current={current(item.href)}
              onClick={() => setOpen(null)}
              className="block rounded-lg px-3 py-2 text-ink hover:bg-mist aria-[current=page]:font-semibold aria-[current=page]:text-steel"
            >
              {item.label}
            </a>
          </li>
        ))}
      </ul>
    </details>
  );

  const mobileGroup = (title: string, items: NavLink[]) => (
    <div>
      <p className="px-3 pb-1 pt-4 text-sm font-bold uppercase tracking-wide text-muted">{title}</p>
      <ul>
        {items.map((item) => (
          <li key={item.href}>
            <a
              href={item.href}
              aria-current={current(item.href)}
              onClick={() => setOpen(null)}
              className="block rounded-lg px-3 py-2.5 text-lg text-ink hover:bg-mist aria-[current=page]:font-semibold"
            >
              {item.label}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );

  return (
    <div ref={navRef} className="ml-auto flex items-center">
      <nav aria-label="Main" className="hidden items-center md:flex lg:gap-1">
        {dropdown('vehicles', 'Vehicle Types', vehicles)}
        {dropdown('coverages', 'Coverage Types', coverages)}
        {links.map((link) => (
          <a
            key={link.href}
            href={link.href}
            aria-current={current(link.href)}
            className="rounded-md px-2 py-2 font-medium text-ink hover:text-steel aria-[current=page]:text-steel lg:px-3"
          >
            {link.label}
          </a>
        ))}
        {/* The phone is always in the header: the number from 1280 px, an icon with the number as its name below. */}
        <a
          href={phoneHref}
          aria-label={`Call us at ${phone}`}
          title={phone}
          className="ml-1 flex size-10 items-center justify-center rounded-md text-navy hover:bg-mist xl:hidden"
        >
          <Icon name="phone" className="size-5" />
        </a>
        <a href={phoneHref} className="ml-2 hidden items-center gap-2 whitespace-nowrap rounded-md px-3 py-2 font-semibold text-navy xl:flex">
          <Icon name="phone" className="size-4" />
          {phone}
        </a>
        <a href="/get-quote" className="ml-1 whitespace-nowrap rounded-lg bg-amber px-3 py-2 font-semibold text-ink shadow-sm hover:bg-amber-light lg:ml-2 lg:px-4">
          Get Quote
        </a>
      </nav>

      <div className="flex items-center gap-2 md:hidden">
        <a
          href={phoneHref}
          className="flex size-11 items-center justify-center rounded-lg bg-navy text-white"
          aria-label={`Call us at ${phone}`}
        >
          <Icon name="phone" />
        </a>
        <details
          className="nav-menu"
          open={open === 'mobile'}
          onToggle={toggled('mobile')}
          onKeyDown={closeOnEscape}
          onBlur={(event) => {
            // Tabbing out of the panel would move focus behind it, out of sight: close it instead.
            const next = event.relatedTarget as Node | null;
            if (next && !event.currentTarget.contains(next)) setOpen((current) => (current === 'mobile' ? null : current));
          }}
        >
          <summary className="flex h-11 items-center gap-2 rounded-lg border border-slate-300 px-3 font-semibold text-ink">
            <Icon name={open === 'mobile' ? 'close' : 'menu'} />
            Menu
          </summary>
          <nav
            aria-label="Mobile"
            className="fixed inset-x-0 bottom-0 top-16 z-50 overflow-y-auto border-t border-slate-200 bg-white px-4 pb-10"
          >
            {mobileGroup('Vehicle Types', vehicles)}
            {mobileGroup('Coverage Types', coverages)}
            {mobileGroup('Company', links)}
            <div className="mt-6 grid gap-3 px-3">
              <a href="/get-quote" onClick={() => setOpen(null)} className="rounded-lg bg-amber px-4 py-3 text-center text-lg font-semibold text-ink">
                Get Quote
              </a>
              <a href={phoneHref} onClick={() => setOpen(null)} className="flex items-center justify-center gap-2 rounded-lg border-2 border-navy px-4 py-3 text-lg font-semibold text-navy">
                <Icon name="phone" />
                Call {phone}
              </a>
            </div>
          </nav>
        </details>
      </div>
    </div>
  );
}
