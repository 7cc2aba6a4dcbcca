"""``python -m assistant cards ...``: browse, check and extend the stat-card library."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from ..cards import default_library, library_folders, load_folders
from ..errors import AssistantError
from ..i18n import _, n_
from ..yamlio import write_text_atomic
from .common import library, run
from .output import JsonOpt, edge, emit_json, err, out, print_problems

app = typer.Typer(help="Browse, check and extend the stat-card library.", no_args_is_help=True)

GameOpt = Annotated[str | None, typer.Option("--game", "-g", help="Only this game: swm or ddm.")]


def _check_game(game: str | None) -> str | None:
    # start-up time: the card-game verbs (their plug-ins' records) only for a `cards` line, not for
    # every line that builds the tree
    from ..commands.cardverbs import check_game

    return check_game(game)


@app.command("list")
def list_cards(ctx: typer.Context, game: GameOpt = None, json_out: JsonOpt = False) -> None:
    """List every card: name, game, set, cost and whether the card is fully known."""
    with edge(json_out, "cards"):
        g = _check_game(game)
        cards = library(ctx).cards(g)
        if json_out:
            emit_json(
                {
                    "query": "cards",
                    "cards": [{"name": c.name, "game": c.game, "set": c.set, "cost": c.cost, "complete": c.complete, "source": c.source} for c in cards],
                }
            )
            return
        table = Table(header_style="bold", box=None, pad_edge=False)
        for col in ("name", "game", "set", "cost", "known"):
            table.add_column(col)
        for c in cards:
            table.add_row(escape(c.name), c.game, escape(c.set), "?" if c.cost is None else str(c.cost), "full card" if c.complete else "partial")
        out.print(table)
        out.print(_("{n} cards. 'partial': the source states only some values; the rest read 'unknown'.").format(n=len(cards)))


@app.command("show")
def show_card(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="A card name, or a unique part of one.", show_default=False)],
    game: GameOpt = None,
    card_set: Annotated[str | None, typer.Option("--set", "-s", help="The card of this set (the same name is printed in several).")] = None,
    json_out: JsonOpt = False,
) -> None:
    """Show one card with every value, 'unknown' where the source gives none, its set and its source."""
    run(ctx, "cards show", json_out, name=name, game=game, in_set=card_set)


@app.command("import")
def import_cards(
    ctx: typer.Context,
    path: Annotated[Path, typer.Argument(help="Your copy of SW_Minis_Drafter's database, DB/SWminis.db.", show_default=False)],
    json_out: JsonOpt = False,
) -> None:
    """Read the SW_Minis_Drafter database (github.com/diomeneus/SW_Minis_Drafter, DB/SWminis.db) into
    your card library, a file a set; every command reads it after the shipped cards. Importing again
    replaces the same files. Exit 2 for a file that is not that database."""
    run(ctx, "cards import", json_out, path=path)


@app.command("validate")
def validate_cards(
    ctx: typer.Context,
    paths: Annotated[list[Path] | None, typer.Argument(help="Card files or folders (default: the whole library in use).")] = None,
    json_out: JsonOpt = False,
) -> None:
    """Check card files against the schema; report every problem with its line. Exit 2 if any."""
    with edge(json_out, "cards validate"):
        folders = list(paths) if paths else library_folders((ctx.find_root().obj or {}).get("cards", []))
        cards, problems, files = load_folders(folders)
        errors = [p for p in problems if p.severity == "error"]
        if json_out:
            obj: dict[str, Any] = {
                "query": "cards validate",
                "valid": not errors,
                "files": files,
                "cards": len(cards),
                "problems": [p.as_json() for p in problems],
            }
            if errors:
                obj["error"] = n_("{n} problem in the card files", "{n} problems in the card files", len(errors)).format(n=len(errors))
            emit_json(obj)
        elif errors:
            err.print(
                _("[bold red]invalid[/]: {problems} in {n} card files").format(
                    problems=n_("{n} problem", "{n} problems", len(errors)).format(n=len(errors)), n=len(files)
                )
            )
            print_problems(problems)
        else:
            out.print(_("[green]ok[/]: {n} cards in {n2} files").format(n=len(cards), n2=len(files)))
        if errors:
            raise typer.Exit(2)


SWM_TEMPLATE = """\
# A Star Wars Miniatures card, filled in from the physical card.
# Replace each 'unknown' with the printed value; leave 'unknown' where the card shows none.
# Check it with:  python -m assistant cards validate {file}
# Use it with:    python -m assistant --cards {file} ...   (or put its folder in $TABLETOP_CARDS)
format: tabletop-cards/1
game: swm
set: unknown                    # the set, e.g. Clone Strike
cards:
  - name: {name}
    source: physical card
    complete: true              # the whole card is written here
    cost: unknown
    factions: unknown           # e.g. [Republic] or [Fringe]
    unique: unknown             # true / false
    size: unknown               # small | medium | large | huge
    hp: unknown
    defense: unknown
    attack: unknown
    damage: unknown
    speed: unknown
    force: unknown              # Force points printed on the card
    special_abilities: []       # glossary names, [#] values written in: "Careful Shot +4"
    force_powers: []            # e.g. - {{name: Force Push 3, cost: 3}}
    commander_effect: none      # or: {{text: "...", effects: [{{affects: followers, range: 6, attack: 2}}]}}
    affinity: []                # with Affinity: the factions whose squads it may join, e.g. [Empire] (swm2008 PL p.33)
"""

DDM_TEMPLATE = """\
# A D&D Miniatures card (battle side), filled in from the physical card.
# Replace each 'unknown' with the printed value; leave 'unknown' where the card shows none.
# Check it with:  python -m assistant cards validate {file}
# Use it with:    python -m assistant --cards {file} ...   (or put its folder in $TABLETOP_CARDS)
format: tabletop-cards/1
game: ddm
set: unknown                    # the set, e.g. War Drums
cards:
  - name: {name}
    source: physical card
    complete: true              # the whole card is written here
    cost: unknown
    factions: unknown           # e.g. [LG] or [LE, CE]
    level: unknown
    speed: unknown
    flight: unknown             # true when Speed is printed with an F
    ac: unknown
    hp: unknown
    melee: unknown              # e.g. [{{bonus: 12, damage: 15}}, {{bonus: 12, damage: 15}}] for +12/+12 (15)
    ranged: unknown             # e.g. [{{bonus: 6, damage: 10, range: 6}}]; [] when it has none
    type: unknown               # e.g. Humanoid (Elf)
    size: unknown               # tiny | small | medium | large | huge
    commander_rating: none      # a number for commanders
    commander_effect: none
    special_abilities: []
    spells: []                  # e.g. - {{name: magic missile, uses: 2, text: "sight; 10 damage"}}
    unique: unknown
"""

#: the card template of each card family (cards.GAMES)
_TEMPLATES = {"swm": SWM_TEMPLATE, "ddm": DDM_TEMPLATE}


@app.command("new")
def new_card(
    name: Annotated[str, typer.Argument(help="The card's name as printed.", show_default=False)],
    game: Annotated[str, typer.Option("--game", "-g", help="swm or ddm.")],
    output: Annotated[Path | None, typer.Option("--output", "-o", help="File to write (default: NAME.yaml here).")] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing file.")] = False,
) -> None:
    """Write a card template to fill in from a physical card."""
    with edge():
        g = _check_game(game)
        if not name.strip() or "\n" in name:
            raise AssistantError(_("{name!r} is not a card name").format(name=name))
        slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "card"
        path = output or Path(f"{slug}.yaml")
        if path.exists() and not force:
            raise AssistantError(_("{path} already exists; use --force to overwrite it").format(path=path))
        quoted = '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'
        template = _TEMPLATES[g or ""]  # the option is required: g is one of GAMES
        write_text_atomic(path, template.format(name=quoted, file=path))
        err.print(_("wrote {path}: fill in the values from the card, then run 'python -m assistant cards validate {path}'").format(path=escape(str(path))))


def abilities_cmd(
    game: Annotated[str | None, typer.Option("--game", "-g", help="Only this game: swm or ddm.")] = None,
    json_out: JsonOpt = False,
) -> None:
    """The ability catalogue's coverage: modelled, known by name, and named on shipped cards."""
    from ..abilities import CATEGORIES, classify, known, modelled_names  # start-up time: the catalogue when asked
    from ..rules.applied import modelled_places  # start-up time: the edition records' abilities, as the line above

    with edge(json_out, "abilities"):
        g_only = _check_game(game)
        report: dict[str, dict[str, Any]] = {}  # game -> its coverage, as the JSON shows it
        for g in [g_only] if g_only else ["swm", "ddm"]:
            on_cards: dict[str, str] = {}
            for card in default_library().cards(g):
                names = list(card.special_abilities) + [p.name for p in getattr(card, "force_powers", ())]
                for text in names:
                    on_cards[text] = classify(g, text).status
            places = {n.lower(): where for n, where in modelled_places(g).items()}
            # modelled_in: where it is applied (attack, power, session); modelled: somewhere
            entries = [
                {"name": k.name, "game": g, "category": k.category, "modelled": bool(places.get(k.name.lower())),
                 "modelled_in": list(places.get(k.name.lower(), ())), "source": k.source}
                for (gg, _name), k in sorted(known().items())
                if gg == g
            ]
            by_category = {
                c: {"known": sum(1 for e in entries if e["category"] == c), "modelled": sum(1 for e in entries if e["category"] == c and e["modelled"])}
                for c in CATEGORIES
            }
            report[g] = {
                "known_by_name": len(entries),
                "modelled": modelled_names(g),
                "by_category": by_category,
                "entries": entries,
                "on_shipped_cards": {k: on_cards[k] for k in sorted(on_cards)},
            }
        if json_out:
            emit_json({"query": "abilities", "games": report})
            return
        for g, rep in report.items():
            on = rep["on_shipped_cards"]
            n_mod = sum(1 for v in on.values() if v == "modelled")
            out.print(
                _("[bold]{value}[/]: {rep} glossary names known, {n} modelled; on the shipped cards {n2} names, {n_mod} modelled").format(
                    value=g.upper(), rep=rep['known_by_name'], n=len(rep['modelled']), n2=len(on), n_mod=n_mod
                )
            )
            out.print(
                _("  by category (modelled / known): ") + ", ".join(f"{c} {n['modelled']}/{n['known']}" for c, n in rep["by_category"].items() if n["known"])
            )
            out.print("  modelled: " + escape(", ".join(rep["modelled"])))
            for name, status in on.items():
                colour = {"modelled": "green", "known": "yellow", "unknown": "red"}[status]
                out.print(f"  [{colour}]{status:8s}[/] {escape(name)}")


InSetOpt = Annotated[str | None, typer.Option("--set", "--in-set", "-s", help="The card's set, when its name is in several.", metavar="SET")]
SourceOpt = Annotated[str | None, typer.Option("--source", help="Where the numbers come from (kept beside them).", metavar="TEXT")]


@app.command("set")
def set_card(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="A card name, or a unique part of one.", show_default=False)],
    values: Annotated[list[str], typer.Argument(help="KEY=N, e.g. attack=14 (DDM attack lines one per attack: melee_attack=12/7).",
                                                show_default=False, metavar="KEY=N...")],
    in_set: InSetOpt = None,
    source: SourceOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Keep numbers a card's source does not give, for every later question (your card-overrides.yaml)."""
    run(ctx, "cards set", json_out, name=name, values=values, in_set=in_set, source=source)


@app.command("commander")
def commander_card(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="A card name, or a unique part of one.", show_default=False)],
    affects: Annotated[str | None, typer.Option("--affects", help="Whom it reaches: followers, allies, enemies or self.")] = None,
    text: Annotated[str | None, typer.Option("--text", help="The effect as the card words it (kept beside the numbers).")] = None,
    range_: Annotated[int | None, typer.Option("--range", help="Within this many squares of the commander (default: no limit).")] = None,
    attack: Annotated[int, typer.Option("--attack", help="Added to Attack.")] = 0,
    defense: Annotated[int, typer.Option("--defense", help="Added to Defense.")] = 0,
    damage: Annotated[int, typer.Option("--damage", help="Added to Damage.")] = 0,
    save: Annotated[int, typer.Option("--save", help="Added to saves.")] = 0,
    speed: Annotated[int, typer.Option("--speed", help="Added to Speed.")] = 0,
    condition: Annotated[list[str] | None, typer.Option("--condition", help="Only when: did-not-move, target-adjacent, ally-within-6 (repeatable).")] = None,
    name_contains: Annotated[str | None, typer.Option("--name-contains", help="Only characters whose name contains this.")] = None,
    requires: Annotated[str | None, typer.Option("--requires", help="Only characters with this ability (e.g. Droid).")] = None,
    in_set: InSetOpt = None,
    source: SourceOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Enter a card's commander effect once (who, range, what changes, the card's words); every later answer applies it."""
    run(ctx, "cards commander", json_out, name=name, affects=affects, text=text, range=range_, attack=attack, defense=defense,
        damage=damage, save=save, speed=speed, condition=condition, name_contains=name_contains, requires=requires,
        in_set=in_set, source=source)
