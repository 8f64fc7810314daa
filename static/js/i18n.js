// Every text of the page in German, Italian and English, and the accessible names of the cards.

const RANKS = {
  en: ['Ace', 'Two', 'Three', 'Four', 'Five', 'Six', 'Seven', 'Jack', 'Knight', 'King'],
  it: ['Asso', 'Due', 'Tre', 'Quattro', 'Cinque', 'Sei', 'Sette', 'Fante', 'Cavallo', 'Re'],
  de: ['Ass', 'Zwei', 'Drei', 'Vier', 'Fünf', 'Sechs', 'Sieben', 'Bube', 'Reiter', 'König'],
};
const SUITS = {
  en: { D: 'Coins', C: 'Cups', S: 'Swords', B: 'Clubs' },
  it: { D: 'Denari', C: 'Coppe', S: 'Spade', B: 'Bastoni' },
  de: { D: 'Münzen', C: 'Kelche', S: 'Schwerter', B: 'Stäbe' },
};
// Letters under the big numeral of a figure on the high-contrast cards.
const FIGURE_MARKS = {
  en: { 8: 'J', 9: 'Kn', 10: 'K' },
  it: { 8: 'F', 9: 'C', 10: 'R' },
  de: { 8: 'B', 9: 'R', 10: 'K' },
};

const TEXT = {
  en: {
    title: 'Scopone Scientifico',
    seat0: 'You', seat1: 'Right opponent', seat2: 'Partner', seat3: 'Left opponent',
    pairA: 'We', pairB: 'They',
    yourTurn: 'Your turn: choose a card',
    thinking: '{seat} is thinking…',
    waiting: '{seat} to play',
    roundOver: 'Round over', matchOver: 'Match over',
    chooseCapture: 'Pick a lit card on the table to choose what to take',
    chooseCaptureBrief: 'Pick a lit card on the table',
    chooseKeys: 'Arrows switch the move, Enter plays it, Esc cancels',
    chosenKeys: 'Enter plays it, Esc cancels',
    score: 'Score', target: 'to {n}',
    level: 'Level', easy: 'Easy', normal: 'Normal', hard: 'Hard',
    napola: 'Napola', on: 'on', off: 'off',
    variant: 'Variant', scientifico: 'Scientifico (10 cards)', classico: 'Classico (9 + 4 on the table)',
    targetLabel: 'Play to',
    design: 'Cards', classic: 'Traditional', clear: 'High contrast',
    speed: 'Speed', speedNormal: 'Normal', speedFast: 'Fast',
    language: 'Language',
    newMatch: 'New match', newShort: 'New', settings: 'Settings', menu: 'Menu', close: 'Close',
    newMatchNote: 'Napola, variant and target start a new match.',
    keysHelp: 'Keys: 1–9, 0 card · ← → what to take · Enter play · Esc cancel · N new match · L level · D cards · H hint · C cards seen · R review · ? rules',
    table: 'Table', tableEmpty: 'The table is empty',
    hand: 'Your hand',
    seatCards: '{seat}: {n} cards', seatCardOne: '{seat}: 1 card',
    pile: '{pair}: {n} cards taken, scope: {s}',
    plays: '{seat} plays {card}',
    takes: '{seat} plays {card} and takes {cards}',
    youPlay: 'You play {card}',
    youTake: 'You play {card} and take {cards}',
    // The viewer's own card that the computer chose (they were away): not "You play".
    youPlayByComputer: 'The computer plays {card} for you',
    youTakeByComputer: 'The computer plays {card} for you and takes {cards}',
    // A capture chosen by the arrow keys, said to a screen reader: the option and how many.
    option: '{card} takes {cards} ({i} of {n})',
    // A card chosen by its number key with one way to play it, and a choice cancelled.
    selectedLays: '{card}: Enter plays it, Esc cancels',
    selectedTakes: '{card} takes {cards}: Enter plays it, Esc cancels',
    cancelled: 'Choice cancelled',
    tiedAtTarget: 'Both pairs have reached {n}, level at {score}: the match goes on until one pair leads.',
    byComputer: '{seat} · computer', // a person's card that the computer chose
    scopa: 'Scopa!',
    // Where the cards still on the table went at the round's end (to the pair that took last);
    // said alike of one card or several.
    leftoverUs: 'What is left on the table goes to us: {cards}',
    leftoverThem: 'What is left on the table goes to them: {cards}',
    leftoverPair: 'What is left on the table goes to pair {pair}: {cards}', // said to a spectator
    roundTitle: 'Round {n}',
    category: 'Category',
    carte: 'Cards', denari: 'Coins', settebello: 'Settebello', primiera: 'Primiera',
    scope: 'Scope', roundPoints: 'Round points', matchScore: 'Match score',
    nextRound: 'Next round',
    weWin: 'You and your partner win the match!',
    theyWin: 'The opponents win the match.',
    yes: 'yes', no: '—',
    error: 'Connection problem.', retry: 'Retry',
    errorCardWaits: 'Connection problem: your card goes as soon as the server answers.',
    errorRoundWaits: 'Connection problem: the next round is dealt as soon as the server answers.',
    errorMatchWaits: 'Connection problem: the new match begins as soon as the server answers.',
    howCounted: 'How the points are counted', leftMatch: 'A new match has begun.', backToMatch: 'Back to the match you left',
    cancel: 'Cancel',
    dealer: 'Dealer',
  },
  it: {
    title: 'Scopone Scientifico',
    seat0: 'Tu', seat1: 'Avversario a destra', seat2: 'Compagno', seat3: 'Avversario a sinistra',
    pairA: 'Noi', pairB: 'Loro',
    yourTurn: 'Tocca a te: scegli una carta',
    thinking: '{seat} sta pensando…',
    waiting: 'Tocca a {seat}',
    roundOver: 'Smazzata finita', matchOver: 'Partita finita',
    chooseCapture: 'Scegli una carta illuminata in tavola per decidere la presa',
    chooseCaptureBrief: 'Scegli una carta illuminata',
    chooseKeys: 'Le frecce cambiano la mossa, Invio la gioca, Esc annulla',
    chosenKeys: 'Invio la gioca, Esc annulla',
    score: 'Punteggio', target: 'a {n}',
    level: 'Livello', easy: 'Facile', normal: 'Normale', hard: 'Difficile',
    napola: 'Napola', on: 'sì', off: 'no',
    variant: 'Variante', scientifico: 'Scientifico (10 carte)', classico: 'Classico (9 + 4 in tavola)',
    targetLabel: 'Si gioca a',
    design: 'Carte', classic: 'Tradizionali', clear: 'Alto contrasto',
    speed: 'Velocità', speedNormal: 'Normale', speedFast: 'Veloce',
    language: 'Lingua',
    newMatch: 'Nuova partita', newShort: 'Nuova', settings: 'Impostazioni', menu: 'Menu', close: 'Chiudi',
    newMatchNote: 'Cambiare Napola, variante o punti da raggiungere avvia una nuova partita.',
    keysHelp: 'Tasti: 1–9, 0 carta · ← → cosa prendi · Invio gioca · Esc annulla · N nuova partita · L livello · D carte · H suggerimento · C carte uscite · R analisi · ? regole',
    table: 'Tavola', tableEmpty: 'La tavola è vuota',
    hand: 'Le tue carte',
    seatCards: '{seat}: {n} carte', seatCardOne: '{seat}: 1 carta',
    pile: '{pair}: {n} carte prese, scope: {s}',
    plays: '{seat} gioca {card}',
    takes: '{seat} gioca {card} e prende {cards}',
    youPlay: 'Giochi {card}',
    youTake: 'Giochi {card} e prendi {cards}',
    youPlayByComputer: 'Il computer gioca {card} per te',
    youTakeByComputer: 'Il computer gioca {card} per te e prende {cards}',
    option: '{card} prende {cards} ({i} di {n})',
    selectedLays: '{card}: Invio la gioca, Esc annulla',
    selectedTakes: '{card} prende {cards}: Invio la gioca, Esc annulla',
    cancelled: 'Scelta annullata',
    tiedAtTarget: 'Entrambe le coppie hanno raggiunto {n} e sono in parità a {score} punti: si gioca ancora finché una coppia non passa in vantaggio.',
    byComputer: '{seat} · computer', // a person's card that the computer chose
    scopa: 'Scopa!',
    leftoverUs: 'Quel che resta in tavola va a noi: {cards}',
    leftoverThem: 'Quel che resta in tavola va a loro: {cards}',
    leftoverPair: 'Quel che resta in tavola va alla coppia {pair}: {cards}',
    roundTitle: 'Smazzata {n}',
    category: 'Voce',
    carte: 'Carte', denari: 'Denari', settebello: 'Settebello', primiera: 'Primiera',
    scope: 'Scope', roundPoints: 'Punti della smazzata', matchScore: 'Punteggio della partita',
    nextRound: 'Prossima smazzata',
    weWin: 'Tu e il tuo compagno vincete la partita!',
    theyWin: 'Gli avversari vincono la partita.',
    yes: 'sì', no: '—',
    error: 'Problema di connessione.', retry: 'Riprova',
    errorCardWaits: 'Problema di connessione: la tua carta parte appena il server risponde.',
    errorRoundWaits: 'Problema di connessione: la prossima smazzata comincia appena il server risponde.',
    errorMatchWaits: 'Problema di connessione: la nuova partita comincia appena il server risponde.',
    howCounted: 'Come si contano i punti', leftMatch: 'È iniziata una nuova partita.', backToMatch: 'Torna alla partita lasciata',
    cancel: 'Annulla',
    dealer: 'Mazziere',
  },
  de: {
    title: 'Scopone Scientifico',
    seat0: 'Du', seat1: 'Gegner rechts', seat2: 'Partner', seat3: 'Gegner links',
    pairA: 'Wir', pairB: 'Ihr',
    yourTurn: 'Du bist dran: Wähle eine Karte',
    thinking: '{seat} überlegt…',
    waiting: '{seat} ist dran',
    roundOver: 'Runde vorbei', matchOver: 'Partie vorbei',
    chooseCapture: 'Wähle eine leuchtende Tischkarte, um zu bestimmen, was du nimmst',
    chooseCaptureBrief: 'Leuchtende Karte wählen',
    chooseKeys: 'Pfeile wechseln den Zug, Enter spielt ihn, Esc bricht ab',
    chosenKeys: 'Enter spielt sie, Esc bricht ab',
    score: 'Stand', target: 'bis {n}',
    level: 'Level', easy: 'Leicht', normal: 'Normal', hard: 'Schwer',
    napola: 'Napola', on: 'an', off: 'aus',
    variant: 'Variante', scientifico: 'Scientifico (10 Karten)', classico: 'Classico (9 + 4 auf dem Tisch)',
    targetLabel: 'Spiel bis',
    design: 'Karten', classic: 'Traditionell', clear: 'Kontrastreich',
    speed: 'Tempo', speedNormal: 'Normal', speedFast: 'Schnell',
    language: 'Sprache',
    newMatch: 'Neue Partie', newShort: 'Neu', settings: 'Einstellungen', menu: 'Menü', close: 'Schließen',
    newMatchNote: 'Eine Änderung an Napola, Variante oder Zielpunkten startet eine neue Partie.',
    keysHelp: 'Tasten: 1–9, 0 Karte · ← → was du nimmst · Enter spielen · Esc abbrechen · N neue Partie · L Level · D Karten · H Tipp · C gesehene Karten · R Analyse · ? Regeln',
    table: 'Tisch', tableEmpty: 'Der Tisch ist leer',
    hand: 'Deine Karten',
    seatCards: '{seat}: {n} Karten', seatCardOne: '{seat}: 1 Karte',
    pile: '{pair}: {n} Karten genommen, Scope: {s}',
    plays: '{seat} spielt {card}',
    takes: '{seat} spielt {card} und nimmt {cards}',
    youPlay: 'Du spielst {card}',
    youTake: 'Du spielst {card} und nimmst {cards}',
    youPlayByComputer: 'Der Computer spielt {card} für dich',
    youTakeByComputer: 'Der Computer spielt {card} für dich und nimmt {cards}',
    option: '{card} nimmt {cards} ({i} von {n})',
    selectedLays: '{card}: Enter spielt sie, Esc bricht ab',
    selectedTakes: '{card} nimmt {cards}: Enter spielt sie, Esc bricht ab',
    cancelled: 'Auswahl abgebrochen',
    tiedAtTarget: 'Beide Paare haben {n} erreicht und liegen mit je {score} Punkten gleichauf: Es wird weitergespielt, bis ein Paar vorn liegt.',
    byComputer: '{seat} · Computer', // a person's card that the computer chose
    scopa: 'Scopa!',
    leftoverUs: 'Was auf dem Tisch übrig ist, geht an uns: {cards}',
    leftoverThem: 'Was auf dem Tisch übrig ist, geht an sie: {cards}',
    leftoverPair: 'Was auf dem Tisch übrig ist, geht an Paar {pair}: {cards}',
    roundTitle: 'Runde {n}',
    category: 'Wertung',
    carte: 'Karten', denari: 'Münzen', settebello: 'Settebello', primiera: 'Primiera',
    scope: 'Scope', roundPoints: 'Punkte der Runde', matchScore: 'Stand der Partie',
    nextRound: 'Nächste Runde',
    // "Du und dein Partner" takes the verb of "ihr" (as in the rules: "du und dein Partner habt").
    weWin: 'Du und dein Partner gewinnt die Partie!',
    theyWin: 'Die Gegner gewinnen die Partie.',
    yes: 'ja', no: '—',
    error: 'Verbindungsproblem.', retry: 'Nochmal',
    errorCardWaits: 'Verbindungsproblem: Deine Karte geht los, sobald der Server antwortet.',
    errorRoundWaits: 'Verbindungsproblem: Die nächste Runde wird gegeben, sobald der Server antwortet.',
    errorMatchWaits: 'Verbindungsproblem: Die neue Partie beginnt, sobald der Server antwortet.',
    howCounted: 'Wie die Punkte gezählt werden', leftMatch: 'Eine neue Partie hat begonnen.', backToMatch: 'Zurück zur verlassenen Partie',
    cancel: 'Abbrechen',
    dealer: 'Geber',
  },
};

export const LANGS = ['de', 'it', 'en'];
export const LANG_NAMES = { de: 'Deutsch', it: 'Italiano', en: 'English' };

/** The first of the browser's languages that we speak, else English. */
export function browserLang(languages) {
  for (const tag of languages || []) {
    const base = String(tag).toLowerCase().split('-')[0];
    if (LANGS.includes(base)) return base;
  }
  return 'en';
}

/** A text in `lang`, with `{name}` placeholders filled from `params`. */
export function t(lang, key, params = {}) {
  const table = TEXT[lang] || TEXT.en;
  const text = table[key] ?? TEXT.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => String(params[name] ?? ''));
}

export function parseCode(code) {
  return { rank: Number(code.slice(0, -1)), suit: code.slice(-1) };
}

/** "Sette di Denari", "Seven of Coins", "Sieben Münzen". */
export function cardName(lang, code) {
  const { rank, suit } = parseCode(code);
  const r = (RANKS[lang] || RANKS.en)[rank - 1];
  const s = (SUITS[lang] || SUITS.en)[suit];
  if (lang === 'it') return `${r} di ${s}`;
  if (lang === 'de') return `${r} ${s}`;
  return `${r} of ${s}`;
}

export function cardList(lang, codes) {
  const names = codes.map((c) => cardName(lang, c));
  if (names.length < 2) return names.join('');
  const and = { en: 'and', it: 'e', de: 'und' }[lang] || 'and';
  return `${names.slice(0, -1).join(', ')} ${and} ${names[names.length - 1]}`;
}

export function figureMark(lang, rank) {
  return (FIGURE_MARKS[lang] || FIGURE_MARKS.en)[rank] || '';
}

export function seatName(lang, seat) {
  return t(lang, `seat${seat}`);
}

/** Every key exists in every language (checked by the browser tests). */
export function missingKeys() {
  const keys = new Set(Object.values(TEXT).flatMap((table) => Object.keys(table)));
  const missing = [];
  for (const lang of LANGS) {
    for (const key of keys) if (!(key in TEXT[lang])) missing.push(`${lang}.${key}`);
  }
  return missing;
}
