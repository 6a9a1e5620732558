// The overview and company pages: products, coverage types, get a quote, about, contact, FAQ, the legal and
// partner documents, and the human-readable sitemap.
import { content, coverages, document as documentCopy, formatDate, hoursText, mailHref, menuCoverages, page, site, telHref, vehicles, type Faq as FaqEntry, type TitledText } from '../content';
import { ButtonLink } from '../ui/Button';
import { Icon, type IconName } from '../ui/Icon';
import { Section, SectionHeading } from '../ui/Section';
import { CtaBanner } from '../widgets/CtaBanner';
import { Faq } from '../widgets/Faq';
import { PageHero } from '../widgets/PageHero';
import { ProductGrid } from '../widgets/ProductCards';
import { QuoteFormIsland } from '../widgets/QuoteFormIsland';
import ContactForm from '../islands/ContactForm';
import { Island } from '../ui/Island';

interface Intro {
  heading: string;
  intro: string;
}

function Cards({ items, icons }: { items: TitledText[]; icons: IconName[] }) {
  return (
    <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
      {items.map((item, i) => (
        <div key={item.title} className="rounded-2xl border border-slate-200 bg-white p-7">
          <span className="flex size-12 items-center justify-center rounded-xl bg-sky text-navy">
            <Icon name={icons[i % icons.length] ?? 'shield'} className="size-6" />
          </span>
          <h3 className="mt-5 text-xl font-bold">{item.title}</h3>
          <p className="mt-2 text-muted">{item.text}</p>
        </div>
      ))}
    </div>
  );
}

export function ProductsOverview() {
  const copy = page<Intro>('products');
  return (
    <>
      <PageHero kicker="Our insurance" title={copy.heading} intro={copy.intro} />
      <Section labelledBy="vehicles-heading">
        <SectionHeading id="vehicles-heading" title="Insurance by Vehicle Type" intro="Coverage shaped around the truck you drive and the work it does." />
        <ProductGrid products={vehicles} />
      </Section>
      <Section tone="mist" labelledBy="coverages-heading">
        <SectionHeading id="coverages-heading" title="Insurance by Coverage Type" intro="The protections trucking operations combine into one program." />
        <ProductGrid products={menuCoverages} />
        <p className="mt-8 text-center">
          <a href="/coverage-types" className="inline-flex items-center gap-1 font-semibold text-steel hover:text-navy">
            Compare all coverage types <Icon name="arrowRight" className="size-4" />
          </a>
        </p>
      </Section>
      <Section labelledBy="specialist-heading">
        <div className="mx-auto max-w-3xl rounded-2xl bg-ink p-10 text-center text-white">
          <h2 id="specialist-heading" className="text-3xl font-bold">
            Not Sure What You Need?
          </h2>
          <p className="mt-4 text-lg text-slate-200">A specialist reviews your operation and explains the options, free and without obligation.</p>
          <div className="mt-8 flex flex-wrap justify-center gap-4">
            <ButtonLink href="/get-quote" size="lg">
              Speak With a Specialist
            </ButtonLink>
            <ButtonLink href={telHref} size="lg" variant="ghostLight">
              <Icon name="phone" /> Call {site.phone}
            </ButtonLink>
          </div>
        </div>
      </Section>
    </>
  );
}

export function CoverageTypes() {
  const copy = page<Intro & { package: TitledText[]; faq: FaqEntry[] }>('coverage-types');
  return (
    <>
      <PageHero kicker="Coverage types" title={copy.heading} intro={copy.intro} />
      <Section labelledBy="coverage-cards-heading">
        <SectionHeading id="coverage-cards-heading" title={`${coverages.length} Coverages for Trucking Operations`} intro="Who requires each coverage and the minimum limits you will typically see." />
        <ProductGrid products={coverages} showRequiredBy />
      </Section>
      <Section tone="mist" labelledBy="package-heading">
        <SectionHeading id="package-heading" title="Building Your Coverage Package" intro="Four things shape the right combination of coverages for your business." />
        <Cards items={copy.package} icons={['truck', 'layers', 'mapPin', 'users']} />
        <p className="mt-10 text-center">
          <ButtonLink href="/get-quote" size="lg">
            Request Your Free Analysis <Icon name="arrowRight" />
          </ButtonLink>
        </p>
      </Section>
      <Section labelledBy="coverage-faq-heading">
        <SectionHeading id="coverage-faq-heading" title="Coverage Questions" />
        <Faq items={copy.faq} group="coverage-faq" />
      </Section>
      <CtaBanner />
    </>
  );
}

export function GetQuote() {
  const copy = page<{ heading: string; subtext: string; why: TitledText[]; checklist: { business: string[]; vehicles: string[] }; note: string }>('get-quote');
  const list = (title: string, items: string[], icon: IconName) => (
    <div className="rounded-2xl border border-slate-200 bg-white p-7">
      <h3 className="flex items-center gap-3 text-xl font-bold">
        <Icon name={icon} className="size-6 text-steel" /> {title}
      </h3>
      <ul className="mt-5 space-y-3">
        {items.map((item) => (
          <li key={item} className="flex gap-3">
            <Icon name="check" className="mt-0.5 size-5 shrink-0 text-success" />
            {item}
          </li>
        ))}
      </ul>
    </div>
  );
  return (
    <>
      <PageHero kicker="Free quote" title={copy.heading} intro={copy.subtext} aside={<QuoteFormIsland idPrefix="page-quote" />} />
      <Section labelledBy="why-quotes-heading">
        <SectionHeading id="why-quotes-heading" title="Why Choose Our Insurance Quotes" />
        <Cards items={copy.why} icons={['layers', 'zap', 'award', 'shieldCheck']} />
      </Section>
      <Section tone="mist" labelledBy="checklist-heading">
        <SectionHeading id="checklist-heading" title="Information to Have Ready" intro="The more we know, the more accurate your quote. Here is what underwriters ask for." />
        <div className="grid gap-6 md:grid-cols-2">
          {list('Business Information', copy.checklist.business, 'file')}
          {list('Vehicle and Driver Information', copy.checklist.vehicles, 'truck')}
        </div>
        <p className="mx-auto mt-8 flex max-w-3xl gap-3 rounded-2xl border-l-4 border-amber bg-white p-6 text-muted">
          <Icon name="info" className="size-6 shrink-0 text-navy" />
          {copy.note}
        </p>
      </Section>
    </>
  );
}

export function About() {
  const copy = page<{ intro: string; mission: { heading: string; body: string }; values: TitledText[]; reasons: TitledText[] }>('about');
  return (
    <>
      <PageHero kicker={`Serving truckers since ${site.founded}`} title={copy.title.split('|')[0]?.trim() ?? 'About Us'} intro={copy.intro} />
      <Section labelledBy="mission-heading">
        <div className="mx-auto max-w-3xl">
          <h2 id="mission-heading" className="text-3xl font-bold">
            {copy.mission.heading}
          </h2>
          <div className="mt-5 space-y-4 text-lg leading-relaxed text-muted">
            {paragraphsOf(copy.mission.body)}
          </div>
        </div>
      </Section>
      <Section tone="mist" labelledBy="values-heading">
        <SectionHeading id="values-heading" title="Our Core Values" />
        <div className="grid gap-6 md:grid-cols-3">
          {copy.values.map((value, i) => (
            <div key={value.title} className="rounded-2xl bg-white p-8 shadow-sm">
              <Icon name={(['shieldCheck', 'award', 'trendDown'] as const)[i] ?? 'shield'} className="size-8 text-steel" />
              <h3 className="mt-4 text-xl font-bold">{value.title}</h3>
              <p className="mt-2 text-muted">{value.text}</p>
            </div>
          ))}
        </div>
      </Section>
      <Section labelledBy="reasons-heading">
        <SectionHeading id="reasons-heading" title={`Why Choose ${site.brand}`} />
        <Cards items={copy.reasons} icons={['layers', 'zap', 'headset', 'file']} />
        <div className="mt-10 flex flex-wrap justify-center gap-4">
          <ButtonLink href="/get-quote" size="lg">
            Get a Free Quote
          </ButtonLink>
          <ButtonLink href="/contact" size="lg" variant="outline">
            Contact Us
          </ButtonLink>
        </div>
      </Section>
    </>
  );
}

function paragraphsOf(text: string) {
  return text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => <p key={p}>{p}</p>);
}

export function Contact() {
  const copy = page<Intro>('contact');
  return (
    <>
      <PageHero kicker="Contact" title={copy.heading} intro={copy.intro} />
      <Section labelledBy="contact-ways-heading">
        <h2 id="contact-ways-heading" className="sr-only">
          Ways to reach us
        </h2>
        <div className="grid gap-6 md:grid-cols-3">
          <div className="rounded-2xl border border-slate-200 p-7">
            <Icon name="mail" className="size-7 text-steel" />
            <h3 className="mt-4 text-xl font-bold">Email Us</h3>
            <p className="mt-2">
              <a href={mailHref} className="font-semibold text-steel underline underline-offset-2 hover:text-navy">
                {site.email}
              </a>
            </p>
            <p className="mt-2 text-muted">We reply within 24 hours.</p>
          </div>
          <div className="rounded-2xl border border-slate-200 p-7">
            <Icon name="phone" className="size-7 text-steel" />
            <h3 className="mt-4 text-xl font-bold">Call Us</h3>
            <p className="mt-2">
              <a href={telHref} className="font-semibold text-steel underline underline-offset-2 hover:text-navy">
                {site.phone}
              </a>
            </p>
            {/* The hours beside this card are when this number answers; claims after hours go elsewhere. */}
            <p className="mt-2 text-muted">
              {site.claims ? (
                <>
                  Claims, around the clock: {site.claims.name},{' '}
                  <a href={`tel:${site.claims.phone_e164}`} className="font-semibold text-steel underline underline-offset-2 hover:text-navy">
                    {site.claims.phone}
                  </a>
                </>
              ) : (
                site.claims_text
              )}
            </p>
          </div>
          <div className="rounded-2xl border border-slate-200 p-7">
            <Icon name="clock" className="size-7 text-steel" />
            <h3 className="mt-4 text-xl font-bold">Business Hours</h3>
            <dl className="mt-2 space-y-1">
              {site.hours.map((h) => (
                <div key={h.label} className="flex justify-between gap-4">
                  <dt className="font-medium">{h.label}</dt>
                  <dd className="text-muted">{hoursText(h)}</dd>
                </div>
              ))}
            </dl>
          </div>
        </div>
        <div className="mt-6 flex items-start gap-3 rounded-2xl bg-mist p-6">
          <Icon name="mapPin" className="mt-0.5 size-6 shrink-0 text-steel" />
          <address className="not-italic">
            <span className="font-bold">{site.legal_name}</span>
            <br />
            {site.address.street}, {site.address.city}, {site.address.region} {site.address.postal_code}
          </address>
        </div>
      </Section>
      <Section tone="mist" labelledBy="contact-form-heading">
        <div className="mx-auto max-w-3xl">
          <Island name="ContactForm" component={ContactForm} props={{}} className="block" />
        </div>
      </Section>
    </>
  );
}

export function FaqPage() {
  return (
    <>
      <PageHero kicker="FAQ" title="Frequently Asked Questions" intro="Straight answers about trucking insurance, filings, quotes and claims." />
      <Section labelledBy="faq-list-heading">
        <h2 id="faq-list-heading" className="sr-only">
          All questions
        </h2>
        <Faq items={content.faq} group="faq" />
        <p className="mt-10 text-center text-muted">
          Still have a question?{' '}
          <a href="/contact" className="font-semibold text-steel underline underline-offset-2">
            Contact us
          </a>{' '}
          or call{' '}
          <a href={telHref} className="font-semibold text-steel underline underline-offset-2">
            {site.phone}
          </a>
          .
        </p>
      </Section>
      <CtaBanner variant="secondary" />
    </>
  );
}

export function DocumentPage({ slug }: { slug: string }) {
  const doc = documentCopy(slug);
  return (
    <>
      <PageHero title={doc.title} intro={`Last updated ${formatDate(doc.updated)}`} />
      <div className="container-site max-w-3xl py-14">
        <div className="prose" dangerouslySetInnerHTML={{ __html: doc.html }} />
        <p className="mt-12 rounded-2xl bg-mist p-6 text-muted">
          Questions about this page? Write to{' '}
          <a href={mailHref} className="font-semibold text-steel underline underline-offset-2">
            {site.email}
          </a>{' '}
          or call{' '}
          <a href={telHref} className="font-semibold text-steel underline underline-offset-2">
            {site.phone}
          </a>
          .
        </p>
      </div>
    </>
  );
}

export function SitemapPage({ groups }: { groups: { title: string; links: { href: string; label: string }[] }[] }) {
  return (
    <>
      <PageHero title="Sitemap" intro="Every page of the site." />
      <div className="container-site grid gap-10 py-14 md:grid-cols-2 lg:grid-cols-3">
        {groups.map((group) => (
          <section key={group.title} aria-label={group.title}>
            <h2 className="text-xl font-bold">{group.title}</h2>
            <ul className="mt-4 space-y-2">
              {group.links.map((link) => (
                <li key={link.href}>
                  <a href={link.href} className="text-steel underline-offset-2 hover:underline">
                    {link.label}
                  </a>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
    </>
  );
}
