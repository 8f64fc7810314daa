// The push channel of a table: server-sent events read with fetch(), so the seat token can go in
// the Authorization header (EventSource cannot send it). Reconnects by itself and resumes.

// Backoff after a failure: 0.5 s doubling to 10 s, with jitter so browsers do not come in step.
const FIRST_DELAY = 500;
const MAX_DELAY = 10000;
// The server sends a comment every 15 s: a stream silent for longer is dead (a sleeping phone,
// a lost network that never said so) and is replaced.
const SILENCE_MS = 40000;

/** Splits an event-stream text into events; returns [events, rest]. Each event is
 * `{id, event, data}` (data lines joined by "\n"); comments (": ping") are left out. */
export function parseEvents(text) {
  const events = [];
  // A "\r" at the very end may be the first half of a "\r\n" still on its way.
  const held = text.endsWith('\r') ? '\r' : '';
  const blocks = text.slice(0, text.length - held.length).replace(/\r\n?/g, '\n').split('\n\n');
  const rest = blocks.pop() + held;
  for (const block of blocks) {
    const ev = { id: null, event: 'message', data: [] };
    for (const line of block.split('\n')) {
      if (!line || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      let value = colon < 0 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'id') ev.id = value;
      else if (field === 'event') ev.event = value;
      else if (field === 'data') ev.data.push(value);
    }
    if (ev.data.length) events.push({ ...ev, data: ev.data.join('\n') });
  }
  return [events, rest];
}

/**
 * Follows `url` until `close()`: `onEvent({id, event, data})` for every event, `onState(s)` with
 * "connecting" | "open" | "retrying", `onRefused(status)` for a 4xx answer (the caller decides:
 * a 403 means the token is no longer good). `token()` is read at every (re)connection.
 */
export function follow(url, { token, onEvent, onState, onRefused }) {
  let lastId = null;
  let closed = false;
  let controller = null;
  let delay = FIRST_DELAY;
  let wake = null; // resolves the current wait early (online again, page visible again)
  let silence = 0;
  let now = false; // a reconnection was asked for: no backoff
  let ended = false; // the server closed the stream in good order (it does every few minutes)

  const napOver = (ms) => new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    wake = () => { clearTimeout(timer); resolve(); };
  });

  function watchdog() {
    clearTimeout(silence);
    silence = setTimeout(() => controller && controller.abort(), SILENCE_MS);
  }

  async function once() {
    controller = new AbortController();
    const headers = { Accept: 'text/event-stream' };
    const tok = token();
    if (tok) headers.Authorization = `Bearer ${tok}`;
    if (lastId !== null) headers['Last-Event-ID'] = lastId;
    if (!ended) onState('connecting');
    ended = false;
    watchdog();
    const res = await fetch(url, { headers, signal: controller.signal, cache: 'no-store' });
    if (res.status >= 400 && res.status < 500) {
      clearTimeout(silence);
      await res.body?.cancel();
      return res.status;
    }
    if (!res.ok || !res.body) throw new Error(`events: ${res.status}`);
    onState('open');
    delay = FIRST_DELAY;
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    let heard = false;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) {
        // A stream that ended without a word is a failure (backoff), not a clean end.
        ended = heard;
        break;
      }
      heard = true;
      watchdog();
      buffer += decoder.decode(value, { stream: true });
      const [events, rest] = parseEvents(buffer);
      buffer = rest;
      for (const ev of events) {
        if (ev.id !== null) lastId = ev.id;
        onEvent(ev);
      }
    }
    return 0;
  }

  async function loop() {
    while (!closed) {
      let refused = 0;
      try {
        refused = await once();
      } catch {
        // A network error, an abort by the watchdog or by `reconnect()`: try again below.
      }
      clearTimeout(silence);
      if (closed) break;
      if (ended) continue; // a clean end: follow on at once, still "open" to the page
      if (refused) {
        const again = onRefused(refused);
        if (!again) break;
        lastId = null; // another viewer now: start from its current view
        continue;
      }
      onState('retrying');
      if (now) {
        now = false;
        continue;
      }
      const wait = delay * (0.75 + Math.random() * 0.5);
      delay = Math.min(delay * 2, MAX_DELAY);
      await napOver(wait);
    }
  }

  /** Drops the current connection or wait and connects again now. */
  function reconnect() {
    delay = FIRST_DELAY;
    now = true;
    if (controller) controller.abort();
    if (wake) wake();
  }

  const onVisible = () => {
    if (document.visibilityState === 'visible') reconnect();
  };
  // Offline: the stream may hang without an error; online again: do not wait for the backoff.
  const onOffline = () => controller && controller.abort();
  window.addEventListener('online', reconnect);
  window.addEventListener('offline', onOffline);
  document.addEventListener('visibilitychange', onVisible);
  loop();

  return {
    reconnect,
    /** The last version the stream delivered (what a reconnection resumes from). */
    get lastId() { return lastId; },
    close() {
      closed = true;
      window.removeEventListener('online', reconnect);
      window.removeEventListener('offline', onOffline);
      document.removeEventListener('visibilitychange', onVisible);
      if (controller) controller.abort();
      if (wake) wake();
      clearTimeout(silence);
    },
  };
}
