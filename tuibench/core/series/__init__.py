"""Series of systems: change points, scaling curves and rankings (headless)."""
