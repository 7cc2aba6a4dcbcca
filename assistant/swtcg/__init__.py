"""Star Wars Trading Card Game (2002; source: a Polish clarifications FAQ, digest ``swtcg.md``).

- :mod:`.attack` -- dice, hits, Accuracy, Armor, Shields, Critical Hit, Lucky, Overkill,
  prevention; where the FAQ is silent the published keyword definitions apply, and each
  answer says which rule came from where;
- :mod:`.contest` -- unique-unit contests with Force bidding;
- :mod:`.table` -- the table (sides, units in arenas and the build zone, pilots) and its file;
- :mod:`.engine` -- one table command at a time: setup, the shared turn's steps with Dark
  Side priority, building, pilots, retreat, attacks with their chances, contests, triggers;
- :mod:`.render` -- the table as text lines and as JSON;
- :mod:`.importers` -- cards from LackeyCCG set files;
- :mod:`.game` -- the game's record (``GAME``), as the card-game registry lists it.

The game log and the CLI are shared with the other card games (:mod:`assistant.cardgame`,
:mod:`assistant.cardgames`).
"""
