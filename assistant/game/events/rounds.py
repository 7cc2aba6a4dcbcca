"""The round and the turn: initiative, a figure's activation, the end of its turn, the end of
the game."""

from __future__ import annotations

from dataclasses import replace

from ...errors import AssistantError
from ...i18n import _, n_, side_name
from ...rules.engine import Reason
from ..effects import end_of_round, end_turn, final_words, give_stealth_back, renew_force, score_if_round_over, set_figure
from ..initiative import anticipation_words, recon_words, tactician_words, tie_break_words
from ..referee import game_over
from ..state import ACTIVATIONS_PER_PHASE, Data, GameState, Turn, event_kind

_S, _I = str, int


@event_kind("initiative", {"first": _S, "winner": _S, "rolls": dict, "totals?": dict, "ratings?": dict, "unknown_ratings?": dict, "rerolls?": list,
                           "tie_break?": (_S, type(None)), "recon?": dict, "recon_stopped?": dict, "master_tactician?": dict, "anticipation?": list})
class Initiative:
    """A new round: the initiative roll (with its rerolls and tie-break) and who goes first."""

    def check(self, state: GameState, data: Data) -> list[Reason]:
        over = game_over(state, data)
        if over:
            return over
        tr = state.turn_rules
        if state.round > 0 and not state.round_over():
            left = [f.id for f in state.position.figures if not f.activated]
            return [
                Reason(_("round {round} is not over: {figures} may still activate").format(round=state.round, figures=', '.join(left)), tr.cite(tr.cite_round))
            ]
        return []

    def fold(self, state: GameState, data: Data) -> list[str]:
        # the command names only sides on the map; a log edited to name another is void here, not
        # a round that no side can begin
        strangers = [str(data[k]) for k in ("first", "winner") if data[k] not in state.sides()]
        if strangers:
            raise AssistantError(_("side {side} has no figure on the map (sides: {sides})").format(
                side=strangers[0], sides=", ".join(state.sides()) or _("none")))
        said = end_turn(state)
        if state.round > 0:
            said += end_of_round(state)
        give_stealth_back(state)  # Force Sense lasts until the end of the round (PL p.46; R273)
        state.round += 1
        state.first_side = str(data["first"])
        state.phase, state.phase_side, state.phase_activations = 1, state.first_side, 0
        state.intuition_used = set()
        state.surprise_used = set()
        for f in state.position.figures:
            set_figure(state, replace(f, activated=False))
        # Anticipation's Force point (PL p.33; CS g.1; R289); a figure whose Force points nobody gave stays so
        for one in data.get("anticipation") or ():
            if isinstance(one, dict) and str(one.get("figure")) in {x.id for x in state.position.figures}:
                f = state.figure(str(one["figure"]))
                force = state.position.stats_of(f).force
                if force is not None:
                    set_figure(state, replace(f, stats=replace(f.stats, force=max(0, force - 1))))
        return said

    def describe(self, state: GameState, data: Data) -> str:
        d = data
        parts: list[str] = []
        for i, rr in enumerate(d.get("rerolls") or ()):
            tied = ", ".join(f"{side_name(s)} {rr[s]}" for s in state.sides() if s in rr)
            parts.append(_("roll {value}: ").format(value=i + 1) + tied + _(" (tied: reroll)"))
        ratings = d.get("ratings") or {}
        totals = d.get("totals") or d.get("rolls", {})
        raw = d.get("rolls") or {}
        order = [s for s in state.sides() if s in raw] + [s for s in raw if s not in state.sides()]
        rolls = ", ".join(
            f"{side_name(s)} {raw[s]}" + (_(" + commander {rating} = {total}").format(rating=ratings[s], total=totals.get(s, raw[s])) if ratings.get(s) else "")
            for s in order
        )
        parts.append(rolls)
        text: str = _("round {round}: initiative ({rolls}); {winner} wins, {first} goes first").format(
            round=state.round + 1, rolls="; ".join(parts), winner=side_name(d["winner"]), first=side_name(d["first"])
        )
        if d.get("tie_break"):
            text += "; " + _("tie broken: {how}").format(how=tie_break_words(str(d["tie_break"]), state.turn_rules))
        text += recon_words(state, d) + anticipation_words(state, d) + tactician_words(state, d)
        unknown = d.get("unknown_ratings") or {}
        if isinstance(unknown, dict) and unknown:
            ids = [str(i) for s in unknown for i in (unknown[s] if isinstance(unknown[s], list) else [unknown[s]])]
            text += "; " + n_(
                "the Commander rating of {names} ({sides}) is unknown and read as none: were it a commander, its rating would join "
                "its side's d20 and might win the roll ({rule}; reading R160 in docs/readings.md); to change it, give the rating "
                "(cards set ... commander_rating=N), undo this roll and roll again",
                "the Commander ratings of {names} ({sides}) are unknown and read as none: were one a commander, its rating would join "
                "its side's d20 and might win the roll ({rule}; reading R160 in docs/readings.md); to change it, give the ratings "
                "(cards set ... commander_rating=N), undo this roll and roll again", len(ids)).format(
                names=", ".join(ids), sides=", ".join(side_name(str(s)) for s in unknown), rule=state.turn_rules.cite(state.turn_rules.cite_initiative))
        return text


@event_kind("activate", {"figure": _S})
class Activate:
    """A figure's activation: once a round, up to two per phase, the sides alternating."""

    opens_activation = True  # its figure's attacks and moves belong to it (an undone one voids them)

    def activation_of(self, data: Data) -> str | None:
        return str(data["figure"])

    def check(self, state: GameState, data: Data) -> list[Reason]:
        over = game_over(state, data)
        if over:
            return over
        tr = state.turn_rules
        if state.round == 0:
            return [Reason(_("roll initiative first: a round starts with initiative"), tr.cite(tr.cite_initiative))]
        f = state.figure(data["figure"])
        if f.activated:
            return [Reason(_("{f} has already activated this round").format(f=f.id), tr.cite(tr.cite_once_per_round))]
        side = state.expected_side()
        if side is not None and f.side != side:
            text = (
                _("it is {side}'s activation: each player activates up to 2 creatures per phase, alternating")
                if tr.morale
                else _("it is {side}'s activation: each player activates up to 2 characters per phase, alternating")
            )
            return [Reason(text.format(side=side_name(side)), tr.cite(tr.cite_phase))]
        return []

    def fold(self, state: GameState, data: Data) -> list[str]:
        f = state.figure(data["figure"])
        previous = state.active
        said = end_turn(state)
        if previous is not None:  # the log says where the earlier turn ended: a phase's figures act one at a time (R321)
            tr = state.turn_rules
            said.insert(0, _("{previous}'s turn ends").format(previous=previous) + f" ({tr.cite(tr.cite_phase)})")
        if f.side != state.phase_side or state.phase_activations >= ACTIVATIONS_PER_PHASE:
            state.phase += 1  # a new phase: the other player's (or the same, when the other has run out)
            state.phase_side, state.phase_activations = f.side, 0
        state.phase_activations += 1
        set_figure(state, replace(f, activated=True))
        state.active, state.turn = f.id, Turn(f.id)
        return said + renew_force(state, state.figure(f.id))

    def describe(self, state: GameState, data: Data) -> str:
        return _("{figure} activates").format(figure=data["figure"])


@event_kind("end-turn", {})
class EndTurn:
    """The acting figure's turn ends (SWM: doors follow who stands next to them)."""

    def check(self, state: GameState, data: Data) -> list[Reason]:
        state.named(data)
        if state.active is None:  # a turn not begun: recorded, it would change nothing and read as one ended
            tr = state.turn_rules
            return [Reason(_("nobody is acting: a turn ends after a figure activates ('game activate')"), tr.cite(tr.cite_phase))]
        return []

    def fold(self, state: GameState, data: Data) -> list[str]:
        return end_turn(state)

    def describe(self, state: GameState, data: Data) -> str:
        return _("end of turn")


@event_kind("end", {"reason?": _S})
class End:
    """The players end the game: the round is scored and the tie-break read."""

    def check(self, state: GameState, data: Data) -> list[Reason]:
        state.named(data)
        tr = state.turn_rules
        return [Reason(_("the game has already ended ({ended})").format(ended=state.ended), tr.cite(tr.cite_victory))] if state.ended else []

    def fold(self, state: GameState, data: Data) -> list[str]:
        said = end_turn(state)
        said += score_if_round_over(state)
        state.ended = str(data.get("reason") or "by the players")
        said.append(final_words(state))
        return said

    def describe(self, state: GameState, data: Data) -> str:
        return _("end of the game") + (f": {data['reason']}" if data.get("reason") else "")
