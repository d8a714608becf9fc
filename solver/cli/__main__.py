"""`python -m solver.cli`: the `klaverjas` command."""
import sys

from . import main

sys.exit(main())
