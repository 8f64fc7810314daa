// The cards, drawn by us in SVG: a traditional Italian-suited design and a high-contrast one.

import { figureMark, parseCode } from './i18n.js';

export const DESIGNS = ['classic', 'clear'];

const SVG_NS = 'http://www.w3.org/2000/svg';
const W = 100;
const H = 160;

// Suit drawings on a 40×40 box. The coloured set is for the traditional cards; the plain set
// carries no fill of its own, so it takes the colour of the <use> that shows it.
const SUIT_ART = {
  D: `<circle cx="20" cy="20" r="18" fill="#e3ad2e" stroke="#7a4a00" stroke-width="1.6"/>
      <circle cx="20" cy="20" r="12.5" fill="none" stroke="#9c5f00" stroke-width="1.2"/>
      <path d="M20 9 L23 17 L31 20 L23 23 L20 31 L17 23 L9 20 L17 17 Z" fill="#c0392b"/>
      <circle cx="20" cy="20" r="3" fill="#f6dd8a"/>`,
  C: `<path d="M7 6 H33 Q34 22 21 25 H19 Q6 22 7 6 Z" fill="#e3ad2e" stroke="#7a4a00" stroke-width="1.4"/>
      <path d="M8.5 11 H31.5 V14 H8.5 Z" fill="#c0392b"/>
      <rect x="17.5" y="25" width="5" height="7" fill="#c99320" stroke="#7a4a00" stroke-width="1"/>
      <ellipse cx="20" cy="34.5" rx="10" ry="3.5" fill="#e3ad2e" stroke="#7a4a00" stroke-width="1.2"/>`,
  S: `<path d="M20 1.5 L23.5 8 V27 H16.5 V8 Z" fill="#8fb3e6" stroke="#1d3f73" stroke-width="1.3"/>
      <path d="M20 6 V26" stroke="#1d3f73" stroke-width="0.9"/>
      <rect x="9" y="27" width="22" height="3.6" rx="1.5" fill="#e3ad2e" stroke="#7a4a00" stroke-width="1"/>
      <rect x="18" y="30.6" width="4" height="5.4" fill="#8a3b12"/>
      <circle cx="20" cy="37.3" r="2.4" fill="#e3ad2e" stroke="#7a4a00" stroke-width="0.8"/>`,
  B: `<path d="M16.5 38.5 L14.5 11 Q13.5 2 20 1.5 Q26.5 2 25.5 11 L23.5 38.5 Z" fill="#5d9a33" stroke="#24501a" stroke-width="1.4"/>
      <ellipse cx="14.6" cy="13" rx="2.4" ry="1.7" fill="#8a4b1d"/>
      <ellipse cx="25.3" cy="20" rx="2.2" ry="1.6" fill="#8a4b1d"/>
      <ellipse cx="15.4" cy="27" rx="2" ry="1.5" fill="#8a4b1d"/>
      <path d="M18 6 Q20 4 22 6" stroke="#b9dd8c" stroke-width="1.2" fill="none"/>`,
};
const SUIT_PLAIN = {
  D: `<circle cx="20" cy="20" r="18"/><circle cx="20" cy="20" r="9" fill="#fff"/>
      <circle cx="20" cy="20" r="4.5"/>`,
  C: `<path d="M6 5 H34 Q35 23 22 26 V31 Q30 32 31 37 H9 Q10 32 18 31 V26 Q5 23 6 5 Z"/>`,
  S: `<path d="M20 0.5 L24.5 8 V26 H31 V30.5 H23 V35 H26 V39 H14 V35 H17 V30.5 H9 V26 H15.5 V8 Z"/>`,
  B: `<path d="M16 39 L14 10 Q13.5 1 20 0.8 Q26.5 1 26 10 L24 39 Z"/>
      <circle cx="13.2" cy="14" r="3.4"/><circle cx="26.8" cy="22" r="3.2"/>
      <circle cx="13.8" cy="30" r="3"/>`,
};
const CLEAR_COLOURS = { D: '#a35200', C: '#c8102e', S: '#0b4fa8', B: '#17702a' };
const ROBES = { D: '#b83227', C: '#2e6db4', S: '#6b3a96', B: '#2f7d32' };

/** The hidden sprite every card refers to; added once to the document. */
export function installSprite(doc = document) {
  if (doc.getElementById('card-sprite')) return;
  const symbols = [];
  for (const suit of 'DCSB') {
    symbols.push(`<symbol id="suit-${suit}" viewBox="0 0 40 40">${SUIT_ART[suit]}</symbol>`);
    symbols.push(`<symbol id="plain-${suit}" viewBox="0 0 40 40">${SUIT_PLAIN[suit]}</symbol>`);
  }
  const svg = doc.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('id', 'card-sprite');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('width', '0');
  svg.setAttribute('height', '0');
  svg.innerHTML = `<defs>${symbols.join('')}
    <pattern id="back-classic" width="12" height="12" patternUnits="userSpaceOnUse">
      <rect width="12" height="12" fill="#8e1f1f"/>
      <path d="M6 0 L12 6 L6 12 L0 6 Z" fill="none" stroke="#e3ad2e" stroke-width="1"/>
      <circle cx="6" cy="6" r="1.3" fill="#e3ad2e"/>
    </pattern>
    <pattern id="back-clear" width="10" height="10" patternUnits="userSpaceOnUse">
      <rect width="10" height="10" fill="#123a7a"/>
      <path d="M0 10 L10 0" stroke="#5f8fd6" stroke-width="2"/>
    </pattern></defs>`;
  doc.body.prepend(svg);
}

function use(id, x, y, size, extra = '') {
  return `<use href="#${id}" x="${x}" y="${y}" width="${size}" height="${size}"${extra}/>`;
}

// Pip centres for ranks 1–7 on the 100×160 card.
const PIPS = {
  1: [[50, 80]],
  2: [[50, 44], [50, 116]],
  3: [[50, 38], [50, 80], [50, 122]],
  4: [[32, 46], [68, 46], [32, 114], [68, 114]],
  5: [[32, 42], [68, 42], [50, 80], [32, 118], [68, 118]],
  6: [[32, 40], [68, 40], [32, 80], [68, 80], [32, 120], [68, 120]],
  7: [[32, 38], [68, 38], [50, 59], [32, 80], [68, 80], [32, 122], [68, 122]],
};

function figure(rank, suit) {
  const robe = ROBES[suit];
  const skin = '#f2c9a0';
  const ink = '#3a2a1a';
  if (rank === 10) {
    // Re: a crowned, bearded king in a long robe, holding his suit.
    return `<path d="M30 140 L36 78 Q50 70 64 78 L70 140 Z" fill="${robe}" stroke="${ink}" stroke-width="1.5"/>
      <path d="M36 78 L30 140 H40 L46 80 Z" fill="#e3ad2e" opacity="0.85"/>
      <path d="M38 95 H62" stroke="#e3ad2e" stroke-width="3"/>
      <circle cx="50" cy="60" r="11" fill="${skin}" stroke="${ink}" stroke-width="1.3"/>
      <path d="M40 63 Q50 82 60 63 Q55 70 50 70 Q45 70 40 63 Z" fill="#7a5230"/>
      <path d="M38 50 L40 36 L45 44 L50 32 L55 44 L60 36 L62 50 Z" fill="#e3ad2e" stroke="#7a4a00" stroke-width="1.2"/>
      <circle cx="50" cy="38" r="1.8" fill="#c0392b"/>
      <path d="M64 82 L76 96" stroke="${skin}" stroke-width="5" stroke-linecap="round"/>
      ${use(`suit-${suit}`, 64, 88, 24)}`;
  }
  if (rank === 9) {
    // Cavallo: a rider on a horse, his suit raised.
    return `<path d="M22 104 Q24 86 44 86 H66 Q78 86 80 98 Q80 108 74 110 H30 Q22 110 22 104 Z" fill="#a8763e" stroke="${ink}" stroke-width="1.4"/>
      <path d="M70 90 L80 66 Q84 60 90 64 L92 74 L84 78 L78 96 Z" fill="#a8763e" stroke="${ink}" stroke-width="1.4"/>
      <path d="M80 66 L76 72 L80 76" fill="none" stroke="#4a2f14" stroke-width="2"/>
      <circle cx="86" cy="67" r="1.3" fill="${ink}"/>
      <path d="M22 100 Q12 104 14 120" stroke="#4a2f14" stroke-width="3" fill="none"/>
      <path d="M30 108 L26 140 M40 110 L40 140 M64 110 L66 140 M72 108 L78 138" stroke="#a8763e" stroke-width="5" stroke-linecap="round"/>
      <path d="M30 108 L26 140 M40 110 L40 140 M64 110 L66 140 M72 108 L78 138" stroke="${ink}" stroke-width="0.8" fill="none"/>
      <path d="M42 88 L46 60 Q52 54 58 60 L60 88 Z" fill="${robe}" stroke="${ink}" stroke-width="1.3"/>
      <path d="M46 88 L40 104 M58 88 L62 104" stroke="${robe}" stroke-width="5" stroke-linecap="round"/>
      <circle cx="52" cy="48" r="8" fill="${skin}" stroke="${ink}" stroke-width="1.2"/>
      <path d="M43 45 Q52 34 61 45 Z" fill="#e3ad2e" stroke="#7a4a00" stroke-width="1"/>
      <path d="M46 64 L32 52" stroke="${skin}" stroke-width="4" stroke-linecap="round"/>
      ${use(`suit-${suit}`, 18, 30, 22)}`;
  }
  // Fante: a young page with a feathered cap, standing, holding his suit.
  return `<path d="M38 76 Q50 70 62 76 L64 110 H36 Z" fill="${robe}" stroke="${ink}" stroke-width="1.4"/>
    <path d="M36 110 H64" stroke="#e3ad2e" stroke-width="3"/>
    <path d="M44 110 L42 140 M56 110 L58 140" stroke="#e8e0c8" stroke-width="7" stroke-linecap="round"/>
    <path d="M44 110 L42 140 M56 110 L58 140" stroke="${ink}" stroke-width="0.8"/>
    <ellipse cx="41" cy="142" rx="5" ry="2.5" fill="${ink}"/><ellipse cx="59" cy="142" rx="5" ry="2.5" fill="${ink}"/>
    <circle cx="50" cy="60" r="10" fill="${skin}" stroke="${ink}" stroke-width="1.2"/>
    <path d="M40 58 Q41 46 50 46 Q59 46 60 58 Q55 52 50 53 Q45 52 40 58 Z" fill="#8a5a2b"/>
    <path d="M38 50 Q50 38 62 48 L60 51 Q50 45 40 53 Z" fill="${robe}" stroke="${ink}" stroke-width="1"/>
    <path d="M60 47 Q70 34 76 36 Q68 40 62 50" fill="#f1f1f1" stroke="${ink}" stroke-width="0.8"/>
    <path d="M62 80 L70 96" stroke="${skin}" stroke-width="4.5" stroke-linecap="round"/>
    ${use(`suit-${suit}`, 60, 88, 24)}`;
}

function classicFace(rank, suit) {
  let body = '';
  if (rank <= 7) {
    const size = rank === 1 ? 52 : 26;
    for (const [x, y] of PIPS[rank]) body += use(`suit-${suit}`, x - size / 2, y - size / 2, size);
  } else {
    body = figure(rank, suit);
  }
  const index = `<text x="${rank === 10 ? 4 : 8}" y="25" font-size="24" font-weight="700" font-family="Georgia, 'DejaVu Serif', serif" fill="#3a2a1a">${rank}</text>`;
  const indexBack = `<text x="92" y="152" font-size="20" font-weight="700" font-family="Georgia, 'DejaVu Serif', serif" fill="#3a2a1a" text-anchor="end">${rank}</text>`;
  return `<rect x="1" y="1" width="98" height="158" rx="8" fill="#fbf5e6" stroke="#6b5637" stroke-width="2"/>
    <rect x="6" y="26" width="88" height="108" rx="4" fill="none" stroke="#d9c9a3" stroke-width="1"/>
    ${body}${index}${use(`suit-${suit}`, 7, 28, 17)}${indexBack}`;
}

function clearFace(rank, suit, lang) {
  const colour = CLEAR_COLOURS[suit];
  const two = rank === 10;
  const numeral = `<text x="${two ? 3 : 8}" y="50" font-size="${two ? 40 : 54}" font-weight="800"
    font-family="system-ui, 'DejaVu Sans', sans-serif" fill="${colour}" letter-spacing="${two ? -4 : 0}">${rank}</text>`;
  const mark = rank >= 8
    ? `<text x="10" y="78" font-size="20" font-weight="800" font-family="system-ui, 'DejaVu Sans', sans-serif" fill="${colour}">${figureMark(lang, rank)}</text>`
    : '';
  const small = use(`plain-${suit}`, 6, rank >= 8 ? 82 : 56, 32, ` fill="${colour}"`);
  const big = use(`plain-${suit}`, 44, 92, 52, ` fill="${colour}"`);
  return `<rect x="1.5" y="1.5" width="97" height="157" rx="8" fill="#ffffff" stroke="#111" stroke-width="3"/>
    ${numeral}${mark}${small}${big}`;
}

/** The SVG markup of a card face: `code` like "7D", `design` one of DESIGNS. */
export function cardSvg(code, design, lang = 'en') {
  const { rank, suit } = parseCode(code);
  const face = design === 'clear' ? clearFace(rank, suit, lang) : classicFace(rank, suit);
  return `<svg class="card-svg" viewBox="0 0 ${W} ${H}" aria-hidden="true" focusable="false">${face}</svg>`;
}

/** A suit's sign alone, as the cards of `design` show it (the coach's small cards and the
 * cards seen's rows): the traditional coloured art, or the high-contrast design's plain sign
 * in its suit's colour. `cls` names the svg (its size is the page's). */
export function suitSign(suit, design, cls = '') {
  const art = design === 'clear'
    ? `<use href="#plain-${suit}" fill="${CLEAR_COLOURS[suit]}"/>` : `<use href="#suit-${suit}"/>`;
  return `<svg${cls ? ` class="${cls}"` : ''} viewBox="0 0 40 40" aria-hidden="true" focusable="false">${art}</svg>`;
}

/** The SVG markup of a card back. */
export function backSvg(design) {
  const pat = design === 'clear' ? 'back-clear' : 'back-classic';
  return `<svg class="card-svg" viewBox="0 0 ${W} ${H}" aria-hidden="true" focusable="false">
    <rect x="1" y="1" width="98" height="158" rx="8" fill="#fbf5e6" stroke="#333" stroke-width="2"/>
    <rect x="7" y="7" width="86" height="146" rx="5" fill="url(#${pat})"/></svg>`;
}
