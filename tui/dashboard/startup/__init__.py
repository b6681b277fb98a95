"""Start-up: the command line, settings and contexts, the embedded emulator, serving as a web page, and checks."""
