"""Keys: the keymap, key overrides, the command palette, the help screen, typeahead, quitting and read-only mode."""
