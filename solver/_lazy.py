"""Names a package imports on first use (PEP 562), so that importing it stays cheap and a
missing or stale engine build is reported where a name that needs it is used."""
from importlib import import_module
from typing import Any, Callable, Dict, List, Tuple


def lazy_names(namespace: Dict[str, Any], names: Dict[str, str]
               ) -> Tuple[Callable[[str], Any], Callable[[], List[str]]]:
    """The `__getattr__` and `__dir__` of the package whose `globals()` is `namespace`, where
    `names` maps each lazy name to the module (relative to the package) that defines it."""
    package = namespace["__name__"]

    def __getattr__(name: str) -> Any:
        if name not in names:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(f".{names[name]}", package), name)
        namespace[name] = value
        return value

    def __dir__() -> List[str]:
        return sorted(set(namespace) | set(names))

    return __getattr__, __dir__
