"""Star Wars: Destiny (rulebook in Polish; digest ``destiny.md``): the rules as pure
functions over frozen values, one module per rulebook topic.

- :mod:`.building` -- team and deck building (§2);
- :mod:`.dice` -- faces, and which dice one resolve-dice action may resolve (§5.3, §6);
- :mod:`.characters` -- damage, shields, healing and defeat (§7);
- :mod:`.play` -- setup roll, playing and activating cards, upkeep, victory (§3–§5.2, §7.8);
- :mod:`.round` -- the action phase: turns, passing, claiming the battlefield (§4.1, §5.6);
- :mod:`.table` -- the table (players, cards, dice, battlefield) and its file format;
- :mod:`.engine` -- one table command at a time: setup, the round, every action and the
  effects cards have, upkeep, the end of the round and victory; multiplayer free-for-all;
- :mod:`.render` -- the table as text lines and as JSON;
- :mod:`.importers` -- cards from swdestinydb JSON files;
- :mod:`.game` -- the game's record (``GAME``), as the card-game registry lists it.

The game log and the CLI are shared with the other card games (:mod:`assistant.cardgame`,
:mod:`assistant.cardgames`).
"""
