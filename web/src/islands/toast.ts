// The toast channel: any island calls showToast(); the Toaster island (on every page with a form) shows them.
// Islands hydrate independently, so a form can be ready a moment before the Toaster: until the Toaster listens, the
// newest toast is kept here and shown when it starts (this module is one shared chunk, so both see the same state).
export interface ToastMessage {
  title: string;
  description?: string;
  variant?: 'default' | 'success' | 'destructive';
}

export const TOAST_EVENT = 'truckins:toast';

let listening = false;
let waiting: ToastMessage | null = null;

export function showToast(message: ToastMessage): void {
  if (!listening) waiting = message;
  window.dispatchEvent(new CustomEvent<ToastMessage>(TOAST_EVENT, { detail: message }));
}

/** Called by the Toaster once it listens: the toast sent before then, if any. */
export function toasterListening(): ToastMessage | null {
  listening = true;
  const message = waiting;
  waiting = null;
  return message;
}
