// The bar of a phone on its side (one row: the score, the game's controls, the hint and Menu)
// or of a short one upright (two rows: the score, the hint and Menu; the game's controls), the
// other controls and the site's links in the panel Menu opens. In more rows the bar took 78 to
// 152 px and the hand lay partly below the window; elsewhere the bar stays as it is.

const $ = (id) => document.getElementById(id);

/** When the bar has a menu; scopone.css's "the bar's menu" rules answer the same query. */
export const COMPACT = '(max-height: 520px) and (orientation: landscape), '
  + '(max-width: 640px) and (max-height: 639px) and (orientation: portrait)';

/** A phone on its side wide enough for the cards seen and the review in the row too (never
 * one upright: COMPACT's are at most 640 px wide). */
export const WIDE = '(min-width: 800px)';

// The controls that stay in the bar's row: those SPEC §3 wants on screen (a new match, the
// level, Napola, the card design) and the hint; where the row is wide enough (800 px, the
// score's target shown: 615 to 695 px in each language, their labels' longer parts left unseen)
// the cards seen and the review. The others and the site's links go to the menu.
const ROW = ['btn-new', 'btn-level', 'btn-napola', 'btn-design', 'btn-hint', 'btn-menu'];
const ROW_WIDE = ['btn-seen', 'btn-review'];

let places = []; // [element, the comment holding its place in the bar] while it is in the menu
let lastItem = null; // the menu's item last pressed

function moveIntoMenu(row) {
  const menu = $('bar-menu');
  const items = [...$('controls').children].filter((el) => el !== menu && !row.includes(el.id));
  if ($('site-nav')) items.push($('site-nav'));
  places = items.map((el) => {
    const place = document.createComment(el.id);
    el.replaceWith(place);
    menu.append(el);
    return [el, place];
  });
}

function moveBack() {
  setOpen(false);
  for (const [el, place] of places) place.replaceWith(el);
  places = [];
}

function setOpen(open) {
  const menu = $('bar-menu');
  $('btn-menu').setAttribute('aria-expanded', String(open));
  menu.hidden = !open;
  if (!open) return;
  // Just under the bar, at its right, as high as the window leaves room for (it scrolls).
  const top = Math.round($('bar').getBoundingClientRect().bottom) + 4;
  menu.style.top = `${top}px`;
  menu.style.maxHeight = `calc(100dvh - ${top + 8}px)`;
}

/** Focuses a control of the bar, or Menu while the control lies in the closed menu (a panel it
 * opened closing: the focus goes back where the person can see it). */
export function focusControl(el, options = {}) {
  const menu = $('bar-menu');
  if (menu && menu.hidden && menu.contains(el)) $('btn-menu').focus(options);
  else el.focus(options);
}

/** Closes the menu, the focus back on Menu if it was in it. */
function closeMenu() {
  const menu = $('bar-menu');
  if (menu.hidden) return;
  const inside = menu.contains(document.activeElement);
  setOpen(false);
  if (inside) $('btn-menu').focus();
}

/** Sets the bar's row and its menu up, following the window as it turns; `opening()` is
 * called as the menu opens (the page closes what would lie over it), `moved()` once the
 * controls have moved between the bar and the menu (the bar's height changed with them). */
export function installMenu(opening = () => {}, moved = () => {}) {
  const button = $('btn-menu');
  if (!button) return () => {};
  const query = window.matchMedia(COMPACT);
  const wide = window.matchMedia(WIDE);
  const follow = () => {
    // A control taken out of the page and put back loses the focus: given back after the
    // move (to Menu if the control now lies in the closed menu), or the phone turned with
    // the focus on Settings left it on the page's body.
    const focused = document.activeElement;
    const moving = focused && focused.closest('#controls, #site-nav');
    const first = places.length ? places[0][0] : null; // the menu's first item
    button.hidden = !query.matches;
    if (places.length) moveBack();
    if (query.matches) moveIntoMenu(wide.matches ? [...ROW, ...ROW_WIDE] : ROW);
    // Menu itself gone (a window grown past the menu's sizes, 375 x 553 to 667, or turned
    // upright from its side): the focus on it fell to the page's body. It goes to the item
    // last used from the menu (its panel closed gave the focus to Menu), now in the bar.
    if (focused === button && button.hidden) {
      const item = lastItem && lastItem.isConnected && !lastItem.hidden ? lastItem : first;
      if (item) item.focus();
    } else if (moving && document.activeElement !== focused && !focused.hidden) {
      focusControl(focused);
    }
    moved();
  };
  follow();
  const onClick = (e) => {
    const open = $('bar-menu').hidden;
    if (open) opening();
    setOpen(open);
    // Opened by a key (detail 0), the focus goes to the first item; a tap leaves it alone.
    if (open && e.detail === 0) $('bar-menu').querySelector('button, a[href]').focus();
  };
  // After the item's own handler (bound on the item, so it runs first): each item opens
  // something else or leaves the page, so the menu closes, and the focus, unless the item sent
  // it elsewhere, goes back to Menu.
  const onItem = (e) => {
    const item = e.target.closest('button, a');
    if (!item) return;
    lastItem = item;
    closeMenu();
  };
  // Esc closes it; from the menu or Menu the focus stays on Menu and the key goes no further.
  // Elsewhere (a card chosen by its number while the menu was open) it closes the menu and
  // goes on to cancel what it cancels there.
  const onKey = (e) => {
    if (e.key !== 'Escape' || $('bar-menu').hidden) return;
    const ours = document.activeElement && document.activeElement.closest('#bar-menu, #btn-menu');
    setOpen(false);
    if (!ours) return;
    e.preventDefault();
    e.stopPropagation();
    button.focus();
  };
  // Tab past its last item closes it: the focus would go on to the cards under it.
  const onFocusOut = (e) => {
    if (!e.relatedTarget || e.relatedTarget.closest('#bar-menu, #btn-menu')) return;
    setOpen(false);
  };
  // A tap anywhere else closes it, as a press on any other control would leave it behind.
  const onDown = (e) => {
    if (!$('bar-menu').hidden && !e.target.closest('#bar-menu, #btn-menu')) setOpen(false);
  };
  // Turned from its side to upright (or back) the menu stays (both are COMPACT: no change
  // to follow) and the bar's height changes, one row to two: placed under it again (upright
  // it covered the bar's second row, a tap on Cards met Play with friends).
  const onResize = () => {
    if (!$('bar-menu').hidden) setOpen(true);
  };
  const bound = [
    [query, 'change', follow], [wide, 'change', follow], [window, 'resize', onResize],
    [button, 'click', onClick], [$('bar-menu'), 'click', onItem],
    [$('bar-menu'), 'focusout', onFocusOut],
    [document, 'keydown', onKey, true], [document, 'pointerdown', onDown, true],
  ];
  for (const [target, type, fn, capture] of bound) target.addEventListener(type, fn, capture);
  return () => {
    for (const [target, type, fn, capture] of bound) target.removeEventListener(type, fn, capture);
  };
}
