// Shared by wcag.spec.ts and wcag-walk.spec.ts: the page kinds they walk, WCAG's text-spacing override, a paused
// fake clock, a quote form filled in, and what the browser can measure of a page: sideways overflow, a header's
// controls off screen or out of the header, a select whose shown option is cut, the focused element, a focus
// indicator's contrast, a toast over the focused element, a field's border contrast, and what Chromium exposes.
import type { Locator, Page } from '@playwright/test';

/** One page of each kind the site has, by its English address (the Spanish is the same below /es). */
export const PAGE_KINDS: readonly { kind: string; path: string; status: number }[] = [
  { kind: 'home', path: '/', status: 200 },
  { kind: 'get quote', path: '/get-quote', status: 200 },
  { kind: 'products overview', path: '/products', status: 200 },
  { kind: 'product', path: '/products/dump-truck-insurance', status: 200 },
  { kind: 'blog list', path: '/blog', status: 200 },
  { kind: 'blog post', path: '/blog/understanding-dot-insurance-requirements', status: 200 },
  { kind: 'contact', path: '/contact', status: 200 },
  { kind: 'about', path: '/about', status: 200 },
  { kind: 'faq', path: '/faq', status: 200 },
  { kind: 'certificate request', path: '/certificate-request', status: 200 },
  { kind: 'report a claim', path: '/report-a-claim', status: 200 },
  { kind: 'policy change', path: '/policy-change', status: 200 },
  { kind: 'opt-out', path: '/opt-out', status: 200 },
  { kind: 'opt-out received', path: '/opt-out/received', status: 200 },
  { kind: 'privacy', path: '/privacy', status: 200 },
  { kind: 'sitemap', path: '/sitemap', status: 200 },
  { kind: 'not found', path: '/no-such-page', status: 404 },
];

/** `path` in a language: English as it is, Spanish below /es (the home page is /es). */
export function inLanguage(path: string, language: 'en' | 'es'): string {
  if (language === 'en') return path;
  return path === '/' ? '/es' : `/es${path}`;
}

/** WCAG 1.4.12's text-spacing override, as the understanding document's bookmarklet applies it. */
export const TEXT_SPACING_CSS =
  '* { line-height: 1.5 !important; letter-spacing: 0.12em !important; word-spacing: 0.16em !important; } p { margin-bottom: 2em !important; }';

/**
 * Installs Playwright's fake clock, paused: nothing timed on the page (toasts' timers, animation frames) happens
 * until the test moves the clock on with fastForward/runFor. Call before the page is opened. The page's
 * performance.now() is frozen too: call leads.ts' `pastTooFast` before a submission the server must store.
 */
export async function pausedClock(page: Page) {
  await page.clock.install();
  await page.clock.pauseAt(Date.now() + 1000);
}

/** A quote form found by its fields' id prefix (home-quote, page-quote, product-quote, sidebar-quote), as forms.spec.ts does. */
export function quoteForm(page: Page, prefix: string) {
  const field = (name: string) => page.locator(`#${prefix}-${name}`);
  const form = page.locator('form').filter({ has: field('name') });
  return { form, field, consent: form.getByRole('checkbox'), submit: form.locator('button[type="submit"]') };
}

/** Fills every field of a quote form with valid values; consent ticked or not. */
export async function fillQuote(page: Page, prefix: string, email: string, { consent, vehicles = '3' }: { consent: boolean; vehicles?: string }) {
  const { field, consent: box } = quoteForm(page, prefix);
  await field('name').fill('Dana Ruiz');
  await field('email').fill(email);
  await field('phone').fill('(555) 210-0142');
  await field('company').fill('Red River Haulers LLC');
  await field('insurance_type').selectOption('hotshot');
  await field('vehicle_count').fill(vehicles);
  if (consent) await box.check();
}

/** The document's sideways overflow, and up to 5 elements that reach past the right edge (to say what to fix). */
export function sidewaysOverflow(page: Page) {
  return page.evaluate(() => {
    const root = document.documentElement;
    const width = root.clientWidth;
    const clipped = (element: Element) => {
      for (let up = element.parentElement; up && up !== root && up !== document.body; up = up.parentElement) {
        if (getComputedStyle(up).overflowX !== 'visible') return true;
      }
      return false;
    };
    const offenders: string[] = [];
    for (const element of document.body.querySelectorAll('*')) {
      if (offenders.length >= 5) break;
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.right <= width + 0.5 || clipped(element)) continue;
      // Only the innermost: an element none of whose children reaches as far.
      if ([...element.children].some((child) => child.getBoundingClientRect().right >= box.right - 0.5)) continue;
      const name = `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}`;
      const text = element instanceof HTMLElement ? element.innerText : (element.textContent ?? '');
      offenders.push(`${name} "${text.trim().replace(/\s+/g, ' ').slice(0, 30)}" right=${Math.round(box.right)}`);
    }
    return { scrollWidth: root.scrollWidth, clientWidth: width, offenders };
  });
}

/**
 * The header's visible parts that are not where a person can see them: past the viewport's left or right edge
 * (`horizontal`), or sticking out of the header's box above or below (`vertical`, a logo wrapped to lines the
 * header has no room for). Visually hidden text (1 px boxes) and closed menus are left out.
 */
export function headerOutOfBounds(page: Page, { vertical }: { vertical: boolean }) {
  return page.evaluate((vertical) => {
    const header = document.querySelector('header');
    if (!header) return ['no <header>'];
    const bounds = header.getBoundingClientRect();
    const width = document.documentElement.clientWidth;
    const problems: string[] = [];
    for (const element of header.querySelectorAll('*')) {
      if (!element.checkVisibility({ visibilityProperty: true })) continue;
      const box = element.getBoundingClientRect();
      if (box.width <= 1 || box.height <= 1) continue;
      const text = element instanceof HTMLElement ? element.innerText : (element.textContent ?? '');
      const name = `${element.tagName.toLowerCase()} "${text.trim().replace(/\s+/g, ' ').slice(0, 30)}"`;
      if (box.left < -0.5 || box.right > width + 0.5) problems.push(`${name} spans x=${Math.round(box.left)}..${Math.round(box.right)} of ${width}`);
      if (vertical && (box.top < bounds.top - 0.5 || box.bottom > bounds.bottom + 0.5)) {
        problems.push(`${name} spans y=${Math.round(box.top)}..${Math.round(box.bottom)}, the header ${Math.round(bounds.top)}..${Math.round(bounds.bottom)}`);
      }
    }
    return problems;
  }, vertical);
}

/**
 * Whether a select shows its chosen option whole. The measure: a copy of the select holding only that option, in the
 * same place (so the same inherited and injected styles apply), sized by the browser to its content
 * (`width: max-content`): the width the browser itself needs to show the option with the select's padding, border
 * and arrow. The select is cut short when it is narrower than that. A select styled to wrap its text may instead
 * grow taller: then the copy has the select's own width, and the select must be as tall as the copy. (A select's scrollWidth does not grow with its
 * text, and measuring the text alone would have to guess the arrow's width.)
 */
export function selectFits(select: Locator) {
  return select.evaluate((element: HTMLSelectElement) => {
    const option = element.options[element.selectedIndex] ?? element.options[0];
    const probe = element.cloneNode(false) as HTMLSelectElement;
    for (const attribute of ['id', 'name', 'required', 'aria-describedby', 'aria-invalid']) probe.removeAttribute(attribute);
    if (option) probe.append(option.cloneNode(true));
    probe.setAttribute('aria-hidden', 'true');
    const box = element.getBoundingClientRect();
    // A select whose text wraps (white-space other than nowrap/pre) may show a long choice on two lines: then what it
    // needs is the height of its text at its own width. One that keeps one line needs the width of its text.
    const wraps = !/^(nowrap|pre)$/.test(getComputedStyle(element).whiteSpace);
    probe.style.cssText += wraps
      ? `;position:absolute;visibility:hidden;width:${box.width}px;height:auto;min-height:0;max-height:none;`
      : ';position:absolute;visibility:hidden;width:max-content;min-width:0;max-width:none;';
    element.after(probe);
    const probed = probe.getBoundingClientRect();
    probe.remove();
    const [needed, actual] = wraps ? [probed.height, box.height] : [probed.width, box.width];
    return { text: option?.text ?? '', dimension: wraps ? 'height' : 'width', needed: Math.ceil(needed), actual: Math.floor(actual) + 1 };
  });
}

/** What has focus now, where it is, and whether the sticky header or anything else lies over it. */
export function focusedState(page: Page) {
  return page.evaluate(() => {
    const element = document.activeElement;
    const header = document.querySelector('header');
    if (!element || element === document.body || element === document.documentElement) return null;
    const box = element.getBoundingClientRect();
    const headerBox = header?.getBoundingClientRect();
    const atPoint = (x: number, y: number) => {
      const hit = document.elementFromPoint(x, y);
      return hit !== null && (hit === element || element.contains(hit));
    };
    const label = element.getAttribute('aria-label') ?? (element as HTMLElement).innerText ?? '';
    return {
      description: `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''} "${label.trim().replace(/\s+/g, ' ').slice(0, 40)}"`,
      box: { top: box.top, bottom: box.bottom, left: box.left, right: box.right, width: box.width, height: box.height },
      viewport: { width: document.documentElement.clientWidth, height: window.innerHeight },
      headerBottom: headerBox?.bottom ?? 0,
      inHeader: header?.contains(element) ?? false,
      inFooter: element.closest('footer') !== null,
      // Painted over the header (the skip link): nothing is over its top edge.
      onTopAtItsTop: atPoint(box.left + box.width / 2, box.top + 1),
      // Nothing covers its middle (a toast, say); if something does, what.
      uncoveredAtCentre: atPoint(box.left + box.width / 2, box.top + box.height / 2),
      atCentre: (() => {
        const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
        if (!hit) return 'nothing (off screen)';
        const text = hit instanceof HTMLElement ? hit.innerText : '';
        return `${hit.tagName.toLowerCase()}${hit.className && typeof hit.className === 'string' ? `.${hit.className.split(/\s+/)[0]}` : ''} "${text.trim().replace(/\s+/g, ' ').slice(0, 40)}"`;
      })(),
    };
  });
}

/**
 * A focused element's focus indicator: its outline, or when it has none its outermost box-shadow ring; its colour and
 * thickness; the colours around it (the first opaque background outward from the element's parent, or from the
 * element when the indicator is drawn inside it, with any translucent layers and each stop of a gradient on the way);
 * and the lowest WCAG contrast ratio between the indicator (blended over what is behind it) and those colours.
 * Every colour goes through a canvas, so the browser converts whatever colour space the styles use.
 */
export function focusIndicator(target: Locator) {
  return target.evaluate(async (element) => {
    // The indicator may fade in (transition-colors includes outline-color): read it once it has settled.
    await Promise.all(element.getAnimations().map((animation) => animation.finished.catch(() => undefined)));
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = 1;
    const context = canvas.getContext('2d', { willReadFrequently: true })!;
    type Rgba = [number, number, number, number];
    /** A CSS colour painted over an opaque `under` (or alone on a transparent pixel): the pixel's RGBA. */
    const paint = (color: string, under?: string): Rgba => {
      context.clearRect(0, 0, 1, 1);
      if (under) {
        context.fillStyle = under;
        context.fillRect(0, 0, 1, 1);
      }
      context.fillStyle = '#010203';
      context.fillStyle = color;
      if (context.fillStyle === '#010203' && !/^#010203$/i.test(color)) throw new Error(`the canvas cannot read the colour ${color}`);
      context.fillRect(0, 0, 1, 1);
      const [r, g, b, a] = context.getImageData(0, 0, 1, 1).data;
      return [r!, g!, b!, a!];
    };
    const css = ([r, g, b, a]: Rgba) => (a === 255 ? `rgb(${r}, ${g}, ${b})` : `rgba(${r}, ${g}, ${b}, ${(a / 255).toFixed(3)})`);
    const luminance = ([r, g, b]: Rgba) => {
      const channel = (value: number) => {
        const s = value / 255;
        return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
    };
    const ratio = (a: Rgba, b: Rgba) => {
      const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
      return (high + 0.05) / (low + 0.05);
    };
    const colorPattern = /(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch|color)\([^()]*\)|#[0-9a-f]{3,8}\b/gi;
    /** A top-level comma-separated list (commas inside parentheses belong to colours). */
    const splitList = (value: string) => {
      const parts: string[] = [];
      let depth = 0;
      let start = 0;
      for (let i = 0; i < value.length; i += 1) {
        if (value[i] === '(') depth += 1;
        else if (value[i] === ')') depth -= 1;
        else if (value[i] === ',' && depth === 0) {
          parts.push(value.slice(start, i).trim());
          start = i + 1;
        }
      }
      parts.push(value.slice(start).trim());
      return parts.filter(Boolean);
    };

    const style = getComputedStyle(element);
    let indicator: { kind: string; color: string; thickness: number; inside: boolean } | null = null;
    const outlineWidth = parseFloat(style.outlineWidth) || 0;
    if (style.outlineStyle !== 'none' && outlineWidth > 0 && paint(style.outlineColor)[3] > 0) {
      indicator = { kind: `outline ${style.outlineStyle}`, color: style.outlineColor, thickness: outlineWidth, inside: (parseFloat(style.outlineOffset) || 0) < 0 };
    } else if (style.boxShadow !== 'none') {
      // Rings: shadows with no offset and no blur, drawn by their spread. The outermost visible one is the indicator;
      // its thickness is how far it reaches past the next ring inside it (Tailwind's ring-offset is such a ring).
      const rings = splitList(style.boxShadow)
        .map((shadow) => {
          const color = shadow.match(colorPattern)?.[0] ?? 'currentcolor';
          const lengths = shadow.replace(colorPattern, '').match(/-?[\d.]+px/g)?.map(parseFloat) ?? [];
          const [x = 0, y = 0, blur = 0, spread = 0] = lengths;
          return { color, spread, inset: /\binset\b/.test(shadow), ring: x === 0 && y === 0 && blur === 0 };
        })
        .filter((shadow) => shadow.ring && shadow.spread > 0 && paint(shadow.color)[3] > 0)
        .sort((a, b) => b.spread - a.spread);
      const outer = rings[0];
      if (outer) {
        const inner = rings.find((ring) => ring.inset === outer.inset && ring.spread < outer.spread);
        indicator = { kind: `ring${outer.inset ? ' inset' : ''}`, color: outer.color, thickness: outer.spread - (inner?.spread ?? 0), inside: outer.inset };
      }
    }
    if (!indicator) return { indicator: null, summary: `no outline and no ring (outline ${style.outlineStyle} ${style.outlineWidth}, box-shadow ${style.boxShadow})` };
    const shown = indicator;

    // What is around the indicator: layers from the start element outward until an opaque background.
    const layers: string[][] = [];
    let base = 'rgb(255, 255, 255)';
    for (let up: Element | null = shown.inside ? element : element.parentElement; up; up = up.parentElement) {
      const upStyle = getComputedStyle(up);
      const gradient = upStyle.backgroundImage.includes('gradient') ? upStyle.backgroundImage.match(colorPattern) ?? [] : [];
      const color = upStyle.backgroundColor;
      const alpha = paint(color)[3];
      if (gradient.length > 0) layers.push(gradient);
      if (alpha === 255) {
        base = color;
        break;
      }
      if (alpha > 0) layers.push([color]);
    }
    // Composite from the opaque base up: each gradient stop gives one possible background.
    let backgrounds: string[] = [css(paint(base))];
    for (const layer of layers.reverse()) {
      backgrounds = backgrounds.flatMap((under) => layer.map((color) => css(paint(color, under))));
    }
    const measured = backgrounds.map((background) => {
      const indicatorOver = paint(shown.color, background);
      return { background, indicator: css(indicatorOver), ratio: ratio(indicatorOver, paint(background)) };
    });
    const worst = measured.reduce((a, b) => (b.ratio < a.ratio ? b : a));
    return {
      indicator: shown,
      backgrounds,
      ratio: worst.ratio,
      summary: `${shown.kind} ${css(paint(shown.color))} ${shown.thickness}px, shown as ${worst.indicator} on ${worst.background}: ${worst.ratio.toFixed(2)}:1`,
    };
  });
}

/** The visible text of the elements an element's aria-describedby names. */
export function describedText(field: Locator) {
  return field.evaluate((element) =>
    (element.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((id) => document.getElementById(id))
      .filter((described): described is HTMLElement => described !== null && described.checkVisibility({ visibilityProperty: true, opacityProperty: true }))
      .map((described) => described.innerText.trim())
      .filter(Boolean)
      .join(' | '),
  );
}

/**
 * The texts on the page matching `pattern` that a person sees as part of the page: visible, with a box, and not in
 * an overlay (no ancestor with position: fixed, where toasts live).
 */
export function pageTextsMatching(page: Page, pattern: RegExp) {
  return page.evaluate(
    ({ source, flags }) => {
      const pattern = new RegExp(source, flags);
      const found: string[] = [];
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const parent = node.parentElement;
        if (!parent || !pattern.test(node.textContent ?? '')) continue;
        if (!parent.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
        const box = parent.getBoundingClientRect();
        if (box.width <= 1 || box.height <= 1) continue;
        let overlay = false;
        for (let up: Element | null = parent; up; up = up.parentElement) {
          if (getComputedStyle(up).position === 'fixed') overlay = true;
        }
        if (!overlay) found.push(parent.innerText.trim().replace(/\s+/g, ' ').slice(0, 80));
      }
      return found;
    },
    { source: pattern.source, flags: pattern.flags },
  );
}

/**
 * Where the focused element meets a toast that can be seen: for each `.toast` shown (checkVisibility) whose box
 * overlaps the focused element's, a line saying both boxes. Empty when nothing is focused under a toast.
 */
export function focusUnderToasts(page: Page) {
  return page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return ['nothing has focus'];
    const box = element.getBoundingClientRect();
    const span = (b: DOMRect) => `x=${Math.round(b.left)}..${Math.round(b.right)} y=${Math.round(b.top)}..${Math.round(b.bottom)}`;
    return [...document.querySelectorAll('.toast')]
      .filter((toast) => toast.checkVisibility({ visibilityProperty: true, opacityProperty: true }))
      .map((toast) => toast.getBoundingClientRect())
      .filter((over) => box.bottom > over.top && box.top < over.bottom && box.right > over.left && box.left < over.right)
      .map((over) => `${element.tagName.toLowerCase()}#${element.id} at ${span(box)} under a toast at ${span(over)}`);
  });
}

/**
 * A field's border against what is on either side of it: the field's own background and the first opaque one
 * around it (colours through a canvas, so any colour space is read). The lower WCAG ratio of the two.
 */
export function borderContrast(field: Locator) {
  return field.evaluate((element) => {
    const context = document.createElement('canvas').getContext('2d', { willReadFrequently: true })!;
    const rgb = (color: string, under = 'rgb(255, 255, 255)') => {
      context.fillStyle = under;
      context.fillRect(0, 0, 1, 1);
      context.fillStyle = color;
      context.fillRect(0, 0, 1, 1);
      return [...context.getImageData(0, 0, 1, 1).data].slice(0, 3) as [number, number, number];
    };
    const luminance = (c: [number, number, number]) =>
      c.map((v) => (v / 255 <= 0.04045 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4)).reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i]!, 0);
    const ratio = (a: [number, number, number], b: [number, number, number]) => {
      const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
      return (high + 0.05) / (low + 0.05);
    };
    let around = 'rgb(255, 255, 255)';
    for (let up = element.parentElement; up; up = up.parentElement) {
      const color = getComputedStyle(up).backgroundColor;
      if (rgb(color, 'rgb(0, 0, 0)').join() === rgb(color).join()) {
        around = color;
        break;
      }
    }
    const style = getComputedStyle(element);
    const inside = rgb(style.backgroundColor, around);
    const border = rgb(style.borderTopColor, around);
    const outside = rgb(around);
    const ratios = [ratio(border, inside), ratio(border, outside)];
    return { ratio: Math.min(...ratios), summary: `border ${style.borderTopColor} (${style.borderTopWidth}), inside ${style.backgroundColor}, around ${around}: ${ratios.map((r) => r.toFixed(2)).join(' and ')}:1` };
  });
}

/** An element's accessibility properties as Chromium exposes them (invalid, required, ...), through the DevTools protocol. */
export async function axProperties(page: Page, selector: string): Promise<Record<string, unknown>> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
    if (!nodeId) throw new Error(`no element matches ${selector}`);
    const { nodes } = await cdp.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: false });
    return Object.fromEntries((nodes[0]?.properties ?? []).map((property) => [property.name, property.value.value]));
  } finally {
    await cdp.detach();
  }
}
