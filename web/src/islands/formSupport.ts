// What both form islands share: a submission id that makes a retried or double-clicked submission count once, and
// the POST itself, carrying the visit's attribution (captured on the visit's first page by ../enhance/attribution).
import { readAttribution } from '../enhance/attribution';

/** 128 random bits as hex; crypto.getRandomValues works on plain HTTP too, unlike randomUUID. */
export function newSubmissionId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export type FieldErrors = Record<string, string>;

export type PostResult =
  | { kind: 'created' }
  | { kind: 'invalid'; errors: FieldErrors }
  | { kind: 'rate-limited'; message: string }
  | { kind: 'failed' };

export async function postLead(endpoint: string, body: Record<string, unknown>): Promise<PostResult> {
  try {
    const response = await fetch(endpoint, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({
        ...readAttribution(),
        page_url: window.location.href,
        // Time since the page began to load (the prerendered form can be filled before it hydrates): the server
        // quietly drops a submission made faster than a person could type it.
        elapsed_ms: Math.round(performance.now()),
        ...body,
      }),
    });
    if (response.status === 201) return { kind: 'created' };
    const json = (await response.json().catch(() => ({}))) as { errors?: FieldErrors; message?: string };
    if (response.status === 422 && json.errors) return { kind: 'invalid', errors: json.errors };
    if (response.status === 429) return { kind: 'rate-limited', message: json.message ?? '' };
    console.error('Lead submission failed', response.status, json);
    return { kind: 'failed' };
  } catch (error) {
    console.error('Lead submission failed', error);
    return { kind: 'failed' };
  }
}

/** The form's fields as text, for the JSON body. */
export function formFields(form: HTMLFormElement): Record<string, string> {
  const fields: Record<string, string> = {};
  new FormData(form).forEach((value, name) => {
    if (typeof value === 'string') fields[name] = value;
  });
  return fields;
}

/** Moves focus to the first field the server marked, so keyboard and screen-reader users land on it. */
export function focusFirstError(form: HTMLFormElement, errors: FieldErrors): void {
  const first = Array.from(form.elements).find(
    (element) => element instanceof HTMLElement && 'name' in element && errors[(element as HTMLInputElement).name],
  ) as HTMLElement | undefined;
  first?.focus();
}

/**
 * On the submit button: the second click of a double-click (or a tap the phone repeats) never submits. Counted by
 * the browser (`detail` is the click count), so it holds whatever the timing: the first click's answer may already
 * have reset the form, and submitting that empty form would show errors under the success toast.
 */
export function ignoreRepeatedClick(event: { detail: number; preventDefault: () => void }): void {
  if (event.detail > 1) event.preventDefault();
}
