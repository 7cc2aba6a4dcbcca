"""The table's questions: ``los``, ``cover``, ``range``, ``nearest``, ``matrix``, ``targets`` and
``attack`` (CONTRACT §3). Each loads the position (a file, or a game's state), asks the rules,
and answers the JSON and the lines a person reads; none writes anything."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..coords import count_squares
from ..errors import AssistantError
from ..givenstats import apply_stat_options
from ..i18n import N_, _, decimal, n_, rule_said, source_names
from ..limits import check_matrix
from ..rules import engine
from ..rules.engine import Reason
from ..rules.record import find_edition
from .context import Session
from .registry import verb
from .result import Result, Table, escape

if TYPE_CHECKING:
    from ..rules.attack import AttackAnswer
    from ..rules.powers import PowerAnswer

#: texts shown inside formatted lines (marked here for the catalogs)
T_NOT_MODELLED_HERE_CHECK_BY_HAND = N_("not modelled here, check by hand:")
T_LINE_OF_SIGHT = N_("line of sight")
T_NO_LINE_OF_SIGHT = N_("no line of sight")
T_WITNESS = N_("witness")
T_COVER = N_("cover")
T_NO_COVER = N_("no cover")
T_BEST_CORNER = N_("best corner")
T_SOURCES = N_("sources")
T_LEGAL = N_("legal")
T_NOT_A_LEGAL_TARGET = N_("not a legal target")
T_LEGALITY_UNKNOWN = N_("legality unknown: for the table")
T_HELPER_REFUSED = N_("helper refused:")

#: the kinds of attack and the stats a modifier changes, as the answers name them (the JSON keeps these keys)
ATTACK_KINDS = {"ranged": N_("ranged"), "melee": N_("melee"), "nonmelee": N_("nonmelee")}
STATS = {"attack": N_("attack"), "defense": N_("defense"), "damage": N_("damage"), "AC": N_("AC")}


# --- the lines a person reads ----------------------------------------------------------


def _reasons(reasons: tuple[Reason, ...]) -> list[str]:
    return [f"  • {escape(r.text)}  [dim]({escape(rule_said(r.rule))})[/]" for r in reasons]


def _not_modelled(items: tuple[str, ...]) -> list[str]:
    return [f"  [yellow]{escape(_(T_NOT_MODELLED_HERE_CHECK_BY_HAND))}[/] {escape(', '.join(items))}"] if items else []


def sight_lines(ans: engine.SightAnswer) -> list[str]:
    verdict = f"[bold green]{_(T_LINE_OF_SIGHT)}[/]" if ans.line_of_sight else f"[bold red]{_(T_NO_LINE_OF_SIGHT)}[/]"
    lines = [f"{ans.viewer} → {ans.target}: {verdict}  ({ans.rules.value})"]
    if ans.witness:
        p, q = ans.witness
        lines.append(f"  {_(T_WITNESS)}: {engine.point_name(p)} → {engine.point_name(q)}: {engine.fmt_point(p)} → {engine.fmt_point(q)}")
    return lines + _reasons(ans.reasons) + _not_modelled(ans.not_modelled)


def cover_lines(ans: engine.CoverAnswer) -> list[str]:
    if ans.cover is None:
        verdict = f"[bold red]{_(T_NO_LINE_OF_SIGHT)}[/]"
    elif ans.cover:
        verdict = f"[bold yellow]{_(T_COVER)}[/] (+{ans.bonus})"
    else:
        verdict = f"[bold green]{_(T_NO_COVER)}[/]"
    lines = [f"{ans.attacker} → {ans.target}: {verdict}  ({ans.rules.value}, {_(ATTACK_KINDS.get(ans.kind, ans.kind))})"]
    if ans.best_corner is not None:
        lines.append(f"  {_(T_BEST_CORNER)}: {engine.fmt_point(ans.best_corner)}")
    if ans.sources:
        lines.append(f"  {_(T_SOURCES)}: " + escape(source_names(ans.sources)))
    return lines + _reasons(ans.reasons) + _not_modelled(ans.not_modelled)


def range_lines(ans: engine.RangeAnswer) -> list[str]:
    n = _("unreachable") if ans.squares is None else count_squares(ans.squares)
    return [f"{ans.a} ↔ {ans.b}: [bold]{n}[/]  ({ans.rules.value})"] + _reasons(ans.reasons)


def _percent(value: float) -> str:
    """A percentage to a tenth, ".0" dropped, with the reader's decimal sign ("12.5%", "12,5%": R234)."""
    text = decimal(value, ".1f")
    return (text[:-2] if text.endswith((".0", ",0")) else text) + "%"


def attack_lines(ans: AttackAnswer) -> list[str]:
    from ..rules.attack import condition_text  # loaded already: ``ans`` is one of its answers

    verdict = f"[bold green]{_(T_LEGAL)}[/]" if ans.legal else f"[bold red]{_(T_NOT_A_LEGAL_TARGET)}[/]"
    lines = [_("{a} attacks {t}").format(a=ans.attacker, t=ans.target) + f": {verdict}  ({ans.rules.value}, {_(ATTACK_KINDS.get(ans.kind, ans.kind))})"]
    for why in ans.illegal_reasons:
        lines.append(f"  [red]✗[/] {escape(why.text)}  [dim]({escape(rule_said(why.rule))})[/]")
    if not ans.odds:  # no attack can be made here at all (a Light Spirit): no roll, damage or chance to print
        lines.append("  " + escape(_("no odds given: the rules refuse this attack, and the numbers it would need were not given")
                                   if ans.refused_unasked else _("no odds given: this attack can never be made")))
        return lines + _reasons(ans.notes) + _not_modelled(ans.not_modelled)
    chance = f"{ans.p_hit * 100:.0f}%"
    # an illegal target: the numbers stay (a judge may allow it), set in under a line that says
    # they are no roll to make
    ind = "  " if ans.legal else "    "
    if not ans.legal:
        lines.append("  " + escape(_("no roll: the rules refuse this attack; only if a judge allows it (--override in a game) would it need:")))
    lines.append(ind + escape(_("roll {needs}+ on the d20 ({chance}): attack {bonus} against {stat} {defense}; critical on {crit}").format(
        needs=ans.needs, chance=chance, bonus=f"{ans.attack_bonus:+d}", stat=_(find_edition(ans.rules).words.defense),
        defense=ans.defense, crit=", ".join(map(str, ans.critical_on)))))
    lines.append(ind + escape(_("damage {damage} ({critical} on a critical); expected {expected} per attack").format(
        damage=ans.damage, critical=ans.critical_damage, expected=decimal(ans.expected_damage))))
    if ans.p_defeat:
        lines.append(ind + escape(_("defeats {t} ({left} Hit Points left): {chance}").format(
            t=ans.target, left=ans.target_hp_left, chance=_percent(ans.p_defeat * 100))))
    for step in getattr(ans, "after_hit", ()):
        lines.append(ind + escape(_("after a hit: {what} ({chance})").format(what=step.text, chance=f"{float(step.p_success()) * 100:.0f}%"))
                     + f"  [dim]({escape(rule_said(step.rule))})[/]")
    if ans.force_reroll is not None:
        r = ans.force_reroll
        text = (_("with a Force reroll after a miss (1 Force point, +{bonus} on the reroll): {needs}+ again, {chance} in all; expected {expected}")
                if r.bonus else _("with a Force reroll after a miss (1 Force point): {needs}+ again, {chance} in all; expected {expected}"))
        lines.append(ind + escape(text.format(bonus=r.bonus, needs=r.needs, chance=f"{r.p_hit * 100:.0f}%", expected=decimal(r.expected_damage)))
                     + f"  [dim]({escape(rule_said(r.rule))})[/]")
    for m in ans.modifiers:
        lines.append(f"  {m.value:+d} {escape(_(STATS.get(m.applies_to, m.applies_to)))}: {escape(m.label or m.source)}  [dim]({escape(rule_said(m.rule))})[/]")
    if len(ans.attacks) > 1:
        for a in ans.attacks[1:]:
            lines.append(ind + escape(_("attack {n}: roll {needs}+ for {damage}").format(n=a.number, needs=a.needs, damage=a.damage))
                         + f"  [dim]({escape(condition_text(a.condition))})[/]")
    for why in ans.refused_helpers:
        lines.append(f"  [yellow]{escape(_(T_HELPER_REFUSED))}[/] {escape(why.text)}  [dim]({escape(rule_said(why.rule))})[/]")
    for why in ans.notes:
        lines.append(f"  • {escape(why.text)}  [dim]({escape(rule_said(why.rule))})[/]")
    return lines + _not_modelled(ans.not_modelled)


def power_lines(ans: PowerAnswer) -> list[str]:
    verdict = (f"[bold green]{_(T_LEGAL)}[/]" if ans.legal else f"[bold yellow]{_(T_LEGALITY_UNKNOWN)}[/]" if ans.legal is None
               else f"[bold red]{_(T_NOT_A_LEGAL_TARGET)}[/]")
    lines = [_("{a} uses {power} on {t}").format(a=ans.user, power=ans.power, t=ans.target) + f": {verdict}  ({ans.rules.value})"]
    for r in ans.illegal_reasons:
        lines.append(f"  [red]✗[/] {escape(r.text)}  [dim]({escape(rule_said(r.rule))})[/]")
    for r in ans.undecided:
        lines.append(f"  [yellow]?[/] {escape(r.text)}  [dim]({escape(rule_said(r.rule))})[/]")
    left = "" if ans.force_left is None or ans.force_left < 0 else _(", {left} left").format(left=ans.force_left)
    lines.append("  " + escape(n_("costs {cost} Force point{left}; {roll}", "costs {cost} Force points{left}; {roll}", ans.cost).format(
        cost=ans.cost, left=left, roll=_("an attack roll") if ans.roll == "attack" else _("no attack roll"))) + f"  [dim]({escape(rule_said(ans.rule))})[/]")
    for s in ans.struck if ans.legal else ():  # a refused power strikes nobody
        lines.append("  " + escape(_("{figure}: {damage} damage, {expected} expected").format(figure=s.figure, damage=s.damage, expected=decimal(s.expected))))
        for step in s.steps:
            lines.append("    " + escape(step.text) + f"  [dim]({escape(rule_said(step.rule))})[/]")
    for r in ans.notes:
        lines.append(f"  • {escape(r.text)}  [dim]({escape(rule_said(r.rule))})[/]")
    return lines


# --- the verbs -------------------------------------------------------------------------


@verb("los", positional=("viewer", "target"))
def los(s: Session, viewer: str, target: str, position: str | None = None, game: Path | None = None) -> Result:
    """Line of sight from one figure to another, with a witness line anyone can re-check."""
    pos, _st = s.load(position, game)
    ans = engine.sight(pos, viewer, target)
    return Result(ans.as_json(), tuple(sight_lines(ans)), answer=ans, position=pos)


@verb("cover", positional=("attacker", "target"))
def cover(s: Session, attacker: str, target: str, position: str | None = None, game: Path | None = None) -> Result:
    """Whether the target has cover, from the attacker's best corner, and what gives it."""
    pos, _st = s.load(position, game)
    sight = engine.sight(pos, attacker, target)
    ans = engine.cover(pos, attacker, target, sight)
    return Result(ans.as_json(), tuple(cover_lines(ans)), answer=(ans, sight), position=pos)


@verb("range", positional=("a", "b"))
def range_(s: Session, a: str, b: str, position: str | None = None, game: Path | None = None) -> Result:
    """Range in squares, counted the way the edition counts "within N squares"."""
    pos, _st = s.load(position, game)
    ans = engine.range_between(pos, a, b)
    return Result(ans.as_json(), tuple(range_lines(ans)), answer=ans, position=pos)


@verb("nearest", positional=("figure",))
def nearest(s: Session, figure: str, position: str | None = None, game: Path | None = None) -> Result:
    """The nearest enemies in line of sight (all of them when tied)."""
    pos, _st = s.load(position, game)
    d, ids = engine.nearest_enemies(pos, figure)
    rule = engine.Board.of(pos).rules.nearest_rule
    obj = {"query": "nearest", "rules": pos.edition.value, "figure": figure, "squares": d, "enemies": ids,
           "reasons": [{"text": _("closest enemies in line of sight, ties all count"), "rule": rule}]}
    if not ids:
        text = _("{figure}: no enemy in line of sight").format(figure=figure)
    else:
        text = _("{figure}: nearest enemies {ids} at {squares}").format(figure=figure, ids=", ".join(ids), squares=count_squares(d))
    return Result(obj, (f"{escape(text)}  [dim]({escape(rule_said(rule))})[/]",), position=pos)


@verb("matrix")
def matrix(s: Session, position: str | None = None, game: Path | None = None) -> Result:
    """Who sees whom: line of sight, cover and range for every ordered pair of figures (the
    lines are the footer; an edge draws the rows as a table)."""
    pos, _st = s.load(position, game)
    check_matrix(pos)
    rows = engine.matrix(pos)
    rules = engine.Board.of(pos).rules
    footer = f"[dim]{pos.edition.value}: {escape(rule_said(rules.sight_rule))}; {escape(rule_said(rules.cover_rule))}[/]"
    json = {"query": "matrix", "rules": pos.edition.value, "pairs": rows}
    return Result(json, (footer,), answer=rows, position=pos, table=_matrix_table(rows))


def _matrix_table(pairs: list[dict[str, Any]]) -> Table:
    """The pairs as rows: who, whom, sight, cover, range and the witness line."""
    yes, no, covered, uncovered = _("yes"), _("no"), _("cover"), _("no cover")
    rows = []
    for r in pairs:
        sight = f"[green]{yes}[/]" if r["line_of_sight"] else f"[red]{no}[/]"
        cov = "-" if r["cover"] is None else (f"[yellow]{covered}[/]" if r["cover"] else uncovered)
        w = "" if r["witness"] is None else f"{engine.fmt_point(r['witness'][0])} → {engine.fmt_point(r['witness'][1])}"
        rows.append((escape(r["from"]), escape(r["to"]), sight, cov, "-" if r["range"] is None else str(r["range"]), w))
    return Table(tuple(_(c) for c in (N_("from"), N_("to"), N_("sight"), N_("cover"), N_("range"), N_("witness"))), tuple(rows))


def _targets_table(targets: list[dict[str, Any]]) -> Table:
    """Each enemy as a row: legal or not (or not this turn), the roll, the chance, the damage expected, why not."""
    yes, no = _("yes"), _("no")
    rows = []
    for r in targets:
        who = escape(r["target"])
        if r["legal"] is None:
            rows.append((who, "?", "-", "-", "-", escape(r["error"])))
            continue
        why = "; ".join(x["text"] for x in r["illegal_reasons"]) or "-"
        if not r["odds"]:  # no attack can be made on it at all (a Light Spirit): no roll or odds
            rows.append((who, f"[red]{no}[/]", "-", "-", "-", escape(why)))
            continue
        now = r.get("refused_this_turn") or []
        if r["legal"] and now:  # the acting figure's turn so far allows no such attack (a double move)
            rows.append((who, f"[red]{escape(_('not this turn'))}[/]", "-", "-", "-", escape("; ".join(x["text"] for x in now))))
            continue
        rows.append((who, f"[green]{yes}[/]" if r["legal"] else f"[red]{no}[/]", f"{r['needs']}+",
                     f"{r['p_hit'] * 100:.0f}%", decimal(r['expected_damage']), escape(why)))
    return Table(tuple(_(c) for c in (N_("target"), N_("legal"), N_("roll"), N_("chance"), N_("expected"), N_("why"))), tuple(rows))


def _moved(st: Any, figure: str, moved: bool | None) -> bool:
    """Whether the figure moved this turn: as said, else from the game's log, else not."""
    if moved is not None:
        return moved
    return bool(st and st.moved.get(figure, 0) > 0)


@verb("targets", positional=("attacker",))
def targets_(s: Session, attacker: str, position: str | None = None, game: Path | None = None, moved: bool | None = None,
             stat: list[str] | None = None) -> Result:
    """Who can I attack? Every enemy: legal or why not, what to roll, the chance (an edge draws
    the rows as a table)."""
    from ..game.referee import targets_this_turn  # start-up time: the attack model only for the attack questions
    from ..rules.attack import targets

    pos, st = s.load(position, game)
    pos = apply_stat_options(pos, stat)
    rows = targets(pos, attacker, moved=_moved(st, attacker, moved))
    rows = targets_this_turn(st if moved is None else None, attacker, rows)  # the game's turn so far, not for a what-if
    json = {"query": "targets", "rules": pos.edition.value, "attacker": attacker, "targets": rows}
    # the chances leave out what no row's attack applies: said once under the table, as the attack says it (R342)
    left_out = tuple(dict.fromkeys(item for r in rows for item in r.get("not_modelled", ())))
    return Result(json, tuple(_not_modelled(left_out)), answer=rows, position=pos, table=_targets_table(rows))


@verb("attack", positional=("attacker", "target"))
def attack_(s: Session, attacker: str, target: str, position: str | None = None, game: Path | None = None, moved: bool | None = None,
            combined_fire: str | None = None, charge: bool = False, ranged: bool = False, melee: bool = False,
            opportunity: bool = False, power: str | None = None, stat: list[str] | None = None, spend_force: str | None = None) -> Result:
    """What the attack needs to roll: legality, every modifier with its rule, odds, damage. ``stat``:
    numbers given for this question only (``obi.attack=14``), over the cards and the position.
    ``spend_force``: a Force power the attacker spends its Force point on before the roll (SWM Sith
    Rage, Lightsaber Precision; reading R251)."""
    if ranged and melee:
        raise AssistantError(_("choose --ranged or --melee, not both"))
    # start-up time: the attack model only for the attack questions
    from ..game.effects import force_paid
    from ..game.referee import refused_this_turn
    from ..rules.attack import attack
    from ..rules.powers import use_power

    pos, st = s.load(position, game)
    pos = apply_stat_options(pos, stat)
    if power is not None and spend_force is not None:
        raise AssistantError(_("choose --power (a power used instead of an attack) or --spend-force (a Force point spent on this attack), not both"))
    if power is not None:
        answer = use_power(pos, attacker, target, power, moved=_moved(st, attacker, moved))
        return Result(answer.as_json(), tuple(power_lines(answer)), answer=answer, position=pos)
    helpers = tuple(h.strip() for h in (combined_fire or "").split(",") if h.strip())
    kind = "ranged" if ranged else "melee" if melee else None
    paid = st is not None and moved is None and force_paid(st, attacker, spend_force)  # the game's turn bought it already (Sith Rage, R251)
    ans = attack(pos, attacker, target, moved=_moved(st, attacker, moved), combined_fire=helpers, charge=charge, kind=kind, opportunity=opportunity,
                 spend_force=spend_force, force_paid=paid)
    # the game's turn so far, when the question is the acting figure's (not with --moved said: a what-if)
    now = refused_this_turn(st, attacker, target) if moved is None and not charge and not opportunity else []
    lines = attack_lines(ans)
    # the text outside the f-string: the catalogs' extractor does not read a call inside one, so it stayed English
    refusal = _("the game refuses this attack now: {why}")
    lines[1:1] = [f"  [red]✗[/] {escape(refusal.format(why=r.text))}  [dim]({escape(rule_said(r.rule))})[/]" for r in now]
    return Result({**ans.as_json(), "refused_this_turn": [r.as_json() for r in now]}, tuple(lines), answer=ans, position=pos)
