"""Delivering an alert: the terminal's desktop notification and bell, a command, and webhooks.

`notice` is what is delivered; `terminal` builds the bytes for the terminal;
`command` runs the operator's command; `webhook` posts one notice, `webhook_queue`
posts them in the background; `deliverer` sends a notice to every configured outlet.
"""
