// The notification area: one toast at a time (spec: "toasts are shown one at a time"), always the newest: a new
// toast replaces the one on screen at once, so a success never waits behind an earlier error. Each stays a few
// seconds or until dismissed, announced politely, or assertively for errors.
import { t } from '@i18n/islands';
import { useEffect, useRef, useState } from 'react';
import { Icon } from '../ui/Icon';
import { TOAST_EVENT, toasterListening, type ToastMessage } from './toast';

const SHOWN_MS = { default: 6000, success: 6000, destructive: 9000 } as const;

export default function Toaster() {
  const [current, setCurrent] = useState<(ToastMessage & { id: number }) | null>(null);
  const nextId = useRef(1);

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

  const dismiss = () => setCurrent(null);

  // Keyed by the toast's id: a replacement starts its own full time on screen.
  useEffect(() => {
    if (!current) return;
    const timer = window.setTimeout(() => setCurrent((shown) => (shown?.id === current.id ? null : shown)), SHOWN_MS[current.variant ?? 'default']);
    return () => window.clearTimeout(timer);
  }, [current]);

  const destructive = current?.variant === 'destructive';
  const body = current && (
    <div
      key={current.id}
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
    <div className="pointer-events-none fixed inset-x-0 bottom-0 z-[60] flex flex-col items-center gap-2 p-4 sm:items-end">
      <div role="status" aria-live="polite" className="flex w-full flex-col items-center sm:items-end">
        {!destructive && body}
      </div>
      <div role="alert" aria-live="assertive" className="flex w-full flex-col items-center sm:items-end">
        {destructive && body}
      </div>
    </div>
  );
}
