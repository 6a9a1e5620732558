// What both form islands do, in one hook: a submission id that makes a retried or double-clicked submission count
// once, the sending state with its synchronous guard, the JSON POST carrying the visit's attribution (captured on
// the visit's first page by ../enhance/attribution), and the server's answer turned into errors under the fields or
// a toast: 201 puts the lasting "received" panel (./Received) in the form's place, 422 marks the fields, 429 says to
// wait, anything else (503, no network) says it failed. A refusal before sending (the quote's consent) marks its
// field too, and focus goes to the first field in error, so an error is never only a toast. The forms keep only what differs: their fields and their toasts' words. With `template` the form is the
// no-JavaScript error page's, whose markers the server fills in. The body is the form's own fields, so it carries the
// page's language from each form's <LocaleInput> (ui/Field), as the no-JavaScript post does.
import { markers } from '@contract';
import { t } from '@i18n/islands';
import { useRef, useState, type FormEvent } from 'react';
import { flushSync } from 'react-dom';
import { readAttribution } from '../enhance/attribution';
import { showToast, type ToastMessage } from './toast';

export type FieldErrors = Record<string, string>;

export type PostResult =
  | { kind: 'created'; body: Record<string, unknown> }
  | { kind: 'refused'; message: string }
  | { kind: 'invalid'; errors: FieldErrors }
  | { kind: 'rate-limited'; message: string }
  | { kind: 'failed' };

export interface LeadFormOptions {
  endpoint: string;
  /** Server-side only: render the markers the no-JavaScript error page fills in. */
  template: boolean;
  /** Says why the form cannot be sent as filled in (a toast, and the message beside each field), before anything is sent. */
  refuse?: (fields: Record<string, string>) => { toast: ToastMessage; errors: FieldErrors } | undefined;
  /** The JSON body's fields, from the form's; the form's own by default. */
  body?: (fields: Record<string, string>) => Record<string, unknown>;
  /** The server's 422 errors as the form names its fields (the details' rows are named by their keys). */
  errorsOf?: (errors: FieldErrors) => FieldErrors;
  /** Called with the server's answer once it took the submission (the quote's carries its details token). */
  onCreated?: (body: Record<string, unknown>) => void;
  toasts: {
    created: ToastMessage;
    /** Shown when the server's 429 answer carries no message of its own. */
    rateLimited?: string;
    failed: ToastMessage;
  };
}

export function useLeadForm<Name extends string>({ endpoint, template, refuse, body = (fields) => fields, errorsOf = (errors) => errors, onCreated, toasts }: LeadFormOptions) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  // The form was taken: the component shows <Received> instead of the form until the visitor asks for another.
  const [received, setReceived] = useState(false);
  // Set when the form comes back after "send another": its first field takes focus as it mounts.
  const focusFirstFieldOnMount = useRef(false);
  const refusedFields = useRef<string[]>([]);
  // Read synchronously by the next submit event, which can come before React re-renders with `busy`.
  const sending = useRef(false);
  const submissionId = useRef<string | null>(null);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (sending.current) return;
    const form = event.currentTarget;
    const fields = formFields(form);
    const refusal = refuse?.(fields);
    if (refusal) {
      // Rendered before focus moves, so the field is announced with its message and marked invalid. What the last
      // refusal marked goes (a field filled in since is no longer missing); the server's messages on other fields
      // stay, as those are still to put right.
      const before = refusedFields.current;
      refusedFields.current = Object.keys(refusal.errors);
      flushSync(() => setErrors((shown) => ({ ...withoutFields(shown, before), ...refusal.errors })));
      focusFirstError(form, refusal.errors);
      showToast(refusal.toast);
      return;
    }
    // What the last refusal marked is now put right: its messages go (the server's stay until its answer).
    if (refusedFields.current.length > 0) {
      const putRight = refusedFields.current;
      refusedFields.current = [];
      setErrors((shown) => withoutFields(shown, putRight));
    }
    submissionId.current ??= newSubmissionId();
    sending.current = true;
    setBusy(true);
    const result = await postLead(endpoint, { ...body(fields), submission_id: submissionId.current });
    sending.current = false;
    setBusy(false);
    if (result.kind === 'created') {
      setErrors({});
      submissionId.current = null;
      setReceived(true);
      swallowTheRestOfAMultiClick();
      showToast(toasts.created);
      onCreated?.(result.body);
    } else if (result.kind === 'refused') {
      showToast({ title: t('Not Sent'), description: result.message, variant: 'destructive' });
    } else if (result.kind === 'invalid') {
      const errors = errorsOf(result.errors);
      flushSync(() => setErrors(errors));
      focusFirstError(form, errors);
    } else if (result.kind === 'rate-limited') {
      showToast({ title: t('Too Many Attempts'), description: result.message || toasts.rateLimited, variant: 'destructive' });
    } else {
      showToast(toasts.failed);
    }
  };

  // A changed form is a new submission; a change while one is on its way belongs to that one's retry.
  const onInput = () => {
    if (!sending.current) submissionId.current = null;
  };

  /** A field's typed value: only the template's marker, the form itself is uncontrolled. */
  const value = (name: Name) => (template ? `${markers.value}${name}` : undefined);
  /** A field's error from the server, or the template's marker. */
  const error = (name: Name) => (template ? `${markers.error}${name}` : errors[name]);

  return {
    errors,
    /** For a form that marks errors itself (the details' lists, refused before sending). */
    setErrors,
    busy,
    /** The form was taken: show <Received> in its place. */
    received,
    /** What <Received> says under its heading: the success toast's words, which it keeps on the page. */
    receivedText: toasts.created.description ?? '',
    /** "Send another": the empty form again, focus on its first field. */
    sendAnother: () => {
      focusFirstFieldOnMount.current = true;
      setReceived(false);
    },
    value,
    error,
    /** What a field (ui/Field's `RuleInput`, `RuleTextarea`) takes from the form: its name, value, message and mark. */
    field: (name: Name) => ({ name, defaultValue: value(name), error: error(name), invalid: errors[name] }),
    /** For the <form>: it posts to the same address without JavaScript. */
    formProps: {
      action: endpoint,
      method: 'post',
      onSubmit,
      onInput,
      ref: (form: HTMLFormElement | null) => {
        if (!form || !focusFirstFieldOnMount.current) return;
        focusFirstFieldOnMount.current = false;
        firstField(form)?.focus();
      },
    },
    /**
     * For the submit button: marked disabled while sending, but not `disabled`, which would drop its focus to
     * <body> (the sending guard above ignores a press meanwhile).
     */
    buttonProps: { type: 'submit', 'aria-disabled': busy ? true : undefined, onClick: ignoreRepeatedClick } as const,
  };
}

function withoutFields(errors: FieldErrors, names: string[]): FieldErrors {
  return Object.fromEntries(Object.entries(errors).filter(([name]) => !names.includes(name)));
}

/** 128 random bits as hex; crypto.getRandomValues works on plain HTTP too, unlike randomUUID. */
function newSubmissionId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

async function postLead(endpoint: string, body: Record<string, unknown>): Promise<PostResult> {
  try {
    const response = await fetch(endpoint, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({
        ...readAttribution(),
        page_url: window.location.href,
        // Time since the page began to load (the prerendered form can be filled before it hydrates): the server
        // keeps a lead made faster than a person could type it, marked as suspected spam, and confirms it to no one.
        elapsed_ms: Math.round(performance.now()),
        ...body,
      }),
    });
    const json = (await response.json().catch(() => ({}))) as { errors?: FieldErrors; message?: string } & Record<string, unknown>;
    // 201 for a new lead, 200 for details added to one.
    if (response.status === 201 || response.status === 200) return { kind: 'created', body: json };
    if (response.status === 422 && json.errors) return { kind: 'invalid', errors: json.errors };
    if (response.status === 429) return { kind: 'rate-limited', message: json.message ?? '' };
    // Details whose quote cannot take them (unknown token, or over 24 hours old): the server says why.
    if ((response.status === 404 || response.status === 410) && json.message) return { kind: 'refused', message: json.message };
    console.error('Lead submission failed', response.status, json);
    return { kind: 'failed' };
  } catch (error) {
    console.error('Lead submission failed', error);
    return { kind: 'failed' };
  }
}

/** The form's fields as text, for the JSON body. */
function formFields(form: HTMLFormElement): Record<string, string> {
  const fields: Record<string, string> = {};
  new FormData(form).forEach((value, name) => {
    if (typeof value === 'string') fields[name] = value;
  });
  return fields;
}

/**
 * The form is gone once it was taken, and what was under the pointer moves: the second click of a double-click (or a
 * repeated tap) that arrives after the answer must not press whatever is there now (a link, "Send another", the
 * details form's button). The browser counts a multi-click's clicks in `detail`, so until the next single click,
 * clicks that continue a multi-click are swallowed, whatever the timing.
 */
function swallowTheRestOfAMultiClick(): void {
  const swallow = (event: MouseEvent) => {
    if (event.detail > 1) {
      event.preventDefault();
      event.stopPropagation();
    } else {
      document.removeEventListener('click', swallow, true);
    }
  };
  document.addEventListener('click', swallow, true);
}

/** The form's first field a person fills in (not the hidden ones, nor the honeypot kept out of the tab order). */
function firstField(form: HTMLFormElement): HTMLElement | undefined {
  return Array.from(form.elements).find(
    (element): element is HTMLElement => element instanceof HTMLElement && element.tabIndex >= 0 && (element as HTMLInputElement).type !== 'hidden',
  );
}

/** Moves focus to the first field the server marked, so keyboard and screen-reader users land on it. */
function focusFirstError(form: HTMLFormElement, errors: FieldErrors): void {
  const first = Array.from(form.elements).find(
    (element) => element instanceof HTMLElement && 'name' in element && errors[(element as HTMLInputElement).name],
  ) as HTMLElement | undefined;
  first?.focus();
}

/**
 * On the submit button: the second click of a double-click (or a tap the phone repeats) never submits. Counted by
 * the browser (`detail` is the click count), so it holds whatever the timing. (Once the first click's answer has
 * come, the form has given way to <Received>, and swallowTheRestOfAMultiClick guards what is there instead.)
 */
function ignoreRepeatedClick(event: { detail: number; preventDefault: () => void }): void {
  if (event.detail > 1) event.preventDefault();
}
