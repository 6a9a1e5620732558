// The toast channel: any island calls showToast(); the Toaster island (in every page's layout) shows them.
export interface ToastMessage {
  title: string;
  description?: string;
  variant?: 'default' | 'success' | 'destructive';
}

export const TOAST_EVENT = 'truckins:toast';

export function showToast(message: ToastMessage): void {
  window.dispatchEvent(new CustomEvent<ToastMessage>(TOAST_EVENT, { detail: message }));
}
