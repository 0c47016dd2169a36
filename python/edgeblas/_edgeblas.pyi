# The compiled extension: internal; use the functions of the edgeblas package.
from typing import Any

SEMIRINGS: str

def __getattr__(name: str) -> Any: ...
