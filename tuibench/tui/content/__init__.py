"""What the explorer's widgets draw, made without Textual (see each module)."""
