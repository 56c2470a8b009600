"""Readers of producers' text, CSV and XML output, one module per producer."""
