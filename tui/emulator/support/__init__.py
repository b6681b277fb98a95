"""The support desk behind `/v2/support/*`: docs search and the rule-based diagnosis of failed jobs."""
