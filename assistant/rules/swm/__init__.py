"""Star Wars Miniatures: its two editions, one module each, and what they share (:mod:`.family`).

Importing this package registers both editions (each module registers its own record).
"""

from . import swm2004, swm2008

__all__ = ["swm2004", "swm2008"]
