// The quote form's DOT lookup: when the visitor pauses typing a DOT number (1-8 digits) or leaves the field, the
// census is asked through GET /api/carriers/<dot>, and the carrier found is offered ("Is this your company?").
// Anything but a 200 (no census imported, an unknown number, the lookup limit, no network) offers nothing and says
// nothing: the field then behaves as it did without a lookup. Listens on the prerendered input itself (found by
// id), so the form keeps its fields uncontrolled and needs no change beyond rendering <CarrierConfirm>.
//
// Answers (200 and 404) are kept for the page view: going back to a number shows its answer again without asking.
// A number is not asked again while its lookup is in flight, nor once the visitor answered its offer. Failures
// (429, 5xx, no network) are not kept, so the next pause asks again. A 404 saying `"census": false` (nothing
// imported) stops the lookups for the rest of the page view.
import { carriersApi } from '@contract';
import { useCallback, useEffect, useRef, useState } from 'react';

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

/** What the visitor said to the offer for the number in the field, posted as `carrier_answer`: after `no` the
 * server keeps no carrier snapshot with the lead. */
export type CarrierAnswer = 'yes' | 'no' | 'unanswered';

/** `done` once the answer to the number in the field was handled (offered, or found to offer nothing); for tests. */
export type LookupState = 'idle' | 'pending' | 'done';

/** How long typing must pause before the number typed so far is looked up. */
export const LOOKUP_PAUSE_MS = 500;

const DOT_NUMBER = /^(?!0+$)[0-9]{1,8}$/;

export function useCarrierLookup(dotInputId: string) {
  const [carrier, setCarrier] = useState<Carrier | null>(null);
  const [answer, setAnswer] = useState<CarrierAnswer>('unanswered');
  const [state, setState] = useState<LookupState>('idle');
  // What the visitor answered, by number: an answered number is not offered again.
  const decisions = useRef(new Map<string, 'yes' | 'no'>());

  useEffect(() => {
    const input = document.getElementById(dotInputId);
    if (!(input instanceof HTMLInputElement)) return;
    const answers = new Map<string, Carrier | null>();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let inFlight: { dot: string; controller: AbortController } | undefined;
    // The number whose carrier is offered now.
    let shown = '';
    // No census imported: nothing will be found this page view.
    let noCensus = false;

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
        if (input.value.trim() !== dot) return;
        shown = found ? dot : '';
        setCarrier(found);
        setState('done');
      };
      if (pressed && found) waiting = apply;
      else apply();
    };

    const lookUp = async () => {
      clearTimeout(timer);
      const dot = input.value.trim();
      if (inFlight?.dot === dot || (shown === dot && dot !== '')) return;
      inFlight?.controller.abort();
      inFlight = undefined;
      shown = '';
      setCarrier(null);
      if (!DOT_NUMBER.test(dot)) {
        setState('idle');
        return;
      }
      if (noCensus || decisions.current.has(dot)) {
        setState('done');
        return;
      }
      const known = answers.get(dot);
      if (known !== undefined) {
        show(dot, known);
        return;
      }
      const controller = new AbortController();
      inFlight = { dot, controller };
      setState('pending');
      try {
        const response = await fetch(`${carriersApi}/${dot}`, { headers: { Accept: 'application/json' }, signal: controller.signal });
        let found: Carrier | null = null;
        if (response.status === 200) {
          found = (await response.json()) as Carrier;
          answers.set(dot, found);
        } else if (response.status === 404) {
          const body = (await response.json().catch(() => ({}))) as { census?: boolean };
          if (body.census === false) noCensus = true;
          else answers.set(dot, null);
        }
        if (!controller.signal.aborted) show(dot, found);
      } catch {
        // Aborted by newer typing (which handles its own state), or no network: nothing to offer, asked again at
        // the next pause.
        if (!controller.signal.aborted) show(dot, null);
      } finally {
        if (inFlight?.controller === controller) inFlight = undefined;
      }
    };

    const onInput = () => {
      clearTimeout(timer);
      const dot = input.value.trim();
      setAnswer(decisions.current.get(dot) ?? 'unanswered');
      // A changed number no longer matches what is offered.
      if (dot !== shown) {
        shown = '';
        setCarrier(null);
        setState('idle');
      }
      timer = setTimeout(() => void lookUp(), LOOKUP_PAUSE_MS);
    };
    const onBlur = () => void lookUp();
    input.addEventListener('input', onInput);
    input.addEventListener('blur', onBlur);
    document.addEventListener('pointerdown', onPress, true);
    document.addEventListener('pointerup', onRelease, true);
    document.addEventListener('pointercancel', onRelease, true);
    return () => {
      clearTimeout(timer);
      inFlight?.controller.abort();
      input.removeEventListener('input', onInput);
      input.removeEventListener('blur', onBlur);
      document.removeEventListener('pointerdown', onPress, true);
      document.removeEventListener('pointerup', onRelease, true);
      document.removeEventListener('pointercancel', onRelease, true);
    };
  }, [dotInputId]);

  /** The visitor's answer to the offer for the number in the field; the offer goes. */
  const decide = useCallback(
    (accept: boolean) => {
      const input = document.getElementById(dotInputId);
      const dot = input instanceof HTMLInputElement ? input.value.trim() : '';
      const decision = accept ? 'yes' : 'no';
      if (dot) decisions.current.set(dot, decision);
      setAnswer(decision);
      setCarrier(null);
    },
    [dotInputId],
  );
  return { carrier, answer, state, decide };
}

/** Puts `value` into the field with this id only if the visitor left it empty; never overwrites what was typed. */
export function fillIfEmpty(id: string, value: string): void {
  const field = document.getElementById(id);
  if (!(field instanceof HTMLInputElement) || field.value.trim() !== '') return;
  field.value = value;
  // As if typed: the form sees a change (a new submission, see useLeadForm's onInput).
  field.dispatchEvent(new Event('input', { bubbles: true }));
}
