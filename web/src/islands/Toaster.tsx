// The notification area: one toast at a time (spec: "toasts are shown one at a time"), always the newest: a new
// toast replaces the one on screen at once, so a success never waits behind an earlier error. Announced politely,
// or assertively for errors. Nothing vanishes before it is read (WCAG 2.2.1): an error stays until dismissed or
// replaced; a success (whose news also stays on the page, in the form's place: ./Received) closes after a few
// seconds, but never while the pointer is on it or focus is in it. And it never hides what has focus (2.4.11): while
// one is shown the page can scroll past it, and what has focus as it appears, or takes focus under it later (by Tab
// or a script, not by a press, which must stay on what it pressed), is scrolled clear of it. Where the screen has no
// room for both (400 % zoom: 320x200), the toast leaves the screen's edge for the page's end, in the flow, where it
// covers nothing; its live region has announced it, and what it says is beside the field that has focus.
import { t } from '@i18n/islands';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { Icon } from '../ui/Icon';
import { TOAST_EVENT, toasterListening, type ToastMessage } from './toast';

/** How long a toast stays once nothing holds it; errors stay until dismissed. */
const SHOWN_MS = { default: 6000, success: 6000, destructive: null } as const;
/** Room kept between a focused element and the toast above which it is scrolled. */
const CLEARANCE_PX = 12;

export default function Toaster() {
  const [current, setCurrent] = useState<(ToastMessage & { id: number }) | null>(null);
  const nextId = useRef(1);
  // The toast (by id) the pointer is on, and the one focus is inside: its time does not run. By id, because a toast
  // replaced or dismissed while held gets no mouseleave or blur, and must not pass its hold on to the next one.
  const [hoveredId, setHoveredId] = useState<number | null>(null);
  const [focusedId, setFocusedId] = useState<number | null>(null);
  const toastElement = useRef<HTMLDivElement>(null);
  // The toast (by id) that would cover what has focus wherever the page scrolled: it is shown in the page's flow.
  const [inFlowId, setInFlowId] = useState<number | null>(null);
  // Where focus was before it came into the toast: where it goes back when the toast is dismissed from inside, rather
  // than falling to <body> with the removed button.
  const focusBefore = useRef<HTMLElement | null>(null);

  useEffect(() => {
    const receive = (event: Event) => {
      const message = (event as CustomEvent<ToastMessage>).detail;
      setCurrent({ ...message, id: nextId.current++ });
    };
    window.addEventListener(TOAST_EVENT, receive);
    const sentBeforeNow = toasterListening();
    if (sentBeforeNow) setCurrent({ ...sentBeforeNow, id: nextId.current++ });
    return () => window.removeEventListener(TOAST_EVENT, receive);
  }, []);

  const dismiss = () => {
    const back = toastElement.current?.contains(document.activeElement) ? focusBefore.current : null;
    flushSync(() => setCurrent(null));
    if (back?.isConnected) back.focus();
  };

  // Keyed by the toast's id: a replacement starts its own full time on screen, and so does a toast let go of.
  const held = current !== null && (hoveredId === current.id || focusedId === current.id);
  useEffect(() => {
    const shownMs = current && SHOWN_MS[current.variant ?? 'default'];
    if (!current || shownMs === null || held) return;
    const timer = window.setTimeout(() => setCurrent((shown) => (shown?.id === current.id ? null : shown)), shownMs);
    return () => window.clearTimeout(timer);
  }, [current, held]);

  // While a toast floats: the page ends its height further down, so whatever is under the toast can be scrolled
  // above it, and what has focus under it (as it appears, or later by Tab or a script) is scrolled until it is clear;
  // when no scrolling can clear it, the toast goes into the flow. Before the paint, so focus is never hidden at all.
  const inFlow = current !== null && inFlowId === current.id;
  useLayoutEffect(() => {
    const toast = toastElement.current;
    if (!current || !toast || inFlow) return;
    const body = document.body;
    const keepRoom = () => {
      body.style.paddingBottom = `${toast.getBoundingClientRect().height + 2 * CLEARANCE_PX}px`;
    };
    // A press (mouse, pen or finger) focuses what it is on before its release: scrolling then would move the page
    // under the pointer, and the click would land on whatever came there (a submit button's press would submit
    // nothing). What is being pressed is in sight, so focus is scrolled clear only when it comes another way (Tab, a
    // script). A press lasts until its click, or until it is given up (a drag away, or a key pressed instead).
    let pressing = false;
    const pressed = () => (pressing = true);
    const released = () => (pressing = false);
    const pressEvents = [
      ['pointerdown', pressed],
      ['click', released],
      ['pointercancel', released],
      ['keydown', released],
    ] as const;
    const keepClear = (focused: Element | null) => {
      if (pressing || !focused || focused === body || focused === document.documentElement || toast.contains(focused)) return;
      if (!covers(toast, focused)) return;
      // Up by what the toast covers, but never so far that the element's top goes under the sticky header (the
      // page's scroll-padding-top is the header's room).
      const headerRoom = parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop) || 0;
      const box = focused.getBoundingClientRect();
      const distance = Math.min(box.bottom + CLEARANCE_PX - toast.getBoundingClientRect().top, box.top - headerRoom);
      if (distance > 0) window.scrollBy({ top: distance, behavior: 'instant' });
      if (covers(toast, focused)) setInFlowId(current.id);
    };
    const refit = () => {
      keepRoom();
      keepClear(document.activeElement);
    };
    refit();
    const resized = new ResizeObserver(refit);
    resized.observe(toast);
    window.addEventListener('resize', refit);
    const focusIn = (event: FocusEvent) => keepClear(event.target instanceof Element ? event.target : null);
    for (const [name, listener] of pressEvents) document.addEventListener(name, listener, true);
    document.addEventListener('focusin', focusIn);
    return () => {
      resized.disconnect();
      window.removeEventListener('resize', refit);
      document.removeEventListener('focusin', focusIn);
      for (const [name, listener] of pressEvents) document.removeEventListener(name, listener, true);
      body.style.paddingBottom = '';
    };
  }, [current, inFlow]);

  const destructive = current?.variant === 'destructive';
  const body = current && (
    <div
      key={current.id}
      ref={toastElement}
      onMouseEnter={() => setHoveredId(current.id)}
      onMouseLeave={() => setHoveredId(null)}
      onFocus={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) focusBefore.current = event.relatedTarget instanceof HTMLElement ? event.relatedTarget : null;
        setFocusedId(current.id);
      }}
      onBlur={(event) => setFocusedId(event.currentTarget.contains(event.relatedTarget) ? current.id : null)}
      data-variant={current.variant ?? 'default'}
      className={`toast pointer-events-auto flex w-full max-w-sm items-start gap-3 rounded-xl border p-4 shadow-2xl ${
        destructive ? 'border-danger bg-danger text-white' : 'border-slate-200 bg-white text-ink'
      }`}
    >
      {current.variant === 'success' && <Icon name="checkCircle" className="mt-0.5 size-5 shrink-0 text-success" />}
      {destructive && <Icon name="alert" className="mt-0.5 size-5 shrink-0" />}
      <div className="min-w-0 flex-1">
        <p className="font-semibold">{current.title}</p>
        {current.description && <p className={`mt-1 text-sm ${destructive ? 'text-white' : 'text-muted'}`}>{current.description}</p>}
      </div>
      <button type="button" onClick={dismiss} className="-m-1 rounded p-1" aria-label={t('Dismiss notification')}>
        <Icon name="close" className="size-4" />
      </button>
    </div>
  );

  return (
    <div className={`pointer-events-none flex flex-col items-center gap-2 p-4 sm:items-end ${inFlow ? '' : 'fixed inset-x-0 bottom-0 z-[60]'}`}>
      <div role="status" aria-live="polite" className="flex w-full flex-col items-center sm:items-end">
        {!destructive && body}
      </div>
      <div role="alert" aria-live="assertive" className="flex w-full flex-col items-center sm:items-end">
        {destructive && body}
      </div>
    </div>
  );
}

/** Whether the toast's box and `element`'s overlap, with the clearance kept above the toast. */
function covers(toast: Element, element: Element): boolean {
  const [box, over] = [element.getBoundingClientRect(), toast.getBoundingClientRect()];
  return box.bottom + CLEARANCE_PX > over.top && box.top < over.bottom && box.right > over.left && box.left < over.right;
}
