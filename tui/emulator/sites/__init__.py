"""The synthetic web sites the emulator scrapes, maps and shows to browsers instead of the internet."""
