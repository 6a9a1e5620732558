// "Is this your company?" under the quote form's DOT field: the census's legal name, city, state and power units
// for the number typed (see useCarrierLookup), with Yes (fill Company and Number of Vehicles where still empty) and
// No. Announced through a polite live region that is always in the page (a region added with its text is often
// not read); focus is never taken while the visitor types, and returns to the DOT field after an answer. The answer
// is posted with the form as `carrier_answer` (yes / no / unanswered): after No the lead keeps no carrier snapshot.
// `data-lookup` says where the lookup of the number in the field is (`done` once its answer was handled).
import { quoteForm } from '@contract';
import { t } from '@i18n/islands';
import type { KeyboardEvent } from 'react';
import { fillIfEmpty, useCarrierLookup } from './useCarrierLookup';

/** The census's name cut to what the Company field takes (by characters, as the server counts). */
function companyName(name: string): string {
  return Array.from(name).slice(0, quoteForm.fields.company.maxLength).join('');
}

export function CarrierConfirm({ idPrefix }: { idPrefix: string }) {
  const id = (name: string) => `${idPrefix}-${name}`;
  const { carrier, answer, state, decide } = useCarrierLookup(id('dot_number'));

  const answered = (accept: boolean) => {
    if (accept && carrier) {
      fillIfEmpty(id('company'), companyName(carrier.legal_name));
      // The form asks for at least one vehicle.
      if (carrier.power_units !== null && carrier.power_units >= 1) fillIfEmpty(id('vehicle_count'), String(carrier.power_units));
    }
    decide(accept);
    document.getElementById(id('dot_number'))?.focus();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') answered(false);
  };

  const place = carrier ? [carrier.city, carrier.state].filter(Boolean).join(', ') : '';
  const units = carrier?.power_units;
  return (
    <div data-carrier-match data-lookup={state} className={carrier ? 'mt-3 rounded-lg border border-steel/40 bg-mist p-3 text-sm text-ink' : undefined} onKeyDown={onKeyDown}>
      <input type="hidden" name="carrier_answer" value={answer} />
      <div id={id('carrier')} role="status" aria-live="polite" aria-atomic="true">
        {carrier && (
          <>
            <p className="font-semibold">{t('Is this your company?')}</p>
            <p className="mt-1">
              <span className="font-medium">{carrier.legal_name}</span>
              {carrier.dba_name && <span className="text-muted">{` ${t('(doing business as {name})', { name: carrier.dba_name })}`}</span>}
            </p>
            <p className="text-muted">
              {[place, units === null || units === undefined ? '' : units === 1 ? t('1 power unit') : t('{count} power units', { count: units })].filter(Boolean).join(' · ')}
            </p>
          </>
        )}
      </div>
      {carrier && (
        <div className="mt-3 flex gap-2" role="group" aria-labelledby={id('carrier')}>
          <button type="button" onClick={() => answered(true)} className="rounded-lg bg-navy px-4 py-2 text-sm font-semibold text-white hover:bg-ink">
            {t("Yes, that's us")}
          </button>
          <button type="button" onClick={() => answered(false)} className="rounded-lg border-2 border-navy px-4 py-2 text-sm font-semibold text-navy hover:bg-navy hover:text-white">
            {t('No')}
          </button>
        </div>
      )}
    </div>
  );
}
