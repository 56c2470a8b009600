"""Reading results: discovery of files, format readers, loading into one table, tuibench.toml."""
