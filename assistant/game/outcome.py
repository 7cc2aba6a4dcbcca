"""What an attack's dice make of it: the hit, the critical, the damage through the target's saves
as they fell. Pure functions of the attack's answer and the dice, below the game's commands
(actions.py records with them) and its events (events/combat.py derives a record again with them,
reading R203), so neither imports the other."""

from __future__ import annotations

from typing import Any

from ..errors import AssistantError, CommandLineWordsError
from ..i18n import _


def roll_outcome(ans: Any, roll: int, after: dict[str, list[int | None]] | None = None, reroll: int | None = None) -> dict[str, Any]:
    """The attack as the d20 fell; on a hit, what its saves and reductions leave of the damage
    (``after``: each ability's save rolls as rolled, ``None`` for a Force-costed one not used).
    ``reroll``: the d20 of the reroll the attacker bought with a Force point (SWM PL p.11, CS r.9):
    the second result stands, against the reroll's own number (Mettle's +4, PL p.54; reading R187)."""
    out: dict[str, Any] = {"roll": roll, "needs": ans.needs}
    needs = ans.needs
    boost = getattr(ans, "spend_force", None)  # a Force power bought before the roll (SWM Sith Rage, reading R251)
    if boost:
        out["spend_force"] = boost
        if ans.spend_cost:
            out["force_spent"] = {ans.attacker: ans.spend_cost}
    if reroll is not None:
        again = getattr(ans, "force_reroll", None)
        if again is None:
            raise AssistantError(_("{a} cannot reroll this attack with a Force point: {why}").format(
                a=ans.attacker, why=_("it has no Force points, the attack cannot miss, or the rules forbid it (the attack's answer says which)")))
        out.update({"reroll": reroll, "reroll_needs": again.needs})
        out.setdefault("force_spent", {})[ans.attacker] = out.get("force_spent", {}).get(ans.attacker, 0) + again.cost
        roll, needs = reroll, again.needs
    crit = roll >= ans.critical_on[0]
    hit = roll != 1 and (roll >= needs or roll == 20 or crit)
    damage = (ans.critical_damage if crit else ans.damage) if hit else 0
    out.update({"hit": hit, "critical": hit and crit, "damage": damage})
    steps = getattr(ans, "after_hit", ())
    if hit and steps:
        dealt, spent, used = after_hit(steps, damage, after or {})
        out.update({"hit_damage": damage, "damage": dealt, "after_hit": used})
        for fid, cost in spent.items():
            out.setdefault("force_spent", {})[fid] = out.get("force_spent", {}).get(fid, 0) + cost
    return out


def save_made(roll: int, needs: int) -> bool:
    """A save: a natural 20 succeeds, a natural 1 fails (SWM PL p.24)."""
    return roll == 20 or (roll != 1 and roll >= needs)


def after_hit(steps: Any, damage: int, rolls: dict[str, list[int | None]]) -> tuple[int, dict[str, int], dict[str, list[int | None]]]:
    """The damage a hit deals through its steps (rules/saves.py) as the saves fell: the damage,
    the Force points the defender spent, and the rolls used. A roll a step needs and was not
    given is asked for, naming every one missing."""
    given = {k.lower(): v for k, v in rolls.items()}
    missing = [s for s in steps if s.save is not None and s.ability.lower() not in given]
    if missing:
        names = ", ".join(f"--save \"{s.ability}={','.join(['N'] * s.saves)}\"" for s in missing)
        # the page's attack form takes them in its "save as rolled" field, not the command line's flag (reading R197)
        raise CommandLineWordsError(
            _("this hit meets saves that need their rolls: {names} (a Force-costed one not used: {example})").format(
                names=names, example='--save "Lightsaber Block=no"'),
            _("this hit meets saves that need their rolls: record it with the form '{form}', writing under '{field}' {names} "
              "(a Force-costed one not used: {example})").format(
                form=_("record an attack"), field=_("save as rolled"), names="; ".join(f"{s.ability}={','.join(['N'] * s.saves)}" for s in missing),
                example="Lightsaber Block=no"))
    dealt = damage
    spent: dict[str, int] = {}
    used: dict[str, list[int | None]] = {}
    for s in steps:
        if s.save is None:  # a fixed reduction (Damage Reduction)
            dealt -= s.amount if s.effect == "reduce" else 0
            continue
        r = given[s.ability.lower()]
        used[s.ability] = r
        first = r[0]
        if first is None:
            continue  # not used (a Force-costed answer the defender did not pay for)
        if s.force_cost:
            spent[s.owner] = spent.get(s.owner, 0) + s.force_cost
        if s.effect == "extra":
            dealt += 0 if save_made(first, s.save) else s.amount
        elif s.effect == "avoid":
            made = save_made(first, s.save)
            if (s.saver == "target" and made) or (s.saver == "attacker" and not made):
                return 0, spent, used
        else:
            dealt -= s.amount * sum(1 for x in r if x is not None and save_made(x, s.save))
    return max(0, dealt), spent, used
