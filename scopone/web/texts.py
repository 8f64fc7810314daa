"""The site's short texts in German, Italian and English: titles, descriptions, navigation and
the words of the worked example. The rule pages' prose lives in ``templates/rules/<lang>.html``.
"""

from __future__ import annotations

from typing import Final

LANGS: Final = ("de", "it", "en")
DEFAULT_LANG: Final = "en"
LANG_NAMES: Final = {"de": "Deutsch", "it": "Italiano", "en": "English"}
#: The rule page's address in each language.
RULES_PATH: Final = {"de": "/de/regeln", "it": "/it/regole", "en": "/en/rules"}

# The same names as static/js/i18n.js, so a card is called the same on the page and in play.
RANKS: Final = {
    "en": ("Ace", "Two", "Three", "Four", "Five", "Six", "Seven", "Jack", "Knight", "King"),
    "it": ("Asso", "Due", "Tre", "Quattro", "Cinque", "Sei", "Sette", "Fante", "Cavallo", "Re"),
    "de": ("Ass", "Zwei", "Drei", "Vier", "Fünf", "Sechs", "Sieben", "Bube", "Reiter", "König"),
}
SUITS: Final = {
    "en": {"D": "Coins", "C": "Cups", "S": "Swords", "B": "Clubs"},
    "it": {"D": "Denari", "C": "Coppe", "S": "Spade", "B": "Bastoni"},
    "de": {"D": "Münzen", "C": "Kelche", "S": "Schwerter", "B": "Stäbe"},
}

SITE: Final[dict[str, dict[str, str]]] = {
    "en": {
        "game_title": "Scopone Scientifico – play the Italian card game online",
        "game_description": "Play Scopone Scientifico in your browser: you and a computer "
                            "partner against two computer opponents, three levels, free, no "
                            "sign-up, on a phone or a desktop.",
        "rules_title": "Scopone Scientifico rules, scoring and strategy",
        "rules_description": "The complete rules of Scopone Scientifico: capturing, scope, "
                             "primiera and napola, a round counted step by step, the computer "
                             "levels, strategy, controls, history and questions.",
        "rules_h1": "Scopone Scientifico: rules and help",
        "skip": "Skip to the content",
        "site_nav": "Site",
        "play": "Play",
        "rules": "Rules",
        "language": "Language",
        "contents": "Contents",
        "back": "Back to the game",
        "pair_a": "Your pair",
        "pair_b": "Opponents",
        "category": "Category",
        "carte": "Cards", "denari": "Coins", "settebello": "Settebello",
        "primiera": "Primiera", "scope": "Scope", "napola": "Napola",
        "points": "Points", "round_points": "Round points",
        "with_napola": "With Napola",
        "yes": "yes", "no": "no",
        "table": "Table", "played": "Card played", "options": "What it may take",
        "pile_a": "Cards taken by your pair", "pile_b": "Cards taken by the opponents",
        "best_cards": "Best card of each suit",
        "score_caption": "The example round's points, category by category",
        "footer": "Scopone Scientifico – a free card game, no sign-up. Made without trackers.",
        "missing_title": "Page not found",
        "missing_text": "There is no page at this address. The game and its rules are here:",
    },
    "it": {
        "game_title": "Scopone Scientifico – gioca online al gioco di carte italiano",
        "game_description": "Gioca a Scopone Scientifico nel browser: tu e un compagno contro "
                            "due avversari, tutti e tre giocati dal computer; tre livelli, "
                            "gratis, senza registrazione, sul telefono o sul computer.",
        "rules_title": "Regole dello Scopone Scientifico, punteggio e strategia",
        "rules_description": "Le regole complete dello Scopone Scientifico: prese, scope, "
                             "primiera e napola, una smazzata contata passo per passo, i livelli "
                             "del computer, strategia, comandi, storia e domande.",
        "rules_h1": "Scopone Scientifico: regole e aiuto",
        "skip": "Vai al contenuto",
        "site_nav": "Sito",
        "play": "Gioca",
        "rules": "Regole",
        "language": "Lingua",
        "contents": "Indice",
        "back": "Torna alla partita",
        "pair_a": "La tua coppia",
        "pair_b": "Avversari",
        "category": "Voce",
        "carte": "Carte", "denari": "Denari", "settebello": "Settebello",
        "primiera": "Primiera", "scope": "Scope", "napola": "Napola",
        "points": "Punti", "round_points": "Punti della smazzata",
        "with_napola": "Con la napola",
        "yes": "sì", "no": "no",
        "table": "In tavola", "played": "Carta giocata", "options": "Cosa può prendere",
        "pile_a": "Carte prese dalla tua coppia", "pile_b": "Carte prese dagli avversari",
        "best_cards": "Carta migliore di ogni seme",
        "score_caption": "I punti della smazzata d'esempio, voce per voce",
        "footer": "Scopone Scientifico – gioco di carte gratuito, senza registrazione. "
                  "Nessun tracciamento.",
        "missing_title": "Pagina non trovata",
        "missing_text": "A questo indirizzo non c'è nessuna pagina. Il gioco e le sue regole "
                        "sono qui:",
    },
    "de": {
        "game_title": "Scopone Scientifico – das italienische Kartenspiel online spielen",
        "game_description": "Spiele Scopone Scientifico im Browser: du und ein Computerpartner "
                            "gegen zwei Computergegner, drei Level, kostenlos, ohne Anmeldung, "
                            "auf dem Handy oder am Computer.",
        "rules_title": "Scopone Scientifico: Regeln, Zählung und Strategie",
        "rules_description": "Die vollständigen Regeln von Scopone Scientifico: Nehmen, Scope, "
                             "Primiera und Napola, eine Runde Schritt für Schritt gezählt, die "
                             "Computer-Level, Strategie, Steuerung, Geschichte und Fragen.",
        "rules_h1": "Scopone Scientifico: Regeln und Hilfe",
        "skip": "Zum Inhalt springen",
        "site_nav": "Seite",
        "play": "Spielen",
        "rules": "Regeln",
        "language": "Sprache",
        "contents": "Inhalt",
        "back": "Zurück zum Spiel",
        "pair_a": "Dein Paar",
        "pair_b": "Gegner",
        "category": "Wertung",
        "carte": "Karten", "denari": "Münzen", "settebello": "Settebello",
        "primiera": "Primiera", "scope": "Scope", "napola": "Napola",
        "points": "Punkte", "round_points": "Punkte der Runde",
        "with_napola": "Mit Napola",
        "yes": "ja", "no": "nein",
        "table": "Auf dem Tisch", "played": "Gespielte Karte", "options": "Was sie nehmen darf",
        "pile_a": "Von deinem Paar genommene Karten",
        "pile_b": "Von den Gegnern genommene Karten",
        "best_cards": "Beste Karte jeder Farbe",
        "score_caption": "Die Punkte der Beispielrunde, Wertung für Wertung",
        "footer": "Scopone Scientifico – ein kostenloses Kartenspiel ohne Anmeldung. "
                  "Ohne Tracker.",
        "missing_title": "Seite nicht gefunden",
        "missing_text": "Unter dieser Adresse gibt es keine Seite. Das Spiel und seine Regeln "
                        "sind hier:",
    },
}

#: The rule page's sections, in order: (anchor, heading) per language. The anchors are shared,
#: so ``#controls`` works in every language (the game's ``?`` key goes there).
SECTIONS: Final[dict[str, tuple[tuple[str, str], ...]]] = {
    "en": (("rules", "The complete rules"), ("scoring", "How a round is scored"),
           ("example", "A round counted step by step"), ("levels", "The computer levels"),
           ("strategy", "Strategy that helps"), ("controls", "Controls"),
           ("history", "A little history"), ("questions", "Questions and answers")),
    "it": (("rules", "Le regole complete"), ("scoring", "Come si conta una smazzata"),
           ("example", "Una smazzata contata passo per passo"),
           ("levels", "I livelli del computer"),
           ("strategy", "Strategie che aiutano"), ("controls", "Comandi"),
           ("history", "Un po' di storia"), ("questions", "Domande e risposte")),
    "de": (("rules", "Die Regeln, vollständig"), ("scoring", "Wie eine Runde gezählt wird"),
           ("example", "Eine Runde, Schritt für Schritt gezählt"),
           ("levels", "Die Computer-Level"), ("strategy", "Strategien, die helfen"),
           ("controls", "Steuerung"), ("history", "Ein wenig Geschichte"),
           ("questions", "Häufige Fragen")),
}


def card_name(lang: str, code: str) -> str:
    """A card's name as the game says it, with its rank's numeral first (what the card shows).

    >>> card_name("it", "7D"), card_name("de", "10B"), card_name("en", "8C")
    ('7 – Sette di Denari', '10 – König Stäbe', '8 – Jack of Cups')
    """
    rank, suit = int(code[:-1]), code[-1]
    r, s = RANKS[lang][rank - 1], SUITS[lang][suit]
    name = f"{r} di {s}" if lang == "it" else f"{r} {s}" if lang == "de" else f"{r} of {s}"
    return f"{rank} – {name}"


def best_lang(accept_language: str | None) -> str:
    """The first language of an Accept-Language header that we speak, else English. A language
    weighted ``q=0`` is one the reader does not want (RFC 9110), never chosen.

    >>> best_lang("it-IT,it;q=0.9,en;q=0.8"), best_lang("fr, de;q=0.5"), best_lang(None)
    ('it', 'de', 'en')
    >>> best_lang("de;q=0, it;q=0.1"), best_lang("fr, de;q=0")
    ('it', 'en')
    """
    weighted = []
    for i, part in enumerate((accept_language or "").split(",")):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        if q > 0:
            weighted.append((-q, i, tag.strip().lower().split("-")[0]))
    for _, _, base in sorted(weighted):
        if base in LANGS:
            return base
    return DEFAULT_LANG
