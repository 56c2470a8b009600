"""The terminal explorer. `tuibench.tui.app.run(args)` starts it; the core never imports this."""
