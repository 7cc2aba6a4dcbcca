"""What the card games share: the table-command notation (:mod:`.notation`), the outcome of a
command, and the game log over the SQLite event store (:mod:`.log`)."""
