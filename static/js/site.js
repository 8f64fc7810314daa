// The site's navigation on the game page: its links and labels follow the language in play.
// The addresses and labels of every language come with the page (data-href-xx, data-label-xx).

const $ = (id) => document.getElementById(id);

/** The rule pages' addresses, as the server serves them (texts.RULES_PATH; a test holds the
 * two equal): a table's page has no navigation to read them from. */
export const RULES_PATH = { en: '/en/rules', it: '/it/regole', de: '/de/regeln' };

/** The rule page's address in `lang`, at the section `anchor` if given. */
export function rulesUrl(lang, anchor = '') {
  const href = RULES_PATH[lang] || RULES_PATH.en;
  return anchor ? `${href}#${anchor}` : href;
}

/** Points the navigation at `lang`: the rules link, the labels, the current language. */
export function syncSite(lang) {
  const key = `${lang[0].toUpperCase()}${lang.slice(1)}`;
  for (const id of ['nav-play', 'nav-rules']) {
    const link = $(id);
    if (!link) continue;
    const label = link.dataset[`label${key}`];
    if (label && link.textContent !== label) link.textContent = label;
  }
  // The navigation's and the language group's names, which only a screen reader says.
  for (const id of ['site-nav', 'site-langs']) {
    const el = $(id);
    const label = el && el.dataset[`label${key}`];
    if (label) el.setAttribute('aria-label', label);
  }
  const rules = $('nav-rules');
  if (rules) rules.href = rulesUrl(lang);
  const play = $('nav-play');
  if (play) play.href = `/?lang=${lang}`;
  for (const link of document.querySelectorAll('.site-nav .langs a')) {
    if (link.dataset.lang === lang) link.setAttribute('aria-current', 'true');
    else link.removeAttribute('aria-current');
  }
}

/** The language a language link asked for (`/?lang=de`), once; the address is then cleaned. */
export function takeLangFromUrl(langs) {
  const params = new URLSearchParams(location.search);
  const lang = params.get('lang');
  if (!lang) return null;
  history.replaceState(null, '', location.pathname + location.hash);
  return langs.includes(lang) ? lang : null;
}
