"""The terminal under the explorer: driver settings, watching it go away, quitting fast."""
