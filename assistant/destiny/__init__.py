"""Star Wars: Destiny (rulebook in Polish; digest ``destiny.md``): the rules as pure
functions over frozen values, one module per rulebook topic.

- :mod:`.building` -- team and deck building (§2);
- :mod:`.dice` -- faces, and which dice one resolve-dice action may resolve (§5.3, §6);
- :mod:`.characters` -- damage, shields, healing and defeat (§7);
- :mod:`.play` -- setup roll, playing and activating cards, upkeep, victory (§3–§5.2, §7.8);
- :mod:`.round` -- the action phase: turns, passing, claiming the battlefield (§4.1, §5.6).

Not built yet (issue 7): the table state that ties these together, focus and reroll actions,
triggered abilities and their queue, the game log and the CLI.
"""
