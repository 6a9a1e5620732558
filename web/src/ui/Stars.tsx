// A star rating with its text alternative ("Rated 4 out of 5").
import { Icon } from './Icon';

export function Stars({ rating }: { rating: number }) {
  return (
    <p className="flex gap-0.5" role="img" aria-label={`Rated ${rating} out of 5`}>
      {[1, 2, 3, 4, 5].map((n) => (
        <Icon key={n} name="star" className={`size-5 ${n <= rating ? 'fill-amber text-amber-text' : 'text-slate-300'}`} />
      ))}
    </p>
  );
}
