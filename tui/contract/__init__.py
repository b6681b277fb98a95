"""The wire contract the client and the emulator share: request and response models, limits, and neutral helpers."""
