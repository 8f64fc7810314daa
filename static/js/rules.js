// The rule pages: draws each card placeholder with the game's own card images.

import { installSprite, cardSvg } from './cards.js';

const lang = document.documentElement.lang || 'en';
installSprite();
for (const el of document.querySelectorAll('.pcard[data-code]')) {
  el.innerHTML = cardSvg(el.dataset.code, 'classic', lang);
  el.classList.add('drawn');
}

// Another language's page opens at the section this one was opened at (the pages share their
// sections' ids): a reader sent to /en/rules#scoring who switched to Italian landed at the top
// of the Italian page (QA helper-80).
document.querySelector('#site-langs')?.addEventListener('click', (event) => {
  const link = event.target.closest('a[data-lang]');
  if (!link || !location.hash) return;
  const url = new URL(link.href);
  url.hash = location.hash;
  link.href = url.href;
});
