"""Small helpers every layer may use: printable text, workers, memory limits."""
