"""The pure geometry core: exact, grid-aligned, no rules and no sampling."""
