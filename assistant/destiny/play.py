"""Star Wars: Destiny setup, playing and activating cards, upkeep and the end of the round
(P5 › Przygotowanie, Zagranie karty, Aktywowanie, Faza utrzymania, Zwycięstwo; digest
``destiny.md`` §3–§5.2, §7.8).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import AssistantError
from ..i18n import _, n_
from .characters import MAX_UPGRADES
from .dice import Face, Symbol


class IllegalPlayError(AssistantError):
    """A card play or activation the rules do not allow; the message names the rule."""


def upgrade_cost(new_cost: int, replaced_cost: int | None = None) -> tuple[int, str]:
    """What an upgrade costs, replacing one already on the character or not.

    The rulebook reduces the new cost by the old one, then says the new upgrade is free "if the
    old cost is equal to or lower than the new cost" -- which contradicts the reduction (reading R16 in docs/readings.md).
    Best reading, shown in the answer: max(0, new - old).

    >>> upgrade_cost(3, replaced_cost=2)[0], upgrade_cost(2, replaced_cost=3)[0]   # D-17, D-17b
    (1, 0)
    """
    if replaced_cost is None:
        return new_cost, _("Destiny P5 › Zagranie karty z ręki: pay the cost")
    return max(0, new_cost - replaced_cost), _(
        "Destiny P5 › Zagranie karty z ręki, L233-235: the new cost is reduced by the replaced "
        "upgrade's cost; reading R16 in docs/readings.md: the text's 'free if the old cost is equal or lower' contradicts "
        "this and is read as a translation error"
    )


def check_play(
    cost: int,
    resources: int,
    unique_title: str | None = None,
    in_play_titles: frozenset[str] = frozenset(),
    upgrades_on_target: int | None = None,
    replacing: bool = False,
) -> None:
    """Can the card be played: uniqueness (P1 › Unikatowość), the upgrade cap of 3 unless
    replacing (P5 L237; reading R24 in docs/readings.md), and the cost (P5 › Zagranie karty)."""
    if unique_title is not None and unique_title in in_play_titles:
        raise IllegalPlayError(
            _("{unique_title} is unique and this player already has a copy in play; the opponent may have their own (Destiny P1 › Unikatowość)").format(
                unique_title=unique_title
            )
        )
    if upgrades_on_target is not None and upgrades_on_target >= MAX_UPGRADES and not replacing:
        raise IllegalPlayError(
            _(
                "the character already has {upgrades_on_target} upgrades; a 4th is played only by replacing one (Destiny P5, L237; reading R24 in "
                "docs/readings.md)"
            ).format(upgrades_on_target=upgrades_on_target)
        )
    if cost > resources:
        raise IllegalPlayError(
            _("the card costs {cost} and the player has {resources} resources (Destiny P5 › Zagranie karty)").format(cost=cost, resources=resources)
        )


def upgrades_to_discard(count: int) -> int:
    """An effect that ignores play restrictions (Redeploy) may push a character to 4 upgrades;
    its controller then discards down to 3, choosing which (reading R24 in docs/readings.md; D-18)."""
    return max(0, count - MAX_UPGRADES)


@dataclass(frozen=True)
class Activation:
    card: str
    dice_rolled: tuple[str, ...]
    note: str


def activate(card: str, exhausted: bool, own_dice: tuple[str, ...], upgrade_dice: tuple[str, ...] = (), is_support: bool = False) -> Activation:
    """Activate a ready character or support: exhaust it and roll *all* its dice -- a
    character's own and every attached upgrade's, ready or exhausted; no choosing (P5 ›
    Aktywowanie; D-40, D-41, D-42)."""
    if exhausted:
        raise IllegalPlayError(_("{card} is exhausted; only a ready card is activated (Destiny P5 › Aktywowanie; P6 › Wyczerpana)").format(card=card))
    if is_support and not own_dice:
        raise IllegalPlayError(_("support {card} has no die and cannot be activated (Destiny P5 › Aktywowanie)").format(card=card))
    return Activation(
        card,
        own_dice + upgrade_dice,
        _("{card} is exhausted; {n} dice rolled, upgrades' dice included and the upgrades stay as they are (Destiny P5 › Aktywowanie)").format(
            card=card, n=len(own_dice) + len(upgrade_dice)
        ),
    )


def setup_roll_value(faces: list[Face]) -> int:
    """The battlefield roll's total: the non-modifier ("white") values; modifiers, blanks and
    specials add 0, costs are ignored (reading R22 in docs/readings.md, configurable by a judge)."""
    return sum(f.value for f in faces if not f.modifier and f.symbol not in (Symbol.BLANK, Symbol.SPECIAL))


def upkeep_draw(hand_after_discard: int, hand_limit: int, deck: int) -> int:
    """Cards drawn in upkeep: up to the hand limit, as many as the deck holds; nothing if the
    hand is already at or over the limit (P5 › Faza utrzymania; D-35, D-36)."""
    return max(0, min(hand_limit - hand_after_discard, deck))


def end_of_round_loser(players: dict[str, tuple[int, int]], controller: str) -> tuple[str | None, str]:
    """After upkeep, a player with no cards in hand and none in deck loses; if every player
    would, the battlefield controller wins (P5 › Zwycięstwo; D-37). ``players`` maps each player
    to (hand, deck). Returns (the winner or None, why); why is empty when nobody is out of cards."""
    out = [p for p, (hand, deck) in players.items() if hand == 0 and deck == 0]
    if not out:
        return None, ""
    if len(out) == len(players):
        return controller, _("every player is out of cards: the battlefield controller {controller} wins (Destiny P5 › Zwycięstwo)").format(
            controller=controller
        )
    rest = [p for p in players if p not in out]
    winner = rest[0] if len(rest) == 1 else None
    return winner, n_(
        "{players} has no cards in hand or deck after upkeep and loses (Destiny P5 › Zwycięstwo)",
        "{players} have no cards in hand or deck after upkeep and lose (Destiny P5 › Zwycięstwo)",
        len(out),
    ).format(players=", ".join(out))


def last_character_defeated(player: str, opponent: str) -> tuple[str, str]:
    """All of a player's characters defeated: the game ends at once (D-38)."""
    return opponent, _("every character of {player} is defeated: the game ends at once and {opponent} wins (Destiny P5 › Zwycięstwo)").format(
        player=player, opponent=opponent
    )
