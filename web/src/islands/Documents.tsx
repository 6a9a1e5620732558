// "Loss runs and other documents", under the details form: a small form of its own posting one file with the
// quote's details token as multipart/form-data to the documents API. Without JavaScript it posts one file and the
// server answers with a page. With it, each file chosen is posted at once (several may be chosen), and each is
// listed with its state (uploading, received, or refused in the server's words), announced politely; nothing in the
// list goes away.
import { documentsApi } from '@contract';
import { t } from '@i18n/islands';
import { useState } from 'react';
import { LocaleInput } from '../ui/Field';
import { buttonClass } from './ScheduleList';

const ACCEPT = 'application/pdf,image/jpeg,image/png';
let lastKey = 0;

export interface DocumentsProps {
  /** The quote's details token (JavaScript), or the template's marker the server fills in. */
  token: string;
  idPrefix: string;
  template: boolean;
}

export function Documents({ token, idPrefix, template }: DocumentsProps) {
  const [files, setFiles] = useState<{ k: number; name: string; state: string }[]>([]);
  const id = `${idPrefix}-documents`;
  // The form's own fields (the token, the language) with one file.
  const upload = (form: HTMLFormElement, file: File) => {
    const k = ++lastKey;
    const body = new FormData(form);
    body.set('file', file);
    setFiles((shown) => [...shown, { k, name: file.name, state: t('Uploading...') }]);
    const settle = (state: string) => setFiles((shown) => shown.map((entry) => (entry.k === k ? { ...entry, state } : entry)));
    const failed = t('Not received: please try again, or call us.');
    // A refusal is the server's own words (too large, not a PDF, JPEG or PNG, too many, the quote too old).
    fetch(documentsApi, { method: 'POST', headers: { Accept: 'application/json' }, body })
      .then(async (response) => {
        if (response.status === 201) return settle(t('Received'));
        const json = (await response.json().catch(() => ({}))) as { message?: string; errors?: Record<string, string> };
        settle(json.message ?? Object.values(json.errors ?? {})[0] ?? failed);
      })
      .catch(() => settle(failed));
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
      <p className="mt-1 text-sm text-muted">{t('Optional. PDF, JPEG or PNG, up to 10 MB each and 10 in all.')}</p>
      <input type="hidden" name="details_token" defaultValue={token} />
      <LocaleInput />
      <label htmlFor={id} className="mt-4 block text-sm font-semibold">
        {t('Files to send')}
      </label>
      <input
        id={id}
        name="file"
        type="file"
        accept={ACCEPT}
        multiple={!template}
        className="mt-1.5 block w-full max-w-full text-sm"
        onChange={
          template
            ? undefined
            : ({ currentTarget: input }) => {
                for (const file of Array.from(input.files ?? [])) upload(input.form!, file);
                input.value = '';
              }
        }
      />
      {template ? (
        <button type="submit" className={buttonClass}>
          {t('Upload')}
        </button>
      ) : (
        <ul aria-live="polite" className="mt-3 space-y-1 text-sm">
          {files.map((file) => (
            <li key={file.k}>{`${file.name}: ${file.state}`}</li>
          ))}
        </ul>
      )}
    </form>
  );
}
