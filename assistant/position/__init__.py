"""Position files (CONTRACT §2): load, validate and save ``tabletop-position/1``."""

from .format import FORMAT
from .load import LoadResult, check_position_file, check_position_text, load_position, parse_position
from .save import dump_position, position_to_data, save_position

__all__ = [
    "FORMAT",
    "LoadResult",
    "check_position_file",
    "check_position_text",
    "dump_position",
    "load_position",
    "parse_position",
    "position_to_data",
    "save_position",
]
