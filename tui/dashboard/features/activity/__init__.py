"""The activity pane, its job states, the failed view and the job detail screen."""
