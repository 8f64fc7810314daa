// The rule pages: draws each card placeholder with the game's own card images.

import { installSprite, cardSvg } from './cards.js';

const lang = document.documentElement.lang || 'en';
installSprite();
for (const el of document.querySelectorAll('.pcard[data-code]')) {
  el.innerHTML = cardSvg(el.dataset.code, 'classic', lang);
  el.classList.add('drawn');
}
