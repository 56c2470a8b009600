"""What results are: the result set, its systems, problems, units and options (no I/O)."""
