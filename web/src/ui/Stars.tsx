// A star rating with its text alternative ("Rated 4 out of 5").
// Its text is in the islands' table, like every ui/ part's: any of them may be rendered inside an island.
import { t } from '@i18n/islands';
import { Icon } from './Icon';

export function Stars({ rating }: { rating: number }) {
  return (
    <p className="flex gap-0.5" role="img" aria-label={t('Rated {rating} out of 5', { rating })}>
      {[1, 2, 3, 4, 5].map((n) => (
        <Icon key={n} name="star" className={`size-5 ${n <= rating ? 'fill-amber text-amber-text' : 'text-slate-300'}`} />
      ))}
    </p>
  );
}
