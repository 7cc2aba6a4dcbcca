"""What a figure may do with its turn, per edition: one :class:`TurnRules` record each.

The game sequencer (:mod:`.state`) reads only these parameters and cites only these
strings, so an SWM 2008 refusal cites the Polish 2008 rulebook, an SWM 2004 refusal the
Czech 2004 rules and a DDM refusal the DDM booklet -- never another game's.

**SWM 2008** (PL p.16): an activated character may (1) move, then attack; (2) attack, then
move; (3) move double its speed; (4) use an ability that replaces its turn. Only Mobile
Attack moves both before and after attacking (PL p.54-55). Double Attack and its kin give
more attacks only to a character that has not moved (PL p.40, p.57, p.65); Extra Attack
forbids moving (PL p.42). An enemy that leaves a square adjacent to a character may be
attacked at once, out of turn, without activating, at most once per turn (PL p.22-23).

**SWM 2004** (CS r.5): move 6 squares then attack; attack then move 6 squares; move 12 squares
without attacking. The glossary's Mobile Attack, Double Attack and Flight read as in 2008
(CS g.9, g.4, g.5); attacks of opportunity CS r.8.

**DDM 2005** (§ Aktywowanie istot p.9): a double move (up to 2x Speed, no attack); a move and
one attack in either order (not split); a full attack with no movement at all; or a charge
(§ Szarżowanie p.13). Diagonals count 1-2-1-2 over the whole turn's movement (§ Ruch p.10);
no move ends on a statue (§ Posągi); an enemy leaving the threatened area may be attacked
(§ Ataki okazyjne p.13).
"""

from __future__ import annotations

# The records moved into each edition's module (assistant/rules/swm/, assistant/rules/ddm/), so that
# an edition's record holds its turn rules; these names stay for the game package's imports.
from ..editions import Edition
from ..rules.ddm.ddm2005 import TURNS as DDM2005
from ..rules.params import TurnRules
from ..rules.record import find_edition
from ..rules.swm.swm2004 import TURNS as SWM2004
from ..rules.swm.swm2008 import TURNS as SWM2008

TURN_RULES: dict[Edition, TurnRules] = {e: find_edition(e).turns for e in Edition}

__all__ = ["DDM2005", "SWM2004", "SWM2008", "TURN_RULES", "TurnRules"]
