"""The Star Wars Miniatures attack model's powers, named by :mod:`.family`: Force powers and the
damaging abilities used like them (who may be chosen, the cost, the save, the damage each
character takes). The power catalogue (:data:`~assistant.rules.powers.POWERS`) and the answer's
shape are in :mod:`assistant.rules.powers`.
"""

from __future__ import annotations

from collections.abc import Callable

from ...abilities import GRANTS, granted, has
from ...cards import split_ability
from ...editions import Size
from ...errors import AssistantError
from ...i18n import N_, _, n_
from ...model import Figure, Position
from .. import engine, saves
from ..engine import Reason
from ..powers import AROUND_USER, DEFAULT_VALUE_2004, Power, PowerAnswer, Struck, find
from ..record import find_edition
from .attack import _phantom


def _struck(pos: Position, power: Power, user: Figure, target: Figure, living: Callable[[Figure], bool]) -> list[Figure]:
    """Everyone the power strikes, the named target first. A Hologram or a Light Spirit is never
    adjacent to anyone, and a Light Spirit takes no damage (PL p.49, p.51): neither is struck
    beside the target, a Light Spirit by no area."""

    def next_to(f: Figure, g: Figure) -> bool:
        return engine.adjacent(pos, f, g) and not _phantom(pos, f)

    others = [f for f in pos.figures if f.id not in (user.id, target.id) and _phantom(pos, f) != "Light Spirit"]
    enemies = [f for f in others if f.side != user.side]
    if power.area == "target":
        return [target]
    if power.area == "target+2":
        around = [f for f in pos.figures if f.id != target.id and next_to(f, target)]
        near = [f for f in around if f.id != user.id][:2]
        if len(near) < 2 and any(f.id == user.id for f in around):
            near.append(user)
        return [target, *near]
    if power.area == "target+adjacent":
        return [target, *[f for f in pos.figures if f.id != target.id and next_to(f, target)]]
    if power.area == "target+adjacent-living":
        return [target, *[f for f in pos.figures if f.id != target.id and next_to(f, target) and living(f)]]
    if power.area == "target+adjacent-living-enemies":
        return [target, *[f for f in enemies if next_to(f, target) and living(f)]]
    if power.area == "enemies-in-sight":
        return [target, *[f for f in enemies if engine.sight(pos, user.id, f.id).line_of_sight]]
    if power.area == "around-user":
        return [target, *[f for f in others if next_to(f, user)]]
    if power.area == "enemies-around-user":
        return [target, *[f for f in enemies if next_to(f, user)]]
    pool = enemies if power.area == "enemies-within" else others
    return [target, *[f for f in pool if (d := engine.squares_between(pos, user, f)) is not None and d <= power.radius]]


def swm_answer(pos: Position, user: Figure, target: Figure, name: str, *, abilities_of: Callable[[Figure], tuple[str, ...]],
               cite: Callable[[str], str], legal_target: Callable[[], list[Reason]],
               refusals_of: Callable[[Figure], list[Reason]] | None = None, attack_expected: Callable[[Figure], float] | None = None) -> PowerAnswer:
    """The SWM attack model's powers (:mod:`.family` names it): Force powers and the
    damaging abilities used like them."""
    rec = find_edition(pos.edition)
    abl_u, abl_t = abilities_of(user), abilities_of(target)
    # Black Sun: Grenades 10 while a Vigo or Xizor is in its squad (PL p.34; R288)
    grants = granted(abl_u, tuple(f.card or f.id for f in pos.figures if f.side == user.side), tuple(g.name for g in GRANTS if rec.defines(g.name)))
    own = abl_u
    abl_u = (*abl_u, *(g.grants for g, _who in grants))
    try:
        power, value, written = find(pos, user, name, abl_u)
    except AssistantError as exc:
        lacking = [g for g in GRANTS if rec.defines(g.name) and has(own, g.name) and not any(x is g for x, _w in grants)
                   and split_ability(g.grants)[0].lower() == split_ability(" ".join(name.split()))[0].lower()]
        if not lacking:
            raise
        g = lacking[0]
        raise AssistantError(_("{u} has {ability}: it has {grants} only in a squad with a character whose name contains one of {words}, and none of its side "
                               "is on the map; one defeated or not yet placed still counts: add it to the position ({rule}; reading R288 in "
                               "docs/readings.md)").format(u=user.id, ability=g.name, grants=g.grants, words=", ".join(w.capitalize() for w in g.words),
                                                           rule=cite(g.rule))) from exc
    if value is None and rec.power_value_defaults:
        value = DEFAULT_VALUE_2004.get(power.name)
    rule = cite(power.rule)
    illegal: list[Reason] = []
    notes: list[Reason] = []
    for g, giver in grants:
        if written == g.grants and not has(own, split_ability(g.grants)[0]):
            notes.append(Reason(_("{u}'s {ability}: {who} is in its squad, so it has {grants} (reading R288 in docs/readings.md)").format(
                u=user.id, ability=g.name, who=giver, grants=g.grants), cite(g.rule)))
    around_user = power.area in AROUND_USER
    def living(f: Figure) -> bool:
        return saves.is_living(abilities_of(f))

    if target.id == user.id:
        raise AssistantError(_("{u} cannot be the target of its own {power}: name a character it strikes").format(u=user.id, power=written))
    if target.side == user.side and not power.allies_too and not (around_user and power.area in ("around-user", "within")):
        illegal.append(Reason(_("{t} is an ally of {u}: {power} is used on an enemy").format(t=target.id, u=user.id, power=written), rule))
    force = pos.stats_of(user).force
    if power.cost:
        if force is not None and force < power.cost:
            said = n_("{power} costs {cost} Force point and {u} has {force}", "{power} costs {cost} Force points and {u} has {force}", power.cost)
            illegal.append(Reason(said.format(power=written, cost=power.cost, u=user.id, force=force),
                                  rule))
        who = saves.force_blocked(pos, user, abilities_of)
        if who:
            illegal.append(Reason(_("{u} is within 6 squares of {who}'s Ysalamiri: it cannot spend Force points").format(u=user.id, who=who), cite("PL p.67")))
        if has(abl_t, "Force Immunity") and rec.defines("Force Immunity"):
            illegal.append(Reason(_("{t} has Force Immunity: no Force points are spent to affect it").format(t=target.id), cite("PL p.44")))
    if power.only == "mounted" and not has(abl_t, "Mounted Weapon"):
        illegal.append(Reason(_("{power} is used only on an enemy with Mounted Weapon").format(power=written), rule))
    if power.only == "huge-or-mounted-large" and not (target.size.rank >= Size.HUGE.rank or (
            target.size is Size.LARGE and has(abl_t, "Mounted Weapon"))):
        illegal.append(Reason(_("{power} is used only on a Huge enemy or a Large enemy with Mounted Weapon").format(power=written), rule))
    if power.only == "droid-or-mounted" and not (has(abl_t, "Droid") or has(abl_t, "Mounted Weapon")):
        illegal.append(Reason(_("{power} strikes only an enemy Droid or an enemy with Mounted Weapon").format(power=written), rule))
    if power.living and not living(target):
        illegal.append(Reason(_("{power} strikes only living characters; {t} is not living").format(power=written, t=target.id), rule))
    distance = engine.squares_between(pos, user, target)
    sight = engine.sight(pos, user.id, target.id)
    if power.area in ("around-user", "enemies-around-user") or power.adjacent:
        if not engine.adjacent(pos, user, target):
            illegal.append(Reason(_("{power} strikes the characters next to {u}; {t} is not next to it").format(power=written, u=user.id, t=target.id), rule))
    elif power.area in ("within", "enemies-within"):
        if distance is None or distance > power.radius:
            illegal.append(Reason(_("{power} strikes the characters within {n} squares of {u}; {t} is not").format(
                power=written, n=power.radius, u=user.id, t=target.id), rule))
    elif power.reach is not None and (distance is None or distance > power.reach):
        illegal.append(Reason(_("{t} is not within {n} squares of {u}").format(t=target.id, n=power.reach, u=user.id), rule))
    if power.reach is None and power.sight and not around_user and not sight.line_of_sight:
        illegal.append(Reason(_("{u} has no line of sight to {t}").format(u=user.id, t=target.id), rule))
    if not power.sight:
        notes.append(Reason(_("{power} needs no line of sight; the distance is counted around walls").format(power=written), rule))
    if power.targeting:
        illegal += [r for r in legal_target() if r not in illegal]
    attacks = power.attacks_each or (1 if power.attack_roll else 0)
    if attacks and (value is None or value % 10):  # attacks, with the user's own Damage (PL p.52); a
        value = pos.stats_of(user).damage  # number not in tens ("Lightsaber Throw 2") is no damage (R113)
    if value is None:
        raise AssistantError(_("{power} needs its number, which {u}'s card prints and its data does not give: "
                               "name the power with the card's number, e.g. --power '{power} 20' (game power: '{power} 20')").format(
            power=power.name, u=user.id))
    if power.damage is None and not attacks and value % 10:
        # SWM damage comes in tens: "Force Grip 2", as the Minis database writes a later set's
        # power, is not 2 damage (R113); its card prints the damage, which the question may give
        raise AssistantError(_("{power}: {value} is not a damage (SWM damage comes in tens; reading R113 in docs/readings.md): it is "
                               "the power's level or Force cost, as the data writes it; name the power with the damage {u}'s card "
                               "prints, e.g. --power '{name} 20' (game power: '{name} 20')").format(
            power=written, value=value, u=user.id, name=power.name))
    if power.attack_roll and power.attacks_each:  # Lightsaber Throw 2, 5: its attacks are throws (PL p.52-53; R408)
        notes.append(
            Reason(
                n_(
                    "{power}: {n} attack against each one it strikes, with {u}'s own Attack and Damage, ignoring the melee restrictions; it counts "
                    "as a ranged attack (Lightsaber Deflect, Molecular Shielding apply): ask 'attack {u} {t}' for each roll",
                    "{power}: {n} attacks against each one it strikes, with {u}'s own Attack and Damage, ignoring the melee restrictions; they count "
                    "as ranged attacks (Lightsaber Deflect, Molecular Shielding apply): ask 'attack {u} {t}' for each roll",
                    power.attacks_each,
                ).format(power=written, n=power.attacks_each, t=target.id, u=user.id),
                rule,
            )
        )
    elif power.attack_roll:
        notes.append(
            Reason(
                _(
                    "{power}: one attack against {t}, ignoring the melee restrictions; it counts as a ranged attack (Lightsaber Deflect, Molecular "
                    "Shielding apply): ask 'attack {u} {t}' for its roll"
                ).format(power=written, t=target.id, u=user.id),
                rule,
            )
        )
    elif power.attacks_each:
        notes.append(
            Reason(
                n_(
                    "{power}: {n} attack against each one it strikes, with {u}'s own Attack and Damage; record each with 'game attack'",
                    "{power}: {n} attacks against each one it strikes, with {u}'s own Attack and Damage; record each with 'game attack'",
                    power.attacks_each,
                ).format(power=written, n=power.attacks_each, u=user.id),
                rule,
            )
        )
    if power.after_ally_defeat:
        notes.append(Reason(_("{power} may be used only after an ally with a Force rating has been defeated").format(power=written), rule))
    victims = _struck(pos, power, user, target, living)
    if power.area == "enemies-in-sight" and refusals_of is not None:
        victims = [victims[0], *[f for f in victims[1:] if not refusals_of(f)]]
    if power.living:
        victims = [victims[0], *[f for f in victims[1:] if living(f)]]
    if len(victims) > 1 or power.area != "target":
        notes.append(_area_note(power, written, user, target, victims, rule))
    save_json = None
    struck: list[Struck] = []
    for v in victims:
        steps = [
            s
            for s in saves.damage_steps(pos, user, v, melee=False, adjacent=engine.adjacent(pos, user, v), abilities_of=abilities_of, cite=cite)
            if s.effect == "reduce"
        ]
        if power.save_halves:
            p = saves.p_save(power.save_halves)
            e = (1 - p) * saves.expected(value, steps) + p * saves.expected(value // 2, steps)
        elif power.save_avoids:
            e = (1 - saves.p_save(power.save_avoids)) * saves.expected(value, steps)
        else:
            e = saves.expected(value, steps)
        expected = attacks * attack_expected(v) if attacks and attack_expected is not None else float(e)  # attacks: their rolls count
        struck.append(Struck(v.id, value, round(expected, 4), tuple(steps)))
    each = len(victims) > 1
    if power.save_halves:
        save_json = {"needs": power.save_halves, "chance": float(saves.p_save(power.save_halves)), "effect": "half damage"}
        notes.append(
            Reason(
                (
                    _("each character struck makes a save of {n}: on a success it takes half the damage")
                    if each
                    else _("{t} makes a save of {n}: on a success it takes half the damage")
                ).format(t=target.id, n=power.save_halves),
                rule,
            )
        )
    if power.save_avoids:
        save_json = {"needs": power.save_avoids, "chance": float(saves.p_save(power.save_avoids)), "effect": "no damage"}
        notes.append(
            Reason(
                (
                    _("each character struck avoids the damage with a save of {n} ({chance})")
                    if each
                    else _("{t} avoids the damage with a save of {n} ({chance})")
                ).format(t=target.id, n=power.save_avoids, chance=f"{float(saves.p_save(power.save_avoids)) * 100:.0f}%"),
                rule,
            )
        )
    if power.stun_save:
        stunned = [
            v.id
            for v in victims
            if (
                v.size.rank <= Size.LARGE.rank and saves.is_nonliving(abilities_of(v))
                if power.stun_nonliving
                else v.size.footprint <= 3
                if power.stun_huge
                else v.size.rank < Size.HUGE.rank
            )
            and not any(has(abilities_of(v), x) for x in power.effect_spares)
        ]
        if save_json is None:
            save_json = {
                "needs": power.stun_save,
                "chance": float(saves.p_save(power.stun_save)),
                "effect": "not stunned" if power.effect == "stunned" else "no effect",
            }
        chance = f"{float(saves.p_save(power.stun_save)) * 100:.0f}%"
        if stunned and power.effect == "stunned":
            notes.append(
                Reason(_("{who}: stunned unless a save of {n} is made ({chance})").format(who=", ".join(stunned), n=power.stun_save, chance=chance), rule)
            )
        elif stunned:
            notes.append(
                Reason(
                    _("{who}: {effect} unless a save of {n} is made ({chance})").format(
                        who=", ".join(stunned), effect=_(power.effect), n=power.stun_save, chance=chance
                    ),
                    rule,
                )
            )
    if power.push:
        pushed = [v.id for v in victims if v.size.footprint <= 3]
        if pushed:
            notes.append(
                Reason(
                    _("{who}: pushed {n} squares away from {u} (Huge and smaller)").format(who=", ".join(pushed), n=power.push, u=user.id),
                    cite("PL p.57 (push)"),
                )
            )
    if power.heals:
        notes.append(
            Reason(
                (
                    _("{u} removes as much of its own damage as {power} deals ({n} for each character that fails its save)")
                    if power.save_avoids
                    else _("{u} removes {n} of its own damage")
                ).format(u=user.id, power=written, n=value),
                rule,
            )
        )
    if power.name == "Sith Hunger" and pos.stats_of(target).force:
        notes.append(Reason(_("{t} loses 1 Force point and {u} gains 1").format(t=target.id, u=user.id), rule))
    if power.allies_too and target.side == user.side:
        notes.append(Reason(_("{t} is an ally: it makes a save of 11, and on a success it is healed {n} instead").format(t=target.id, n=value), rule))
    if power.cost:
        notes += _cancellers(pos, user, written, abilities_of, cite)
    notes.append(_replaces_note(power, written, user, rule))
    left = None if force is None or not power.cost else force - power.cost
    return PowerAnswer(
        pos.edition,
        user.id,
        target.id,
        written,
        not illegal,
        tuple(illegal),
        power.cost,
        left,
        "attack" if attacks else "none",
        save_json,
        tuple(struck),
        tuple(notes),
        rule,
        power.replaces,
        power.heals,
    )


#: the Force powers that cancel another's, each with its cost and reach: Force Absorb an adjacent
#: character's, Force Defense one's within 6 squares (PL p.43, p.44; CS g.5; reading R410)
CANCELLERS = (("Force Absorb", 2, 1, "PL p.43; CS g.5"), ("Force Defense", 3, 6, "PL p.44; CS g.5"))


def _cancellers(pos: Position, user: Figure, written: str, abilities_of: Callable[[Figure], tuple[str, ...]],
                cite: Callable[[str], str]) -> list[Reason]:
    """An enemy's Force Absorb or Force Defense that may cancel this Force power, said with its cost:
    "anuluje efekty Mocy użytej przez ... Tamta Moc nadal traktowana jest jako użyta w tej turze i
    postać zużywa na nią Punkty Mocy" (PL p.43-44; CS g.5). Whether the enemy spends its points is
    its player's choice: the answer's numbers stay those of the power used."""
    out = []
    for f in pos.figures:
        if f.side == user.side:
            continue
        for name, cost, reach, where in CANCELLERS:
            distance = engine.squares_between(pos, f, user)
            near = engine.adjacent(pos, f, user) if reach == 1 else distance is not None and distance <= reach
            have = pos.stats_of(f).force
            if has(abilities_of(f), name) and near and (have is None or have >= cost):
                out.append(Reason(
                    _("{f}'s {ability} ({cost} Force points, decided when {power} is declared): it may cancel {power}, which still counts as "
                      "used this turn, its Force points spent").format(f=f.id, ability=name, cost=cost, power=written),
                    cite(where)))
    return out


#: how each area's note names those struck: the others beside the target, or (user-centred
#: areas and "every enemy in sight") every one struck
AREA_NOTES: dict[str, str] = {
    "target+2": N_("{power} also strikes two characters next to {t}, friend or foe (the user too if there are too few others): {who}"),
    "target+adjacent": N_("{power} strikes {t} and every character next to it, friend or foe: {who}"),
    "target+adjacent-living": N_("{power} strikes {t} and every living character next to it, friend or foe: {who}"),
    "target+adjacent-living-enemies": N_("{power} strikes {t} and every living enemy next to it: {who}"),
    "enemies-in-sight": N_("{power} strikes every enemy {u} can see that is a legal target: {who}"),
    "around-user": N_("{power} strikes every character next to {u}, friend or foe: {who}"),
    "enemies-around-user": N_("{power} is against every enemy next to {u}: {who}"),
    "enemies-within": N_("{power} strikes every enemy within {n} squares of {u}: {who}"),
    "within": N_("{power} strikes every other character within {n} squares of {u}, friend or foe: {who}"),
}


def _area_note(power: Power, written: str, user: Figure, target: Figure, victims: list[Figure], rule: str) -> Reason:
    everyone = power.area in AROUND_USER or power.area == "enemies-in-sight"
    who = ", ".join(f.id for f in (victims if everyone else victims[1:])) or _("none")
    return Reason(_(AREA_NOTES[power.area]).format(power=written, t=target.id, u=user.id, who=who, n=power.radius), rule)


def _replaces_note(power: Power, written: str, user: Figure, rule: str) -> Reason:
    if power.attacks_each and power.replaces == "turn":
        return Reason(_("{power} replaces {u}'s whole turn").format(power=written, u=user.id), rule)
    if power.attack_roll or power.attacks_each:
        return Reason(_("{power} replaces {u}'s attacks this turn").format(power=written, u=user.id), rule)
    if power.replaces == "turn":
        return Reason(_("{power} replaces {u}'s whole turn; it needs no attack roll").format(power=written, u=user.id), rule)
    if power.replaces == "nothing":
        return Reason(_("{power} is used in {u}'s own turn; it is not an attack and needs no attack roll").format(power=written, u=user.id), rule)
    return Reason(_("{power} replaces {u}'s attacks this turn; it is not an attack and needs no attack roll").format(power=written, u=user.id), rule)
