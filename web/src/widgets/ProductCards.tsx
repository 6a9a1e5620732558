// Product cards: vehicle types (with features) and coverage types (with the typical minimum, and on
// /coverage-types who requires it).
import { t } from '@i18n/pages';
import type { Product } from '../content';
import { productHref } from '../links';
import { Card } from '../ui/Card';
import { Icon } from '../ui/Icon';
import { IconList } from '../ui/IconList';
import { Image } from '../ui/Image';

export function ProductCard({ product, showRequiredBy = false, headingLevel = 3 }: { product: Product; showRequiredBy?: boolean; headingLevel?: 2 | 3 | 4 }) {
  const Heading = `h${headingLevel}` as const;
  return (
    <Card as="article" variant="link" padding="none" className="group relative flex flex-col overflow-hidden">
      <div className="bg-sky">
        <Image path={product.image} alt="" width={800} height={500} className="aspect-[8/5] h-auto w-full" />
      </div>
      <div className="flex flex-1 flex-col p-6">
        <Heading className="text-xl font-bold text-ink">{product.title}</Heading>
        <p className="mt-2 text-muted">{product.card_description}</p>
        {product.kind === 'vehicle' ? (
          <IconList items={product.features} icon="check" className="mt-4 space-y-1.5 text-sm" itemClassName="flex gap-2" iconClassName="mt-0.5 size-4 shrink-0 text-success" />
        ) : (
          <dl className="mt-4 space-y-2 text-sm">
            {showRequiredBy && product.required_by && (
              <div>
                <dt className="font-semibold text-ink">{t('Required By')}</dt>
                <dd className="text-muted">{product.required_by}</dd>
              </div>
            )}
            <div>
              <dt className="font-semibold text-ink">{t('Typical Minimum')}</dt>
              <dd className="text-muted">{product.min_coverage}</dd>
            </div>
          </dl>
        )}
        <a
          href={productHref(product)}
          className="mt-6 inline-flex items-center gap-1 font-semibold text-steel after:absolute after:inset-0 hover:text-navy"
        >
          {t('Learn More')}<span className="sr-only">{' '}{t('about')}{' '}{product.title}</span> <Icon name="arrowRight" className="size-4" />
        </a>
      </div>
    </Card>
  );
}

export function ProductGrid({ products, showRequiredBy = false, headingLevel = 3 }: { products: Product[]; showRequiredBy?: boolean; headingLevel?: 2 | 3 | 4 }) {
  return (
    <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
      {products.map((product) => (
        <ProductCard key={product.slug} product={product} showRequiredBy={showRequiredBy} headingLevel={headingLevel} />
      ))}
    </div>
  );
}
