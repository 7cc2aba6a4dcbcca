"""Star Wars: Destiny action phase: turns, passing and claiming the battlefield
(P5 › Faza akcji, Pasowanie, Zajęcie pola bitwy; digest ``destiny.md`` §4.1, §5.6, §5.7).

Players alternate one action each; a pass is always legal and does not stop a player acting
later; the phase ends when every player has passed in a row. Claiming is once per round for
the whole table; the claimer takes (or keeps) the battlefield and passes automatically on each
of their remaining turns. Whoever controls the battlefield when the round starts acts first
(reading R30 in docs/readings.md).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from ..errors import AssistantError
from ..i18n import _

Move = Literal["action", "pass", "claim"]


class IllegalActionError(AssistantError):
    """A turn the rules do not allow; the message names the rule."""


@dataclass(frozen=True)
class ActionPhase:
    players: tuple[str, ...]  # in seat order
    controller: str  # of the battlefield
    active: str
    passes_in_row: int = 0
    claimed_by: str | None = None
    over: bool = False
    log: tuple[str, ...] = ()

    @classmethod
    def start(cls, players: tuple[str, ...], controller: str) -> ActionPhase:
        """The round's first action goes to the battlefield controller (P1 › Pola bitwy)."""
        if controller not in players:
            raise IllegalActionError(_("{controller!r} is not a player ({names})").format(controller=controller, names=', '.join(players)))
        return cls(players, controller, controller)

    def take(self, player: str, move: Move) -> ActionPhase:
        """``player`` takes a turn. Returns the next state, with the claimer's automatic passes
        already applied.

        >>> p = ActionPhase.start(("A", "B"), "A").take("A", "action").take("B", "claim")   # D-30
        >>> (p.controller, p.active, p.over)
        ('B', 'A', False)
        >>> p.take("A", "pass").over
        True
        """
        if self.over:
            raise IllegalActionError(_("the action phase is over: every player passed in a row (Destiny P5 › Pasowanie)"))
        if player != self.active:
            raise IllegalActionError(
                _("it is {active}'s turn, not {player}'s: players alternate actions (Destiny P5 › Faza akcji)").format(active=self.active, player=player)
            )
        if move == "claim" and self.claimed_by is not None:
            raise IllegalActionError(
                _("{claimed_by} already claimed the battlefield this round; only one player may claim per round (Destiny P5 › Zajęcie pola bitwy)").format(
                    claimed_by=self.claimed_by
                )
            )
        state = self
        if move == "pass":
            state = replace(state, passes_in_row=state.passes_in_row + 1, log=state.log + (_("{player} passes").format(player=player),))
        elif move == "claim":
            claims = (
                _("{player} claims the battlefield and keeps control; may use its claim ability")
                if state.controller == player
                else _("{player} claims the battlefield and takes control; may use its claim ability")
            )
            state = replace(state, claimed_by=player, controller=player, passes_in_row=0, log=state.log + (claims.format(player=player),))
        else:
            state = replace(state, passes_in_row=0, log=state.log + (_("{player} takes an action").format(player=player),))
        return state._advance(player)

    def _advance(self, after: str) -> ActionPhase:
        state, seat = self, self.players.index(after)
        while True:
            if state.passes_in_row >= len(state.players):
                return replace(state, over=True, log=state.log + (_("every player passed in a row: the action phase ends"),))
            seat = (seat + 1) % len(state.players)
            nxt = state.players[seat]
            if nxt != state.claimed_by:
                return replace(state, active=nxt)
            # the claimer passes automatically for the rest of the round (P5 › Zajęcie pola bitwy)
            state = replace(state, passes_in_row=state.passes_in_row + 1, log=state.log + (_("{player} passes (claimed this round)").format(player=nxt),))

    @property
    def next_round_first(self) -> str:
        """The controller at the end of the round acts first next round (reading R30 in docs/readings.md)."""
        return self.controller
