// The pages the server answers a bad request (400) and its own failure (500) with.
import { t } from '@i18n/pages';
import { pages } from '../links';
import { ButtonLink } from '../ui/Button';
import { MessageBand } from '../widgets/MessageBand';

export function ErrorPage({ status }: { status: 400 | 500 }) {
  const server = status === 500;
  return (
    <MessageBand labelledBy="error-title">
      <p className="text-6xl font-extrabold text-navy">{status}</p>
      <h1 id="error-title" className="mt-4 text-3xl font-bold">
        {server ? t('Something Went Wrong') : t('We Could Not Understand That Request')}
      </h1>
      <p className="mt-4 text-lg text-muted">
        {server
          ? t('An unexpected error stopped this page from loading. It has been logged and we will look into it. Please try again, or call us if it keeps happening.')
          : t('The address or the data sent with it was not in a form we can read. Please check the address, or start again from the home page.')}
      </p>
      <ButtonLink href={pages.home.href} size="lg" className="mt-8">
        {t('Back to Home')}
      </ButtonLink>
    </MessageBand>
  );
}
