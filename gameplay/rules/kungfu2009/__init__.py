"""Kung Fu (Kuznia Gier, 2009), 4-8 players (3 as our variant): real-time trading.

The package holds everything about this one game: the hit cards and the 52
combination cards (:mod:`.cards`, the combinations are our design), the engine
(:mod:`.engine`, with the rules beside it by topic), the built-in strategies
(:mod:`.strategies`: random trader, greedy collector, planner; the planner is
the heuristic bot's strategy) and :data:`META`, which the platform reads
through :func:`gameplay.rules.game_meta`. Bot matches run on the virtual clock
of :mod:`gameplay.rules.ticks`.
"""

from __future__ import annotations

from gameplay.rules.base import TimedGame
from gameplay.rules.kungfu2009.engine import RULES_VERSION, KungFu2009Game
from gameplay.rules.meta import N_, GameMeta, TableOption

__all__ = ["ENGINE", "ERROR_TEXTS", "META", "RULES_VERSION", "KungFu2009Game"]

META = GameMeta(
    catalogue="gameplay.rules.kungfu2009.catalogue",
    publisher="Kuznia Gier, 2009",
    summary=N_(
        "Young adepts take their Kung Fu exam all at once: trade hit cards with "
        "anyone at any moment, honestly or not quite, arrange them into a "
        "combination and be the first to shout KUNG FU."
    ),
    table_options=(
        TableOption(
            "remove",
            N_("Shorter game (2-2-1 removals)"),
            "int",
            0,
            min_value=0,
            max_value=4,
            help_text=N_(
                "Each unit removes 2 easy, 2 normal and 1 difficult combination "
                "before the game."
            ),
        ),
        TableOption(
            "minutes",
            N_("Time limit (minutes)"),
            "int",
            20,
            min_value=5,
            max_value=60,
            help_text=N_("When it is up the game is scored as it stands."),
            match_minutes=True,
        ),
        TableOption(
            "severe",
            N_("Severe punishment"),
            "bool",
            False,
            help_text=N_("A wrong KUNG FU also costs one completed combination."),
        ),
    ),
    heuristic="gameplay.rules.kungfu2009.strategies",
    # Post-game analysis: a claim and trade review instead of a search.
    review="gameplay.rules.kungfu2009.review",
    # Swiss tournaments seat the rulebook's 4-8 (3 is only our variant).
    tables=(4, 8, 6),
    # docs/ratings.md: at tables of four the heuristic bot places above each
    # random bot 84.7% of the time (measured, about 300 Elo). ISMCTS does not
    # play real-time games, so it anchors nothing here.
    anchors={"random": 1200.0, "heuristic": 1500.0},
    # "Talk and promises" are part of play: two seats may message privately.
    private_messages=True,
)

#: The engine class the registry instantiates (one shared, stateless instance).
# Typed as the contract (with server timers), so mypy checks the engine keeps it.
ENGINE: type[TimedGame] = KungFu2009Game

# The engine's own refusal codes (``IllegalAction``), with the text a player
# reads (the codes every engine shares are ``gameplay.rules.errors.COMMON_TEXTS``;
# ``player`` is a seat, worded as its player's name).
ERROR_TEXTS: dict[str, str] = {
    "malformed_offer": N_("'%(offer)s' is not an offer number."),
    "offer_never_made": N_("Offer %(offer)s was never made."),
    "offer_accepted": N_("Offer %(offer)s is not open: %(player)s accepted it."),
    "offer_declined": N_("Offer %(offer)s is not open: %(player)s declined it."),
    "offer_withdrawn": N_("Offer %(offer)s is not open: %(player)s withdrew it."),
    "offer_traded": N_(
        "Offer %(offer)s is not open: %(player)s traded the cards away."
    ),
    "offer_claimed": N_(
        "Offer %(offer)s is not open: %(player)s put the cards down for a claim."
    ),
    "offer_out_of_play": N_("Offer %(offer)s is not open: its player is out of play."),
    "offer_closed": N_("Offer %(offer)s is not open any more."),
    "no_draft": N_("No offer is being built: start one first."),
    "draft_open": N_("An offer is already being built: send or cancel it first."),
    "too_many_offers": N_("You have %(max)s open offers already: withdraw one first."),
    "not_a_partner": N_("That is not another seat at this table."),
    "nobody_in_play": N_("Nobody else is in play."),
    "partner_out": N_("%(player)s is out of play."),
    "declared_as_itself": N_(
        "A card declared as what it is needs no declaration: give it as it is."
    ),
    "unknown_style": N_("'%(style)s' is not a style of this game."),
    "give_at_most": N_("An offer gives at most %(max)s cards."),
    "want_at_most": N_("An offer asks for at most %(max)s cards."),
    "no_card_to_give": N_("You hold no other %(style)s card to give."),
    "already_open": N_("The offer is already played with open cards."),
    "empty_offer": N_("An offer must give or ask for at least one card."),
    "cards_gone": N_("You no longer hold the cards of this offer: cancel it."),
    "partner_gone": N_("The offer's partner is out of play: cancel it."),
    "not_addressed": N_("Offer %(offer)s is not addressed to you."),
    "declined_already": N_("You have already declined offer %(offer)s."),
    "cannot_pay": N_("You do not hold the cards offer %(offer)s asks for."),
    "cannot_honour": N_("%(player)s can no longer honour offer %(offer)s."),
    "not_yours": N_("Offer %(offer)s is not yours: %(player)s made it."),
    "malformed_move": N_("That is not a move within your hand."),
    "no_combination": N_("There is no such face-up combination."),
    "cannot_make": N_("Your cards cannot make that combination."),
    "already_arranged": N_("Your hand is already arranged for that combination."),
    "claim_waiting": N_("Your KUNG FU is already waiting to be checked."),
    "already_voted": N_("You already vote for an impasse."),
    "not_voted": N_("You have not voted for an impasse."),
    "paused": N_(
        "The game is paused while the KUNG FU of %(player)s is checked: no "
        "trading, arranging or voting until it resumes."
    ),
    "choose_forfeit": N_(
        "You are out of play: choose the completed combination you lose "
        "(severe punishment)."
    ),
    "no_completed": N_("You have no such completed combination."),
    "out_of_play": N_(
        "You are out of play (punished) until another player completes a combination."
    ),
}
