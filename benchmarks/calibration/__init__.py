"""Calibration harness: simulated suites through tuibench's engine (see benchmarks/calibrate.py)."""
