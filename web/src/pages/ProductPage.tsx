// One template for every product page (content/products/<slug>.toml): hero with highlights and the quote panel,
// overview, illustration, type list, coverage options, important information, benefits, a second quote form beside
// them on a desktop, FAQ (the page's own, or the general FAQ's first entries) and a closing call to action.
import { t } from '@i18n/pages';
import { content, type Product } from '../content';
import { Icon } from '../ui/Icon';
import { IconList } from '../ui/IconList';
import { Image } from '../ui/Image';
import { CtaBanner } from '../widgets/CtaBanner';
import { Faq } from '../widgets/Faq';
import { Paragraphs } from '../widgets/NarrowSection';
import { PageHero } from '../widgets/PageHero';
import { QuoteFormIsland } from '../widgets/QuoteFormIsland';

export function ProductPage({ product }: { product: Product }) {
  const faqs = product.faqs.length > 0 ? product.faqs : content.faq.slice(0, 4);
  return (
    <>
      <PageHero
        kicker={product.kind === 'vehicle' ? t('Insurance by vehicle type') : t('Insurance by coverage type')}
        title={product.title}
        intro={product.description}
        aside={<QuoteFormIsland idPrefix="product-quote" heading={t('Quote {product} Coverage', { product: product.menu_label })} insuranceType={product.insurance_type} />}
      >
        <h2 className="mt-8 text-lg font-bold text-white">{t('Coverage Highlights')}</h2>
        <IconList
          items={product.coverage_points.slice(0, 3)}
          icon="checkCircle"
          className="mt-3 space-y-2"
          itemClassName="flex gap-3 text-slate-100"
          iconClassName="mt-0.5 size-5 shrink-0 text-amber"
        />
      </PageHero>

      <div className="container-site grid gap-12 py-16 lg:grid-cols-[1fr_20rem]">
        <div className="min-w-0 space-y-14">
          <section aria-labelledby="overview-heading">
            <h2 id="overview-heading" className="text-3xl font-bold">
              {t('Comprehensive {product}', { product: product.title })}
            </h2>
            <Paragraphs text={product.overview} />
            <figure className="mt-8 overflow-hidden rounded-2xl bg-sky">
              <Image path={product.image} alt={product.image_alt} width={800} height={500} className="h-auto w-full" />
            </figure>
          </section>

          {product.types && product.types_heading && (
            <section aria-labelledby="types-heading">
              <h2 id="types-heading" className="text-2xl font-bold">
                {product.types_heading}
              </h2>
              <IconList
                items={product.types}
                icon="truck"
                className="mt-5 grid gap-3 sm:grid-cols-2"
                itemClassName="flex items-center gap-3 rounded-xl bg-mist px-4 py-3 font-medium"
                iconClassName="size-5 shrink-0 text-steel"
              />
            </section>
          )}

          <section aria-labelledby="options-heading">
            <h2 id="options-heading" className="text-2xl font-bold">
              {t('Coverage Options')}
            </h2>
            <ul className="mt-5 grid gap-4 md:grid-cols-2">
              {product.coverage_points.map((point) => (
                <li key={point} className="flex gap-3 rounded-xl border border-slate-200 p-4">
                  <Icon name="shieldCheck" className="mt-0.5 size-5 shrink-0 text-steel" />
                  <span>{point}</span>
                </li>
              ))}
            </ul>
          </section>

          <aside aria-labelledby="important-heading" className="flex gap-4 rounded-2xl border-l-4 border-amber bg-mist p-6">
            <Icon name="info" className="size-6 shrink-0 text-navy" />
            <div>
              <h2 id="important-heading" className="font-bold">
                {t('Important Information')}
              </h2>
              <p className="mt-1 text-muted">
                {t('Coverage requirements vary by state and by type of operation, and every policy\'s terms, limits and exclusions decide what it covers. Contact us for guidance on what your operation needs.')}
              </p>
            </div>
          </aside>

          <section aria-labelledby="benefits-heading">
            <h2 id="benefits-heading" className="text-2xl font-bold">
              {t('Benefits of Our {product}', { product: product.title })}
            </h2>
            <ul className="mt-5 space-y-3">
              {product.benefits.map((benefit) => (
                <li key={benefit} className="flex gap-3">
                  <Icon name="check" className="mt-1 size-5 shrink-0 text-success" />
                  <span className="text-lg">{benefit}</span>
                </li>
              ))}
            </ul>
          </section>
        </div>
        {/* The side form: from 1024 px, beside the article. Below that the column would put it after the article, a
            second copy of the hero's form (the closing banner leads to the quote page). Not sticky: at 1,079 px
            (1,242 in Spanish, more with errors or the details form after a quote) it is taller than most screens,
            and a sticky box taller than the screen keeps its lower fields, and its button, out of reach. */}
        <div className="hidden lg:block">
          <QuoteFormIsland idPrefix="sidebar-quote" compact heading={t('Ready for a Quote?')} insuranceType={product.insurance_type} />
        </div>
      </div>

      <section aria-labelledby="product-faq-heading" className="bg-mist py-16">
        <div className="container-site">
          <h2 id="product-faq-heading" className="mb-8 text-center text-3xl font-bold">
            {product.faqs.length > 0 ? t('{product} Questions', { product: product.menu_label }) : t('Frequently Asked Questions')}
          </h2>
          <Faq items={faqs} group="product-faq" />
        </div>
      </section>

      <CtaBanner title={t('Ready to Get Covered with {product}?', { product: product.title })} />
    </>
  );
}
