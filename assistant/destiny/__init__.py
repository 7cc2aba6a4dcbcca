"""Star Wars: Destiny (rulebook in Polish; digest ``destiny.md``): the rules as pure
functions over frozen values, one module per rulebook topic.

- :mod:`.dice` -- faces, and which dice one resolve-dice action may resolve (§5.3, §6);
- :mod:`.characters` -- damage, shields, healing and defeat (§7);
- :mod:`.round` -- the action phase: turns, passing, claiming the battlefield (§4.1, §5.6).

Not built yet (issue 7): setup, upkeep, playing cards and their costs, activation, focus and
reroll, triggered abilities, victory checks, the game log and the CLI.
"""
