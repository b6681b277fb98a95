"""What runs while nobody watches: alert rules, the journal and delivery; no Textual, no dashboard, no emulator."""
