"""`python -m bot` runs the bot; `python -m bot play` plays in the terminal."""

import sys

from bot.cli import main

sys.exit(main())
