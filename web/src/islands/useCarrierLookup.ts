// The quote form's DOT lookup: when the visitor pauses typing a DOT number (1-8 digits) or leaves the field, the
// census is asked through GET /api/carriers/<dot>, and the carrier found is offered ("Is this your company?").
// Anything but a 200 (no census imported, an unknown number, the lookup limit, no network) offers nothing and says
// nothing: the field then behaves as it did without a lookup. Listens on the prerendered input itself (found by
// id), so the form keeps its fields uncontrolled and needs no change beyond rendering <CarrierConfirm>.
import { useCallback, useEffect, useState } from 'react';

/** A carrier as the API answers it (never contact details: the census's are not even stored). */
export interface Carrier {
  dot_number: number;
  legal_name: string;
  dba_name: string | null;
  city: string | null;
  state: string | null;
  power_units: number | null;
  drivers: number | null;
  operation: string | null;
  hazmat: boolean | null;
  mcs150_date: string | null;
}

export const CARRIERS_ENDPOINT = '/api/carriers';

/** How long typing must pause before the number typed so far is looked up. */
export const LOOKUP_PAUSE_MS = 500;

const DOT_NUMBER = /^(?!0+$)[0-9]{1,8}$/;

export function useCarrierLookup(dotInputId: string) {
  const [carrier, setCarrier] = useState<Carrier | null>(null);

  useEffect(() => {
    const input = document.getElementById(dotInputId);
    if (!(input instanceof HTMLInputElement)) return;
    // Answers of this page view, so typing a number again (or going back to it) asks the server once; failures
    // other than 404 are not kept, so a later pause may try again.
    const answers = new Map<string, Carrier | null>();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let inFlight: AbortController | undefined;
    // The number last looked up: leaving the field after a pause, or after "No", does not ask (or offer) again.
    let asked = '';

    // The offer pushes the rest of the form down. Leaving the field by pressing on something else (the consent box,
    // the submit button) starts a lookup; an offer shown before that press is released would move its target from
    // under it and the click would be lost. So while a press is held, showing waits for its release (and the click).
    let pressed = false;
    let waiting: (() => void) | undefined;
    const onPress = () => {
      pressed = true;
    };
    const onRelease = () => {
      pressed = false;
      const run = waiting;
      waiting = undefined;
      // After this release's click, which the browser dispatches in the same task.
      if (run) setTimeout(run, 0);
    };

    const show = (dot: string, found: Carrier | null) => {
      // Only for the number still in the field: an answer that arrives after more typing is stale.
      const apply = () => {
        if (input.value.trim() === dot) setCarrier(found);
      };
      if (pressed && found) waiting = apply;
      else apply();
    };

    const lookUp = async () => {
      clearTimeout(timer);
      const dot = input.value.trim();
      if (dot === asked) return;
      asked = dot;
      inFlight?.abort();
      inFlight = undefined;
      setCarrier(null);
      if (!DOT_NUMBER.test(dot)) return;
      const known = answers.get(dot);
      if (known !== undefined) {
        show(dot, known);
        return;
      }
      const controller = new AbortController();
      inFlight = controller;
      try {
        const response = await fetch(`${CARRIERS_ENDPOINT}/${dot}`, { headers: { Accept: 'application/json' }, signal: controller.signal });
        const found = response.status === 200 ? ((await response.json()) as Carrier) : null;
        if (response.status === 200 || response.status === 404) answers.set(dot, found);
        if (!controller.signal.aborted) show(dot, found);
      } catch {
        // Aborted by newer typing, or no network: nothing to offer.
      }
    };

    const onInput = () => {
      clearTimeout(timer);
      // A changed number no longer matches what is offered.
      if (input.value.trim() !== asked) setCarrier(null);
      timer = setTimeout(() => void lookUp(), LOOKUP_PAUSE_MS);
    };
    const onBlur = () => void lookUp();
    // The form is reset after an accepted quote: the next visitor's number starts afresh.
    const onReset = () => {
      clearTimeout(timer);
      inFlight?.abort();
      waiting = undefined;
      asked = '';
      setCarrier(null);
    };

    input.addEventListener('input', onInput);
    input.addEventListener('blur', onBlur);
    input.form?.addEventListener('reset', onReset);
    document.addEventListener('pointerdown', onPress, true);
    document.addEventListener('pointerup', onRelease, true);
    document.addEventListener('pointercancel', onRelease, true);
    return () => {
      clearTimeout(timer);
      inFlight?.abort();
      input.removeEventListener('input', onInput);
      input.removeEventListener('blur', onBlur);
      input.form?.removeEventListener('reset', onReset);
      document.removeEventListener('pointerdown', onPress, true);
      document.removeEventListener('pointerup', onRelease, true);
      document.removeEventListener('pointercancel', onRelease, true);
    };
  }, [dotInputId]);

  const dismiss = useCallback(() => setCarrier(null), []);
  return { carrier, dismiss };
}

/** Puts `value` into the field with this id only if the visitor left it empty; never overwrites what was typed. */
export function fillIfEmpty(id: string, value: string): void {
  const field = document.getElementById(id);
  if (!(field instanceof HTMLInputElement) || field.value.trim() !== '') return;
  field.value = value;
  // As if typed: the form sees a change (a new submission, see useLeadForm's onInput).
  field.dispatchEvent(new Event('input', { bubbles: true }));
}
