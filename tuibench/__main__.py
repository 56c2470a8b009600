from tuibench.cli import run

run()
