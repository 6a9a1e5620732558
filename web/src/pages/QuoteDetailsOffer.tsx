// The quote's thank-you page as a browser without JavaScript gets it after a plain form post: the thank-you words
// and "Speed up your quote" as a template. The server fills in the quote's details token (from the redirect's
// address), and when details posted from it need correcting, what was typed, the errors and the message on top
// (src/leads/nojs.rs).
import { t } from '@i18n/pages';
import { markers } from '@contract';
import DetailsForm from '../islands/DetailsForm';
import { ThanksHeading } from '../widgets/MessageBand';

export function QuoteDetailsOffer() {
  return (
    <section aria-labelledby="thanks-title" className="bg-mist py-14 md:py-20">
      <div className="container-site max-w-3xl">
        <div className="text-center">
          <ThanksHeading title={t('Quote request submitted!')} text={t('A trucking insurance specialist will contact you shortly.')} />
        </div>
        <p role="alert" className="mt-8 rounded-xl border-l-4 border-danger bg-white p-4 font-medium text-danger empty:hidden">
          {markers.message}
        </p>
        <div className="mt-8">
          <DetailsForm template />
        </div>
      </div>
    </section>
  );
}
