// The anonymous person behind this browser: a random id of 128 bits kept in localStorage, so
// statistics follow the person across matches and reloads without a login.

const STORE_PERSON = 'scopone.person';
const VALID = /^[0-9a-f]{32,64}$/;

/** The stored id, or null when this browser has none yet. */
export function knownPerson() {
  const id = localStorage.getItem(STORE_PERSON);
  return id && VALID.test(id) ? id : null;
}

/** The person's id, made now (crypto.getRandomValues) if this browser has none. */
export function personId() {
  const known = knownPerson();
  if (known) return known;
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  const id = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  localStorage.setItem(STORE_PERSON, id);
  return id;
}

/** Whether `id` is a person's id as this browser makes them. */
export const isPersonId = (id) => typeof id === 'string' && VALID.test(id);

/** This browser takes `id` for its person (a statistics link from another device): its
 * next matches count to that person's statistics. */
export function adoptPerson(id) {
  if (!isPersonId(id)) throw new Error(`not a person id: ${id}`);
  localStorage.setItem(STORE_PERSON, id);
}
