// "Loss runs and other documents", under the details form: a small form of its own posting one file with the
// quote's details token as multipart/form-data to the documents API. Without JavaScript it posts one file and the
// server answers with a page. With it, several may be chosen: each is checked first (empty, over 10 MB, past the
// quote's 10: refused without a request, in the contract's words), then posted one after another (the server takes
// 2 uploads a client at a time), and listed with its final state (received, or refused in the server's words),
// announced politely; those still to go are shown apart, unannounced. Nothing in the list goes away.
import { documents, documentsApi } from '@contract';
import { t } from '@i18n/islands';
import { useRef, useState } from 'react';
import { LocaleInput } from '../ui/Field';
import { buttonClass } from './ScheduleList';

let lastKey = 0;
const RECEIVED = t('Received');

export interface DocumentsProps {
  /** The quote's details token (JavaScript), or the template's marker the server fills in. */
  token: string;
  idPrefix: string;
  template: boolean;
}

/** One file's answer: "Received", or why not (the server's own words: not a PDF, JPEG or PNG, the quote too old). */
async function post(form: HTMLFormElement, file: File): Promise<string> {
  const failed = t('Not received: please try again, or call us.');
  // The form's own fields (the token, the language) with the file.
  const body = new FormData(form);
  body.set(documents.field, file);
  try {
    const response = await fetch(documentsApi, { method: 'POST', headers: { Accept: 'application/json' }, body });
    if (response.status === 201) return RECEIVED;
    const json = (await response.json().catch(() => ({}))) as { message?: string; errors?: Record<string, string> };
    return json.message ?? Object.values(json.errors ?? {})[0] ?? failed;
  } catch {
    return failed;
  }
}

export function Documents({ token, idPrefix, template }: DocumentsProps) {
  const [done, setDone] = useState<{ k: number; name: string; state: string }[]>([]);
  const [waiting, setWaiting] = useState<string[]>([]);
  // The files to post, in order; whether one is on its way; how many were received or are queued (of maxPerLead).
  const queue = useRef<File[]>([]);
  const sending = useRef(false);
  const taken = useRef(0);
  const id = `${idPrefix}-documents`;
  const settle = (name: string, state: string) => setDone((shown) => [...shown, { k: ++lastKey, name, state }]);
  const run = async (form: HTMLFormElement) => {
    if (sending.current) return;
    sending.current = true;
    while (queue.current.length > 0) {
      const file = queue.current[0]!;
      const state = await post(form, file);
      // A file not taken leaves its place among the quote's 10.
      if (state !== RECEIVED) taken.current--;
      queue.current.shift();
      setWaiting(queue.current.map((queued) => queued.name));
      settle(file.name, state);
    }
    sending.current = false;
  };
  const choose = (input: HTMLInputElement) => {
    for (const file of Array.from(input.files ?? [])) {
      const refusal =
        file.size === 0 ? documents.emptyFile : file.size > documents.maxBytes ? documents.tooLarge : taken.current >= documents.maxPerLead ? documents.tooMany : '';
      if (refusal) settle(file.name, refusal);
      else {
        taken.current++;
        queue.current.push(file);
      }
    }
    setWaiting(queue.current.map((queued) => queued.name));
    input.value = '';
    void run(input.form!);
  };

  return (
    <form
      method="post"
      encType="multipart/form-data"
      action={documentsApi}
      aria-labelledby={`${id}-heading`}
      onSubmit={template ? undefined : (event) => event.preventDefault()}
      className="mt-6 rounded-2xl bg-white p-6 text-left text-ink shadow-lg md:p-8"
    >
      <h2 id={`${id}-heading`} className="text-xl font-bold">
        {t('Loss runs and other documents')}
      </h2>
      <p id={`${id}-hint`} className="mt-1 text-sm text-muted">
        {t('Optional. PDF, JPEG or PNG, up to 10 MB each and 10 in all.')}
      </p>
      <input type="hidden" name="details_token" defaultValue={token} />
      <LocaleInput />
      <label htmlFor={id} className="mt-4 block text-sm font-semibold">
        {t('Files to send')}
      </label>
      <input
        id={id}
        name={documents.field}
        type="file"
        accept={documents.accept}
        multiple={!template}
        aria-describedby={`${id}-hint`}
        className="mt-1.5 block w-full max-w-full text-sm"
        onChange={template ? undefined : ({ currentTarget }) => choose(currentTarget)}
      />
      {template ? (
        <button type="submit" className={buttonClass}>
          {t('Upload')}
        </button>
      ) : (
        <>
          <ul aria-live="polite" className="mt-3 space-y-1 text-sm">
            {done.map((file) => (
              <li key={file.k}>{`${file.name}: ${file.state}`}</li>
            ))}
          </ul>
          {waiting.length > 0 && <p className="mt-1 text-sm text-muted">{`${t('Uploading...')} ${waiting.join(', ')}`}</p>}
        </>
      )}
    </form>
  );
}
