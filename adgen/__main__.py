from adgen.cli import main

raise SystemExit(main())
