// The not-found pages (served with status 404): the site's, and the blog's for an unknown post.
import { ButtonLink } from '../ui/Button';
import { Icon, type IconName } from '../ui/Icon';

const quickLinks: { href: string; label: string; text: string; icon: IconName }[] = [
  { href: '/products', label: 'Insurance Products', text: 'Coverage by truck and by risk', icon: 'truck' },
  { href: '/get-quote', label: 'Get a Quote', text: 'Free, with no obligation', icon: 'file' },
  { href: '/contact', label: 'Contact Us', text: 'Talk to a specialist', icon: 'phone' },
];

export function NotFound() {
  return (
    <section aria-labelledby="not-found-title" className="py-20 md:py-28">
      <div className="container-site max-w-3xl text-center">
        <p className="text-7xl font-extrabold text-navy md:text-8xl">404</p>
        <h1 id="not-found-title" className="mt-4 text-3xl font-bold md:text-4xl">
          Page Not Found
        </h1>
        <p className="mt-4 text-lg text-muted">
          We apologize, but the page you're looking for doesn't exist or may have been moved. Please try navigating to
          one of our main sections below.
        </p>
        <ButtonLink href="/" size="lg" className="mt-8">
          <Icon name="arrowLeft" /> Back to Home
        </ButtonLink>
        <ul className="mt-14 grid gap-4 text-left sm:grid-cols-3">
          {quickLinks.map((link) => (
            <li key={link.href}>
              <a href={link.href} className="flex h-full flex-col rounded-2xl border border-slate-200 p-5 hover:border-navy hover:shadow-md">
                <Icon name={link.icon} className="size-6 text-steel" />
                <span className="mt-3 font-bold text-ink">{link.label}</span>
                <span className="text-sm text-muted">{link.text}</span>
              </a>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

export function BlogPostNotFound() {
  return (
    <section aria-labelledby="post-not-found-title" className="py-20 md:py-28">
      <div className="container-site max-w-2xl text-center">
        <Icon name="file" className="mx-auto size-14 text-steel" />
        <h1 id="post-not-found-title" className="mt-6 text-3xl font-bold md:text-4xl">
          Blog Post Not Found
        </h1>
        <p className="mt-4 text-lg text-muted">
          We couldn't find the article you're looking for. It may have been moved or removed. Browse our latest
          articles to find other helpful resources.
        </p>
        <ButtonLink href="/blog" size="lg" className="mt-8">
          Browse All Articles <Icon name="arrowRight" />
        </ButtonLink>
      </div>
    </section>
  );
}

export function ErrorPage({ status }: { status: 400 | 500 }) {
  const server = status === 500;
  return (
    <section aria-labelledby="error-title" className="py-20 md:py-28">
      <div className="container-site max-w-2xl text-center">
        <p className="text-6xl font-extrabold text-navy">{status}</p>
        <h1 id="error-title" className="mt-4 text-3xl font-bold">
          {server ? 'Something Went Wrong' : 'We Could Not Understand That Request'}
        </h1>
        <p className="mt-4 text-lg text-muted">
          {server
            ? 'An unexpected error stopped this page from loading. It has been logged and we will look into it. Please try again, or call us if it keeps happening.'
            : 'The address or the data sent with it was not in a form we can read. Please check the address, or start again from the home page.'}
        </p>
        <ButtonLink href="/" size="lg" className="mt-8">
          Back to Home
        </ButtonLink>
      </div>
    </section>
  );
}
