// A one-open-at-a-time FAQ accordion: <details name=...> does it natively, with or without script.
import type { Faq as FaqEntry } from '../content';
import { paragraphs } from '../content';
import { Icon } from '../ui/Icon';

export function Faq({ items, group }: { items: FaqEntry[]; group: string }) {
  return (
    <div className="mx-auto max-w-3xl divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white">
      {items.map((item) => (
        <details key={item.question} name={group} className="faq-item group">
          <summary className="flex items-center justify-between gap-4 px-6 py-5 text-left text-lg font-semibold text-ink hover:text-steel">
            <h3 className="contents">{item.question}</h3>
            <Icon name="chevronDown" className="faq-chevron size-5 shrink-0 transition-transform" />
          </summary>
          <div className="space-y-3 px-6 pb-6 text-muted">
            {paragraphs(item.answer).map((p) => (
              <p key={p}>{p}</p>
            ))}
          </div>
        </details>
      ))}
    </div>
  );
}
