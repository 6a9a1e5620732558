// The site's not-found page (served with status 404): back home, or one of three shortcuts.
import { t } from '@i18n/pages';
import { pages, type Link } from '../links';
import { ButtonLink } from '../ui/Button';
import { Card } from '../ui/Card';
import { Icon, type IconName } from '../ui/Icon';
import { MessageBand, MessageHeading } from '../widgets/MessageBand';

const shortcuts: { link: Link; text: string; icon: IconName }[] = [
  { link: pages.products, text: t('Coverage by truck and by risk'), icon: 'truck' },
  { link: pages.quote, text: t('Free, with no obligation'), icon: 'file' },
  { link: pages.contact, text: t('Talk to a specialist'), icon: 'phone' },
];

export function NotFound() {
  return (
    <MessageBand labelledBy="not-found-title" width="max-w-3xl">
      <MessageHeading
        id="not-found-title"
        mark={<p className="text-7xl font-extrabold text-navy md:text-8xl">404</p>}
        gap="mt-4"
        title={t('Page Not Found')}
        text={t('We apologize, but the page you\'re looking for doesn\'t exist or may have been moved. Please try navigating to one of our main sections below.')}
      />
      <ButtonLink href={pages.home.href} size="lg" className="mt-8">
        <Icon name="arrowLeft" />{' '}{t('Back to Home')}
      </ButtonLink>
      <ul className="mt-14 grid gap-4 text-left sm:grid-cols-3">
        {shortcuts.map(({ link, text, icon }) => (
          <li key={link.href}>
            <Card href={link.href} variant="tile" padding="sm" className="flex h-full flex-col">
              <Icon name={icon} className="size-6 text-steel" />
              <span className="mt-3 font-bold text-ink">{link.label}</span>
              <span className="text-sm text-muted">{text}</span>
            </Card>
          </li>
        ))}
      </ul>
    </MessageBand>
  );
}
