// Where this visit came from: captured on its first page by the entry (every page, without React) and sent with a
// form by the form islands. Kept in sessionStorage: it lives as long as the tab's visit and never leaves the
// browser except inside a form the visitor chooses to submit.

const ATTRIBUTION_KEY = 'truckins:attribution';
const CAMPAIGN_PARAMS = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content', 'gclid'] as const;

export type Attribution = Partial<Record<(typeof CAMPAIGN_PARAMS)[number] | 'referrer' | 'landing_page', string>>;

/** Records where this visit came from, once per visit (the first page's URL, campaign parameters, referrer). */
export function captureAttribution(): void {
  try {
    if (sessionStorage.getItem(ATTRIBUTION_KEY)) return;
    const params = new URLSearchParams(window.location.search);
    const attribution: Attribution = { landing_page: window.location.href };
    for (const name of CAMPAIGN_PARAMS) {
      const value = params.get(name);
      if (value) attribution[name] = value.slice(0, 200);
    }
    if (document.referrer && new URL(document.referrer).origin !== window.location.origin) {
      attribution.referrer = document.referrer;
    }
    sessionStorage.setItem(ATTRIBUTION_KEY, JSON.stringify(attribution));
  } catch {
    // Storage can be disabled; attribution is a nicety, never a reason to fail.
  }
}

export function readAttribution(): Attribution {
  try {
    return JSON.parse(sessionStorage.getItem(ATTRIBUTION_KEY) ?? '{}') as Attribution;
  } catch {
    return {};
  }
}
