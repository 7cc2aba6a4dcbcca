"""The command-line interface: presentation only, no rules."""
