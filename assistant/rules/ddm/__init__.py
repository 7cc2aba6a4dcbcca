"""D&D Miniatures: its edition, one module, and what a DDM edition shares (:mod:`.family`).

Importing this package registers the edition (its module registers its own record).
"""

from . import ddm2005

__all__ = ["ddm2005"]
