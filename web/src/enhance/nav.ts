// The header menus' behaviour beyond what <details> does by itself (they open and close by click, Enter and Space
// with JavaScript off). Plain DOM code, no React: every page has these menus, and most pages have nothing else that
// needs script, so this must cost a few hundred bytes, not a UI library.
//   - Escape closes the open menu, wherever focus is (a menu opened by hovering must be dismissible too, WCAG
//     1.4.13), and puts focus back on its summary when focus was inside it.
//   - Choosing a link closes the menu (a same-page link, or a page restored from the back/forward cache, would
//     otherwise show it still open).
//   - Focus leaving a menu closes it: tabbing out of the full-screen mobile panel would move focus behind it.
//   - A click outside closes it; one menu is open at a time (`name` does this natively in recent browsers).
//   - A mouse pointing at a desktop menu ([data-hover-menu]) opens it and leaving closes it; clicking the summary of
//     a menu the hover just opened keeps it open instead of toggling it shut.
//   - The header's height is kept in --header-height, which the page's scroll-padding-top (styles.css) adds to, so a
//     focused element is never scrolled under the sticky header, even when the header grows (its words wrap with a
//     reader's own text spacing or a large font).

/** Enhances the menus inside `root` (the element marked [data-site-nav]) and marks it data-enhanced for tests. */
export function enhanceNav(root: HTMLElement): void {
  const menus = Array.from(root.querySelectorAll<HTMLDetailsElement>('details.nav-menu'));
  const close = (menu: HTMLDetailsElement) => {
    menu.open = false;
  };
  let openedByHover: HTMLDetailsElement | null = null;

  for (const menu of menus) {
    const summary = menu.querySelector('summary');

    menu.addEventListener('toggle', () => {
      if (!menu.open) return;
      for (const other of menus) if (other !== menu) close(other);
    });

    menu.addEventListener('click', (event) => {
      if ((event.target as Element).closest('a')) close(menu);
    });

    menu.addEventListener('focusout', (event) => {
      const next = event.relatedTarget as Node | null;
      if (menu.open && next && !menu.contains(next)) close(menu);
    });

    if (menu.hasAttribute('data-hover-menu')) {
      menu.addEventListener('pointerenter', (event) => {
        if (event.pointerType !== 'mouse' || menu.open) return;
        openedByHover = menu;
        menu.open = true;
      });
      menu.addEventListener('pointerleave', (event) => {
        if (event.pointerType !== 'mouse') return;
        if (openedByHover === menu) openedByHover = null;
        close(menu);
      });
      summary?.addEventListener('click', (event) => {
        if (openedByHover !== menu) return;
        openedByHover = null;
        event.preventDefault();
      });
    }
  }

  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape') return;
    for (const menu of menus) {
      if (!menu.open) continue;
      event.preventDefault();
      const focusWasInside = menu.contains(document.activeElement);
      close(menu);
      if (focusWasInside) menu.querySelector('summary')?.focus();
    }
  });

  document.addEventListener('click', (event) => {
    for (const menu of menus) if (menu.open && !menu.contains(event.target as Node)) close(menu);
  });

  const header = root.closest('header');
  if (header) {
    const keepHeight = () => document.documentElement.style.setProperty('--header-height', `${header.offsetHeight}px`);
    new ResizeObserver(keepHeight).observe(header);
  }

  root.dataset.enhanced = '';
}
