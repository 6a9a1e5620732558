// The one band of a page that only says something (not found, an error, thanks): a narrow column, and the message's
// heading: a mark above it (an icon, the status code), the title and a line under it. `ThanksHeading` is the heading
// of a request taken.
import type { ReactNode } from 'react';
import { Icon } from '../ui/Icon';

export function MessageBand({
  labelledBy,
  width = 'max-w-2xl',
  centred = true,
  children,
}: {
  labelledBy: string;
  width?: 'max-w-2xl' | 'max-w-3xl';
  /** Everything centred; without, the caller centres what it wants (the heading, the buttons). */
  centred?: boolean;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={labelledBy} className="py-20 md:py-28">
      <div className={`container-site ${width}${centred ? ' text-center' : ''}`}>{children}</div>
    </section>
  );
}

/** `gap`: the space between the mark and the title (more under an icon than under a number). */
export function MessageHeading({ id, mark, title, text, gap = 'mt-6' }: { id: string; mark: ReactNode; title: string; text: string; gap?: 'mt-4' | 'mt-6' }) {
  return (
    <>
      {mark}
      <h1 id={id} className={`${gap} text-3xl font-bold md:text-4xl`}>
        {title}
      </h1>
      <p className="mt-4 text-lg text-muted">{text}</p>
    </>
  );
}

/** A request taken: the green tick, the thanks and what comes next (the heading `thanks-title`). */
export function ThanksHeading({ title, text }: { title: string; text: string }) {
  return <MessageHeading id="thanks-title" mark={<Icon name="checkCircle" className="mx-auto size-16 text-success" />} title={title} text={text} />;
}
