// The lasting confirmation that takes a sent form's place ("Request received"): a toast says it too, but a toast is
// gone once dismissed, and a form emptied under the visitor's eyes says nothing. Focus moves to its heading when it
// appears (the form's focused button is gone with the form), so a keyboard or screen-reader user lands on the news,
// and a phone scrolls to it. "Send another" brings the empty form back, with focus on its first field.
import { useEffect, useRef, type ReactNode } from 'react';
import { Icon } from '../ui/Icon';

export interface ReceivedProps {
  /** Ids' prefix of the form it replaces: its heading's id is `${idPrefix}-received`. */
  idPrefix: string;
  title: string;
  description: string;
  /** The label of the button that brings the form back; no button without it. */
  again?: string;
  onAgain?: () => void;
  compact?: boolean;
  /** More to read under the description (the opt-out's "what happens next"). */
  children?: ReactNode;
}

export function Received({ idPrefix, title, description, again, onAgain, compact = false, children }: ReceivedProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  // Mounted only by a sent form, never at hydration: taking focus here follows the visitor's own action.
  useEffect(() => heading.current?.focus(), []);
  const headingId = `${idPrefix}-received`;
  return (
    <section aria-labelledby={headingId} className={`rounded-2xl bg-white text-ink ${compact ? 'border border-slate-200 p-6 shadow-lg' : 'p-6 shadow-2xl md:p-8'}`}>
      <div className="flex items-start gap-3">
        <Icon name="checkCircle" className="mt-1 size-7 shrink-0 text-success" />
        <div className="min-w-0">
          <h2 ref={heading} id={headingId} tabIndex={-1} className={`font-bold ${compact ? 'text-xl' : 'text-2xl'}`}>
            {title}
          </h2>
          <p className="mt-2 text-muted">{description}</p>
          {children}
        </div>
      </div>
      {again && (
        <button
          type="button"
          onClick={onAgain}
          className="mt-5 rounded-lg border-2 border-navy px-5 py-2.5 font-semibold text-navy hover:bg-sky"
        >
          {again}
        </button>
      )}
    </section>
  );
}
