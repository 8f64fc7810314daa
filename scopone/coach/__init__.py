"""The coach: Hard's judgement made readable for people (hint, review, cards seen, statistics).

Independent of the web: every function takes a seat's ``SeatView`` or a finished round and gives
plain data. Only one seat's view ever goes into the evaluation, so nothing here can reveal a card
hidden from that seat.
"""

from __future__ import annotations

from .hint import Hint, hint_for
from .labels import BEST_WINDOW, LABELS, THRESHOLDS, label_for
from .review import PlayReview, RoundReview, RoundTrace, review_plays, review_round
from .seen import CardsSeen, cards_seen
from .stats import credit_accuracy, credit_help, credit_round, empty_stats, stats_summary

__all__ = ["BEST_WINDOW", "LABELS", "THRESHOLDS", "CardsSeen", "Hint", "PlayReview",
           "RoundReview", "RoundTrace", "cards_seen", "credit_accuracy", "credit_help",
           "credit_round", "empty_stats", "hint_for", "label_for", "review_plays",
           "review_round", "stats_summary"]
