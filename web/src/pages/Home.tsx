// Home: hero with the road canvas, why truckers choose us, products, testimonials, latest posts, FAQ, call to action.
import { t } from '@i18n/pages';
import { content, coverages, site, vehicles, type Product } from '../content';
import RoadCanvas from '../islands/RoadCanvas';
import { pages, telHref } from '../links';
import { ArrowLink } from '../ui/ArrowLink';
import { ButtonLink } from '../ui/Button';
import { Icon, type IconName } from '../ui/Icon';
import { Island } from '../ui/Island';
import { PostCard } from '../ui/PostCard';
import { Section, SectionHeading } from '../ui/Section';
import { CtaBanner } from '../widgets/CtaBanner';
import { Faq } from '../widgets/Faq';
import { FeatureCards } from '../widgets/FeatureCards';
import { ProductGrid } from '../widgets/ProductCards';
import { QuoteFormIsland } from '../widgets/QuoteFormIsland';
import { Testimonials } from '../widgets/Testimonials';
import { postCard } from './postCards';

const heroBadges: { label: string; icon: IconName }[] = [
  { label: t('Specialized Coverage'), icon: 'shieldCheck' },
  { label: t('Competitive Rates'), icon: 'dollar' },
  // The spec's '24/7 Support' only with the line that answers around the clock (content/facts.toml `[claims]`).
  { label: site.claims ? t('24/7 Claims {phone}', { phone: site.claims.phone }) : t('Claims Help'), icon: 'headset' },
];
const whyIcons: IconName[] = ['award', 'shield', 'trendDown', 'zap'];

/** One row of the products band: its heading, the first four products and a link to them all (`later`: not the first row). */
function ProductRow({ heading, products, moreHref, more, later = false }: { heading: string; products: Product[]; moreHref: string; more: string; later?: boolean }) {
  return (
    <>
      <h3 className={later ? 'mb-5 mt-12 text-2xl font-bold' : 'mb-5 text-2xl font-bold'}>{heading}</h3>
      <ProductGrid products={products.slice(0, 4)} headingLevel={4} />
      <p className="mt-6 text-right">
        <ArrowLink href={moreHref}>{more}</ArrowLink>
      </p>
    </>
  );
}

export function Home() {
  const { hero, why } = content.home;
  return (
    <>
      <section aria-labelledby="hero-heading" className="relative isolate overflow-hidden bg-ink text-white">
        <div className="absolute inset-0 -z-10 bg-gradient-to-r from-ink/90 via-ink/60 to-ink/10" aria-hidden="true" />
        {/* The bottom edge darkened under the pause button: its focus outline meets the road's amber centre line
            there on a phone (amber on amber), and now meets dark ground instead. */}
        <div className="absolute inset-x-0 bottom-0 -z-10 h-24 bg-gradient-to-t from-ink/85 to-transparent" aria-hidden="true" />
        <div className="container-site grid items-center gap-12 py-16 md:py-24 lg:grid-cols-[1.15fr_1fr]">
          <div>
            <p className="kicker !text-amber">{t('Commercial truck insurance since')}{' '}{site.founded}</p>
            <h1 id="hero-heading" className="mt-3 text-4xl font-extrabold tracking-tight text-balance md:text-5xl lg:text-6xl">
              {hero.headline}
            </h1>
            <p className="mt-6 max-w-xl text-lg text-slate-200 md:text-xl">{hero.subtext}</p>
            <div className="mt-8 flex flex-wrap gap-4">
              <ButtonLink href={pages.quote.href} size="lg">
                {t('Get Free Quote')}{' '}<Icon name="arrowRight" />
              </ButtonLink>
              <ButtonLink href={pages.products.href} size="lg" variant="ghostLight">
                {t('Explore Coverage Options')}
              </ButtonLink>
            </div>
            {/* Plain labels with their icons: a filled pill would read as a button, and these do nothing. */}
            <ul className="mt-10 flex flex-wrap gap-x-6 gap-y-3">
              {heroBadges.map((badge) => (
                <li key={badge.label} className="flex items-center gap-2 text-sm font-semibold text-slate-200">
                  <Icon name={badge.icon} className="size-5 shrink-0 text-amber" />
                  {badge.label}
                </li>
              ))}
            </ul>
          </div>
          <QuoteFormIsland idPrefix="home-quote" />
        </div>
        {/* The canvas island, last in the hero so that its pause button comes after the hero's links in the Tab order:
            its canvas behind everything (-z-20, under the gradients), its button over the hero's bottom padding; the
            container itself lets clicks through to the content. */}
        <Island name="RoadCanvas" component={RoadCanvas} props={{}} className="pointer-events-none absolute inset-0" />
      </section>

      <Section labelledBy="why-heading">
        <SectionHeading
          id="why-heading"
          kicker={t('Why {brand}', { brand: site.brand })}
          title={t('Why Truckers Choose Us')}
          intro={t('We have insured owner-operators and fleets since {year}, and trucking is all we do.', { year: site.founded })}
        />
        <FeatureCards items={why} icons={whyIcons} variant="flat" />
      </Section>

      <Section tone="mist" labelledBy="products-heading">
        <SectionHeading
          id="products-heading"
          kicker={t('Coverage')}
          title={t('Insurance for Every Truck and Every Risk')}
          intro={t('Start with the truck you run, or the coverage you need. Every policy is built around your operation.')}
        />
        <ProductRow heading={t('By Vehicle Type')} products={vehicles} moreHref={pages.products.href} more={t('View All Vehicle Types')} />
        <ProductRow heading={t('By Coverage Type')} products={coverages} moreHref={pages.coverageTypes.href} more={t('View All Coverage Types')} later />
      </Section>

      <Testimonials />

      <Section labelledBy="blog-heading">
        <SectionHeading id="blog-heading" kicker={t('From the blog')} title={t('Insights for Truckers')} intro={t('Practical guides on coverage, filings, safety and keeping premiums in check.')} />
        <div className="grid gap-8 md:grid-cols-3">
          {content.posts.slice(0, 3).map((post) => (
            <PostCard key={post.slug} post={postCard(post)} />
          ))}
        </div>
        <p className="mt-10 text-center">
          <ButtonLink href={pages.blog.href} variant="outline">
            {t('View All Posts')}
          </ButtonLink>
        </p>
      </Section>

      <Section tone="mist" labelledBy="faq-heading">
        <SectionHeading id="faq-heading" kicker={t('FAQ')} title={t('Frequently Asked Questions')} />
        <Faq items={content.faq.slice(0, 4)} group="home-faq" />
        <p className="mt-8 text-center">
          <a href={pages.faq.href} className="font-semibold text-steel hover:text-navy">
            {t('See all questions')}
          </a>{' '}
          <span className="text-muted">{t('or call')}</span>{' '}
          <a href={telHref} className="font-semibold text-steel hover:text-navy">
            {site.phone}
          </a>
        </p>
      </Section>

      <CtaBanner />
    </>
  );
}
