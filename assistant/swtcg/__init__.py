"""Star Wars Trading Card Game (2002; source: a Polish clarifications FAQ, digest ``swtcg.md``).

- :mod:`.attack` -- dice, hits, Accuracy, Armor, Shields, Critical Hit, Lucky, Overkill,
  prevention; where the FAQ is silent the published keyword definitions apply, and each
  answer says which rule came from where;
- :mod:`.contest` -- unique-unit contests with Force bidding.

Not built yet (issue 7): table state, the turn's steps, build zone, pilots, triggered-ability
order, the game log and the CLI.
"""
