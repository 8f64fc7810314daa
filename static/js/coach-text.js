// The coach's texts in German, Italian and English (the game's own are in i18n.js).

const TEXT = {
  en: {
    hint: 'Hint', hintThinking: 'Looking for the best move…',
    hintFailed: 'The coach could not answer just now: press Hint again in a moment.',
    hintBest: 'Hint: {move}', hintMargins: 'Expected margin to the end of the round (us minus them):',
    hintMarginsShort: 'Margin at the round’s end, us − them:',
    hintFree: 'You may still play any card.', hintForced: 'Only one legal move: {move}.',
    lay: '{card}', take: '{card} taking {cards}',
    seen: 'Cards seen', seenTitle: 'Cards seen this round',
    placehand: 'in your hand', placetable: 'on the table', placetaken_a: 'taken by us',
    placetaken_b: 'taken by them', placeunseen: 'not seen yet',
    unseenByRank: 'Still unseen, per rank', rank: 'Rank', unseenCount: 'Unseen',
    settebello: 'Settebello (Seven of Coins): {where}.',
    review: 'Review', reviewTitle: 'Review of round {n}', reviewTitleEarlier: 'Review of round {n} of the last match', reviewLoading: 'Reviewing the round…',
    reviewFailed: 'The review could not be made just now (the connection or the server).', tryAgain: 'Try again',
    reviewFailedNote: 'No review just now: press Review to try again.', noRound: 'No round has finished yet.',
    accuracy: 'Accuracy {p}%', percent: '{p}%', accuracyNone: 'No play had a real choice.',
    accuracyAway: 'The computer played your cards that had a choice: nothing to judge.',
    accuracyOf: 'Plays with a choice judged best or good: {good} of {n}.',
    step: 'Play {k} of {n}', youPlayed: 'You played {move}', bestWas: 'Best play: {move}',
    sameAsBest: 'That was the best play.', yourPlay: '(yours)',
    forced: 'Only one legal move: not judged.', cost: 'It cost {x} points.',
    asGood: 'Yours was as good, within what the judgement can tell apart.',
    computerPlayed: 'Played by the computer while you were away: {move}',
    computerChose: 'The computer chose this card: not judged.',
    best: 'best', good: 'good', inaccuracy: 'inaccuracy', mistake: 'mistake', blunder: 'blunder',
    tableBefore: 'Table before the play', handBefore: 'Your hand', empty: 'empty',
    markPlayed: 'your play', markBest: 'the best play', rulesLink: 'Rules',
    prev: 'Previous', next: 'Next', close: 'Close', hintsUsed: 'Hints used: {n}',
    scopa: 'Scopa!', margin: '{m} points',
    whyTakes: 'wins {n} cards', whySettebello: 'the settebello', whyCoin: '1 coin',
    whyCoins: '{n} coins', whyOtherSeven: '1 other seven', whyOtherSevens: '{n} other sevens',
    whyOtherCoin: '1 other coin', whyOtherCoins: '{n} other coins', whyLays: 'lays the settebello on the table',
    whyLeaves1: 'leaves {s} on the table: {k} is still out',
    whyLeaves: 'leaves {s} on the table: {k} are still out',
    stats: 'Statistics', statsTitle: 'Your statistics', backToGame: 'Back to the game',
    noStats: 'No statistics yet: play a round first.',
    level: 'Level', easy: 'Easy', normal: 'Normal', hard: 'Hard', matches: 'Matches',
    matchesWon: 'Matches won', rounds: 'Rounds', roundsWon: 'Rounds won',
    averagePoints: 'Average points per round', category: 'Category', pointsCol: 'Points',
    carte: 'Cards', denari: 'Coins', settebelloCat: 'Settebello', primiera: 'Primiera',
    scope: 'Scope', napola: 'Napola',
    scopeMade: 'Scope made', scopeConceded: 'Scope conceded', hints: 'Hints used',
    seenOpened: 'Of those, “Cards seen” opened', accuracyOverTime: 'Accuracy over time',
    accuracyChart: 'Accuracy of the last {n} reviewed rounds: from {first}% to {last}%, average {avg}%.',
    accuracyChartOne: 'Accuracy of the one reviewed round: {first}%.',
    noAccuracy: 'No reviewed round yet.', clear: 'Clear my statistics',
    clearConfirm: 'Clear all your statistics? This cannot be undone.', cleared: 'Statistics cleared.',
    clearFailed: 'The statistics could not be cleared just now (the connection or the server): try again in a moment.',
    carryTitle: 'On another device',
    carryText: 'Open this private link on your phone or in another browser: it shows these statistics there, and your matches there count to them. Anyone with the link can see and clear them: keep it to yourself.',
    carryLink: 'Your private statistics link', copy: 'Copy link', copied: 'Link copied.',
    copyByHand: 'Select the link and copy it.',
    offerTitle: 'Statistics from another device',
    offerText: 'Use the statistics of this link on this device? Rounds in them: {n}. Your next matches here count to them.',
    offerReplaces: 'This device’s own statistics (rounds: {n}) will no longer be shown here.',
    adopt: 'Use them here', keep: 'Keep this device’s statistics',
    adopted: 'These statistics are now this device’s too.',
    offerEmpty: 'The statistics of this link are empty or were cleared: nothing to bring here.',
    statsFailed: 'The statistics could not be loaded just now (the connection or the server): reload the page in a moment.',
  },
  it: {
    hint: 'Suggerimento', hintThinking: 'Cerco la mossa migliore…',
    hintFailed: 'Il suggeritore non ha potuto rispondere: premi di nuovo Suggerimento tra un momento.',
    hintBest: 'Suggerimento: {move}', hintMargins: 'Margine atteso fino a fine smazzata (noi meno loro):',
    hintMarginsShort: 'Margine a fine smazzata, noi − loro:',
    hintFree: 'Puoi comunque giocare qualsiasi carta.', hintForced: 'Una sola mossa possibile: {move}.',
    lay: '{card}', take: '{card} prendendo {cards}',
    seen: 'Carte uscite', seenTitle: 'Carte uscite in questa smazzata',
    placehand: 'in mano a te', placetable: 'in tavola', placetaken_a: 'nelle nostre prese',
    placetaken_b: 'nelle loro prese', placeunseen: 'ancora da vedere',
    unseenByRank: 'Ancora da vedere, per valore', rank: 'Valore', unseenCount: 'Da vedere',
    settebello: 'Settebello (Sette di Denari): {where}.',
    review: 'Analisi', reviewTitle: 'Analisi della smazzata {n}', reviewTitleEarlier: 'Analisi della smazzata {n} della partita precedente', reviewLoading: 'Analizzo la smazzata…',
    reviewFailed: 'Non è stato possibile fare l’analisi in questo momento (la connessione o il server).', tryAgain: 'Riprova',
    reviewFailedNote: 'Analisi non disponibile ora: premi Analisi per riprovare.', noRound: 'Nessuna smazzata è ancora finita.',
    accuracy: 'Precisione {p}%', percent: '{p}%', accuracyNone: 'In nessuna giocata c’era una vera scelta.',
    accuracyAway: 'Le tue carte con una scelta le ha giocate il computer: niente da giudicare.',
    accuracyOf: 'Giocate con una scelta giudicate migliori o buone: {good} su {n}.',
    step: 'Giocata {k} di {n}', youPlayed: 'Hai giocato {move}', bestWas: 'Giocata migliore: {move}',
    sameAsBest: 'Era la giocata migliore.', yourPlay: '(la tua)',
    forced: 'Una sola mossa possibile: non giudicata.', cost: 'È costata {x} punti.',
    asGood: 'La tua valeva altrettanto, per quanto la valutazione riesce a distinguere.',
    computerPlayed: 'Giocata dal computer mentre eri assente: {move}',
    computerChose: 'Carta scelta dal computer: non giudicata.',
    best: 'migliore', good: 'buona', inaccuracy: 'imprecisione', mistake: 'errore', blunder: 'errore grave',
    tableBefore: 'Tavola prima della giocata', handBefore: 'La tua mano', empty: 'vuota',
    markPlayed: 'la tua giocata', markBest: 'la giocata migliore', rulesLink: 'Regole',
    prev: 'Precedente', next: 'Successiva', close: 'Chiudi', hintsUsed: 'Suggerimenti usati: {n}',
    scopa: 'Scopa!', margin: '{m} punti',
    whyTakes: 'porta a casa {n} carte', whySettebello: 'il settebello', whyCoin: '1 denaro',
    whyCoins: '{n} denari', whyOtherSeven: '1 altro sette', whyOtherSevens: '{n} altri sette',
    whyOtherCoin: '1 altro denaro', whyOtherCoins: '{n} altri denari', whyLays: 'cala il settebello in tavola',
    whyLeaves1: 'lascia {s} in tavola: {k} ancora da vedere',
    whyLeaves: 'lascia {s} in tavola: {k} ancora da vedere',
    stats: 'Statistiche', statsTitle: 'Le tue statistiche', backToGame: 'Torna alla partita',
    noStats: 'Ancora nessuna statistica: gioca prima una smazzata.',
    level: 'Livello', easy: 'Facile', normal: 'Normale', hard: 'Difficile', matches: 'Partite',
    matchesWon: 'Partite vinte', rounds: 'Smazzate', roundsWon: 'Smazzate vinte',
    averagePoints: 'Punti medi per smazzata', category: 'Voce', pointsCol: 'Punti',
    carte: 'Carte', denari: 'Denari', settebelloCat: 'Settebello', primiera: 'Primiera',
    scope: 'Scope', napola: 'Napola',
    scopeMade: 'Scope fatte', scopeConceded: 'Scope subite', hints: 'Suggerimenti usati',
    seenOpened: 'Di cui aperture di «Carte uscite»', accuracyOverTime: 'Precisione nel tempo',
    accuracyChart: 'Precisione delle ultime {n} smazzate analizzate: da {first}% a {last}%, media {avg}%.',
    accuracyChartOne: 'Precisione dell’unica smazzata analizzata: {first}%.',
    noAccuracy: 'Ancora nessuna smazzata analizzata.', clear: 'Cancella le mie statistiche',
    clearConfirm: 'Cancellare tutte le tue statistiche? Non si può annullare.', cleared: 'Statistiche cancellate.',
    clearFailed: 'Non è stato possibile cancellare le statistiche (la connessione o il server): riprova tra un momento.',
    carryTitle: 'Su un altro dispositivo',
    carryText: 'Apri questo link privato sul telefono o in un altro browser: lì vedrai queste statistiche, e le partite giocate lì si sommeranno a queste. Chi ha il link può vederle e cancellarle: tienilo per te.',
    carryLink: 'Il tuo link privato alle statistiche', copy: 'Copia il link', copied: 'Link copiato.',
    copyByHand: 'Seleziona il link e copialo.',
    offerTitle: 'Statistiche da un altro dispositivo',
    offerText: 'Usare su questo dispositivo le statistiche di questo link? Smazzate: {n}. Le tue prossime partite qui si sommeranno a queste.',
    offerReplaces: 'Le statistiche di questo dispositivo (smazzate: {n}) non saranno più mostrate qui.',
    adopt: 'Usale qui', keep: 'Tieni quelle di questo dispositivo',
    adopted: 'Ora queste statistiche sono anche di questo dispositivo.',
    offerEmpty: 'Le statistiche di questo link sono vuote o sono state cancellate: niente da portare qui.',
    statsFailed: 'Non è stato possibile caricare le statistiche (la connessione o il server): ricarica la pagina tra un momento.',
  },
  de: {
    hint: 'Tipp', hintThinking: 'Suche den besten Zug…',
    hintFailed: 'Der Trainer konnte gerade nicht antworten: Drücke gleich noch einmal auf Tipp.',
    hintBest: 'Tipp: {move}', hintMargins: 'Erwarteter Abstand bis Rundenende (wir minus sie):',
    hintMarginsShort: 'Abstand bei Rundenende, wir − sie:',
    hintFree: 'Du kannst trotzdem jede Karte spielen.', hintForced: 'Nur ein möglicher Zug: {move}.',
    lay: '{card}', take: '{card} nimmt {cards}',
    seen: 'Gesehene Karten', seenTitle: 'Gesehene Karten dieser Runde',
    placehand: 'auf deiner Hand', placetable: 'auf dem Tisch', placetaken_a: 'von uns genommen',
    placetaken_b: 'von ihnen genommen', placeunseen: 'noch nicht gesehen',
    unseenByRank: 'Noch ungesehen, je Wert', rank: 'Wert', unseenCount: 'Ungesehen',
    settebello: 'Settebello (Sieben Münzen): {where}.',
    review: 'Analyse', reviewTitle: 'Analyse der Runde {n}', reviewTitleEarlier: 'Analyse der Runde {n} der letzten Partie', reviewLoading: 'Analysiere die Runde…',
    reviewFailed: 'Die Analyse ist gerade nicht gelungen (die Verbindung oder der Server).', tryAgain: 'Noch einmal versuchen',
    reviewFailedNote: 'Gerade keine Analyse: Drücke auf Analyse, um es noch einmal zu versuchen.', noRound: 'Noch ist keine Runde beendet.',
    accuracy: 'Genauigkeit {p} %', percent: '{p} %', accuracyNone: 'Bei keinem Zug gab es eine echte Wahl.',
    accuracyAway: 'Deine Karten mit echter Wahl hat der Computer gespielt: nichts zu bewerten.',
    accuracyOf: 'Züge mit Wahl, als beste oder gute bewertet: {good} von {n}.',
    step: 'Zug {k} von {n}', youPlayed: 'Du hast gespielt: {move}', bestWas: 'Bester Zug: {move}',
    sameAsBest: 'Das war der beste Zug.', yourPlay: '(deiner)',
    forced: 'Nur ein möglicher Zug: nicht bewertet.', cost: 'Er kostete {x} Punkte.',
    asGood: 'Deiner war ebenso gut, soweit die Bewertung das unterscheiden kann.',
    computerPlayed: 'Vom Computer gespielt, während du abwesend warst: {move}',
    computerChose: 'Vom Computer gewählt: nicht bewertet.',
    best: 'bester', good: 'gut', inaccuracy: 'Ungenauigkeit', mistake: 'Fehler', blunder: 'grober Fehler',
    tableBefore: 'Tisch vor dem Zug', handBefore: 'Deine Hand', empty: 'leer',
    markPlayed: 'dein Zug', markBest: 'der beste Zug', rulesLink: 'Regeln',
    prev: 'Zurück', next: 'Weiter', close: 'Schließen', hintsUsed: 'Benutzte Tipps: {n}',
    scopa: 'Scopa!', margin: '{m} Punkte',
    whyTakes: 'bringt {n} Karten ein', whySettebello: 'den Settebello', whyCoin: '1 Münze',
    whyCoins: '{n} Münzen', whyOtherSeven: '1 weitere Sieben',
    whyOtherSevens: '{n} weitere Siebenen', whyOtherCoin: '1 weitere Münze',
    whyOtherCoins: '{n} weitere Münzen', whyLays: 'legt den Settebello auf den Tisch',
    whyLeaves1: 'lässt {s} auf dem Tisch liegen: {k} noch nicht gesehen',
    whyLeaves: 'lässt {s} auf dem Tisch liegen: {k} noch nicht gesehen',
    stats: 'Statistik', statsTitle: 'Deine Statistik', backToGame: 'Zurück zum Spiel',
    noStats: 'Noch keine Statistik: Spiel zuerst eine Runde.',
    level: 'Level', easy: 'Leicht', normal: 'Normal', hard: 'Schwer', matches: 'Partien',
    matchesWon: 'Partien gewonnen', rounds: 'Runden', roundsWon: 'Runden gewonnen',
    averagePoints: 'Durchschnittliche Punkte je Runde', category: 'Wertung', pointsCol: 'Punkte',
    carte: 'Karten', denari: 'Münzen', settebelloCat: 'Settebello', primiera: 'Primiera',
    scope: 'Scope', napola: 'Napola',
    scopeMade: 'Scope gemacht', scopeConceded: 'Scope zugelassen', hints: 'Benutzte Tipps',
    seenOpened: 'Davon „Gesehene Karten“ geöffnet', accuracyOverTime: 'Genauigkeit im Verlauf',
    accuracyChart: 'Genauigkeit der letzten {n} analysierten Runden: von {first} % bis {last} %, im Mittel {avg} %.',
    accuracyChartOne: 'Genauigkeit der einen analysierten Runde: {first} %.',
    noAccuracy: 'Noch keine analysierte Runde.', clear: 'Meine Statistik löschen',
    clearConfirm: 'Deine ganze Statistik löschen? Das lässt sich nicht rückgängig machen.',
    cleared: 'Statistik gelöscht.',
    clearFailed: 'Die Statistik konnte gerade nicht gelöscht werden (die Verbindung oder der Server): Versuche es gleich noch einmal.',
    carryTitle: 'Auf einem anderen Gerät',
    carryText: 'Öffne diesen privaten Link auf deinem Handy oder in einem anderen Browser: Dort siehst du diese Statistik, und deine Partien dort zählen dazu. Wer den Link hat, kann sie sehen und löschen: Behalte ihn für dich.',
    carryLink: 'Dein privater Statistik-Link', copy: 'Link kopieren', copied: 'Link kopiert.',
    copyByHand: 'Markiere den Link und kopiere ihn.',
    offerTitle: 'Statistik von einem anderen Gerät',
    offerText: 'Die Statistik dieses Links auf diesem Gerät verwenden? Runden darin: {n}. Deine nächsten Partien hier zählen dazu.',
    offerReplaces: 'Die eigene Statistik dieses Geräts (Runden: {n}) wird hier nicht mehr angezeigt.',
    adopt: 'Hier verwenden', keep: 'Statistik dieses Geräts behalten',
    adopted: 'Diese Statistik gilt jetzt auch auf diesem Gerät.',
    offerEmpty: 'Die Statistik dieses Links ist leer oder wurde gelöscht: Es gibt nichts zu übernehmen.',
    statsFailed: 'Die Statistik konnte gerade nicht geladen werden (die Verbindung oder der Server): Lade die Seite gleich neu.',
  },
};

// A count of cards of one rank, as the reasons say it: "2 sevens", "1 fante", "2 Siebenen".
// Each language opens on one line with its words: the tests read `  en: {` blocks as texts.
const RANK_WORDS = {
  en: { one: ['ace', 'two', 'three', 'four', 'five', 'six', 'seven', 'jack', 'knight', 'king'],
    many: ['aces', 'twos', 'threes', 'fours', 'fives', 'sixes', 'sevens', 'jacks', 'knights', 'kings'] },
  it: { one: ['asso', 'due', 'tre', 'quattro', 'cinque', 'sei', 'sette', 'fante', 'cavallo', 're'],
    many: ['assi', 'due', 'tre', 'quattro', 'cinque', 'sei', 'sette', 'fanti', 'cavalli', 're'] },
  de: { one: ['Ass', 'Zwei', 'Drei', 'Vier', 'Fünf', 'Sechs', 'Sieben', 'Bube', 'Reiter', 'König'],
    many: ['Asse', 'Zweien', 'Dreien', 'Vieren', 'Fünfen', 'Sechsen', 'Siebenen', 'Buben', 'Reiter', 'Könige'] },
};

/** "2 sevens", "1 ace": `n` cards of `rank` (1-10) in `lang`. */
export function rankCount(lang, rank, n) {
  const words = RANK_WORDS[lang] || RANK_WORDS.en;
  return `${n} ${(n === 1 ? words.one : words.many)[rank - 1]}`;
}

/**
 * A move's reasons as the server gives them (scopone/coach/reasons.py: facts from the person's
 * own view, in order) as short texts: [{text, scopa}], e.g. "Scopa!", "takes 4 cards: the
 * settebello, 2 coins", "leaves 7 on the table: 2 sevens are still out". What the capture takes
 * (settebello, sevens, coins) is said with its count of cards, the settebello once: the sevens
 * and coins the server counts include it, so beside it the others are said ("1 other seven").
 * A kind this page does not know is left out.
 */
export function reasonTexts(lang, reasons) {
  const tr = (key, params) => ct(lang, key, params);
  const out = [];
  let takes = null;
  const settebello = (reasons || []).some((r) => r.kind === 'settebello') ? 1 : 0;
  const other = (key, n) => (n === 1 ? tr(`whyOther${key}`) : tr(`whyOther${key}s`, { n }));
  for (const r of reasons || []) {
    const n = r.count - settebello; // for sevens and coins: those that are not the settebello
    if (r.kind === 'scopa') out.push({ text: tr('scopa'), scopa: true });
    else if (r.kind === 'cards') {
      takes = { text: tr('whyTakes', { n: r.count }), what: [] };
      out.push(takes);
    } else if (r.kind === 'settebello' && takes) takes.what.push(tr('whySettebello'));
    else if (r.kind === 'sevens' && takes && n > 0) {
      takes.what.push(settebello ? other('Seven', n) : rankCount(lang, 7, n));
    } else if (r.kind === 'coins' && takes && n > 0) {
      takes.what.push(settebello ? other('Coin', n) : tr(n === 1 ? 'whyCoin' : 'whyCoins', { n }));
    }
    else if (r.kind === 'lays_settebello') out.push({ text: tr('whyLays') });
    else if (r.kind === 'leaves') {
      const k = rankCount(lang, r.sum, r.unseen);
      out.push({ text: tr(r.unseen === 1 ? 'whyLeaves1' : 'whyLeaves', { s: r.sum, k }) });
    }
  }
  return out.map((o) => ({
    text: o.what && o.what.length ? `${o.text}: ${o.what.join(', ')}` : o.text,
    scopa: Boolean(o.scopa),
  }));
}

/** A coach text in `lang`, with `{name}` placeholders filled from `params`. */
export function ct(lang, key, params = {}) {
  const table = TEXT[lang] || TEXT.en;
  const text = table[key] ?? TEXT.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => String(params[name] ?? ''));
}

/** Every coach key exists in every language (checked by the browser tests). */
export function missingCoachKeys() {
  const keys = new Set(Object.values(TEXT).flatMap((table) => Object.keys(table)));
  const missing = [];
  for (const lang of Object.keys(TEXT)) {
    for (const key of keys) if (!(key in TEXT[lang])) missing.push(`${lang}.${key}`);
    for (const n of ['one', 'many']) {
      if ((RANK_WORDS[lang]?.[n] || []).length !== 10) missing.push(`${lang}.rank.${n}`);
    }
  }
  return missing;
}

/** A margin or a cost as people read it: "+1.2", "−0.4", "0.0" (locale decimal mark), to
 * ``digits`` decimals. */
export function signed(lang, x, digits = 1) {
  const v = Math.round(x * 10 ** digits) / 10 ** digits;
  const text = Math.abs(v).toLocaleString(lang, { minimumFractionDigits: digits, maximumFractionDigits: digits });
  if (v > 0) return `+${text}`;
  if (v < 0) return `−${text}`;
  return text;
}

/** The least loss of each label but best (best: up to ``good``'s, inclusive); the server's
 * scopone/coach/labels.py BEST_WINDOW and THRESHOLDS (a test keeps them equal). */
export const LOSS_FROM = { good: 0.25, inaccuracy: 0.5, mistake: 0.8, blunder: 1.5 };

function labelOf(loss) {
  if (loss <= LOSS_FROM.good) return 'best';
  return ['blunder', 'mistake', 'inaccuracy'].find((k) => loss >= LOSS_FROM[k]) || 'good';
}

/** What a play labelled ``label`` cost, "0.6": to one decimal, or two where one would read as
 * another label's (a "good" 0.46 and an "inaccuracy" 0.52 both read 0.5). The two are cut,
 * not rounded: a "good" 0.496 is 0.49, under inaccuracy's 0.5 (every bound has two decimals). */
export function costText(lang, loss, label) {
  const tenths = Math.round(loss * 10) / 10;
  const shown = labelOf(tenths) === label ? signed(lang, tenths) : signed(lang, Math.floor(loss * 100 + 1e-9) / 100, 2);
  return shown.replace('+', '');
}
