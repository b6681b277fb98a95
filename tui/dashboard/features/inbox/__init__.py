"""The webhook inbox: a local listener for the service's webhooks, and what it received.

`listener.py` accepts deliveries over HTTP (loopback by default); `store.py`
keeps them, checks their signatures and folds a delivery's retries into one
row. Neither imports Textual: the inbox screen (`screen.py`) reads the store.
`job_events.py` tells the crawls pane of the crawls and batches events name.
"""
