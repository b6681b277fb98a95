"""The app shell: the app, the navigation table, intent messages and the failure sink."""
