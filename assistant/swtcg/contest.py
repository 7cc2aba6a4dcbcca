"""Star Wars TCG unique-unit contests (Konfrontacja; FAQ L5-14; digest ``swtcg.md`` §6.6).

Both players have a unique unit of the same name in battle: they bid Force, DS first, each
raising only their own bid and never past their Force pool (translator's note to L7); the
total is bid + build cost + 1 per card stacked under the unit; the higher total wins and a tie
goes to the Dark Side (L8). The winner pays its bid and stays; the loser pays nothing and its
unit retreats without tapping (L9).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..errors import AssistantError
from ..i18n import _

Side = Literal["DS", "LS"]


class IllegalBidError(AssistantError):
    """A bid the contest rules do not allow."""


def check_bid(side: Side, previous_own: int, new: int, force_pool: int) -> None:
    """A raise must beat the bidder's *own* previous bid, not the opponent's (TN L7), and stay
    within their Force pool (L7)."""
    if new > force_pool:
        raise IllegalBidError(
            _("{side} bids {new} Force with {force_pool} in the pool; nobody bids more than their pool (SW TCG FAQ L7)").format(
                side=side, new=new, force_pool=force_pool
            )
        )
    if new <= previous_own:
        raise IllegalBidError(
            _("{side} bid {previous_own} already; a raise must be higher than the bidder's own bid (SW TCG FAQ, TN L7)").format(
                side=side, previous_own=previous_own
            )
        )


@dataclass(frozen=True)
class Contender:
    bid: int
    build_cost: int
    stacked: int = 0  # cards beneath the top unit, +1 each

    @property
    def total(self) -> int:
        return self.bid + self.build_cost + self.stacked


@dataclass(frozen=True)
class ContestResult:
    winner: Side
    winner_pays: int
    ds_total: int
    ls_total: int
    explanation: str


def contest(ds: Contender, ls: Contender) -> ContestResult:
    """Who wins a contest once bidding has ended.

    >>> contest(Contender(3, 6), Contender(2, 5, stacked=2)).winner   # T-03: 9 v 9, tie to DS
    'DS'
    """
    winner: Side = "DS" if ds.total >= ls.total else "LS"
    w = ds if winner == "DS" else ls
    tie = " (a tie goes to the Dark Side)" if ds.total == ls.total else ""
    text = (
        f"DS {ds.bid} + {ds.build_cost} + {ds.stacked} = {ds.total}, LS {ls.bid} + {ls.build_cost} + {ls.stacked} = {ls.total}: "
        f"{winner} wins{tie}, pays {w.bid} Force and its unit stays; the loser pays nothing and its unit retreats untapped "
        "(SW TCG FAQ L8-9)"
    )
    return ContestResult(winner, w.bid, ds.total, ls.total, text)
