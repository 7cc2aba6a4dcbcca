"""The live table: one running game served to the players' phones (``serve``) and to an
interactive prompt (``shell``), as thin edges over the engine and the game log."""
