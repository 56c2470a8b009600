"""What the numbers say: comparisons against a reference, summaries, series, decisions."""
