"""Numbers and tables for people: formatting, the answer, the tables every output shows."""
