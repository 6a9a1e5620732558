// A grid of feature cards, each an icon on a tinted tile, a title and a line of text: why truckers choose us, why
// our quotes, how a coverage package is built. Icons are taken in turn.
import type { TitledText } from '../content';
import { Card, type CardVariant } from '../ui/Card';
import { Icon, type IconName } from '../ui/Icon';

export function FeatureCards({ items, icons, variant = 'outline' }: { items: TitledText[]; icons: IconName[]; variant?: CardVariant }) {
  return (
    <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
      {items.map((item, i) => (
        <Card key={item.title} variant={variant}>
          <span className="flex size-12 items-center justify-center rounded-xl bg-sky text-navy">
            <Icon name={icons[i % icons.length] ?? 'shield'} className="size-6" />
          </span>
          <h3 className="mt-5 text-xl font-bold">{item.title}</h3>
          <p className="mt-2 text-muted">{item.text}</p>
        </Card>
      ))}
    </div>
  );
}
