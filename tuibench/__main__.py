from tuibench.cli import main

raise SystemExit(main())
