"""Any job by id: `g` reads an id or a URL with one, finds the job's kind and opens it."""
