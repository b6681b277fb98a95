"""The alerts screen: what the monitor fired, acknowledged and resolved, this run's and the journal's."""
