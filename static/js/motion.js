// Cards in motion: a loose copy of a card glides from one place to another.

import { cardSvg } from './cards.js';

const $ = (id) => document.getElementById(id);

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function reducedMotion() {
  return window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** A loose face-up copy of a card, placed over `rect`, for animations. */
export function flyer(code, rect, design, lang) {
  const el = document.createElement('div');
  el.className = 'flyer';
  el.innerHTML = cardSvg(code, design, lang);
  el.style.left = `${rect.left}px`;
  el.style.top = `${rect.top}px`;
  el.style.width = `${rect.width}px`;
  el.style.height = `${rect.height}px`;
  document.body.append(el);
  return el;
}

/** Moves an element that sits on `to` so that it comes from `from`. */
export function glide(el, from, to, ms, fade = false) {
  if (!ms || reducedMotion() || !from || !to.width) return Promise.resolve();
  const dx = from.left - to.left;
  const dy = from.top - to.top;
  const s = from.width / to.width;
  const anim = el.animate(
    [
      { transform: `translate(${dx}px, ${dy}px) scale(${s})`, opacity: 1 },
      { transform: 'none', opacity: fade ? 0.2 : 1 },
    ],
    { duration: ms, easing: 'ease-in-out', fill: 'forwards' },
  );
  return anim.finished.catch(() => undefined);
}

/** Moves an element that sits on `from` over to `to` (by a transform only: a fixed element
 *  moved by its left and top would count as a layout shift). */
export function send(el, from, to, ms, fade = false) {
  if (!ms || reducedMotion() || !from || !to || !from.width) return Promise.resolve();
  const move = `translate(${to.left - from.left}px, ${to.top - from.top}px) scale(${to.width / from.width})`;
  const anim = el.animate(
    [{ transform: 'none', opacity: 1 }, { transform: move, opacity: fade ? 0.2 : 1 }],
    { duration: ms, easing: 'ease-in-out', fill: 'forwards' },
  );
  return anim.finished.catch(() => undefined);
}

export function rectOf(el) {
  return el ? el.getBoundingClientRect() : null;
}

export function scopaBanner(text, ms) {
  const banner = $('banner');
  banner.textContent = text;
  banner.hidden = false;
  banner.classList.remove('show');
  void banner.offsetWidth; // restart the CSS animation
  banner.classList.add('show');
  setTimeout(() => { banner.hidden = true; banner.classList.remove('show'); }, ms);
}
